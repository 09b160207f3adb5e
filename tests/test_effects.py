"""Spec sections 2, 3 and 5: dealing, turns and the effect of every card."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from mille.engine.cards import NO_CARD, full_deck
from mille.engine.rules import BSD
from mille.engine.table import OVER, PICK, Discard, Table, Use
from support.builders import build, card, player


def test_deal() -> None:
    s = Table.new(BSD, random.Random(7))
    assert len(s.hands) == 2 and len(s.tableaux) == 2
    for hand, tab in zip(s.hands, s.tableaux):
        assert hand[0] == NO_CARD and NO_CARD not in hand[1:]
        assert not tab.can_go and tab.top == NO_CARD and tab.speed_top == NO_CARD
    assert len(s.deck) == 101 - 12 and s.target == 700 and s.discard == []
    assert s.to_move == s.starter == 0 and s.current_player == 0
    assert Counter(s.all_cards()) == Counter(full_deck())


def test_deal_is_reproducible_and_deals_you_first() -> None:
    a, b = Table.new(BSD, random.Random(3)), Table.new(BSD, random.Random(3))
    assert a == b
    deck = full_deck()
    random.Random(3).shuffle(deck)
    assert a.hands[0][1:] == deck[::-1][:6]
    assert a.hands[1][1:] == deck[::-1][6:12]


def test_pick_takes_top_of_deck_to_slot_p() -> None:
    s = build(player(["", "25", "50", "75", "100", "Go", "Stop"]), deck_top=["Accident"])
    result = s.apply(PICK)
    assert s.hands[0][0] == card("Accident") and result.drawn == (card("Accident"),)
    assert s.to_move == 0


def test_pick_draws_two_when_slot_1_is_empty() -> None:
    s = build(player(["", "", "50", "75", "100", "Go", "Stop"]), deck_top=["Accident", "Go"])
    result = s.apply(PICK)
    assert s.hands[0][:2] == [card("Accident"), card("Go")]
    assert len(result.drawn) == 2


def test_pick_that_empties_the_deck_closes_the_hole() -> None:
    # After a coup fourre slots P and 1 are empty; with one card left the
    # double draw stops after it, and BSD's domove closes the hole at once.
    s = build(
        player(["", "", "50", "75", "100", "Go", "Stop"], battle="Go"),
        player(["", "25", "Go"], battle="Go"),
        deck_size=1,
        deck_top=["Accident"],
    )
    result = s.apply(PICK)
    assert result.drawn == (card("Accident"),) and not s.deck
    assert s.hands[0] == [card(c) for c in ("", "Accident", "50", "75", "100", "Go", "Stop")]
    assert s.to_move == 0 and s.check(Use(1)) is None


def test_ordering_never_sorts_a_pick() -> None:
    # BSD skips the sort after a pick (it only closes holes), ordering or not.
    sorted_hand = ["", "25", "50", "75", "Stop", "Go", "End of Limit"]
    s = build(player(sorted_hand, battle="Go"), deck_top=["Accident"], ordering=True)
    s.apply(PICK)
    assert s.hands[0] == [card(c) for c in ["Accident"] + sorted_hand[1:]]
    s = build(
        player(["", ""] + sorted_hand[2:], battle="Go"),
        player(["", "25", "Go"], battle="Go"),
        deck_size=1,
        deck_top=["Accident"],
        ordering=True,
    )
    s.apply(PICK)
    assert s.hands[0] == [card(c) for c in ["", "Accident"] + sorted_hand[2:]]


def test_picked_card_fills_the_hole() -> None:
    s = build(player(["Accident", "25", "50", "75", "Stop", "Go", "Repairs"], battle="Go"))
    s.apply(Use(2))
    assert s.hands[0] == [card(c) for c in ("", "25", "Accident", "75", "Stop", "Go", "Repairs")]
    assert s.to_move == 1


def test_ordering_sorts_with_empty_slot_first() -> None:
    s = build(
        player(["Accident", "Go", "50", "25", "Stop", "75", "100"], battle="Go"), ordering=True
    )
    s.apply(Discard(4))
    assert s.hands[0] == [NO_CARD] + [card(c) for c in ("25", "50", "75", "100", "Accident", "Go")]


def test_set_ordering_sorts_at_once() -> None:
    s = build(player(["", "Go", "50", "25"]))
    s.set_ordering(True)
    assert s.hands[0][:4] == [NO_CARD, NO_CARD, NO_CARD, NO_CARD]
    assert s.hands[0][4:] == [card("25"), card("50"), card("Go")]


def test_discard_tops_the_discard_pile() -> None:
    s = build(player(["Stop", "25"]))
    result = s.apply(Discard(0))
    assert s.discard[-1] == card("Stop") and result.card == card("Stop")
    assert s.to_move == 1


def test_go_makes_you_roll() -> None:
    s = build(player(["Go"], battle="Stop"))
    s.apply(Use(0))
    me = s.tableaux[0]
    assert me.top == card("Go") and me.can_go and me.battle[-1] == card("Go")


@pytest.mark.parametrize(
    "remedy,hazard",
    [
        ("Gasoline", "Out of Gas"),
        ("Spare Tire", "Flat Tire"),
        ("Repairs", "Accident"),
    ],
)
def test_remedy_does_not_make_you_roll(remedy: str, hazard: str) -> None:
    s = build(player([remedy], battle=hazard))
    s.apply(Use(0))
    assert s.tableaux[0].top == card(remedy) and not s.tableaux[0].can_go


def test_remedy_with_right_of_way_makes_you_roll() -> None:
    s = build(player(["Gasoline"], battle="Out of Gas", safeties=["Right of Way"], can_go=False))
    s.apply(Use(0))
    assert s.tableaux[0].top == card("Gasoline") and s.tableaux[0].can_go


def test_end_of_limit() -> None:
    s = build(player(["End of Limit"], battle="Go", speed="Speed Limit"))
    s.apply(Use(0))
    assert s.tableaux[0].speed_top == card("End of Limit")
    assert s.tableaux[0].speed == [card("Speed Limit"), card("End of Limit")]


def test_hazard_stops_opponent_and_opens_coup_window() -> None:
    s = build(player(["Flat Tire"]), player(battle="Go"))
    s.apply(Use(0))
    opp = s.tableaux[1]
    assert opp.top == card("Flat Tire") and not opp.can_go and opp.battle_window
    assert opp.battle == [card("Go"), card("Flat Tire")]


def test_coup_window_closes_when_picking() -> None:
    s = build(player(["Flat Tire"]), player(battle="Go", hand=["", "Puncture Proof"]))
    s.apply(Use(0))
    s.apply(PICK)
    assert not s.tableaux[1].battle_window


def test_speed_limit_opens_the_speed_window() -> None:
    s = build(player(["Speed Limit"]), player(battle="Stop"))
    s.apply(Use(0))
    assert s.tableaux[1].speed_top == card("Speed Limit") and s.tableaux[1].speed_window


def test_distance_adds_to_mileage_and_scores() -> None:
    s = build(player(["75"], battle="Go", miles=["25"], total=1000))
    s.apply(Use(0))
    me = s.tableaux[0]
    assert me.mileage == 100 and me.miles == [card("25"), card("75")]
    assert s.hand_score(1).miles == 100 and s.total(1) == 1100


def test_safety_scores_and_gives_another_turn() -> None:
    s = build(player(["Go", "Extra Tank"]))
    result = s.apply(Use(1))
    assert result.extra_turn and s.to_move == 0
    assert s.tableaux[0].safeties == [card("Extra Tank")]
    assert s.hand_score(1).safeties == 100 and s.hand_score(1).coups == 0


def test_fourth_safety_scores_300_more() -> None:
    s = build(
        player(["Go", "Right of Way"], safeties=["Extra Tank", "Puncture Proof", "Driving Ace"])
    )
    s.apply(Use(1))
    score = s.hand_score(1)
    assert score.safeties == 400 and score.all_four == 300


def test_safety_on_its_hazard_makes_you_roll() -> None:
    s = build(player(["Go", "Driving Ace"], battle="Accident"))
    s.apply(Use(1))
    assert s.tableaux[0].top == card("Go") and s.tableaux[0].can_go


def test_safety_for_another_hazard_does_not() -> None:
    s = build(player(["Go", "Driving Ace"], battle="Flat Tire"))
    s.apply(Use(1))
    assert s.tableaux[0].top == card("Flat Tire") and not s.tableaux[0].can_go


def test_right_of_way_lifts_a_limit_and_means_go() -> None:
    s = build(player(["Go", "Right of Way"], battle="Stop", speed="Speed Limit"))
    s.apply(Use(1))
    me = s.tableaux[0]
    assert me.speed_top == NO_CARD and me.speed == [card("Speed Limit")]
    assert me.top == card("Go") and me.can_go


@pytest.mark.parametrize("battle", [None, "Gasoline"])
def test_right_of_way_rolls_on_empty_pile_or_unrolled_remedy(battle: str | None) -> None:
    s = build(player(["Go", "Right of Way"], battle=battle))
    s.apply(Use(1))
    assert s.tableaux[0].top == card("Go") and s.tableaux[0].can_go


def test_right_of_way_does_not_cure_other_hazards() -> None:
    s = build(player(["Go", "Right of Way"], battle="Out of Gas"))
    s.apply(Use(1))
    assert s.tableaux[0].top == card("Out of Gas") and not s.tableaux[0].can_go


def test_coup_fourre_before_picking() -> None:
    s = build(
        player(["", "25", "Extra Tank"], battle="Out of Gas", battle_window=True),
        deck_top=["Go", "Stop"],
    )
    assert s.check(Use(2)) is None
    result = s.apply(Use(2))
    me = s.tableaux[0]
    assert result.coup_fourre and result.extra_turn and s.to_move == 0
    assert me.coups == [True, False, False, False]
    assert s.hand_score(1).coups == 300 and s.hand_score(1).safeties == 100
    assert me.top == card("Go") and me.can_go
    # the holes gathered in P and 1: the next pick draws two cards
    assert s.hands[0][0] == s.hands[0][1] == NO_CARD
    assert s.apply(PICK).drawn == (card("Go"), card("Stop"))


def test_coup_fourre_with_right_of_way_on_a_limit() -> None:
    s = build(player(["", "Right of Way"], battle="Go", speed="Speed Limit", speed_window=True))
    result = s.apply(Use(1))
    assert result.coup_fourre and s.tableaux[0].coups[3]
    assert s.tableaux[0].speed_top == NO_CARD


def test_safety_after_picking_is_no_coup() -> None:
    s = build(player(["Go", "Extra Tank"], battle="Out of Gas", battle_window=False))
    result = s.apply(Use(1))
    assert not result.coup_fourre and s.hand_score(1).coups == 0
    assert s.tableaux[0].can_go  # still cures its hazard


def test_new_hand_alternates_the_starter() -> None:
    rng = random.Random(1)
    s = Table.new(BSD, rng)
    starters = []
    for _ in range(4):
        starters.append(s.starter)
        s.phase = OVER
        s.new_hand(rng)
    assert starters == [0, 1, 0, 1]
    assert s.to_move == s.starter == 0


def test_new_hand_needs_a_finished_hand() -> None:
    s = Table.new(BSD, random.Random(1))
    with pytest.raises(ValueError, match="not over"):
        s.new_hand(random.Random(1))
