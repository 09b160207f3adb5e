"""The expert computer (mille.players.expert): legal everywhere, the questions, what
it may see (its choice does not move when the hidden cards are dealt
again), its worlds, its memory and save data, and a strength check."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from test_table_classic import build

from mille.engine.cards import (
    CARD_NAMES,
    D25,
    D50,
    D75,
    D100,
    D200,
    EXTRA_TANK,
    FLAT_TIRE,
    GO,
    NO_CARD,
    PUNCTURE_PROOF,
    RIGHT_OF_WAY,
)
from mille.engine.rules import BSD, find_rules
from mille.engine.table import (
    COUP,
    EXTENSION,
    NO,
    OVER,
    PICK,
    PLAYING,
    YES,
    Answer,
    Discard,
    Table,
    Use,
)
from mille.engine.view import SeatView
from mille.players.base import Player, choose, observe, start_hand
from mille.players.beliefs import LETTERS
from mille.players.computer import INITIAL_NEED, BsdComputer
from mille.players.expert import Budget, Expert, ExpertError
from mille.players.registry import make_computer
from mille.players.search import Sampler, distinct_moves, game_chance, standard_policy
from mille.selfplay import PLAYERS, play_hands
from support.builders import build as build_bsd
from support.builders import player, watched
from support.hidden import shuffled_hidden

# (no time cap: the same stream gives the same choice on a busy machine too)
QUICK = Budget(moves=100, worlds=2, seconds=None)  # a few playouts a decision: legal, not strong
SMALL = Budget(moves=1500, worlds=3, seconds=None)

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
    ("milebymile", dict(players=7)),
    ("milebymile", dict(players=8, team_mode="4v4", rigging="2x defenses")),
    ("milebymile", dict(players=9, team_mode="3v3v3", karma=True, rigging="no duplicates")),
]
IDS = [f"{p}-{'-'.join(map(str, o.values()))}" for p, o in CONFIGS]


def play(table: Table, players: list[Player], limit: int) -> int:
    """Up to ``limit`` moves of the hand, each checked legal; the moves made."""
    for p in players:
        start_hand(p, table)
    for n in range(limit):
        if table.phase == OVER:
            return n
        seat = table.current_player
        assert seat is not None
        move = choose(players[seat], table)
        assert table.check(move) is None, (move, table.check(move))
        if isinstance(move, Discard):
            assert not EXTRA_TANK <= table.hands[seat][move.slot] <= RIGHT_OF_WAY
        outcome = table.apply(move)
        for p in players:
            observe(p, table, outcome)
    return limit


@pytest.mark.parametrize("preset, options", CONFIGS, ids=IDS)
def test_legal_in_every_preset_and_seat_count(preset: str, options: dict[str, Any]) -> None:
    rules = find_rules(preset, **options)
    rng = random.Random(6)
    # experts in the even seats, the standard computer in the others
    players: list[Player] = [
        Expert(random.Random(seat), seat, budget=QUICK)
        if seat % 2 == 0
        else make_computer(rules, seat, random.Random(seat))
        for seat in range(rules.players)
    ]
    table = Table.new(rules, rng)
    assert play(table, players, 16) > 0
    table.validate()


@pytest.mark.slow
@pytest.mark.parametrize("preset, options", CONFIGS, ids=IDS)
def test_whole_hands_in_every_preset(preset: str, options: dict[str, Any]) -> None:
    rules = find_rules(preset, **options)
    rng = random.Random(7)
    players: list[Player] = [
        Expert(random.Random(seat), seat, budget=QUICK) for seat in range(rules.players)
    ]
    table = Table.new(rules, rng)
    for hand in range(2):
        if hand:
            table.new_hand(rng)
        play(table, players, 5000)
        assert table.phase == OVER


def test_trivial_decisions_take_no_search() -> None:
    table = Table.new(BSD, random.Random(1))
    bot = Expert(random.Random(0), 0)
    assert choose(bot, table) == PICK and bot.last_moves == 0
    # bsd's coup-fourre window comes before the pick
    t = build_bsd(
        player(
            ["", "Driving Ace", "25", "50", "Go", "Stop", "75"],
            battle="Accident",
            battle_pile=["Go", "Accident"],
            battle_window=True,
        ),
        player(["", "75"], battle="Go"),
    )
    assert choose(bot, t) == Use(1) and bot.last_moves == 0
    # one distinct move (six Go and a Stop: the two can only be discarded
    # or played, but Go is not playable on a Go)
    t = build_bsd(
        player(["Go", "Go", "Go", "Go", "Go", "Go", "Go"], battle="Go"),
        player(["", "75"], battle="Go"),
    )
    assert len(distinct_moves(SeatView(t, t.to_move), t.legal_moves())) == 1
    assert choose(bot, t) == Discard(0) and bot.last_moves == 0


def test_a_spent_budget_ends_the_first_round_after_two_worlds() -> None:
    rules = find_rules("milebymile", players=9, team_mode="3v3v3")
    table = Table.new(rules, random.Random(3))
    table.apply(PICK)
    candidates = distinct_moves(SeatView(table, table.to_move), table.legal_moves())
    assert len(candidates) > 4
    bot = Expert(random.Random(0), 0, budget=Budget(moves=1, worlds=12, extra=0))
    start_hand(bot, table)
    assert table.check(choose(bot, table)) is None
    assert bot.last_playouts == 2 * len(candidates)


def test_the_time_cap_ends_the_first_round_after_two_worlds() -> None:
    rules = find_rules("milebymile", players=9, team_mode="3v3v3")
    table = Table.new(rules, random.Random(3))
    table.apply(PICK)
    candidates = distinct_moves(SeatView(table, table.to_move), table.legal_moves())
    bot = Expert(random.Random(0), 0, budget=Budget(moves=10**9, extra=0, seconds=1e-9))
    start_hand(bot, table)
    assert table.check(choose(bot, table)) is None
    assert bot.last_playouts == 2 * len(candidates)


def test_the_time_cap_met_while_widening_keeps_every_world_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A clock that passes the cap after the first round: the search stops
    in the next round, keeping every world it has played (never fewer)."""
    import mille.players.search as search

    ticks = iter(range(10**6))
    monkeypatch.setattr(search, "monotonic", lambda: float(next(ticks)))
    table = Table.new(BSD, random.Random(5))
    table.apply(PICK)
    candidates = distinct_moves(SeatView(table, table.to_move), table.legal_moves())
    assert len(candidates) > 2
    # the deadline is read once at the start, then once a played world
    bot = Expert(random.Random(0), 0, budget=Budget(moves=10**9, worlds=4, extra=0, seconds=4.5))
    start_hand(bot, table)
    assert table.check(choose(bot, table)) is None
    # four worlds for every candidate, then two more (the clock's ticks 4
    # and 5) for the standard move and at most half its rivals
    first = 4 * len(candidates)
    half = 1 + len(candidates) // 2
    assert first < bot.last_playouts <= first + 2 * half


def test_answers_questions() -> None:
    # Coup Fourre? yes, at once
    t = build(hands={1: [PUNCTURE_PROOF]}, picked={0: FLAT_TIRE}, sides={2: {"battle": [GO]}})
    t.apply(Use(0))
    assert t.phase == COUP
    bot = Expert(random.Random(0), 1)
    assert choose(bot, t) == YES and bot.last_moves == 0
    # Extension? is searched, and the answer is legal
    t = build(
        hands={0: [D100, D100, D75, D200, GO, GO]},
        picked={0: D50},
        sides={1: {"battle": [GO], "miles": [D100] * 6 + [D50]}, 2: {"battle": [GO]}},
    )
    t.apply(Use(0))
    assert t.phase == EXTENSION
    bot = Expert(random.Random(0), 0, budget=SMALL)
    answer = choose(bot, t)
    assert isinstance(answer, Answer) and bot.last_moves > 0
    # bsd: the computer's seat may be asked too
    t = build_bsd(
        player(
            ["50", "25", "Stop", "Go", "75", "100", "200"],
            battle="Go",
            miles=["200", "200", "100", "75", "75"],
        ),
        player(["", "25", "75", "Go", "Stop", "100", "100"], battle="Go"),
        to_move=1,
    )
    t.apply(Use(0))
    assert t.phase == EXTENSION and t.asked == 1
    assert choose(Expert(random.Random(0), 1, budget=SMALL), t) in (YES, NO)


def test_plays_the_finish_against_a_threat() -> None:
    # 600 made and a 100 in hand; the opponent rolls at 600 too
    t = build_bsd(
        player(
            ["Stop", "100", "25", "25", "Go", "Accident", "Speed Limit"],
            battle="Go",
            miles=["200", "200", "100", "100"],
        ),
        player(["", "75"], battle="Go", miles=["200", "200", "100", "100"]),
    )
    assert choose(Expert(random.Random(3), 0, budget=Budget(moves=6000, seconds=None)), t) == Use(1)


# ----- what it may see -----------------------------------------------------------------


HIDDEN_CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("bsd", {}),
    ("classic", dict(players=3)),
    ("milebymile", dict(players=4, team_mode="2v2")),
    ("milebymile", dict(players=3, rigging="no duplicates", karma=True)),
]


@pytest.mark.parametrize(
    "preset, options",
    HIDDEN_CONFIGS,
    ids=[f"{p}-{'-'.join(map(str, o.values()))}" for p, o in HIDDEN_CONFIGS],
)
def test_hidden_cards_do_not_change_its_choice(preset: str, options: dict[str, Any]) -> None:
    rules = find_rules(preset, **options)
    rng = random.Random(8)
    bot = Expert(random.Random(1), 0, budget=Budget(moves=400, worlds=2, seconds=None))
    players: list[Player] = [bot] + [
        make_computer(rules, seat, random.Random(seat)) for seat in range(1, rules.players)
    ]
    table = Table.new(rules, rng)
    for p in players:
        start_hand(p, table)
    compared = 0
    while table.phase != OVER and compared < 4:
        seat = table.current_player
        assert seat is not None
        if seat == 0 and len(table.legal_moves()) > 1:
            state = bot.rng.getstate()
            choices = []
            for _ in range(2):
                bot.rng.setstate(state)
                choices.append(choose(bot, shuffled_hidden(table, 0, rng)))
            bot.rng.setstate(state)
            move = choose(bot, table)
            assert choices == [move, move]
            compared += 1
        else:
            move = choose(players[seat], table)
        outcome = table.apply(move)
        for p in players:
            observe(p, table, outcome)
    assert compared >= 3


def test_worlds_keep_what_the_seat_sees() -> None:
    rules = find_rules("milebymile", players=5, reshuffle=True)
    table = Table.new(rules, random.Random(2))
    players = [make_computer(rules, seat, random.Random(seat)) for seat in range(5)]
    play(table, players, 60)
    seat = table.current_player
    assert seat is not None
    sampler = Sampler(SeatView(table, seat), {})
    rng = random.Random(0)
    seeds = set()
    for _ in range(5):
        world = sampler.world(rng)
        world.validate()
        assert world.hands[seat] == table.hands[seat]
        assert world.tableaux == table.tableaux and world.discard == table.discard
        assert len(world.deck) == len(table.deck)
        for other in range(5):
            assert [c == NO_CARD for c in world.hands[other]] == [
                c == NO_CARD for c in table.hands[other]
            ]
        seeds.add(world.seed)
    assert len(seeds) == 5  # the reshuffle order is hidden too


def test_a_coup_fourre_question_to_another_seat_is_not_in_its_guesses() -> None:
    t = build(3, hands={1: [PUNCTURE_PROOF]}, picked={0: FLAT_TIRE}, sides={2: {"battle": [GO]}})
    bot = Expert(random.Random(0), 2)
    start_hand(bot, t)
    assert sorted(bot.beliefs) == [0, 1] and len(bot.beliefs[1]) == 1000
    before = [particle[:] for particle in bot.beliefs[1]]
    outcome = t.apply(Use(0, 2))
    observe(bot, t, outcome)
    assert t.phase == COUP and SeatView(t, 2).phase == PLAYING
    observe(bot, t, t.apply(NO), COUP)  # declined: not seen at all
    assert bot.beliefs[1] == before
    # played later: gone from every guess
    observe(bot, t, t.apply(PICK))
    observe(bot, t, t.apply(Use(t.hands[1].index(PUNCTURE_PROOF))))
    assert all(PUNCTURE_PROOF not in particle for particle in bot.beliefs[1])


def test_guesses_follow_what_a_seat_shows() -> None:
    # a bsd hand between standard computers, watched from seat 0: the
    # guesses at seat 1's hand always have its size, never hold a card in
    # view, and share more cards with the true hand than random guesses
    rng = random.Random(6)
    overlap = chance = 0.0
    for _hand in range(4):
        table = Table.new(BSD, random.Random(rng.getrandbits(64)))
        players = [make_computer(BSD, seat, random.Random(seat)) for seat in range(2)]
        bot = Expert(random.Random(1), 0)
        for p in players + [bot]:
            start_hand(p, table)
        while table.phase != OVER:
            seat = table.current_player
            assert seat is not None
            outcome = table.apply(choose(players[seat], table))
            for p in players + [bot]:
                observe(p, table, outcome)
            true = [c for c in table.hands[1] if c != NO_CARD]
            unseen = SeatView(table, 0).unseen()
            for particle in bot.beliefs[1]:
                assert len(particle) == len(true)
                assert all(particle.count(c) <= unseen[c] for c in particle)
            if seat == 1 and table.current_player == 0:
                overlap += sum(
                    min(p.count(c), true.count(c)) for p in bot.beliefs[1] for c in set(p)
                ) / len(bot.beliefs[1])
                pool = [c for c, n in enumerate(unseen) for _ in range(n)]
                for i in range(10):
                    guess = random.Random(i).sample(pool, len(true))
                    chance += sum(min(guess.count(c), true.count(c)) for c in set(guess)) / 10
    # (about 1.3 times as many over many hands)
    assert overlap > 1.15 * chance, (overlap, chance)


def test_game_chance() -> None:
    t = Table.new(BSD, random.Random(0))
    assert game_chance(t, [5100, 4000], 1) == 1.0
    assert game_chance(t, [5100, 4000], 2) == 0.0
    assert game_chance(t, [5100, 5100], 1) == 0.5  # bsd: nobody wins a tie
    assert game_chance(t, [1000, 1000], 1) == pytest.approx(0.5)
    assert 0.5 < game_chance(t, [3000, 2000], 1) < game_chance(t, [4500, 3500], 1) < 1


def test_counts_bsds_need_as_bsds_computer_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """BSD's computer counts a remedy as needed each time it decides while
    stopped, for good; the expert, watching, keeps the same count (and its
    guesses about that hand weigh moves by it)."""
    import mille.players.beliefs as beliefs

    monkeypatch.setattr(beliefs, "PARTICLES", 4)  # guesses are not what is tested
    dealer = random.Random(0)
    table = Table.new(BSD, dealer)
    bots = [BsdComputer(random.Random(s), s) for s in range(2)]
    watcher = Expert(random.Random(1), 0)
    noted = 0
    for _ in range(2):
        for bot in bots:
            start_hand(bot, table)
        start_hand(watcher, table)
        for _ in watched(table, bots, watcher):
            assert watcher.needs.get(1, list(INITIAL_NEED)) == bots[1].need
            noted += bots[1].need != list(INITIAL_NEED)
        table.new_hand(dealer)
    assert noted, "the seed has the computer stopped at least once"
    # what it counts reaches the computer it foresees
    policy = standard_policy(SeatView(table, 1), random.Random(0), need=watcher.needs[1])
    assert isinstance(policy, BsdComputer) and policy.need == bots[1].need


# ----- saving ----------------------------------------------------------------------------


NEED = {CARD_NAMES[c]: n for c, n in enumerate(INITIAL_NEED)}


def _saved() -> dict[str, Any]:
    t = build(3, hands={1: [PUNCTURE_PROOF]}, sides={2: {"battle": [GO]}})
    bot = Expert(random.Random(1), 1)
    start_hand(bot, t)
    return bot.to_dict()


def test_to_dict_round_trip() -> None:
    t = build(3, hands={1: [PUNCTURE_PROOF]}, picked={0: FLAT_TIRE}, sides={2: {"battle": [GO]}})
    bot = Expert(random.Random(1), 2)
    start_hand(bot, t)
    data = json.loads(json.dumps(bot.to_dict()))
    assert data["seat"] == 2 and sorted(data["beliefs"]) == ["0", "1"]
    assert len(data["beliefs"]["1"]) == 1000 and len(data["beliefs"]["1"][0]) == 6
    # a guess is a string of card letters, a foreseen move names its card's letter
    assert data["beliefs"]["1"][0] == "".join(LETTERS[c] for c in bot.beliefs[1][0])
    assert all(len(key.partition(">")[0]) == 3 for key in data["predictions"]["0"])
    assert data["predictions"] == {"0": data["predictions"]["0"]}  # seat 0 is to move
    assert all(key.startswith(("U:", "D:")) for key in data["predictions"]["0"])
    back = Expert.from_dict(data, random.Random(1), 2)
    assert back.beliefs == bot.beliefs and back.predictions == bot.predictions
    assert back.to_dict() == data
    # bsd: each other seat's Numneed as it counts it; a memory without it
    # (saved before it was kept) starts from BSD's
    bot.needs = {0: list(INITIAL_NEED)}
    bot.needs[0][GO] += 6
    data = json.loads(json.dumps(bot.to_dict()))
    assert data["needs"]["0"]["Go"] == INITIAL_NEED[GO] + 6
    assert Expert.from_dict(data, random.Random(1), 2).needs == bot.needs
    del data["needs"]
    assert Expert.from_dict(data, random.Random(1), 2).needs == {}
    bot.needs = {}
    # the restored player (its rng restored too, as a save file does) goes
    # on exactly as the first one
    rng = random.Random()
    rng.setstate(bot.rng.getstate())
    twin = Expert.from_dict(data, rng, 2)
    bot.budget = twin.budget = QUICK
    for _ in range(6):
        seat = t.current_player
        assert seat is not None
        move = (
            choose(Expert(random.Random(seat), seat, budget=QUICK), t)
            if seat != 2
            else choose(bot, t)
        )
        if seat == 2:
            assert choose(twin, t) == move
        outcome = t.apply(move)
        observe(bot, t, outcome)
        observe(twin, t, outcome)
    assert twin.to_dict() == bot.to_dict()


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: [], "expert: expected an object"),
        (lambda d: d.update(extra=1), "expert: unknown key 'extra'"),
        (lambda d: d.pop("beliefs"), "expert: missing key 'beliefs'"),
        (lambda d: d.pop("seat"), "expert: missing key 'seat'"),
        (lambda d: d.update(seat="1"), "expert: seat must be an integer, not str"),
        (lambda d: d.update(seat=2), "expert: saved for seat 2, not seat 1"),
        (lambda d: d.update(beliefs=[]), "expert: beliefs must be an object"),
        (lambda d: d["beliefs"].update(x=[["Go"]]), "expert: beliefs: 'x' is not a seat number"),
        (
            lambda d: d["beliefs"].update({"02": [["Go"]]}),
            "expert: beliefs: '02' is not a seat number",
        ),
        (lambda d: d["beliefs"].update({"1": [["Go"]]}), "expert: beliefs: seat 1 is its own seat"),
        (
            lambda d: d["beliefs"].update({"2": []}),
            "expert: beliefs '2' must be a list of 1 to 1000 hands",
        ),
        (
            lambda d: d["beliefs"].update({"2": [["Go"] * 8]}),
            "expert: beliefs '2': a hand must be a list of at most 7 cards",
        ),
        (
            lambda d: d["beliefs"].update({"2": [["Go", "Joker"]]}),
            "expert: beliefs '2': unknown card 'Joker'",
        ),
        (
            lambda d: d["beliefs"].update({"2": [["Go", 13]]}),
            "expert: beliefs '2': unknown card 13",
        ),
        (
            lambda d: d["beliefs"].update({"2": ["abcdefgh"]}),
            "expert: beliefs '2': a hand must be at most 7 card letters",
        ),
        (
            lambda d: d["beliefs"].update({"2": ["abz"]}),
            "expert: beliefs '2': unknown card letter 'z'",
        ),
        (
            lambda d: d["beliefs"].update({"2": [7]}),
            "expert: beliefs '2': a hand must be a string of card letters",
        ),
        (
            lambda d: d["predictions"].update({"0": ["P"] * 999 + ["U:z"]}),
            "expert: predictions '0': 'U:z' is not a move",
        ),
        (lambda d: d.update(predictions=None), "expert: predictions must be an object"),
        (
            lambda d: d["predictions"].update({"5": ["P"]}),
            "expert: predictions '5': no beliefs about seat 5",
        ),
        (
            lambda d: d["predictions"].update({"0": ["P"]}),
            "expert: predictions '0' must be a list of 1000 moves",
        ),
        (
            lambda d: d["predictions"].update({"0": ["P"] * 999 + ["U:Joker"]}),
            "expert: predictions '0': 'U:Joker' is not a move",
        ),
        (
            lambda d: d["predictions"].update({"0": ["P"] * 999 + ["U:Stop>12"]}),
            "expert: predictions '0': 'U:Stop>12' is not a move",
        ),
        (lambda d: d.update(needs=[]), "expert: needs must be an object"),
        (lambda d: d.update(needs={"1": {}}), "expert: needs: seat 1 is its own seat"),
        (lambda d: d.update(needs={"0": {}}), "expert: needs '0': missing card '25'"),
        (
            lambda d: d.update(needs={"0": dict(NEED, Go=1)}),
            "expert: needs '0' 'Go' must be 10 to 1000000, not 1",
        ),
        (
            lambda d: d.update(needs={"0": dict(NEED, Go="3")}),
            "expert: needs '0' 'Go' must be an integer, not str",
        ),
    ],
)
def test_from_dict_messages(change: Any, message: str) -> None:
    data = _saved()
    changed = change(data)
    if isinstance(changed, list):
        data = changed  # type: ignore[assignment]
    with pytest.raises(ExpertError) as info:
        Expert.from_dict(data, random.Random(0), 1)
    assert str(info.value) == message
    assert isinstance(info.value, ValueError)


def test_from_dict_takes_every_move_it_writes() -> None:
    data = _saved()
    data["predictions"]["0"] = [
        "P",
        "Y",
        "N",
        "?",
        "D:25",
        "U:Go",
        "U:Stop>2",
        "U:False Virtue",
    ] * 125
    bot = Expert.from_dict(data, random.Random(0), 1)
    assert bot.predictions[0][:3] == ["P", "Y", "N"]
    # card letters (what it writes now) and card names (older saves) alike
    data["predictions"]["0"] = ["D:a", "U:n", "U:i>2", "U:t"] * 250
    bot = Expert.from_dict(data, random.Random(0), 1)
    assert bot.predictions[0][:4] == ["D:25", "U:Go", "U:Stop>2", "U:False Virtue"]
    data["beliefs"]["0"] = [["Go", "25"]] * 1000
    assert Expert.from_dict(data, random.Random(0), 1).beliefs[0][0] == [GO, D25]
    assert Expert.from_dict(data, random.Random(0), 1).to_dict()["beliefs"]["0"][0] == "na"


def test_bad_seat_turn_and_budget() -> None:
    with pytest.raises(ExpertError, match="seat must be a whole number from 0, not -1"):
        Expert(random.Random(0), -1)
    t = Table.new(find_rules("classic"), random.Random(0))
    with pytest.raises(ExpertError, match="seat 1 is not to decide"):
        choose(Expert(random.Random(0), 1), t)
    with pytest.raises(ExpertError, match="a budget needs at least 1 move and 2 worlds"):
        Budget(moves=0)
    with pytest.raises(ExpertError, match="a budget's time cap must be more than 0 seconds"):
        Budget(seconds=0)


def test_selfplay_knows_the_levels() -> None:
    assert {"easy", "standard", "expert"} <= set(PLAYERS)
    bot = PLAYERS["expert"](BSD, random.Random(0), 1)
    assert isinstance(bot, Expert) and bot.seat == 1


@pytest.mark.slow
def test_selfplay_plays_the_expert() -> None:
    summary = play_hands(1, 2, ["expert", "easy", "standard"], find_rules("classic", players=3))
    assert summary["hands"] == 1


@pytest.mark.slow
def test_stronger_than_greedy() -> None:
    # a light budget, duplicate deals: the expert's side scores more
    mine = theirs = 0
    for seed in range(4):
        for names in (["expert", "greedy"], ["greedy", "expert"]):
            summary = play_hands(1, seed, names)
            points = summary["points"]
            mine += points[names.index("expert")]
            theirs += points[names.index("greedy")]
    assert mine > 1.3 * theirs, (mine, theirs)
