"""The N-seat engine under the ``milebymile`` preset: the acceptance
scenarios 23-43 (the rules are docs/rules.md), random
races for 2 to 9 seats and option combinations, and the dict round trip."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from mille.engine.cards import (
    ACCIDENT,
    D25,
    D50,
    D75,
    D100,
    D200,
    FALSE_VIRTUE,
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
    NO,
    OVER,
    PICK,
    PLAYING,
    YES,
    Discard,
    Table,
    Use,
    deck_cards,
)
from mille.engine.tableau import Tableau
from mille.storage.savefile import table_from_dict, table_to_dict

FILLER = (D25, D50, D75, REPAIRS, GO)


def build(
    players: int = 2,
    *,
    rules: Any = None,
    hands: dict[int, list[int]] | None = None,
    picked: dict[int, int] | None = None,
    sides: dict[int, dict[str, Any]] | None = None,
    deck_top: tuple[int, ...] = (),
    deck_size: int | None = None,
    to_move: int = 0,
    totals: list[int] | None = None,
    **options: Any,
) -> Table:
    """A milebymile table built directly (see test_table_classic.build);
    sides take problems, record (distances played), karma."""
    rules = rules or find_rules("milebymile", players=players, **options)
    pool = deck_cards(rules)
    discard: list[int] = []

    def take(card: int) -> int:
        pool.remove(card)
        return card

    tableaux = []
    for side in range(1, rules.sides + 1):
        spec = (sides or {}).get(side, {})
        record = [take(c) for c in spec.get("record", [])]
        discard += record
        tableaux.append(
            Tableau(
                battle=[take(c) for c in spec.get("battle", [])],
                speed=[take(c) for c in spec.get("speed", [])],
                safeties=[take(c) for c in spec.get("safeties", [])],
                coups=[c in spec.get("coups", []) for c in range(15, 19)],
                mileage=sum(VALUES[c] for c in record),
                nummiles=[record.count(c) for c in range(5)],
                record=record,
                problems=list(spec.get("problems", [])),
                karma=spec.get("karma", rules.karma),
            )
        )
    top = [take(c) for c in deck_top]
    table_hands = []
    for seat in range(rules.players):
        hand = [NO_CARD] + [take(c) for c in (hands or {}).get(seat, [])]
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
    t = Table(
        rules=rules,
        hands=table_hands,
        tableaux=tableaux,
        deck=pool[:rest] + top[::-1],
        discard=discard + pool[rest:],
        target=rules.target,
        to_move=to_move,
        starter=0,
        totals=totals or [0] * rules.sides,
        games=[0] * rules.sides,
    )
    t.validate()
    return t


def use(t: Table, seat: int, card: int, target: int | None = None) -> None:
    assert t.current_player == seat
    t.apply(Use(t.hands[seat].index(card), target))
    t.validate()


def slot(t: Table, seat: int, card: int) -> int:
    return t.hands[seat].index(card)


def idle(t: Table, keep: tuple[int, ...] = ()) -> None:
    """The player to move picks and discards a card it does not need."""
    if t.check(PICK) is None:
        t.apply(PICK)
    hand = t.hands[t.to_move]
    n = next(i for i, c in enumerate(hand) if c != NO_CARD and not 15 <= c <= 18 and c not in keep)
    t.apply(Discard(n))
    t.validate()


# ----- milebymile, 2 seats ---------------------------------------------------------


def test_23_fresh_race() -> None:
    t = Table.new(find_rules("milebymile"), random.Random(4))
    assert len(t.deck) == 94 and [tab.problems for tab in t.tableaux] == [[STOP], [STOP]]
    t = build(
        picked={0: FLAT_TIRE},
        hands={0: [SPEED_LIMIT]},
        sides={1: {"problems": [STOP]}, 2: {"problems": [STOP]}},
    )
    assert t.check(Use(0)) == "opponent cannot go"
    use(t, 0, SPEED_LIMIT)
    assert t.tableaux[1].problems == [STOP, SPEED_LIMIT]
    assert t._model.tops(t.tableaux[1]) == (STOP, SPEED_LIMIT)


def test_24_remedy_then_go() -> None:
    t = build(picked={0: FLAT_TIRE}, hands={1: [SPARE_TIRE, GO, D100]})
    use(t, 0, FLAT_TIRE)
    assert sorted(t.tableaux[1].problems) == sorted([FLAT_TIRE, STOP])
    assert t.tableaux[1].battle == [FLAT_TIRE]
    t.apply(PICK)
    use(t, 1, SPARE_TIRE)
    assert t.tableaux[1].problems == [STOP] and t.discard[-1] == SPARE_TIRE
    idle(t)
    t.apply(PICK)
    assert t.check(Use(slot(t, 1, D100))) == "cannot move now"
    use(t, 1, GO)
    assert t.tableaux[1].problems == []


def test_25_stacking() -> None:
    t = build(
        picked={0: FLAT_TIRE},
        hands={0: [STOP, ACCIDENT], 1: [GO, REPAIRS, SPARE_TIRE]},
        sides={2: {"problems": [STOP]}},
        stacking=True,
    )
    t2 = t.copy()
    use(t, 0, FLAT_TIRE)
    assert t.tableaux[1].problems == [STOP, FLAT_TIRE]
    idle(t, (GO, REPAIRS, SPARE_TIRE))  # seat 1
    t.apply(PICK)
    assert t.check(Use(slot(t, 0, STOP))) == 'opponent already has "Stop"'
    use(t, 0, ACCIDENT)
    assert t.tableaux[1].problems == [STOP, FLAT_TIRE, ACCIDENT]
    t.apply(PICK)
    assert t.check(Use(slot(t, 1, GO))) == 'cannot play "Go" on a "Accident"'
    use(t, 1, REPAIRS)
    for card in (SPARE_TIRE, GO):
        idle(t)
        t.apply(PICK)
        use(t, 1, card)
    assert t.tableaux[1].problems == []
    assert t2.check(Use(0)) is None


def test_26_no_limit_on_200s() -> None:
    t = build(picked={0: D200}, sides={1: {"record": [D200, D200, D100]}})
    use(t, 0, D200)
    assert t.tableaux[0].mileage == 700 and t.tableaux[0].nummiles[D200] == 3


def test_27_perfect_crossing() -> None:
    record = [D200, D200, D200, D100, D100, D75, D50]
    assert sum(VALUES[c] for c in record) == 925
    t = build(picked={0: D100}, sides={1: {"record": record}})
    assert t.check(Use(0)) == "puts you over 1000"
    t = build(picked={0: D100}, sides={1: {"record": record}}, perfect_crossing=False)
    use(t, 0, D100)
    assert t.phase == OVER and t.tableaux[0].mileage == 1025
    s = t.hand_score(1)
    assert (s.miles, s.trip, s.perfect_crossing) == (1000, 400, 0)
    record = [D200, D200, D200, D100, D100, D100]
    t = build(picked={0: D100}, sides={1: {"record": record}}, perfect_crossing=False)
    use(t, 0, D100)
    assert t.hand_score(1).perfect_crossing == 200


def test_28_coup_restores_rolling() -> None:
    t = build(picked={0: FLAT_TIRE}, hands={1: [PUNCTURE_PROOF]})
    use(t, 0, FLAT_TIRE)
    assert t.phase == COUP and t.current_player == 1
    t.apply(YES)
    t.validate()
    tab = t.tableaux[1]
    assert tab.problems == [] and tab.battle == [FLAT_TIRE] and tab.coups[1]
    assert t.to_move == 1


def test_29_coup_keeps_the_speed_limit() -> None:
    t = build(
        picked={0: FLAT_TIRE},
        hands={1: [PUNCTURE_PROOF]},
        sides={2: {"problems": [SPEED_LIMIT], "speed": [SPEED_LIMIT]}},
    )
    use(t, 0, FLAT_TIRE)
    assert t.tableaux[1].problems == [SPEED_LIMIT, FLAT_TIRE, STOP]
    t.apply(YES)
    assert t.tableaux[1].problems == [SPEED_LIMIT]


def test_30_safety_leaves_the_stop() -> None:
    t = build(
        picked={1: PUNCTURE_PROOF},
        hands={1: [D50]},
        to_move=1,
        sides={2: {"problems": [FLAT_TIRE, STOP], "battle": [FLAT_TIRE]}},
    )
    use(t, 1, PUNCTURE_PROOF)
    assert t.tableaux[1].problems == [STOP]
    t.apply(PICK)
    assert t.check(Use(slot(t, 1, D50))) == "cannot move now"


def test_31_right_of_way_and_repairs() -> None:
    t = build(
        picked={0: ACCIDENT}, hands={1: [GO, REPAIRS]}, sides={2: {"safeties": [RIGHT_OF_WAY]}}
    )
    use(t, 0, ACCIDENT)
    assert t.tableaux[1].problems == [ACCIDENT]
    t.apply(PICK)
    assert t.check(Use(slot(t, 1, GO))) == '"Go" implied by "Right of Way"'
    use(t, 1, REPAIRS)
    assert t.tableaux[1].problems == [] and t._model.rolling(t.tableaux[1])


def test_32_always_allow_discarding_off() -> None:
    t = build(
        picked={0: GO}, hands={0: [D100]}, sides={1: {"problems": [STOP]}}, always_discard=False
    )
    assert t.check(Discard(0)) == "that card is playable"
    assert t.check(Discard(slot(t, 0, D100))) is None
    assert Discard(0) not in t.legal_moves()


def test_33_reshuffle_whenever_the_deck_runs_out() -> None:
    """Revised: the discard pile refills the deck whenever it runs out; only
    three refills in a row with no mileage gained stop it (a run-out)."""
    t = build(deck_size=0, sides={2: {"record": [D75]}})
    n = len(t.discard)
    assert not t.deck and t.can_supply()
    t.apply(PICK)
    assert t.notices == ["discard pile reshuffled"]
    assert len(t.deck) == n - 1 and t.discard == []
    t.validate()
    idle(t)
    for refills in (2, 3):
        # the deck runs out again with no mileage gained since the refill
        t.discard += t.deck
        t.deck = []
        t.validate()
        assert t.can_supply()
        t.apply(PICK)
        assert t.notices == ["discard pile reshuffled"]
        assert (t.refills, t.idle_refills) == (refills, refills - 1)
        idle(t)
    t.discard += t.deck
    t.deck = []
    t.validate()
    assert not t.can_supply() and t.check(PICK) == "no more cards"
    hand = t.hands[t.to_move]
    assert t.check(Discard(next(i for i, c in enumerate(hand) if 0 <= c < 15))) is None
    # reshuffle off: every hand empty ends the race, nobody completes
    t = build(deck_size=0, reshuffle=False)
    t.discard += [c for c in t.hands[1] if c != NO_CARD]
    t.discard += [c for c in t.hands[0][2:] if c != NO_CARD]
    t.hands[1] = [NO_CARD] * 7
    t.hands[0] = t.hands[0][:2] + [NO_CARD] * 5
    t.validate()
    t.apply(Discard(1))
    assert t.phase == OVER and t.completing_side() is None
    assert all(t.hand_score(s).trip == 0 for s in (1, 2))


def test_34_no_duplicates_draw() -> None:
    t = build(
        hands={0: [D100, GO, D25, D50, D75, REPAIRS]},
        deck_top=(D100, GO, STOP, D25),
        rigging="no duplicates",
    )
    t.apply(PICK)
    assert t.hands[0][0] == STOP
    assert t.deck[-3:] == [D25, GO, D100]


def test_35_rigged_decks() -> None:
    r = find_rules("milebymile", players=3, rigging="2x attacks", karma=True)
    cards = deck_cards(r)
    assert len(cards) == 126 and cards.count(STOP) == 10 and cards.count(FALSE_VIRTUE) == 2
    r = find_rules("milebymile", rigging="2x defenses")
    assert len(deck_cards(r)) == 144 and deck_cards(r).count(GO) == 28


def test_36_refused_options() -> None:
    with pytest.raises(RulesError, match="^karma rule needs 3 or more sides$"):
        find_rules("milebymile", karma=True)
    with pytest.raises(RulesError, match="^karma rule needs 3 or more sides$"):
        find_rules("milebymile", players=4, team_mode="2v2", karma=True)
    with pytest.raises(RulesError, match="^team mode not available for 5 players$"):
        find_rules("milebymile", players=5, team_mode="2v2")


# ----- milebymile, 3 to 9 seats --------------------------------------------------------


def test_37_38_karma() -> None:
    t = build(3, picked={0: STOP}, hands={0: [ACCIDENT], 1: [RIGHT_OF_WAY]}, karma=True)
    use(t, 0, STOP, 2)
    assert t.discard[-1] == STOP and t.tableaux[1].problems == [] and t.tableaux[1].battle == []
    assert [tab.karma for tab in t.tableaux] == [False, False, True]
    assert t.phase == PLAYING and t.to_move == 1
    assert t.notices == ["karma clash: both lose karma"]
    idle(t)
    idle(t)
    t.apply(PICK)
    a = slot(t, 0, ACCIDENT)
    assert t.check(Use(a, 3)) == "opponent has karma"
    use(t, 0, ACCIDENT, 2)
    assert t.tableaux[1].problems == [ACCIDENT, STOP]
    # S3 (karma) attacking S1 loses karma
    t = build(3, picked={2: FLAT_TIRE}, to_move=2, karma=True, sides={1: {"karma": False}})
    use(t, 2, FLAT_TIRE, 1)
    assert t.tableaux[2].karma is False and t.tableaux[0].problems == [FLAT_TIRE, STOP]
    assert t.notices == ["side 3 loses karma"]


def test_39_false_virtue() -> None:
    t = build(3, picked={0: FALSE_VIRTUE}, karma=True)
    assert t.check(Use(0)) == "you still have karma"
    t = build(3, picked={0: FALSE_VIRTUE}, karma=True, sides={1: {"karma": False}})
    use(t, 0, FALSE_VIRTUE)
    assert t.tableaux[0].karma and t.set_aside == [FALSE_VIRTUE] and t.to_move == 1
    assert t.notices == ["side 1 regains karma"]
    t = build(3, picked={0: FALSE_VIRTUE}, karma=True)
    t.apply(Discard(0))
    assert t.discard[-1] == FALSE_VIRTUE


def test_40_shut_out_once() -> None:
    record = [D200] * 4 + [D100]
    t = build(3, picked={0: D100}, sides={1: {"record": record}, 3: {"record": [D50]}})
    use(t, 0, D100)
    assert t.phase == OVER and t.hand_score(1).shut_out == 0
    t = build(3, picked={0: D100}, sides={1: {"record": record}})
    use(t, 0, D100)
    assert t.hand_score(1).shut_out == 500
    assert t.hand_score(1).total == 1000 + 400 + 500


def test_41_targets() -> None:
    t = build(4, picked={0: SPEED_LIMIT})
    assert t.check(Use(0)) == "which opponent?"
    r = find_rules("milebymile", players=6, team_mode="3v3")
    assert r.members(1) == (0, 2, 4) and r.members(2) == (1, 3, 5)
    t = build(rules=r, picked={0: SPEED_LIMIT})
    use(t, 0, SPEED_LIMIT)
    assert t.tableaux[1].problems == [SPEED_LIMIT]


def test_42_nine_seats() -> None:
    t = Table.new(
        find_rules("milebymile", players=9, team_mode="3v3v3", karma=True), random.Random(1)
    )
    assert len(t.deck) == 54 and len(t.tableaux) == 3
    t.validate()


def test_43_winning_score() -> None:
    rules = find_rules("milebymile", winning_score=3000)
    t = build(rules=rules, totals=[3100, 2900])
    t.phase = OVER
    t.hands = [[NO_CARD] * 7, [NO_CARD] * 7]
    assert t.game_over
    t.new_hand(random.Random(1))
    assert t.games == [1, 0] and t.totals == [0, 0]
    t = build(rules=rules, totals=[3100, 3100])
    t.phase = OVER
    assert not t.game_over
    t.new_hand(random.Random(1))
    assert t.games == [0, 0] and t.totals == [3100, 3100]


# ----- random races, round trip -----------------------------------------------------------

CONFIGS = [
    dict(players=2),
    dict(players=3, karma=True),
    dict(players=4, team_mode="2v2", stacking=True),
    dict(players=5, always_discard=False, perfect_crossing=False),
    dict(players=6, team_mode="3v3", rigging="no duplicates", reshuffle=False),
    dict(players=7, rigging="2x defenses", distance=300),
    dict(players=8, team_mode="4v4", rigging="2x attacks", karma=False, stacking=True),
    dict(players=9, team_mode="3v3v3", karma=True, rigging="2x attacks", stacking=True),
]


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: "-".join(map(str, o.values())))
def test_random_races(options: dict[str, Any]) -> None:
    rules = find_rules("milebymile", **options)
    rng = random.Random(len(options))
    t = Table.new(rules, rng)
    for race in range(12):
        if race:
            t.new_hand(rng)
        moves = 0
        while not t.hand_over:
            legal = t.legal_moves()
            assert legal
            for move in legal:
                assert t.check(move) is None
            t.apply(rng.choice(legal))
            t.validate()
            moves += 1
            assert moves < 20000, "a race that does not end"


@pytest.mark.parametrize("options", CONFIGS[:4], ids=lambda o: "-".join(map(str, o.values())))
def test_dict_round_trip(options: dict[str, Any]) -> None:
    rng = random.Random(3)
    t = Table.new(find_rules("milebymile", **options), random.Random(4))
    for step in range(300):
        if t.hand_over:
            t.new_hand(random.Random(step))
        back = table_from_dict(json.loads(json.dumps(table_to_dict(t))), t.rules)
        assert back == t and back.legal_moves() == t.legal_moves()
        move = rng.choice(t.legal_moves())
        t.apply(move)
        back.apply(move)
        assert back == t


def test_no_extension_question() -> None:
    t = build(picked={0: D100}, sides={1: {"record": [D200] * 3 + [D100] * 3}})
    assert t.tableaux[0].mileage == 900
    use(t, 0, D100)
    assert t.phase == OVER
    assert t.check(NO) == "the hand is over"
