"""The computer opponent: BSD's heuristic, its memory, its save data.

The computer plays one seat of the ``bsd`` preset's :class:`Table`; here
it is seat 1 (BSD's computer) unless a test says otherwise, and seat 0 is
"the human" (BSD's player).
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from mille.engine.battle import TOP, could_play
from mille.engine.cards import (
    ACCIDENT,
    CARD_NAMES,
    D25,
    D50,
    D75,
    D100,
    D200,
    DRIVING_ACE,
    EXTRA_TANK,
    FLAT_TIRE,
    GASOLINE,
    GO,
    NO_CARD,
    NUM_KINDS,
    OUT_OF_GAS,
    PUNCTURE_PROOF,
    RIGHT_OF_WAY,
    SPARE_TIRE,
    STOP,
    VALUES,
    is_hazard,
    is_safety,
)
from mille.engine.rules import BSD
from mille.engine.table import (
    EXTENSION,
    NO,
    OVER,
    PICK,
    PLAYING,
    YES,
    Answer,
    Discard,
    Move,
    Outcome,
    Table,
    Use,
    deck_cards,
)
from mille.engine.tableau import Tableau
from mille.engine.view import SeatView
from mille.players.base import Player, choose, observe, start_hand
from mille.players.computer import (
    IN_HAND,
    INITIAL_NEED,
    PLAYED,
    UNKNOWN,
    BsdComputer,
    ComputerError,
)
from support.hidden import shuffled_hidden

HUMAN, COMPUTER = 0, 1  # BSD's seats: the player, the computer


def make_table(
    comp_hand: list[int],
    *,
    comp: dict[str, Any] | None = None,
    human: dict[str, Any] | None = None,
    human_hand: list[int] | None = None,
    deck_len: int = 40,
    target: int = 700,
) -> Table:
    """A consistent 101-card bsd table, the computer (seat 1) to move.

    ``comp``/``human`` may give ``battle``, ``speed`` (the tops), ``miles``
    (a list of distance cards), ``safeties``, ``can_go`` (default: battle is
    Go), ``battle_window``.  Unplaced cards are shuffled into the deck (its
    first ``deck_len``) and the discard pile; unplaced safeties go to the
    bottom of the deck, never to the discard pile.
    """
    pool = Counter(deck_cards(BSD))

    def take(card: int) -> int:
        if card != NO_CARD:
            assert pool[card] > 0, f"no {CARD_NAMES[card]} left"
            pool[card] -= 1
        return card

    hands = []
    tableaux = []
    for spec, hand in ((human or {}, human_hand), (comp or {}, comp_hand)):
        if hand is None:
            hand = [NO_CARD, D75, D75, D75, D75, D75, D75]
        hands.append([take(c) for c in hand])
        battle = spec.get("battle", NO_CARD)
        speed = spec.get("speed", NO_CARD)
        miles = [take(c) for c in spec.get("miles", [])]
        tableaux.append(
            Tableau(
                battle=[take(battle)] if battle != NO_CARD else [],
                speed=[take(speed)] if speed != NO_CARD else [],
                miles=miles,
                safeties=[take(c) for c in spec.get("safeties", [])],
                mileage=sum(VALUES[c] for c in miles),
                nummiles=[miles.count(c) for c in range(5)],
                top=battle,
                speed_top=speed,
                can_go=spec.get("can_go", battle == GO),
                battle_window=spec.get("battle_window", False),
            )
        )
    rest = sorted(pool.elements())
    random.Random(5).shuffle(rest)
    safeties = [c for c in rest if c >= EXTRA_TANK]
    assert len(safeties) <= deck_len, "unplaced safeties cannot be discarded"
    rest = safeties + [c for c in rest if c < EXTRA_TANK]
    table = Table(
        rules=BSD,
        hands=hands,
        tableaux=tableaux,
        deck=rest[:deck_len],
        discard=rest[deck_len:],
        target=target,
        to_move=COMPUTER,
        starter=COMPUTER,
        totals=[0, 0],
        games=[0, 0],
    )
    table.validate()
    return table


def bot_for(table: Table, seed: int = 0, seat: int = COMPUTER) -> BsdComputer:
    bot = BsdComputer(random.Random(seed), seat)
    start_hand(bot, table)
    return bot


def slot_of(table: Table, card: int) -> int:
    return table.hands[COMPUTER].index(card)


ROLLING = {"battle": GO}
STOPPED = {"battle": STOP}
ALL_SAFETIES = [NO_CARD, EXTRA_TANK, PUNCTURE_PROOF, DRIVING_ACE, RIGHT_OF_WAY, D75, D75]


def test_it_is_a_player() -> None:
    bot: Player = BsdComputer(random.Random(0))
    assert bot.seat == COMPUTER
    assert BsdComputer(random.Random(0), seat=0).seat == 0


@pytest.mark.parametrize("seat", [2, -1, True])
def test_a_seat_of_the_two(seat: int) -> None:
    with pytest.raises(ComputerError, match=f"^seat must be 0 or 1, not {seat!r}$"):
        BsdComputer(random.Random(0), seat)


# ----- golden cases ----------------------------------------------------------


def test_coup_fourre_taken_at_once_before_picking() -> None:
    table = make_table(
        [NO_CARD, D25, D50, PUNCTURE_PROOF, GO, STOP, D100],
        comp={"battle": FLAT_TIRE, "can_go": False, "battle_window": True},
        human=ROLLING,
    )
    bot = bot_for(table)
    move = choose(bot, table)
    assert move == Use(3)
    outcome = table.apply(move)
    assert outcome.coup_fourre and outcome.extra_turn
    observe(bot, table, outcome)
    assert bot.safeties[PUNCTURE_PROOF - EXTRA_TANK] == PLAYED
    assert choose(bot, table) == PICK  # then it picks (two cards)


def test_matching_safety_with_closed_window_picks_first() -> None:
    # BSD would try the safety at once and be refused for ever; we pick.
    table = make_table(
        [NO_CARD, D25, D50, PUNCTURE_PROOF, GO, STOP, D100],
        comp={"battle": FLAT_TIRE, "can_go": False, "battle_window": False},
        human=ROLLING,
    )
    bot = bot_for(table)
    assert choose(bot, table) == PICK
    observe(bot, table, table.apply(PICK))
    assert choose(bot, table) == Use(slot_of(table, PUNCTURE_PROOF))


def test_draws_when_slot_p_is_empty() -> None:
    table = make_table([NO_CARD, D25, D50, D75, GO, STOP, D100], comp=ROLLING, human=ROLLING)
    assert choose(bot_for(table), table) == PICK


def test_exact_finishing_distance_preferred() -> None:
    table = make_table(
        [D75, D100, D50, D25, GO, GASOLINE, D200],
        comp={"battle": GO, "miles": [D100] * 6},
        human=STOPPED,
    )
    assert choose(bot_for(table), table) == Use(1)


def test_25_kept_back_near_the_end() -> None:
    hand = [GO, D25, D100, D75, GASOLINE, STOP, SPARE_TIRE]
    comp = {"battle": GO, "miles": [D100] * 6 + [D50]}  # 650: the 25 is its only play
    table = make_table(hand, comp=comp, human=STOPPED)
    move = choose(bot_for(table), table)
    assert isinstance(move, Discard) and table.hands[COMPUTER][move.slot] != D25
    # with the deck out there is no reason to wait: it plays the 25
    table = make_table(hand, comp=comp, human=STOPPED, human_hand=ALL_SAFETIES, deck_len=0)
    assert choose(bot_for(table), table) == Use(1)


def test_a_safety_is_never_discarded() -> None:
    hand = [GO, EXTRA_TANK, GO, PUNCTURE_PROOF, GO, DRIVING_ACE, GO]
    table = make_table(hand, comp=ROLLING, human=STOPPED)
    bot = bot_for(table)
    move = choose(bot, table)
    assert move == Discard(0)  # normally a spare Go goes (33 // 4**2 = 2)
    bot = bot_for(table)
    bot.need[GO] = 1000  # every Go now worth more than a held safety (101)
    move = choose(bot, table)
    assert move == Use(5)
    assert table.check(move) is None


def test_hazard_played_on_a_rolling_opponent() -> None:
    table = make_table(
        [D25, OUT_OF_GAS, GASOLINE, SPARE_TIRE, STOP, D75, ACCIDENT],
        comp={"battle": STOP, "can_go": False},
        human={"battle": GO, "miles": [D100, D100]},
    )
    move = choose(bot_for(table), table)
    assert isinstance(move, Use) and move.target is None
    assert table.hands[COMPUTER][move.slot] in (OUT_OF_GAS, STOP, ACCIDENT)
    assert table.apply(move).card in (OUT_OF_GAS, STOP, ACCIDENT)
    assert table.tableaux[HUMAN].top in (OUT_OF_GAS, STOP, ACCIDENT)


def test_seat_0_reads_its_own_side() -> None:
    """The same position with the seats swapped gives the same move."""
    hand = [D75, D100, D50, D25, GO, GASOLINE, D200]
    table = make_table(hand, comp={"battle": GO, "miles": [D100] * 6}, human=STOPPED)
    mirror = Table(
        rules=BSD,
        hands=table.hands[::-1],
        tableaux=table.tableaux[::-1],
        deck=table.deck,
        discard=table.discard,
        to_move=HUMAN,
        starter=HUMAN,
        totals=[0, 0],
        games=[0, 0],
    )
    mirror.validate()
    assert choose(bot_for(mirror, seat=HUMAN), mirror) == choose(bot_for(table), table) == Use(1)


def test_choose_refuses_when_it_has_nothing_to_decide() -> None:
    table = make_table([D25, D50, D75, GO, GO, D100, GASOLINE], comp=ROLLING, human=ROLLING)
    with pytest.raises(ComputerError, match="^seat 0 has nothing to decide$"):
        choose(bot_for(table, seat=HUMAN), table)
    table.phase = OVER
    with pytest.raises(ComputerError, match="^seat 1 has nothing to decide$"):
        choose(bot_for(table), table)


# ----- extension -------------------------------------------------------------


def _at_700(hand: list[int], *, human: dict[str, Any], deck_len: int = 40) -> Table:
    """The computer has just played a 100 to reach exactly 700: the table
    asks it Extension?"""
    table = make_table(
        hand, comp={"battle": GO, "miles": [D100] * 6}, human=human, deck_len=deck_len
    )
    assert table.hands[COMPUTER][0] != NO_CARD  # it has picked
    outcome = table.apply(Use(table.hands[COMPUTER].index(D100)))
    assert outcome.card == D100
    assert table.phase == EXTENSION and table.asked == COMPUTER
    assert table.current_player == COMPUTER
    return table


def _bot_at(table: Table, safeties: list[int]) -> BsdComputer:
    bot = BsdComputer(random.Random(0))
    for s in safeties:
        bot.safeties[s - EXTRA_TANK] = IN_HAND
        bot.seen[s] = 1
    return bot


def test_extends_with_two_safeties_when_opponent_has_none_out() -> None:
    table = _at_700(
        [D25, D100, D50, EXTRA_TANK, PUNCTURE_PROOF, GO, GO],
        human={"battle": STOP, "miles": [D100, D100, D100]},
    )
    bot = _bot_at(table, [EXTRA_TANK, PUNCTURE_PROOF])
    assert bot.wants_extension(SeatView(table, 1))
    assert choose(bot, table) == YES
    assert table.check(YES) is None
    assert not _bot_at(table, [EXTRA_TANK]).wants_extension(SeatView(table, 1))
    assert choose(_bot_at(table, [EXTRA_TANK]), table) == NO


def test_no_extension_when_opponent_is_close_or_shut_out() -> None:
    hand = [D25, D100, D50, EXTRA_TANK, PUNCTURE_PROOF, GO, GO]
    table = _at_700(hand, human={"battle": GO, "miles": [D100] * 5})
    assert not _bot_at(table, [EXTRA_TANK, PUNCTURE_PROOF]).wants_extension(SeatView(table, 1))
    table = _at_700(hand, human={"battle": STOP})
    assert not _bot_at(table, [EXTRA_TANK, PUNCTURE_PROOF]).wants_extension(SeatView(table, 1))


def test_extension_counts_the_card_just_played() -> None:
    # opponent has a safety out: it extends only on miles in hand + 3/card
    # left.  700 in hand after the play, 100 played, 67 cards: 1001 > 1000.
    hand = [D100, D100, D200, D200, D200, EXTRA_TANK, PUNCTURE_PROOF]
    human = {"battle": STOP, "miles": [D100, D100], "safeties": [DRIVING_ACE]}
    table = _at_700(hand, human=human, deck_len=67)
    bot = _bot_at(table, [EXTRA_TANK, PUNCTURE_PROOF])
    assert bot.wants_extension(SeatView(table, 1)) and choose(bot, table) == YES
    table = _at_700(hand, human=human, deck_len=66)  # 998
    assert not bot.wants_extension(SeatView(table, 1)) and choose(bot, table) == NO


def test_the_answer_extends_the_trip() -> None:
    table = _at_700(
        [D25, D100, D50, EXTRA_TANK, PUNCTURE_PROOF, GO, GO],
        human={"battle": STOP, "miles": [D100, D100, D100]},
    )
    bot = _bot_at(table, [EXTRA_TANK, PUNCTURE_PROOF])
    outcome = table.apply(choose(bot, table))
    observe(bot, table, outcome)
    assert outcome == Outcome(COMPUTER, YES)
    assert (table.phase, table.target, table.current_player) == (PLAYING, 1000, HUMAN)


def test_an_extension_question_for_the_other_seat_is_not_its_own() -> None:
    table = _at_700(
        [D25, D100, D50, EXTRA_TANK, PUNCTURE_PROOF, GO, GO],
        human={"battle": STOP, "miles": [D100, D100, D100]},
    )
    with pytest.raises(ComputerError, match="^seat 0 has nothing to decide$"):
        choose(BsdComputer(random.Random(0), seat=HUMAN), table)


def test_at_1000_its_own_question_is_no_and_it_lays_its_safeties_down() -> None:
    """Its own question (``check_ext(TRUE)``) is always "no" once the end is
    1000, so a card that makes the end will finish the hand: first it plays
    its safeties (BSD: ``foundend``, a playable card, none to stop the
    opponent)."""
    table = make_table(
        [D75, D100, D50, EXTRA_TANK, PUNCTURE_PROOF, GASOLINE, D200],
        comp={"battle": GO, "miles": [D200, D200] + [D100] * 5},
        human={"battle": STOP, "miles": [D100]},
        target=1000,
    )
    asked: list[bool] = []

    class Asking(BsdComputer):
        def ask_extension(self, table: SeatView, hand_miles: int) -> bool:
            asked.append(super().ask_extension(table, hand_miles))
            return asked[-1]

    bot = Asking(random.Random(0))
    bot.safeties = [IN_HAND, IN_HAND, UNKNOWN, UNKNOWN]
    assert choose(bot, table) == Use(3)  # the Extra Tank, before the 100
    assert asked == [False]
    played = []
    while table.current_player == COMPUTER:  # (a safety gives another turn)
        outcome = table.apply(choose(bot, table))
        observe(bot, table, outcome)
        if not outcome.drawn:
            played.append(outcome.card)
    assert played == [EXTRA_TANK, PUNCTURE_PROOF, D100]
    assert table.phase == OVER and table.tableaux[COMPUTER].mileage == 1000
    assert len(asked) > 1 and not any(asked)


# ----- memory ----------------------------------------------------------------


def test_deal_counts_gos_only_when_it_starts() -> None:
    hand = [NO_CARD, OUT_OF_GAS, STOP, D25, D50, D75, GO]
    table = make_table(hand, comp=ROLLING)
    table.starter = COMPUTER
    bot = bot_for(table)
    assert bot.gos == 2 and bot.seen[STOP] == 1 and sum(bot.seen) == 6
    table.starter = HUMAN
    start_hand(bot, table)
    assert bot.gos == 0 and sum(bot.seen) == 6


def test_need_is_never_reset() -> None:
    table = make_table(
        [D25, D50, D75, GO, GO, D100, GASOLINE],
        comp={"battle": OUT_OF_GAS, "can_go": False},
        human=ROLLING,
    )
    bot = bot_for(table)
    choose(bot, table)
    assert bot.need[GASOLINE] == INITIAL_NEED[GASOLINE] + 2  # twice per decision
    start_hand(bot, table)
    assert bot.need[GASOLINE] == INITIAL_NEED[GASOLINE] + 2


def test_sees_opponent_uses_and_discards_not_its_picks() -> None:
    table = make_table([D25, D50, D75, GO, GO, D100, GASOLINE], comp=ROLLING, human=ROLLING)
    bot = bot_for(table)
    before = list(bot.seen)
    observe(bot, table, Outcome(HUMAN, PICK, drawn=(D200,)))
    assert bot.seen == before
    observe(bot, table, Outcome(HUMAN, Discard(2), card=D200))
    observe(bot, table, Outcome(HUMAN, Use(1), card=STOP))
    observe(bot, table, Outcome(HUMAN, Answer(True)))  # an answer shows no card
    assert bot.seen[D200] == before[D200] + 1 and bot.seen[STOP] == before[STOP] + 1
    assert sum(bot.seen) == sum(before) + 2
    assert bot.gos == 0  # the opponent's cards never count towards Numgos


def test_takes_in_its_own_draws_and_marks_its_played_safeties() -> None:
    table = make_table([NO_CARD, D25, D50, D75, GO, STOP, DRIVING_ACE], comp=ROLLING)
    bot = bot_for(table)
    assert bot.safeties[DRIVING_ACE - EXTRA_TANK] == IN_HAND
    before, gos = sum(bot.seen), bot.gos
    observe(bot, table, Outcome(COMPUTER, PICK, drawn=(ACCIDENT,)))
    assert sum(bot.seen) == before + 1 and bot.gos == gos + 1  # its own draws count
    observe(bot, table, Outcome(COMPUTER, Use(6), card=DRIVING_ACE, extra_turn=True))
    observe(bot, table, Outcome(COMPUTER, Discard(1), card=D25))
    assert bot.safeties[DRIVING_ACE - EXTRA_TANK] == PLAYED
    assert sum(bot.seen) == before + 1  # its own plays are not counted again


def test_can_play_go_on_an_empty_battle_pile_as_bsd() -> None:
    # BSD's is_repair() is true of an empty pile, so canplay accepts a Go there
    table = Table.new(BSD, random.Random(0))
    me, op = table.tableaux
    assert could_play(me, op, GO, table.target) and could_play(op, me, GO, table.target)


# ----- over many hands -----------------------------------------------------


class RandomMover:
    """A seat that makes a random legal move (answers included)."""

    def __init__(self, rng: random.Random, seat: int) -> None:
        self.rng = rng
        self.seat = seat

    def start_hand(self, table: SeatView) -> None:
        pass

    def observe(self, table: SeatView, outcome: Outcome) -> None:
        pass

    def choose(self, table: SeatView) -> Move:
        return self.rng.choice(table.legal_moves())


def _games(n_hands: int, seed: int, seat: int = COMPUTER) -> Iterator[tuple[Table, BsdComputer]]:
    """Yield (table, bot) at every one of the bot's decisions, bot vs random."""
    rng = random.Random(seed)
    bot = BsdComputer(random.Random(rng.getrandbits(32)), seat)
    other = RandomMover(random.Random(rng.getrandbits(32)), 1 - seat)
    seats: list[Player] = [other, bot] if seat == COMPUTER else [bot, other]
    table = Table.new(BSD, rng)
    for hand in range(n_hands):
        if hand:
            table.new_hand(rng)
        for p in seats:
            start_hand(p, table)
        while table.phase != OVER:
            mover = table.current_player
            assert mover is not None
            if mover == seat:
                yield table, bot
            outcome = table.apply(choose(seats[mover], table))
            for p in seats:
                observe(p, table, outcome)


@pytest.mark.parametrize("seat", [COMPUTER, HUMAN])
def test_choose_is_always_legal(seat: int) -> None:
    turns = answers = 0
    for table, bot in _games(150, 11 + seat, seat):
        move = choose(copy.deepcopy(bot), table)
        assert table.check(move) is None, (move, table.check(move))
        turns += 1
        answers += isinstance(move, Answer)
    assert turns > 5000 and answers > 0


def test_could_play_is_the_legality_check_for_distance() -> None:
    """comp.c's canplay (the computer's and the deck-out rule's one function)
    accepts a distance card exactly when the rules allow it, the other
    cards only where it has a use: its opponent's side for a hazard, its
    own for the rest, never a safety."""
    positions = 0
    for table, _ in _games(30, 41):
        for seat in (HUMAN, COMPUTER):
            me, op = table.tableaux[seat], table.tableaux[1 - seat]
            for card in range(NUM_KINDS):
                answer = could_play(me, op, card, table.target)
                assert answer == TOP.could_play(table, seat, card)
                if card <= D200:
                    assert answer == (TOP.check(table, seat, card, 0) is None)
                elif answer:
                    target = 2 - seat if is_hazard(card) else 0
                    assert TOP.check(table, seat, card, target) is None
                assert not (answer and is_safety(card))
        positions += 1
    assert positions > 1000


def test_from_view_counts_what_a_watcher_counted() -> None:
    """BSD's computer taking up a hand under way (the expert's playouts)
    has seen what one that watched from the deal has seen, and knows its
    safeties the same; its Numneed is the one given, its Numgos 0."""
    checked = 0
    need = [n + 1 for n in INITIAL_NEED]
    for table, bot in _games(20, 43):
        view = SeatView(table, bot.seat)
        joined = BsdComputer.from_view(view, random.Random(0))
        assert (joined.seat, joined.seen, joined.safeties) == (bot.seat, bot.seen, bot.safeties)
        assert joined.gos == 0 and joined.need == list(INITIAL_NEED)
        public = view.public_counts()
        given = BsdComputer.from_view(view, random.Random(0), public, need)
        assert given.seen == bot.seen and given.need == need and given.need is not need
        checked += 1
    assert checked > 500


def test_choice_ignores_hidden_cards() -> None:
    """Shuffling the opponent's hand with the deck changes nothing."""
    mix = random.Random(3)
    checked = 0
    for table, bot in _games(40, 21):
        twin = copy.deepcopy(bot)
        other = shuffled_hidden(table, 1 - HUMAN, mix)
        assert choose(copy.deepcopy(bot), table) == choose(twin, other)
        checked += 1
    assert checked > 1000


def test_two_computers_play_whole_games() -> None:
    """BSD's computer on both seats, through the Player protocol, as the
    session and self-play drive it: every move legal, every hand ends."""
    rng = random.Random(4)
    bots = [BsdComputer(random.Random(rng.getrandbits(32)), seat) for seat in (0, 1)]
    table = Table.new(BSD, rng)
    extended = 0
    for hand in range(60):
        if hand:
            table.new_hand(rng)
        for bot in bots:
            start_hand(bot, table)
        for _ in range(1000):
            if table.phase == OVER:
                break
            extended += table.phase == EXTENSION
            seat = table.current_player
            assert seat is not None
            outcome = table.apply(choose(bots[seat], table))
            for bot in bots:
                observe(bot, table, outcome)
        assert table.phase == OVER
    assert extended > 0 and sum(table.games) + max(table.totals) > 0


# ----- saving --------------------------------------------------------------


@pytest.mark.parametrize("seat", [COMPUTER, HUMAN])
def test_to_dict_round_trips_through_json(seat: int) -> None:
    *_, (_, bot) = _games(3, 31, seat)
    data = json.loads(json.dumps(bot.to_dict()))
    assert data["player"] == seat
    again = BsdComputer.from_dict(data, random.Random(0), seat)
    assert again.to_dict() == bot.to_dict()
    assert (again.seen, again.gos, again.need, again.safeties, again.seat) == (
        bot.seen,
        bot.gos,
        bot.need,
        bot.safeties,
        bot.seat,
    )
    assert set(data["seen"]) == set(CARD_NAMES)


def _good() -> dict[str, Any]:
    table = make_table([NO_CARD, D25, D50, RIGHT_OF_WAY, GO, STOP, D100], comp=ROLLING)
    return bot_for(table).to_dict()


def test_from_dict_is_for_its_own_seat() -> None:
    data = _good()
    assert BsdComputer.from_dict(data, random.Random(0)).seat == COMPUTER
    with pytest.raises(ComputerError, match="^computer: saved for seat 1, not seat 0$"):
        BsdComputer.from_dict(data, random.Random(0), seat=HUMAN)
    with pytest.raises(ComputerError, match="^seat must be 0 or 1, not 2$"):
        BsdComputer.from_dict(data, random.Random(0), seat=2)


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d.update(extra=1), "unknown key 'extra'"),
        (lambda d: d.pop("gos"), "missing key 'gos'"),
        (lambda d: d.update(player=2), "player must be 0 or 1"),
        (lambda d: d.update(player=0), "saved for seat 0, not seat 1"),
        (lambda d: d.update(player=True), "player must be an integer"),
        (lambda d: d.update(gos="1"), "gos must be an integer"),
        (lambda d: d.update(gos=-1), "gos must be 0 to 16"),
        (lambda d: d.update(seen=[]), "seen must be an object"),
        (lambda d: d["seen"].update(Banana=1), "seen: unknown card 'Banana'"),
        (lambda d: d["seen"].pop("Go"), "seen: missing card 'Go'"),
        (lambda d: d["seen"].update({"200": 5}), "seen '200' must be 0 to 4, not 5"),
        (lambda d: d["seen"].update({"25": 1.5}), "seen '25' must be an integer"),
        (lambda d: d["need"].update(Go=9), "need 'Go' must be at least 10, not 9"),
        (lambda d: d["need"].update(Stop=5), "need 'Stop' must be 4, not 5"),
        (lambda d: d["safeties"].update({"Extra Tank": "lost"}), "must be one of"),
        (lambda d: d["safeties"].update({"Go": "played"}), "unknown safety 'Go'"),
        (lambda d: d["safeties"].update({"Extra Tank": "played"}), "was never seen"),
        (lambda d: d.update(safeties=None), "safeties must be an object"),
    ],
)
def test_from_dict_rejects_bad_data(mutate: Any, message: str) -> None:
    data = _good()
    assert data["safeties"]["Right of Way"] == "in hand"
    mutate(data)
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")) as info:
        BsdComputer.from_dict(data, random.Random(0))
    assert str(info.value).startswith("computer: ")
    assert isinstance(info.value, ComputerError)


def test_from_dict_rejects_non_objects() -> None:
    with pytest.raises(ValueError, match="expected an object"):
        BsdComputer.from_dict([], random.Random(0))  # type: ignore[arg-type]


def test_statuses_are_named() -> None:
    data = _good()
    assert data["safeties"] == {
        "Extra Tank": "unknown",
        "Puncture Proof": "unknown",
        "Driving Ace": "unknown",
        "Right of Way": "in hand",
    }
    assert UNKNOWN == 0


def test_module_doctests() -> None:
    import doctest

    import mille.players.computer

    result = doctest.testmod(mille.players.computer)
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.update({"\x1b[2J" + "k" * 900_000: 1}),
        lambda d: d["seen"].update({"x" * 5000: 1}),
        lambda d: d["safeties"].update({"Extra Tank": "\n" * 5000}),
        lambda d: d["safeties"].update({"\x07" * 900: "played"}),
        lambda d: d.update(gos=10**4000),
        lambda d: d["need"].update(Stop=-(10**4000)),
    ],
)
def test_from_dict_messages_quote_file_values_short_and_escaped(mutate: Any) -> None:
    """A value read from a save is quoted in at most 60 characters, with
    control characters escaped, whatever its size (hostile save files)."""
    data = _good()
    mutate(data)
    with pytest.raises(ValueError) as info:
        BsdComputer.from_dict(data, random.Random(0))
    message = str(info.value)
    assert len(message) <= 160, message
    assert message.isprintable(), message
