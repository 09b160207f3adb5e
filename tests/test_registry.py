"""One home per rule fact: the registry of computers, the sides, card names."""

from __future__ import annotations

import random

import pytest

from mille.engine.cards import ALL_NAMES, CARD_NAMES, FALSE_VIRTUE, NO_CARD, card_name
from mille.engine.rules import BSD, PRESETS, find_rules, other_side
from mille.players import registry
from mille.players.autoplayers import GreedyPlayer, RandomPlayer
from mille.players.computer import BsdComputer
from mille.players.heuristic import Heuristic


def test_other_side() -> None:
    assert (other_side(1), other_side(2)) == (2, 1)


def test_card_names_include_false_virtue() -> None:
    assert ALL_NAMES[: len(CARD_NAMES)] == CARD_NAMES
    assert card_name(FALSE_VIRTUE) == "False Virtue"
    assert card_name(NO_CARD) == ""


@pytest.mark.parametrize("name", PRESETS)
def test_standard_is_the_presets_computer(name: str) -> None:
    rules = find_rules(name)
    expected = BsdComputer if name == "bsd" else Heuristic
    assert type(registry.make_computer(rules, 1, random.Random(1))) is expected
    assert registry.computer_kinds(rules)[0] == rules.standard_computer


def test_levels_round_trip() -> None:
    for level in registry.LEVELS:
        bot = registry.make_computer(BSD, 1, random.Random(1), level)
        assert registry.level_of(bot) == level
        assert registry.kind_of(bot) == registry.computer_kind(BSD, level)


def test_unknown_names_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown level 'hard'"):
        registry.computer_kind(BSD, "hard")
    with pytest.raises(ValueError, match="unknown player 'hard'"):
        registry.make_player(BSD, "hard", 0, random.Random(1))


def test_self_play_names() -> None:
    classic = find_rules("classic")
    assert type(registry.make_player(classic, "bsd", 0, random.Random(1))) is Heuristic
    assert type(registry.make_player(BSD, "heuristic", 0, random.Random(1))) is Heuristic
    assert type(registry.make_player(BSD, "random", 0, random.Random(1))) is RandomPlayer
    greedy = registry.make_player(BSD, "greedy", 0, random.Random(1))
    assert type(greedy) is GreedyPlayer
    with pytest.raises(ValueError, match="not a computer a save file can name: GreedyPlayer"):
        registry.kind_of(greedy)
