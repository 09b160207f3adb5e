"""The learned value of the position (mille.players.value): its file's check
on load, its features read from the seat's view only, and the expert's
playouts cut short and scored by it (search.Budget.horizon)."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from mille.engine.cards import NO_CARD
from mille.engine.rules import find_rules
from mille.engine.table import OVER, PICK, PLAYING, Table
from mille.engine.view import SeatView
from mille.players.base import Player, choose, observe, start_hand
from mille.players.expert import Budget, Expert
from mille.players.registry import make_computer
from mille.players.search import CUT_BUDGET, DEFAULT_BUDGET, Sampler, distinct_moves
from mille.players.value import (
    FAMILIES,
    FEATURE_NAMES,
    ValueModelError,
    family,
    load_value,
    model_from_dict,
    state_features,
)

CLASSIC = find_rules("classic", players=2)


def decisions(rules: Any, seed: int, count: int) -> list[Table]:
    """Tables where seat 0 has a real decision (after its pick), from hands
    of the standard computers."""
    found: list[Table] = []
    rng = random.Random(seed)
    while len(found) < count:
        table = Table.new(rules, random.Random(rng.getrandbits(32)))
        players = [make_computer(rules, s, random.Random(s)) for s in range(rules.players)]
        for p in players:
            start_hand(p, table)
        while table.phase != OVER:
            seat = table.current_player
            assert seat is not None
            legal = table.legal_moves()
            if (
                seat == 0
                and table.phase == PLAYING
                and PICK not in legal
                and len(distinct_moves(SeatView(table, 0), legal)) > 1
                and rng.random() < 0.3
            ):
                found.append(table.copy())
                if len(found) == count:
                    break
            outcome = table.apply(choose(players[seat], table))
            for p in players:
                observe(p, table, outcome)
    return found


def test_the_package_file_loads_with_every_family() -> None:
    model = load_value()
    assert set(model.families) == set(FAMILIES)
    for weights in model.families.values():
        assert len(weights.weights) == len(FEATURE_NAMES)
    for fam in FAMILIES:
        assert model.trained[fam]["log_loss"] < model.trained[fam]["constant_log_loss"]


def test_families() -> None:
    assert family(CLASSIC) == "duel"
    assert family(find_rules("classic", players=4)) == "teams"
    assert family(find_rules("milebymile", players=6, team_mode="3v3")) == "teams"
    assert family(find_rules("classic", players=3)) == "sides"
    assert family(find_rules("classic", players=6)) == "sides"


def _data() -> dict[str, Any]:
    return load_value().to_dict()


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.pop("families"), "value weights: missing key 'families'"),
        (lambda d: d.update(extra=1), "value weights: unknown key 'extra'"),
        (lambda d: d.update(format="x"), "value weights: format must be 'mille value of the position'"),
        (lambda d: d.update(version=2), "value weights: version 2 is not 1"),
        (lambda d: d.update(version=True), "value weights: version True is not 1"),
        (lambda d: d["features"].reverse(), "value weights: features are not this version's"),
        (lambda d: d.update(families=[]), "value weights: families must be an object"),
        (lambda d: d["families"].update(duo=d["families"]["duel"]), "value weights: unknown family 'duo'"),
        (lambda d: d["families"]["duel"].pop("bias"), "value weights: 'duel' must hold a bias and weights"),
        (lambda d: d["families"]["duel"]["weights"].pop(), "value weights: 'duel' must list 67 weights"),
        (lambda d: d["families"]["duel"].update(bias=float("nan")), "value weights: 'duel' holds a non-number"),
        (lambda d: d["families"]["teams"]["weights"].__setitem__(3, "1"), "value weights: 'teams' holds a non-number"),
        (lambda d: d.update(trained=[]), "value weights: trained must be an object"),
    ],
)  # fmt: skip
def test_a_bad_file_is_refused_with_one_line(change: Any, message: str) -> None:
    data = _data()
    change(data)
    with pytest.raises(ValueModelError) as info:
        model_from_dict(data)
    assert str(info.value) == message


def test_a_file_round_trips_and_an_unreadable_one_says_why(tmp_path: Path) -> None:
    data = _data()
    assert model_from_dict(data).to_dict() == data
    path = tmp_path / "value.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(ValueModelError, match=r"^value weights: not JSON \("):
        load_value(str(path))
    with pytest.raises(ValueModelError, match="^value weights: cannot read .*missing.json: "):
        load_value(str(tmp_path / "missing.json"))
    path.write_text(json.dumps(data), encoding="utf-8")
    assert load_value(str(path)).families == load_value().families


def test_a_family_without_weights_has_no_value() -> None:
    data = _data()
    del data["families"]["sides"]
    model = model_from_dict(data)
    table = decisions(find_rules("classic", players=3), 1, 1)[0]
    assert model.win_chance(SeatView(table, 0)) is None
    assert load_value().win_chance(SeatView(table, 0)) is not None


def _hide(table: Table, seat: int, rng: random.Random) -> Table:
    """The table as ``seat`` sees it, the hidden cards dealt again."""
    other = table.copy()
    unseen = other.deck[:]
    for s, hand in enumerate(other.hands):
        if s != seat:
            unseen += [c for c in hand if c != NO_CARD]
    rng.shuffle(unseen)
    for s, hand in enumerate(other.hands):
        if s != seat:
            for i, card in enumerate(hand):
                if card != NO_CARD:
                    hand[i] = unseen.pop()
    other.deck = unseen
    return other


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_features_read_the_seats_view_only(players: int) -> None:
    rules = find_rules("classic", players=players)
    rng = random.Random(4)
    for table in decisions(rules, players, 6):
        features = state_features(SeatView(table, 0))
        assert len(features) == len(FEATURE_NAMES)
        assert state_features(SeatView(_hide(table, 0, rng), 0)) == features


def test_a_cut_playout_stops_at_the_seats_decision_after_the_horizon() -> None:
    value = load_value()
    cut = 0
    for table in decisions(CLASSIC, 2, 6):
        view = SeatView(table, 0)
        sampler = Sampler(view, value=value, horizon=16)
        move = distinct_moves(view, view.legal_moves())[0]
        rng = random.Random(9)
        world, seed = sampler.world(rng), rng.getrandbits(64)
        end, moves, chance = sampler.play_cut(world, move, seed, 16)
        full, all_moves = sampler.play(world, move, seed)
        assert full.phase == OVER
        if chance is None:  # the hand ended first
            assert end.phase == OVER and moves == all_moves
            assert sampler.playout(world, move, seed) == (sampler.sign(end), moves)
            continue
        cut += 1
        assert 16 <= moves < all_moves
        assert end.phase == PLAYING and end.current_player == 0
        assert PICK not in end.legal_moves()  # it has picked
        assert chance == value.win_chance(SeatView(end, 0))
        assert sampler.playout(world, move, seed) == (2 * chance - 1, moves)
        # the same moves as the full playout up to the cut: the same cards
        again, again_moves, _ = sampler.play_cut(world, move, seed, 16)
        assert again_moves == moves and again.hands == end.hands
    assert cut >= 4


def test_without_a_value_a_playout_is_played_out() -> None:
    table = decisions(CLASSIC, 3, 1)[0]
    view = SeatView(table, 0)
    sampler = Sampler(view, horizon=16)  # no value: no cut
    move = distinct_moves(view, view.legal_moves())[0]
    rng = random.Random(2)
    world, seed = sampler.world(rng), rng.getrandbits(64)
    _, moves = sampler.play(world, move, seed)
    assert sampler.playout(world, move, seed)[1] == moves


QUICK_CUT = Budget(moves=1500, worlds=4, extra=0, horizon=16, setup=6, seconds=None)


@pytest.mark.parametrize(
    "preset, options",
    [
        ("classic", {}),
        ("milebymile", {}),
        ("classic", dict(players=4)),
        ("classic", dict(players=3)),
    ],
)
def test_the_cut_expert_plays_legal_moves_reproducibly(
    preset: str, options: dict[str, Any]
) -> None:
    rules = find_rules(preset, **options)
    runs = []
    for _ in range(2):
        table = Table.new(rules, random.Random(5))
        players: list[Player] = [Expert(random.Random(1), 0, budget=QUICK_CUT)] + [
            make_computer(rules, s, random.Random(s)) for s in range(1, rules.players)
        ]
        for p in players:
            start_hand(p, table)
        moves = []
        searched = 0
        while table.phase != OVER and searched < 5:
            seat = table.current_player
            assert seat is not None
            move = choose(players[seat], table)
            assert table.check(move) is None
            if seat == 0 and players[0].last_playouts:  # type: ignore[attr-defined]
                searched += 1
                players[0].last_playouts = 0  # type: ignore[attr-defined]
            moves.append(move)
            outcome = table.apply(move)
            for p in players:
                observe(p, table, outcome)
        assert searched >= 3
        runs.append(moves)
    assert runs[0] == runs[1]


def test_the_cut_budget_plays_cut_playouts_only_where_the_value_was_learned() -> None:
    expert = Expert(random.Random(1), 0)  # the expert's own budget cuts
    assert expert.budget == CUT_BUDGET == DEFAULT_BUDGET
    table = Table.new(find_rules("bsd"), random.Random(1))
    assert expert._cut(SeatView(table, 0)) == (None, None)  # BSD's computer: played out
    table = Table.new(CLASSIC, random.Random(1))
    value, horizon = expert._cut(SeatView(table, 0))
    assert value is load_value() and horizon == CUT_BUDGET.horizon == 32
    copy.deepcopy(expert)  # (the benches copy experts)


def test_under_bsd_the_cut_budget_searches_as_the_full_one() -> None:
    """No value under bsd: the same playouts, nothing charged for set-up."""
    full = Budget(moves=600, worlds=2, seconds=None)
    cut = Budget(moves=600, worlds=2, seconds=None, horizon=16, setup=6)
    rules = find_rules("bsd")
    for table in decisions(rules, 4, 3):
        made = []
        for budget in (full, cut):
            bot = Expert(random.Random(3), 0, budget=budget)
            move = choose(bot, table)
            made.append((move, bot.last_moves, bot.last_playouts))
        assert made[0] == made[1]
