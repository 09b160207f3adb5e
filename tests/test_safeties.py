"""Where the unseen safeties are (mille.players.safeties): the chances at the deal,
after picks, after moves that would have played a safety, after coup-fourre
questions (and their absence), in the expert's worlds, and in its save."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from mille.engine.cards import (
    D25,
    DRIVING_ACE,
    EXTRA_TANK,
    FLAT_TIRE,
    GO,
    NO_CARD,
    PUNCTURE_PROOF,
    RIGHT_OF_WAY,
)
from mille.engine.rules import BSD, find_rules
from mille.engine.table import COUP, NO, PICK, PLAYING, Table, Use
from mille.engine.view import SeatView
from mille.players.base import choose, observe, start_hand
from mille.players.expert import Budget, Expert, ExpertError
from mille.players.safeties import DECK, SAFETY_KINDS, SLIP, SafetyTracker
from mille.players.search import Sampler
from mille.selfplay import PLAYERS
from support.builders import watched

QUICK = Budget(moves=100, worlds=2, seconds=None)


def give(table: Table, seat: int, card: int) -> None:
    """Put ``card`` in ``seat``'s hand, swapped with one of its other cards
    (from wherever ``card`` was: the deck or another hand)."""
    hand = table.hands[seat]
    if card in hand:
        return
    slot = next(i for i, c in enumerate(hand) if c != NO_CARD and c < EXTRA_TANK)
    if card in table.deck:
        i = table.deck.index(card)
        table.deck[i], hand[slot] = hand[slot], card
        return
    for other in table.hands:
        if card in other:
            j = other.index(card)
            other[j], hand[slot] = hand[slot], card
            return
    raise AssertionError("card not found")


def hide(table: Table, seat: int, card: int) -> None:
    """Move ``card`` from any hand to the deck (swapped with a deck card
    that is not a safety)."""
    for hand in table.hands:
        if card in hand:
            i = hand.index(card)
            j = next(k for k, c in enumerate(table.deck) if c < EXTRA_TANK)
            hand[i], table.deck[j] = table.deck[j], hand[i]


def fresh(seed: int = 1, rules: Any = BSD) -> Table:
    table = Table.new(rules, random.Random(seed))
    for safety in SAFETY_KINDS:
        hide(table, 0, safety)
    table.validate()
    return table


def test_at_the_deal_a_safety_is_anywhere_unseen_alike() -> None:
    table = fresh()
    tracker = SafetyTracker(0)
    tracker.start_hand(SeatView(table, 0), SeatView(table, 0).unseen())
    hand = sum(c != NO_CARD for c in table.hands[1])
    for safety in SAFETY_KINDS:
        assert tracker.chance(safety, 1) == pytest.approx(hand / (hand + len(table.deck)))
        assert tracker.chance(safety, DECK) == pytest.approx(1 - tracker.chance(safety, 1))


def test_a_safety_in_view_has_no_place() -> None:
    table = fresh()
    give(table, 0, EXTRA_TANK)
    tracker = SafetyTracker(0)
    tracker.start_hand(SeatView(table, 0), SeatView(table, 0).unseen())
    assert tracker.weights[EXTRA_TANK] == {}
    assert tracker.chance(EXTRA_TANK, 1) == 0.0
    assert tracker.deal(random.Random(1)).keys() == set(SAFETY_KINDS) - {EXTRA_TANK}


def test_a_pick_takes_the_safety_with_its_share_of_the_deck() -> None:
    table = fresh()
    tracker = SafetyTracker(0)
    tracker.start_hand(SeatView(table, 0), SeatView(table, 0).unseen())
    # seat 0 picks: the cards it sees are not the safety, so the deck is a
    # little less likely to hold it
    before = tracker.chance(PUNCTURE_PROOF, 1)
    deck = len(table.deck)
    outcome = table.apply(PICK)
    tracker.observe(SeatView(table, 0), outcome, SeatView(table, 0).unseen())
    p_hand, p_deck = before, (1 - before) * (deck - 1) / deck
    assert tracker.chance(PUNCTURE_PROOF, 1) == pytest.approx(p_hand / (p_hand + p_deck))
    # seat 0 discards; seat 1 picks: its share of the deck's chance moves to its hand
    table.apply(next(m for m in table.legal_moves() if type(m).__name__ == "Discard"))
    before = tracker.chance(PUNCTURE_PROOF, 1)
    deck = len(table.deck)
    outcome = table.apply(PICK)
    tracker.observe(SeatView(table, 0), outcome, SeatView(table, 0).unseen())
    assert tracker.chance(PUNCTURE_PROOF, 1) == pytest.approx(before + (1 - before) / deck)


def flat(table: Table) -> None:
    """A Flat Tire just put on seat 1 (from the deck), seat 1 to move."""
    tab = table.tableaux[1]
    tab.battle.append(table.deck.pop(table.deck.index(FLAT_TIRE)))
    tab.top = FLAT_TIRE
    tab.can_go = False
    tab.battle_window = True  # just played: the coup-fourre window is open
    table.to_move = 1


def _watch(table: Table, seat: int = 0) -> Expert:
    """An expert at ``seat`` that has watched the table from now on."""
    expert = Expert(random.Random(5), seat, budget=QUICK)
    start_hand(expert, table)
    return expert


def test_bsd_computer_not_playing_the_safety_its_hazard_calls_for() -> None:
    # seat 1 (BSD's computer) has a Flat Tire on it: holding Puncture Proof
    # it would play it now; it picks instead, so it most likely lacks it
    table = fresh(3)
    flat(table)
    table.to_move = 1
    table.validate()
    expert = _watch(table)
    before = expert.safeties.chance(PUNCTURE_PROOF, 1)
    assert before > 0.05
    deck = len(table.deck)
    outcome = table.apply(PICK)
    observe(expert, table, outcome)
    after = expert.safeties.chance(PUNCTURE_PROOF, 1)
    # every guess with the safety put in plays it: only a slip keeps it
    kept = before * SLIP / (before * SLIP + 1 - before)
    k = len(outcome.drawn)
    assert after == pytest.approx(kept + (1 - kept) * k / deck)
    assert after < before / 3
    # an unrelated safety gained a little (the pick may have taken it)
    assert expert.safeties.chance(EXTRA_TANK, 1) > before


def test_a_safety_played_is_in_view() -> None:
    table = fresh(3)
    give(table, 1, PUNCTURE_PROOF)
    flat(table)
    table.to_move = 1
    expert = _watch(table)
    computer = PLAYERS["standard"](BSD, random.Random(1), 1)
    start_hand(computer, table)
    move = choose(computer, table)
    outcome = table.apply(move)
    assert outcome.card == PUNCTURE_PROOF
    observe(expert, table, outcome)
    assert expert.safeties.weights[PUNCTURE_PROOF] == {}


def _offer_table(held: bool) -> Table:
    """A classic table: seat 0 is about to put a Flat Tire on seat 1, who
    rolls and holds Puncture Proof (``held``) or not."""
    rules = find_rules("classic", players=2)
    table = Table.new(rules, random.Random(4))
    for safety in SAFETY_KINDS:
        hide(table, 0, safety)
    give(table, 0, FLAT_TIRE)
    if held:
        give(table, 1, PUNCTURE_PROOF)
    tab = table.tableaux[1]
    go = table.deck.pop(table.deck.index(GO))
    tab.battle.append(go)
    table.apply(PICK)
    table.validate()
    return table


def _let_go(held: bool) -> tuple[Expert, Table]:
    """The expert at seat 0 puts a Flat Tire on seat 1, a person, who holds
    Puncture Proof and lets the coup go (``held``) or has none; then seat 1
    picks.  The session's way: every computer is shown each move as its
    seat saw it."""
    from mille.game.session import Session

    table = _offer_table(held)
    expert = _watch(table)
    session = Session(table=table, computers={0: expert}, deal_rng=random.Random(0))
    session.play(Use(table.hands[0].index(FLAT_TIRE)))
    assert (table.phase == COUP) is held
    if held:
        session.play(NO)
    session.play(PICK)
    return expert, table


def test_a_coup_fourre_let_go_teaches_the_computer_nothing() -> None:
    # the same public history: the expert's beliefs (their saved form) and
    # its dice are the same whether seat 1 let a coup go or had none
    held, _ = _let_go(True)
    lacked, _ = _let_go(False)
    assert held.to_dict() == lacked.to_dict()
    assert held.rng.getstate() == lacked.rng.getstate()
    # (a person letting the coup go is taken for one without the safety;
    # the pick after may have drawn it)
    assert held.safeties.chance(PUNCTURE_PROOF, 1) < 0.05
    assert 0 < held.safeties.chance(EXTRA_TANK, 1) < 1


@pytest.mark.parametrize("held", [True, False])
def test_a_hazard_landing_without_a_coup_shows_no_safety(held: bool) -> None:
    table = _offer_table(held)
    expert = _watch(table)
    assert 0 < expert.safeties.chance(PUNCTURE_PROOF, 1) < 1
    slot = table.hands[0].index(FLAT_TIRE)
    outcome = table.apply(Use(slot))
    observe(expert, table, outcome)
    assert (table.phase == COUP) is held
    assert SeatView(table, 0).phase == PLAYING and SeatView(table, 0).asked is None
    assert expert.safeties.chance(PUNCTURE_PROOF, 1) == 0.0
    # other safeties learn nothing from it
    assert 0 < expert.safeties.chance(EXTRA_TANK, 1) < 1


@pytest.mark.parametrize("chance", [1.0, 0.0])
def test_worlds_deal_the_safeties_by_their_chances(chance: float) -> None:
    table = fresh(6)
    expert = _watch(table)
    expert.safeties.weights[RIGHT_OF_WAY] = {1: chance, DECK: 1 - chance}
    # the guesses say the opposite, and lose
    for guess in expert.beliefs[1]:
        if chance:
            while RIGHT_OF_WAY in guess:
                guess[guess.index(RIGHT_OF_WAY)] = D25
        else:
            guess[0] = RIGHT_OF_WAY
    sampler = Sampler(SeatView(table, 0), expert.beliefs, expert.needs, expert.safeties)
    rng = random.Random(2)
    for _ in range(30):
        world = sampler.world(rng)
        assert (RIGHT_OF_WAY in world.hands[1]) is bool(chance)
        assert sorted(world.all_cards()) == sorted(table.all_cards())
        assert world.hands[0] == table.hands[0]
        assert [c != NO_CARD for c in world.hands[1]] == [c != NO_CARD for c in table.hands[1]]


def test_more_safeties_drawn_for_the_deck_than_it_holds() -> None:
    # one card left in the deck; Extra Tank and Puncture Proof are in seat
    # 1's hand, but each is drawn for the deck alone: the world still holds
    # every card, a hand short of cards taking one of them
    table = fresh(8)
    give(table, 1, EXTRA_TANK)
    give(table, 1, PUNCTURE_PROOF)
    give(table, 0, RIGHT_OF_WAY)
    give(table, 0, DRIVING_ACE)
    while len(table.deck) > 1:
        table.discard.append(table.deck.pop())
    table.validate()
    expert = _watch(table)
    for safety in (EXTRA_TANK, PUNCTURE_PROOF):
        expert.safeties.weights[safety] = {DECK: 1.0, 1: 0.0}
    sampler = Sampler(SeatView(table, 0), expert.beliefs, expert.needs, expert.safeties)
    rng = random.Random(3)
    for _ in range(20):
        world = sampler.world(rng)
        assert sorted(world.all_cards()) == sorted(table.all_cards())
        assert len(world.deck) == 1 and world.hands[0] == table.hands[0]


def test_over_whole_hands_the_chances_stay_sane() -> None:
    """Whole hands of BSD's computers watched: chances add up to one, a
    hand that cannot hold a card has no chance, and the safeties held are
    given more chance, on average, than those not held."""
    held_chances: list[float] = []
    other_chances: list[float] = []
    for h in range(6):
        table = Table.new(BSD, random.Random(100 + h))
        bots = [PLAYERS["standard"](BSD, random.Random(h * 2 + s), s) for s in range(2)]
        for bot in bots:
            start_hand(bot, table)
        expert = _watch(table)
        for _ in watched(table, bots, expert):
            unseen = SeatView(table, 0).unseen()
            for safety in SAFETY_KINDS:
                places = expert.safeties.weights[safety]
                if not unseen[safety]:
                    assert places == {}
                    continue
                assert sum(places.values()) == pytest.approx(1.0)
                assert all(0 <= p <= 1 for p in places.values())
                if not table.deck:
                    assert places.get(DECK, 0.0) == 0.0
                (held_chances if safety in table.hands[1] else other_chances).append(
                    places.get(1, 0.0)
                )
    assert held_chances and other_chances
    assert sum(held_chances) / len(held_chances) > 1.3 * sum(other_chances) / len(other_chances)


def _saved() -> dict[str, Any]:
    table = fresh(7)
    expert = _watch(table, 0)
    data = expert.to_dict()
    loaded: dict[str, Any] = json.loads(json.dumps(data))
    return loaded


def test_save_round_trip_and_older_saves() -> None:
    data = _saved()
    chances = data["safeties"]["chances"]
    assert set(chances) == {"Extra Tank", "Puncture Proof", "Driving Ace", "Right of Way"}
    assert set(chances["Extra Tank"]) == {"1", "deck"}
    assert data["safeties"]["kept"] == {}  # seat 0 is to move
    bot = Expert.from_dict(data, random.Random(1), 0)
    assert bot.to_dict()["safeties"] == data["safeties"]
    del data["safeties"]
    bot = Expert.from_dict(data, random.Random(1), 0)
    assert bot.safeties.weights == {}
    # it starts counting at the next move it watches
    table = fresh(7)
    outcome = table.apply(PICK)
    observe(bot, table, outcome)
    assert set(bot.safeties.weights) == set(SAFETY_KINDS)


def test_what_seat_1_would_keep_is_saved_before_its_move() -> None:
    table = fresh(3)
    flat(table)
    expert = _watch(table)
    data = json.loads(json.dumps(expert.to_dict()))
    assert data["safeties"]["kept"]["1"]["Puncture Proof"] == pytest.approx(SLIP)
    twin = Expert.from_dict(data, random.Random(1), 0)
    outcome = table.apply(PICK)
    observe(expert, table, outcome)
    observe(twin, table, outcome)
    assert twin.safeties.weights == expert.safeties.weights


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda s: s.update(x=1), "expert: safeties: unknown key 'x'"),
        (lambda s: s.pop("kept"), "expert: safeties: kept must be an object"),
        (lambda s: s.update(chances=[]), "expert: safeties: chances must be an object"),
        (lambda s: s["chances"].update(x=1), "expert: safeties: unknown safety 'x'"),
        (
            lambda s: s["chances"].pop("Driving Ace"),
            "expert: safeties: missing safety 'Driving Ace'",
        ),
        (
            lambda s: s["chances"].update({"Extra Tank": []}),
            "expert: safeties 'Extra Tank' must be an object",
        ),
        (
            lambda s: s["chances"].update({"Extra Tank": {"0": 0.5}}),
            "expert: safeties 'Extra Tank': '0' is not a place",
        ),
        (
            lambda s: s["chances"].update({"Extra Tank": {"01": 0.5}}),
            "expert: safeties 'Extra Tank': '01' is not a place",
        ),
        (
            lambda s: s["chances"].update({"Extra Tank": {"1": 1.5}}),
            "expert: safeties 'Extra Tank' '1' must be a number from 0 to 1, not 1.5",
        ),
        (
            lambda s: s["chances"].update({"Extra Tank": {"1": True}}),
            "expert: safeties 'Extra Tank' '1' must be a number from 0 to 1, not True",
        ),
        (
            lambda s: s["chances"].update({"Extra Tank": {"deck": "1"}}),
            "expert: safeties 'Extra Tank' 'deck' must be a number from 0 to 1, not '1'",
        ),
        (lambda s: s["kept"].update({"0": {}}), "expert: safeties: kept: '0' is not another seat"),
        (lambda s: s["kept"].update({"1": []}), "expert: safeties: kept '1' must be an object"),
        (
            lambda s: s["kept"].update({"1": {"Go": 0.5}}),
            "expert: safeties: kept '1': unknown safety 'Go'",
        ),
        (
            lambda s: s["kept"].update({"1": {"Extra Tank": -1}}),
            "expert: safeties: kept '1' 'Extra Tank' must be a number from 0 to 1, not -1",
        ),
    ],
)
def test_from_dict_messages(change: Any, message: str) -> None:
    data = _saved()
    change(data["safeties"])
    with pytest.raises(ExpertError) as info:
        Expert.from_dict(data, random.Random(0), 0)
    assert str(info.value) == message


def test_safeties_must_be_an_object() -> None:
    data = _saved()
    data["safeties"] = []
    with pytest.raises(ExpertError, match="^expert: safeties must be an object$"):
        Expert.from_dict(data, random.Random(0), 0)
