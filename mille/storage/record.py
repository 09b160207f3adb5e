"""The record: every finished game, kept in SQLite, and the statistics.

One database, ``record.sqlite3`` in the per-user data directory
(:func:`data_dir`: ``$XDG_DATA_HOME/mille``, ``~/.local/share/mille`` when
it is unset or not absolute; ``%LOCALAPPDATA%\\mille`` on Windows;
``~/Library/Application Support/mille`` on macOS).  A game is written once,
when it ends (:func:`add`); a game given up before its end is never
written.  ``docs/record.md`` describes the tables.

The schema has a version (SQLite's ``user_version``) and migrations, one
script per version (:data:`MIGRATIONS`), run in order when the database is
opened; a database of a newer mille is refused, not touched.

The record is never in the way: a database that cannot be written
(locked by another process past :data:`TIMEOUT`, read-only, damaged, the
disk full) raises :class:`RecordError` with one lower-case line, and the
game is kept as a JSON file in ``pending/`` beside it where it can be,
taken into the database by the next game that ends (each game has a key,
so none counts twice).  Names are stored as data (query parameters),
never as SQL.

This module imports ``sqlite3``: it is imported only when a game ends or
``mille --stats`` runs (start-up time).
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import stat
import sys
import time
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

FILE = "record.sqlite3"
PENDING = "pending"
ASIDE = ".aside"  # a pending file that is no game this version can read, set aside
TIMEOUT = 2.0  # seconds to wait for another process's write
VERSION = 2  # the schema's version
PENDING_NAME = re.compile(r"[0-9a-f]{32}\.json")  # what _keep_pending writes: KEY.json
PENDING_MAX = 1 << 20  # bytes: a pending game is far smaller
NAME_SHOWN = 60  # characters of a name said back in a message (longer: cut)

MIGRATIONS: dict[int, str] = {  # the script that brings version N-1 to N
    1: """
        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            key TEXT NOT NULL UNIQUE,
            ended TEXT NOT NULL,
            seconds REAL NOT NULL,
            rules TEXT NOT NULL,
            options TEXT NOT NULL,
            place TEXT NOT NULL,
            level TEXT NOT NULL
        );
        CREATE TABLE seats (
            game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            side INTEGER NOT NULL,
            name TEXT,
            level TEXT,
            here INTEGER NOT NULL,
            PRIMARY KEY (game, seat)
        );
        CREATE TABLE sides (
            game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            side INTEGER NOT NULL,
            total INTEGER NOT NULL,
            hands TEXT NOT NULL,
            coups INTEGER NOT NULL,
            safeties INTEGER NOT NULL,
            PRIMARY KEY (game, side)
        );
        CREATE INDEX seats_by_name ON seats(name);
    """,
    # 2: each name also folded (NFC, then casefold: fold()), as names are
    # compared at a table; --forget and the people's lines look names up by it
    2: """
        ALTER TABLE seats ADD COLUMN folded TEXT;
        UPDATE seats SET folded = fold(name) WHERE name IS NOT NULL;
        CREATE INDEX seats_by_folded ON seats(folded);
    """,
}


def fold(name: str) -> str:
    """A name as names are compared (at a table, by ``--forget``): NFC,
    then casefolded, so ``ann``, ``Ann`` and its decomposed spelling are one.

    >>> fold("Ann") == fold("ANN") == fold("ann"), fold("E\u0301lodie") == fold("\u00c9lodie")
    (True, True)
    """
    return unicodedata.normalize("NFC", name).casefold()


def _fold_sql(value: object) -> str | None:
    return fold(value) if isinstance(value, str) else None


class Later(ValueError):
    """A pending game written by a later version (a field this one does
    not know): kept for that version."""


class RecordError(ValueError):
    """The record could not be read or written; ``str()`` says why, on one
    line; ``kept`` says whether the game waits in ``pending/``."""

    def __init__(self, message: str, kept: bool = False) -> None:
        super().__init__(message)
        self.kept = kept


@dataclass(frozen=True)
class Seat:
    """A seat of a recorded game: a person (``name``; None once forgotten)
    or a computer (``level``); ``here``: a person at this machine."""

    seat: int
    side: int
    name: str | None = None
    level: str | None = None
    here: bool = False


@dataclass(frozen=True)
class Side:
    """A side's total at the end, its score in each hand seen, its coups
    fourrés and safeties played in them."""

    side: int
    total: int
    hands: tuple[int, ...] = ()
    coups: int = 0
    safeties: int = 0


@dataclass(frozen=True)
class Game:
    """A finished game as the record keeps it."""

    key: str  # unique: a game written twice counts once
    ended: str  # UTC, ISO 8601, to the second
    seconds: float  # how long it was played (by this program)
    rules: str  # the rule set's name
    options: dict[str, Any]  # every option (the save file's ``rules`` object)
    place: str  # "keyboard" or "network"
    level: str  # the computers' level, "" with no computer
    seats: tuple[Seat, ...]
    sides: tuple[Side, ...] = field(default=())

    def result(self, side: int) -> str:
        """``won``, ``lost`` or ``tied`` (level on top) for ``side``."""
        mine = next(s.total for s in self.sides if s.side == side)
        others = [s.total for s in self.sides if s.side != side]
        best = max(others, default=mine - 1)
        return "won" if mine > best else "tied" if mine == best else "lost"

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "ended": self.ended,
            "seconds": self.seconds,
            "rules": self.rules,
            "options": self.options,
            "place": self.place,
            "level": self.level,
            "seats": [vars(seat).copy() for seat in self.seats],
            "sides": [vars(side) | {"hands": list(side.hands)} for side in self.sides],
        }

    @classmethod
    def from_dict(cls, data: object) -> Game:
        """A game from :meth:`to_dict`'s value: ValueError when it is not
        one (:class:`Later` for a field this version does not know)."""
        top = _fields(data, _GAME_FIELDS)
        game = cls(
            key=_typed(top["key"], str),
            ended=_typed(top["ended"], str),
            seconds=float(_typed(top["seconds"], (int, float))),
            rules=_typed(top["rules"], str),
            options=_typed(top["options"], dict),
            place=_typed(top["place"], str),
            level=_typed(top["level"], str),
            seats=tuple(_seat(item) for item in _typed(top["seats"], list)),
            sides=tuple(_side(item) for item in _typed(top["sides"], list)),
        )
        if not re.fullmatch(r"[0-9a-f]{32}", game.key):
            raise ValueError("not a game's key")
        return _checked(game)


_GAME_FIELDS = ("key", "ended", "seconds", "rules", "options", "place", "level", "seats", "sides")
_SEAT_FIELDS = ("seat", "side", "name", "level", "here")
_SIDE_FIELDS = ("side", "total", "hands", "coups", "safeties")


def _fields(data: object, names: tuple[str, ...]) -> dict[str, Any]:
    """``data`` as an object with exactly ``names``: ValueError if one
    lacks, Later if it has one more (a later version's)."""
    if not isinstance(data, dict):
        raise ValueError("not an object")
    missing = [name for name in names if name not in data]
    if missing:
        raise ValueError(f"no {missing[0]}")
    if len(data) != len(names):
        raise Later("a field this version does not know")
    return data


def _typed(value: Any, kind: type | tuple[type, ...]) -> Any:
    """``value`` if it is of ``kind`` (a bool is no number); ValueError otherwise."""
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise ValueError("a value of the wrong type")
    return value


def _maybe(value: Any, kind: type) -> Any:
    return None if value is None else _typed(value, kind)


def _seat(data: object) -> Seat:
    item = _fields(data, _SEAT_FIELDS)
    here = item["here"]
    if here not in (0, 1) or isinstance(here, float):  # (a bool is 0 or 1)
        raise ValueError("a value of the wrong type")
    return Seat(
        _typed(item["seat"], int),
        _typed(item["side"], int),
        _maybe(item["name"], str),
        _maybe(item["level"], str),
        bool(here),
    )


def _side(data: object) -> Side:
    item = _fields(data, _SIDE_FIELDS)
    return Side(
        _typed(item["side"], int),
        _typed(item["total"], int),
        tuple(_typed(hand, int) for hand in _typed(item["hands"], list)),
        _typed(item["coups"], int),
        _typed(item["safeties"], int),
    )


def _checked(game: Game) -> Game:
    """``game`` if its parts hold together (an end time, sides, each seat
    on one of them); ValueError otherwise."""
    ended_at(game.ended)
    sides = [side.side for side in game.sides]
    seats = [seat.seat for seat in game.seats]
    if not sides or len(set(sides)) != len(sides) or len(set(seats)) != len(seats):
        raise ValueError("sides or seats twice, or no side")
    if any(seat.side not in sides for seat in game.seats):
        raise ValueError("a seat on no side")
    if any(seat.name is None and seat.here for seat in game.seats):
        raise ValueError("a person here without a name")
    return game


def ended_at(text: str) -> float:
    """The time (seconds since the epoch) of an end as the record writes
    it (``2026-11-27T22:50:01Z``); ValueError for any other text."""
    import calendar

    if not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", text):
        raise ValueError("not a time")
    return float(calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ")))


def data_dir() -> str:
    """The per-user data directory of mille."""
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows
        import ntpath

        base = os.environ.get("LOCALAPPDATA", "")
        if not ntpath.isabs(base):
            base = ntpath.join(ntpath.expanduser("~"), "AppData", "Local")
        return ntpath.join(base, "mille")
    if sys.platform == "darwin":  # pragma: no cover - exercised on macOS
        return os.path.join(os.path.expanduser("~"), "Library", "Application Support", "mille")
    base = os.environ.get("XDG_DATA_HOME", "")
    if not os.path.isabs(base):  # the XDG spec: a relative path is invalid
        base = os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "mille")


def path() -> str:
    """The record's database file."""
    return os.path.join(data_dir(), FILE)


def _reason(exc: BaseException) -> str:
    """An exception as a lower-case line."""
    if isinstance(exc, OSError) and exc.strerror:
        text = exc.strerror
    else:
        text = str(exc) or type(exc).__name__
    text = " ".join(text.split())
    return text[:1].lower() + text[1:]


def _shown(path: str) -> str:
    from ..engine.text import escape

    return escape(path)


def _own(path: str, *, folder: bool = False) -> bool:
    """Whether ``path`` exists as the record's own: a directory
    (``folder``) or a regular file, never through a symbolic link;
    RecordError for a link or anything else there (never followed)."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return False
    except (OSError, ValueError) as exc:
        raise RecordError(_reason(exc)) from None
    if stat.S_ISLNK(found.st_mode):
        raise RecordError(f"{_shown(path)} is a symbolic link (not followed)")
    if not (stat.S_ISDIR if folder else stat.S_ISREG)(found.st_mode):
        kind = "a directory" if folder else "a regular file"
        raise RecordError(f"{_shown(path)} is not {kind}")
    return True


def _make_folder(folder: str) -> None:
    """The record's folder, made (mode 0700) if need be, and its own."""
    if not _own(folder, folder=True):
        try:
            parent = os.path.dirname(folder)
            if parent:
                os.makedirs(parent, exist_ok=True)
            os.mkdir(folder, 0o700)
        except FileExistsError:
            pass
        except OSError as exc:
            raise RecordError(_reason(exc)) from None
        _own(folder, folder=True)


def connect(where: str, *, create: bool = True) -> sqlite3.Connection:
    """The database at ``where``, brought to :data:`VERSION`; RecordError if
    it cannot be (``create=False``: None of it exists yet, an empty one in
    memory).  A symbolic link at the database, its journals or its folder
    is refused, never followed."""
    folder = os.path.dirname(where) or "."
    if create:
        _make_folder(folder)
    elif not _own(folder, folder=True):
        where = ":memory:"
    if where != ":memory:":
        for companion in ("-journal", "-wal", "-shm"):
            _own(where + companion)
        if not _own(where) and not create:
            where = ":memory:"
    try:
        db = sqlite3.connect(where, timeout=TIMEOUT, isolation_level=None)
    except (sqlite3.Error, OSError) as exc:
        raise RecordError(_reason(exc)) from None
    try:
        db.create_function("fold", 1, _fold_sql, deterministic=True)
        db.execute("PRAGMA foreign_keys = ON")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > VERSION:
            raise RecordError(
                f"the record was written by a newer mille (schema {version}, this one reads"
                f" {VERSION})"
            )
        if version < VERSION:
            db.execute("BEGIN IMMEDIATE")
            version = db.execute("PRAGMA user_version").fetchone()[0]  # another won?
            if version < 0:
                raise RecordError(f"the record has no schema {version}")
            for step in range(version + 1, VERSION + 1):
                for statement in MIGRATIONS[step].split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version = {int(step)}")
            db.execute("COMMIT")
    except sqlite3.Error as exc:
        db.close()
        raise RecordError(_reason(exc)) from None
    except RecordError:
        db.close()
        raise
    return db


def _insert(db: sqlite3.Connection, game: Game) -> None:
    cursor = db.execute(
        "INSERT OR IGNORE INTO games (key, ended, seconds, rules, options, place, level)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            game.key,
            game.ended,
            game.seconds,
            game.rules,
            json.dumps(game.options, sort_keys=True),
            game.place,
            game.level,
        ),
    )
    if not cursor.rowcount:  # (already recorded)
        return
    number = cursor.lastrowid
    db.executemany(
        "INSERT INTO seats (game, seat, side, name, level, here, folded)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (number, s.seat, s.side, s.name, s.level, int(s.here), _fold_sql(s.name))
            for s in game.seats
        ],
    )
    db.executemany(
        "INSERT INTO sides (game, side, total, hands, coups, safeties) VALUES (?, ?, ?, ?, ?, ?)",
        [
            (number, s.side, s.total, json.dumps(list(s.hands)), s.coups, s.safeties)
            for s in game.sides
        ],
    )


def _read_pending(path: str) -> Game:
    """The game in the pending file ``path``, read without following a
    link; OSError if it cannot be read, ValueError (:class:`Later`) if it
    is no game this version can take."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError("not a regular file")
        data = b""
        while len(data) <= PENDING_MAX:
            chunk = os.read(fd, PENDING_MAX + 1 - len(data))
            if not chunk:
                break
            data += chunk
    finally:
        os.close(fd)
    if len(data) > PENDING_MAX:
        raise ValueError("too long")
    try:
        return Game.from_dict(json.loads(data.decode("utf-8")))
    except (UnicodeDecodeError, RecursionError) as exc:
        raise ValueError(str(exc)) from None


def _claim_pending(folder: str) -> list[tuple[str, Game]]:
    """The games waiting in ``folder`` (the record's own ``pending/``:
    never a link), each claimed by a rename (so two programs never take
    the same one).  Only the files it writes (``KEY.json``) are looked
    at: a later version's game is put back for that version, a file that
    is no game is set aside (``NAME.aside``), none is deleted."""
    try:
        if not _own(os.path.dirname(folder), folder=True) or not _own(folder, folder=True):
            return []
        names = sorted(os.listdir(folder))
    except (RecordError, OSError):
        return []
    claimed: list[tuple[str, Game]] = []
    for name in names:
        if not PENDING_NAME.fullmatch(name):
            continue
        mine = os.path.join(folder, f"{name}.{os.getpid()}.taken")
        try:
            os.rename(os.path.join(folder, name), mine)
        except OSError:
            continue  # (another program took it)
        try:
            game = _read_pending(mine)
        except Later:
            _release(mine)  # a later version's: it stays for that version
            continue
        except (OSError, ValueError):
            _set_aside(mine)
            continue
        claimed.append((mine, game))
    return claimed


def _keep_pending(folder: str, games: Iterable[Game]) -> bool:
    """Write ``games`` to ``folder`` for the next time; False if it failed
    (``folder`` a link, or anything not the record's own folder)."""
    from . import atomic

    try:
        if not _own(os.path.dirname(folder), folder=True):  # (the record's folder)
            return False
        if not _own(folder, folder=True):
            os.mkdir(folder, 0o700)
            _own(folder, folder=True)
        for game in games:
            text = json.dumps(game.to_dict(), sort_keys=True)
            atomic.write(
                os.path.join(folder, f"{game.key}.json"), text.encode("utf-8"), follow=False
            )
    except Exception:  # never in the way: the caller says it was not kept
        return False
    return True


def add(game: Game, where: str | None = None) -> None:
    """Record ``game`` (and the games waiting in ``pending/``), in one
    transaction; RecordError (one line) if it cannot, the game then kept in
    ``pending/`` where it can be (``kept``)."""
    where = where or path()
    folder = os.path.join(os.path.dirname(where), PENDING)
    waiting = _claim_pending(folder)
    games = [game] + [other for _, other in waiting]
    try:
        db = connect(where)
        try:
            db.execute("BEGIN IMMEDIATE")
            for one in games:
                _insert(db, one)
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise RecordError(_reason(exc)) from None
        finally:
            db.close()
    except RecordError as exc:
        kept = _keep_pending(folder, games)
        for taken, _ in waiting:
            _remove(taken) if kept else _release(taken)
        raise RecordError(str(exc), kept=kept) from None
    for taken, _ in waiting:
        _remove(taken)


def _remove(name: str) -> None:
    """A claimed file whose game is in the record (or written anew) goes."""
    try:
        os.remove(name)
    except OSError:
        pass


def _original(taken: str) -> str:
    return taken.rsplit(".", 2)[0]


def _release(taken: str) -> None:
    """Put a claimed file back for the next time."""
    try:
        os.rename(taken, _original(taken))
    except OSError:
        pass


def _set_aside(taken: str) -> None:
    """A claimed file that is no game: kept, under a name no program claims."""
    try:
        os.rename(taken, _original(taken) + ASIDE)
    except OSError:
        pass


def _rows(db: sqlite3.Connection, sql: str) -> list[tuple[Any, ...]]:
    return db.execute(sql).fetchall()


def read(where: str | None = None) -> tuple[list[Game], int]:
    """Every game recorded, oldest first, and how many rows could not be
    read as a game (a record changed by another program: left out);
    RecordError if the record cannot be read at all (none yet: no game)."""
    db = connect(where or path(), create=False)
    try:
        rows = _rows(
            db,
            "SELECT id, key, ended, seconds, rules, options, place, level FROM games ORDER BY id",
        )
        seats: dict[object, list[tuple[Any, ...]]] = {}
        for row in _rows(db, "SELECT game, seat, side, name, level, here FROM seats"):
            seats.setdefault(row[0], []).append(row[1:])
        sides: dict[object, list[tuple[Any, ...]]] = {}
        for row in _rows(db, "SELECT game, side, total, hands, coups, safeties FROM sides"):
            sides.setdefault(row[0], []).append(row[1:])
    except sqlite3.Error as exc:
        raise RecordError(_reason(exc)) from None
    finally:
        db.close()
    found: list[Game] = []
    damaged = 0
    for number, *columns in rows:
        try:
            found.append(_game_of(columns, seats.get(number, []), sides.get(number, [])))
        except (ValueError, TypeError, OverflowError, RecursionError):
            damaged += 1
    found.sort(key=lambda game: game.ended)  # (stable: the order written when level)
    return found, damaged


def _game_of(
    columns: list[Any], seats: list[tuple[Any, ...]], sides: list[tuple[Any, ...]]
) -> Game:
    """A game from its rows, each value checked (ValueError if one is not
    what this version writes)."""
    key, ended, seconds, rules, options, place, level = columns
    hands = [json.loads(_typed(row[2], str)) for row in sides]
    return _checked(
        Game(
            key=_typed(key, str),
            ended=_typed(ended, str),
            seconds=float(_typed(seconds, (int, float))),
            rules=_typed(rules, str),
            options=_typed(json.loads(_typed(options, str)), dict),
            place=_typed(place, str),
            level=_typed(level, str),
            seats=tuple(
                sorted(
                    (_seat(dict(zip(_SEAT_FIELDS, row))) for row in seats),
                    key=lambda seat: seat.seat,
                )
            ),
            sides=tuple(
                sorted(
                    (
                        _side(dict(zip(_SIDE_FIELDS, row[:2] + (hand,) + row[3:])))
                        for row, hand in zip(sides, hands)
                    ),
                    key=lambda side: side.side,
                )
            ),
        )
    )


def games(where: str | None = None) -> list[Game]:
    """Every game recorded that can be read, oldest first; RecordError if
    the record cannot be read (none yet: no game)."""
    return read(where)[0]


def names(where: str | None = None) -> list[str]:
    """Every name in the record, each once (its folded spelling: the
    first written), in order; RecordError if it cannot be read."""
    db = connect(where or path(), create=False)
    try:
        rows = _rows(db, "SELECT name FROM seats WHERE name IS NOT NULL ORDER BY game, seat")
    except sqlite3.Error as exc:
        raise RecordError(_reason(exc)) from None
    finally:
        db.close()
    found: dict[str, str] = {}
    for (name,) in rows:
        if isinstance(name, str):
            found.setdefault(fold(name), name)
    return sorted(found.values(), key=lambda name: (fold(name), name))


def count(name: str, where: str | None = None) -> int:
    """How many games ``name`` (compared as :func:`fold` does) played, the
    games waiting in ``pending/`` included; RecordError if the record
    cannot be read."""
    where = where or path()
    wanted = fold(name)
    keys = {
        game.key
        for game in games(where)
        if any(seat.name is not None and fold(seat.name) == wanted for seat in game.seats)
    }
    folder = os.path.join(os.path.dirname(where), PENDING)
    try:
        own = _own(os.path.dirname(folder), folder=True) and _own(folder, folder=True)
        listed = sorted(os.listdir(folder)) if own else []
    except (RecordError, OSError):
        listed = []
    for file in listed:
        if PENDING_NAME.fullmatch(file):
            try:
                game = _read_pending(os.path.join(folder, file))
            except (OSError, ValueError):
                continue
            if any(s.name is not None and fold(s.name) == wanted for s in game.seats):
                keys.add(game.key)
    return len(keys)


def forget(name: str, where: str | None = None) -> int:
    """Forget ``name`` (compared as :func:`fold` does: any case, any
    Unicode spelling): its seats in every game (those waiting in
    ``pending/`` taken in first) become a person without a name (the other
    people's records stay whole); how many games it was in.  RecordError if
    the record cannot be written."""
    where = where or path()
    folder = os.path.join(os.path.dirname(where), PENDING)
    if not os.path.lexists(where) and not os.path.lexists(folder):
        return 0
    db = connect(where)
    waiting = _claim_pending(folder)
    try:
        db.execute("BEGIN IMMEDIATE")
        for _, game in waiting:
            _insert(db, game)
        wanted = fold(name)
        found = db.execute(
            "SELECT COUNT(DISTINCT game) FROM seats WHERE folded = ? OR fold(name) = ?",
            (wanted, wanted),
        ).fetchone()[0]
        db.execute(
            "UPDATE seats SET name = NULL, folded = NULL, here = 0"
            " WHERE folded = ? OR fold(name) = ?",
            (wanted, wanted),
        )
        db.execute("COMMIT")
        db.execute("VACUUM")  # the name is gone from the file too
    except sqlite3.Error as exc:
        for taken, _ in waiting:
            _release(taken)
        raise RecordError(_reason(exc)) from None
    finally:
        db.close()
    for taken, _ in waiting:
        _remove(taken)
    return int(found)


def now() -> str:
    """The time now, UTC, ISO 8601 to the second."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
