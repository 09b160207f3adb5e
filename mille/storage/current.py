"""The save format mille writes, version 3: a session to a JSON-able dict
and back.

The document holds any preset and seat count: the rules (rebuilt through
:func:`mille.engine.rules.find_rules`), who controls each seat (a person, or
a computer at its level, with its memory and generator), the whole table,
the dealer's generator, and the log of the hand's moves (what the boards
and the line mode show, each seat its own part of it, so a restored game
shows the same screens; files written before 2.1 kept it from seat 0's
last turn only).  A person's seat records a name when it is not the
default ``Player N``.  ``docs/save-format.md`` describes every key.

Writing puts the keys in the order of the tables below.  Reading checks the
shape of every value (through :mod:`mille.storage.checks`); that each
logged move is one the engine could have made is checked by
:func:`mille.engine.validation.check_event`, and the table's rules by
:meth:`Table.validate`: the engine owns the rules' invariants.

>>> from mille.game.session import Session
>>> data = session_to_dict(Session.new(seed=7))
>>> data["version"], list(data) == list(TOP_KEYS)
(3, True)
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not loaded at run time (start-up)
if TYPE_CHECKING:
    from typing import Any

    from ..engine.rules import Rules
    from ..players.base import Player

from ..engine.table import COUP, EXTENSION, Event
from ..game.limits import CHAT_KEPT, check_name, check_say
from ..game.session import Session, default_name
from ..players.registry import computer_kinds, kind_of
from .checks import (
    SaveError,
    fail,
    read_bool,
    read_computer,
    read_int,
    read_list,
    read_object,
    read_rng,
    read_str,
    rng_to_dict,
    show,
)
from .shapes import (
    event_to_dict,
    read_event,
    read_rules,
    read_table,
    rules_to_dict,
    table_to_dict,
)

FORMAT = "bsd-mille-save"
VERSION = 3

TOP_KEYS = ("format", "version", "rules", "seats", "table", "window_full", "deal_rng", "log")
_HUMAN_KEYS = ("control",)
_NAMED_HUMAN_KEYS = ("control", "name")
_COMPUTER_KEYS = ("control", "kind", "memory", "rng")
_SAY_KEYS = ("seat", "say")


# ----- writing ----------------------------------------------------------------


# The values an array on one line of the file holds, by their exact type
# (an array of these alone is copied, and written, in one go).
PLAIN = frozenset({str, int, float, bool, type(None)})


def _canonical(value: Any) -> Any:
    """``value`` with every object's keys sorted (for a deterministic file)."""
    if isinstance(value, dict):
        return {str(k): _canonical(value[k]) for k in sorted(value, key=str)}
    if isinstance(value, (list, tuple)):
        if PLAIN.issuperset(map(type, value)):  # nothing in it to sort
            return list(value)
        return [_canonical(v) for v in value]
    return value


def session_to_dict(session: Session) -> dict[str, Any]:
    """The whole session as a JSON-able dict, keys in the file's order."""
    table = session.table
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": rules_to_dict(table.rules),
        "seats": [_seat_to_dict(session, seat) for seat in range(table.rules.players)],
        "table": table_to_dict(table),
        "window_full": session.window_full,
        "deal_rng": rng_to_dict(session.deal_rng),
        "log": log_to_list(session),
    }


def log_to_list(session: Session) -> list[dict[str, Any]]:
    """The hand's log: its events, and a network table's chat lines
    (``{"seat": N, "say": TEXT}``) where they were said among them: the
    last ``CHAT_KEPT``, each one the reader takes (``Session.say`` lets no
    other in: this only makes sure a save never fails on one)."""
    items: list[dict[str, Any]] = []
    kept = [line for line in session.chat if check_say(line[2]) is None][-CHAT_KEPT:]
    chat = sorted(kept, key=lambda line: line[0])
    said = 0
    for index, event in enumerate([*session.log, None]):
        while said < len(chat) and chat[said][0] <= index:
            items.append({"seat": chat[said][1], "say": chat[said][2]})
            said += 1
        if event is not None:
            items.append(event_to_dict(event))
    return items


def _seat_to_dict(session: Session, seat: int) -> dict[str, Any]:
    player = session.computers.get(seat)
    if player is None:
        name = session.people.get(seat, default_name(seat))
        return {"control": "human"} | ({} if name == default_name(seat) else {"name": name})
    try:
        kind = kind_of(player)
    except ValueError:
        kind = ""
    if kind not in computer_kinds(session.rules):
        raise SaveError(
            f"cannot save a computer of type {type(player).__name__} under {session.rules.name}"
        )
    computer: Any = player
    if computer.seat != seat:
        raise SaveError(f"cannot save seat {seat}'s computer: it plays seat {computer.seat}")
    return {
        "control": "computer",
        "kind": kind,
        "memory": _canonical(computer.to_dict()),
        "rng": rng_to_dict(computer.rng),
    }


# ----- reading ----------------------------------------------------------------


def from_v3(data: dict[str, Any]) -> Session:
    """A version-3 document (its format and version already read)."""
    return read_body(read_object(data, "", TOP_KEYS))


def read_body(d: dict[str, Any]) -> Session:
    """The session in a document whose top-level keys are checked: those of
    version 3, or of version 2 (no ``log``: the log is empty)."""
    rules = read_rules(d["rules"], "rules")
    computers, people = _seats(d["seats"], "seats", rules)
    table = read_table(d["table"], "table", rules, tuple(sorted(people)))
    if table.phase in (EXTENSION, COUP) and table.asked in computers:
        fail("table.asked", "a computer never leaves a question pending")
    window_full = read_bool(d["window_full"], "window_full")
    deal_rng = read_rng(d["deal_rng"], "deal_rng")
    log: list[Event] = []
    chat: list[tuple[int, int, str]] = []
    for i, item in enumerate(read_list(d.get("log", []), "log")):
        if isinstance(item, dict) and "say" in item:  # a chat line: no game data
            said = read_object(item, f"log[{i}]", _SAY_KEYS)
            seat = read_int(said["seat"], f"log[{i}].seat", 0, rules.players - 1)
            text = read_str(said["say"], f"log[{i}].say")
            reason = check_say(text)  # (the host's own limit: limits.say_text)
            if reason is not None:
                fail(f"log[{i}].say", reason)
            chat.append((len(log), seat, text))
        else:
            log.append(read_event(item, f"log[{i}]", rules))
    return Session(
        table=table,
        computers=computers,
        deal_rng=deal_rng,
        window_full=window_full,
        log=log,
        people=people,
        chat=chat[-CHAT_KEPT:],  # (a file of 2.x kept every line)
    )


def _seats(data: Any, where: str, rules: Rules) -> tuple[dict[int, Player], dict[int, str]]:
    """The computers and the people's names, by seat."""
    computers: dict[int, Player] = {}
    people: dict[int, str] = {}
    kinds = computer_kinds(rules)
    for seat, item in enumerate(read_list(data, where, rules.players)):
        here = f"{where}[{seat}]"
        if not isinstance(item, dict):
            fail(here, f"expected an object, got {show(item)}")
        if "control" not in item:
            fail(here, "missing key 'control'")
        control = item["control"]
        if control == "human":
            if "name" not in item:
                read_object(item, here, _HUMAN_KEYS)
                people[seat] = default_name(seat)
                continue
            name = read_str(read_object(item, here, _NAMED_HUMAN_KEYS)["name"], f"{here}.name")
            try:
                people[seat] = check_name(name)
            except ValueError as exc:
                fail(f"{here}.name", str(exc))
            if list(people.values()).count(people[seat]) > 1:
                fail(f"{here}.name", f"{show(name)} is another seat's name too")
            continue
        if control != "computer":
            fail(f"{here}.control", f"must be 'human' or 'computer', not {show(control)}")
        d = read_object(item, here, _COMPUTER_KEYS)
        kind = d["kind"]
        if kind not in kinds:
            fail(
                f"{here}.kind",
                f"must be one of {', '.join(map(repr, kinds))} under {rules.name},"
                f" not {show(kind)}",
            )
        rng = read_rng(d["rng"], f"{here}.rng")
        computers[seat] = read_computer(kind, d["memory"], rng, seat, f"{here}.memory")
    return computers, people
