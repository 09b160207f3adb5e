"""The man page and the README say what they must."""

from __future__ import annotations

import pathlib
import re
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("groff") is None, reason="groff is not installed")
def test_man_page_renders_without_warnings() -> None:
    run = subprocess.run(
        ["groff", "-mandoc", "-Tutf8", "-ww", "-z", str(ROOT / "mille.6")],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0 and run.stderr == ""


def test_man_page_sections() -> None:
    text = (ROOT / "mille.6").read_text()
    for section in (
        "NAME",
        "SYNOPSIS",
        "DESCRIPTION",
        "CARDS",
        "RULES",
        "SCORING",
        "FILES",
        "EXIT STATUS",
    ):
        assert f".Sh {section}\n" in text


def test_ci_runs_the_readme_test_command() -> None:
    """.ci/run makes its own venv (in a temporary directory, not .venv) and
    then runs the README's test install and pytest."""
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "pip install -e '.[test]' && pytest" in readme
    assert '-m venv "$venv"' in ci and '. "$venv/bin/activate"' in ci
    assert "pip install -e '.[test]' && pytest" in ci


def test_ci_runs_the_quick_suite_on_every_python_named() -> None:
    """.ci/run loops over the Pythons README.md and CONTRIBUTING.md name."""
    readme = (ROOT / "README.md").read_text()
    contributing = (ROOT / "CONTRIBUTING.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    for version in ("3.10.13", "3.11.2", "3.11.7", "3.12.1", "3.13.0"):
        assert f'"{version} ' in ci and version in contributing
    named = "Python 3.10, 3.11 (Debian's 3.11.2 and 3.11.7), 3.12 and 3.13"
    assert named in " ".join(readme.split())
    assert '"3.11.2 /usr/bin/python3"' in ci


@pytest.mark.parametrize("bench", ["bench_playouts.py", "bench_selfplay.py", "bench_startup.py"])
def test_a_baseline_git_does_not_know_is_one_line(bench: str) -> None:
    """docs/benchmarks.md: ``--baseline`` takes any commit, branch or tag; an
    unknown one is refused with one line before anything is measured."""
    import sys

    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / bench), "--baseline", "no-such-revision"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.splitlines() == [
        f"{bench}: --baseline: no commit named 'no-such-revision' in this repository "
        "(give a commit hash, a branch or a tag; `git log --oneline` lists commits)"
    ]


def test_the_man_page_names_every_option() -> None:
    """mille.6 covers every option of ``mille --help`` (both forms of the
    on/off ones), every preset and every key of the board."""
    from mille.frontends.cli import _parser

    text = (ROOT / "mille.6").read_text()
    for action in _parser()._actions:
        for flag in action.option_strings:
            if flag.startswith("--"):
                assert f"Fl {flag[1:]}" in text, flag
    for preset in ("bsd", "classic", "milebymile"):
        assert f"Cm {preset}" in text
    for key in ("P", "U", "D", "O", "W", "H", "T", "L", "\\&?", "R", "S", "Q"):
        assert f".It Ic {key}" in text, key


def man_key(key: str) -> str:
    """A key as mille.6 writes it (``?`` is ``\\&?`` in mdoc)."""
    return "\\&?" if key == "?" else key


def help_keys() -> list[str]:
    """The keys ``mille --help`` lists: each letter of its keys section
    (``U n / D n`` gives U and D), and ``^L``, ``^C``, ``?``."""
    from mille.frontends.cli import HELP

    section = HELP.split("keys (case does not matter):\n")[1].split("\n\n")[0]
    keys = []
    for line in section.splitlines():
        if line.startswith("  ") and not line.startswith("   ") and not line.startswith("  ("):
            names = re.split(r"\s{2,}", line.strip())[0]
            keys += [word for word in re.split(r"[ ,/]+", names) if word != "n"]
    return keys


def test_the_help_lists_the_keys() -> None:
    assert help_keys() == [
        "P", "U", "D", "O", "W", "R", "^L", "S", "H", "T", "L", "Q", "^C", "J", "C", "?",
    ]  # fmt: skip


def test_the_man_page_and_the_readme_name_every_key_of_the_help() -> None:
    """Each key of ``mille --help`` has its entry in mille.6's KEYS (^L and
    ^C are control-L and the interrupt key there) and its row in the
    README's key table."""
    page = (ROOT / "mille.6").read_text()
    keys = page.split(".Sh KEYS\n")[1].split(".Sh ")[0]
    readme = (ROOT / "README.md").read_text()
    table = readme.split("## Keys")[1].split("\n\n## ")[0]
    for key in help_keys():
        if key.startswith("^"):
            assert {"^L": "control-L", "^C": "interrupt key"}[key] in keys, key
            assert f"`{key}`" in table, key
        else:
            assert ".It Ic " + man_key(key) in keys, key
            assert re.search(rf"^\| `{re.escape(key)}[` ]", table, re.M), key


def test_the_line_modes_commands_are_named() -> None:
    """Every word command of the line mode (and its letter) is in the
    README's line mode section and in mille.6's LINE MODE."""
    from mille.frontends.commands import WORDS

    readme = (ROOT / "README.md").read_text().split("## Line mode")[1].split("\n## ")[0]
    page = (ROOT / "mille.6").read_text().split(".Sh LINE MODE\n")[1].split(".Sh ")[0]
    page = page.replace("\\('e", "é")  # the page is ASCII: défausser is d\('efausser
    for word, letter in WORDS.items():
        assert f"`{word}" in readme, word
        assert re.search(rf"^    {re.escape(letter)}[ ,]", readme, re.M) or re.search(
            rf" {re.escape(letter)}(, [a-z])? +[a-z]", readme
        ), letter
        assert re.search(rf"^\.Ic .*\b{word}\b", page, re.M), word
        assert re.search(r"^\.Ic " + re.escape(man_key(letter)) + "( |$)", page, re.M), letter


def test_the_pages_tell_the_revised_rules_and_the_kept_games() -> None:
    """The texts a player meets, as the code writes them, are in the
    README and mille.6: the safety discard, the reshuffle's guard, the
    distances, the kept games and the save limit."""
    readme = (ROOT / "README.md").read_text()
    page = (ROOT / "mille.6").read_text()
    rules = (ROOT / "docs" / "rules.md").read_text()
    for text in (readme, page, rules):
        assert "Discard a safety?" in text
    for text in (page, rules):
        assert "until some side gains mileage" in text
        assert "three reshuffles in a row" in text and "end the race" not in text
    assert "race distance must be 300 to 3000" in rules
    assert "perfect crossing needs a race distance in 25s" in rules
    for text in (readme, page):
        assert "run mille alone to resume it" in text
        assert "4 MiB" in text
        assert "another mille took or changed it meanwhile" in text
    assert "interrupted-YYYYmmdd-HHMMSS-" in readme and "interrupted-YYYYmmdd-HHMMSS-" in page


@pytest.mark.skipif(shutil.which("groff") is None, reason="groff is not installed")
def test_the_man_page_fits_80_columns() -> None:
    """No table runs its columns together or off the page at 80 columns."""
    run = subprocess.run(
        ["groff", "-mandoc", "-Tutf8", "-rLL=78n", str(ROOT / "mille.6")],
        capture_output=True,
        text=True,
    )
    plain = re.sub(r".\x08", "", re.sub(r"\x1b\[[0-9;]*m", "", run.stdout))  # no bold, underline
    lines = plain.splitlines()
    assert lines and max(len(line) for line in lines) <= 80
    cards = next(i for i, line in enumerate(lines) if line.startswith("CARDS"))
    table = lines[cards + 1 : cards + 20]
    assert any(line.split() == ["Speed", "Limit", "hazard", "3", "4"] for line in table)
    assert any(line.split() == ["Right", "of", "Way", "safety", "1", "1"] for line in table)


def test_the_optional_save_keys_have_their_rows() -> None:
    """The keys a save writes only when set have a row in
    docs/save-format.md that says so."""
    from mille.storage.savefile import _TABLE_OPTIONAL, _TABLEAU_OPTIONAL

    doc = (ROOT / "docs" / "save-format.md").read_text()
    for key in (*_TABLE_OPTIONAL, *_TABLEAU_OPTIONAL):
        row = doc.split(f"| `{key}` |")[1].split("\n")[0]
        assert "optional, written only when" in row, key


def flat(text: str) -> str:
    """Text with its line breaks and runs of spaces as single spaces."""
    return " ".join(text.split())


def test_the_pages_say_what_the_help_says_to_a_newcomer() -> None:
    """Issue 28: who each level is for, that partners' hands are private
    and where Mile by Mile's played remedies go are said alike in the
    README, mille.6, docs/rules.md and the ``?`` screens."""
    from mille.engine.rules import find_rules
    from mille.frontends.bsd_screen import help_lines
    from mille.frontends.table_screen import table_help
    from mille.players.registry import LEVEL_GUIDE

    readme = flat((ROOT / "README.md").read_text())
    page = flat((ROOT / "mille.6").read_text())
    rules = flat((ROOT / "docs" / "rules.md").read_text())
    assert LEVEL_GUIDE == "easy for a first game, standard for most, expert for a challenge"
    assert LEVEL_GUIDE[0].upper() + LEVEL_GUIDE[1:] in readme
    assert "should try `--level easy`" in readme and "should try .Cm easy ." in page
    assert LEVEL_GUIDE in flat(" ".join(help_lines("standard")))
    team = flat(" ".join(table_help(find_rules("classic", players=4))))
    assert LEVEL_GUIDE in team and "Partners share a car; hands stay private." in team
    assert "Partners share a car; hands stay private, partners' included." in page
    assert "Hands stay private, partners' included." in rules
    for text in (readme, page, rules, team):
        assert "share their side's cards" not in text
    mile = flat(" ".join(table_help(find_rules("milebymile", players=3))))
    assert "Played remedies go on the discard pile (Discard Go)." in mile
    assert "Discard Go" not in team  # classic's remedies stay on the battle pile
    assert "every remedy played goes there too (a car keeps only its problems)" in readme
    assert "every remedy played goes there too (a car keeps only its problems)" in page
    assert "Played distance cards and remedies go to the discard pile" in rules


def test_the_pages_say_what_the_line_modes_switches_say() -> None:
    """Issue 28: ``t`` in the line mode turns on a tracker shown at every
    turn; the pages quote what it says when it turns on and off."""
    from mille.frontends.plain import TRACKER_ON

    for name in ("README.md", "mille.6"):
        text = flat((ROOT / name).read_text())
        for said in (TRACKER_ON, "The card tracker is off.", "Your hand is kept in order."):
            assert said in text, (name, said)


def test_the_pages_tell_the_first_runs_line() -> None:
    """Issue 28: BSD's board names ?, H, T and L on a first run; the pages
    quote the line and name the file that remembers it."""
    from mille.frontends.ui import WELCOME

    readme = flat((ROOT / "README.md").read_text())
    page = (ROOT / "mille.6").read_text()
    assert f"`{flat(WELCOME)}`" in readme
    assert "`welcomed`" in readme
    assert ".It Pa $XDG_STATE_HOME/mille/welcomed" in page
    assert ".Pq Dq \\&? help\\ \\ H hint\\ \\ T tracker\\ \\ L log" in page


def test_the_pages_say_a_hazard_lists_only_the_sides_it_can_hit() -> None:
    """Issue 28: both pages say the side prompt lists the sides a hazard can
    hit and that a hazard that can hit none is refused at once."""
    readme = flat((ROOT / "README.md").read_text())
    page = flat((ROOT / "mille.6").read_text())
    assert "listing only those it can hit" in readme
    assert "listing on the error line only the sides it can hit" in page
    assert "It can hit sides 2 Comp 1, 3 Comp 2 (u 4 S)." in readme
    assert "\\&It can hit sides 2 Comp 1, 3 Comp 2 (u 4 S)." in page
    for text in (readme, page):
        assert "opponent cannot go" in text


def test_the_pages_say_what_decides_a_hint() -> None:
    """Issue 28: the hint's why names what decided it; both pages quote
    the reasons as the hint words them."""
    readme = flat((ROOT / "README.md").read_text())
    page = flat((ROOT / "mille.6").read_text())
    for text in (readme, page):
        assert "100 would pass 700" in text
        assert "played out, it beats the usual D2 50: about 6 more hands won in 100" in text
        assert "played out, no clear better move than D2 50" in text


def test_the_pages_tell_the_colours_and_how_to_turn_them_off() -> None:
    """Issue 28: --no-color and NO_COLOR in --help, README and mille.6;
    the colours named alike; BSD's board plain."""
    from mille.frontends.cli import HELP

    readme = flat((ROOT / "README.md").read_text())
    page = flat((ROOT / "mille.6").read_text())
    colours = "hazards red, remedies green, safeties cyan, your side yellow"
    assert colours in readme and colours in page
    assert "--no-color" in HELP and "NO_COLOR" in HELP
    assert "`--no-color`" in readme and "`NO_COLOR`" in readme
    assert ".It Fl -no-color" in (ROOT / "mille.6").read_text()
    assert ".It Ev NO_COLOR" in (ROOT / "mille.6").read_text()
    assert "BSD's board has no colour" in readme and "BSD's board has no colour" in page
