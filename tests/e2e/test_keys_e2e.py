"""End to end: keys a player can really send, through the installed ``mille``.

Held keys, pastes, arrow and function keys, ``?``, fast window drags,
names the locale cannot show, and a Python without SIGHUP: the game never
breaks and the screen is always whole.
"""

from __future__ import annotations

import os
import random
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

from test_ui_scripted import hand_over

from mille.game.session import Session
from mille.storage.savefile import save_session
from support.screen import Term

Spawn = Callable[..., Term]


def prompt_line(term: Term) -> str:
    return term.lines()[10].ljust(40)[20:40].rstrip()


def error_line(term: Term) -> str:
    return term.lines()[15].ljust(80)[45:80].rstrip()


def start(spawn: Spawn, *args: str, **kwargs: object) -> Term:
    term = spawn(*args, **kwargs)
    term.wait_for(">>:Move:", row=10)
    term.wait_for("--MILEAGE--", row=17)
    term.settle()
    return term


def test_holding_s_at_really_keeps_the_game(spawn: Spawn, tmp_path: Path) -> None:
    save_session(Session.new(seed=21), str(tmp_path / "g"))
    term = start(spawn, "g", cwd=tmp_path)
    term.send("q")
    term.wait_for("Really?", row=10)
    term.paste(b"S" * 5000)
    term.wait_for("Same file?", row=10)
    term.send("n")
    term.wait_for("file:", row=10)
    term.send("\r")
    term.wait_for("Really?", row=10)
    term.send("n")
    term.wait(lambda: prompt_line(term) == ">>:Move:", what="the move prompt")
    term.send("p")
    term.wait(lambda: term.lines()[6][2:20].strip() != "", what="a pick")
    assert b"internal error" not in term.raw and b"Traceback" not in term.raw


def test_a_python_without_sighup_plays(spawn: Spawn, tmp_path: Path) -> None:
    """As on Windows: no SIGHUP, no SIGWINCH in the signal module."""
    script = (
        "import signal; del signal.SIGHUP, signal.SIGWINCH\n"
        "from mille.frontends import cli; raise SystemExit(cli.main(['--seed', '1']))\n"
    )
    term = start(spawn, "-c", script, command=sys.executable, cwd=tmp_path)
    term.send("q")
    term.wait_for("Really?", row=10)
    term.send("y")
    assert term.wait_exit() == 0
    assert b"internal error" not in term.raw


# ----- the file: prompt ------------------------------------------------------


def test_a_32k_paste_at_file_is_capped_and_quick(spawn: Spawn, tmp_path: Path) -> None:
    term = start(spawn, "--seed", "2", cwd=tmp_path)
    term.send("s")
    term.wait_for("file:", row=10)
    name = "a" * 250 + "bcdef"  # the cap: 255 bytes
    began = time.monotonic()
    term.paste((name + "x" * (32 * 1024 - len(name))).encode())
    term.wait(lambda: prompt_line(term).endswith("abcdef"), timeout=5, what="the capped name")
    term.send("\r")
    term.wait(
        lambda: prompt_line(term) == ">>:Move:" and error_line(term) == "a" * 35,
        timeout=5,
        what="the move prompt, NAME [date] cut at the window's edge",
    )
    assert os.listdir(tmp_path) == [name]
    assert time.monotonic() - began < 30  # was 67 s: quadratic
    assert b"internal error" not in term.raw


def test_a_name_the_locale_cannot_show_is_escaped(spawn: Spawn, tmp_path: Path) -> None:
    term = start(spawn, "--seed", "2", cwd=tmp_path, env={"LC_ALL": "C"})
    term.send("s")
    term.wait_for("file:", row=10)
    term.send("é2".encode())
    term.wait(lambda: prompt_line(term) == "file: \\xc3\\xa92", what="the escaped echo")
    term.send("\r")
    term.wait(lambda: error_line(term).startswith("\\xc3\\xa92 ["), what="the save note")
    assert os.listdir(tmp_path) == ["é2"]


def test_a_restored_name_with_a_newline_stays_on_the_error_line(
    spawn: Spawn, tmp_path: Path
) -> None:
    save_session(Session.new(seed=22), str(tmp_path / "a\nb"))
    term = start(spawn, "a\nb", cwd=tmp_path)
    stamp = time.ctime(os.stat(tmp_path / "a\nb").st_mtime)
    assert error_line(term) == f"a\\nb [{stamp}]"[:35]
    assert term.lines()[16].ljust(80)[:40].strip() == "", "nothing spilled onto the board"


# ----- the screen ---------------------------------------------------------------


def test_resize_storms_end_in_a_whole_board(spawn: Spawn) -> None:
    term = start(spawn, "--seed", "1")
    before = term.settle()
    dice = random.Random(7)
    for round_ in range(20):
        if round_ % 2:
            sizes = [(1, 1)]  # a fast drag to nothing and back
        else:
            sizes = [(dice.randint(1, 40), dice.randint(1, 100)) for _ in range(5)]
        busy = round_ % 4 == 3  # mille too busy to look: the signals come together
        if busy:
            term.child.kill(signal.SIGSTOP)
        for rows, cols in sizes:
            term.resize(rows, cols)
        term.resize(24, 80)
        if busy:
            term.child.kill(signal.SIGCONT)
        term.wait(
            lambda: term.lines() == before,
            timeout=5,
            what=f"the board after storm {round_} {sizes} (no key sent)",
        )
    assert term.bells() == 0


def test_a_restore_note_stays_when_the_computer_moves_first(spawn: Spawn, tmp_path: Path) -> None:
    session = hand_over(Session.new(seed=10))
    session.next_hand()
    assert session.computer_to_move
    save_session(session, str(tmp_path / "g"))
    term = start(spawn, "g", cwd=tmp_path)
    assert term.lines()[11][20:27] in ("PLAY   ", "DISCARD"), "the computer moved"
    assert error_line(term).startswith("g [")
    term.send("p")
    term.wait(lambda: term.lines()[6][2:20].strip() != "", what="a pick")
    assert error_line(term).startswith("g [")


def test_arrow_and_function_keys_are_one_unknown_key(spawn: Spawn) -> None:
    term = start(spawn, "--seed", "1")
    before = term.settle()
    for keys, name in [
        ("\x1b[D", "^[[D"),
        ("\x1bOP", "^[OP"),
        ("\x1b[15~", "^[[15~"),
        ("\x1b", "^["),
    ]:
        term.send(keys)
        message = f"unknown command: {name}"
        term.wait(lambda: error_line(term) == message, what=name)  # noqa: B023 (called at once)
        term.settle()
        assert prompt_line(term) == ">>:Move:"
        assert [line[:40] for line in term.lines()[:10]] == [line[:40] for line in before[:10]], (
            "no pick, no order"
        )
        term.send("x")
        term.wait_for("unknown command: X", row=15)
    term.send("u\x1b[A")
    term.wait(lambda: prompt_line(term) == ">>:Move: U^[[A", what="the refused key")
    term.send("\x15q\x1b[B")
    term.wait_for("Really?", row=10)
    term.send("n")
    term.wait(lambda: prompt_line(term) == ">>:Move:", what="the move prompt")


def test_question_mark_shows_the_help_until_a_key(spawn: Spawn) -> None:
    term = start(spawn, "--seed", "1")
    before = term.settle()
    term.send("?")
    term.wait_for("Press any key", timeout=5)
    lines = term.settle()
    assert lines[0].startswith("MILLE BORNES")
    assert "U n" in term.text() and "coup fourre" in term.text()
    term.send(" ")
    term.wait_for("--MILEAGE--", row=17)
    assert term.settle() == before


LATE_CTRL_C = """
import os, signal
from mille.frontends import cli, ui

real, count = ui.Ui.render, [0]

def render(self):
    real(self)
    count[0] += 1
    if count[0] == 2:  # the screen is drawn just before the key is waited for
        os.kill(os.getpid(), signal.SIGINT)  # ^C after the flag was looked at

ui.Ui.render = render
raise SystemExit(cli.main(["--seed", "1"]))
"""


def test_a_ctrl_c_just_before_the_read_is_not_lost(spawn: Spawn, tmp_path: Path) -> None:
    """The race of ^C between the check of the flag and the read, made
    certain: Really? must come without another key."""
    script = tmp_path / "late.py"
    script.write_text(LATE_CTRL_C)
    term = spawn(str(script), command=sys.executable, cwd=tmp_path)
    term.wait_for("Really?", row=10, timeout=3)
    term.send("y")
    assert term.wait_exit() == 0
