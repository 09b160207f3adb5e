"""The simple players (random, greedy) over the N-seat Table, every preset."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_table_classic import build

from mille.engine.cards import (
    D25,
    D50,
    D100,
    EXTRA_TANK,
    FLAT_TIRE,
    GO,
    NO_CARD,
    PUNCTURE_PROOF,
    RIGHT_OF_WAY,
    SPEED_LIMIT,
    STOP,
)
from mille.engine.rules import find_rules
from mille.engine.table import COUP, EXTENSION, NO, OVER, PICK, YES, Discard, Table, Use
from mille.engine.view import SeatView
from mille.players.autoplayers import GreedyPlayer, RandomPlayer
from mille.players.base import choose, observe
from mille.selfplay import play_hands

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("bsd", {}),
    ("classic", dict(players=2)),
    ("classic", dict(players=3)),
    ("classic", dict(players=4)),
    ("classic", dict(players=6)),
    ("milebymile", dict(players=2)),
    ("milebymile", dict(players=3, karma=True, stacking=True)),
    ("milebymile", dict(players=4, team_mode="2v2", always_discard=False)),
    ("milebymile", dict(players=5, reshuffle=False, perfect_crossing=False)),
    ("milebymile", dict(players=6, team_mode="3v3", rigging="2x attacks")),
    ("milebymile", dict(players=9, team_mode="3v3v3", karma=True, rigging="no duplicates")),
]


@pytest.mark.parametrize("cls", [RandomPlayer, GreedyPlayer])
@pytest.mark.parametrize(
    "preset, options", CONFIGS, ids=[f"{p}-{'-'.join(map(str, o.values()))}" for p, o in CONFIGS]
)
def test_always_legal_and_never_discards_a_safety(
    cls: type[RandomPlayer | GreedyPlayer], preset: str, options: dict[str, Any]
) -> None:
    rules = find_rules(preset, **options)
    rng = random.Random(4)
    players = [cls(random.Random(seat), seat) for seat in range(rules.players)]
    table = Table.new(rules, rng)
    moves = questions = 0
    for hand in range(6):
        if hand:
            table.new_hand(rng)
        while table.phase != OVER:
            seat = table.current_player
            assert seat is not None
            move = choose(players[seat], table)
            assert table.check(move) is None, (move, table.check(move))
            if isinstance(move, Discard) and (cls is GreedyPlayer or rules.name == "bsd"):
                # (the random player may discard a safety where the rules allow it)
                assert not EXTRA_TANK <= table.hands[seat][move.slot] <= RIGHT_OF_WAY
            questions += table.phase in (COUP, EXTENSION)
            outcome = table.apply(move)
            for player in players:
                observe(player, table, outcome)
            moves += 1
    assert moves > 6 * 50


def test_seat_is_checked() -> None:
    with pytest.raises(ValueError, match="seat must be a whole number from 0"):
        RandomPlayer(random.Random(0), -1)
    table = Table.new(find_rules("classic"), random.Random(0))
    with pytest.raises(ValueError, match="seat 1 is not to decide"):
        choose(GreedyPlayer(random.Random(0), 1), table)


def test_greedy_plays_longest_distance() -> None:
    t = build(
        hands={0: [D25, D50, D100, STOP, GO, D25]}, picked={0: D50}, sides={1: {"battle": [GO]}}
    )
    assert choose(GreedyPlayer(random.Random(0), 0), t) == Use(3)


def test_greedy_picks_first_then_discards_useless_never_a_safety() -> None:
    t = build(hands={0: [D25, D50, D100, STOP, GO, D25]}, sides={1: {"battle": [GO]}})
    greedy = GreedyPlayer(random.Random(0), 0)
    assert choose(greedy, t) == PICK
    t = build(
        hands={0: [EXTRA_TANK, GO, GO, GO, GO, GO]}, picked={0: GO}, sides={1: {"battle": [GO]}}
    )
    move = choose(greedy, t)  # nothing to play (rolling): a Go goes, never the safety
    assert isinstance(move, Discard) and t.hands[0][move.slot] == GO


def test_greedy_remedy_then_hazard_on_the_leading_side() -> None:
    # stopped: the Go first
    t = build(
        3,
        hands={0: [GO, FLAT_TIRE, D25, D25, D25, D25]},
        picked={0: D50},
        sides={
            1: {"battle": [GO, STOP]},
            2: {"battle": [GO], "miles": [D100]},
            3: {"battle": [GO], "miles": [D100, D100]},
        },
    )
    greedy = GreedyPlayer(random.Random(0), 0)
    assert t.hands[0][choose(greedy, t).slot] == GO  # type: ignore[union-attr]
    # nothing else: the hazard goes on side 3, which leads
    t = build(
        3,
        hands={0: [FLAT_TIRE, GO, GO, GO, GO, GO]},
        picked={0: GO},
        sides={
            1: {"battle": [GO, STOP, GO]},
            2: {"battle": [GO], "miles": [D100]},
            3: {"battle": [GO], "miles": [D100, D100]},
        },
    )
    move = choose(greedy, t)
    assert isinstance(move, Use) and t.hands[0][move.slot] == FLAT_TIRE and move.target == 3


def test_greedy_usefulness() -> None:
    t = build(
        3,
        sides={
            1: {"miles": [D100] * 6 + [D50], "safeties": [PUNCTURE_PROOF]},
            2: {"safeties": [RIGHT_OF_WAY]},
        },
    )
    greedy = GreedyPlayer(random.Random(0), 0)
    assert greedy.usefulness(SeatView(t, greedy.seat), D100) == 0  # over 700
    assert greedy.usefulness(SeatView(t, greedy.seat), D50) > 0
    assert greedy.usefulness(SeatView(t, greedy.seat), 11) == 0  # Spare Tire under Puncture Proof
    assert (
        greedy.usefulness(SeatView(t, greedy.seat), SPEED_LIMIT) > 0
    )  # side 3 can still be limited


def test_greedy_answers() -> None:
    t = build(hands={1: [PUNCTURE_PROOF]}, picked={0: FLAT_TIRE}, sides={2: {"battle": [GO]}})
    t.apply(Use(0))
    assert t.phase == COUP and choose(GreedyPlayer(random.Random(0), 1), t) == YES
    t = build(picked={0: D50}, sides={1: {"battle": [GO], "miles": [D100] * 6 + [D50]}})
    t.apply(Use(0))
    assert t.phase == EXTENSION
    assert choose(GreedyPlayer(random.Random(0), 0), t) == (YES if len(t.deck) >= 30 else NO)


def test_random_picks_only_when_it_must_and_answers_at_random() -> None:
    t = build(hands={0: [D25, D50, D100, STOP, GO, D25]}, sides={1: {"battle": [GO]}})
    assert choose(RandomPlayer(random.Random(0), 0), t) == PICK
    t = build(hands={1: [PUNCTURE_PROOF]}, picked={0: FLAT_TIRE}, sides={2: {"battle": [GO]}})
    t.apply(Use(0))
    answers = {choose(RandomPlayer(random.Random(seed), 1), t) for seed in range(20)}
    assert answers == {YES, NO}
    assert NO_CARD not in t.hands[1][1:]


@pytest.mark.parametrize("preset, players", [("bsd", 2), ("classic", 3), ("milebymile", 4)])
def test_greedy_beats_random(preset: str, players: int) -> None:
    rules = find_rules(preset, players=players)
    names = ["greedy" if seat % 2 == 0 else "random" for seat in range(players)]
    summary = play_hands(60, 5, names, rules)
    greedy = sum(
        p
        for side, p in enumerate(summary["points"], 1)
        if names[rules.members(side)[0]] == "greedy"
    )
    assert greedy > 2 * (sum(summary["points"]) - greedy)
