"""Spec section 6: how a hand ends, the scores it earns, and game over."""

from __future__ import annotations

import random

import pytest

from mille.engine.table import (
    EXTENSION,
    NO,
    PICK,
    PLAYING,
    YES,
    Discard,
    HandScore,
    IllegalMove,
    Table,
    Use,
)
from support.builders import build, player

AT_675 = ["100"] * 6 + ["75"]  # 675 miles


def test_exactly_700_asks_for_an_extension() -> None:
    s = build(player(["25"], battle="Go", miles=AT_675))
    s.apply(Use(0))
    assert s.phase == EXTENSION and s.asked == 0 and s.current_player == 0
    assert s.legal_moves() == [YES, NO]
    for move in (PICK, Use(1), Discard(1)):
        assert s.check(move) == "extension decision pending"


def test_extension_yes_goes_on_to_1000() -> None:
    s = build(player(["25"], battle="Go", miles=AT_675))
    s.apply(Use(0))
    s.apply(YES)
    assert s.target == 1000 and s.phase == PLAYING and s.to_move == 1


def test_extension_no_ends_the_hand() -> None:
    s = build(player(["25"], battle="Go", miles=AT_675))
    s.apply(Use(0))
    s.apply(NO)
    assert s.hand_over and s.target == 700


def test_decide_extension_needs_a_pending_decision() -> None:
    s = build(player(["25"], battle="Go"))
    assert s.check(YES) == "no question pending"
    with pytest.raises(IllegalMove, match="^no question pending$"):
        s.apply(YES)


def test_exactly_1000_ends_the_hand() -> None:
    s = build(player(["100"], battle="Go", miles=["200", "200"] + ["100"] * 5), target=1000)
    s.apply(Use(0))
    assert s.hand_over


def test_deck_empty_and_nobody_can_play_ends_the_hand() -> None:
    # You discard your last useful card; the computer holds nothing playable.
    s = build(
        player(["", "Go", "Stop"], battle="Flat Tire"),
        player(["", "Gasoline", "Repairs"], battle="Flat Tire"),
        deck_size=0,
    )
    assert not s.hand_over
    s.apply(Discard(1))
    assert s.hand_over


def test_deck_empty_play_goes_on_while_someone_can_play() -> None:
    s = build(
        player(["", "Go", "Stop"], battle="Flat Tire"),
        player(["", "Spare Tire", "Repairs"], battle="Flat Tire"),
        deck_size=0,
    )
    s.apply(Discard(1))
    assert not s.hand_over and s.to_move == 1


def test_a_held_safety_keeps_the_hand_alive() -> None:
    s = build(
        player(["", "Go", "Stop"], battle="Flat Tire"),
        player(["", "Extra Tank", "Repairs"], battle="Flat Tire"),
        deck_size=0,
    )
    s.apply(Discard(1))
    assert not s.hand_over


def test_player_to_move_with_no_cards_ends_the_hand() -> None:
    s = build(
        player(["", "", "", "", "", "", "25"], battle="Go"),
        player(["", "Go"], battle="Stop"),
        deck_size=0,
        to_move=1,
    )
    # the computer (to move) plays its last card; you can still play Go
    s.apply(Use(6))
    assert not s.hand_over and s.to_move == 0
    s.apply(Use(1))  # now you are empty-handed too, and the computer is to move
    assert s.hand_over


def _score(**kw: int) -> HandScore:
    return HandScore(**kw)


def test_score_of_a_trip_with_every_bonus() -> None:
    # 1000 exactly, no 200s, deck empty, opponent shut out, all four safeties
    # with two coups fourres.
    me = player(
        ["100"],
        battle="Go",
        miles=["100"] * 9,
        safeties=["Extra Tank", "Puncture Proof", "Driving Ace", "Right of Way"],
        coups=[True, False, True, False],
        total=50,
    )
    s = build(me, player(["", "Stop"], battle="Stop"), deck_size=0, target=1000)
    s.apply(Use(0))
    assert s.hand_over
    score = s.hand_score(1)
    assert score == HandScore(
        miles=1000,
        safeties=400,
        all_four=300,
        coups=600,
        trip=400,
        safe_trip=300,
        delayed_action=300,
        extension=200,
        shut_out=500,
    )
    assert score.total == 4000 and s.total(1) == 4050
    assert s.hand_score(2) == HandScore()


def test_trip_with_a_200_has_no_safe_trip() -> None:
    s = build(
        player(["25"], battle="Go", miles=["200", "100", "100", "100", "100", "75"]),
        player(battle="Go", miles=["25"]),
    )
    s.apply(Use(0))
    s.apply(NO)
    score = s.hand_score(1)
    assert score.trip == 400 and score.safe_trip == 0 and score.delayed_action == 0
    assert score.shut_out == 0 and score.extension == 0
    assert score.total == 700 + 400


def test_only_the_player_at_end_gets_trip_bonuses() -> None:
    s = build(player(["25"], battle="Go", miles=AT_675), player(battle="Go", miles=["50"]))
    s.apply(Use(0))
    s.apply(NO)
    assert s.hand_score(2) == HandScore(miles=50)


def test_extension_not_completed_earns_no_bonus() -> None:
    # extended to 1000 but the hand ended on an empty deck at 700
    s = build(
        player(["", "Stop"], battle="Go", miles=["100"] * 7),
        player(["", "Go"], battle="Flat Tire"),
        deck_size=0,
        target=1000,
    )
    s.apply(Discard(1))
    assert s.hand_over
    assert s.hand_score(1) == HandScore(miles=700)


def test_bonuses_are_shown_only_once_the_hand_is_over() -> None:
    s = build(player(["25"], battle="Go", miles=AT_675))
    s.apply(Use(0))
    assert s.hand_score(1).trip == 0
    s.apply(NO)
    assert s.hand_score(1).trip == 400


def _finished(total0: int, total1: int) -> Table:
    s = build(
        player(["25"], battle="Go", miles=AT_675, total=total0), player(battle="Go", total=total1)
    )
    s.apply(Use(0))
    s.apply(NO)
    return s


def test_game_over_at_5000_and_the_higher_total_wins() -> None:
    s = _finished(4000, 4900)  # you: 4000 + 700 + 400 + 300 + 500 = 5900
    assert s.total(1) == 5900 and s.total(2) == 4900
    assert s.game_over
    s.new_hand(random.Random(1))
    assert s.games == [1, 0]
    assert s.totals == [0, 0]


def test_tie_at_game_over_wins_nobody_a_game() -> None:
    s = _finished(4000, 5900)
    assert s.game_over
    s.new_hand(random.Random(1))
    assert s.games == [0, 0]
    assert s.totals == [0, 0]


def test_totals_carry_over_below_5000() -> None:
    s = _finished(100, 200)
    assert not s.game_over
    s.new_hand(random.Random(1))
    assert s.totals == [100 + 1900, 200]
    assert s.games == [0, 0]


def test_a_go_on_an_empty_battle_pile_keeps_the_hand_alive() -> None:
    # BSD's canplay accepts a Go on an empty pile (its is_repair() is true of it)
    s = build(
        player(["", "Stop", "Gasoline"], battle="Flat Tire"),
        player(["", "Go", "Repairs"]),
        deck_size=0,
    )
    s.apply(Discard(1))
    assert not s.hand_over and s.to_move == 1
