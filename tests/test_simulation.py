"""Seeded whole hands between random legal players, checked at every move.

Every preset and seat count: ``bsd`` (2 seats), ``classic`` (2, 3, 4, 6),
``milebymile`` (2 to 9, every team mode, a few option combinations).  The
quick suite plays a modest number of hands of each; the ``slow`` variants
play many more, checked at every move.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mille.engine.cards import (
    COUNTS,
    D200,
    END_OF_LIMIT,
    NO_CARD,
    SPEED_LIMIT,
    full_deck,
    is_distance,
    is_hazard,
    is_remedy,
)
from mille.engine.rules import BSD, TEAM_MODES, Rules, find_rules
from mille.engine.table import (
    COUP,
    DISCARDS,
    EXTENSION,
    OVER,
    PICK,
    PLAYING,
    USES,
    Answer,
    Table,
    deck_cards,
)

HAND_MOVES = 3000  # no hand takes more moves (a bound, not a measure)


def _safety(c: int) -> bool:
    return 15 <= c <= 18  # (False Virtue, 19, is not a safety)


def check_invariants(t: Table) -> None:
    rules = t.rules
    cards = t.all_cards()
    assert len(cards) == rules.deck_size
    assert Counter(cards) == Counter(deck_cards(rules))
    t.validate(strict=True)
    sc = rules.scoring
    problems = rules.battle == "problems"
    assert len(t.hands) == rules.players and all(len(h) == 7 for h in t.hands)
    for side in range(1, rules.sides + 1):
        tab = t.tableaux[side - 1]
        played = tab.record if problems else tab.miles
        assert all(is_distance(c) for c in played)
        assert all(_safety(c) for c in tab.safeties)
        if problems:
            assert all(is_hazard(c) for c in tab.battle + tab.speed)
        else:
            assert all(is_hazard(c) or is_remedy(c) for c in tab.battle + tab.speed)
        assert all(c in (SPEED_LIMIT, END_OF_LIMIT) for c in tab.speed)
        if rules.max_200s is not None:
            assert tab.nummiles[D200] <= rules.max_200s
        if rules.perfect_crossing:
            assert tab.mileage <= t.target
        score = t.hand_score(side)
        parts = (
            score.miles
            + score.safeties
            + score.all_four
            + score.coups
            + score.trip
            + score.safe_trip
            + score.delayed_action
            + score.extension
            + score.shut_out
            + score.perfect_crossing
        )
        assert score.total == parts
        assert t.total(side) == t.totals[side - 1] + score.total
        assert score.miles == min(tab.mileage, t.target)
        assert score.safeties == sc.safety * len(tab.safeties)
        assert score.coups == sc.coup * sum(tab.coups)
        if rules.name == "bsd":
            assert score.perfect_crossing == 0 and score.miles == tab.mileage
    if not rules.discard_safeties:  # bsd; the others let a player discard one
        assert not any(_safety(c) for c in t.discard)
    if t.phase == OVER:
        assert t.current_player is None and t.legal_moves() == []
    else:
        legal = t.legal_moves()
        assert legal, "whoever must decide always has a legal move"
        assert all(t.check(m) is None for m in legal)
        if t.phase in (EXTENSION, COUP):
            assert t.current_player == t.asked
        else:
            assert t.current_player == t.to_move


def check_hand_end(t: Table) -> None:
    """A finished hand ended for one of the rules' reasons; only the side
    that completed the trip has the trip rows."""
    assert t.hand_over
    rules = t.rules
    completed = [tab.mileage >= t.target for tab in t.tableaux]
    assert sum(completed) <= 1
    if not any(completed):
        if rules.name == "bsd":
            # only an exhausted deck (or a declined extension at 700) ends a
            # hand short of the target
            assert not t.deck or any(tab.mileage == 700 for tab in t.tableaux)
        else:
            assert not t.can_supply()
            assert all(c == NO_CARD for hand in t.hands for c in hand)
    for side, done in enumerate(completed, 1):
        assert (t.hand_score(side).trip == rules.scoring.trip) == done
    if rules.name == "bsd":
        assert completed == [tab.mileage == t.target for tab in t.tableaux]


def play_hand(t: Table, rng: random.Random, every_move: bool = True) -> int:
    """Random legal moves until the hand ends; returns the number of moves.

    The invariants are checked after every move, or only when the hand ends
    if ``every_move`` is false (the checks cost far more than the moves).
    """
    moves = 0
    while not t.hand_over:
        if t.phase in (EXTENSION, COUP):
            t.apply(Answer(rng.random() < 0.5))
        else:
            legal = t.legal_moves()
            assert legal, "a player to move always has a legal move"
            t.apply(rng.choice(legal))
        moves += 1
        if every_move:
            check_invariants(t)
        assert moves < HAND_MOVES, "every hand ends"
    check_invariants(t)
    check_hand_end(t)
    return moves


def play_hands(rules: Rules, count: int, checked_hands: int, seed: int = 20261121) -> int:
    """``count`` seeded random hands; the first ``checked_hands`` of them are
    checked after every move, the others when they end.  Returns the games
    won."""
    rng = random.Random(seed)
    t = Table.new(rules, rng)
    check_invariants(t)
    games = 0
    for n in range(count):
        play_hand(t, rng, every_move=n < checked_hands)
        before = sum(t.games)
        over = t.game_over
        totals = [t.total(side) for side in range(1, rules.sides + 1)]
        starter = t.starter
        t.new_hand(rng)
        check_invariants(t)
        assert t.starter == t.to_move == (starter + 1) % rules.players
        won = sum(t.games) - before
        games += won
        if over:
            assert t.totals == [0] * rules.sides
            best = max(totals)
            assert best >= rules.winning_score
            assert won == (1 if totals.count(best) == 1 else 0)
            if won:
                assert t.games[totals.index(best)] >= 1
        else:
            assert won == 0 and t.totals == totals
    return games


def test_a_thousand_random_bsd_hands() -> None:
    assert play_hands(BSD, 1000, checked_hands=50) > 0


@pytest.mark.slow
def test_a_thousand_random_bsd_hands_checked_at_every_move() -> None:
    assert play_hands(BSD, 1000, checked_hands=1000) > 0


def _variants() -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = [("bsd", {"players": 2})]
    out += [("classic", {"players": n}) for n in (2, 3, 4, 6)]
    for n in range(2, 10):
        out += [("milebymile", {"players": n, "team_mode": mode}) for mode in TEAM_MODES[n]]
    out += [
        ("milebymile", {"players": 3, "karma": True, "stacking": True}),
        (
            "milebymile",
            {"players": 4, "perfect_crossing": False, "always_discard": False, "reshuffle": False},
        ),
        ("milebymile", {"players": 5, "rigging": "no duplicates", "distance": 700}),
        (
            "milebymile",
            {"players": 6, "team_mode": "2v2v2", "karma": True, "rigging": "2x attacks"},
        ),
    ]
    return out


VARIANTS = _variants()


def _id(variant: tuple[str, dict[str, Any]]) -> str:
    name, options = variant
    return "-".join([name] + [f"{k}={v}" for k, v in options.items()])


@pytest.mark.parametrize("variant", VARIANTS, ids=map(_id, VARIANTS))
def test_random_hands_of_every_preset(variant: tuple[str, dict[str, Any]]) -> None:
    name, options = variant
    rules = find_rules(name, **options)
    assert (rules.name, rules.players) == (name, options["players"])
    play_hands(rules, 6, checked_hands=2, seed=len(options) * 100 + options["players"])


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=map(_id, VARIANTS))
def test_many_random_hands_of_every_preset(variant: tuple[str, dict[str, Any]]) -> None:
    name, options = variant
    play_hands(find_rules(name, **options), 200, checked_hands=30, seed=7)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_any_seeded_bsd_hand_ends_consistently(seed: int) -> None:
    rng = random.Random(seed)
    t = Table.new(BSD, rng)
    play_hand(t, rng)
    assert t.hand_over
    ended_at_end = [tab.mileage == t.target for tab in t.tableaux]
    assert sum(ended_at_end) <= 1
    if not any(ended_at_end):
        # only an exhausted deck (or a declined extension at 700) ends a hand short of End
        assert not t.deck or any(tab.mileage == 700 for tab in t.tableaux)
    for side in (1, 2):
        assert (t.hand_score(side).trip == 400) == ended_at_end[side - 1]


def test_counts_table() -> None:
    assert sum(COUNTS) == 101 and len(full_deck()) == 101
    assert deck_cards(BSD) == full_deck()
    assert NO_CARD < 0


def test_the_moves_are_the_bsd_commands() -> None:
    assert [str(m) for m in (PICK,) + USES + DISCARDS] == (
        ["P", "UP"] + [f"U{n}" for n in range(1, 7)] + ["DP"] + [f"D{n}" for n in range(1, 7)]
    )
    assert PLAYING != OVER


def test_engine_modules_do_not_import_curses() -> None:
    code = (
        "import sys; import mille.engine.cards, mille.engine.rules, mille.engine.battle, mille.engine.table, "
        "mille.game.session, mille.players.base, mille.players.computer; "
        "assert 'curses' not in sys.modules and '_curses' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
