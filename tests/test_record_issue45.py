"""The record and names against what other programs leave (issue 45): a
name in the record that is not UTF-8, ``--stats`` that says what it has
for what was asked, names measured as terminals draw them, and files
that are not regular files where mille keeps its own."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from test_record_files import MILLE, game, linked_elsewhere, run_stats

from mille.engine.text import fit, width
from mille.frontends.remote.presence import Presence
from mille.game.limits import BadName, check_name
from mille.storage import record, recovery, seatfile, settings

BAD = b"\xffAnn\xfe"  # a name another program wrote: not UTF-8


def _bad_name_in(where: str, seat: int = 0, game_id: int = 2) -> None:
    db = sqlite3.connect(where)
    db.execute(
        "UPDATE seats SET name = CAST(? AS TEXT) WHERE game = ? AND seat = ?",
        (BAD, game_id, seat),
    )
    db.commit()
    db.close()


# ----- item 1: a name that is not UTF-8 -------------------------------------------------------


def test_a_name_that_is_not_utf8_is_left_out_by_stats_and_forget() -> None:
    """d7d4653: 'could not decode to UTF-8 column' made --stats and
    --forget fail whole."""
    for number in (1, 2, 3):
        record.add(game(number))
    _bad_name_in(record.path())
    status, out, err = run_stats(False)
    assert status == 0
    assert err == "mille: the record: 1 game could not be read (left out)\n"
    assert out.splitlines()[1].startswith("Ann: 2 games, won 2, lost 0 ")
    assert record.names() == ["Ann"]
    assert record.forget("Ann") == 3  # (the bad row's folded name was Ann's)
    assert [[s.name for s in g.seats] for g in record.games()] == [[None, None]] * 3


def test_a_schema_1_record_with_a_name_that_is_not_utf8_is_migrated() -> None:
    """d7d4653: 'user-defined function raised exception' on every run:
    the migration never completed, every game's end went to pending/."""
    where = record.path()
    for number in (1, 2, 3):
        record.add(game(number))
    db = sqlite3.connect(where)  # back to schema 1: no folded names
    db.executescript(
        "DROP INDEX seats_by_folded; ALTER TABLE seats DROP COLUMN folded; DROP TABLE moves;"
        " DROP TABLE reviews;"
        " PRAGMA user_version = 1;"
    )
    db.close()
    _bad_name_in(where)
    record.add(game(4))  # the migration runs, and completes
    db = sqlite3.connect(where)
    assert db.execute("PRAGMA user_version").fetchone()[0] == record.VERSION
    assert db.execute("SELECT folded FROM seats WHERE game = 2 AND seat = 0").fetchone() == (None,)
    db.close()
    assert [g.key for g in record.games()] == [game(n).key for n in (1, 3, 4)]
    assert record.read()[1] == 1


# ----- item 3: a FIFO at the name, a link at the state folder ---------------------------------


def test_a_fifo_at_the_remembered_name_is_one_line_never_waited_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """d7d4653: --join and --host hung silently, opening the FIFO."""
    folder = Path(recovery.directory())
    folder.mkdir(parents=True)
    os.mkfifo(folder / "name")
    said: list[tuple[str, str]] = []
    assert settings.name(lambda path, why: said.append((path, why))) is None
    assert said == [(str(folder / "name"), "not a regular file (not read)")]
    done = subprocess.run(
        [*MILLE, "--join", "127.0.0.1:1", "k4mxq7hzp2wd", "--wait", "0", "--plain"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.stderr.splitlines()[0] == f"mille: {folder / 'name'}: not a regular file (not read)"


def test_a_fifo_at_a_seat_file_is_unusable_never_waited_on() -> None:
    kept = seatfile.SeatFile("127.0.0.1", 7477, "k4mxq7hzp2wd")
    os.makedirs(kept.directory)
    os.mkfifo(kept.path_for(None))
    with pytest.raises(seatfile.SeatFileError) as caught:
        kept.load()
    assert str(caught.value) == f"cannot read {kept.path_for(None)}: not a regular file"


def test_the_name_is_never_written_through_a_state_folder_that_is_a_link(tmp_path: Path) -> None:
    """d7d4653 wrote the name where the link pointed."""
    folder = Path(recovery.directory())
    elsewhere = linked_elsewhere(folder, tmp_path)
    said: list[tuple[str, str]] = []
    assert not settings.remember_name("Ann", lambda path, why: said.append((path, why)))
    assert said == [(str(folder), "a symbolic link (not followed)")]
    assert list(elsewhere.iterdir()) == []
    kept = seatfile.SeatFile("127.0.0.1", 7477, "k4mxq7hzp2wd")
    with pytest.raises(OSError):
        kept.store(1, "t" * 20)
    assert list(elsewhere.iterdir()) == []


# ----- item 4: --stats says what it has for what was asked -------------------------------------


def _hot_seat_and_alone() -> None:
    both = game(1, names=("Ann", "Bob"))
    record.add(replace(both, seats=tuple(replace(seat, here=True) for seat in both.seats)))
    record.add(game(2, names=("Ann", None)))


def test_stats_with_people_no_game_has_says_so_and_lists_the_names() -> None:
    """d7d4653 said 'No game recorded yet' (status 0)."""
    _hot_seat_and_alone()
    assert run_stats(False, people=("Zed",)) == (
        1,
        "",
        "mille: --stats: no game with Zed in the record (its names: Ann, Bob)\n",
    )
    assert run_stats(False, rules="classic") == (
        1,
        "",
        "mille: --stats: no game recorded is one of those asked for\n",
    )


def test_stats_of_a_name_no_game_has_lists_the_names_as_forget_does() -> None:
    _hot_seat_and_alone()
    assert run_stats(False, "Nobody") == (
        1,
        "",
        "mille: --stats: no game of Nobody in the record (its names: Ann, Bob)\n",
    )


def test_stats_with_people_shows_the_others_blocks_not_theirs() -> None:
    """d7d4653 printed Bob's own block for --people Bob."""
    _hot_seat_and_alone()
    status, out, _ = run_stats(False, people=("bob",))
    assert status == 0
    assert [line.split(":")[0] for line in out.splitlines() if not line.startswith(" ")][:2] == [
        "The record",
        "Ann",
    ]
    assert "\nBob:" not in out


def test_stats_last_0_shows_no_last_games_nor_their_heading() -> None:
    """d7d4653 printed 'last games (...):' with nothing under it."""
    _hot_seat_and_alone()
    status, out, _ = run_stats(False, last=0)
    assert status == 0
    assert "last games" not in out
    assert "Ann: 2 games, won 2, lost 0 (100% won); rating 1516?" in out.splitlines()


# ----- item 2: names measured as terminals draw them ------------------------------------------


@pytest.mark.parametrize(
    "name,why",
    [
        ("\u2764\ufe0f" * 16, "a name has at most 16 characters (a wide one counts two)"),
        ("\u2764\ufe0f" * 9, "a name has at most 16 characters (a wide one counts two)"),
        ("\u3164", "' ': a name has something to see (not only blanks or marks)"),
        ("\u115f\u1160", "'  ': a name has something to see (not only blanks or marks)"),
        ("\uffa0", "' ': a name has something to see (not only blanks or marks)"),
        ("\u2800\u2800\u2800", "'   ': a name has something to see (not only blanks or marks)"),
        ("\u0301\u0301", "'\u0301\u0301': a name has something to see (not only blanks or marks)"),
        (
            "Hal\u2800\u2800",
            "'Hal  ': a name is printable, without ',' or '=' or spaces at its ends",
        ),
        ("\u2800Hal", "' Hal': a name is printable, without ',' or '=' or spaces at its ends"),
    ],
)
def test_names_are_measured_as_drawn_and_blanks_are_spaces(name: str, why: str) -> None:
    """d7d4653 took 16 hearts with VS16 (32 columns), Hangul fillers and
    braille blanks (invisible names, 'Hal' and a look-alike)."""
    with pytest.raises(BadName) as caught:
        check_name(name)
    assert str(caught.value) == why


def test_a_name_fits_its_columns_as_a_terminal_draws_it() -> None:
    assert width("\u2764\ufe0f" * 8) == 16 and check_name("\u2764\ufe0f" * 8)
    assert check_name("A\u2800B") == "A B"
    assert fit("ab\u2764\ufe0f", 3) == "ab", "a heart and its VS16 stay together"
    assert fit("ab\u2764\ufe0f", 4) == "ab\u2764\ufe0f"


def test_the_line_modes_seat_list_pads_names_by_columns() -> None:
    """d7d4653 padded by characters: a wide name pushed its words right."""
    from test_i18n_net import room

    presence = Presence(0)
    presence.take(room((0, "Hal", "here"), (1, "\u5c71\u7530", "here")))
    assert presence.seat_lines() == [
        "   0 Hal              you, the host",
        "   1 \u5c71\u7530             here",  # (16 columns: 4 for the name, 12 spaces)
    ]


# ----- item 5: a failed save at a hand's end in the line mode -----------------------------------


def _first_hand(seed: int) -> list[str]:
    """The commands of a classic game's first hand (random legal moves)."""
    import random

    from test_plain import command

    from mille.engine.rules import find_rules
    from mille.engine.table import OVER
    from mille.game.session import Session

    session = Session.new(find_rules("classic", players=2), seed=seed)
    rng = random.Random(seed)
    commands: list[str] = []
    while session.table.phase != OVER:
        if session.computer_to_move:
            session.computer_move()
            continue
        move = rng.choice(session.table.legal_moves())
        commands.append(command(move))
        if session.table.discards_safety(move):
            commands.append("y")
        session.play(move)
    return commands


def test_a_failed_save_at_a_hands_end_says_so_and_asks_again(tmp_path: Path) -> None:
    """d7d4653 said only 'No such file or directory' and dealt the hand
    the player had refused."""
    import io

    from mille.engine.rules import find_rules
    from mille.frontends import plain
    from mille.game.session import Session

    missing, kept = tmp_path / "none" / "x.sav", tmp_path / "x.sav"
    script = _first_hand(5) + ["n", "y", str(missing), "y", str(kept)]
    out = io.StringIO()
    session = Session.new(find_rules("classic", players=2), seed=5)
    status = plain.play(session, stdin=io.BytesIO("\n".join(script).encode() + b"\n"), stdout=out)
    lines = out.getvalue().splitlines()
    failed = lines.index(f"The game was not saved to {missing}: No such file or directory.")
    assert lines[failed + 1] == "Save game? y"
    assert lines[failed + 2].startswith(f"file: {kept}")
    assert status == 0 and kept.exists()
    assert not any(line.startswith("A new hand") for line in lines[failed:])
