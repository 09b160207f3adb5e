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
import sqlite3
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..game import rating

FILE = "record.sqlite3"
PENDING = "pending"
TIMEOUT = 2.0  # seconds to wait for another process's write
VERSION = 1  # the schema's version

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
}


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
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """A game from :meth:`to_dict`'s value (``KeyError``, ``TypeError``
        or ``ValueError`` when it is not one)."""
        return cls(
            key=str(data["key"]),
            ended=str(data["ended"]),
            seconds=float(data["seconds"]),
            rules=str(data["rules"]),
            options=dict(data["options"]),
            place=str(data["place"]),
            level=str(data["level"]),
            seats=tuple(Seat(**seat) for seat in data["seats"]),
            sides=tuple(Side(**(side | {"hands": tuple(side["hands"])})) for side in data["sides"]),
        )


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


def connect(where: str, *, create: bool = True) -> sqlite3.Connection:
    """The database at ``where``, brought to :data:`VERSION`; RecordError if
    it cannot be (``create=False``: None of it exists yet, an empty one in
    memory)."""
    try:
        if create:
            os.makedirs(os.path.dirname(where) or ".", exist_ok=True)
        elif not os.path.exists(where):
            where = ":memory:"
        db = sqlite3.connect(where, timeout=TIMEOUT, isolation_level=None)
    except (sqlite3.Error, OSError) as exc:
        raise RecordError(_reason(exc)) from None
    try:
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
        "INSERT INTO seats (game, seat, side, name, level, here) VALUES (?, ?, ?, ?, ?, ?)",
        [(number, s.seat, s.side, s.name, s.level, int(s.here)) for s in game.seats],
    )
    db.executemany(
        "INSERT INTO sides (game, side, total, hands, coups, safeties) VALUES (?, ?, ?, ?, ?, ?)",
        [
            (number, s.side, s.total, json.dumps(list(s.hands)), s.coups, s.safeties)
            for s in game.sides
        ],
    )


def _claim_pending(folder: str) -> list[tuple[str, Game | None]]:
    """The games waiting in ``folder``, each claimed by a rename (so two
    programs never take the same one); a file that is no game: None."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    claimed: list[tuple[str, Game | None]] = []
    for name in names:
        if not name.endswith(".json"):
            continue
        mine = os.path.join(folder, f"{name}.{os.getpid()}.taken")
        try:
            os.rename(os.path.join(folder, name), mine)
            with open(mine, encoding="utf-8") as file:
                game: Game | None = Game.from_dict(json.load(file))
        except OSError:
            continue
        except (ValueError, KeyError, TypeError, AttributeError):
            game = None
        claimed.append((mine, game))
    return claimed


def _keep_pending(folder: str, games: Iterable[Game]) -> bool:
    """Write ``games`` to ``folder`` for the next time; False if it failed."""
    from . import atomic

    try:
        os.makedirs(folder, exist_ok=True)
        for game in games:
            text = json.dumps(game.to_dict(), sort_keys=True)
            atomic.write(os.path.join(folder, f"{game.key}.json"), text.encode("utf-8"))
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
    games = [game] + [other for _, other in waiting if other is not None]
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
    try:
        os.remove(name)
    except OSError:
        pass


def _release(taken: str) -> None:
    """Put a claimed file back for the next time."""
    try:
        os.rename(taken, taken.rsplit(".", 2)[0])
    except OSError:
        pass


def games(where: str | None = None) -> list[Game]:
    """Every game recorded, oldest first; RecordError if the record cannot
    be read (none yet: no game)."""
    db = connect(where or path(), create=False)
    try:
        rows = db.execute(
            "SELECT id, key, ended, seconds, rules, options, place, level FROM games"
            " ORDER BY ended, id"
        ).fetchall()
        seats: dict[int, list[Seat]] = {}
        for game, seat, side, name, level, here in db.execute(
            "SELECT game, seat, side, name, level, here FROM seats ORDER BY game, seat"
        ):
            seats.setdefault(game, []).append(Seat(seat, side, name, level, bool(here)))
        sides: dict[int, list[Side]] = {}
        for game, side, total, hands, coups, safeties in db.execute(
            "SELECT game, side, total, hands, coups, safeties FROM sides ORDER BY game, side"
        ):
            sides.setdefault(game, []).append(
                Side(side, total, tuple(json.loads(hands)), coups, safeties)
            )
        return [
            Game(
                key=key,
                ended=ended,
                seconds=seconds,
                rules=rules,
                options=json.loads(options),
                place=place,
                level=level,
                seats=tuple(seats.get(number, ())),
                sides=tuple(sides.get(number, ())),
            )
            for number, key, ended, seconds, rules, options, place, level in rows
        ]
    except (sqlite3.Error, ValueError) as exc:
        raise RecordError(_reason(exc)) from None
    finally:
        db.close()


def forget(name: str, where: str | None = None) -> int:
    """Forget ``name``: its seats in every game (those waiting in
    ``pending/`` taken in first) become a person without a name (the other
    people's records stay whole); how many games it was in.  RecordError if
    the record cannot be written."""
    where = where or path()
    folder = os.path.join(os.path.dirname(where), PENDING)
    if not os.path.exists(where) and not os.path.isdir(folder):
        return 0
    db = connect(where)
    waiting = _claim_pending(folder)
    try:
        db.execute("BEGIN IMMEDIATE")
        for _, game in waiting:
            if game is not None:
                _insert(db, game)
        count = db.execute(
            "UPDATE seats SET name = NULL, here = 0 WHERE name = ?", (name,)
        ).rowcount
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
    return count


# ----- the statistics ---------------------------------------------------------

LAST = 5  # the last games shown for each person


def opponents(game: Game) -> str:
    """Whom the people played: the computers' level, or ``people``."""
    return game.level or "people"


def ratings(history: Sequence[Game]) -> dict[str, float]:
    """Each person's rating (at this machine) after ``history``, oldest
    first (:mod:`mille.game.rating`)."""
    found: dict[str, float] = {}
    for game in history:
        changes: dict[str, float] = {}
        for seat in game.seats:
            if not seat.here or seat.name is None:
                continue
            results = []
            for side in game.sides:
                members = [s for s in game.seats if s.side == side.side]
                if side.side == seat.side or any(s.level is None for s in members):
                    continue  # a person's side, theirs or another's
                strength = sum(rating.level_rating(s.level or "") for s in members) / len(members)
                mine = next(s.total for s in game.sides if s.side == seat.side)
                score = 1.0 if mine > side.total else 0.5 if mine == side.total else 0.0
                results.append((strength, score))
            if results:
                before = found.get(seat.name, rating.START)
                changes[seat.name] = rating.update(before, results)
        found.update(changes)
    return found


def _share(won: int, games: int) -> float:
    return round(100.0 * won / games, 1) if games else 0.0


def _tally(results: Sequence[str]) -> dict[str, Any]:
    won, lost, tied = (results.count(word) for word in ("won", "lost", "tied"))
    return {
        "games": len(results),
        "won": won,
        "lost": lost,
        "tied": tied,
        "share": _share(won, len(results)),
    }


def statistics(history: Sequence[Game]) -> dict[str, Any]:
    """The statistics of every person at this machine (by name) over
    ``history``, oldest first: what ``mille --stats --json`` prints."""
    rated = ratings(history)
    played: dict[str, list[tuple[Game, Seat]]] = {}
    for game in history:
        for seat in game.seats:
            if seat.here and seat.name is not None:
                played.setdefault(seat.name, []).append((game, seat))
    people = []
    for name in sorted(played, key=lambda text: (text.casefold(), text)):
        games_of = played[name]
        results = [game.result(seat.side) for game, seat in games_of]
        scores = [
            next(s.total for s in game.sides if s.side == seat.side) for game, seat in games_of
        ]
        kinds: dict[tuple[str, str], list[str]] = {}
        for (game, _), result in zip(games_of, results):
            kinds.setdefault((game.rules, opponents(game)), []).append(result)
        streak = 0
        while streak < len(results) and results[-1 - streak] == results[-1]:
            streak += 1
        longest = run = 0
        for result in results:
            run = run + 1 if result == "won" else 0
            longest = max(longest, run)
        last = []
        for (game, seat), result, score in list(zip(games_of, results, scores))[-LAST:][::-1]:
            others = [s.total for s in game.sides if s.side != seat.side]
            last.append(
                {
                    "ended": game.ended,
                    "rules": game.rules,
                    "against": opponents(game),
                    "place": game.place,
                    "result": result,
                    "score": score,
                    "best_other": max(others, default=0),
                }
            )
        people.append(
            {"name": name}
            | _tally(results)
            | {
                "rating": round(rated[name]) if name in rated else None,
                "best": max(scores),
                "average": round(sum(scores) / len(scores), 1),
                "streak": {"result": results[-1], "games": streak, "longest_won": longest},
                "by": [
                    {"rules": rules, "against": against} | _tally(kinds[rules, against])
                    for rules, against in sorted(kinds)
                ],
                "last": last,
            }
        )
    return {
        "levels": {level: round(value) for level, value in rating.LEVELS.items()},
        "people": people,
    }


def now() -> str:
    """The time now, UTC, ISO 8601 to the second."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
