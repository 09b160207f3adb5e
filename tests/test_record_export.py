"""The record keeps every game whole (issue 47): a game that ends is kept
with its deals and moves (schema 3), a record of schema 2 still reads (its
games say they have no moves), ``--stats`` numbers the games it lists and
``mille --export N FILE`` writes one as a game file that validates and
replays; each refusal is one line."""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from mille.engine.moves import Event
from mille.engine.rules import find_rules
from mille.engine.table import OVER, Use
from mille.frontends import cli, recorder
from mille.game.history import replay
from mille.game.session import Session
from mille.storage import gamefile, record


@pytest.fixture(autouse=True)
def _login_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOGNAME", "ann-login")


def finished(rules_name: str = "classic", players: int = 3, seed: int = 2) -> list[list[Event]]:
    """A game played to its end, its hands noted by a recorder (which
    writes it to the record): each hand's log as it was played."""
    rules = find_rules(rules_name, players=players)
    session = Session.new(rules, seed=seed, humans=(0,), names={0: "Ann"}, level="easy")
    keeper = recorder.Recorder()
    keeper.begin()
    table = session.table
    logs: list[list[Event]] = []
    while True:
        if table.phase == OVER:
            logs.append(list(session.log))
            keeper.hand_over(session)
            if table.game_over:
                return logs
            session.next_hand()
        elif session.computer_to_move:
            session.computer_move()
        else:
            if len(session.log) == 3:
                session.set_ordering(not table.ordering)  # an O, kept too
            legal = [m for m in table.legal_moves() if not table.discards_safety(m)]
            session.play(next((m for m in legal if isinstance(m, Use)), legal[0]))


def test_a_game_that_ends_is_kept_whole_and_replays_as_played() -> None:
    logs = finished()
    (kept,) = record.games()
    assert kept.whole and kept.number == 1
    text = record.history(1)
    assert text is not None
    again = list(replay(gamefile.loads(text)))
    assert [hand.log for hand in again] == [tuple(log) for log in logs]
    assert gamefile.loads(text).people == {0: "Ann"}


def schema_2_record() -> str:
    """A record written by mille before it kept moves: schema 2, one game."""
    where = record.path()
    os.makedirs(os.path.dirname(where))
    db = sqlite3.connect(where)
    db.create_function("fold", 1, lambda name: name)
    db.executescript(record.MIGRATIONS[1] + record.MIGRATIONS[2] + "PRAGMA user_version = 2;")
    db.execute(
        "INSERT INTO games VALUES (1, ?, '2026-01-01T00:00:01Z', 1.0, 'bsd', '{}',"
        " 'keyboard', 'standard')",
        ("0" * 31 + "1",),
    )
    db.execute("INSERT INTO seats VALUES (1, 0, 1, 'Ann', NULL, 1, 'ann')")
    db.execute("INSERT INTO seats VALUES (1, 1, 2, NULL, 'standard', 0, NULL)")
    db.execute("INSERT INTO sides VALUES (1, 1, 5000, '[5000]', 0, 0)")
    db.execute("INSERT INTO sides VALUES (1, 2, 100, '[100]', 0, 0)")
    db.commit()
    db.close()
    return where


def test_a_schema_2_record_still_reads_and_its_games_have_no_moves(
    capsys: pytest.CaptureFixture[str],
) -> None:
    where = schema_2_record()
    (old,) = record.games()
    assert (old.number, old.whole, [s.name for s in old.seats]) == (1, False, ["Ann", None])
    assert record.history(1) is None
    db = sqlite3.connect(where)
    assert db.execute("PRAGMA user_version").fetchone()[0] == record.VERSION
    db.close()
    finished()  # a new game: kept whole beside the old one
    assert [(game.number, game.whole) for game in record.games()] == [(1, False), (2, True)]
    assert cli.main(["--stats", "--last", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "  last games (local time; the rating after each; *: no moves kept):" in lines
    assert [line.split()[0] for line in lines if line.startswith("    #")] == ["#2", "#1*"]


def test_stats_numbers_the_games_it_lists(capsys: pytest.CaptureFixture[str]) -> None:
    finished(seed=2)
    finished(seed=3)
    assert cli.main(["--stats"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "  last games (local time; the rating after each):" in lines
    assert [line.split()[0] for line in lines if line.startswith("    #")] == ["#2", "#1"]
    assert cli.main(["--stats", "--json"]) == 0
    (ann,) = json.loads(capsys.readouterr().out)["people"]
    assert [(game["number"], game["moves"]) for game in ann["last"]] == [(2, True), (1, True)]


def test_export_writes_a_game_file_that_validates_and_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = finished("milebymile", 4)
    file = tmp_path / "game.json"
    assert cli.main(["--export", "1", str(file)]) == 0
    assert capsys.readouterr().out == f"Game 1 written to {file}.\n"
    text = file.read_text(encoding="utf-8")
    assert text.startswith('{"format": "mille-game", "version": 1, "rules": {"name": "milebymile"')
    assert len(text.splitlines()) == len(logs) + 3  # one hand a line
    history = gamefile.load(str(file))
    assert [hand.log for hand in replay(history)] == [tuple(log) for log in logs]


def refusal(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    status = cli.main(["--export", *args])
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    return status, err.rstrip("\n")


def test_the_refusals_of_export_are_one_line_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema_2_record()
    finished()
    there = tmp_path / "there.json"
    there.write_text("mine\n")
    assert refusal(capsys, "x", "a.json") == (
        1,
        "mille: --export: x is not a game's number (mille --stats numbers them)"
        " (mille --help lists the options)",
    )
    assert refusal(capsys, "9", str(tmp_path / "a.json")) == (
        1,
        "mille: --export: no game 9 in the record (mille --stats numbers them)",
    )
    assert refusal(capsys, "1", str(tmp_path / "a.json")) == (
        1,
        "mille: --export: game 1 was recorded without its moves"
        " (by an older mille, or resumed from a save)",
    )
    missing = tmp_path / "no" / "a.json"
    assert refusal(capsys, "2", str(missing)) == (
        1,
        f"mille: --export: {missing}: No such file or directory",
    )
    assert refusal(capsys, "2", str(there)) == (
        1,
        f"mille: --export: {there}: it exists (never overwritten: choose another name)",
    )
    assert there.read_text() == "mine\n"
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "elsewhere.json")
    assert refusal(capsys, "2", str(link))[1].startswith(f"mille: --export: {link}: ")
    assert not (tmp_path / "elsewhere.json").exists()
    assert refusal(capsys, "2", "f.json", "--plain") == (
        1,
        "mille: --export takes no other option or file (mille --help lists the options)",
    )
    assert not os.path.exists(tmp_path / "a.json")


def test_forget_takes_the_name_out_of_the_moves_kept_too() -> None:
    finished()
    assert record.forget("ann") == 1
    text = record.history(1)
    assert text is not None and "Ann" not in text
    assert gamefile.loads(text).people == {0: None}


def test_the_export_and_its_refusals_in_french(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    finished()
    file = tmp_path / "partie.json"
    assert cli.main(["--lang", "fr", "--export", "1", str(file)]) == 0
    assert capsys.readouterr().out == f"Partie 1 écrite dans {file}.\n"
    assert cli.main(["--lang", "fr", "--export", "1", str(file)]) == 1
    assert capsys.readouterr().err == (
        f"mille\u00a0: --export\u00a0: {file}\u00a0: il existe"
        " (jamais écrasé\u00a0: choisissez un autre nom)\n"
    )
    assert cli.main(["--lang", "fr", "--export", "2", str(file)]) == 1
    assert capsys.readouterr().err == (
        "mille\u00a0: --export\u00a0: aucune partie 2 enregistrée (mille --stats les numérote)\n"
    )


def test_a_game_resumed_from_a_save_is_recorded_without_its_moves() -> None:
    """The save holds the hand in progress, not the deals before it: the
    game is recorded (its result whole), its moves not."""
    from mille.storage import savefile

    session = Session.new(find_rules("bsd"), seed=4, humans=(0,), names={0: "Ann"})
    while len(session.log) < 10:
        if session.computer_to_move:
            session.computer_move()
        else:
            table = session.table
            session.play(next(m for m in table.legal_moves() if not table.discards_safety(m)))
    resumed = savefile.loads(savefile.dumps(session))
    assert resumed.cards_dealt is None
    keeper = recorder.Recorder()
    table = resumed.table
    while not (table.phase == OVER and table.game_over):
        if table.phase == OVER:
            keeper.hand_over(resumed)
            resumed.next_hand()
        elif resumed.computer_to_move:
            resumed.computer_move()
        else:
            legal = [m for m in table.legal_moves() if not table.discards_safety(m)]
            resumed.play(next((m for m in legal if isinstance(m, Use)), legal[0]))
    keeper.hand_over(resumed)
    (kept,) = record.games()
    assert (kept.number, kept.whole) == (1, False)
    assert record.history(1) is None


def test_a_game_kept_in_pending_keeps_its_moves_and_damaged_moves_cost_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game that waited in pending/ (the record could not be written)
    is taken in with its moves; moves another program damaged are said in
    one line by --export."""
    logs = finished()
    text = record.history(1)
    (first,) = record.games()
    waiting = replace(first, key="f" * 32, history=text)
    folder = os.path.join(os.path.dirname(record.path()), record.PENDING)
    assert record._keep_pending(folder, [waiting])
    finished(seed=3)  # takes the waiting game in (after its own: number 3)
    numbers = {game.key: (game.number, game.whole) for game in record.games()}
    assert numbers["f" * 32] == (3, True)
    again = gamefile.loads(record.history(3) or "")
    assert [hand.log for hand in replay(again)] == [tuple(log) for log in logs]
    db = sqlite3.connect(record.path())
    db.execute("UPDATE moves SET data = ? WHERE game = 1", (record._packed(text or "")[:-9],))
    db.execute("UPDATE moves SET data = ? WHERE game = 2", (record._packed('{"format": 1}'),))
    db.commit()
    db.close()
    status, said = refusal(capsys, "1", str(tmp_path / "a.json"))
    assert status == 1 and said.startswith("mille: --export: the moves of game 1 cannot be read: ")
    assert refusal(capsys, "2", str(tmp_path / "a.json")) == (
        1,
        "mille: --export: the moves of game 2 cannot be read: format: not a mille game file (1)",
    )
