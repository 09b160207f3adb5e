"""The JSON shapes of the game's values, written and read in one place:
cards, moves, rules, tableaux, a table, events and a seat's view.

The save files (:mod:`mille.storage.current`) and the protocol
(``mille.net``: ``seats`` writes what a seat is sent, ``client`` reads it,
``wire`` reads a move) use these and no shapes of their own, so a card, a
move, a tableau or an event looks the same in a file and on the wire
(``docs/save-format.md``, ``docs/protocol.md``).

Writing gives plain JSON values (keys in the documented order).  Reading
checks the shape of every value through :mod:`mille.storage.checks` and
raises its :class:`~mille.storage.checks.SaveError` with the path of the
bad value; that a logged move is one the engine could have made is
checked by :func:`mille.engine.validation.check_event`, and a table's
rules by :meth:`Table.validate`: the engine owns the rules' invariants.

>>> move_of("U3>2"), str(move_of("DP")), move_of("X")
(Use(slot=3, target=2), 'DP', None)
>>> card_text(0), card_texts([1, NO_CARD])
('25', ['50', None])
"""

from __future__ import annotations

import re
from dataclasses import replace

TYPE_CHECKING = False  # typing is not loaded at run time (start-up)
if TYPE_CHECKING:
    from typing import Any

    from ..engine.view import SeatView

from ..engine.cards import ALL_NAMES, NO_CARD
from ..engine.deal import RESHUFFLED
from ..engine.moves import DISCARDS, NO, PICK, USE_AT, USES, YES, Move, Use
from ..engine.rules import OFFER, PRESETS, PROBLEMS, RIGGINGS, Rules, RulesError, find_rules
from ..engine.table import COUP, EXTENSION, OVER, PLAYING, Event, Outcome, Table
from ..engine.tableau import Tableau
from ..engine.validation import EventError, check_event
from .checks import (
    BIG,
    distance_counts,
    fail,
    read_bool,
    read_card,
    read_cards,
    read_coups,
    read_hand,
    read_int,
    read_ints,
    read_list,
    read_object,
    read_optional_int,
    read_str,
    show,
    validated,
)

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


# ----- cards and moves --------------------------------------------------------


def card_text(card: int) -> str | None:
    """A card's name (``None`` for an empty slot or a hidden card); read
    back by :func:`mille.storage.checks.read_card`."""
    return None if card == NO_CARD else ALL_NAMES[card]


def card_texts(cards: list[int]) -> list[str | None]:
    """A pile's or a hand's cards by name (see :func:`card_text`)."""
    return [card_text(card) for card in cards]


_MOVE = re.compile(r"(P)|U([P1-6])(?:>([1-9]))?|D([P1-6])|(y)|(n)")


def move_of(text: Any) -> Move | None:
    """The move ``text`` writes (``str(move)``: ``P``, ``U3``, ``UP``,
    ``U3>2`` (a hazard on side 2), ``D5``, ``y``, ``n``); None if it is no move."""
    match = _MOVE.fullmatch(text) if isinstance(text, str) and len(text) <= 8 else None
    if match is None:
        return None
    pick, use, target, discard, yes, _no = match.groups()
    if pick:
        return PICK
    if yes:
        return YES
    if use:
        slot = 0 if use == "P" else int(use)
        return USES[slot] if target is None else USE_AT[slot][int(target)]
    if discard:
        return DISCARDS[0 if discard == "P" else int(discard)]
    return NO


def read_move(text: Any, where: str) -> Move:
    """A move's text (:func:`move_of`), refused with the path if it is none."""
    move = move_of(text)
    if move is None:
        fail(where, f"expected a move (P, U3, U4>2, DP, y, n), got {show(text)}")
    return move


# ----- rules ------------------------------------------------------------------


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


def read_rules(data: Any, where: str) -> Rules:
    """The rules :func:`rules_to_dict` wrote, checked (a preset's own options)."""
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


# ----- tables and tableaux ----------------------------------------------------


def table_to_dict(table: Table) -> dict[str, Any]:
    """The table's state (not its rules) as the file's ``table`` object."""
    offer = table.offer
    optional = ({"idle_refills": table.idle_refills} if table.idle_refills else {}) | (
        {"owed": table.owed} if table.owed != _owed_by_default(table) else {}
    )
    return {
        "hands": [card_texts(hand) for hand in table.hands],
        "tableaux": [tableau_to_dict(tab) for tab in table.tableaux],
        "deck": card_texts(table.deck),
        "discard": card_texts(table.discard),
        "set_aside": card_texts(table.set_aside),
        "target": table.target,
        "to_move": table.to_move,
        "starter": table.starter,
        "phase": table.phase,
        "asked": table.asked,
        "offer": None
        if offer is None
        else {
            "side": offer[0],
            "safety": card_text(offer[1]),
            "hazard": card_text(offer[2]),
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


def tableau_to_dict(tab: Tableau) -> dict[str, Any]:
    return {
        "battle": card_texts(tab.battle),
        "speed": card_texts(tab.speed),
        "miles": card_texts(tab.miles),
        "safeties": card_texts(tab.safeties),
        "coups": list(tab.coups),
        "mileage": tab.mileage,
        "top": card_text(tab.top),
        "speed_top": card_text(tab.speed_top),
        "can_go": tab.can_go,
        "battle_window": tab.battle_window,
        "speed_window": tab.speed_window,
        "record": card_texts(tab.record),
        "problems": card_texts(tab.problems),
        "saved": card_texts(tab.saved),
        "karma": tab.karma,
    } | ({"needs_go": True} if tab.needs_go else {})


def table_from_dict(data: Any, rules: Rules) -> Table:
    """A table written by ``table_to_dict`` under ``rules``, checked (the
    shape here, the game by ``Table.validate``); ``SaveError`` if refused."""
    return read_table(data, "table", rules)


def _optional(data: Any, keys: tuple[str, ...]) -> tuple[str, ...]:
    """Those of the optional ``keys`` that ``data`` holds."""
    return tuple(key for key in keys if isinstance(data, dict) and key in data)


def read_table(data: Any, where: str, rules: Rules, ordered: tuple[int, ...] = (0,)) -> Table:
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
            read_tableau(t, f"{where}.tableaux[{i}]", rules)
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


def read_tableau(data: Any, where: str, rules: Rules) -> Tableau:
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


# ----- events -------------------------------------------------------------------


def event_to_dict(event: Event) -> dict[str, Any]:
    """An event as plain JSON values (the save file's ``log`` items; a card
    hidden from the seat whose stream it is, ``NO_CARD``, is ``null``)."""
    outcome = event.outcome
    return {
        "seat": outcome.seat,
        "move": str(outcome.move),
        "card": card_text(outcome.card),
        "drawn": card_texts(list(outcome.drawn)),
        "coup_fourre": outcome.coup_fourre,
        "extra_turn": outcome.extra_turn,
        "notices": list(event.notices),
        "phase": event.phase,
        "mileage": event.mileage,
    } | ({"stand_in": True} if event.stand_in else {})


def event_from_dict(data: Any, rules: Rules | None, where: str = "event") -> Event:
    """An event as :func:`event_to_dict` wrote it for a seat (a card hidden
    from the seat ``null``), checked as the save file's log items are
    (without ``rules``, its shape only); ``SaveError`` if it is not one."""
    stand_in, data = _stand_in(data, where)
    d = read_object(data, where, _EVENT_KEYS)
    drawn = read_list(d["drawn"], f"{where}.drawn")
    named = [ALL_NAMES[0] if card is None else card for card in drawn]
    event = replace(read_event(d | {"drawn": named}, where, rules), stand_in=stand_in)
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


def read_event(data: Any, where: str, rules: Rules | None) -> Event:
    """A log item (an event), checked; under ``rules`` (if given) it is
    also one the engine could have made."""
    stand_in, data = _stand_in(data, where)
    d = read_object(data, where, _EVENT_KEYS)
    seat = read_int(d["seat"], f"{where}.seat", 0, 8 if rules is None else rules.players - 1)
    move = read_move(d["move"], f"{where}.move")
    sides = 9 if rules is None else rules.sides
    if isinstance(move, Use) and move.target is not None and move.target > sides:
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
    if rules is None:
        return event
    try:  # a move the engine could have made
        check_event(event, rules)
    except EventError as e:
        fail(where if e.notice is None else f"{where}.notices[{e.notice}]", str(e))
    return event


# ----- a seat's view ------------------------------------------------------------


def view_to_dict(view: SeatView, shared: dict[str, Any] | None = None) -> dict[str, Any]:
    """What ``view``'s seat may know, as JSON: its hand, every side's
    piles, the discard pile, the cards set aside, how many cards each hand
    and the deck hold, the scores, whose turn it is, the question pending
    if it is the seat's or everyone's (not another seat's ``Coup
    Fourre?``), and the seat's legal moves.  ``shared``: what every seat
    is shown of this table now (:func:`shared_to_dict`), if already made."""
    offer = view.offer
    return (
        {
            "rules": None,  # (first, as in the file; filled below)
            "seat": view.seat,
            "hand": card_texts(view.hand),
        }
        | (shared_to_dict(view) if shared is None else shared)
        | {
            "phase": view.phase,
            "asked": view.asked,
            "offer": None
            if offer is None
            else [offer[0], card_text(offer[1]), card_text(offer[2])],
            "legal": [str(move) for move in view.legal_moves()],
        }
    )


def shared_to_dict(view: SeatView) -> dict[str, Any]:
    """The part of a view every seat is shown alike (made once a change):
    the tableaux as in a save file, with ``needs_go`` always."""
    return {
        "rules": rules_to_dict(view.rules),
        "tableaux": [tableau_to_dict(tab) | {"needs_go": tab.needs_go} for tab in view.tableaux],
        "discard": card_texts(view.discard),
        "set_aside": card_texts(view.set_aside),
        "deck_size": view.deck_size,
        "hand_sizes": list(view.hand_sizes),
        "slots": view.filled_slots(),
        "target": view.target,
        "to_move": view.to_move,
        "starter": view.starter,
        "extender": view.extender,
        "totals": list(view.totals),
        "games": list(view.games),
        "ordering": view.ordering,
        "refills": view.refills,
        "notices": list(view.notices),
        # the people's names by seat (None: a computer), for the words that
        # name seats relative to the reader (``describe``)
        "names": [view.names.get(seat) for seat in range(view.rules.players)],
    }


def table_from_view(view: dict[str, Any]) -> Table:
    """The table a seat may imagine from its view as :func:`view_to_dict`
    wrote it: what the seat sees as it is, the places hidden from it
    filled with the cards it has not seen, in card order (no secret: the
    reader knows no more), read as a save's table is (a watcher's view,
    ``watching``, has no hand: the seat's is imagined as the others');
    ``SaveError``,
    ``KeyError``, ``TypeError`` or ``IndexError`` if it is no view."""
    rules = read_rules(view.get("rules"), "view.rules")
    seat = read_int(view["seat"], "view.seat", 0, rules.players - 1)
    hand = read_hand(view["hand"], "view.hand")
    counts = list(rules.deck) + [rules.false_virtues]
    seen = hand + read_cards(view["discard"], "view.discard")
    seen += read_cards(view["set_aside"], "view.set_aside")
    for index, tab in enumerate(read_list(view["tableaux"], "view.tableaux", rules.sides)):
        for key in ("battle", "speed", "miles", "safeties"):  # as SeatView.unseen
            seen += read_cards(tab[key], f"view.tableaux[{index}].{key}")
    for card in seen:
        if card != NO_CARD:
            counts[card] -= 1
    pool = [card for card, n in enumerate(counts) for _ in range(n)]
    pool.reverse()
    hands: list[list[str | None]] = []
    watching = view.get("watching") is True  # a watcher's: no hand, every one imagined
    for other, filled in enumerate(read_list(view["slots"], "view.slots", rules.players)):
        if other == seat and not watching:
            hands.append(view["hand"])
        else:
            hands.append([card_text(pool.pop()) if full else None for full in filled])
    deck = [card_text(pool.pop()) for _ in range(view["deck_size"])]
    offer = view["offer"]
    data = {
        "hands": hands,
        "tableaux": view["tableaux"],
        "deck": deck,
        "discard": view["discard"],
        "set_aside": view["set_aside"],
        "target": view["target"],
        "to_move": view["to_move"],
        "starter": view["starter"],
        "phase": view["phase"],
        "asked": view["asked"],
        "offer": None
        if offer is None
        else {"side": offer[0], "safety": offer[1], "hazard": offer[2]},
        "extender": view["extender"],
        "totals": view["totals"],
        "games": view["games"],
        "ordering": view["ordering"],
        "marks": view.get("marks", [0] * rules.sides),
        "seed": 0,
        "refills": view["refills"],
    }
    table = table_from_dict(data, rules)
    table.notices = [str(notice) for notice in read_list(view.get("notices", []), "view.notices")]
    return table
