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

import contextlib
import json
import os
import re
import sqlite3
import stat
import sys
import time
import unicodedata
from collections.abc import Iterable, Iterator
from typing import Any

from . import recovery
from .recorded import _SEAT_FIELDS, _SIDE_FIELDS, Game, Later, Seat, Side, _checked, _seat, _side
from .recorded import _typed as _typed
from .recorded import ended_at as ended_at

__all__ = ["Game", "Later", "RecordError", "Seat", "Side", "ended_at", "fold"]

FILE = "record.sqlite3"
PENDING = "pending"
ASIDE = ".aside"  # a pending file that is no game this version can read, set aside
TIMEOUT = 2.0  # seconds to wait for another process's write
VERSION = 4  # the schema's version
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
        UPDATE seats SET folded = fold(CAST(name AS BLOB)) WHERE name IS NOT NULL;
        CREATE INDEX seats_by_folded ON seats(folded);
    """,
    # 3: each game whole (its deals and moves: the game file of
    # storage.gamefile, bzip2-compressed); a game recorded before has none.
    # The index on the key alone: which games have their moves is read from
    # it, not from the pages of the moves themselves (--stats does not grow)
    3: """
        CREATE TABLE moves (
            game INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            data BLOB NOT NULL
        );
        CREATE INDEX moves_kept ON moves(game);
    """,
    # 4: each review asked (mille --review: codes and numbers, JSON), by
    # game and seat, so that asking again is instant
    4: """
        CREATE TABLE reviews (
            game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            data TEXT NOT NULL,
            PRIMARY KEY (game, seat)
        );
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
    """SQL's ``fold()``: given a name's bytes (``CAST(name AS BLOB)``, so
    that a name another program wrote that is not UTF-8 reaches it), the
    name folded; NULL for one it cannot decode (no name can match it)."""
    if isinstance(value, bytes):
        value = _text(value)
    return fold(value) if isinstance(value, str) else None


def _text(data: bytes) -> str | bytes:
    """SQLite's text as Python reads it: decoded from UTF-8, or left as
    bytes where another program wrote text that is not (no ``str``: the
    row is left out as other bad rows are, never the whole record)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data


class RecordError(ValueError):
    """The record could not be read or written; ``str()`` says why, on one
    line; ``kept`` says whether the game waits in ``pending/``."""

    def __init__(self, message: str, kept: bool = False) -> None:
        super().__init__(message)
        self.kept = kept


def data_dir() -> str:
    """The per-user data directory of mille."""
    if sys.platform == "darwin":  # pragma: no cover - exercised on macOS
        return os.path.join(os.path.expanduser("~"), "Library", "Application Support", "mille")
    return recovery.user_directory("XDG_DATA_HOME", "share")


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
        db.text_factory = _text
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
    if game.history is not None:
        db.execute("INSERT INTO moves (game, data) VALUES (?, ?)", (number, _packed(game.history)))


def _packed(text: str) -> bytes:
    """A game file's text as the record keeps it: UTF-8, compressed by
    bzip2 (level 9: a quarter smaller than zlib's on games, whose decks are
    the same card names in another order)."""
    import bz2

    return bz2.compress(text.encode("utf-8"), 9)


def _unpacked(data: object) -> str:
    """The text :func:`_packed` kept; ValueError if it is not."""
    import bz2

    if not isinstance(data, bytes):
        raise ValueError("not a game's moves")
    try:
        return bz2.decompress(data).decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise ValueError(str(exc) or type(exc).__name__) from None


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
        with _opened(where) as db:
            db.execute("BEGIN IMMEDIATE")
            for one in games:
                _insert(db, one)
            db.execute("COMMIT")
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
    recovery.release(taken, _original(taken))


def _set_aside(taken: str) -> None:
    """A claimed file that is no game: kept, under a name no program claims."""
    recovery.release(taken, _original(taken) + ASIDE)


_NUMBERED = (sqlite3.Error, OverflowError)  # asked by a game's number, perhaps too large


@contextlib.contextmanager
def _opened(
    where: str, create: bool = True, failures: tuple[type[Exception], ...] = (sqlite3.Error,)
) -> Iterator[sqlite3.Connection]:
    """The record at ``where``, open (:func:`connect`) while it is used,
    closed after; each of the ``failures`` (a failure of the database, or
    with ``_NUMBERED`` a game number too large for it) a RecordError, on
    one line."""
    db = connect(where, create=create)
    try:
        yield db
    except failures as exc:
        raise RecordError(_reason(exc)) from None
    finally:
        db.close()


def _rows(db: sqlite3.Connection, sql: str) -> list[tuple[Any, ...]]:
    return db.execute(sql).fetchall()


def read(where: str | None = None) -> tuple[list[Game], int]:
    """Every game recorded, oldest first, and how many rows could not be
    read as a game (a record changed by another program: left out);
    RecordError if the record cannot be read at all (none yet: no game)."""
    with _opened(where or path(), create=False) as db:
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
        whole = {row[0] for row in _rows(db, "SELECT game FROM moves")}
    found: list[Game] = []
    damaged = 0
    for number, *columns in rows:
        try:
            found.append(
                _game_of(
                    [number, *columns, number in whole],
                    seats.get(number, []),
                    sides.get(number, []),
                )
            )
        except (ValueError, TypeError, OverflowError, RecursionError):
            damaged += 1
    found.sort(key=lambda game: game.ended)  # (stable: the order written when level)
    return found, damaged


def _game_of(
    columns: list[Any], seats: list[tuple[Any, ...]], sides: list[tuple[Any, ...]]
) -> Game:
    """A game from its rows (``columns``: its number, the ``games`` row's
    values, whether ``moves`` has its row), each value checked (ValueError
    if one is not what this version writes)."""
    number, key, ended, seconds, rules, options, place, level, whole = columns
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
            number=_typed(number, int),
            whole=whole,
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


def history(number: int, where: str | None = None) -> str | None:
    """The whole game numbered ``number`` in the record (its game file's
    text, as kept), None if the record kept no moves of it (a game of
    schema 2); LookupError if no game has that number, ValueError if its
    moves cannot be read, RecordError if the record cannot be."""
    with _opened(where or path(), create=False, failures=_NUMBERED) as db:
        found = db.execute(
            "SELECT moves.data FROM games LEFT JOIN moves ON moves.game = games.id"
            " WHERE games.id = ?",
            (number,),
        ).fetchall()
    if not found:
        raise LookupError(number)
    data = found[0][0]
    return None if data is None else _unpacked(data)


def review(number: int, seat: int, where: str | None = None) -> str | None:
    """The review of game ``number`` for ``seat`` the record keeps (its
    JSON text), None if none; RecordError if the record cannot be read."""
    with _opened(where or path(), create=False, failures=_NUMBERED) as db:
        found = db.execute(
            "SELECT data FROM reviews WHERE game = ? AND seat = ?", (number, seat)
        ).fetchone()
    return found[0] if found is not None and isinstance(found[0], str) else None


def keep_review(number: int, seat: int, text: str, where: str | None = None) -> None:
    """Keep ``text``, the review of game ``number`` for ``seat`` (in place
    of one kept before); RecordError if the record cannot be written."""
    with _opened(where or path(), failures=_NUMBERED) as db:
        db.execute(
            "INSERT OR REPLACE INTO reviews (game, seat, data) VALUES (?, ?, ?)",
            (number, seat, text),
        )


def games(where: str | None = None) -> list[Game]:
    """Every game recorded that can be read, oldest first; RecordError if
    the record cannot be read (none yet: no game)."""
    return read(where)[0]


def names(where: str | None = None) -> list[str]:
    """Every name in the record, each once (its folded spelling: the
    first written), in order; RecordError if it cannot be read."""
    with _opened(where or path(), create=False) as db:
        rows = _rows(db, "SELECT name FROM seats WHERE name IS NOT NULL ORDER BY game, seat")
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
        matched = "folded = ? OR fold(CAST(name AS BLOB)) = ?"
        found = db.execute(
            f"SELECT COUNT(DISTINCT game) FROM seats WHERE {matched}", (wanted, wanted)
        ).fetchone()[0]
        _forget_moves(db, matched, wanted)
        db.execute(
            f"UPDATE seats SET name = NULL, folded = NULL, here = 0 WHERE {matched}",
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


def _forget_moves(db: sqlite3.Connection, matched: str, wanted: str) -> None:
    """The name gone from the moves kept of each game it played: its seats
    there become a person without a name (``{"person": null}``)."""
    rows = db.execute(
        "SELECT moves.game, moves.data, group_concat(seats.seat) FROM moves"
        f" JOIN seats ON seats.game = moves.game WHERE {matched} GROUP BY moves.game",
        (wanted, wanted),
    ).fetchall()
    for game, data, seats in rows:
        try:
            kept = json.loads(_unpacked(data))
            for seat in str(seats).split(","):
                kept["seats"][int(seat)] = {"person": None}
        except (ValueError, TypeError, KeyError, IndexError, AttributeError):
            db.execute("DELETE FROM moves WHERE game = ?", (game,))  # (no name left in it)
            continue
        text = json.dumps(kept, ensure_ascii=False, separators=(",", ":"))
        db.execute("UPDATE moves SET data = ? WHERE game = ?", (_packed(text), game))


def now() -> str:
    """The time now, UTC, ISO 8601 to the second."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
