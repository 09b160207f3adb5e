"""The Session: what the UI drives and a save file holds (mille.game.session)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from mille.engine.cards import NO_CARD
from mille.engine.rules import BSD, find_rules
from mille.engine.table import (
    COUP,
    EXTENSION,
    OVER,
    PICK,
    PLAYING,
    Answer,
    Event,
    IllegalMove,
    Move,
    Outcome,
    Table,
    Use,
)
from mille.engine.view import SeatView
from mille.game.session import Session
from mille.players.base import start_hand
from mille.players.computer import BsdComputer
from mille.players.registry import make_computer
from support.builders import build, player

HUMAN, COMPUTER = 0, 1  # BSD's seats


class RandomSeat:
    """A stand-in computer (the Player protocol): random legal moves,
    answers every question yes, remembers what it was told."""

    def __init__(self, seat: int, seed: int = 0) -> None:
        self.seat = seat
        self.rng = random.Random(seed)
        self.hands = 0
        self.seen: list[Outcome] = []
        self.asked: list[str] = []

    def start_hand(self, table: SeatView) -> None:
        self.hands += 1

    def observe(self, table: SeatView, outcome: Outcome) -> None:
        self.seen.append(outcome)

    def choose(self, table: SeatView) -> Move:
        assert table.current_player == self.seat
        if table.phase in (EXTENSION, COUP):
            self.asked.append(table.phase)
            return Answer(True)
        return self.rng.choice(table.legal_moves())


def test_same_seed_same_game() -> None:
    a, b = Session.new(seed=42), Session.new(seed=42)
    assert a.table == b.table
    assert a.deal_rng.getstate() == b.deal_rng.getstate()
    assert Session.new(seed=43).table != a.table


def test_unseeded_games_differ() -> None:
    assert Session.new().table != Session.new().table


def test_a_new_bsd_session() -> None:
    s = Session.new(seed=1)
    assert s.rules is BSD and s.table.rules is BSD
    assert sorted(s.computers) == [COMPUTER]
    assert isinstance(s.computers[COMPUTER], BsdComputer)
    assert s.computers[COMPUTER].seat == COMPUTER
    assert s.human_to_move and not s.computer_to_move and s.table.phase == PLAYING
    assert s.log == [] and not s.window_full and s.source is None
    with pytest.raises(ValueError, match="no computer is to move"):
        s.computer_move()


def test_play_refuses_illegal_moves() -> None:
    s = Session.new(seed=1)
    before = s.table.copy()
    with pytest.raises(IllegalMove, match="^must pick first$"):
        s.play(Use(1))
    assert s.table == before and s.log == []


def test_play_logs_the_outcome_and_every_computer_sees_it() -> None:
    bot = RandomSeat(COMPUTER)
    s = Session(
        table=Table.new(BSD, random.Random(3)), computers={COMPUTER: bot}, deal_rng=random.Random(4)
    )
    outcome = s.play(PICK)
    assert outcome.seat == HUMAN and outcome.move == PICK and len(outcome.drawn) == 1
    assert [e.outcome for e in s.log] == [outcome]
    # the computer sees that a card was drawn, not which
    assert bot.seen == [dataclasses.replace(outcome, drawn=(NO_CARD,))]
    assert outcome.drawn != (NO_CARD,)


def play_through(s: Session, rng: random.Random) -> None:
    while not s.table.hand_over:
        t = s.table
        if t.phase == EXTENSION:
            assert t.asked == HUMAN  # the computer's is decided inside play()
            assert s.human_to_move and not s.computer_to_move
            s.play(Answer(rng.random() < 0.5))
        elif s.computer_to_move:
            assert not s.human_to_move
            seat = t.current_player
            outcome = s.computer_move()
            assert outcome.seat == seat == COMPUTER
        else:
            assert s.human_to_move and t.current_player == HUMAN
            s.play(rng.choice(t.legal_moves()))
    assert not s.human_to_move and not s.computer_to_move and s.table.phase != PLAYING


def test_hands_alternate_and_the_computer_decides_its_own_extension() -> None:
    s = Session.new(seed=7)
    rng = random.Random(7)
    starters = []
    for _ in range(6):
        starters.append(s.table.starter)
        play_through(s, rng)
        assert s.log and s.log[-1].outcome.seat in (HUMAN, COMPUTER)
        s.next_hand()
        assert s.log == [] and s.table.phase == PLAYING
    assert starters == [HUMAN, COMPUTER] * 3


def test_computer_reaching_700_gets_an_answer_at_once() -> None:
    s = Session.new(seed=1)
    s.table = build(
        player(["Stop", "25", "Go"], battle="Go", miles=["100"] * 6 + ["75"]),
        player(["", "25", "50"], battle="Go"),
        to_move=COMPUTER,
    )
    start_hand(s.computers[COMPUTER], s.table)
    s.play(Use(1))
    assert s.table.phase is not EXTENSION
    assert s.table.hand_over or s.table.target == 1000
    assert s.table.check(PICK) in (None, "the hand is over")
    # the log holds the computer's 25 and its answer
    assert [e.outcome.seat for e in s.log] == [COMPUTER, COMPUTER]
    assert s.log[0].outcome.move == Use(1) and isinstance(s.log[1].outcome.move, Answer)
    assert s.log[1].outcome.move.yes == (s.table.target == 1000)


def test_a_human_reaching_700_is_asked() -> None:
    s = Session.new(seed=1)
    s.table = build(
        player(["25", "Go"], battle="Go", miles=["100"] * 6 + ["75"]),
        player(["", "25", "50"], battle="Go"),
    )
    s.play(Use(0))
    assert s.table.phase == EXTENSION and s.human_to_move and not s.computer_to_move
    assert s.table.current_player == HUMAN
    s.play(Answer(True))
    assert s.table.target == 1000 and s.computer_to_move


def test_next_hand_tells_every_computer() -> None:
    bot = RandomSeat(COMPUTER)
    t = Table.new(BSD, random.Random(5))
    s = Session(table=t, computers={COMPUTER: bot}, deal_rng=random.Random(6))
    t.phase = OVER
    s.log.append(Event(Outcome(HUMAN, PICK)))
    s.next_hand()
    assert bot.hands == 1 and s.log == [] and s.table.starter == COMPUTER
    assert s.computer_to_move


def test_all_computers_play_a_hand_alone() -> None:
    s = Session.new(seed=9, humans=())
    assert sorted(s.computers) == [HUMAN, COMPUTER]
    assert all(s.computers[seat].seat == seat for seat in s.computers)
    moves = 0
    while not s.table.hand_over:
        assert s.computer_to_move and not s.human_to_move
        s.computer_move()
        moves += 1
        assert moves < 1000
    assert s.table.phase == OVER and len(s.log) >= moves


def test_questions_to_computers_are_answered_in_play() -> None:
    """A coup fourre offer (classic) to a computer seat is answered by it
    inside ``play``; the front end only ever sees a person's question."""
    rules = find_rules("classic", players=3)
    bots = {seat: RandomSeat(seat, seed=seat) for seat in (1, 2)}
    s = Session(
        table=Table.new(rules, random.Random(11)), computers=dict(bots), deal_rng=random.Random(12)
    )
    rng = random.Random(13)
    for _ in range(4):
        while not s.table.hand_over:
            t = s.table
            if s.computer_to_move:
                assert t.phase == PLAYING  # never left at a computer's question
                s.computer_move()
            else:
                assert s.human_to_move and t.current_player == HUMAN
                legal = t.legal_moves()
                s.play(rng.choice(legal))
            t.validate()
        s.next_hand()
    asked = [q for bot in bots.values() for q in bot.asked]
    assert COUP in asked
    assert all(bot.hands == 4 for bot in bots.values())  # (Session() deals no hand)
    assert all(len(bot.seen) == len(bots[1].seen) for bot in bots.values())


def test_make_computer_by_preset() -> None:
    bsd = make_computer(BSD, 1, random.Random(1))
    assert isinstance(bsd, BsdComputer) and bsd.seat == 1
    from mille.players.heuristic import Heuristic

    for rules in (find_rules("classic", players=4), find_rules("milebymile", players=5)):
        bot = make_computer(rules, 3, random.Random(1))
        assert isinstance(bot, Heuristic) and bot.seat == 3


@pytest.mark.parametrize("name,players", [("classic", 3), ("classic", 6), ("milebymile", 5)])
def test_sessions_of_other_presets_play_a_hand(name: str, players: int) -> None:
    rules = find_rules(name, players=players)
    s = Session.new(rules, seed=players)
    assert sorted(s.computers) == list(range(1, players))
    rng = random.Random(players)
    moves = 0
    while not s.table.hand_over:
        if s.computer_to_move:
            s.computer_move()
        else:
            assert s.table.current_player == HUMAN
            s.play(rng.choice(s.table.legal_moves()))
        assert s.table.phase in (PLAYING, OVER) or s.human_to_move
        moves += 1
        assert moves < 3000
    s.table.validate(strict=True)
    s.next_hand()
    assert s.table.starter == 1


@pytest.mark.parametrize(
    "level,kinds",
    [
        ("standard", {"bsd": "BsdComputer", "classic": "Heuristic"}),
        ("easy", {"bsd": "Easy", "classic": "Easy"}),
        ("expert", {"bsd": "Expert", "classic": "Expert"}),
    ],
)
def test_the_level_chooses_the_computers_and_is_saved(level: str, kinds: dict[str, str]) -> None:
    from mille.storage.savefile import dumps, loads

    for name, players in (("bsd", 2), ("classic", 4)):
        s = Session.new(find_rules(name, players=players), seed=5, level=level)
        assert {type(c).__name__ for c in s.computers.values()} == {kinds[name]}
        restored = loads(dumps(s))
        assert {type(c).__name__ for c in restored.computers.values()} == {kinds[name]}


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown level 'hard'"):
        Session.new(seed=1, level="hard")
