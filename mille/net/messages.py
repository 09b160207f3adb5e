"""The protocol's messages, declared once: the shape of each (a
``TypedDict`` whose ``type`` is a ``Literal``), what each end reads
(:data:`FromSeat`, what the host reads from a seat; :data:`FromHost`,
what a joiner reads from the host), and a constructor for each message
built (``docs/protocol.md`` describes them).

A message carries codes and values, never language: an ``error`` its
``code`` and ``values``, which each end shows in its own language
(``wire.error_line``); a ``saved`` its time as seconds since the epoch.

>>> hello("k4mxq7hzp2wd", name="Ann")
{'type': 'hello', 'protocol': 3, 'code': 'k4mxq7hzp2wd', 'name': 'Ann'}
>>> error("stale")
{'type': 'error', 'code': 'stale', 'values': {}}
>>> move(7, "U4>2")
{'type': 'move', 'version': 7, 'move': 'U4>2'}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypedDict

from .wire import OTHER_PROTOCOL, PROTOCOL, VERSION, field, parse_move

Values = dict[str, str | int]  # an error's values, by the names its line has


# ----- what a seat sends the host ------------------------------------------------


class _Hello(TypedDict):
    type: Literal["hello"]
    protocol: int
    code: str


class Hello(_Hello, total=False):
    """The first message: a free seat for ``name``, or a seat taken back
    with its ``token`` (from the last ``version`` seen, if known)."""

    name: str
    token: str
    version: int


class Move(TypedDict):
    """A move (as save files write it) chosen at the seat's ``version``."""

    type: Literal["move"]
    version: int
    move: str


class Save(TypedDict):
    """The host saves the game to ``file`` (a path on its machine)."""

    type: Literal["save"]
    file: str


class Say(TypedDict):
    """A chat line to every seat (a watcher's: to every watcher)."""

    type: Literal["say"]
    text: str


PlainKind = Literal["deal", "end", "start", "view", "bye", "ping", "pong", "again"]


class Plain(TypedDict):
    """A message with nothing but its kind: ``deal``, ``end``, ``start``,
    ``view``, a seat's ``bye``, ``ping``, ``pong``, ``again`` (the seat's
    person wants another game)."""

    type: PlainKind


FromSeat = Hello | Move | Save | Say | Plain  # what the host reads from a seat


# ----- what the host sends a seat ---------------------------------------------------


class _Welcome(TypedDict):
    type: Literal["welcome"]
    protocol: int
    seat: int
    token: str
    host: bool
    name: str


class Refusal(TypedDict):
    """Why a joiner's name does not name its seat: a code and its values."""

    code: str
    values: Values


class Welcome(_Welcome, total=False):
    """A seat taken: its number, token, whether it hosts, its name (and
    why the joiner's name does not name it, ``name_refused``)."""

    name_refused: Refusal


class Watching(TypedDict):
    """A watcher let in (``mille --watch``): it sees the table from
    ``viewer``'s seat, no hand, under ``name``."""

    type: Literal["watching"]
    protocol: int
    viewer: int
    name: str


class SeatRow(TypedDict):
    """One seat in a ``seats`` message."""

    seat: int
    name: str
    status: str
    host: bool


class Seats(TypedDict):
    """Who sits where, whom the table waits for, whether it started."""

    type: Literal["seats"]
    seats: list[SeatRow]
    waiting_for: int | None
    started: bool
    join: str
    watch: str
    watchers: int


class Said(TypedDict):
    """A chat line from ``seat`` (``name``), escaped."""

    type: Literal["said"]
    seat: int
    name: str
    text: str


class Aside(TypedDict):
    """A watcher's chat line (``name``), escaped: to the watchers alone."""

    type: Literal["aside"]
    name: str
    text: str


class Update(TypedDict):
    """The seat's new events since the last update, and its view."""

    type: Literal["update"]
    version: int
    events: list[dict[str, Any]]
    missed: bool
    view: dict[str, Any]


class _Error(TypedDict):
    type: Literal["error"]
    code: str
    values: Values


class Error(_Error, total=False):
    """An error: its code and the values of its line (``wire.ERRORS``);
    ``message``, in English, only in a ``version`` error, for a mille of
    protocol 1 (which read nothing else)."""

    message: str


class _Saved(TypedDict):
    type: Literal["saved"]
    ok: bool
    file: str


class Saved(_Saved, total=False):
    """The host's save: written (``when``: seconds since the epoch), or
    why not (``reason``, the system's words)."""

    when: int
    reason: str


class Bye(TypedDict):
    """The host's goodbye: why it hangs up (``wire.ENDED``, ``wire.HOST_GONE``)."""

    type: Literal["bye"]
    code: str


class Beat(TypedDict):
    """The host's ``ping`` of a quiet connection, or its ``pong``."""

    type: Literal["ping", "pong"]


class WholeGame(TypedDict):
    """The game that just ended, whole, sent to every seat once it is over
    (never before: it holds every hidden card): a game file's text
    (``storage.gamefile.dumps(..., compact=True)``), or None where the
    host does not know it whole (a game resumed from a save)."""

    type: Literal["game"]
    history: str | None


FromHost = (
    Welcome | Watching | Seats | Said | Aside | Update | Error | Saved | Bye | Beat | WholeGame
)  # what a joiner (or a watcher) reads


# ----- a seat's message read (its fields checked) -------------------------------------


def read_move(raw: Mapping[str, Any]) -> Move:
    """A seat's ``move`` as the host reads it: its ``version`` an int, its
    ``move`` a move's text (``ProtocolError`` otherwise: ``bad-message``,
    ``bad-move``)."""
    version = field(raw, "version", int)
    return {"type": "move", "version": version, "move": str(parse_move(raw.get("move")))}


def read_save(raw: Mapping[str, Any]) -> Save:
    """The host's ``save``, its ``file`` a string."""
    return {"type": "save", "file": field(raw, "file", str)}


def read_say(raw: Mapping[str, Any]) -> Say:
    """A seat's ``say``, its ``text`` a string."""
    return {"type": "say", "text": field(raw, "text", str)}


# ----- the constructors ---------------------------------------------------------------


def hello(
    code: str, *, name: str | None = None, token: str | None = None, version: int | None = None
) -> Hello:
    """The first message: to take a free seat (``name``), or to come back
    to a seat (its ``token``, and the last ``version`` seen if known)."""
    message: Hello = {"type": "hello", "protocol": PROTOCOL, "code": code}
    if token is not None:
        message["token"] = token
        if version is not None:
            message["version"] = version
    elif name is not None:
        message["name"] = name
    return message


def move(version: int, text: str) -> Move:
    """A seat's move (``text`` as save files write it) at its ``version``."""
    return {"type": "move", "version": version, "move": text}


def save(file: str) -> Save:
    """The host's ``save`` to ``file``."""
    return {"type": "save", "file": file}


def say(text: str) -> Say:
    """A chat line (cut beforehand: ``client.say_message``)."""
    return {"type": "say", "text": text}


def plain(kind: PlainKind) -> Plain:
    """A message of ``kind`` alone (``plain("ping")``)."""
    return {"type": kind}


def beat(kind: Literal["ping", "pong"]) -> Beat:
    """The host's ``ping`` or ``pong``."""
    return {"type": kind}


def welcome(
    seat: int, token: str, host: bool, name: str, refused: Refusal | None = None
) -> Welcome:
    """The host's welcome to ``seat`` (``refused``: why the joiner's name
    does not name it)."""
    message: Welcome = {
        "type": "welcome",
        "protocol": PROTOCOL,
        "seat": seat,
        "token": token,
        "host": host,
        "name": name,
    }
    if refused is not None:
        message["name_refused"] = refused
    return message


def seats(
    rows: list[SeatRow],
    waiting_for: int | None,
    started: bool,
    join: str,
    watch: str = "",
    watchers: int = 0,
) -> Seats:
    """Who sits where (``rows``), whom the table waits for, the commands
    that join and watch it (``watch`` "": none may), how many watch."""
    return {
        "type": "seats",
        "seats": rows,
        "waiting_for": waiting_for,
        "started": started,
        "join": join,
        "watch": watch,
        "watchers": watchers,
    }


def watching(viewer: int, name: str) -> Watching:
    """The host lets a watcher in, under ``name``, looking from ``viewer``'s seat."""
    return {"type": "watching", "protocol": PROTOCOL, "viewer": viewer, "name": name}


def aside(name: str, text: str) -> Aside:
    """A watcher's chat line, to the watchers alone."""
    return {"type": "aside", "name": name, "text": text}


def said(seat: int, name: str, text: str) -> Said:
    """A chat line from ``seat`` to every seat."""
    return {"type": "said", "seat": seat, "name": name, "text": text}


def update(version: int, events: list[dict[str, Any]] | None, view: dict[str, Any]) -> Update:
    """The seat's ``update`` (``events`` None: some are no longer kept)."""
    return {
        "type": "update",
        "version": version,
        "events": events or [],
        "missed": events is None,
        "view": view,
    }


def error(code: str, values: Values | None = None) -> Error:
    """The error ``code`` with the ``values`` of its line; a ``version``
    error carries its English line too (``message``), for a mille of
    protocol 1.

    >>> error("version", {"protocol": 3, "version": "1"})["message"]
    'this host speaks mille protocol 3, not 1: play with the same version of mille'
    """
    message: Error = {"type": "error", "code": code, "values": dict(values or {})}
    if code == VERSION:
        message["message"] = OTHER_PROTOCOL.format(**message["values"])
    return message


def saved(file: str, when: int) -> Saved:
    """The host's save written to ``file`` at ``when`` (epoch seconds)."""
    return {"type": "saved", "ok": True, "file": file, "when": when}


def not_saved(file: str, reason: str) -> Saved:
    """The host's save not written, and why."""
    return {"type": "saved", "ok": False, "file": file, "reason": reason}


def whole_game(history: str | None) -> WholeGame:
    """The game over, whole (``history``: a game file's text, or None).

    >>> whole_game(None)
    {'type': 'game', 'history': None}
    """
    return {"type": "game", "history": history}


def bye(code: str) -> Bye:
    """The host's goodbye to every connection: ``code`` (``ENDED``,
    ``HOST_GONE``, ``HOST_LEFT``)."""
    return {"type": "bye", "code": code}
