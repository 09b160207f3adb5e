"""Seeded whole hands between two random legal players, checked at every move."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mille.cards import (
    COUNTS, D200, END_OF_LIMIT, NO_CARD, SPEED_LIMIT, full_deck, is_distance, is_hazard,
    is_remedy, is_safety,
)
from mille.engine import GameState, Phase, Pick

FULL = Counter(full_deck())


def check_invariants(s: GameState) -> None:
    assert s.all_cards() == FULL
    assert sum(s.all_cards().values()) == 101
    s.validate()
    for n, p in enumerate(s.players):
        assert all(is_distance(c) for c in p.miles)
        assert all(is_safety(c) for c in p.safeties)
        assert all(is_hazard(c) or is_remedy(c) for c in p.battle_pile + p.speed_pile)
        assert all(c in (SPEED_LIMIT, END_OF_LIMIT) for c in p.speed_pile)
        assert p.nummiles[D200] <= 2 and p.mileage <= s.end
        score = s.hand_score(n)
        parts = (score.miles + score.safeties + score.all_four + score.coups + score.trip
                 + score.safe_trip + score.delayed_action + score.extension + score.shut_out)
        assert score.total == parts
        assert s.total(n) == p.total_before_hand + score.total
        assert score.miles == p.mileage and score.safeties == 100 * len(p.safeties)
        assert score.coups == 300 * sum(p.coups)
    assert all(not is_safety(c) for c in s.discard)


def play_hand(s: GameState, rng: random.Random, every_move: bool = True) -> int:
    """Random legal moves until the hand ends; returns the number of moves.

    The invariants are checked after every move, or only when the hand ends
    if ``every_move`` is false (the checks cost far more than the moves).
    """
    moves = 0
    while not s.hand_over:
        if s.phase is Phase.EXTENSION:
            s.decide_extension(rng.random() < 0.5)
        else:
            legal = s.legal_moves()
            assert legal, "a player to move always has a legal move"
            picks = [m for m in legal if isinstance(m, Pick)]
            s.apply(picks[0] if picks else rng.choice(legal))
            moves += 1
        if every_move:
            check_invariants(s)
        assert moves < 1000, "every hand ends"
    check_invariants(s)
    return moves


def play_hands(count: int, checked_hands: int) -> None:
    """``count`` seeded random hands; the first ``checked_hands`` of them are
    checked after every move, the others when they end."""
    rng = random.Random(20261121)
    s = GameState.new_game(rng)
    hands = games = 0
    for n in range(count):
        play_hand(s, rng, every_move=n < checked_hands)
        hands += 1
        before = sum(p.games for p in s.players)
        over = s.game_over
        s.new_hand(rng)
        check_invariants(s)
        games += sum(p.games for p in s.players) - before
        if over:
            assert all(p.total_before_hand == 0 for p in s.players)
    assert hands == count and games > 0


def test_a_thousand_random_hands() -> None:
    play_hands(1000, checked_hands=100)


@pytest.mark.slow
def test_a_thousand_random_hands_checked_at_every_move() -> None:
    play_hands(1000, checked_hands=1000)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_any_seeded_hand_ends_consistently(seed: int) -> None:
    rng = random.Random(seed)
    s = GameState.new_game(rng)
    play_hand(s, rng)
    assert s.hand_over
    ended_at_end = [p.mileage == s.end for p in s.players]
    assert sum(ended_at_end) <= 1
    if not any(ended_at_end):
        # only an exhausted deck (or a declined extension at 700) ends a hand short of End
        assert not s.deck or any(p.mileage == 700 for p in s.players)
    for n in (0, 1):
        assert (s.hand_score(n).trip == 400) == ended_at_end[n]


def test_counts_table() -> None:
    assert sum(COUNTS) == 101 and len(full_deck()) == 101
    assert NO_CARD < 0


def test_engine_modules_do_not_import_curses() -> None:
    code = (
        "import sys; import mille.cards, mille.engine, mille.session, mille.players, "
        "mille.computer; assert 'curses' not in sys.modules and '_curses' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
