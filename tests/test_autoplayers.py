"""The simple players, and how BSD's computer fares against them."""

from __future__ import annotations

import random

import pytest

from mille.autoplayers import GreedyPlayer, RandomPlayer
from mille.cards import D25, D50, D100, EXTRA_TANK, GO, NO_CARD, STOP
from mille.engine import COMPUTER, PICK, Discard, GameState, Phase, Use
from mille.selfplay import play_hands


def test_bsd_beats_random() -> None:
    summary = play_hands(300, 7, ["bsd", "random"])
    wins = summary["hand_wins"]
    assert wins[0] / sum(wins) >= 0.85
    other = play_hands(300, 8, ["random", "bsd"])
    assert other["hand_wins"][1] / sum(other["hand_wins"]) >= 0.85


def test_bsd_outscores_greedy() -> None:
    summary = play_hands(300, 7, ["bsd", "greedy"])
    assert summary["points"][0] > summary["points"][1]
    other = play_hands(300, 8, ["greedy", "bsd"])
    assert other["points"][1] > other["points"][0]


def test_greedy_beats_random() -> None:
    summary = play_hands(200, 5, ["greedy", "random"])
    assert summary["points"][0] > 2 * summary["points"][1]


@pytest.mark.parametrize("cls", [RandomPlayer, GreedyPlayer])
def test_always_legal_and_never_discards_a_safety(cls: type) -> None:
    rng = random.Random(4)
    players = [cls(random.Random(1)), cls(random.Random(2))]
    state = GameState.new_game(rng)
    moves = 0
    for hand in range(60):
        if hand:
            state.new_hand(rng)
        last = None
        while state.phase is not Phase.HAND_OVER:
            if state.phase is Phase.EXTENSION:
                assert last is not None and state.extender is not None
                state.decide_extension(players[state.extender].wants_extension(state, last))
                continue
            move = players[state.to_move].choose(state)
            assert state.check(move) is None
            if isinstance(move, Discard):
                assert state.players[state.to_move].hand[move.slot] < EXTRA_TANK
            last = state.apply(move)
            moves += 1
    assert moves > 3000


def _rolling_state(hand: list[int]) -> GameState:
    state = GameState.new_game(random.Random(0))
    me = state.players[state.to_move]
    me.hand = hand
    me.battle, me.can_go = GO, True
    return state


def test_greedy_plays_longest_distance() -> None:
    state = _rolling_state([D25, D50, D100, STOP, GO, D25, D50])
    assert GreedyPlayer(random.Random(0)).choose(state) == Use(2)


def test_greedy_picks_first_and_discards_useless() -> None:
    state = _rolling_state([NO_CARD, D25, D50, D100, STOP, GO, D25])
    greedy = GreedyPlayer(random.Random(0))
    assert greedy.choose(state) == PICK
    state = _rolling_state([GO, EXTRA_TANK, GO, GO, GO, GO, GO])
    state.players[state.to_move].can_go = True
    # nothing to play (already rolling): a Go goes, never the safety
    move = greedy.choose(state)
    assert isinstance(move, Discard) and move.slot != 1


def test_random_picks_only_when_it_must() -> None:
    state = _rolling_state([NO_CARD, D25, D50, D100, STOP, GO, D25])
    assert RandomPlayer(random.Random(0)).choose(state) == PICK
    assert state.to_move != COMPUTER  # the human seat moves first
