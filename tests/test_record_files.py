"""The record's files are its own (issue 39): no link followed at the
database, ``pending/`` or their folder; no file deleted that is not a game
this version wrote; ``--stats`` on any record one line at most, never a
traceback; ``--forget`` compares names as a table does and cuts what it
says back; ``--stats --json`` never prints a control or a bidi override;
the rating rule in one home, the recorder's state the front's own."""

from __future__ import annotations

import io
import json
import os
import random
import sqlite3
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mille.frontends import flow, record_words, recorder
from mille.game import rating
from mille.game.session import Session
from mille.players import registry
from mille.storage import record, stats

MILLE = [sys.executable, "-m", "mille"]
KEY = "0123456789abcdef0123456789abcdef"


def game(
    number: int,
    totals: tuple[int, int] = (5000, 100),
    names: tuple[str | None, str | None] = ("Ann", None),
    level: str = "standard",
) -> record.Game:
    """A finished game of two seats (a None name: a computer), the first here."""
    return record.Game(
        key=f"{number:032x}",
        ended=f"2026-01-01T00:00:{number % 60:02d}Z",
        seconds=1.0,
        rules="bsd",
        options={},
        place="keyboard",
        level=level if None in names else "",
        seats=tuple(
            record.Seat(seat, seat + 1, name, None if name else level, here=seat == 0)
            for seat, name in enumerate(names)
        ),
        sides=(record.Side(1, totals[0], (totals[0],)), record.Side(2, totals[1], (totals[1],))),
    )


def mille(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*MILLE, *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=None if env is None else os.environ | env,
        stdin=subprocess.DEVNULL,
    )


# ----- never through a link -------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "symlink") or os.name != "posix", reason="needs symlinks")
def test_pending_as_a_link_is_never_followed(tmp_path: Path) -> None:
    """f55df03 claimed and deleted every *.json in the folder the link named."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / f"{KEY}.json").write_text(json.dumps(game(7).to_dict()))
    (elsewhere / "notes.json").write_text("{}")
    (tmp_path / "pending").symlink_to(elsewhere)
    where = str(tmp_path / "record.sqlite3")
    record.add(game(1), where)
    assert sorted(os.listdir(elsewhere)) == [f"{KEY}.json", "notes.json"]
    assert [g.key for g in record.games(where)] == [game(1).key]  # not taken in
    # nor written there when the record cannot be written
    (tmp_path / "record.sqlite3").write_bytes(b"damaged" * 100)
    with pytest.raises(record.RecordError) as caught:
        record.add(game(2), where)
    assert not caught.value.kept
    assert sorted(os.listdir(elsewhere)) == [f"{KEY}.json", "notes.json"]


@pytest.mark.skipif(os.name != "posix", reason="needs symlinks")
def test_a_dangling_link_at_the_database_is_refused_never_followed(tmp_path: Path) -> None:
    """f55df03 made the database at the link's target."""
    target = tmp_path / "target.sqlite3"
    (tmp_path / "record.sqlite3").symlink_to(target)
    where = str(tmp_path / "record.sqlite3")
    with pytest.raises(record.RecordError) as caught:
        record.add(game(1), where)
    assert str(caught.value) == f"{where} is a symbolic link (not followed)"
    assert caught.value.kept  # the game waits in pending/ (a real folder)
    assert not target.exists()
    with pytest.raises(record.RecordError):
        record.games(where)
    assert not target.exists()


def linked_elsewhere(folder: Path, tmp_path: Path) -> Path:
    """``folder`` (not made yet) made a symbolic link to an empty folder of
    ``tmp_path``'s: the folder the link points to."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    folder.parent.mkdir(parents=True)
    folder.symlink_to(elsewhere)
    return elsewhere


@pytest.mark.skipif(os.name != "posix", reason="needs symlinks")
@pytest.mark.parametrize("name", ["record.sqlite3-journal", "record.sqlite3-wal"])
def test_a_link_at_a_journal_is_refused(tmp_path: Path, name: str) -> None:
    target = tmp_path / "target"
    (tmp_path / name).symlink_to(target)
    with pytest.raises(record.RecordError) as caught:
        record.add(game(1), str(tmp_path / "record.sqlite3"))
    assert str(caught.value).endswith("is a symbolic link (not followed)")
    assert not target.exists()


@pytest.mark.skipif(os.name != "posix", reason="needs symlinks")
def test_the_records_folder_as_a_link_is_refused(tmp_path: Path) -> None:
    folder = Path(record.data_dir())
    elsewhere = linked_elsewhere(folder, tmp_path)
    with pytest.raises(record.RecordError) as caught:
        record.add(game(1))
    assert str(caught.value) == f"{folder} is a symbolic link (not followed)"
    assert os.listdir(elsewhere) == []
    done = mille("--stats")
    assert done.returncode == 1
    assert done.stderr == f"mille: the record: {folder} is a symbolic link (not followed)\n"
    assert os.listdir(elsewhere) == []


# ----- never a file it did not write ----------------------------------------------


def pending(where: Path) -> Path:
    folder = where.parent / "pending"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_a_file_in_pending_that_is_no_game_stays(tmp_path: Path) -> None:
    where = tmp_path / "record.sqlite3"
    folder = pending(where)
    (folder / "notes.json").write_text("mine")
    (folder / "README").write_text("mine too")
    record.add(game(1), str(where))
    assert sorted(os.listdir(folder)) == ["README", "notes.json"]
    assert (folder / "notes.json").read_text() == "mine"


def test_a_later_versions_pending_game_stays_for_that_version(tmp_path: Path) -> None:
    where = tmp_path / "record.sqlite3"
    folder = pending(where)
    later = game(5).to_dict() | {"weather": "rain"}
    text = json.dumps(later)
    (folder / f"{later['key']}.json").write_text(text)
    seat = game(6).to_dict()
    seat["seats"][0]["mood"] = "happy"  # a field inside a seat, too
    (folder / f"{seat['key']}.json").write_text(json.dumps(seat))
    record.add(game(1), str(where))
    assert sorted(os.listdir(folder)) == sorted([f"{later['key']}.json", f"{seat['key']}.json"])
    assert (folder / f"{later['key']}.json").read_text() == text
    assert [g.key for g in record.games(str(where))] == [game(1).key]


def test_a_pending_game_that_cannot_be_read_is_set_aside_not_deleted(tmp_path: Path) -> None:
    where = tmp_path / "record.sqlite3"
    folder = pending(where)
    (folder / f"{KEY}.json").write_text("not json at all")
    wrong = game(3).to_dict() | {"seats": "none"}
    (folder / f"{wrong['key']}.json").write_text(json.dumps(wrong))
    waiting = game(4).to_dict()
    (folder / f"{waiting['key']}.json").write_text(json.dumps(waiting))
    record.add(game(1), str(where))
    assert sorted(os.listdir(folder)) == sorted([f"{KEY}.json.aside", f"{wrong['key']}.json.aside"])
    assert (folder / f"{KEY}.json.aside").read_text() == "not json at all"
    assert sorted(g.key for g in record.games(str(where))) == sorted([game(1).key, game(4).key])


@pytest.mark.skipif(os.name != "posix", reason="needs symlinks")
def test_a_link_in_pending_is_not_read_through(tmp_path: Path) -> None:
    where = tmp_path / "record.sqlite3"
    folder = pending(where)
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps(game(9).to_dict()))
    (folder / f"{KEY}.json").symlink_to(secret)
    record.add(game(1), str(where))
    assert secret.read_text() == json.dumps(game(9).to_dict())
    assert [g.key for g in record.games(str(where))] == [game(1).key]
    assert os.listdir(folder) == [f"{KEY}.json.aside"]  # the link itself, set aside
    assert (folder / f"{KEY}.json.aside").is_symlink()


# ----- --stats on any record --------------------------------------------------------

CELLS = [
    ("games", "key"),
    ("games", "ended"),
    ("games", "seconds"),
    ("games", "rules"),
    ("games", "options"),
    ("games", "place"),
    ("games", "level"),
    ("seats", "seat"),
    ("seats", "side"),
    ("seats", "name"),
    ("seats", "level"),
    ("seats", "here"),
    ("sides", "side"),
    ("sides", "total"),
    ("sides", "hands"),
    ("sides", "coups"),
    ("sides", "safeties"),
]
VALUES = st.one_of(
    st.none(),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=True),
    st.text(max_size=20),
    st.binary(max_size=10),
    st.sampled_from(["[1, 2]", '{"a": 1}', "[[[[]]]]", "null", "1e999", "2026-13-01T00:00:00Z"]),
)


def run_stats(*args: Any, **kwargs: Any) -> tuple[int, str, str]:
    """``record_words.show_stats`` in this process: the status, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    real = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        status = record_words.show_stats(*args, **kwargs)
    finally:
        sys.stdout, sys.stderr = real
    return status, out.getvalue(), err.getvalue()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.tuples(st.sampled_from(CELLS), st.integers(0, 5), VALUES), max_size=4))
def test_stats_on_a_record_edited_by_another_program_never_raises(
    tmp_path_factory: pytest.TempPathFactory, edits: list[tuple[tuple[str, str], int, Any]]
) -> None:
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("data"))
    for number in range(1, 4):
        record.add(game(number, names=("Ann", "Bob") if number == 2 else ("Ann", None)))
    db = sqlite3.connect(record.path())
    for (table, column), row, value in edits:
        db.execute(f"UPDATE OR IGNORE {table} SET {column} = ? WHERE rowid = ?", (value, row))
    db.commit()
    db.close()
    for as_json in (False, True):
        status, out, err = run_stats(as_json)
        assert len(err.splitlines()) <= 1, err
        if status == 0 and as_json:
            json.loads(out)
        assert "Traceback" not in out + err


def test_stats_with_a_text_where_a_number_is_says_one_line() -> None:
    """f55df03: a traceback (TypeError) for a total that is a text."""
    record.add(game(1))
    record.add(game(2, (100, 5000)))
    db = sqlite3.connect(record.path())
    db.execute("UPDATE sides SET total = 'lots' WHERE game = 1 AND side = 1")
    db.commit()
    db.close()
    done = mille("--stats")
    assert done.returncode == 0
    assert done.stderr == "mille: the record: 1 game could not be read (left out)\n"
    assert done.stdout.splitlines()[1].startswith("Ann: 1 game, won 0, lost 1 ")


# ----- --forget and what is said back ---------------------------------------------------


def test_forget_compares_names_as_a_table_does() -> None:
    """f55df03 compared names exactly: ``--forget ann`` left ``Ann``."""
    nfc, nfd = "Åsa", unicodedata.normalize("NFD", "Åsa")
    assert nfc != nfd
    record.add(game(1, names=("Ann", None)))
    record.add(game(2, names=(nfc, None)))
    record.add(game(3, names=(nfd, "Ann")))
    assert record.forget("ann") == 2
    assert record.forget("ÅSA") == 2
    assert [[s.name for s in g.seats] for g in record.games()] == [[None, None]] * 3
    done = mille("--forget", "ANN")
    assert done.returncode == 1
    assert done.stderr == "mille: --forget: no game of ANN in the record (it has no names)\n"


def test_forget_of_a_long_name_cuts_what_it_says() -> None:
    """f55df03 echoed a 10,000-character name whole."""
    record.add(game(1))
    done = mille("--forget", "x" * 10_000)
    assert done.returncode == 1
    assert done.stderr == (
        f"mille: --forget: no game of {'x' * 57}... in the record (its names: Ann)\n"
    )


NASTY = "A\u202eB\x85C\x9b"  # a bidi override and two C1 controls (NEL, CSI)


def test_stats_never_prints_a_control_or_a_bidi_override() -> None:
    """f55df03 printed them raw with --json."""
    record.add(game(1, names=(NASTY, None)))
    record.add(game(2, names=("Ann", NASTY)))
    shown = mille("--stats", "--json")
    assert shown.returncode == 0
    for char in "\u202e\x85\x9b":
        assert char not in shown.stdout
    assert "A\\u202eB\\u0085C\\u009b" in shown.stdout
    names = [person["name"] for person in json.loads(shown.stdout)["people"]]
    assert sorted(names) == sorted([NASTY, "Ann"])
    text = mille("--stats")
    assert text.returncode == 0
    for char in "\u202e\x85\x9b":
        assert char not in text.stdout
    assert "A\\u202eB\\x85C\\x9b: 1 game, won 1" in text.stdout
    assert "  Ann vs A\\u202eB\\x85C\\x9b: 1-0" in text.stdout


# ----- one home each: the rating rule, the recorder's state --------------------------


def test_the_rating_rule_and_its_levels_have_one_home() -> None:
    assert tuple(rating.LEVELS) == registry.LEVELS  # the levels a person chooses
    assert registry.STANDARD in rating.LEVELS and rating.LEVELS[registry.STANDARD] == rating.START
    # the rule, applied in rating.py: one person against a standard computer
    sides: list[tuple[int, int, list[str | None]]] = [
        (1, 5000, [None]),
        (2, 100, [registry.STANDARD]),
    ]
    assert rating.after_game({}, [("ann", 1)], sides) == {"ann": 1516.0}
    assert stats.ratings([game(1)]) == {"Ann": 1516.0}
    assert not hasattr(record, "ratings") and not hasattr(rating, "sqlite3")


def test_each_front_holds_its_own_recorder() -> None:
    """f55df03 kept every game's tally in one module-global dictionary."""
    from support.scripted import Scripted

    assert not hasattr(recorder, "_tallies")
    fronts = []
    for seed in (1, 2):
        session = Session.new(seed=seed, names={0: "Ann"})
        front = Scripted(session, random.Random(seed))
        flow.run(front)
        fronts.append(front)
    first, second = (front.recorder for front in fronts)
    assert first is not second
    assert first.lines(0) and second.lines(0) and first.lines(0) != second.lines(0)
    assert "(+" in first.board_line(0) or "(-" in first.board_line(0)
    off = recorder.Recorder(record=False)
    assert not off.enabled and recorder.Recorder().enabled


@pytest.mark.parametrize("ended", ["9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z"])
def test_stats_on_a_time_at_the_calendars_end(ended: str) -> None:
    record.add(game(1))
    db = sqlite3.connect(record.path())
    db.execute("UPDATE games SET ended = ?", (ended,))
    db.commit()
    db.close()
    for env in ({"TZ": "XYZ-3"}, {"TZ": "XYZ+3"}):
        done = mille("--stats", "--json", env=env)
        assert done.returncode == 0 and done.stderr == ""
        assert json.loads(done.stdout)["people"][0]["last"][0]["ended"] == ended
