"""Game files: one whole game (:class:`mille.game.history.History`) as
versioned, validated JSON, what ``mille --export N FILE`` writes and what
the record keeps of each game (``docs/game-format.md`` describes every
field).

The shapes are the save's (:mod:`.shapes`: rules, cards, moves) and so are
the checks (:mod:`.checks`): a file is read whole and checked from end to
end, its hands replayed through the engine, so a game file that is not a
complete game the rules allow is refused with one line
(:class:`~mille.storage.checks.SaveError`), a later version's too
(``version: unsupported game file version 2 (this mille reads version 1)``).

>>> loads('{"format": "mille-game", "version": 2}')
Traceback (most recent call last):
  ...
mille.storage.checks.SaveError: version: unsupported game file version 2 (this mille reads version 1)
"""

from __future__ import annotations

import json

TYPE_CHECKING = False  # typing is not loaded at run time (start-up)
if TYPE_CHECKING:
    from typing import Any

from ..game.history import Deal, Hand, History, HistoryError, replay
from ..players.registry import LEVELS
from .checks import (
    NO_FORMAT_NAME,
    NOT_A_GAME,
    NOT_JSON_OBJECT,
    UNSUPPORTED_GAME,
    SaveError,
    fail,
    read_bool,
    read_cards,
    read_int,
    read_list,
    read_object,
    read_optional_int,
    read_str,
    show,
)
from .shapes import card_texts, read_move, read_rules, rules_to_dict

FORMAT = "mille-game"
VERSION = 1
KEYS = ("format", "version", "rules", "seats", "hands")
HAND_KEYS = ("deck", "seed", "starter", "ordering", "moves", "stand_ins", "orders")
SEED_LIMIT = (1 << 32) - 1  # a reshuffle seed is 32 bits (engine.deal)


def to_dict(history: History) -> dict[str, Any]:
    """The game file's object of ``history`` (keys in the documented order)."""
    seats: list[dict[str, Any]] = []
    for seat in range(history.rules.players):
        if seat in history.computers:
            seats.append({"computer": history.computers[seat]})
        else:
            seats.append({"person": history.people.get(seat)})
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": rules_to_dict(history.rules),
        "seats": seats,
        "hands": [_hand_to_dict(hand) for hand in history.hands],
    }


def _hand_to_dict(hand: Hand) -> dict[str, Any]:
    deal = hand.deal
    return {
        "deck": card_texts(list(deal.deck)),
        "seed": deal.seed,
        "starter": deal.starter,
        "ordering": deal.ordering,
        "moves": [str(move) for move in hand.moves],
        "stand_ins": list(hand.stand_ins),
        "orders": [[at, on] for at, on in hand.orders],
    }


def dumps(history: History, *, compact: bool = False) -> str:
    """The game file's text: one hand a line (``compact``: one line, as
    the record keeps it)."""
    data = to_dict(history)
    if compact:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    hands = data.pop("hands")
    head = json.dumps(data, ensure_ascii=False)[:-1]
    lines = ",\n  ".join(json.dumps(hand) for hand in hands)
    return f'{head},\n "hands": [\n  {lines}\n ]}}\n'


def from_dict(data: Any) -> History:
    """The game of a game file's parsed JSON, checked and replayed whole;
    SaveError (one line) if it is not one this version reads."""
    try:
        return _from_dict(data)
    except RecursionError:
        fail("", NOT_A_GAME.format(reason="nested too deeply"))


def _from_dict(data: Any) -> History:
    if not isinstance(data, dict):
        fail("", NOT_A_GAME.format(reason=NOT_JSON_OBJECT))
    if data.get("format") != FORMAT:
        if "format" not in data:
            fail("", NOT_A_GAME.format(reason=NO_FORMAT_NAME))
        fail("format", NOT_A_GAME.format(reason=show(data["format"])))
    version = data.get("version")
    if type(version) is not int or version != VERSION:
        fail("version", UNSUPPORTED_GAME.format(version=show(version), known=VERSION))
    d = read_object(data, "", KEYS)
    rules = read_rules(d["rules"], "rules")
    people: dict[int, str | None] = {}
    computers: dict[int, str] = {}
    for seat, item in enumerate(read_list(d["seats"], "seats", rules.players)):
        where = f"seats[{seat}]"
        if isinstance(item, dict) and "computer" in item:
            level = read_str(read_object(item, where, ("computer",))["computer"], where)
            if level not in LEVELS:
                fail(f"{where}.computer", f"unknown level {show(level)}")
            computers[seat] = level
        else:
            name = read_object(item, where, ("person",))["person"]
            people[seat] = None if name is None else _name(name, f"{where}.person", seat)
    hands = read_list(d["hands"], "hands")
    if not hands:
        fail("hands", "no hand")
    history = History(
        rules,
        people,
        computers,
        tuple(_hand(hand, f"hands[{n}]", rules.players) for n, hand in enumerate(hands)),
    )
    try:
        for _ in replay(history):
            pass
    except HistoryError as exc:
        fail("", f"impossible game: {exc}")
    return history


def _name(data: Any, where: str, seat: int) -> str:
    """A person's name: one mille gives a seat, or one a person may take."""
    from ..game.limits import BadName, check_name, default_name

    name = read_str(data, where)
    if name == default_name(seat):
        return name
    try:
        return check_name(name)
    except BadName as exc:
        fail(where, str(exc))


def _hand(data: Any, where: str, players: int) -> Hand:
    d = read_object(data, where, HAND_KEYS)
    moves = tuple(
        read_move(move, f"{where}.moves[{n}]")
        for n, move in enumerate(read_list(d["moves"], f"{where}.moves"))
    )
    stand_ins = tuple(
        read_int(n, f"{where}.stand_ins[{i}]", 0, len(moves) - 1)
        for i, n in enumerate(read_list(d["stand_ins"], f"{where}.stand_ins"))
    )
    if list(stand_ins) != sorted(set(stand_ins)):
        fail(f"{where}.stand_ins", "expected moves in order, each once")
    orders = []
    for i, item in enumerate(read_list(d["orders"], f"{where}.orders")):
        at, on = read_list(item, f"{where}.orders[{i}]", 2)
        orders.append(
            (read_int(at, f"{where}.orders[{i}][0]", 0, len(moves)), read_bool(on, where))
        )
    if orders != sorted(orders, key=lambda order: order[0]):
        fail(f"{where}.orders", "expected the orders in the order made")
    deal = Deal(
        tuple(read_cards(d["deck"], f"{where}.deck")),
        read_optional_int(d["seed"], f"{where}.seed", 0, SEED_LIMIT),
        read_int(d["starter"], f"{where}.starter", 0, players - 1),
        read_bool(d["ordering"], f"{where}.ordering"),
    )
    return Hand(deal, moves, stand_ins, tuple(orders))


def loads(text: str) -> History:
    """The game of a game file's text; SaveError (one line) if it is not one."""
    from .savefile import parse

    return from_dict(parse(text, NOT_A_GAME))


def load(path: str) -> History:
    """The game in the file ``path`` (never modified); SaveError if it
    cannot be read, or is no game (one line)."""
    from .savefile import read_text

    return loads(read_text(path, NOT_A_GAME))


__all__ = ["FORMAT", "VERSION", "SaveError", "dumps", "from_dict", "load", "loads", "to_dict"]
