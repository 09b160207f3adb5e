"""The games as the record keeps them: :class:`Game`, its seats and
sides, and the checks of a game read back (a pending file's, a row's),
each value checked (ValueError, :class:`Later` for a field a later
version wrote).  No SQL here: :mod:`mille.storage.record` stores them.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any


class Later(ValueError):
    """A pending game written by a later version (a field this one does
    not know): kept for that version."""


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
    # the whole game, as a game file's text (storage.gamefile, on one
    # line), to be written; None where its moves are not known.  Read
    # back, it is left out (``whole`` says whether the record has it:
    # :func:`history` reads it) and ``number`` is the game's in the record
    history: str | None = field(default=None, compare=False, repr=False)
    number: int = field(default=0, compare=False)
    whole: bool = field(default=False, compare=False)

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
            "history": self.history,
        }

    @classmethod
    def from_dict(cls, data: object) -> Game:
        """A game from :meth:`to_dict`'s value: ValueError when it is not
        one (:class:`Later` for a field this version does not know; a
        game written before the record kept moves has no ``history``)."""
        if isinstance(data, dict) and "history" not in data:
            data = data | {"history": None}
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
            history=_maybe(top["history"], str),
        )
        if not re.fullmatch(r"[0-9a-f]{32}", game.key):
            raise ValueError("not a game's key")
        return _checked(game)


_GAME_FIELDS = (
    "key", "ended", "seconds", "rules", "options", "place", "level", "seats", "sides", "history",
)  # fmt: skip
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
