"""The N-seat engine under the ``classic`` preset: the acceptance scenarios
1-22 (the rules are docs/rules.md), random whole hands for
2, 3, 4 and 6 seats, and the dict round trip."""

from __future__ import annotations

import json
import random

import pytest

from mille.engine.cards import (
    ACCIDENT,
    D25,
    D50,
    D75,
    D100,
    D200,
    DRIVING_ACE,
    EXTRA_TANK,
    FLAT_TIRE,
    GO,
    NO_CARD,
    PUNCTURE_PROOF,
    REPAIRS,
    RIGHT_OF_WAY,
    SPARE_TIRE,
    SPEED_LIMIT,
    STOP,
    VALUES,
)
from mille.engine.rules import RulesError, find_rules
from mille.engine.table import (
    COUP,
    DISCARDS,
    EXTENSION,
    NO,
    OVER,
    PICK,
    PLAYING,
    YES,
    Discard,
    IllegalMove,
    Table,
    Use,
    deck_cards,
)
from mille.engine.tableau import Tableau
from mille.storage.savefile import table_from_dict, table_to_dict

FILLER = (D25, D50, D100, GO, REPAIRS)  # what unnamed hand slots hold


def build(
    players: int = 2,
    *,
    hands: dict[int, list[int]] | None = None,
    picked: dict[int, int] | None = None,
    sides: dict[int, dict[str, list[int]]] | None = None,
    deck_top: tuple[int, ...] = (),
    deck_size: int | None = None,
    to_move: int = 0,
    target: int | None = None,
    extender: int | None = None,
    totals: list[int] | None = None,
) -> Table:
    """A classic table built directly: named cards where asked, the rest of
    the 106 cards filling hands (no safeties), then the deck (``deck_top``
    on top, ``deck_size`` cards; the rest on the discard pile)."""
    rules = find_rules("classic", players=players)
    pool = deck_cards(rules)

    def take(card: int) -> int:
        pool.remove(card)
        return card

    tableaux = []
    for side in range(1, rules.sides + 1):
        spec = (sides or {}).get(side, {})
        miles = [take(c) for c in spec.get("miles", [])]
        tab = Tableau(
            battle=[take(c) for c in spec.get("battle", [])],
            speed=[take(c) for c in spec.get("speed", [])],
            miles=miles,
            safeties=[take(c) for c in spec.get("safeties", [])],
            coups=[c in spec.get("coups", []) for c in range(15, 19)],
            mileage=sum(VALUES[c] for c in miles),
            nummiles=[miles.count(c) for c in range(5)],
        )
        tableaux.append(tab)
    top = [take(c) for c in deck_top]
    table_hands = []
    for seat in range(players):
        named = [take(c) for c in (hands or {}).get(seat, [])]
        hand = [NO_CARD] + named
        n = 0
        while len(hand) < 7:
            card = FILLER[n % len(FILLER)]
            n += 1
            if card in pool:
                hand.append(take(card))
        if picked and seat in picked:
            hand[0] = take(picked[seat])
        table_hands.append(hand)
    random.Random(0).shuffle(pool)
    size = len(pool) + len(top) if deck_size is None else deck_size
    rest = size - len(top)
    deck = pool[:rest] + top[::-1]
    t = Table(
        rules=rules,
        hands=table_hands,
        tableaux=tableaux,
        deck=deck,
        discard=pool[rest:],
        target=target or rules.target,
        to_move=to_move,
        starter=0,
        extender=extender,
        totals=totals or [0] * rules.sides,
        games=[0] * rules.sides,
    )
    t.validate()
    return t


def slot_of(t: Table, seat: int, card: int) -> int:
    return t.hands[seat].index(card)


def use(t: Table, seat: int, card: int, target: int | None = None) -> None:
    assert t.current_player == seat
    t.apply(Use(slot_of(t, seat, card), target))
    t.validate()


def pick(t: Table) -> None:
    t.apply(PICK)
    t.validate()


# ----- classic, 2 seats ------------------------------------------------------------


def test_1_fresh_deal() -> None:
    t = Table.new(find_rules("classic"), random.Random(1))
    assert len(t.deck) == 94 and t.to_move == 0 and t.current_player == 0
    assert t.check(Use(1)) == "must pick first"
    assert t.legal_moves() == [PICK]


def test_2_hazard_on_an_unstarted_side() -> None:
    t = build(picked={0: FLAT_TIRE}, hands={0: [SPEED_LIMIT], 1: []})
    assert t.check(Use(0)) == "opponent has not started"
    use(t, 0, SPEED_LIMIT)
    assert t.tableaux[1].speed == [SPEED_LIMIT]
    assert t.phase == PLAYING and t.to_move == 1


def test_3_stacked_hazard_needs_only_the_top_remedy() -> None:
    t = build(
        picked={0: ACCIDENT}, hands={1: [REPAIRS, GO, D100]}, sides={2: {"battle": [GO, STOP]}}
    )
    use(t, 0, ACCIDENT)
    assert t.tableaux[1].battle == [GO, STOP, ACCIDENT]
    pick(t)
    use(t, 1, REPAIRS)
    assert t.tableaux[1].battle[-1] == REPAIRS
    pick(t)  # seat 0
    t.apply(DISCARDS[1])
    pick(t)
    assert t.check(Use(slot_of(t, 1, D100))) == "cannot move now"
    use(t, 1, GO)
    assert t._model.rolling(t.tableaux[1])


def test_4_exact_700_extension_declined() -> None:
    t = build(
        picked={0: D100},
        hands={0: [D50]},
        sides={1: {"battle": [GO], "miles": [D200, D100, D100, D100, D50, D50, D50]}},
    )
    assert t.tableaux[0].mileage == 650
    t2 = t.copy()
    assert t.check(Use(0)) == "puts you over 700"
    use(t, 0, D50)
    assert t.phase == EXTENSION and t.current_player == 0
    assert t.check(PICK) == "extension decision pending"
    t.apply(NO)
    assert t.phase == OVER and t.check(PICK) == "the hand is over"
    score = t.hand_score(1)
    # a 200 on the pile: no Safe Trip
    assert (score.trip, score.safe_trip, score.shut_out) == (400, 0, 500)
    # without 200s, and with the deck empty: + Delayed Action
    t = build(
        picked={0: D50}, sides={1: {"battle": [GO], "miles": [D100] * 6 + [D50]}}, deck_size=0
    )
    use(t, 0, D50)
    t.apply(NO)
    s = t.hand_score(1)
    assert s.total == 700 + 400 + 300 + 500 + 300 and s.delayed_action == 300
    t = build(picked={0: D50}, sides={1: {"battle": [GO], "miles": [D100] * 6 + [D50]}})
    use(t, 0, D50)
    t.apply(NO)
    assert t.hand_score(1).total == 1900
    assert t2.hand_score(2).total == 0


def test_5_safety_on_its_hazard() -> None:
    """Revised: the hazard goes, but the side needs a Go again (the board
    shows Stop); only a coup fourre lets the Go beneath count."""
    t = build(picked={0: PUNCTURE_PROOF}, sides={1: {"battle": [GO, FLAT_TIRE]}})
    use(t, 0, PUNCTURE_PROOF)
    tab = t.tableaux[0]
    assert tab.battle == [GO] and t.discard[-1] == FLAT_TIRE
    assert not t._model.rolling(tab) and t._model.tops(tab) == (STOP, NO_CARD)
    assert t.hand_score(1).safeties == 100 and t.hand_score(1).coups == 0
    assert t.to_move == 0 and t.check(Use(1)) == "must pick first"


def test_6_right_of_way_uncovers_a_buried_hazard() -> None:
    t = build(
        picked={0: RIGHT_OF_WAY},
        hands={0: [D25, SPARE_TIRE]},
        sides={1: {"battle": [GO, FLAT_TIRE, STOP]}},
    )
    use(t, 0, RIGHT_OF_WAY)
    assert t.tableaux[0].battle == [GO, FLAT_TIRE]
    pick(t)
    assert t.check(Use(slot_of(t, 0, D25))) == "cannot move now"
    use(t, 0, SPARE_TIRE)
    assert t._model.rolling(t.tableaux[0])


def test_7_go_refusals() -> None:
    t = build(picked={0: GO}, sides={1: {"safeties": [RIGHT_OF_WAY]}})
    assert t.check(Use(0)) == '"Go" implied by "Right of Way"'
    assert t._model.tops(t.tableaux[0]) == (GO, NO_CARD)
    t = build(picked={1: FLAT_TIRE}, to_move=1, sides={1: {"safeties": [RIGHT_OF_WAY]}})
    assert t.check(Use(0)) is None
    t = build(picked={0: GO}, sides={1: {"battle": [GO, ACCIDENT]}})
    assert t.check(Use(0)) == 'cannot play "Go" on a "Accident"'


def test_8_coup_fourre_offer() -> None:
    t = build(
        picked={0: STOP}, hands={1: [RIGHT_OF_WAY]}, sides={2: {"battle": [GO], "miles": [D100]}}
    )
    use(t, 0, STOP)
    assert t.phase == COUP and t.current_player == 1
    assert t.check(PICK) == "coup fourre decision pending"
    assert t.legal_moves() == [YES, NO]
    outcome = t.apply(YES)
    assert (outcome.seat, outcome.card, outcome.coup_fourre) == (1, RIGHT_OF_WAY, True)
    t.validate()
    tab = t.tableaux[1]
    assert tab.battle == [GO] and t.discard[-1] == STOP and tab.coups[3]
    assert t._model.rolling(tab)
    assert t.hand_score(2).safeties + t.hand_score(2).coups == 400
    assert t.to_move == 1
    deck = len(t.deck)
    drawn = t.apply(PICK).drawn
    assert len(drawn) == 2 and len(t.deck) == deck - 2
    assert all(c != NO_CARD for c in t.hands[1])


def test_8b_coup_declined_is_final() -> None:
    t = build(picked={0: STOP}, hands={1: [RIGHT_OF_WAY]}, sides={2: {"battle": [GO]}})
    use(t, 0, STOP)
    t.apply(NO)
    assert t.phase == PLAYING and t.to_move == 1
    pick(t)
    use(t, 1, RIGHT_OF_WAY)
    assert t.tableaux[1].coups == [False] * 4 and t.tableaux[1].battle == [GO]


def test_9_discard_a_safety() -> None:
    """Revised: classic lets a player discard any card, a safety too (bsd
    alone refuses it); the front ends ask a person to confirm."""
    t = build(picked={0: EXTRA_TANK})
    assert t.check(Discard(0)) is None and Discard(0) in t.legal_moves()
    assert t.discards_safety(Discard(0)) and not t.discards_safety(Discard(1))
    t.apply(Discard(0))
    t.validate(strict=True)
    assert t.discard[-1] == EXTRA_TANK and t.to_move == 1 and not t.tableaux[0].safeties


def test_10_run_out_and_skip() -> None:
    t = build(deck_size=0)
    t.hands = [[NO_CARD] * 6 + [D25], [NO_CARD] * 7]
    t.discard = deck_cards(t.rules)
    t.discard.remove(D25)
    t.validate()
    t.apply(Discard(6))
    assert t.phase == OVER and t.completing_side() is None
    assert t.hand_score(1).trip == 0
    t = build(deck_size=0)
    t.hands = [[NO_CARD] * 5 + [D25, D50], [NO_CARD] * 7]
    t.discard = deck_cards(t.rules)
    t.discard.remove(D25)
    t.discard.remove(D50)
    t.validate()
    t.apply(Discard(6))
    assert t.phase == PLAYING and t.to_move == 0
    t.validate()


def test_11_game_end_tie_on_top() -> None:
    t = build(
        picked={0: D50},
        sides={1: {"battle": [GO], "miles": [D100] * 6 + [D50]}},
        totals=[3200, 5100 - 0],
    )
    use(t, 0, D50)
    t.apply(NO)
    assert t.total(1) == 5100 and t.total(2) == 5100
    assert not t.game_over
    t.new_hand(random.Random(1))
    assert t.totals == [5100, 5100] and t.games == [0, 0] and t.to_move == 1
    t.totals = [5000, 5300]
    t.tableaux[0].miles = [D100] * 6
    t.tableaux[0].mileage = 600
    t.tableaux[0].nummiles = [0, 0, 0, 6, 0]
    for _ in range(6):
        t.deck.remove(D100) if D100 in t.deck else t.hands[0].remove(D100)
    t.phase = OVER
    assert t.total(1) == 5600 and t.game_over
    t.new_hand(random.Random(2))
    assert t.games == [1, 0] and t.totals == [0, 0]


def test_12_five_players() -> None:
    with pytest.raises(RulesError, match="^classic needs 2, 3, 4 or 6 players$"):
        find_rules("classic", players=5)


# ----- classic, 3 seats ---------------------------------------------------------------


def test_13_targets() -> None:
    t = build(3, picked={0: FLAT_TIRE})
    assert t.check(Use(0)) == "which opponent?"
    assert t.check(Use(0, 4)) == "no such opponent"
    assert t.check(Use(0, 1)) == "can't attack your own side"
    assert t.check(Use(0, 2)) == "opponent has not started"


def test_14_coup_skips_seats() -> None:
    t = build(3, picked={0: ACCIDENT}, hands={2: [DRIVING_ACE]}, sides={3: {"battle": [GO]}})
    use(t, 0, ACCIDENT, 3)
    assert t.phase == COUP and t.current_player == 2
    t.apply(YES)
    t.validate()
    assert t.tableaux[2].battle == [GO] and t.tableaux[2].coups[2]
    assert t.to_move == 2
    pick(t)
    t.apply(Discard(1))
    assert t.to_move == 0


def test_15_extension_then_another_side_completes() -> None:
    t = build(3, picked={0: D50}, sides={1: {"battle": [GO], "miles": [D100] * 6 + [D50]}})
    use(t, 0, D50)
    assert t.phase == EXTENSION and t.current_player == 0
    t.apply(YES)
    t.validate()
    assert t.target == 1000 and t.extender == 1 and t.to_move == 1
    # later: seat 2 reaches 1000, S1 at 850, S2 at 0
    t = build(
        3,
        picked={2: D50},
        to_move=2,
        target=1000,
        extender=1,
        sides={
            1: {"battle": [GO], "miles": [D200, D200] + [D100] * 4 + [D50]},
            3: {"battle": [GO], "miles": [D100] * 5 + [D75] * 6},
        },
    )
    use(t, 2, D50)
    assert t.phase == OVER and t.completing_side() == 3
    s3 = t.hand_score(3)
    assert (s3.trip, s3.shut_out, s3.extension, s3.safe_trip) == (400, 500, 0, 300)
    assert t.hand_score(1).trip == 0 and t.hand_score(1).extension == 0


def test_16_extender_completes() -> None:
    t = build(
        3,
        picked={0: D100},
        target=1000,
        extender=1,
        sides={1: {"battle": [GO], "miles": [D200] + [D100] * 7}},
    )
    use(t, 0, D100)
    assert t.phase == OVER
    assert t.hand_score(1).total == 1000 + 400 + 200 + 2 * 500


def test_17_run_out_after_extension() -> None:
    t = build(
        3, target=1000, extender=1, deck_size=0, sides={1: {"battle": [GO], "miles": [D100] * 7}}
    )
    t.hands = [[NO_CARD] * 6 + [D25]] + [[NO_CARD] * 7] * 2
    t.discard = deck_cards(t.rules)
    for c in [D25, GO] + [D100] * 7:
        t.discard.remove(c)
    t.validate()
    t.apply(Discard(6))
    assert t.phase == OVER
    for side in (1, 2, 3):
        s = t.hand_score(side)
        assert (s.trip, s.extension, s.shut_out) == (0, 0, 0)


# ----- classic, 4 and 6 seats ----------------------------------------------------------


def test_18_two_200s_per_side() -> None:
    t = build(
        4,
        picked={2: D200},
        hands={2: [D100]},
        to_move=2,
        sides={1: {"battle": [GO], "miles": [D200, D200]}},
    )
    assert t.check(Use(0)) == "only two 200's per hand"
    use(t, 2, D100)
    assert t.tableaux[0].mileage == 500


def test_19_no_question_at_700_in_teams() -> None:
    t = build(4, picked={0: D100}, sides={1: {"battle": [GO], "miles": [D100] * 6}})
    use(t, 0, D100)
    assert t.phase == PLAYING and t.to_move == 1 and t.tableaux[0].mileage == 700


def test_20_team_coup_skips_two_seats() -> None:
    t = build(4, picked={0: STOP}, hands={3: [RIGHT_OF_WAY]}, sides={2: {"battle": [GO]}})
    use(t, 0, STOP)
    assert t.current_player == 3
    t.apply(YES)
    assert t.to_move == 3 and t._model.rolling(t.tableaux[1])
    deck = len(t.deck)
    pick(t)
    assert len(t.deck) == deck - 2
    t.apply(Discard(1))
    assert t.to_move == 0


def test_21_six_seats_coup() -> None:
    t = build(6, picked={0: FLAT_TIRE}, hands={5: [PUNCTURE_PROOF]}, sides={3: {"battle": [GO]}})
    use(t, 0, FLAT_TIRE, 3)
    assert t.current_player == 5
    t.apply(YES)
    pick(t)
    t.apply(Discard(1))
    assert t.to_move == 0


def test_22_one_shut_out() -> None:
    """Revised: three teams race to 700, with the extension."""
    t = build(
        6,
        picked={0: D100},
        sides={1: {"battle": [GO], "miles": [D100] * 6}, 3: {"miles": [D200, D50]}},
    )
    use(t, 0, D100)
    assert t.phase == EXTENSION and t.asked == 0
    t.apply(NO)
    assert t.phase == OVER and t.hand_score(1).shut_out == 500


def test_illegal_move_message() -> None:
    t = build(3, picked={0: FLAT_TIRE})
    with pytest.raises(IllegalMove, match="^which opponent\\?$"):
        t.apply(Use(0))


# ----- random whole hands, round trip ---------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_random_hands_end_and_stay_valid(players: int) -> None:
    rules = find_rules("classic", players=players)
    rng = random.Random(players)
    t = Table.new(rules, rng)
    offers = 0
    for hand in range(40):
        if hand:
            t.new_hand(rng)
            assert t.starter == hand % players
        moves = 0
        while not t.hand_over:
            legal = t.legal_moves()
            assert legal, "a decision with no legal move"
            for move in legal:
                assert t.check(move) is None
            offers += t.phase == COUP
            t.apply(rng.choice(legal))
            t.validate()
            moves += 1
            assert moves <= 2 * rules.deck_size + 10, "a hand that does not end"
    assert offers > 0


@pytest.mark.parametrize("players", [2, 3, 6])
def test_dict_round_trip(players: int) -> None:
    rng = random.Random(10 + players)
    t = Table.new(find_rules("classic", players=players), random.Random(players))
    for step in range(300):
        if t.hand_over:
            t.new_hand(random.Random(step))
        back = table_from_dict(json.loads(json.dumps(table_to_dict(t))), t.rules)
        assert back == t and back.legal_moves() == t.legal_moves()
        move = rng.choice(t.legal_moves())
        t.apply(move)
        back.apply(move)
        assert back == t


# ----- validate() refuses impossible states ---------------------------------------------


def _broken(change: str) -> Table:
    t = build(
        4,
        picked={0: D25},
        sides={1: {"battle": [GO, FLAT_TIRE], "speed": [SPEED_LIMIT], "miles": [D100]}},
    )
    tab = t.tableaux[0]
    if change == "card":
        t.deck.append(D25)
    elif change == "mileage":
        tab.mileage = 125
    elif change == "protected":
        tab.safeties.append(PUNCTURE_PROOF)
        t.deck.remove(PUNCTURE_PROOF)
    elif change == "speed":
        tab.speed.append(SPEED_LIMIT)
        t.deck.remove(SPEED_LIMIT)
    elif change == "battle":
        tab.battle.append(D50)
        t.deck.remove(D50)
    elif change == "coup":
        tab.coups[0] = True
    elif change == "slot p":
        t.hands[1][0], t.hands[1][1] = t.hands[1][1], NO_CARD
    elif change == "phase":
        t.phase = COUP
    elif change == "seats":
        t.to_move = 4
    return t


@pytest.mark.parametrize(
    "change, message",
    [
        ("card", "cards are not the 106-card deck"),
        ("mileage", "side 1: mileage does not match the distance pile"),
        ("protected", "side 1: a battle top it is protected from"),
        ("speed", "side 1: the speed pile does not alternate from a speed limit"),
        ("battle", "side 1: a card that cannot be on a battle pile"),
        ("coup", "side 1: a coup fourre for an unplayed safety"),
        ("slot p", "seat 1: slot P filled outside its turn"),
        ("phase", "a coup question asked of nobody"),
        ("seats", "no seat 4 to move"),
    ],
)
def test_validate_messages(change: str, message: str) -> None:
    t = _broken(change)
    with pytest.raises(ValueError) as info:
        t.validate()
    assert str(info.value) == message
