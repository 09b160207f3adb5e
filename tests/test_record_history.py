"""The record keeps every game whole (issue 47): a game's deals and moves,
kept as the game is played (``game.history``), replay it exactly, for
every preset and seat count, with the people's ``O``, their stand-ins and
their answers; and the game file (``storage.gamefile``,
``docs/game-format.md``) keeps it, refusing a later version or a damaged
file in one line."""

from __future__ import annotations

import random

import pytest

from mille.engine.moves import Event
from mille.engine.rules import Rules, find_rules
from mille.game.history import Hand, History, HistoryError, hand_of, replay
from mille.game.session import Session
from mille.storage import gamefile

# (rules, people's seats): every preset, every seat count, teams, options
GAMES: list[tuple[Rules, tuple[int, ...]]] = (
    [(find_rules("bsd"), (0,)), (find_rules("bsd"), ())]
    + [(find_rules("classic", players=n), (0,)) for n in (2, 3, 4, 6)]
    + [(find_rules("classic", players=4), (0, 1))]
    + [(find_rules("milebymile", players=n), (0,)) for n in range(2, 10)]
    + [
        (find_rules("milebymile", players=4, team_mode="2v2"), (0, 2)),
        (find_rules("milebymile", players=6, team_mode="2v2v2", stacking=True, karma=True), (1,)),
        (find_rules("milebymile", players=3, rigging="no duplicates", distance=700), (0,)),
        (find_rules("milebymile", players=5, rigging="2x attacks", reshuffle=False), (4,)),
        (find_rules("milebymile", players=9, team_mode="3v3v3", karma=True), (0, 3)),
        (find_rules("milebymile", players=2, perfect_crossing=False, always_discard=False), ()),
    ]
)


Played = list[tuple[list[Event], Hand | None]]  # each hand's log and what the record noted


def play_game(rules: Rules, people: tuple[int, ...], seed: int) -> tuple[Session, Played]:
    """A whole game: the computers at their level, the people by dice (a
    legal move at random, now and then an O, a stand-in's move); each
    hand's log as it ended, and the hands the record notes."""
    dice = random.Random(seed)
    game = Session.new(rules, seed=seed, humans=people, level="easy")
    logs: list[list[Event]] = []
    hands: list[Hand | None] = []
    while True:
        table = game.table
        if table.hand_over:
            logs.append(list(game.log))
            hands.append(hand_of(game.cards_dealt, game.log, game.orders))
            if table.game_over:
                return game, list(zip(logs, hands))
            game.next_hand()
        elif game.computer_to_move:
            game.computer_move()
        else:
            seat = table.current_player
            assert seat is not None
            if dice.random() < 0.05:
                game.set_ordering(not table.ordering)
            if dice.random() < 0.05:
                player = game.stand_in(seat, dice.getrandbits(32))
                game.play_stand_in(player.choose(game.view(seat)))
            else:
                game.play(dice.choice(table.legal_moves()))


def history_of(game: Session, hands: list[Hand | None]) -> History:
    assert all(hand is not None for hand in hands)
    return History(
        game.rules,
        dict(game.people),
        {seat: "easy" for seat in game.computers},
        tuple(hand for hand in hands if hand is not None),
    )


@pytest.mark.parametrize("number", range(len(GAMES)))
def test_a_game_kept_replays_as_it_was_played(number: int) -> None:
    """A seeded whole game of every preset and seat count: the hands kept,
    written as a game file and read back, replay to exactly the log each
    hand had (every event, and so every seat's: Session.events)."""
    rules, people = GAMES[number]
    for seed in range(2):
        game, played = play_game(rules, people, 1000 * number + seed)
        kept = history_of(game, [hand for _, hand in played])
        assert all(hand is not None for _, hand in played)
        read = gamefile.loads(gamefile.dumps(kept))
        assert read == gamefile.loads(gamefile.dumps(kept, compact=True)) == kept
        again = list(replay(read))
        assert [replayed.log for replayed in again] == [tuple(log) for log, _ in played]
        assert again[-1].table.game_over
        assert again[-1].table.totals == game.table.totals


def one_game() -> tuple[History, str]:
    game, played = play_game(find_rules("classic", players=3), (0,), 7)
    kept = history_of(game, [hand for _, hand in played])
    return kept, gamefile.dumps(kept)


def refused(text: str) -> str:
    with pytest.raises(gamefile.SaveError) as caught:
        gamefile.loads(text)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_a_later_versions_game_is_refused_in_one_line() -> None:
    _, text = one_game()
    later = text.replace('"version": 1', '"version": 2', 1)
    assert refused(later) == (
        "version: unsupported game file version 2 (this mille reads version 1)"
    )
    assert refused(text.replace('"mille-game"', '"mille-save"', 1)) == (
        "format: not a mille game file ('mille-save')"
    )


def test_a_damaged_game_file_is_refused_in_one_line() -> None:
    kept, text = one_game()
    assert refused(text[: len(text) // 2]).startswith("not a mille game file (bad JSON at line ")
    assert refused("") == "not a mille game file (bad JSON at line 1 column 1: expecting value)"
    first = kept.hands[0]
    broken = History(
        kept.rules,
        kept.people,
        kept.computers,
        (Hand(first.deal, first.moves[:-1]),) + kept.hands[1:],
    )  # the hand's last move lost
    assert refused(gamefile.dumps(broken)) == (
        "impossible game: hand 1: the hand does not end with its last move"
    )
    swapped = text.replace('"P", ', '"D1", ', 1)  # a discard before the pick
    assert refused(swapped) == "impossible game: hand 1, move 1: must pick first"
    assert refused(text.replace('"seed": null', '"seed": -1', 1)) == (
        "hands[0].seed: -1 is out of range 0..4294967295"
    )
    deck = text.replace('"deck": ["', '"deck": ["200", "', 1)
    assert refused(deck) == "impossible game: hand 1: the deck is not the rules' cards"
    assert refused(text.replace('"hands": [', '"hands": [{"deck": []},', 1)) == (
        "hands[0]: missing key 'seed'"
    )


def test_a_game_file_without_its_end_is_refused() -> None:
    kept, _ = one_game()
    shorter = History(kept.rules, kept.people, kept.computers, kept.hands[:-1])
    assert refused(gamefile.dumps(shorter)) == (
        "impossible game: the game does not end with its last hand"
    )
    with pytest.raises(HistoryError):
        list(replay(shorter))
