"""Rules as data: what each preset (``bsd``, ``classic``, ``milebymile``) decides.

A :class:`Rules` value carries everything a game's rules fix before the
deal: the deck, the seats and sides, the target and extension, the scoring
table, the coup-fourré rule and every option of ``milebymile``.  Presets are
found by name, like python-chess's ``find_variant``; options are checked
with precise one-line messages (``docs/rules.md`` states the rules).

>>> rules = find_rules("classic", players=4)
>>> rules.sides, rules.target, rules.extension, rules.deck_size
(2, 1000, None, 106)
>>> [rules.side_of(seat) for seat in range(4)]
[1, 2, 1, 2]
>>> rules = find_rules("classic", players=6)
>>> rules.sides, rules.target, rules.extension
(3, 700, 1000)
>>> find_rules("classic", players=5)
Traceback (most recent call last):
  ...
mille.engine.rules.RulesError: classic needs 2, 3, 4 or 6 players
>>> find_rules("milebymile", players=6, team_mode="3v3").members(1)
(0, 2, 4)
>>> find_rules("bsd") == BSD
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..i18n import N_, _
from .cards import COUNTS, END_OF_LIMIT, GASOLINE, OUT_OF_GAS, SPEED_LIMIT

PRESETS = ("bsd", "classic", "milebymile")
RIGGINGS = ("none", "no duplicates", "2x attacks", "2x defenses")

# Battle models: how a side's battle and speed state is kept.
TOP = "top"  # BSD: the board's top card
STACK = "stack"  # classic: real piles, buried hazards can come back
PROBLEMS = "problems"  # milebymile: a set of problems, Stop under every hazard

# Coup-fourré rules.
WINDOW = "window"  # BSD: use the safety before your next pick
OFFER = "offer"  # classic, milebymile: ``Coup Fourre?`` asked at once

# What a tie on top at the winning score means.
TIE_NO_GAME = "no game"  # BSD: nobody wins it, the totals restart
TIE_PLAY_ON = "play on"  # classic, milebymile: another hand until one side leads

# Who scores the Extension row.
BONUS_TO_COMPLETER = "completer"  # BSD: whoever completes the extended trip
BONUS_TO_EXTENDER = "extender"  # classic: only the side that called it, if it completes

# How a hand ends once the deck is empty.
DECK_OUT_CANPLAY = "canplay"  # BSD: nobody holds a card comp.c's canplay accepts,
#                               or the player to move holds no card
DECK_OUT_RUN_OUT = "run out"  # classic, milebymile: every hand is empty

# Shut-out rules.
OPPONENT_AT_ZERO = "opponent"  # BSD: the (one) opponent has 0 miles
EACH_AT_ZERO = "each"  # classic: 500 for each opposing side at 0
ALL_AT_ZERO = "all"  # milebymile: 500 once, if every other side is at 0

FALSE_VIRTUE_COUNT = 2  # extra cards with the karma rule
MAX_SEATS = 9  # the most players a game seats (milebymile)


def other_side(side: int) -> int:
    """The opposing side in a game of two sides (sides are numbered 1 and 2):
    where a hazard goes when no target is named."""
    return 3 - side


class RulesError(ValueError):
    """Rules that cannot be played; ``str()`` is the spec's message."""


@dataclass(frozen=True)
class Scoring:
    """Points of each score row; ``None`` where the preset has no such row."""

    safety: int = 100
    all_safeties: int = 300
    coup: int = 300
    trip: int = 400
    safe_trip: int = 300
    delayed_action: int | None = 300
    extension: int | None = 200
    shut_out: int = 500
    shut_out_rule: str = OPPONENT_AT_ZERO
    perfect_crossing: int | None = None
    extension_to: str = BONUS_TO_COMPLETER


@dataclass(frozen=True)
class Rules:
    """Everything a game's rules fix before the deal."""

    name: str = "bsd"
    players: int = 2
    team_mode: str = "individual"
    sides: int = 2
    deck: tuple[int, ...] = COUNTS  # how many of each card kind
    false_virtues: int = 0  # milebymile's karma cards, beyond the 19 kinds
    hand_size: int = 6
    target: int = 700
    extension: int | None = 1000  # the extended target, if any
    winning_score: int = 5000
    max_200s: int | None = 2
    battle: str = TOP
    coup: str = WINDOW
    perfect_crossing: bool = True
    stacking: bool = False
    reshuffle: bool = False
    always_discard: bool = True
    rigging: str = "none"
    karma: bool = False
    game_tie: str = TIE_NO_GAME
    deck_out: str = DECK_OUT_CANPLAY
    # may a safety be discarded?  BSD refuses it (``discard a safety?``);
    # classic's and Mile by Mile's texts let a player discard any card
    discard_safeties: bool = False
    # the computer of the ``standard`` level (``mille.players.registry``):
    # BSD's own heuristic, ``bsd``, or the rules-aware ``heuristic``
    standard_computer: str = "bsd"
    # BSD's bare refusals on its board: a key that is no slot only beeps, a
    # failed save shows the system's reason alone; the other presets say
    # which slot or file, and why
    bare_refusals: bool = True
    scoring: Scoring = field(default_factory=Scoring)

    @property
    def deck_size(self) -> int:
        return sum(self.deck) + self.false_virtues

    @property
    def coup_window(self) -> bool:
        """BSD's coup-fourré rule (``coup`` is ``WINDOW``): a safety that
        answers a hazard may be used until its side's next pick, even before
        that pick; else ``Coup Fourre?`` is asked as the hazard lands."""
        return self.coup == WINDOW

    def side_of(self, seat: int) -> int:
        """The side (1..sides) of a seat: team members alternate round the table."""
        return seat % self.sides + 1

    def members(self, side: int) -> tuple[int, ...]:
        """The seats of a side, in seat order."""
        return tuple(seat for seat in range(self.players) if self.side_of(seat) == side)


BSD = Rules()

CLASSIC_DECK: tuple[int, ...] = tuple(
    count + {5: 1, 6: 1, 7: 1, 8: 1, 9: 1}.get(card, 0) for card, count in enumerate(COUNTS)
)

# milebymile team modes by player count: team sizes from 2 to N/2 that divide N
TEAM_MODES: dict[int, tuple[str, ...]] = {
    n: ("individual",)
    + tuple("v".join([str(size)] * (n // size)) for size in range(2, n // 2 + 1) if n % size == 0)
    for n in range(2, 10)
}


def _sides(players: int, team_mode: str) -> int:
    if team_mode == "individual":
        return players
    return players // int(team_mode.split("v")[0])


def _rigged(deck: tuple[int, ...], rigging: str) -> tuple[int, ...]:
    doubled = {
        "2x attacks": range(OUT_OF_GAS, SPEED_LIMIT + 1),
        "2x defenses": range(GASOLINE, END_OF_LIMIT + 1),
    }.get(rigging, range(0))
    return tuple(2 * count if card in doubled else count for card, count in enumerate(deck))


def _no_option(name: str, option: str) -> RulesError:
    return RulesError(f"{name} has no {option} option")


def find_rules(
    name: str = "bsd",
    *,
    players: int | None = None,
    team_mode: str | None = None,
    distance: int | None = None,
    winning_score: int | None = None,
    perfect_crossing: bool | None = None,
    stacking: bool | None = None,
    reshuffle: bool | None = None,
    always_discard: bool | None = None,
    rigging: str | None = None,
    karma: bool | None = None,
) -> Rules:
    """The rules of preset ``name`` with the options given (None: the default).

    Raises :class:`RulesError` with the spec's message for an unknown
    preset, a seat count or option value it does not allow, or an option
    the preset does not have.
    """
    if name not in PRESETS:
        raise RulesError(
            _("unknown rules: {name} (choose {choices})").format(
                name=repr(name), choices=", ".join(PRESETS)
            )
        )
    mbm_only = {
        "team mode": team_mode,
        "race distance": distance,
        "winning score": winning_score,
        "perfect crossing": perfect_crossing,
        "stacking attacks": stacking,
        "reshuffle": reshuffle,
        "always allow discarding": always_discard,
        "deck rigging": rigging,
        "karma rule": karma,
    }
    if name != "milebymile":
        for option, value in mbm_only.items():
            if value is not None:
                raise _no_option(name, option)
    if name == "bsd":
        if players not in (None, 2):
            raise RulesError(N_("bsd needs 2 players"))
        return BSD
    if name == "classic":
        return _classic(2 if players is None else players)
    return _milebymile(
        2 if players is None else players,
        "individual" if team_mode is None else team_mode,
        1000 if distance is None else distance,
        5000 if winning_score is None else winning_score,
        perfect_crossing=True if perfect_crossing is None else perfect_crossing,
        stacking=bool(stacking),
        reshuffle=True if reshuffle is None else reshuffle,
        always_discard=True if always_discard is None else always_discard,
        rigging="none" if rigging is None else rigging,
        karma=bool(karma),
    )


def _classic(players: int) -> Rules:
    """2 or 3 players race alone, 4 in two teams and 6 in three teams of
    two.  Every game but the 4-player one races to 700 with the extension
    to 1000 (the article's best 6-player hand, 5,100, counts the extension
    bonus); two teams race to 1000."""
    if players not in (2, 3, 4, 6):
        raise RulesError(N_("classic needs 2, 3, 4 or 6 players"))
    teams = players in (4, 6)
    sides = players // 2 if teams else players
    return Rules(
        name="classic",
        players=players,
        standard_computer="heuristic",
        bare_refusals=False,
        team_mode="v".join(["2"] * sides) if teams else "individual",
        sides=sides,
        deck=CLASSIC_DECK,
        target=1000 if players == 4 else 700,
        extension=None if players == 4 else 1000,
        battle=STACK,
        coup=OFFER,
        game_tie=TIE_PLAY_ON,
        deck_out=DECK_OUT_RUN_OUT,
        discard_safeties=True,
        scoring=Scoring(shut_out_rule=EACH_AT_ZERO, extension_to=BONUS_TO_EXTENDER),
    )


def _milebymile(
    players: int,
    team_mode: str,
    distance: int,
    winning_score: int,
    *,
    perfect_crossing: bool,
    stacking: bool,
    reshuffle: bool,
    always_discard: bool,
    rigging: str,
    karma: bool,
) -> Rules:
    _check_milebymile(players, team_mode, distance, winning_score, perfect_crossing, rigging)
    sides = _sides(players, team_mode)
    if karma and sides < 3:
        raise RulesError(N_("karma rule needs 3 or more sides"))
    return Rules(
        name="milebymile",
        players=players,
        standard_computer="heuristic",
        bare_refusals=False,
        team_mode=team_mode,
        sides=sides,
        deck=_rigged(CLASSIC_DECK, rigging),
        false_virtues=FALSE_VIRTUE_COUNT if karma else 0,
        target=distance,
        extension=None,
        winning_score=winning_score,
        max_200s=None,
        battle=PROBLEMS,
        coup=OFFER,
        perfect_crossing=perfect_crossing,
        stacking=stacking,
        reshuffle=reshuffle,
        always_discard=always_discard,
        rigging=rigging,
        karma=karma,
        game_tie=TIE_PLAY_ON,
        deck_out=DECK_OUT_RUN_OUT,
        discard_safeties=True,
        scoring=Scoring(
            delayed_action=None,
            extension=None,
            shut_out_rule=ALL_AT_ZERO,
            perfect_crossing=None if perfect_crossing else 200,
        ),
    )


def _check_milebymile(
    players: int,
    team_mode: str,
    distance: int,
    winning_score: int,
    perfect_crossing: bool,
    rigging: str,
) -> None:
    """RulesError with the spec's message for a milebymile option out of range."""
    if not 2 <= players <= MAX_SEATS:
        raise RulesError(N_("milebymile needs 2 to 9 players"))
    if not 300 <= distance <= 3000:
        raise RulesError(N_("race distance must be 300 to 3000"))
    if perfect_crossing and distance % 25:
        # distance cards go in 25s: an exact finish could never be made
        raise RulesError(N_("perfect crossing needs a race distance in 25s"))
    if not 1000 <= winning_score <= 10000:
        raise RulesError(N_("winning score must be 1000 to 10000"))
    if team_mode not in TEAM_MODES[players]:
        known = dict.fromkeys(mode for modes in TEAM_MODES.values() for mode in modes)
        if team_mode not in known:
            raise RulesError(
                _("unknown team mode: {mode} (choose {choices})").format(
                    mode=repr(team_mode), choices=", ".join(known)
                )
            )
        raise RulesError(_("team mode not available for {players} players").format(players=players))
    if rigging not in RIGGINGS:
        raise RulesError(
            _("unknown deck rigging: {rigging} (choose {choices})").format(
                rigging=repr(rigging), choices=", ".join(RIGGINGS)
            )
        )


__all__ = [
    "BSD",
    "PRESETS",
    "RIGGINGS",
    "TEAM_MODES",
    "Rules",
    "RulesError",
    "Scoring",
    "find_rules",
]
