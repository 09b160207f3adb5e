"""Conformance: seeded hands under every preset, seat count and option
combination, with the invariants that follow from the rules (docs/rules.md)
checked after every move, independently of ``Table.validate``
(which is run too).

The quick suite plays a seeded pairwise-covering sample of the milebymile
options (every value of every option, and every pair of values of two
options, appears in some game) plus every classic seat count and bsd; the
slow variant plays the full product.  Seats are played by random players
mostly, with greedy and rules-aware computers mixed in so that hands also
reach completed trips, extensions and coups fourres.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from typing import Any

import pytest

from mille.engine.cards import (
    D200,
    END_OF_LIMIT,
    FALSE_VIRTUE,
    GO,
    HAND_SLOTS,
    NO_CARD,
    RIGHT_OF_WAY,
    SPEED_LIMIT,
    STOP,
    VALUES,
    safety_for,
)
from mille.engine.rules import RIGGINGS, TEAM_MODES, Rules, find_rules
from mille.engine.table import (
    COUP,
    EXTENSION,
    IDLE_REFILLS,
    OVER,
    PLAYING,
    Discard,
    Table,
    Use,
)
from mille.players.autoplayers import GreedyPlayer, RandomPlayer
from mille.players.base import Player, choose, observe, start_hand
from mille.players.heuristic import Heuristic

HAZARDS = range(5, 10)
CRITICAL = (5, 6, 7, STOP)
SAFETIES = range(15, 19)

# ----- the option space ---------------------------------------------------------------

SEATS_AND_MODES = [(players, mode) for players in range(2, 10) for mode in TEAM_MODES[players]]
FACTORS: dict[str, list[Any]] = {
    "seats": SEATS_AND_MODES,
    "distance": [300, 1000, 2000],
    "perfect_crossing": [True, False],
    "stacking": [False, True],
    "reshuffle": [True, False],
    "always_discard": [True, False],
    "rigging": list(RIGGINGS),
    "karma": [False, True],
}


def _valid(combo: dict[str, Any]) -> bool:
    players, mode = combo["seats"]
    sides = players if mode == "individual" else players // int(mode.split("v")[0])
    return not (combo["karma"] and sides < 3)


def full_product() -> list[dict[str, Any]]:
    names = list(FACTORS)
    combos = [dict(zip(names, values)) for values in itertools.product(*FACTORS.values())]
    return [c for c in combos if _valid(c)]


@functools.cache
def pairwise_sample(seed: int = 0) -> tuple[dict[str, Any], ...]:
    """A seeded sample of the product covering every pair of option values
    (that some valid combination has), chosen greedily."""
    combos = full_product()
    random.Random(seed).shuffle(combos)
    names = list(FACTORS)
    bit: dict[tuple[str, str, str, str], int] = {}  # each pair of values, a bit
    pairs = [
        sum(
            1 << bit.setdefault((a, repr(c[a]), b, repr(c[b])), len(bit))
            for a, b in itertools.combinations(names, 2)
        )
        for c in combos
    ]
    wanted = (1 << len(bit)) - 1
    chosen = []
    while wanted:
        best = max(range(len(combos)), key=lambda i: (pairs[i] & wanted).bit_count())
        chosen.append(combos[best])
        wanted &= ~pairs[best]
    return tuple(chosen)


def mbm_rules(combo: dict[str, Any]) -> Rules:
    players, mode = combo["seats"]
    options = {k: v for k, v in combo.items() if k != "seats"}
    return find_rules("milebymile", players=players, team_mode=mode, **options)


def _id(combo: dict[str, Any]) -> str:
    players, mode = combo["seats"]
    flags = "".join(k[0].upper() if v else k[0] for k, v in combo.items() if isinstance(v, bool))
    return f"{players}-{mode}-{combo['distance']}-{flags}-{combo['rigging'].replace(' ', '')}"


# ----- the invariants ---------------------------------------------------------------------


def composition(rules: Rules) -> Counter[int]:
    counts: Counter[int] = Counter()
    for card, n in enumerate(rules.deck):
        counts[card] = n
    counts[FALSE_VIRTUE] = rules.false_virtues
    return +counts


def check_invariants(t: Table) -> None:
    rules = t.rules
    t.validate()
    # 1. every card of the preset's deck accounted for, each in one place
    assert Counter(t.all_cards()) == composition(rules)
    # 2. hands
    assert len(t.hands) == rules.players
    for seat, hand in enumerate(t.hands):
        assert len(hand) == HAND_SLOTS
        held = sum(c != NO_CARD for c in hand)
        mover = t.phase == PLAYING and seat == t.to_move
        assert held <= (HAND_SLOTS if mover else HAND_SLOTS - 1), (seat, hand)
        if not (t.phase != OVER and seat == t.to_move):
            assert hand[0] == NO_CARD, (seat, hand)
    # 3, 4, 5: piles, problems, safeties
    assert all(c == FALSE_VIRTUE for c in t.set_aside)
    for side, tab in enumerate(t.tableaux, 1):
        assert len(set(tab.safeties)) == len(tab.safeties)
        assert all(c in SAFETIES for c in tab.safeties)
        for i, coup in enumerate(tab.coups):
            assert not coup or 15 + i in tab.safeties
        assert tab.karma is False or rules.karma
        if rules.battle == "problems":
            check_problems(t, side)
        else:
            check_piles(t, side)
    # 6. scores
    for side in range(1, rules.sides + 1):
        check_score(t, side)
    # 7. phases
    assert t.phase in (PLAYING, EXTENSION, COUP, OVER)
    if t.phase == PLAYING:
        assert t.asked is None and t.offer is None
        assert any(c != NO_CARD for c in t.hands[t.to_move]) or t.can_supply()
    elif t.phase in (EXTENSION, COUP):
        assert t.asked is not None and (t.offer is not None) == (t.phase == COUP)
        if t.offer is not None:
            side, safety, hazard = t.offer
            assert rules.side_of(t.asked) == side and safety in t.hands[t.asked]
            assert safety_for(hazard) == safety
    else:
        assert t.asked is None and t.offer is None and t.current_player is None


def check_piles(t: Table, side: int) -> None:
    """Classic (and bsd) piles: section 5.3."""
    rules = t.rules
    tab = t.tableaux[side - 1]
    assert all(5 <= c <= 8 or 10 <= c <= GO for c in tab.battle), tab.battle
    assert all(
        c == (SPEED_LIMIT if i % 2 == 0 else END_OF_LIMIT) for i, c in enumerate(tab.speed)
    ), tab.speed
    assert all(0 <= c <= D200 for c in tab.miles)
    assert tab.mileage == sum(VALUES[c] for c in tab.miles) <= t.target
    assert tab.nummiles[D200] == tab.miles.count(D200) <= (rules.max_200s or 99)
    if rules.battle == "stack":
        if tab.battle and 5 <= tab.battle[-1] <= 8:
            assert safety_for(tab.battle[-1]) not in tab.safeties
        assert not (tab.speed and tab.speed[-1] == SPEED_LIMIT and RIGHT_OF_WAY in tab.safeties)


def check_problems(t: Table, side: int) -> None:
    """Milebymile's state: section 5.4."""
    rules = t.rules
    tab = t.tableaux[side - 1]
    assert all(c in HAZARDS for c in tab.problems) and len(set(tab.problems)) == len(tab.problems)
    assert not any(safety_for(c) in tab.safeties for c in tab.problems)
    if RIGHT_OF_WAY not in tab.safeties and any(c in tab.problems for c in (5, 6, 7)):
        assert STOP in tab.problems
    assert not tab.miles
    assert tab.mileage == sum(VALUES[c] for c in tab.record)
    if tab.mileage > t.target:
        assert not rules.perfect_crossing and t.phase == OVER
    assert all(c in CRITICAL for c in tab.battle) and all(c == SPEED_LIMIT for c in tab.speed)


def check_score(t: Table, side: int) -> None:
    """Section 5.6: each row takes only its table's values, the sums hold."""
    rules = t.rules
    sc = rules.scoring
    s = t.hand_score(side)
    tab = t.tableaux[side - 1]
    assert s.miles == min(tab.mileage, t.target) and s.miles % 25 == 0
    assert s.safeties == sc.safety * len(tab.safeties)
    assert s.all_four in (0, sc.all_safeties) and (s.all_four > 0) == (len(tab.safeties) == 4)
    assert s.coups == sc.coup * sum(tab.coups)
    assert s.trip in (0, sc.trip) and s.safe_trip in (0, sc.safe_trip)
    assert s.delayed_action in (0, sc.delayed_action or 0)
    assert s.extension in (0, sc.extension or 0)
    assert s.perfect_crossing in (0, sc.perfect_crossing or 0)
    shut_outs = (
        {0, sc.shut_out}
        if sc.shut_out_rule != "each"
        else {sc.shut_out * k for k in range(rules.sides)}
    )
    assert s.shut_out in shut_outs
    trip_rows = (s.trip, s.safe_trip, s.delayed_action, s.extension, s.shut_out, s.perfect_crossing)
    if any(trip_rows):
        assert t.phase == OVER and t.completing_side() == side and s.trip == sc.trip
    assert s.total == s.miles + s.safeties + s.all_four + s.coups + sum(trip_rows)
    assert t.total(side) == t.totals[side - 1] + s.total


# ----- playing ------------------------------------------------------------------------------


def players_for(rules: Rules, rng: random.Random) -> list[Player]:
    kinds: list[Any] = [RandomPlayer, RandomPlayer, GreedyPlayer, Heuristic]
    return [
        rng.choice(kinds)(random.Random(rng.getrandbits(32)), seat) for seat in range(rules.players)
    ]


def play(rules: Rules, seed: int, hands: int) -> Counter[str]:
    """Play ``hands`` hands, checking every invariant after every move; what
    happened (for coverage)."""
    rng = random.Random(seed)
    table = Table.new(rules, random.Random(seed))
    seen: Counter[str] = Counter()
    for hand in range(hands):
        if hand:
            table.new_hand(rng)
        players = players_for(rules, rng)
        for player in players:
            start_hand(player, table)
        check_invariants(table)
        cards_out = moves = 0
        while table.phase != OVER:
            legal = table.legal_moves()
            assert legal, "a decision with no legal move"
            seat = table.current_player
            assert seat is not None
            move = choose(players[seat], table)
            assert move in legal and table.check(move) is None
            seen[table.phase] += 1
            outcome = table.apply(move)
            for player in players:
                observe(player, table, outcome)
            check_invariants(table)
            moves += 1
            if isinstance(move, (Use, Discard)):
                cards_out += 1
            seen["coup"] += outcome.coup_fourre
            # 8. a hand always ends: every Use or Discard takes a card out of
            # the hands, and only the deck (refilled a bounded number of
            # times: at most IDLE_REFILLS in a row with no mileage gained,
            # and mileage grows a bounded number of times) brings cards in
            gains = rules.sides * (t_max(rules) + 200) // 25
            assert table.refills <= IDLE_REFILLS * (gains + 1)
            assert cards_out <= rules.deck_size * (table.refills + 1)
            assert moves <= 3 * rules.deck_size * (table.refills + 1) + 10
        seen["completed" if table.completing_side() else "run out"] += 1
        seen["refills"] += table.refills
    return seen


def t_max(rules: Rules) -> int:
    return rules.extension or rules.target


def test_pairwise_sample_covers_every_pair() -> None:
    sample = pairwise_sample()
    assert len(sample) < 100
    names = list(FACTORS)
    product = full_product()
    for a, b in itertools.combinations(names, 2):
        possible = {(c[a], c[b]) for c in product}
        covered = {(c[a], c[b]) for c in sample}
        assert covered == possible, (a, b, possible - covered)


@pytest.mark.parametrize("combo", pairwise_sample(), ids=_id)
def test_milebymile_sample(combo: dict[str, Any]) -> None:
    seen = play(mbm_rules(combo), seed=sum(map(ord, _id(combo))), hands=2)
    assert seen["completed"] + seen["run out"] == 2, "every hand ended"


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_classic(players: int) -> None:
    seen = play(find_rules("classic", players=players), seed=players, hands=8)
    assert seen["completed"] > 0
    if players <= 3:
        assert seen[EXTENSION] > 0


def test_bsd() -> None:
    seen = play(find_rules("bsd"), seed=1, hands=8)
    assert seen["completed"] > 0


def test_questions_and_completions_are_reached() -> None:
    seen: Counter[str] = Counter()
    for seed in range(4):
        seen += play(find_rules("classic", players=3), seed=seed, hands=3)
        seen += play(find_rules("milebymile", players=3, karma=True), seed=seed, hands=2)
    assert seen[COUP] > 0 and seen["coup"] > 0 and seen[EXTENSION] > 0
    assert seen["completed"] > 0 and seen["refills"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("combo", full_product(), ids=_id)
def test_milebymile_full_product(combo: dict[str, Any]) -> None:
    seen = play(mbm_rules(combo), seed=len(_id(combo)), hands=1)
    assert seen["completed"] + seen["run out"] == 1, "the hand ended"


@pytest.mark.slow
@pytest.mark.parametrize(
    "preset, players", [("bsd", 2), ("classic", 2), ("classic", 3), ("classic", 4), ("classic", 6)]
)
def test_many_hands(preset: str, players: int) -> None:
    seen = play(find_rules(preset, players=players), seed=100 + players, hands=60)
    assert seen["completed"] + seen["run out"] == 60, "every hand ended"
    assert seen["completed"] > 0


def test_the_checks_catch_planted_faults() -> None:
    t = Table.new(find_rules("classic", players=3), random.Random(1))
    check_invariants(t)
    t.tableaux[1].battle.append(SPEED_LIMIT)  # a Speed Limit on a battle pile
    with pytest.raises(AssertionError):
        check_piles(t, 2)
    t = Table.new(find_rules("milebymile", players=3), random.Random(1))
    t.tableaux[0].problems.append(6)  # a Flat Tire without... it has Stop: fine
    check_problems(t, 1)
    t.tableaux[0].problems.remove(STOP)  # a Flat Tire without its Stop
    with pytest.raises(AssertionError):
        check_problems(t, 1)
    t = Table.new(find_rules("milebymile", players=3), random.Random(1))
    t.tableaux[2].record.append(D200)  # mileage no longer the record's sum
    with pytest.raises(AssertionError):
        check_problems(t, 3)
    t = Table.new(find_rules("classic"), random.Random(1))
    t.deck.pop()
    with pytest.raises((AssertionError, ValueError)):
        check_invariants(t)
