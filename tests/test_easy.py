"""The easy computer (mille.players.easy): legal everywhere, never silly, weaker than
the standard computer, and its save data."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from test_table_classic import build
from test_table_milebymile import build as build_mbm

from mille.engine.cards import (
    ACCIDENT,
    D25,
    D50,
    D75,
    D100,
    D200,
    EXTRA_TANK,
    GO,
    PUNCTURE_PROOF,
    RIGHT_OF_WAY,
    SPARE_TIRE,
    STOP,
)
from mille.engine.rules import find_rules
from mille.engine.table import COUP, EXTENSION, OVER, PICK, YES, Answer, Discard, Table, Use
from mille.players.base import choose, observe, start_hand
from mille.players.easy import Easy, EasyError
from mille.selfplay import play_hands
from support.builders import build as build_bsd
from support.builders import player

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


@pytest.mark.parametrize(
    "preset, options", CONFIGS, ids=[f"{p}-{'-'.join(map(str, o.values()))}" for p, o in CONFIGS]
)
def test_always_legal_never_discards_a_safety_and_finishes(
    preset: str, options: dict[str, Any]
) -> None:
    rules = find_rules(preset, **options)
    rng = random.Random(4)
    players = [Easy(random.Random(seat), seat) for seat in range(rules.players)]
    table = Table.new(rules, rng)
    safeties_played = questions = 0
    for hand in range(4):
        if hand:
            table.new_hand(rng)
        for p in players:
            start_hand(p, table)
        while table.phase != OVER:
            seat = table.current_player
            assert seat is not None
            move = choose(players[seat], table)
            assert table.check(move) is None, (move, table.check(move))
            me = table.tableaux[table.side_index(seat)]
            finish = [
                m
                for m in table.legal_moves()
                if isinstance(m, Use)
                and table.hands[seat][m.slot] <= D200
                and me.mileage + [25, 50, 75, 100, 200][table.hands[seat][m.slot]] >= table.target
            ]
            if finish:
                assert move in finish
            if isinstance(move, Discard):
                assert not EXTRA_TANK <= table.hands[seat][move.slot] <= RIGHT_OF_WAY
            if isinstance(move, Use) and EXTRA_TANK <= table.hands[seat][move.slot] <= RIGHT_OF_WAY:
                safeties_played += 1
            if isinstance(move, Answer):
                questions += 1
            outcome = table.apply(move)
            for p in players:
                observe(p, table, outcome)
    assert safeties_played > 0


def test_never_passes_a_winning_finish() -> None:
    # bsd: 600 made, a 100 in hand and every temptation besides
    for seed in range(20):
        t = build_bsd(
            player(
                ["Stop", "100", "Right of Way", "25", "Go", "Accident", "Speed Limit"],
                battle="Go",
                miles=["200", "200", "100", "100"],
            ),
            player(["", "75"], battle="Go", miles=["100"]),
        )
        move = choose(Easy(random.Random(seed), 0), t)
        assert move == Use(1)
    # classic, 3 seats: a 75 completes 700
    for seed in range(20):
        t = build(
            3,
            hands={0: [D75, D25, STOP, ACCIDENT, GO, SPARE_TIRE]},
            picked={0: D100},
            sides={
                1: {"battle": [GO], "miles": [D200, D200, D100, D50, D25, D50]},
                2: {"battle": [GO]},
            },
        )
        move = choose(Easy(random.Random(seed), 0), t)
        assert isinstance(move, Use) and t.hands[0][move.slot] == D75
    # milebymile without perfect crossing: any card past the end finishes
    for seed in range(20):
        t = build_mbm(
            perfect_crossing=False,
            hands={0: [D25, D200, STOP, ACCIDENT, D50, SPARE_TIRE]},
            picked={0: D100},
            sides={
                1: {"problems": [], "record": [D200, D200, D200, D100, D100, D100]},
                2: {"problems": []},
            },
        )
        move = choose(Easy(random.Random(seed), 0), t)
        assert isinstance(move, Use) and t.hands[0][move.slot] in (D100, D200)


def test_takes_every_coup_fourre() -> None:
    t = build(hands={1: [PUNCTURE_PROOF]}, picked={0: 6}, sides={2: {"battle": [GO]}})
    t.apply(Use(0))
    assert t.phase == COUP and choose(Easy(random.Random(0), 1), t) == YES
    # bsd's window: the safety before the pick
    t = build_bsd(
        player(
            ["", "Driving Ace", "25", "50", "Go", "Stop", "75"],
            battle="Accident",
            battle_pile=["Go", "Accident"],
            battle_window=True,
        ),
        player(["", "75"], battle="Go"),
    )
    assert choose(Easy(random.Random(0), 0), t) == Use(1)


def test_plays_a_curing_safety_often_but_not_always() -> None:
    chosen = []
    for seed in range(40):
        t = build_bsd(
            player(
                ["25", "Driving Ace", "50", "Stop", "Go", "Speed Limit", "75"],
                battle="Accident",
                battle_pile=["Go", "Accident"],
            ),
            player(["", "75"], battle="Go"),
        )
        move = choose(Easy(random.Random(seed), 0), t)
        assert t.check(move) is None
        chosen.append(move == Use(1))
    assert 10 < sum(chosen) < 40


def test_plays_its_safeties_once_the_deck_is_out() -> None:
    t = build_bsd(
        player(["25", "Extra Tank", "50", "Stop", "Go", "Speed Limit", "75"], battle="Go"),
        player(["", "75"], battle="Go"),
        deck_size=0,
    )
    for seed in range(10):
        assert choose(Easy(random.Random(seed), 0), t) == Use(1)


def test_extension_answer_and_the_pick() -> None:
    t = build(
        hands={0: [D100, D100, D75, D200, GO, GO]},
        picked={0: D50},
        sides={1: {"battle": [GO], "miles": [D100] * 6 + [D50]}, 2: {"battle": [GO]}},
    )
    t.apply(Use(0))
    assert t.phase == EXTENSION
    assert t.check(choose(Easy(random.Random(0), 0), t)) is None
    t = Table.new(find_rules("classic"), random.Random(0))
    assert choose(Easy(random.Random(0), 0), t) == PICK


def test_weaker_than_standard() -> None:
    # in bsd (about 22% of the decided hands over thousands)
    won = decided = 0
    for seed, names in ((1, ["easy", "standard"]), (2, ["standard", "easy"])):
        summary = play_hands(150, seed, names)
        mine = names.index("easy")
        won += summary["hand_wins"][mine]
        decided += sum(summary["hand_wins"])
    assert won / decided <= 0.35, (won, decided)
    # but it plays: it beats the random player
    summary = play_hands(60, 3, ["easy", "random"], find_rules("classic", players=2))
    assert summary["hand_wins"][0] > 2 * summary["hand_wins"][1]


def test_to_dict_round_trip() -> None:
    bot = Easy(random.Random(1), 3)
    data = json.loads(json.dumps(bot.to_dict()))
    assert data == {"seat": 3}
    back = Easy.from_dict(data, random.Random(1), 3)
    assert back.seat == 3 and back.to_dict() == data


@pytest.mark.parametrize(
    "data, message",
    [
        ([], "easy: expected an object"),
        ({"seat": 1, "extra": 1}, "easy: unknown key 'extra'"),
        ({}, "easy: missing key 'seat'"),
        ({"seat": "1"}, "easy: seat must be an integer, not str"),
        ({"seat": True}, "easy: seat must be an integer, not bool"),
        ({"seat": 2}, "easy: saved for seat 2, not seat 1"),
        ({"seat": 1, "x" * 100: 1}, "easy: unknown key '" + "x" * 56 + "..."),
    ],
)
def test_from_dict_messages(data: Any, message: str) -> None:
    with pytest.raises(EasyError) as info:
        Easy.from_dict(data, random.Random(0), 1)
    assert str(info.value) == message
    assert isinstance(info.value, ValueError)


def test_bad_seat_and_turn() -> None:
    with pytest.raises(EasyError, match="seat must be a whole number from 0, not -1"):
        Easy(random.Random(0), -1)
    t = Table.new(find_rules("classic"), random.Random(0))
    with pytest.raises(EasyError, match="seat 1 is not to decide"):
        choose(Easy(random.Random(0), 1), t)
