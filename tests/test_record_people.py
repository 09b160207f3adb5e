"""A record that knows people (issue 40): your own name, the people you
played by name, head-to-head, ``--stats NAME`` and its filters, local
times, the rating's change and chart, ``--forget`` that asks and says
when nothing matched, ``--stats`` piped into ``head``."""

from __future__ import annotations

import io
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_record import played
from test_record_files import game, mille, run_stats

from mille import i18n
from mille.engine.text import width
from mille.frontends import record_words, recorder
from mille.game.session import Session
from mille.storage import record, settings, stats

EAST = {"TZ": "XYZ-3"}  # local time: UTC+3 (a POSIX TZ, no time zone files)


def network_game(
    number: int, totals: tuple[int, ...], names: tuple[str | None, ...]
) -> record.Game:
    """A game of one seat a side, the first seat here (a None: a computer)."""
    return record.Game(
        key=f"{number:032x}",
        ended=f"2026-01-0{1 + number // 60}T00:{number % 60:02d}:00Z",
        seconds=1.0,
        rules="milebymile",
        options={},
        place="network",
        level="easy" if None in names else "",
        seats=tuple(
            record.Seat(seat, seat + 1, name, None if name else "easy", here=seat == 0)
            for seat, name in enumerate(names)
        ),
        sides=tuple(record.Side(side + 1, total) for side, total in enumerate(totals)),
        number=number,  # (as the record numbers it, its moves kept)
        whole=True,
    )


# ----- item 7: piped into head ---------------------------------------------------------


@pytest.mark.parametrize("args", [["--stats"], ["--stats", "--json"]])
def test_stats_into_a_closed_pipe_ends_quietly(args: list[str]) -> None:
    """f55df03: a BrokenPipeError traceback (``mille --stats | head -1``)."""
    for number in range(1, 30):
        record.add(game(number))
    run = subprocess.Popen(
        [sys.executable, "-m", "mille", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    assert run.stdout is not None and run.stderr is not None
    run.stdout.close()  # the reader is gone before a line is written
    assert run.wait(timeout=120) == 0
    assert run.stderr.read() == b""


# ----- item 8: local times -------------------------------------------------------------------


def test_stats_says_local_times() -> None:
    """f55df03 printed UTC with no mark."""
    record.add(game(1))
    text = mille("--stats", env=EAST).stdout.splitlines()
    assert "  last games (local time; the rating after each; *: no moves kept):" in text
    assert "    #1* 2026-01-01 03:00 bsd vs standard: won 5000-100; 1516? (+16)" in text
    shown = json.loads(mille("--stats", "--json", env=EAST).stdout)
    (last,) = shown["people"][0]["last"]
    assert last["ended"] == "2026-01-01T00:00:01Z" and last["local"] == "2026-01-01T03:00:01+03:00"


# ----- item 16: your own name --------------------------------------------------------------


def test_name_at_home_is_remembered_and_the_record_uses_it() -> None:
    """f55df03 refused --name at home and recorded a player alone as Player 0."""
    script = played(Session.new(seed=3))
    first = subprocess.run(
        [sys.executable, "-m", "mille", "--plain", "--seed", "3", "--name", "Zoé"],
        input=script,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert first.returncode == 0, first.stderr
    assert "You" in first.stdout  # the screens still say You
    assert settings.name() == "Zoé"
    second = subprocess.run(
        [sys.executable, "-m", "mille", "--plain", "--seed", "3"],
        input=script,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert second.returncode == 0, second.stderr
    assert [[s.name for s in g.seats if s.here] for g in record.games()] == [["Zoé"], ["Zoé"]]
    assert "Zoé: 2 games, " in mille("--stats").stdout


def test_a_bad_name_at_home_is_one_line() -> None:
    done = mille("--name", "You")
    assert done.returncode == 1
    assert done.stderr == "mille: --name: 'You' is a name mille gives a seat\n"
    assert settings.name() is None


def test_a_person_alone_under_a_seats_name_is_recorded_under_their_own() -> None:
    assert recorder.recorded_names({0: "Player 0"}, (0,)) == {0: "ann-login"}
    settings.remember_name("Ann")
    assert recorder.recorded_names({0: "Player 0"}, (0,)) == {0: "Ann"}
    assert recorder.recorded_names({0: "Bob"}, (0,)) == {0: "Bob"}  # named: as named
    both = {0: "Player 0", 1: "Player 1"}
    assert recorder.recorded_names(both, (0, 1)) == both  # a hot seat: as the table says
    assert recorder.recorded_names({0: "Player 0", 1: "Ann"}, (0,)) == {0: "Player 0", 1: "Ann"}


@pytest.fixture(autouse=True)
def _login_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOGNAME", "ann-login")


@pytest.fixture
def utc(monkeypatch: pytest.MonkeyPatch) -> Any:
    import time

    monkeypatch.setenv("TZ", "UTC0")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


# ----- item 17 and the feature: the people you played ---------------------------------------


def history() -> list[record.Game]:
    return [
        network_game(1, (500, 1200), ("Ann", "Jo")),  # a loss to Jo
        network_game(2, (5000, 100), ("Ann", "Jo")),
        network_game(3, (5000, 100, 4000), ("Ann", "Jo", None)),
        network_game(4, (5000, 100), ("Ann", "Bob")),
        network_game(5, (100, 5000), ("Ann", None)),
    ]


def test_stats_names_the_people_played_and_says_head_to_head(utc: None) -> None:
    """f55df03: ``against people`` (or a level) and no name."""
    found = stats.statistics(history())
    (ann,) = found["people"]
    assert [(r["name"], r["won"], r["lost"]) for r in ann["head_to_head"]] == [
        ("Bob", 1, 0),
        ("Jo", 2, 1),
    ]
    assert [g["opponents"] for g in ann["last"]] == [
        [{"level": "easy"}],
        [{"name": "Bob"}],
        [{"name": "Jo"}, {"level": "easy"}],
        [{"name": "Jo"}],
        [{"name": "Jo"}],
    ]
    text = record_words.stats_lines(found, "/r", record_words.ASCII_SPARKS)
    assert "  Ann vs Bob: 1-0" in text and "  Ann vs Jo: 2-1" in text
    assert text[-7:-2] == [
        "    #5 2026-01-01 00:05 milebymile vs easy (network): lost 100-5000; 1481? (-25)",
        "    #4 2026-01-01 00:04 milebymile vs Bob (network): won 5000-100",
        "    #3 2026-01-01 00:03 milebymile vs Jo, easy (network): won 5000-4000; 1506? (+6)",
        "    #2 2026-01-01 00:02 milebymile vs Jo (network): won 5000-100",
        "    #1 2026-01-01 00:01 milebymile vs Jo (network): lost 500-1200",
    ]


def test_the_end_of_a_game_names_each_person_played() -> None:
    for one in history()[:3]:
        record.add(one)
    (ann,) = stats.statistics(record.games(), last=1)["people"]
    said, board = record_words.words(ann, {"easy": 1259}, None)
    assert said == [
        "Your record against easy at milebymile: won 1, lost 0 (100% of 1).",
        "Your record against Jo: won 2, lost 1 (66.7% of 3).",
        f"Your rating {ann['rating']}? (+{ann['last'][0]['change']}), provisional; easy 1259.",
    ]
    assert board == f"1-0 vs easy; 2-1 vs Jo; rating {ann['rating']}? (+{ann['last'][0]['change']})"


def test_stats_name_the_last_games_and_the_filters() -> None:
    for one in history():
        record.add(one)
    record.add(game(9, names=("Bob", None)))
    status, out, err = run_stats(False, "ANN", last=2)
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[1].startswith("Ann: 5 games, won 3, lost 2 ")
    assert not any(line.startswith("Bob:") for line in lines)
    assert len([line for line in lines if line.startswith("    #")]) == 2
    status, out, err = run_stats(True, None, people=("jo",))
    shown = json.loads(out)
    assert [p["name"] for p in shown["people"]] == ["Ann"] and shown["people"][0]["games"] == 3
    status, out, _ = run_stats(True, None, level="easy")
    assert [p["games"] for p in json.loads(out)["people"]] == [2]
    status, out, _ = run_stats(True, None, rules="bsd")
    assert [(p["name"], p["games"]) for p in json.loads(out)["people"]] == [("Bob", 1)]
    status, out, err = run_stats(False, "Cy")
    assert status == 1 and out == ""
    assert err == "mille: --stats: no game of Cy in the record (its names: Ann, Bob, Jo)\n"
    status, out, err = run_stats(False, "jo")
    assert status == 1 and out == ""
    assert err == (
        "mille: --stats: jo played no game at this machine"
        " (the games against them: --stats --people jo)\n"
    )


def test_the_stats_options_are_read_and_go_alone() -> None:
    from mille.frontends.cli import UsageError, parse_args

    options = parse_args(
        ["--stats", "Ann", "--last", "9", "--rules", "classic", "--people", "Jo,Bo"]
    )
    assert options.action == "stats" and options.name == "Ann" and options.stats is not None
    assert (options.stats.last, options.stats.rules, options.stats.people) == (
        9,
        "classic",
        ("Jo", "Bo"),
    )
    assert parse_args(["--forget", "Ann", "--yes"]).yes
    for argv, said in [
        (["--stats", "--seed", "1"], "mille: --stats takes no other option or file"),
        (["--stats", "a", "b"], "mille: --stats takes no other option or file"),
        (["--forget", "Ann", "--json"], "mille: --json goes with --stats"),
        (["--yes"], "mille: --yes goes with --forget"),
        (["--last", "3"], "mille: --last goes with --stats"),
        (["--stats", "--rules", "x"], "mille: --rules: x is not bsd, classic, milebymile"),
    ]:
        with pytest.raises(UsageError) as caught:
            parse_args(argv)
        assert str(caught.value).splitlines()[0] == said


# ----- the rating's change and chart ------------------------------------------------------------


def test_the_rating_chart_fits_80_columns_and_is_plain_when_piped() -> None:
    for number in range(1, 80):
        record.add(game(number, (5000, 100) if number % 3 else (100, 5000)))
    (ann,) = stats.statistics(record.games())["people"]
    assert ann["rated_games"] == 79 and len(ann["history"]) == 79 and not ann["provisional"]
    lines = record_words.stats_lines(stats.statistics(record.games()), "/r")
    chart = next(line for line in lines if line.startswith("  rating, last 40 games: "))
    assert width(chart) <= 80 and len(set(chart.split(": ")[1].split()[0])) > 2
    assert all(width(line) <= 80 for line in lines[1:])
    piped = mille("--stats", env={"PYTHONIOENCODING": "ascii"})
    assert piped.returncode == 0 and piped.stdout.isascii()
    assert "  rating, last 40 games: " in piped.stdout
    assert "A rating marked ?" not in piped.stdout  # (79 games: no longer provisional)


def test_stats_json_carries_it_all() -> None:
    for one in history():
        record.add(one)
    shown = json.loads(mille("--stats", "--json", "--last", "1").stdout)
    (ann,) = shown["people"]
    assert set(ann) >= {
        "name", "games", "won", "lost", "tied", "share", "rating", "provisional",
        "rated_games", "history", "best", "average", "streak", "by", "head_to_head", "last",
    }  # fmt: skip
    (last,) = ann["last"]
    assert set(last) >= {
        "ended", "local", "rules", "against", "opponents", "place", "result", "score",
        "best_other", "rating", "change", "provisional",
    }  # fmt: skip
    assert shown["provisional"] == 10 and shown["levels"]["easy"] == 1259


# ----- item 18: --forget asks, and says when nothing matched -------------------------------------


def forget(monkeypatch: pytest.MonkeyPatch, answer: str | None, *args: Any) -> tuple[int, str, str]:
    asked: list[str] = []

    def reply(prompt: str) -> str:
        asked.append(prompt)
        assert answer is not None, "asked"
        return answer

    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(record_words, "_stdin_is_terminal", lambda: True)
        patch.setattr("builtins.input", reply)
        patch.setattr(sys, "stdout", out)
        patch.setattr(sys, "stderr", err)
        status = record_words.forget(*args)
    return status, "".join(asked) + out.getvalue(), err.getvalue()


def test_forget_asks_at_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    for one in history():
        record.add(one)
    assert forget(monkeypatch, "n", "jo") == (
        1,
        "Forget jo in 3 games? (y/n) Nothing forgotten.\n",
        "",
    )
    assert forget(monkeypatch, "y", "jo") == (
        0,
        "Forget jo in 3 games? (y/n) Forgot jo: 3 games.\n",
        "",
    )
    assert forget(monkeypatch, None, "bob", True) == (0, "Forgot bob: 1 game.\n", "")
    assert forget(monkeypatch, None, "Jo") == (
        1,
        "",
        "mille: --forget: no game of Jo in the record (its names: Ann)\n",
    )


def test_forget_takes_oui_in_french(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 49, item 2a: in French o and oui are yes (o was taken as no)."""
    for one in history():
        record.add(one)
    assert i18n.choose("fr") == "fr"
    try:
        status, said, err = forget(monkeypatch, "o", "bob")
        assert (status, err) == (0, "") and said.endswith(
            "\u00a0? (o/n) bob oublié\u00a0: 1 partie.\n"
        )
        status, said, err = forget(monkeypatch, "non", "jo")
        assert (status, err) == (1, "") and said.endswith(" (o/n) Rien oublié.\n")
    finally:
        i18n.use(None)


# ----- the schema's migration -----------------------------------------------------------------


def test_a_record_of_schema_1_is_brought_to_the_latest_schema(tmp_path: Path) -> None:
    where = tmp_path / "record.sqlite3"
    db = sqlite3.connect(where)
    db.executescript(record.MIGRATIONS[1] + "PRAGMA user_version = 1;")
    db.execute(
        "INSERT INTO games VALUES (1, ?, '2026-01-01T00:00:00Z', 1.0, 'bsd', '{}', 'keyboard',"
        " 'standard')",
        ("a" * 32,),
    )
    db.execute("INSERT INTO seats VALUES (1, 0, 1, 'ÅSA', NULL, 1)")
    db.execute("INSERT INTO seats VALUES (1, 1, 2, NULL, 'standard', 0)")
    db.execute("INSERT INTO sides VALUES (1, 1, 5000, '[5000]', 0, 0)")
    db.execute("INSERT INTO sides VALUES (1, 2, 100, '[100]', 0, 0)")
    db.commit()
    db.close()
    (old,) = record.games(str(where))
    assert [s.name for s in old.seats] == ["ÅSA", None]
    db = sqlite3.connect(where)
    assert db.execute("PRAGMA user_version").fetchone()[0] == record.VERSION
    assert db.execute("SELECT folded FROM seats WHERE seat = 0").fetchone()[0] == "åsa"
    db.close()
    assert record.forget("åsa", str(where)) == 1
    os.remove(where)
