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

import re
from dataclasses import replace

TYPE_CHECKING = False  # typing is not loaded at run time (start-up)
if TYPE_CHECKING:
    from typing import Any

    from ..players.base import Player

from ..engine.cards import ALL_NAMES, NO_CARD
from ..engine.deal import RESHUFFLED
from ..engine.rules import OFFER, PRESETS, PROBLEMS, RIGGINGS, Rules, RulesError, find_rules
from ..engine.table import (
    COUP,
    EXTENSION,
    OVER,
    PLAYING,
    Answer,
    Discard,
    Event,
    Move,
    Outcome,
    Pick,
    Table,
    Use,
)
from ..engine.tableau import Tableau
from ..engine.validation import EventError, check_event
from ..game.session import Session, check_name, default_name
from ..players.registry import computer_kinds, kind_of
from .checks import (
    BIG,
    SaveError,
    distance_counts,
    fail,
    read_bool,
    read_card,
    read_cards,
    read_computer,
    read_coups,
    read_hand,
    read_int,
    read_ints,
    read_list,
    read_object,
    read_optional_int,
    read_rng,
    read_str,
    rng_to_dict,
    show,
    validated,
)

FORMAT = "bsd-mille-save"
VERSION = 3

TOP_KEYS = ("format", "version", "rules", "seats", "table", "window_full", "deal_rng", "log")
_RULES_KEYS = (
    "name",
    "players",
    "team_mode",
    "distance",
    "winning_score",
    "perfect_crossing",
    "stacking",
    "reshuffle",
    "always_discard",
    "rigging",
    "karma",
)
_BOOL_OPTIONS = ("perfect_crossing", "stacking", "reshuffle", "always_discard", "karma")
_HUMAN_KEYS = ("control",)
_NAMED_HUMAN_KEYS = ("control", "name")
_COMPUTER_KEYS = ("control", "kind", "memory", "rng")
_TABLE_KEYS = (
    "hands",
    "tableaux",
    "deck",
    "discard",
    "set_aside",
    "target",
    "to_move",
    "starter",
    "phase",
    "asked",
    "offer",
    "extender",
    "totals",
    "games",
    "ordering",
    "marks",
    "seed",
    "refills",
)
# written only when set (files from before them lack them: 0, false, and
# for owed what such a file meant, see _owed_by_default)
TABLE_OPTIONAL = ("idle_refills", "owed")
TABLEAU_OPTIONAL = ("needs_go",)
_TABLEAU_KEYS = (
    "battle",
    "speed",
    "miles",
    "safeties",
    "coups",
    "mileage",
    "top",
    "speed_top",
    "can_go",
    "battle_window",
    "speed_window",
    "record",
    "problems",
    "saved",
    "karma",
)
_PILES = ("battle", "speed", "miles", "safeties", "record", "problems", "saved")
_OFFER_KEYS = ("side", "safety", "hazard")
_SAY_KEYS = ("seat", "say")
MAX_SAY = 200  # characters of a chat line (the network's limit)
_EVENT_KEYS = (
    "seat",
    "move",
    "card",
    "drawn",
    "coup_fourre",
    "extra_turn",
    "notices",
    "phase",
    "mileage",
)
_PHASES = (PLAYING, EXTENSION, COUP, OVER)
_MOVE_PHASES = (PLAYING, EXTENSION, COUP)  # a move is made in these (not once it is over)
_MOVE = re.compile(r"P|U[P1-6](>[1-9])?|D[P1-6]|y|n")
_NOTICE = re.compile(  # the notices mille gives: a reshuffle's, karma's
    rf"{RESHUFFLED}|karma clash: both lose karma"
    r"|side [1-9] (loses|regains) karma"
)

# Classic's 6-player game raced to 1000 without an extension until it became
# a race to 700 with the extension to 1000, as every classic game but the
# 4-player one.  A version-3 file saved before (its rules' distance 1000, the
# target it was saved with) goes on under those rules to the end of the
# game, later hands included: a hand cannot change its target half way,
# and a game keeps its rules.  The Rules value is the preset's with that
# target and no extension; it writes back as it was read (distance 1000).
# Files written since say 700 and load as today's rules.
LEGACY_SIX_TARGET = 1000


def legacy_classic_six(rules: Rules) -> Rules:
    """Classic's 6-player rules as saved before the extension came to it."""
    return replace(rules, target=LEGACY_SIX_TARGET, extension=None)


# ----- writing ----------------------------------------------------------------


def _card(card: int) -> str | None:
    return None if card == NO_CARD else ALL_NAMES[card]


def _cards(cards: list[int]) -> list[str]:
    return [ALL_NAMES[c] for c in cards]


def _canonical(value: Any) -> Any:
    """``value`` with every object's keys sorted (for a deterministic file)."""
    if isinstance(value, dict):
        return {str(k): _canonical(value[k]) for k in sorted(value, key=str)}
    if isinstance(value, (list, tuple)):
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
    (``{"seat": N, "say": TEXT}``) where they were said among them."""
    items: list[dict[str, Any]] = []
    chat = sorted(session.chat, key=lambda line: line[0])
    said = 0
    for index, event in enumerate([*session.log, None]):
        while said < len(chat) and chat[said][0] <= index:
            items.append({"seat": chat[said][1], "say": chat[said][2]})
            said += 1
        if event is not None:
            items.append(event_to_dict(event))
    return items


def rules_to_dict(rules: Rules) -> dict[str, Any]:
    """The preset's name and every option: what ``find_rules`` rebuilds them from."""
    return {
        "name": rules.name,
        "players": rules.players,
        "team_mode": rules.team_mode,
        "distance": rules.target,
        "winning_score": rules.winning_score,
        "perfect_crossing": rules.perfect_crossing,
        "stacking": rules.stacking,
        "reshuffle": rules.reshuffle,
        "always_discard": rules.always_discard,
        "rigging": rules.rigging,
        "karma": rules.karma,
    }


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


def table_to_dict(table: Table) -> dict[str, Any]:
    """The table's state (not its rules) as the file's ``table`` object."""
    offer = table.offer
    optional = ({"idle_refills": table.idle_refills} if table.idle_refills else {}) | (
        {"owed": table.owed} if table.owed != _owed_by_default(table) else {}
    )
    return {
        "hands": [[_card(c) for c in hand] for hand in table.hands],
        "tableaux": [_tableau_to_dict(tab) for tab in table.tableaux],
        "deck": _cards(table.deck),
        "discard": _cards(table.discard),
        "set_aside": _cards(table.set_aside),
        "target": table.target,
        "to_move": table.to_move,
        "starter": table.starter,
        "phase": table.phase,
        "asked": table.asked,
        "offer": None
        if offer is None
        else {
            "side": offer[0],
            "safety": ALL_NAMES[offer[1]],
            "hazard": ALL_NAMES[offer[2]],
        },
        "extender": table.extender,
        "totals": list(table.totals),
        "games": list(table.games),
        "ordering": table.ordering,
        "marks": list(table.marks),
        "seed": table.seed,
        "refills": table.refills,
    } | optional


def _owed_by_default(table: Table) -> bool:
    """What a file without ``owed`` means, as files from before it meant:
    a mover of a coup fourré preset yet to pick with a hand short of a card
    picks two cards."""
    hand = table.hands[table.to_move]
    return (
        table.rules.coup == OFFER
        and table.phase == PLAYING
        and hand[0] == NO_CARD
        and hand[1] == NO_CARD
    )


def _tableau_to_dict(tab: Tableau) -> dict[str, Any]:
    return {
        "battle": _cards(tab.battle),
        "speed": _cards(tab.speed),
        "miles": _cards(tab.miles),
        "safeties": _cards(tab.safeties),
        "coups": list(tab.coups),
        "mileage": tab.mileage,
        "top": _card(tab.top),
        "speed_top": _card(tab.speed_top),
        "can_go": tab.can_go,
        "battle_window": tab.battle_window,
        "speed_window": tab.speed_window,
        "record": _cards(tab.record),
        "problems": _cards(tab.problems),
        "saved": _cards(tab.saved),
        "karma": tab.karma,
    } | ({"needs_go": True} if tab.needs_go else {})


def event_to_dict(event: Event) -> dict[str, Any]:
    """An event as plain JSON values (the save file's ``log`` items; a card
    hidden from the seat whose stream it is, ``NO_CARD``, is ``null``)."""
    outcome = event.outcome
    return {
        "seat": outcome.seat,
        "move": str(outcome.move),
        "card": _card(outcome.card),
        "drawn": [_card(card) for card in outcome.drawn],
        "coup_fourre": outcome.coup_fourre,
        "extra_turn": outcome.extra_turn,
        "notices": list(event.notices),
        "phase": event.phase,
        "mileage": event.mileage,
    } | ({"stand_in": True} if event.stand_in else {})


# ----- reading ----------------------------------------------------------------


def from_v3(data: dict[str, Any]) -> Session:
    """A version-3 document (its format and version already read)."""
    return read_body(read_object(data, "", TOP_KEYS))


def read_body(d: dict[str, Any]) -> Session:
    """The session in a document whose top-level keys are checked: those of
    version 3, or of version 2 (no ``log``: the log is empty)."""
    rules = _rules(d["rules"], "rules")
    computers, people = _seats(d["seats"], "seats", rules)
    table = _table(d["table"], "table", rules, tuple(sorted(people)))
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
            if not 0 < len(text) <= MAX_SAY or not text.isprintable():
                fail(f"log[{i}].say", f"a chat line is 1 to {MAX_SAY} printable characters")
            chat.append((len(log), seat, text))
        else:
            log.append(_event(item, f"log[{i}]", rules))
    return Session(
        table=table,
        computers=computers,
        deal_rng=deal_rng,
        window_full=window_full,
        log=log,
        people=people,
        chat=chat,
    )


def _rules(data: Any, where: str) -> Rules:
    d = read_object(data, where, _RULES_KEYS)
    name = read_str(d["name"], f"{where}.name")
    if name not in PRESETS:
        fail(f"{where}.name", f"unknown rules {show(name)} (choose {', '.join(PRESETS)})")
    players = read_int(d["players"], f"{where}.players", 2, 9)
    options: dict[str, Any] = {
        "team_mode": read_str(d["team_mode"], f"{where}.team_mode"),
        "distance": read_int(d["distance"], f"{where}.distance", 0, BIG),
        "winning_score": read_int(d["winning_score"], f"{where}.winning_score", 0, BIG),
    }
    for key in _BOOL_OPTIONS:
        options[key] = read_bool(d[key], f"{where}.{key}")
    rigging = options["rigging"] = read_str(d["rigging"], f"{where}.rigging")
    if rigging not in RIGGINGS:
        fail(
            f"{where}.rigging",
            f"unknown deck rigging {show(rigging)} (choose {', '.join(RIGGINGS)})",
        )
    try:
        if name == "milebymile":
            rules = find_rules(name, players=players, **options)
        else:
            rules = find_rules(name, players=players)
    except RulesError as e:
        fail(where, str(e))
    if name == "classic" and players == 6 and options["distance"] == LEGACY_SIX_TARGET:
        rules = legacy_classic_six(rules)
    # bsd and classic have no options: the file states the preset's own
    own = rules_to_dict(rules)
    for key, value in options.items():
        if own[key] != value:
            fail(
                f"{where}.{key}",
                f"{name} with {players} players has {show(own[key])}, not {show(value)}",
            )
    return rules


def table_from_dict(data: Any, rules: Rules) -> Table:
    """A table written by ``table_to_dict`` under ``rules``, checked (the
    shape here, the game by ``Table.validate``); ``SaveError`` if refused."""
    return _table(data, "table", rules)


def _optional(data: Any, keys: tuple[str, ...]) -> tuple[str, ...]:
    """Those of the optional ``keys`` that ``data`` holds."""
    return tuple(key for key in keys if isinstance(data, dict) and key in data)


def _table(data: Any, where: str, rules: Rules, ordered: tuple[int, ...] = (0,)) -> Table:
    """The ``table`` object; ``ordered``: the seats O keeps in order (the people's)."""
    d = read_object(data, where, _TABLE_KEYS + _optional(data, TABLE_OPTIONAL))
    seats, sides = rules.players, rules.sides
    phase = d["phase"]
    if not isinstance(phase, str) or phase not in _PHASES:
        fail(f"{where}.phase", f"unknown phase {show(phase)}")
    table = Table(
        rules=rules,
        hands=[
            read_hand(h, f"{where}.hands[{i}]")
            for i, h in enumerate(read_list(d["hands"], f"{where}.hands", seats))
        ],
        tableaux=[
            _tableau(t, f"{where}.tableaux[{i}]", rules)
            for i, t in enumerate(read_list(d["tableaux"], f"{where}.tableaux", sides))
        ],
        deck=read_cards(d["deck"], f"{where}.deck"),
        discard=read_cards(d["discard"], f"{where}.discard"),
        set_aside=read_cards(d["set_aside"], f"{where}.set_aside"),
        target=read_int(d["target"], f"{where}.target", 0, BIG),
        to_move=read_int(d["to_move"], f"{where}.to_move", 0, seats - 1),
        starter=read_int(d["starter"], f"{where}.starter", 0, seats - 1),
        phase=phase,
        asked=read_optional_int(d["asked"], f"{where}.asked", 0, seats - 1),
        offer=_offer(d["offer"], f"{where}.offer", sides),
        extender=read_optional_int(d["extender"], f"{where}.extender", 1, sides),
        totals=read_ints(d["totals"], f"{where}.totals", sides, 0, BIG),
        games=read_ints(d["games"], f"{where}.games", sides, 0, BIG),
        ordering=read_bool(d["ordering"], f"{where}.ordering"),
        marks=read_ints(d["marks"], f"{where}.marks", sides, 0, BIG),
        seed=read_int(d["seed"], f"{where}.seed", 0, 2**32 - 1),
        refills=read_int(d["refills"], f"{where}.refills", 0, BIG),
        idle_refills=read_int(d.get("idle_refills", 0), f"{where}.idle_refills", 0, BIG),
        ordered=ordered,
    )
    table.owed = read_bool(d["owed"], f"{where}.owed") if "owed" in d else _owed_by_default(table)
    return validated(table)


def _tableau(data: Any, where: str, rules: Rules) -> Tableau:
    d = read_object(data, where, _TABLEAU_KEYS + _optional(data, TABLEAU_OPTIONAL))
    piles = {key: read_cards(d[key], f"{where}.{key}") for key in _PILES}
    played = piles["record"] if rules.battle == PROBLEMS else piles["miles"]
    return Tableau(
        battle=piles["battle"],
        speed=piles["speed"],
        miles=piles["miles"],
        safeties=piles["safeties"],
        coups=read_coups(d["coups"], f"{where}.coups"),
        mileage=read_int(d["mileage"], f"{where}.mileage", 0, BIG),
        nummiles=distance_counts(played),
        top=read_card(d["top"], f"{where}.top", empty_ok=True),
        speed_top=read_card(d["speed_top"], f"{where}.speed_top", empty_ok=True),
        can_go=read_bool(d["can_go"], f"{where}.can_go"),
        battle_window=read_bool(d["battle_window"], f"{where}.battle_window"),
        speed_window=read_bool(d["speed_window"], f"{where}.speed_window"),
        record=piles["record"],
        problems=piles["problems"],
        saved=piles["saved"],
        karma=read_bool(d["karma"], f"{where}.karma"),
        needs_go=read_bool(d.get("needs_go", False), f"{where}.needs_go"),
    )


def _offer(data: Any, where: str, sides: int) -> tuple[int, int, int] | None:
    if data is None:
        return None
    d = read_object(data, where, _OFFER_KEYS)
    return (
        read_int(d["side"], f"{where}.side", 1, sides),
        read_card(d["safety"], f"{where}.safety", empty_ok=False),
        read_card(d["hazard"], f"{where}.hazard", empty_ok=False),
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
            if list(people.values()).count(name) > 1:
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


def _move(text: Any, where: str) -> Move:
    if not isinstance(text, str) or not _MOVE.fullmatch(text):
        fail(where, f"expected a move (P, U3, U4>2, DP, y, n), got {show(text)}")
    if text in ("y", "n"):
        return Answer(text == "y")
    if text == "P":
        return Pick()
    slot = 0 if text[1] == "P" else int(text[1])
    if text[0] == "D":
        return Discard(slot)
    return Use(slot, int(text[3]) if len(text) > 2 else None)


def event_from_dict(data: Any, rules: Rules, where: str = "event") -> Event:
    """An event as :func:`event_to_dict` wrote it for a seat (a card hidden
    from the seat ``null``), checked as the save file's log items are;
    ``SaveError`` if it is not one."""
    stand_in, data = _stand_in(data, where)
    d = read_object(data, where, _EVENT_KEYS)
    drawn = read_list(d["drawn"], f"{where}.drawn")
    named = [ALL_NAMES[0] if card is None else card for card in drawn]
    event = replace(_event(d | {"drawn": named}, where, rules), stand_in=stand_in)
    if None not in drawn:
        return event
    cards = tuple(
        NO_CARD if seen is None else card for seen, card in zip(drawn, event.outcome.drawn)
    )
    return replace(event, outcome=replace(event.outcome, drawn=cards))


def _stand_in(data: Any, where: str) -> tuple[bool, Any]:
    """A log item's optional ``stand_in`` (true: a computer made the move
    for a person who was away; written only then, so files without it
    read as before), and the item without it."""
    if not isinstance(data, dict) or "stand_in" not in data:
        return False, data
    if data["stand_in"] is not True:
        fail(f"{where}.stand_in", f"expected true, got {show(data['stand_in'])}")
    return True, {key: value for key, value in data.items() if key != "stand_in"}


def _event(data: Any, where: str, rules: Rules) -> Event:
    stand_in, data = _stand_in(data, where)
    d = read_object(data, where, _EVENT_KEYS)
    seat = read_int(d["seat"], f"{where}.seat", 0, rules.players - 1)
    move = _move(d["move"], f"{where}.move")
    if isinstance(move, Use) and move.target is not None and move.target > rules.sides:
        fail(f"{where}.move", f"no side {move.target} under these rules")
    drawn = read_cards(d["drawn"], f"{where}.drawn")
    if len(drawn) > 2:
        fail(f"{where}.drawn", "a pick draws at most 2 cards")
    notices = read_list(d["notices"], f"{where}.notices")
    for i, notice in enumerate(notices):
        if not isinstance(notice, str) or not _NOTICE.fullmatch(notice):
            fail(f"{where}.notices[{i}]", f"not a notice mille gives: {show(notice)}")
    phase = d["phase"]
    if phase not in _MOVE_PHASES:
        fail(
            f"{where}.phase",
            f"expected one of {', '.join(map(repr, _MOVE_PHASES))}, got {show(phase)}",
        )
    outcome = Outcome(
        seat,
        move,
        card=read_card(d["card"], f"{where}.card", empty_ok=True),
        drawn=tuple(drawn),
        coup_fourre=read_bool(d["coup_fourre"], f"{where}.coup_fourre"),
        extra_turn=read_bool(d["extra_turn"], f"{where}.extra_turn"),
    )
    mileage = read_int(d["mileage"], f"{where}.mileage", 0, BIG)
    event = Event(outcome, tuple(notices), phase, mileage, stand_in)
    try:  # a move the engine could have made
        check_event(event, rules)
    except EventError as e:
        fail(where if e.notice is None else f"{where}.notices[{e.notice}]", str(e))
    return event
