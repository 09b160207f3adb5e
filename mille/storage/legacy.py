"""The save formats of earlier versions, read and converted to today's game.

Version 2 is version 3 without the log: it is read by the same code, and
the game goes on with an empty log.  Version 1 (mille 1.0) held a ``bsd``
game, you against the computer, with a player object for each of you; it
is checked with its own paths (``players[0].hand[3]``) and converted: the
bsd rules, seat 0 a person, seat 1 the ``bsd`` computer.  Either is saved
again as version 3.  ``docs/save-format.md`` describes both.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not loaded at run time (start-up)
if TYPE_CHECKING:
    from typing import Any

from ..engine.rules import BSD
from ..engine.table import EXTENSION, OVER, PLAYING, Table
from ..engine.tableau import Tableau
from ..game.session import Session
from .checks import (
    BIG,
    distance_counts,
    fail,
    read_bool,
    read_card,
    read_cards,
    read_computer,
    read_coups,
    read_hand,
    read_int,
    read_list,
    read_object,
    read_rng,
    show,
    validated,
)
from .current import TOP_KEYS, read_body

# ----- version 2 --------------------------------------------------------------

V2_TOP_KEYS = tuple(key for key in TOP_KEYS if key != "log")


def from_v2(data: dict[str, Any]) -> Session:
    """A version-2 document: version 3's keys but the log (an empty log)."""
    return read_body(read_object(data, "", V2_TOP_KEYS))


# ----- version 1 (mille 1.0: bsd, you against the computer) -------------------

_V1_TOP_KEYS = (
    "format",
    "version",
    "players",
    "deck",
    "discard",
    "end",
    "to_move",
    "starter",
    "phase",
    "extender",
    "ordering",
    "window_full",
    "computer",
    "rng",
)
_V1_PLAYER_KEYS = (
    "hand",
    "battle",
    "speed",
    "battle_pile",
    "speed_pile",
    "miles",
    "safeties",
    "coups",
    "can_go",
    "battle_window",
    "speed_window",
    "mileage",
    "total_before_hand",
    "games",
)
_V1_PHASES = (PLAYING, EXTENSION, OVER)
# a hand's end: bsd's target, or its extension's (700 or 1000)
_V1_ENDS = tuple(end for end in (BSD.target, BSD.extension) if end is not None)


def _v1_player(data: Any, where: str) -> tuple[list[int], Tableau, int, int]:
    """A version-1 player: hand, tableau, total before the hand, games."""
    d = read_object(data, where, _V1_PLAYER_KEYS)
    hand = read_hand(d["hand"], f"{where}.hand")
    miles = read_cards(d["miles"], f"{where}.miles")
    tableau = Tableau(
        battle=read_cards(d["battle_pile"], f"{where}.battle_pile"),
        speed=read_cards(d["speed_pile"], f"{where}.speed_pile"),
        miles=miles,
        safeties=read_cards(d["safeties"], f"{where}.safeties"),
        coups=read_coups(d["coups"], f"{where}.coups"),
        mileage=read_int(d["mileage"], f"{where}.mileage", 0, max(_V1_ENDS)),
        nummiles=distance_counts(miles),
        top=read_card(d["battle"], f"{where}.battle", empty_ok=True),
        speed_top=read_card(d["speed"], f"{where}.speed", empty_ok=True),
        can_go=read_bool(d["can_go"], f"{where}.can_go"),
        battle_window=read_bool(d["battle_window"], f"{where}.battle_window"),
        speed_window=read_bool(d["speed_window"], f"{where}.speed_window"),
    )
    total = read_int(d["total_before_hand"], f"{where}.total_before_hand", 0, BSD.winning_score - 1)
    return hand, tableau, total, read_int(d["games"], f"{where}.games", 0, BIG)


def from_v1(data: dict[str, Any]) -> Session:
    """A version-1 save as a version-3 session: the bsd rules, seat 0 you,
    seat 1 the computer; each player's hand and board become a seat's hand
    and a side's tableau; ``end`` becomes the target."""
    d = read_object(data, "", _V1_TOP_KEYS)
    players = [
        _v1_player(p, f"players[{i}]")
        for i, p in enumerate(read_list(d["players"], "players", BSD.players))
    ]
    phase = d["phase"]
    if not isinstance(phase, str) or phase not in _V1_PHASES:
        fail("phase", f"unknown phase {show(phase)}")
    end = d["end"]
    if type(end) is not int or end not in _V1_ENDS:
        fail("end", f"must be {' or '.join(map(str, _V1_ENDS))}, not {show(end)}")
    asked = extender = None
    if phase == EXTENSION:
        asked = read_int(d["extender"], "extender", 0, 1)
        if asked == 1:  # Session.play decides for it at once
            fail("extender", "the computer never leaves Extension? pending")
    elif d["extender"] is not None:
        fail("extender", f"must be null outside the extension phase, not {show(d['extender'])}")
    if end != BSD.target:  # version 1 did not keep who called it: the first side past 700
        extender = next(
            (side for side, p in enumerate(players, 1) if p[1].mileage >= BSD.target), 1
        )
    table = validated(
        Table(
            rules=BSD,
            hands=[p[0] for p in players],
            tableaux=[p[1] for p in players],
            deck=read_cards(d["deck"], "deck"),
            discard=read_cards(d["discard"], "discard"),
            target=end,
            to_move=read_int(d["to_move"], "to_move", 0, 1),
            starter=read_int(d["starter"], "starter", 0, 1),
            phase=phase,
            asked=asked,
            extender=extender,
            totals=[p[2] for p in players],
            games=[p[3] for p in players],
            ordering=read_bool(d["ordering"], "ordering"),
        )
    )
    window_full = read_bool(d["window_full"], "window_full")
    rngs = read_object(d["rng"], "rng", ("deal", "computer"))
    deal_rng = read_rng(rngs["deal"], "rng.deal")
    computer = read_computer(
        "bsd", d["computer"], read_rng(rngs["computer"], "rng.computer"), 1, "computer"
    )
    return Session(table=table, computers={1: computer}, deal_rng=deal_rng, window_full=window_full)
