"""The computer opponent: BSD's heuristic, its memory, its save data."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from typing import Any

import pytest

from mille.cards import (
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
    OUT_OF_GAS,
    PUNCTURE_PROOF,
    RIGHT_OF_WAY,
    SPARE_TIRE,
    STOP,
    full_deck,
)
from mille.autoplayers import RandomPlayer
from mille.computer import IN_HAND, INITIAL_NEED, PLAYED, UNKNOWN, BsdComputer
from mille.engine import (
    COMPUTER,
    HUMAN,
    PICK,
    Discard,
    GameState,
    MoveResult,
    Phase,
    PlayerState,
    Use,
    can_play,
)


def make_state(
    comp_hand: list[int],
    *,
    comp: dict[str, Any] | None = None,
    human: dict[str, Any] | None = None,
    human_hand: list[int] | None = None,
    deck_len: int = 40,
    end: int = 700,
) -> GameState:
    """A consistent 101-card state, the computer to move.

    ``comp``/``human`` may give ``battle``, ``speed``, ``miles`` (a list of
    distance cards), ``safeties``, ``can_go`` (default: battle is Go),
    ``battle_window``.
    """
    pool = Counter(full_deck())

    def take(card: int) -> int:
        if card != NO_CARD:
            assert pool[card] > 0, f"no {CARD_NAMES[card]} left"
            pool[card] -= 1
        return card

    players = []
    for spec, hand in ((human or {}, human_hand), (comp or {}, comp_hand)):
        p = PlayerState()
        if hand is None:
            hand = [NO_CARD, D75, D75, D75, D75, D75, D75]
        p.hand = [take(c) for c in hand]
        battle = spec.get("battle", NO_CARD)
        if battle != NO_CARD:
            p.battle_pile = [take(battle)]
        p.battle = battle
        speed = spec.get("speed", NO_CARD)
        if speed != NO_CARD:
            p.speed_pile = [take(speed)]
        p.speed = speed
        p.miles = [take(c) for c in spec.get("miles", [])]
        for c in p.miles:
            p.nummiles[c] += 1
        p.mileage = sum((25, 50, 75, 100, 200)[c] for c in p.miles)
        p.safeties = [take(c) for c in spec.get("safeties", [])]
        p.can_go = spec.get("can_go", battle == GO)
        p.battle_window = spec.get("battle_window", False)
        players.append(p)
    rest = sorted(pool.elements())
    random.Random(5).shuffle(rest)
    state = GameState(players=(players[0], players[1]), deck=rest[:deck_len],
                      discard=rest[deck_len:], end=end, to_move=COMPUTER, starter=COMPUTER)
    state.validate()
    return state


def bot_for(state: GameState, seed: int = 0) -> BsdComputer:
    bot = BsdComputer(random.Random(seed))
    bot.start_hand(state)
    return bot


def slot_of(state: GameState, card: int) -> int:
    return state.players[COMPUTER].hand.index(card)


ROLLING = {"battle": GO}
STOPPED = {"battle": STOP}


# ----- golden cases ----------------------------------------------------------

def test_coup_fourre_taken_at_once_before_picking() -> None:
    state = make_state(
        [NO_CARD, D25, D50, PUNCTURE_PROOF, GO, STOP, D100],
        comp={"battle": FLAT_TIRE, "can_go": False, "battle_window": True},
        human=ROLLING,
    )
    bot = bot_for(state)
    move = bot.choose(state)
    assert move == Use(3)
    result = state.apply(move)
    assert result.coup_fourre and result.extra_turn
    bot.observe(state, result)
    assert bot.safeties[PUNCTURE_PROOF - EXTRA_TANK] == PLAYED
    assert bot.choose(state) == PICK  # then it picks (two cards)


def test_matching_safety_with_closed_window_picks_first() -> None:
    # BSD would try the safety at once and be refused for ever; we pick.
    state = make_state(
        [NO_CARD, D25, D50, PUNCTURE_PROOF, GO, STOP, D100],
        comp={"battle": FLAT_TIRE, "can_go": False, "battle_window": False},
        human=ROLLING,
    )
    bot = bot_for(state)
    assert bot.choose(state) == PICK
    bot.observe(state, state.apply(PICK))
    assert bot.choose(state) == Use(slot_of(state, PUNCTURE_PROOF))


def test_draws_when_slot_p_is_empty() -> None:
    state = make_state([NO_CARD, D25, D50, D75, GO, STOP, D100], comp=ROLLING, human=ROLLING)
    assert bot_for(state).choose(state) == PICK


def test_exact_finishing_distance_preferred() -> None:
    state = make_state(
        [D75, D100, D50, D25, GO, GASOLINE, D200],
        comp={"battle": GO, "miles": [D100] * 6},
        human=STOPPED,
    )
    assert bot_for(state).choose(state) == Use(1)


def test_25_kept_back_near_the_end() -> None:
    hand = [GO, D25, D100, D75, GASOLINE, STOP, SPARE_TIRE]
    comp = {"battle": GO, "miles": [D100] * 6 + [D50]}  # 650: the 25 is its only play
    state = make_state(hand, comp=comp, human=STOPPED)
    move = bot_for(state).choose(state)
    assert isinstance(move, Discard) and state.players[COMPUTER].hand[move.slot] != D25
    # with the deck out there is no reason to wait: it plays the 25
    state = make_state(hand, comp=comp, human=STOPPED, deck_len=0)
    assert bot_for(state).choose(state) == Use(1)


def test_a_safety_is_never_discarded() -> None:
    hand = [GO, EXTRA_TANK, GO, PUNCTURE_PROOF, GO, DRIVING_ACE, GO]
    state = make_state(hand, comp=ROLLING, human=STOPPED)
    bot = bot_for(state)
    move = bot.choose(state)
    assert move == Discard(0)  # normally a spare Go goes (33 // 4**2 = 2)
    bot = bot_for(state)
    bot.need[GO] = 1000  # every Go now worth more than a held safety (101)
    move = bot.choose(state)
    assert move == Use(5)
    assert state.check(move) is None


def test_hazard_played_on_a_rolling_opponent() -> None:
    state = make_state(
        [D25, OUT_OF_GAS, GASOLINE, SPARE_TIRE, STOP, D75, ACCIDENT],
        comp={"battle": STOP, "can_go": False},
        human={"battle": GO, "miles": [D100, D100]},
    )
    move = bot_for(state).choose(state)
    assert isinstance(move, Use)
    assert state.players[COMPUTER].hand[move.slot] in (OUT_OF_GAS, STOP, ACCIDENT)


# ----- extension -------------------------------------------------------------

def _at_700(
    hand: list[int], *, human: dict[str, Any], deck_len: int = 40
) -> tuple[GameState, MoveResult]:
    """The computer has just played a 100 to reach exactly 700."""
    state = make_state(hand, comp={"battle": GO, "miles": [D100] * 6},
                       human=human, deck_len=deck_len)
    bot_hand = state.players[COMPUTER].hand
    slot = bot_hand.index(D100)
    state.players[COMPUTER].hand[0] = D100 if bot_hand[0] == NO_CARD else bot_hand[0]
    result = state.apply(Use(slot))
    assert state.phase is Phase.EXTENSION and state.extender == COMPUTER
    return state, result


def _bot_at(state: GameState, safeties: list[int]) -> BsdComputer:
    bot = BsdComputer(random.Random(0))
    for s in safeties:
        bot.safeties[s - EXTRA_TANK] = IN_HAND
        bot.seen[s] = 1
    return bot


def test_extends_with_two_safeties_when_opponent_has_none_out() -> None:
    state, last = _at_700([D25, D100, D50, EXTRA_TANK, PUNCTURE_PROOF, GO, GO],
                          human={"battle": STOP, "miles": [D100, D100, D100]})
    assert _bot_at(state, [EXTRA_TANK, PUNCTURE_PROOF]).wants_extension(state, last)
    assert not _bot_at(state, [EXTRA_TANK]).wants_extension(state, last)


def test_no_extension_when_opponent_is_close_or_shut_out() -> None:
    hand = [D25, D100, D50, EXTRA_TANK, PUNCTURE_PROOF, GO, GO]
    state, last = _at_700(hand, human={"battle": GO, "miles": [D100] * 5})
    assert not _bot_at(state, [EXTRA_TANK, PUNCTURE_PROOF]).wants_extension(state, last)
    state, last = _at_700(hand, human={"battle": STOP})
    assert not _bot_at(state, [EXTRA_TANK, PUNCTURE_PROOF]).wants_extension(state, last)


def test_extension_counts_the_card_just_played() -> None:
    # opponent has a safety out: it extends only on miles in hand + 3/card
    # left.  700 in hand after the play, 100 played, 67 cards: 1001 > 1000.
    hand = [D100, D100, D200, D200, D200, EXTRA_TANK, PUNCTURE_PROOF]
    human = {"battle": STOP, "miles": [D100, D100], "safeties": [DRIVING_ACE]}
    state, last = _at_700(hand, human=human, deck_len=67)
    assert last.card == D100
    bot = _bot_at(state, [EXTRA_TANK, PUNCTURE_PROOF])
    assert bot.wants_extension(state, last)
    state, last = _at_700(hand, human=human, deck_len=66)  # 998
    assert not bot.wants_extension(state, last)


# ----- memory ----------------------------------------------------------------

def test_deal_counts_gos_only_when_it_starts() -> None:
    hand = [NO_CARD, OUT_OF_GAS, STOP, D25, D50, D75, GO]
    state = make_state(hand, comp=ROLLING)
    state.starter = COMPUTER
    bot = bot_for(state)
    assert bot.gos == 2 and bot.seen[STOP] == 1 and sum(bot.seen) == 6
    state.starter = HUMAN
    bot.start_hand(state)
    assert bot.gos == 0 and sum(bot.seen) == 6


def test_need_is_never_reset() -> None:
    state = make_state([D25, D50, D75, GO, GO, D100, GASOLINE],
                       comp={"battle": OUT_OF_GAS, "can_go": False}, human=ROLLING)
    bot = bot_for(state)
    bot.choose(state)
    assert bot.need[GASOLINE] == INITIAL_NEED[GASOLINE] + 2  # twice per decision
    bot.start_hand(state)
    assert bot.need[GASOLINE] == INITIAL_NEED[GASOLINE] + 2


def test_sees_opponent_uses_and_discards_not_its_picks() -> None:
    state = make_state([D25, D50, D75, GO, GO, D100, GASOLINE], comp=ROLLING, human=ROLLING)
    bot = bot_for(state)
    before = list(bot.seen)
    bot.observe(state, MoveResult(HUMAN, PICK, drawn=(D200,)))
    assert bot.seen == before
    bot.observe(state, MoveResult(HUMAN, Discard(2), card=D200))
    bot.observe(state, MoveResult(HUMAN, Use(1), card=STOP))
    assert bot.seen[D200] == before[D200] + 1 and bot.seen[STOP] == before[STOP] + 1
    assert bot.gos == 0  # the opponent's cards never count towards Numgos


def test_can_play_go_on_an_empty_battle_pile_as_bsd() -> None:
    # BSD's is_repair() is true of an empty pile, so canplay accepts a Go there

    me, op = PlayerState(), PlayerState()
    assert can_play(me, op, GO, 700)


# ----- over many hands -----------------------------------------------------

def _games(n_hands: int, seed: int, seat: int = COMPUTER):
    """Yield (state, bot) at every one of the bot's turns, bot vs random."""
    rng = random.Random(seed)
    bot = BsdComputer(random.Random(rng.getrandbits(32)), seat)
    other = RandomPlayer(random.Random(rng.getrandbits(32)))
    seats: list[Any] = [other, bot] if seat == COMPUTER else [bot, other]
    state = GameState.new_game(rng)
    for hand in range(n_hands):
        if hand:
            state.new_hand(rng)
        for p in seats:
            p.start_hand(state)
        last = None
        while state.phase is not Phase.HAND_OVER:
            if state.phase is Phase.EXTENSION:
                state.decide_extension(seats[state.extender].wants_extension(state, last))
                continue
            if state.to_move == seat:
                yield state, bot
            last = state.apply(seats[state.to_move].choose(state))
            for p in seats:
                p.observe(state, last)


@pytest.mark.parametrize("seat", [COMPUTER, HUMAN])
def test_choose_is_always_legal(seat: int) -> None:
    turns = 0
    for state, bot in _games(150, 11 + seat, seat):
        move = copy.deepcopy(bot).choose(state)
        assert state.check(move) is None, (move, state.check(move))
        turns += 1
    assert turns > 5000


def test_choice_ignores_hidden_cards() -> None:
    """Shuffling the opponent's hand with the deck changes nothing."""
    mix = random.Random(3)
    checked = 0
    for state, bot in _games(40, 21):
        twin = copy.deepcopy(bot)
        other = state.copy()
        hidden = [c for c in other.players[HUMAN].hand if c != NO_CARD] + other.deck
        mix.shuffle(hidden)
        hand = other.players[HUMAN].hand
        for i, c in enumerate(hand):
            if c != NO_CARD:
                hand[i] = hidden.pop()
        other.deck = hidden
        assert copy.deepcopy(bot).choose(state) == twin.choose(other)
        checked += 1
    assert checked > 1000


# ----- saving --------------------------------------------------------------

def test_to_dict_round_trips_through_json() -> None:
    for state, bot in _games(3, 31):
        pass
    data = json.loads(json.dumps(bot.to_dict()))
    again = BsdComputer.from_dict(data, random.Random(0))
    assert again.to_dict() == bot.to_dict()
    assert (again.seen, again.gos, again.need, again.safeties, again.player) == (
        bot.seen, bot.gos, bot.need, bot.safeties, bot.player)
    assert set(data["seen"]) == set(CARD_NAMES)


def _good() -> dict[str, Any]:
    state = make_state([NO_CARD, D25, D50, RIGHT_OF_WAY, GO, STOP, D100], comp=ROLLING)
    return bot_for(state).to_dict()


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d.update(extra=1), "unknown key 'extra'"),
        (lambda d: d.pop("gos"), "missing key 'gos'"),
        (lambda d: d.update(player=2), "player must be 0 or 1"),
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
    with pytest.raises(ValueError, match=message.replace("(", r"\(")) as info:
        BsdComputer.from_dict(data, random.Random(0))
    assert str(info.value).startswith("computer: ")


def test_from_dict_rejects_non_objects() -> None:
    with pytest.raises(ValueError, match="expected an object"):
        BsdComputer.from_dict([], random.Random(0))  # type: ignore[arg-type]


def test_statuses_are_named() -> None:
    data = _good()
    assert data["safeties"] == {"Extra Tank": "unknown", "Puncture Proof": "unknown",
                                "Driving Ace": "unknown", "Right of Way": "in hand"}
    assert UNKNOWN == 0


def test_module_doctests() -> None:
    import doctest

    import mille.computer

    result = doctest.testmod(mille.computer)
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
