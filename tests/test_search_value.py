"""How the expert's search values a playout (the ``hands`` and ``points``
objectives of mille.players.search) and its confident analysis
(``confirm``), which the hint trusts."""

from __future__ import annotations

import math
import random

import pytest
from test_table_classic import build

from mille.engine.cards import D100, D200, GO
from mille.engine.rules import find_rules
from mille.engine.table import OVER, Discard, Table, Use
from mille.engine.view import SeatView
from mille.players.base import choose, observe, start_hand
from mille.players.expert import Expert, ExpertError
from mille.players.registry import make_computer
from mille.players.search import (
    GAME_HANDS,
    GAME_WEIGHT,
    POINTS_SCALE,
    POINTS_WEIGHT,
    Sampler,
    Trial,
    confirm,
    game_chance,
)

RULES = find_rules("classic", players=2)


def finished(seed: int, totals: list[int]) -> tuple[Table, Table]:
    """A hand of classic at 2 seats played to its end by the standard
    computers, from ``totals``: the table as it started and as it ended."""
    table = Table.new(RULES, random.Random(seed))
    table.totals[:] = totals
    start = table.copy()
    players = [make_computer(RULES, seat, random.Random(seat)) for seat in range(2)]
    for p in players:
        start_hand(p, table)
    while table.phase != OVER:
        seat = table.current_player
        assert seat is not None
        outcome = table.apply(choose(players[seat], table))
        for p in players:
            observe(p, table, outcome)
    return start, table


def difference(table: Table) -> int:
    """Seat 0's side's hand score less the other side's."""
    return table.hand_score(1).total - table.hand_score(2).total


def test_the_hands_objective_values_the_hand_won_then_a_little_the_points() -> None:
    signs = set()
    for seed in range(12):
        start, end = finished(seed, [0, 0])
        diff = difference(end)
        sign = (diff > 0) - (diff < 0)
        signs.add(sign)
        hands = Sampler(SeatView(start, 0), objective="hands")
        assert not hands.near_end
        assert hands.sign(end) == sign
        assert hands.value(end) == pytest.approx(
            sign + POINTS_WEIGHT * math.tanh(diff / POINTS_SCALE)
        )
        assert abs(hands.value(end) - sign) < 0.1  # the points never outweigh the hand
        points = Sampler(SeatView(start, 0))
        chance = game_chance(end, [end.totals[i] + end.hand_score(i + 1).total for i in (0, 1)], 1)
        assert points.value(end) == pytest.approx(diff + GAME_WEIGHT * chance)
    assert {1, -1} <= signs


def test_near_the_end_the_hands_objective_counts_the_game() -> None:
    """4,500 to 4,200 of 5,000: this hand may end the game; its chance,
    1 or 0 once over, weighs ``GAME_HANDS`` either way."""
    for seed in range(6):
        start, end = finished(seed, [4500, 4200])
        sampler = Sampler(SeatView(start, 0), objective="hands")
        assert sampler.near_end
        diff = difference(end)
        totals = [end.totals[i] + end.hand_score(i + 1).total for i in (0, 1)]
        chance = game_chance(end, totals, 1)
        assert sampler.value(end) == pytest.approx(
            (diff > 0)
            - (diff < 0)
            + POINTS_WEIGHT * math.tanh(diff / POINTS_SCALE)
            + GAME_HANDS * (2 * chance - 1)
        )


def test_an_unknown_objective_is_refused() -> None:
    table = Table.new(RULES, random.Random(1))
    with pytest.raises(ExpertError) as caught:
        Sampler(SeatView(table, 0), objective="glory")
    assert str(caught.value) == "unknown objective 'glory'"
    with pytest.raises(ExpertError) as caught:
        Expert(random.Random(1), 0, objective="glory")
    assert str(caught.value) == "unknown objective 'glory'"


def test_confirm_finds_the_end_of_the_trip_clearly_better_than_throwing_it_away() -> None:
    """Classic, 2 seats: at 500 of 700, rolling, holding a 200, with the other
    side still at 0: playing it ends the trip; discarding it is clearly
    worse, and a move against itself is never clearly better."""
    table = build(
        2,
        picked={0: D200},
        sides={1: {"battle": [GO], "miles": [D100] * 5}, 2: {"battle": [GO]}},
    )
    view = SeatView(table, 0)
    sampler = Sampler(view, objective="hands")
    rng = random.Random(3)
    trip, waste = Use(0), Discard(0)
    assert table.check(trip) is None
    verdict = confirm(sampler, waste, trip, rng, Trial(seconds=None))
    assert verdict.better and verdict.z >= 2.5 and verdict.hands > 0
    assert 32 <= verdict.worlds < 400  # a clear call ends early
    backwards = confirm(sampler, trip, waste, rng, Trial(seconds=None))
    assert not backwards.better and backwards.z <= -2.5
    same = confirm(sampler, waste, waste, rng, Trial(most=32, seconds=None))
    assert not same.better and same.z == 0 and same.hands == 0 and same.worlds == 32


def test_the_expert_values_its_playouts_by_its_objective(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: the expert's search values its playouts by the objective it
    is given; the points objective stays its own until the hands objective
    is shown to gain (docs/benchmarks.md)."""
    from mille.players import expert as module

    asked: list[str] = []

    def search(sampler: Sampler, candidates: list[object], *args: object) -> object:
        asked.append(sampler.objective)
        raise LookupError("searched")

    monkeypatch.setattr(module, "search", search)
    table = Table.new(RULES, random.Random(4))
    table.apply(table.legal_moves()[0])  # the pick
    for bot in (Expert(random.Random(1), 0), Expert(random.Random(1), 0, objective="hands")):
        with pytest.raises(LookupError):
            choose(bot, table)
    assert asked == ["points", "hands"]
