"""Every computer, under one vocabulary.

A person chooses a *level*: ``easy``, ``standard`` or ``expert``.  The
computer behind a level is a *kind*, the name a save file records: ``easy``
and ``expert`` are themselves; ``standard`` is the preset's own computer,
:attr:`mille.engine.rules.Rules.standard_computer` (BSD's heuristic, ``bsd``,
in the bsd preset; the rules-aware ``heuristic`` in the others).  Self-play
and the benchmarks add players that no game saves: two simple ones, ``random``
and ``greedy``, and ``learned`` (a model that scores moves, measured against
the standard before it may become one); they may also name a kind directly
(``heuristic`` under bsd).

The classes are imported only when asked for: starting the game imports
no computer it does not play.

>>> from mille.engine.rules import BSD, find_rules
>>> computer_kind(BSD), computer_kind(find_rules("classic")), computer_kind(BSD, "expert")
('bsd', 'heuristic', 'expert')
>>> computer_kinds(BSD)
('bsd', 'easy', 'expert')
>>> import random
>>> kind_of(make_computer(find_rules("classic"), 1, random.Random(1)))
'heuristic'
"""

from __future__ import annotations

from ..i18n import N_

TYPE_CHECKING = False  # no typing import at run time (start-up)
if TYPE_CHECKING:
    import random
    from typing import Any

    from ..engine.rules import Rules
    from .base import Player

LEVELS = ("easy", "standard", "expert")  # what a person chooses (--level)
STANDARD = "standard"
# every name of a level that --level takes: its code, and its name in each
# language (the screens' words: in French facile, normal, expert)
LEVEL_NAMES = {
    "easy": "easy",
    "facile": "easy",
    "standard": STANDARD,
    "normal": STANDARD,
    "expert": "expert",
}


def level_code(name: str) -> str:
    """The level (a code, as the record and saves keep it) that ``name``
    names, in any language; ``name`` itself if it names none.

    >>> level_code("normal"), level_code("Facile"), level_code("hard")
    ('standard', 'easy', 'hard')
    """
    return LEVEL_NAMES.get(name.lower(), name)


# who each level is for: the ? screens and the README say it in these words
LEVEL_GUIDE = N_("easy for a first game, standard for most, expert for a challenge")
SAVED_KINDS = ("bsd", "heuristic", "easy", "expert")  # what a save file may name
# every name self-play takes (--players), in the order its help lists them
PLAYER_NAMES = ("easy", "standard", "bsd", "heuristic", "random", "greedy", "expert", "learned")

_CLASS_NAMES = {
    "BsdComputer": "bsd",
    "Heuristic": "heuristic",
    "Easy": "easy",
    "Expert": "expert",
    "RandomPlayer": "random",
    "GreedyPlayer": "greedy",
    "Learned": "learned",
}


def computer_class(kind: str) -> type[Any]:
    """The class of a computer kind (a saved kind, ``random``, ``greedy`` or ``learned``)."""
    if kind == "bsd":
        from .computer import BsdComputer

        return BsdComputer
    if kind == "heuristic":
        from .heuristic import Heuristic

        return Heuristic
    if kind == "easy":
        from .easy import Easy

        return Easy
    if kind == "expert":
        from .expert import Expert

        return Expert
    if kind == "random":
        from .autoplayers import RandomPlayer

        return RandomPlayer
    if kind == "greedy":
        from .autoplayers import GreedyPlayer

        return GreedyPlayer
    if kind == "learned":
        from .learned import Learned

        return Learned
    raise ValueError(f"unknown computer kind {kind!r}")


def computer_kind(rules: Rules, level: str = STANDARD) -> str:
    """The kind of computer that plays ``level`` under ``rules``."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r} (choose {', '.join(LEVELS)})")
    return rules.standard_computer if level == STANDARD else level


def computer_kinds(rules: Rules) -> tuple[str, ...]:
    """The kinds a save file may name under ``rules``: the standard one first."""
    return tuple(computer_kind(rules, level) for level in (STANDARD, "easy", "expert"))


def kind_of(player: Player) -> str:
    """The saved kind of a computer made here; ValueError for any other
    player (the simple self-play ones included: no game saves them)."""
    kind = _CLASS_NAMES.get(type(player).__name__)
    if kind not in SAVED_KINDS or type(player) is not computer_class(kind):
        raise ValueError(f"not a computer a save file can name: {type(player).__name__}")
    return kind


def level_of(player: Player) -> str:
    """The level a computer plays: ``easy`` or ``expert`` for those, and
    ``standard`` for any other player."""
    kind = _CLASS_NAMES.get(type(player).__name__)
    return kind if kind in ("easy", "expert") else STANDARD


def make_computer(rules: Rules, seat: int, rng: random.Random, level: str = STANDARD) -> Player:
    """The computer that plays ``level`` at ``seat``."""
    player: Player = computer_class(computer_kind(rules, level))(rng, seat)
    return player


def make_player(rules: Rules, name: str, seat: int, rng: random.Random) -> Player:
    """A self-play seat: ``name`` is a level (the preset's computer for
    ``standard``), a kind, ``random`` or ``greedy``; ``bsd`` is the old name
    of ``standard``, kept for the commands people have written down."""
    if name not in PLAYER_NAMES:
        raise ValueError(f"unknown player {name!r} (choose from {', '.join(PLAYER_NAMES)})")
    kind = computer_kind(rules) if name in (STANDARD, "bsd") else name
    player: Player = computer_class(kind)(rng, seat)
    return player
