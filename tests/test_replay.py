"""A finished game shown again (issue 47, the replay): the replay game,
built from the game's history, steps forward and back to exactly the
positions of the game as it was played, every seat's view as the seat
had it at each move, for every preset; every hand open shows them all;
nobody plays at a replay."""

from __future__ import annotations

import random

import pytest

from mille.engine.rules import find_rules
from mille.engine.view import SeatView
from mille.frontends.plain_board import table_lines
from mille.game.history import Hand, History, HistoryError, hand_of
from mille.game.protocol import Game
from mille.game.replay import ReadOnly, Replay
from mille.game.session import Session
from mille.game.talk import QUIET

# (preset, seats, people's seats)
GAMES = [("bsd", 2, (0,)), ("classic", 4, (0, 1)), ("milebymile", 3, (0, 2))]

Seen = tuple[object, ...]  # one position as every seat saw it


def seen(game: Game) -> Seen:
    """Every seat's view at this point: its lines (its hand, the sides,
    the piles) in the words a replay uses (a person's seat is ``You``, a
    computer's is named), its hand's slots and its event stream."""
    seats = range(game.rules.players)
    return tuple(
        (
            table_lines(SeatView(game.table, seat, game.people, you=game.is_person(seat))),
            list(game.view(seat).hand),
            game.events(seat),
        )
        for seat in seats
    )


Positions = list[dict[int, Seen]]  # by hand: by the moves made, each position seen


def played(
    preset: str, players: int, people: tuple[int, ...], seed: int
) -> tuple[History, Positions]:
    """A whole game (the people by dice, an O now and then, a stand-in's
    move), its history, and every position of each hand as it was, by the
    moves made: before each move, and at the hand's end (a computer's
    answer to a question is made with the move that asked it: the position
    between them was never shown)."""
    if preset == "bsd":
        rules = find_rules("bsd")
    elif preset == "milebymile":  # (a shorter game: the same moves, fewer hands)
        rules = find_rules(preset, players=players, winning_score=1000)
    else:
        rules = find_rules(preset, players=players)
    dice = random.Random(seed)
    game = Session.new(rules, seed=seed, humans=people, level="easy")
    hands: list[Hand] = []
    positions: Positions = [{}]
    while True:
        table = game.table
        seat = table.current_player
        if seat is not None and seat in game.people and dice.random() < 0.05:
            game.set_ordering(not table.ordering)
        positions[-1][len(game.log)] = seen(game)
        if table.hand_over:
            hand = hand_of(game.cards_dealt, game.log, game.orders)
            assert hand is not None
            hands.append(hand)
            if table.game_over:
                computers = {seat: "easy" for seat in game.computers}
                return History(rules, dict(game.people), computers, tuple(hands)), positions
            game.next_hand()
            positions.append({})
        elif game.computer_to_move:
            game.computer_move()
        elif dice.random() < 0.05:
            assert seat is not None
            player = game.stand_in(seat, dice.getrandbits(32))
            game.play_stand_in(player.choose(game.view(seat)))
        else:
            game.play(dice.choice(table.legal_moves()))


@pytest.mark.parametrize(("preset", "players", "people"), GAMES)
def test_a_replay_steps_to_exactly_the_positions_played(
    preset: str, players: int, people: tuple[int, ...]
) -> None:
    """Forward through every hand, each position is the one the game had
    (every seat's view); back from each hand's end, the same positions in
    reverse; a position reached directly (go) is the same again."""
    history, positions = played(preset, players, people, seed=47)
    shown = Replay(history)
    assert isinstance(shown, Game)
    assert shown.hands == len(positions)
    for number, hand in enumerate(positions):
        last = max(hand)
        assert shown.where() == (number, 0)
        assert shown.moves() == last
        for move in range(last + 1):
            assert shown.where() == (number, move)
            if move in hand:
                assert seen(shown) == hand[move]
            assert shown.another_decides == (move < last)
            if move < last:
                shown.another_moves()
        assert shown.table.hand_over
        for move in reversed(range(last - 20, last + 1)):  # (each step back: the hand again)
            if move in hand:
                assert seen(shown) == hand[move]
            shown.back()
        shown.go(number, 3)
        for move in reversed(range(4)):
            assert seen(shown) == hand[move]
            shown.back()
        assert shown.where() == (number, 0)
        middle = sorted(hand)[len(hand) // 2]
        shown.go(number, middle)
        assert seen(shown) == hand[middle]
        shown.next()
    assert shown.where() == (len(positions) - 1, max(positions[-1]))
    assert shown.table.game_over


def test_a_replay_goes_to_a_hands_start_and_end_and_between_hands() -> None:
    history, positions = played("classic", 4, (0,), seed=3)
    shown = Replay(history)
    shown.end()
    end = max(positions[0])
    assert shown.where() == (0, end)
    assert seen(shown) == positions[0][end]
    shown.forward()  # nothing after a hand's end
    assert shown.where() == (0, end)
    shown.start()
    assert seen(shown) == positions[0][0]
    shown.back()  # nothing before its start
    assert shown.where() == (0, 0)
    shown.next()
    assert seen(shown) == positions[1][0]
    shown.previous()
    assert shown.where() == (0, 0)
    shown.previous()
    assert shown.where() == (0, 0)
    shown.go(99, 999)
    last = len(positions) - 1
    assert shown.where() == (last, max(positions[last]))
    shown.next()  # the last hand: its end
    assert shown.where() == (last, max(positions[last]))


def test_every_hand_open_shows_each_seat_the_whole_log_and_the_others_hands() -> None:
    history, _ = played("classic", 3, (0,), seed=5)
    shown = Replay(history)
    shown.go(0, 12)
    assert shown.open_hands() == {}
    hidden = shown.events(0)
    shown.open = True
    assert shown.events(0) == shown.log != hidden  # the others' cards drawn, shown
    assert shown.open_hands() == {1: shown.table.hands[1], 2: shown.table.hands[2]}
    shown.choose(4)  # seats cycle
    assert shown.viewer == 1
    assert sorted(shown.open_hands()) == [0, 2]


def test_nobody_plays_at_a_replay() -> None:
    history, _ = played("bsd", 2, (0,), seed=1)
    shown = Replay(history, source="game.json")
    game: Game = shown  # (mypy checks the assignment; the run, every member)
    assert all(hasattr(game, name) for name in dir(Game) if not name.startswith("_"))
    assert game.talk is QUIET
    assert (shown.at_keyboard(), shown.local, shown.human_to_move) == ((), None, False)
    assert (shown.source, shown.viewer, shown.name(1), shown.name(0)) == (
        "game.json",
        0,
        "Comp 1",
        "Player 0",
    )
    with pytest.raises(ReadOnly, match="^a replay is not played$"):
        shown.play(shown.table.legal_moves()[0])
    with pytest.raises(ReadOnly):
        shown.set_ordering(True)
    shown.end()
    with pytest.raises(ReadOnly, match="^the hand has no more moves$"):
        shown.another_moves()


def test_a_replay_of_no_game_is_refused() -> None:
    history, _ = played("bsd", 2, (0,), seed=1)
    with pytest.raises(HistoryError, match="^the game has no hands$"):
        Replay(History(history.rules, history.people, history.computers, ()), finished=False)
    with pytest.raises(HistoryError, match="^the game does not end with its last hand$"):
        Replay(History(history.rules, history.people, history.computers, history.hands[:-1]))


def test_the_notes_beside_the_moves() -> None:
    history, _ = played("bsd", 2, (0,), seed=1)
    shown = Replay(history, notes={(0, 2): "a blunder"})
    assert shown.note() == ""
    shown.go(0, 2)
    assert shown.note() == "a blunder"
    shown.forward()
    assert shown.note() == ""
