"""The rules revised to follow the written texts (classic: the Wikipedia
article on Mille Bornes; milebymile: the rules of Mile by Mile):

1. a safety may be discarded in ``classic`` and ``milebymile`` (a person
   confirms ``Discard a safety?``); ``bsd`` refuses it;
2. Mile by Mile reshuffles the discard pile whenever the deck runs out (a
   guard ends a race that could not: three refills in a row, no gain);
3. Mile by Mile's race distance is any integer 300 to 3000 (in 25s only
   with perfect crossing);
4. classic with 6 players races to 700 with the extension (older saves of
   the 1000-mile game play on under their rules);
5. classic: a safety played in turn on its hazard leaves the side needing
   a Go (Right of Way excepted); a coup fourre lets the Go beneath count.
"""

from __future__ import annotations

import io
import json
import pathlib
import random
from typing import Any

import pytest
from test_table_classic import build as classic
from test_table_classic import pick, slot_of, use

from mille.engine.cards import (
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
    STOP,
)
from mille.engine.rules import BSD, RulesError, find_rules
from mille.engine.table import (
    EXTENSION,
    IDLE_REFILLS,
    OVER,
    PICK,
    PLAYING,
    YES,
    Discard,
    Table,
    Use,
)
from mille.engine.view import SeatView
from mille.frontends import plain, ui
from mille.frontends.cli import parse_args
from mille.frontends.table_ui import TableUi
from mille.game.session import Session
from mille.players.autoplayers import GreedyPlayer, RandomPlayer
from mille.players.base import choose, observe, start_hand
from mille.players.easy import Easy
from mille.players.expert import Budget, Expert
from mille.players.heuristic import Heuristic
from mille.players.search import distinct_moves
from mille.storage.savefile import (
    SaveError,
    dumps,
    load_session,
    loads,
    session_from_dict,
    session_to_dict,
)
from support import fakewindow
from support.fakewindow import OutOfKeys

V3 = pathlib.Path(__file__).parent / "data" / "saves-v3"


def give(t: Table, seat: int, slot: int, card: int) -> None:
    """Put ``card`` in ``seat``'s ``slot``, swapping it with the card there
    (wherever ``card`` was: the deck, a hand, the discard pile)."""
    hand = t.hands[seat]
    if hand[slot] == card:
        return
    old = hand[slot]
    for place in [t.deck, t.discard] + t.hands:
        if card in place and not (place is hand and place.index(card) == slot):
            i = place.index(card)
            place[i] = old
            hand[slot] = card
            if old == NO_CARD:
                del place[i]
            return
    raise AssertionError(f"card {card} not found")


def picked_with(rules_name: str, card: int, **options: Any) -> Table:
    """Seat 0 to move, picked, with ``card`` in slot 1."""
    t = Table.new(find_rules(rules_name, **options), random.Random(1))
    t.apply(PICK)
    give(t, 0, 1, card)
    t.validate()
    return t


# ----- 1. discarding a safety -----------------------------------------------------------


def test_only_bsd_refuses_to_discard_a_safety() -> None:
    assert not BSD.discard_safeties
    assert find_rules("classic", players=6).discard_safeties
    assert find_rules("milebymile", players=3).discard_safeties


@pytest.mark.parametrize(
    "name, options",
    [
        ("classic", {}),
        ("classic", {"players": 3}),
        ("classic", {"players": 6}),
        ("milebymile", {}),
        ("milebymile", {"players": 4, "team_mode": "2v2"}),
    ],
)
@pytest.mark.parametrize("safety", range(EXTRA_TANK, RIGHT_OF_WAY + 1))
def test_a_safety_may_be_discarded(name: str, options: dict[str, Any], safety: int) -> None:
    t = picked_with(name, safety, **options)
    assert t.check(Discard(1)) is None
    assert Discard(1) in t.legal_moves() and Use(1) in t.legal_moves()
    assert t.discards_safety(Discard(1)) and not t.discards_safety(Discard(0))
    outcome = t.apply(Discard(1))
    assert outcome.card == safety and not outcome.extra_turn
    assert t.discard[-1] == safety and t.to_move == 1
    assert safety not in t.tableaux[0].safeties
    t.validate(strict=True)


def test_bsd_still_refuses_it() -> None:
    t = Table.new(BSD, random.Random(1))
    t.apply(PICK)
    give(t, 0, 1, EXTRA_TANK)
    assert t.check(Discard(1)) == "discard a safety?"
    assert Discard(1) not in t.legal_moves() and not t.discards_safety(Discard(1))


def test_playable_with_always_discarding_off() -> None:
    """A safety can always be played, so milebymile's option refuses its
    discard as it refuses any playable card's."""
    t = picked_with("milebymile", DRIVING_ACE, always_discard=False)
    assert t.check(Discard(1)) == "that card is playable"
    assert Discard(1) not in t.legal_moves() and Use(1) in t.legal_moves()
    assert not t.discards_safety(Discard(1))


def test_a_discarded_safety_round_trips_in_a_save() -> None:
    session = Session.new(find_rules("classic", players=3), seed=3)
    session.play(PICK)
    give(session.table, 0, 1, PUNCTURE_PROOF)
    session.play(Discard(1))
    text = dumps(session)
    again = loads(text)
    assert again.table == session.table and again.table.discard[-1] == PUNCTURE_PROOF
    assert dumps(again) == text


COMPUTERS = [Heuristic, Easy, GreedyPlayer]


@pytest.mark.parametrize("cls", COMPUTERS, ids=lambda c: c.__name__)
@pytest.mark.parametrize(
    "name, options",
    [
        ("classic", {}),
        ("classic", {"players": 3}),
        ("classic", {"players": 6}),
        ("milebymile", {"players": 3}),
        ("milebymile", {"players": 4, "karma": True}),
    ],
)
def test_the_computers_never_discard_a_safety(
    cls: type[Any], name: str, options: dict[str, Any]
) -> None:
    """Over many seeded hands, though legal_moves offers it."""
    rules = find_rules(name, **options)
    offered = 0
    for seed in range(4):
        rng = random.Random(seed)
        table = Table.new(rules, rng)
        players = [cls(random.Random(seed * 10 + seat), seat) for seat in range(rules.players)]
        for hand in range(2):
            if hand:
                table.new_hand(rng)
            for player in players:
                start_hand(player, table)
            while table.phase != OVER:
                seat = table.current_player
                assert seat is not None
                offered += any(table.discards_safety(m) for m in table.legal_moves())
                move = choose(players[seat], table)
                assert not table.discards_safety(move), (cls.__name__, move)
                outcome = table.apply(move)
                for player in players:
                    observe(player, table, outcome)
    assert offered > 20


def test_the_expert_never_searches_a_safety_discard() -> None:
    rules = find_rules("classic", players=3)
    offered = 0
    for seed in range(120):
        rng = random.Random(seed)
        t = Table.new(rules, rng)
        players = [RandomPlayer(random.Random(seed + seat), seat) for seat in range(3)]
        for _ in range(rng.randrange(5, 60)):
            if t.phase == OVER:
                break
            seat = t.current_player
            assert seat is not None
            t.apply(choose(players[seat], t))
        if t.phase != PLAYING or PICK in t.legal_moves():
            continue
        legal = t.legal_moves()
        offered += any(t.discards_safety(m) for m in legal)
        assert not any(t.discards_safety(m) for m in distinct_moves(SeatView(t, t.to_move), legal))
    assert offered > 5
    # and a whole expert decision holding nothing but safeties and a 25
    t = picked_with("classic", EXTRA_TANK)
    for slot, card in zip(range(2, 7), (PUNCTURE_PROOF, DRIVING_ACE, RIGHT_OF_WAY, D25, GO)):
        give(t, 0, slot, card)
    give(t, 0, 0, D50)
    bot = Expert(random.Random(0), 0, budget=Budget(moves=300, worlds=2, seconds=None))
    start_hand(bot, t)
    move = choose(bot, t)
    assert not t.discards_safety(move)


def test_the_random_player_may_discard_a_safety() -> None:
    rules = find_rules("classic", players=2)
    discarded = 0
    for seed in range(6):
        rng = random.Random(seed)
        t = Table.new(rules, rng)
        players = [RandomPlayer(random.Random(seed + seat), seat) for seat in range(2)]
        while t.phase != OVER:
            seat = t.current_player
            assert seat is not None
            move = choose(players[seat], t)
            discarded += t.discards_safety(move)
            t.apply(move)
    assert discarded > 0


# the boards and the line mode ask a person first


class BoardWindow(fakewindow.FakeWindow):
    def __init__(self, keys: str) -> None:
        super().__init__(keys, 24, 80, prompt=(22, 0, 80), error=(23, 0))


def safety_session() -> Session:
    """classic, 2 seats: you to move, picked, Extra Tank in slot 1."""
    session = Session.new(find_rules("classic"), seed=8)
    session.play(PICK)
    give(session.table, 0, 1, EXTRA_TANK)
    return session


def board(session: Session, keys: str) -> BoardWindow:
    window = BoardWindow(keys)
    with pytest.raises(OutOfKeys):
        TableUi(window, session).run()  # type: ignore[arg-type]
    return window


def test_the_board_asks_and_n_changes_nothing() -> None:
    session = safety_session()
    before = session.table.copy()
    window = board(session, "d1\rn")
    assert "Discard a safety?" in window.prompts
    assert session.table == before and len(session.log) == 1
    assert window.prompts[-1].startswith(">>:Move:")


def test_the_board_asks_and_y_discards() -> None:
    session = safety_session()
    window = board(session, "d1\ry")
    assert "Discard a safety?" in window.prompts
    table = session.table
    assert EXTRA_TANK in table.discard and EXTRA_TANK not in table.hands[0]
    assert session.log[1].outcome.move == Discard(1)


def test_the_board_asks_nothing_for_other_cards_or_a_refused_discard() -> None:
    session = Session.new(find_rules("classic"), seed=8)
    give(session.table, 0, 1, EXTRA_TANK)
    window = board(session, "d1\r")  # not picked yet: refused, nothing asked
    assert "Discard a safety?" not in window.prompts
    assert "must pick first" in window.errors
    session = safety_session()
    give(session.table, 0, 2, D25)
    window = board(session, "d2\r")
    assert "Discard a safety?" not in window.prompts
    assert session.log[1].outcome.card == D25


def test_bsds_board_refuses_without_asking() -> None:
    session = Session.new(BSD, seed=8)
    session.play(PICK)
    give(session.table, 0, 1, EXTRA_TANK)
    window = fakewindow.FakeWindow("d1\r")
    with pytest.raises(OutOfKeys):
        ui.Ui(window, session).run()  # type: ignore[arg-type]
    assert "Discard a safety?" not in window.prompts
    assert any("discard a safety?" in line for line in window.lines())
    assert EXTRA_TANK in session.table.hands[0]


def line_mode(session: Session, script: str) -> str:
    out = io.StringIO()
    plain.play(session, stdin=io.BytesIO(script.encode()), stdout=out)
    return out.getvalue()


def test_the_line_mode_asks_n_keeps_y_discards() -> None:
    session = safety_session()
    before = session.table.copy()
    out = line_mode(session, "d 1\nn\n")
    assert "Discard a safety? " in out
    assert session.table == before
    session = safety_session()
    out = line_mode(session, "d 1\nmaybe\ny\n")
    assert "Answer y or n." in out
    assert session.log[1].outcome.move == Discard(1)
    assert EXTRA_TANK in session.table.discard


# ----- 2. Mile by Mile reshuffles whenever the deck runs out ------------------------------------


def run_out(t: Table) -> None:
    """The deck onto the discard pile (as if it had been played out)."""
    t.discard += t.deck
    t.deck = []
    t.validate()


def mbm(**options: Any) -> Table:
    t = Table.new(find_rules("milebymile", **options), random.Random(5))
    t.apply(PICK)
    t.apply(Discard(1))
    return t


def test_an_empty_deck_is_refilled_without_a_mileage_gain() -> None:
    t = mbm()
    run_out(t)
    assert t.can_supply() and t.check(PICK) is None  # nobody has any miles yet
    t.apply(PICK)
    assert t.notices == ["discard pile reshuffled"] and t.refills == 1 and t.discard == []
    t.apply(Discard(1))
    run_out(t)  # no mileage since the refill: it was refused before
    assert t.can_supply()
    t.apply(PICK)
    assert (t.refills, t.idle_refills) == (2, 1)
    t.validate()


def test_three_idle_refills_then_the_race_runs_out() -> None:
    t = mbm()
    for n in range(IDLE_REFILLS):
        run_out(t)
        t.apply(PICK)
        assert t.refills == n + 1 and t.idle_refills == n
        t.apply(Discard(1))
    run_out(t)
    assert not t.can_supply() and t.check(PICK) == "no more cards"
    # a mileage gain allows refills again, and counts afresh
    tab = t.tableaux[t.side_index(t.to_move)]
    tab.problems = []
    give(t, t.to_move, 1, D25)
    t.apply(Use(1))
    t.validate()
    assert t.can_supply()
    t.apply(PICK)
    assert t.idle_refills == 0 and t.refills == IDLE_REFILLS + 1
    # with no gain, and every hand played out, the race ends: nobody completes
    t = mbm()
    for _ in range(IDLE_REFILLS):
        run_out(t)
        t.apply(PICK)
        t.apply(Discard(1))
    run_out(t)
    while t.phase != OVER:
        seat = t.to_move
        slot = next(i for i, c in enumerate(t.hands[seat]) if c != NO_CARD)
        t.apply(Discard(slot))
        t.validate(strict=True)
    assert t.completing_side() is None and t.refills == IDLE_REFILLS


def held(t: Table, seat: int) -> int:
    return sum(c != NO_CARD for c in t.hands[seat])


def guard_lifted() -> Table:
    """Four seats: three idle refills hold the deck empty; six turns go by
    without picking (seats 3 and 0 two cards short, 1 and 2 one short);
    then seat 1 gains 25 miles and the guard lifts, seat 2 to move."""
    t = Table.new(find_rules("milebymile", players=4), random.Random(5))
    for _ in range(IDLE_REFILLS):
        run_out(t)
        t.apply(PICK)
        t.apply(Discard(1))
    run_out(t)
    assert t.to_move == 3 and t.check(PICK) == "no more cards"
    for _ in range(6):
        t.apply(Discard(next(i for i, c in enumerate(t.hands[t.to_move]) if c != NO_CARD)))
    assert [held(t, seat) for seat in range(4)] == [4, 5, 5, 4] and t.to_move == 1
    t.tableaux[t.side_index(1)].problems = []
    give(t, 1, 6, D25)
    t.apply(Use(6))
    t.validate()
    assert t.to_move == 2 and t.can_supply()
    return t


def test_after_the_guard_lifts_a_short_hand_picks_one_card_a_turn() -> None:
    # (it took two, where the written rules draw one a turn: only a coup
    # fourre's safety is replaced by a second card)
    t = guard_lifted()
    for seat, before in [(2, 5), (3, 4), (0, 4), (1, 4)]:
        assert t.to_move == seat and held(t, seat) == before
        drawn = t.apply(PICK).drawn
        assert len(drawn) == 1 and held(t, seat) == before + 1
        t.validate()
        t.apply(Discard(next(i for i, c in enumerate(t.hands[seat]) if c != NO_CARD)))
    assert [held(t, seat) for seat in range(4)] == [4, 4, 5, 4]


def test_a_coup_fourre_still_picks_two_cards_and_the_file_says_which() -> None:
    from test_table_milebymile import build as mbm_build
    from test_table_milebymile import use as mbm_use

    from mille.engine.cards import FLAT_TIRE, PUNCTURE_PROOF
    from mille.storage.savefile import table_from_dict, table_to_dict

    t = mbm_build(picked={0: FLAT_TIRE}, hands={1: [PUNCTURE_PROOF]})
    mbm_use(t, 0, FLAT_TIRE)
    t.apply(YES)
    assert t.owed and t.to_move == 1 and held(t, 1) == 5
    data = table_to_dict(t)
    assert "owed" not in data  # as files from before it meant: two cards
    again = table_from_dict(data, t.rules)
    assert again == t and again.owed
    for table in (t, again):
        assert len(table.apply(PICK).drawn) == 2 and not table.owed and held(table, 1) == 7
        table.validate()
    # a hand short after the guard: one card, which the file must say
    t = guard_lifted()
    data = table_to_dict(t)
    assert data["owed"] is False
    again = table_from_dict(data, t.rules)
    assert again == t and len(again.apply(PICK).drawn) == 1
    del data["owed"]
    assert table_from_dict(data, t.rules).owed  # (a file from before: two cards)
    t.owed = True
    t.apply(PICK)
    t.owed = True
    with pytest.raises(
        ValueError, match="^a coup fourre's card owed to a mover who cannot pick it$"
    ):
        t.validate()


def test_reshuffle_off_never_refills() -> None:
    t = mbm(reshuffle=False)
    run_out(t)
    assert not t.can_supply() and t.check(PICK) == "no more cards"


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda t: setattr(t, "idle_refills", IDLE_REFILLS), "impossible reshuffle counters"),
        (lambda t: setattr(t, "idle_refills", -1), "impossible reshuffle counters"),
        (lambda t: setattr(t, "idle_refills", 1), "impossible reshuffle counters"),  # 1 refill
    ],
)
def test_validate_checks_the_idle_refills(change: Any, message: str) -> None:
    t = mbm()
    run_out(t)
    t.apply(PICK)
    t.validate()
    change(t)
    with pytest.raises(ValueError, match=f"^{message}$"):
        t.validate()
    t = mbm(reshuffle=False)
    t.idle_refills = 1
    with pytest.raises(ValueError, match="^reshuffle counters without the reshuffle rule$"):
        t.validate()


def test_idle_refills_are_saved_only_when_set() -> None:
    session = Session.new(find_rules("milebymile", players=3), seed=2)
    assert "idle_refills" not in session_to_dict(session)["table"]
    table = session.table
    for _ in range(2):
        table.discard += table.deck
        table.deck = []
        session.play(PICK)
        session.play(Discard(1))
        while session.computer_to_move:
            session.computer_move()
    data = session_to_dict(session)
    assert table.idle_refills and data["table"]["idle_refills"] == table.idle_refills
    again = loads(dumps(session))
    assert again.table == table and again.table.idle_refills == table.idle_refills
    data["table"]["idle_refills"] = IDLE_REFILLS
    with pytest.raises(SaveError, match="^impossible game: impossible reshuffle counters$"):
        session_from_dict(data)
    data["table"]["idle_refills"] = "2"
    with pytest.raises(SaveError, match="^table.idle_refills: expected an integer"):
        session_from_dict(data)


def test_an_older_save_with_reshuffles_loads() -> None:
    session = load_session(str(V3 / "milebymile-3-karma.json"))
    assert session.table.refills and session.table.idle_refills == 0


@pytest.mark.parametrize("seed", range(3))
def test_ordinary_races_never_meet_the_guard(seed: int) -> None:
    """Standard computers over whole races with reshuffles."""
    rules = find_rules("milebymile", players=4, distance=3000)
    rng = random.Random(seed)
    table = Table.new(rules, rng)
    players = [Heuristic(random.Random(seat), seat) for seat in range(4)]
    for player in players:
        start_hand(player, table)
    most = 0
    while table.phase != OVER:
        seat = table.current_player
        assert seat is not None
        outcome = table.apply(choose(players[seat], table))
        most = max(most, table.idle_refills)
        for player in players:
            observe(player, table, outcome)
    assert table.refills > 0 and most < IDLE_REFILLS - 1
    assert table.completing_side() is not None


# ----- 3. any race distance from 300 to 3000 --------------------------------------------------


@pytest.mark.parametrize("distance", [300, 301, 1010, 2999, 3000])
def test_any_distance_without_perfect_crossing(distance: int) -> None:
    rules = find_rules("milebymile", distance=distance, perfect_crossing=False)
    assert rules.target == distance


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"distance": 1010}, "perfect crossing needs a race distance in 25s"),
        (
            {"distance": 301, "perfect_crossing": True},
            "perfect crossing needs a race distance in 25s",
        ),
        ({"distance": 299, "perfect_crossing": False}, "race distance must be 300 to 3000"),
        ({"distance": 3001, "perfect_crossing": False}, "race distance must be 300 to 3000"),
        ({"distance": 3025}, "race distance must be 300 to 3000"),
    ],
)
def test_distance_messages(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError, match=f"^{message}$"):
        find_rules("milebymile", **kwargs)


def test_the_command_line_takes_1010() -> None:
    options = parse_args(["--distance", "1010", "--no-perfect-crossing", "--rules", "milebymile"])
    assert options.rules is not None and options.rules.target == 1010
    assert not options.rules.perfect_crossing


def test_a_race_to_1010_is_played_saved_and_shown() -> None:
    rules = find_rules("milebymile", players=3, distance=1010, perfect_crossing=False)
    session = Session.new(rules, seed=4, humans=())
    done = 0
    for _ in range(3000):
        table = session.table
        if table.phase == OVER:
            side = table.completing_side()
            if side is not None:
                tab = table.tableaux[side - 1]
                assert tab.mileage >= 1010 and table.hand_score(side).miles == 1010
                done += 1
            session.next_hand()
            table = session.table
            table.validate(strict=True)
            again = loads(dumps(session))
            assert again.table == table and again.rules.target == 1010
            if done:
                break
            continue
        session.computer_move()
    assert done
    assert any(total % 25 for total in session.table.totals)  # 1010 is not in 25s
    session.computers.pop(0)
    while not (session.table.phase == PLAYING and session.human_to_move):
        if session.table.phase == OVER:
            session.next_hand()
        else:
            session.computer_move()
    text = line_mode(session, "r\n")
    assert "of 1010 miles" in text
    window = BoardWindow("")
    TableUi(window, session).render()  # type: ignore[arg-type]
    assert "1010" in window.line(0)


# ----- 4. classic with 6 players races to 700 with the extension ----------------------------


def test_six_players_race_to_700_and_the_scorer_is_asked() -> None:
    # seat 4 (side 2) brings its side to exactly 700
    t = classic(6, picked={4: D100}, to_move=4, sides={2: {"battle": [GO], "miles": [D100] * 6}})
    assert t.target == 700
    use(t, 4, D100)
    assert t.phase == EXTENSION and t.asked == 4 and t.current_player == 4
    t.apply(YES)
    assert t.target == 1000 and t.extender == 2 and t.phase == PLAYING and t.to_move == 5
    t.validate()


def test_four_players_still_race_to_1000() -> None:
    t = classic(4, picked={0: D100}, sides={1: {"battle": [GO], "miles": [D100] * 6}})
    assert t.target == 1000
    use(t, 0, D100)
    assert t.phase == PLAYING and t.to_move == 1


def test_an_older_six_player_save_plays_on_under_its_rules() -> None:
    path = V3 / "classic-6-targets.json"
    text = path.read_text()
    assert json.loads(text)["rules"]["distance"] == 1000
    session = load_session(str(path))
    assert (session.rules.target, session.rules.extension) == (1000, None)
    assert session.table.target == 1000 and dumps(session) == text
    while session.table.phase != OVER:
        table = session.table
        if session.computer_to_move:
            session.computer_move()
        else:
            legal = [m for m in table.legal_moves() if not table.discards_safety(m)]
            session.play(next((m for m in legal if isinstance(m, Use)), legal[-1]))
        assert session.table.phase != EXTENSION
    session.next_hand()
    assert session.table.target == 1000 and session.rules.extension is None
    assert loads(dumps(session)).rules == session.rules


def test_a_six_player_save_written_now_loads_as_written() -> None:
    session = Session.new(find_rules("classic", players=6), seed=1)
    data = session_to_dict(session)
    assert data["rules"]["distance"] == 700
    again = loads(dumps(session))
    assert again.rules == find_rules("classic", players=6)
    data["rules"]["distance"] = 900
    with pytest.raises(
        SaveError, match="^rules.distance: classic with 6 players has 700, not 900$"
    ):
        session_from_dict(data)


# ----- 5. classic: a safety in turn does not give a Go --------------------------------------------


def session_of(t: Table) -> Session:
    """``t`` with you at seat 0 and the standard computer at seat 1."""
    bot = Heuristic(random.Random(1), 1)
    start_hand(bot, t)
    return Session(table=t, computers={1: bot}, deal_rng=random.Random(2))


def test_a_safety_in_turn_leaves_the_side_needing_a_go() -> None:
    t = classic(
        picked={0: PUNCTURE_PROOF}, hands={0: [D100, GO]}, sides={1: {"battle": [GO, FLAT_TIRE]}}
    )
    use(t, 0, PUNCTURE_PROOF)
    tab = t.tableaux[0]
    assert tab.battle == [GO] and t.discard[-1] == FLAT_TIRE and tab.needs_go
    assert t.model.tops(tab)[0] == STOP  # the board never shows Go here
    pick(t)
    assert t.check(Use(slot_of(t, 0, D100))) == "cannot move now"
    assert t.check(Use(slot_of(t, 0, GO))) is None
    use(t, 0, GO)
    assert tab.battle == [GO, GO] and not tab.needs_go and t.model.rolling(tab)
    assert t.model.tops(tab)[0] == GO


def test_right_of_way_still_rolls_after_a_safety_in_turn() -> None:
    t = classic(
        picked={0: PUNCTURE_PROOF},
        hands={0: [D100]},
        sides={1: {"battle": [GO, FLAT_TIRE], "safeties": [RIGHT_OF_WAY]}},
    )
    use(t, 0, PUNCTURE_PROOF)
    pick(t)
    assert t.check(Use(slot_of(t, 0, D100))) is None
    assert t.model.tops(t.tableaux[0])[0] == GO


def test_right_of_way_in_turn_on_a_stop_rolls() -> None:
    t = classic(picked={0: RIGHT_OF_WAY}, hands={0: [D100]}, sides={1: {"battle": [GO, STOP]}})
    use(t, 0, RIGHT_OF_WAY)
    pick(t)
    assert t.check(Use(slot_of(t, 0, D100))) is None


def test_after_a_coup_fourre_the_go_beneath_counts() -> None:
    t = classic(
        picked={1: FLAT_TIRE},
        to_move=1,
        hands={0: [PUNCTURE_PROOF, D100]},
        sides={1: {"battle": [GO]}},
    )
    use(t, 1, FLAT_TIRE)
    t.apply(YES)
    tab = t.tableaux[0]
    assert tab.battle == [GO] and not tab.needs_go and t.model.rolling(tab)
    pick(t)
    assert t.check(Use(slot_of(t, 0, D100))) is None


def test_a_coup_fourre_restores_the_need_for_a_go() -> None:
    """Stopped after a safety in turn, hit again, coup fourre: still stopped."""
    t = classic(
        picked={0: PUNCTURE_PROOF},
        hands={0: [DRIVING_ACE, D100, GO]},
        sides={1: {"battle": [GO, FLAT_TIRE]}},
    )
    use(t, 0, PUNCTURE_PROOF)
    pick(t)
    t.apply(Discard(next(i for i, c in enumerate(t.hands[0]) if c in (D25, D50, REPAIRS))))
    pick(t)
    give(t, 1, 1, 7)  # Accident
    use(t, 1, 7)
    assert t.current_player == 0
    t.apply(YES)  # Driving Ace, coup fourre
    tab = t.tableaux[0]
    assert tab.battle == [GO] and tab.needs_go and not t.model.rolling(tab)
    pick(t)
    assert t.check(Use(slot_of(t, 0, D100))) == "cannot move now"


def test_the_need_for_a_go_is_checked_and_saved() -> None:
    t = classic(picked={0: PUNCTURE_PROOF}, sides={1: {"battle": [GO, FLAT_TIRE]}})
    use(t, 0, PUNCTURE_PROOF)
    session = session_of(t)
    data = session_to_dict(session)
    assert data["table"]["tableaux"][0]["needs_go"] is True
    assert "needs_go" not in data["table"]["tableaux"][1]
    assert loads(dumps(session)).table == t
    data["table"]["tableaux"][0]["needs_go"] = "yes"
    with pytest.raises(SaveError, match=r"^table.tableaux\[0\].needs_go: expected true or false"):
        session_from_dict(data)
    bad = t.copy()
    bad.tableaux[1].needs_go = True
    with pytest.raises(ValueError, match="^side 2: needs a Go again without a Go on its"):
        bad.validate()
    m = mbm()
    m.tableaux[0].needs_go = True
    with pytest.raises(ValueError, match="^side 1: needs a Go again without a Go on its"):
        m.validate()


def test_the_computers_play_the_go() -> None:
    """The standard and easy computers see the side stopped and play Go."""
    for cls in (Heuristic, Easy, GreedyPlayer):
        t = classic(
            picked={0: PUNCTURE_PROOF},
            hands={0: [GO, D100, D75, D200, D25]},
            sides={1: {"battle": [GO, FLAT_TIRE]}},
        )
        use(t, 0, PUNCTURE_PROOF)
        pick(t)
        bot = cls(random.Random(3), 0)
        start_hand(bot, t)
        legal = t.legal_moves()
        assert all(t.hands[0][m.slot] > D200 for m in legal if isinstance(m, Use))
        if cls is not Easy:
            move = choose(bot, t)
            assert isinstance(move, Use) and t.hands[0][move.slot] == GO, cls


def test_the_board_and_the_line_mode_show_stop() -> None:
    t = classic(picked={0: PUNCTURE_PROOF}, sides={1: {"battle": [GO, FLAT_TIRE]}})
    use(t, 0, PUNCTURE_PROOF)
    session = session_of(t)
    text = line_mode(session, "r\n")
    you = next(line for line in text.splitlines() if line.startswith("Side 1"))
    assert "; Stop;" in you and "Go" not in you.split("miles")[1].split(";")[1]
    window = BoardWindow("")
    TableUi(window, session).render()  # type: ignore[arg-type]
    row = next(line for line in window.lines() if line.startswith(" 1 ") or line.startswith("1 "))
    assert "Stop" in row and " Go " not in row
