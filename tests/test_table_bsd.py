"""The N-seat engine (mille.engine.table) under the bsd preset is BSD's engine.

(a) Seeded random hands (game ends included) checked at every move against
an oracle written here from BSD's rules (``docs/rules.md``, ``mille.6``
sections 3-6), independent of ``mille.engine.battle``: the refusal message of
every possible move (and that ``legal_moves`` is exactly the moves with
none), the effects of the move on both tableaux, the turn, the hand's end
(comp.c's ``canplay``, written again here) and every score row; plus
determinism, copies and the dict round trip.
(b) The rule parts of the OpenBSD traces replayed through ``mille.engine.table``.

``MILLE_TABLE_HANDS`` sets how many random hands to play (default 200; the
slow variant plays 4,000 more).
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
from collections import Counter

import pytest

from mille.engine.cards import (
    ACCIDENT,
    D200,
    END_OF_LIMIT,
    EXTRA_TANK,
    FLAT_TIRE,
    GASOLINE,
    GO,
    NO_CARD,
    OUT_OF_GAS,
    REPAIRS,
    RIGHT_OF_WAY,
    SPARE_TIRE,
    SPEED_LIMIT,
    STOP,
)
from mille.engine.rules import BSD, Rules, find_rules
from mille.engine.table import (
    COUP,
    DISCARDS,
    EXTENSION,
    NO,
    OVER,
    PICK,
    PLAYING,
    USES,
    YES,
    Answer,
    Discard,
    HandScore,
    IllegalMove,
    Move,
    Outcome,
    Pick,
    Table,
    Use,
)
from mille.engine.tableau import Tableau
from mille.storage.savefile import table_from_dict, table_to_dict

HANDS = int(os.environ.get("MILLE_TABLE_HANDS", "200"))
ALL_MOVES: tuple[Move, ...] = (PICK,) + USES + DISCARDS + (YES, NO)

# ----- (a) an oracle from the spec --------------------------------------------------

NAMES = (
    "25",
    "50",
    "75",
    "100",
    "200",
    "Out of Gas",
    "Flat Tire",
    "Accident",
    "Stop",
    "Speed Limit",
    "Gasoline",
    "Spare Tire",
    "Repairs",
    "Go",
    "End of Limit",
    "Extra Tank",
    "Puncture Proof",
    "Driving Ace",
    "Right of Way",
)
MILES = {0: 25, 1: 50, 2: 75, 3: 100, 4: 200}
REPAIRED = {GASOLINE: OUT_OF_GAS, SPARE_TIRE: FLAT_TIRE, REPAIRS: ACCIDENT}
PROTECTS = {15: OUT_OF_GAS, 16: FLAT_TIRE, 17: ACCIDENT, 18: STOP}  # safety: its hazard
SAFETY_FOR = {hazard: safety for safety, hazard in PROTECTS.items()}


def is_safety(c: int) -> bool:
    return 15 <= c <= 18


def is_coup(tab: Tableau, safety: int) -> bool:
    """The OpenBSD rule: the window open and the top its hazard, or Right of
    Way with the Speed-Limit window open."""
    return (tab.battle_window and tab.top == PROTECTS[safety]) or (
        tab.speed_window and safety == RIGHT_OF_WAY
    )


def spec_message(t: Table, move: Move) -> str | None:
    """Section 4: the first refusal, in the spec's order."""
    if t.phase == OVER:
        return "the hand is over"
    if t.phase == EXTENSION:
        return None if isinstance(move, Answer) else "extension decision pending"
    if isinstance(move, Answer):
        return "no question pending"
    seat = t.to_move
    hand, me, opp = t.hands[seat], t.tableaux[seat], t.tableaux[1 - seat]
    if isinstance(move, Pick):
        if not t.deck:
            return "no more cards"
        return "already picked" if hand[0] != NO_CARD else None
    card = hand[move.slot]
    picked = not t.deck or hand[0] != NO_CARD
    if isinstance(move, Discard):
        # BSD's haspicked looks at slot 1 for a safety
        if t.deck and hand[1 if is_safety(card) else 0] == NO_CARD:
            return "must pick first"
        if card == NO_CARD:
            return "no card there"
        return "discard a safety?" if is_safety(card) else None
    if is_safety(card):
        return None if picked or is_coup(me, card) else "must pick first"
    if not picked:
        return "must pick first"
    if card == NO_CARD:
        return "no card there"
    if card in MILES:
        if card == D200 and me.nummiles[D200] == 2:
            return "only two 200's per hand"
        if MILES[card] >= 75 and me.speed_top == SPEED_LIMIT:
            return "limit of 50"
        if MILES[card] >= 50 and me.mileage + MILES[card] > t.target:
            return f"puts you over {t.target}"
        return None if me.can_go else "cannot move now"
    if card in REPAIRED:
        return None if me.top == REPAIRED[card] else f'can\'t play "{NAMES[card]}"'
    if card == GO:
        if me.top in (GO, OUT_OF_GAS, FLAT_TIRE, ACCIDENT):
            return f'cannot play "Go" on a "{NAMES[me.top]}"'
        if RIGHT_OF_WAY in me.safeties:
            return '"Go" implied by "Right of Way"'
        return None
    if card == END_OF_LIMIT:
        return None if me.speed_top == SPEED_LIMIT else "not limited"
    if card == SPEED_LIMIT:
        if opp.speed_top == SPEED_LIMIT:
            return "opponent has limit"
        return "opponent is protected" if RIGHT_OF_WAY in opp.safeties else None
    if not opp.can_go:
        return "opponent cannot go"
    return "opponent is protected" if SAFETY_FOR[card] in opp.safeties else None


def spec_canplay(t: Table, seat: int, card: int) -> bool:
    """comp.c's ``canplay`` (section 6's deck-empty end), written again."""
    me, opp = t.tableaux[seat], t.tableaux[1 - seat]
    if card in MILES:
        if card == D200 and me.nummiles[D200] == 2:
            return False
        if MILES[card] >= 75 and me.speed_top == SPEED_LIMIT:
            return False
        if MILES[card] >= 50 and me.mileage + MILES[card] > t.target:
            return False
        return me.can_go
    if card == SPEED_LIMIT:
        return (
            opp.speed_top != SPEED_LIMIT
            and RIGHT_OF_WAY not in opp.safeties
            and opp.mileage + 50 < t.target
        )
    if card in SAFETY_FOR:
        return opp.can_go and SAFETY_FOR[card] not in opp.safeties
    if card in REPAIRED:
        return me.top == REPAIRED[card]
    if card == GO:  # BSD's is_repair() is true of an empty pile too
        return not me.can_go and me.top in (GASOLINE, SPARE_TIRE, REPAIRS, STOP, NO_CARD)
    if card == END_OF_LIMIT:
        return me.speed_top == SPEED_LIMIT
    return is_safety(card)


def spec_score(t: Table, seat: int) -> HandScore:
    """Section 6's rows for the side of ``seat``."""
    me, opp = t.tableaux[seat], t.tableaux[1 - seat]
    n = len(me.safeties)
    rows = dict(
        miles=me.mileage, safeties=100 * n, all_four=300 if n == 4 else 0, coups=300 * sum(me.coups)
    )
    if t.phase == OVER and me.mileage == t.target:
        rows.update(
            trip=400,
            safe_trip=300 if me.nummiles[D200] == 0 else 0,
            delayed_action=0 if t.deck else 300,
            extension=200 if t.target == 1000 else 0,
            shut_out=500 if opp.mileage == 0 else 0,
        )
    return HandScore(**rows)


def tableau_view(tab: Tableau) -> tuple[object, ...]:
    return (
        tab.battle[:],
        tab.speed[:],
        tab.miles[:],
        tab.safeties[:],
        tab.coups[:],
        tab.mileage,
        tab.nummiles[:],
        tab.top,
        tab.speed_top,
        tab.can_go,
        tab.battle_window,
        tab.speed_window,
    )


def spec_effects(before: Table, move: Move) -> tuple[list[Tableau], int, str]:
    """Sections 3, 5 and 6: both tableaux, who moves and the phase after
    ``move`` (before the deck-empty end, which ``check_turn`` checks)."""
    tabs = [tab.copy() for tab in before.tableaux]
    seat = before.current_player
    assert seat is not None
    if isinstance(move, Answer):
        if move.yes:
            return tabs, before.to_move, PLAYING
        return tabs, before.to_move, OVER
    me, opp = tabs[seat], tabs[1 - seat]
    if isinstance(move, Pick):
        me.battle_window = me.speed_window = False
        return tabs, seat, PLAYING
    card = before.hands[seat][move.slot]
    other = 1 - seat
    if isinstance(move, Discard):
        return tabs, other, PLAYING
    if is_safety(card):
        if is_coup(me, card):
            me.coups[card - EXTRA_TANK] = True
        me.safeties.append(card)
        if me.top == PROTECTS[card]:
            me.top, me.can_go = GO, True
        if card == RIGHT_OF_WAY:
            if me.speed_top == SPEED_LIMIT:
                me.speed_top = NO_CARD
            if me.top in (STOP, NO_CARD) or (not me.can_go and me.top in REPAIRED):
                me.top, me.can_go = GO, True
        return tabs, seat, PLAYING
    if card in MILES:
        me.miles.append(card)
        me.nummiles[card] += 1
        me.mileage += MILES[card]
        if me.mileage == before.target:
            return tabs, other, EXTENSION if before.target == 700 else OVER
    elif card in REPAIRED:
        me.battle.append(card)
        me.top = card
        me.can_go = RIGHT_OF_WAY in me.safeties
    elif card == GO:
        me.battle.append(card)
        me.top, me.can_go = GO, True
    elif card == END_OF_LIMIT:
        me.speed.append(card)
        me.speed_top = END_OF_LIMIT
    elif card == SPEED_LIMIT:
        opp.speed.append(card)
        opp.speed_top, opp.speed_window = SPEED_LIMIT, True
    else:
        opp.battle.append(card)
        opp.top, opp.can_go, opp.battle_window = card, False, True
    return tabs, other, PLAYING


def check_messages(t: Table, where: str) -> None:
    """Every possible move: the spec's message; ``legal_moves`` = those with none."""
    legal = t.legal_moves()
    for move in ALL_MOVES:
        expected = spec_message(t, move)
        assert t.check(move) == expected, f"{where}: {move}"
        assert (move in legal) == (expected is None), f"{where}: {move}"
    assert len(legal) == len(set(legal)) and all(m in ALL_MOVES for m in legal), where
    if t.phase == EXTENSION:
        assert legal == [YES, NO] and t.current_player == t.asked, where
    elif t.phase == PLAYING:
        assert t.current_player == t.to_move and t.asked is None, where
    else:
        assert t.current_player is None and legal == [], where


def check_state(t: Table, where: str) -> None:
    t.validate(strict=True)
    assert t.phase != COUP and t.offer is None, where  # bsd's coups are the window's
    for seat in (0, 1):
        score = t.hand_score(seat + 1)
        assert score == spec_score(t, seat), f"{where}: side {seat + 1}"
        assert t.total(seat + 1) == t.totals[seat] + score.total, where
    # the deck-empty end (section 6)
    if t.phase == PLAYING and not t.deck:
        assert any(spec_canplay(t, s, c) for s in (0, 1) for c in t.hands[s] if c >= 0), where
        assert any(c != NO_CARD for c in t.hands[t.to_move]), where
    if t.phase == OVER and not any(tab.mileage == t.target for tab in t.tableaux):
        assert not t.deck, where
        stuck = not any(spec_canplay(t, s, c) for s in (0, 1) for c in t.hands[s] if c >= 0)
        assert stuck or all(c == NO_CARD for c in t.hands[t.to_move]), where


def check_move(before: Table, move: Move, outcome: Outcome, t: Table, where: str) -> None:
    seat = before.current_player
    assert outcome.seat == seat and outcome.move == move, where
    tabs, to_move, phase = spec_effects(before, move)
    assert [tableau_view(tab) for tab in t.tableaux] == [tableau_view(tab) for tab in tabs], where
    deck_end = not t.deck and phase == PLAYING and t.phase == OVER
    assert t.phase == phase or deck_end, where
    if phase == EXTENSION:
        assert t.asked == seat, where
    if phase != OVER:
        assert t.to_move == to_move, where
    hand, old = t.hands[seat], before.hands[seat]
    if isinstance(move, Answer):
        assert outcome == Outcome(seat, move), where
        assert t.target == (1000 if move.yes else 700), where
        assert t.hands == before.hands and t.deck == before.deck, where
        return
    assert t.target == before.target, where
    if isinstance(move, Pick):
        # top of deck to P; a second card to slot 1 if it was empty too
        n = 2 if old[1] == NO_CARD and len(before.deck) > 1 else 1
        drawn = tuple(before.deck[::-1][:n])
        assert outcome == Outcome(seat, move, drawn=drawn), where
        assert t.deck == before.deck[:-n], where
        # BSD never sorts a pick; a double draw cut short by the empty deck
        # leaves its card in slot 1 (the hole is closed at once)
        if old[1] != NO_CARD:
            assert hand == [drawn[0]] + old[1:], where
        elif n == 2:
            assert hand == list(drawn) + old[2:], where
        else:
            assert hand == [NO_CARD, drawn[0]] + old[2:] and not t.deck, where
        return
    card = old[move.slot]
    safety = is_safety(card)
    coup = safety and sum(t.tableaux[seat].coups) > sum(before.tableaux[seat].coups)
    assert outcome == Outcome(
        seat, move, card=card, coup_fourre=coup, extra_turn=safety and isinstance(move, Use)
    ), where
    assert t.deck == before.deck, where
    assert t.discard == before.discard + ([card] if isinstance(move, Discard) else []), where
    assert Counter(hand) == Counter(old) - Counter([card]) + Counter([NO_CARD]), where
    if t.ordering and seat == 0:
        assert hand == sorted(hand), where
    elif not safety or isinstance(move, Discard):
        assert hand[0] == NO_CARD, where  # the picked card filled the hole


def random_hands(seed: int, hands: int, ordering: bool = False) -> int:
    """Play ``hands`` random hands, every move checked; returns the moves."""
    deal = random.Random(seed)
    choose = random.Random(seed * 7919 + 1)
    t = Table.new(BSD, deal, ordering=ordering)
    moves = 0
    for hand in range(hands):
        if hand:
            totals = [t.total(1), t.total(2)]
            games, over, starter = t.games[:], t.game_over, t.starter
            assert over == (max(totals) >= 5000)
            t.new_hand(deal)
            assert t.starter == t.to_move == 1 - starter
            if over:
                won = [int(a > b) for a, b in (totals, totals[::-1])]
                assert t.games == [g + w for g, w in zip(games, won)] and t.totals == [0, 0]
            else:
                assert t.games == games and t.totals == totals
        where = f"seed {seed} hand {hand} deal"
        assert t.target == 700 and len(t.deck) == 101 - 12 and t.discard == []
        check_state(t, where)
        check_messages(t, where)
        while not t.hand_over:
            where = f"seed {seed} hand {hand} move {moves}"
            if ordering and choose.random() < 0.05:
                t.set_ordering(not t.ordering)
                if t.ordering:
                    assert t.hands[0] == sorted(t.hands[0])
                check_messages(t, where + " (ordering)")
            before = t.copy()
            move = choose.choice(t.legal_moves())
            illegal = [m for m in ALL_MOVES if t.check(m) is not None]
            if illegal:
                bad = choose.choice(illegal)
                with pytest.raises(IllegalMove) as refused:
                    t.apply(bad)
                assert str(refused.value) == t.check(bad) and t == before, where
            outcome = t.apply(move)
            check_move(before, move, outcome, t, where)
            check_state(t, where)
            check_messages(t, where)
            moves += 1
    return moves


@pytest.mark.parametrize("seed", range(4))
def test_random_hands_follow_the_spec(seed: int) -> None:
    assert random_hands(seed, HANDS // 4) > 0


def test_random_hands_with_ordering() -> None:
    assert random_hands(99, 30, ordering=True) > 0


def test_the_oracle_sees_a_wrong_message() -> None:
    t = Table.new(BSD, random.Random(1))
    assert spec_message(t, Use(1)) == t.check(Use(1)) == "must pick first"
    t.apply(PICK)
    assert spec_message(t, PICK) == "already picked"
    assert spec_message(t, Discard(0)) is None


def play_recorded(seed: int, steps: int) -> tuple[Table, list[Outcome]]:
    deal, choose = random.Random(seed), random.Random(seed + 1)
    t = Table.new(BSD, deal)
    log = []
    for _ in range(steps):
        if t.hand_over:
            t.new_hand(deal)
        log.append(t.apply(choose.choice(t.legal_moves())))
    return t, log


def test_the_same_seed_plays_the_same_game() -> None:
    a, log_a = play_recorded(11, 600)
    b, log_b = play_recorded(11, 600)
    assert log_a == log_b and a == b and table_to_dict(a) == table_to_dict(b)
    c, log_c = play_recorded(12, 600)
    assert log_c != log_a and c != a


def test_a_copy_plays_on_alone() -> None:
    t, _ = play_recorded(13, 150)
    snapshot = json.dumps(table_to_dict(t))
    c = t.copy()
    rng = random.Random(3)
    for step in range(300):
        if c.hand_over:
            c.new_hand(random.Random(step))
        c.apply(rng.choice(c.legal_moves()))
        c.set_ordering(step % 7 == 0)
    assert json.dumps(table_to_dict(t)) == snapshot
    assert c != t


def test_illegal_move_carries_the_message() -> None:
    t = Table.new(BSD, random.Random(1))
    with pytest.raises(IllegalMove, match="^must pick first$"):
        t.apply(Use(1))
    with pytest.raises(IllegalMove, match="^no question pending$"):
        t.apply(Answer(True))
    t.apply(Pick())
    assert t.check(PICK) == "already picked"
    assert find_rules("bsd") is BSD


def test_copy_is_independent() -> None:
    t = Table.new(BSD, random.Random(2))
    c = t.copy()
    assert c == t
    c.apply(PICK)
    assert c != t
    assert t.hands[0][0] == NO_CARD


@pytest.mark.parametrize(
    "rules",
    [BSD, find_rules("classic", players=3), find_rules("milebymile", players=4, karma=True)],
    ids=["bsd", "classic", "milebymile"],
)
def test_a_copy_has_every_field(rules: Rules) -> None:
    """``copy`` sets each field itself (not through ``__init__``): every one,
    the ones derived from the rules too; the last move's notices and cards
    drawn start empty."""
    t = Table.new(rules, random.Random(4))
    t.apply(PICK)
    t.notices.append("discard pile reshuffled")
    c = t.copy()
    assert t.drawn and c.drawn == () and c.notices == []
    for f in dataclasses.fields(Table):
        if f.name not in ("notices", "drawn"):
            assert getattr(c, f.name) == getattr(t, f.name), f.name
    for name in ("hands", "tableaux", "deck", "discard", "totals", "games", "set_aside", "marks"):
        assert getattr(c, name) is not getattr(t, name), name


def test_dict_round_trip_plays_on_identically() -> None:
    rng = random.Random(5)
    t = Table.new(BSD, random.Random(5))
    for step in range(400):
        if t.hand_over:
            t.new_hand(random.Random(step))
        data = json.loads(json.dumps(table_to_dict(t)))
        back = table_from_dict(data, t.rules)
        assert back == t
        moves = t.legal_moves()
        assert back.legal_moves() == moves
        move = rng.choice(moves)
        t.apply(move)
        back.apply(move)
        assert back == t


def test_discard_keeps_bsd_pick_rule() -> None:
    t = Table.new(BSD, random.Random(3))
    assert t.check(Discard(1)) == "must pick first"
    t.apply(PICK)
    assert t.check(Discard(0)) is None
    t.apply(Discard(0))
    assert t.to_move == 1
    assert t.phase != OVER


# ----- (b) the OpenBSD traces, rule lines only ----------------------------------

import gzip  # noqa: E402
from pathlib import Path  # noqa: E402

from mille.engine.battle import TOP  # noqa: E402

TRACES = Path(__file__).parent / "data" / "bsd-traces"
RULE_KEYS = ("h", "b", "s", "m", "g", "nb", "ns", "sf", "nm")


def trace_paths() -> list[Path]:
    where = Path(os.environ.get("MILLE_BSD_TRACES", TRACES))
    return sorted(where.glob("*.trace")) + sorted(where.glob("*.trace.gz"))


def parse(token: str) -> Move:
    if token == "P":
        return PICK
    slot = int(token[1:])
    return USES[slot] if token[0] == "U" else DISCARDS[slot]


def rule_digest(t: Table) -> dict[str, str]:
    out: dict[str, str] = {}
    for n in (0, 1):
        tab = t.tableaux[n]
        safeties = ",".join(f"{c}*" if tab.coups[c - 15] else str(c) for c in tab.safeties)
        out.update(
            {
                f"h{n}": ",".join(map(str, t.hands[n])),
                f"b{n}": str(tab.top),
                f"s{n}": str(tab.speed_top),
                f"m{n}": str(tab.mileage),
                f"g{n}": str(int(tab.can_go)),
                f"nb{n}": str(int(tab.battle_window)),
                f"ns{n}": str(int(tab.speed_window)),
                f"sf{n}": safeties or "-",
                f"nm{n}": ",".join(map(str, tab.nummiles)),
            }
        )
    out["deck"] = str(len(t.deck))
    out["disc"] = str(t.discard[-1] if t.discard else NO_CARD)
    out["end"] = str(t.target)
    out["turn"] = str(t.to_move)
    return out


def end_reason(t: Table) -> str:
    assert t.hand_over
    if any(tab.mileage == t.target for tab in t.tableaux):
        return "trip"
    assert not t.deck
    if not any(
        c != NO_CARD and (c >= 15 or TOP.could_play(t, seat, c))
        for seat in (0, 1)
        for c in t.hands[seat]
    ):
        return "stuck"
    assert all(c == NO_CARD for c in t.hands[t.to_move])
    return "empty-hand"


def score_cells(t: Table, seat: int) -> list[int]:
    s = t.hand_score(seat + 1)
    return [
        s.miles,
        s.safeties,
        s.all_four,
        s.coups,
        s.trip,
        s.safe_trip,
        s.delayed_action,
        s.extension,
        s.shut_out,
        s.total,
        t.total(seat + 1),
        t.games[seat],
    ]


def replay_trace(text: str) -> tuple[int, int, int]:
    """Replay one trace's rule lines; returns (hands, moves, refusals)."""
    t: Table | None = None
    hands = moves = refusals = 0
    lines = [line.split(" ") for line in text.split("\n") if line and not line.startswith("#")]
    i = 0
    while i < len(lines):
        kind, *args = lines[i]
        where = f"line {i + 1}: {' '.join(lines[i])}"
        i += 1
        if kind == "HAND":
            start = int(args[1].split("=")[1])
            deals = [list(map(int, lines[i][2:])), list(map(int, lines[i + 1][2:]))]
            deck = list(map(int, lines[i + 2][2:]))
            i += 3
            if t is None:
                t = Table.new(BSD, random.Random(0))
                t.to_move = t.starter = start
            else:
                t.new_hand(random.Random(0))
                assert t.starter == start, where
            t.hands = deals
            t.deck = deck[::-1]
            t.validate()
        elif kind == "S":
            assert t is not None
            theirs = dict(a.split("=", 1) for a in args)
            ours = rule_digest(t)
            for key, value in ours.items():
                assert theirs[key] == value, f"{where}: {key}"
        elif kind == "X":
            assert t is not None and t.current_player == 0
            refusals += 1
            message = " ".join(args[2:])
            assert t.check(parse(args[1])) == message, where
        elif kind == "M":
            assert t is not None and t.phase == "playing"
            seat, move = int(args[0]), parse(args[1])
            cards = list(map(int, args[2:]))
            assert t.current_player == seat, where
            before = t.deck[:]
            if isinstance(move, Pick):
                drawn = list(t.apply(move).drawn)
                assert drawn == before[len(t.deck) :][::-1] == cards, where
            else:
                assert isinstance(move, (Use, Discard))
                assert [t.hands[seat][move.slot]] == cards, where
                t.apply(move)
            t.validate()
            moves += 1
        elif kind == "EXT":
            assert t is not None and t.phase == "extension", where
            assert t.current_player == int(args[0]), where
            t.apply(Answer(args[1] == "1"))
        elif kind == "END":
            assert t is not None
            assert end_reason(t) == args[0], where
            hands += 1
        elif kind == "SCORE":
            assert t is not None
            assert score_cells(t, int(args[0])) == list(map(int, args[1:])), where
        elif kind == "GAME":
            assert t is not None and t.game_over, where
            after = t.copy()
            after.new_hand(random.Random(0))
            won = [a - b for a, b in zip(after.games, t.games)]
            assert (won.index(1) if 1 in won else -1) == int(args[0]), where
            assert after.games == [int(args[1]), int(args[2])], where
        elif kind == "STOP":
            break
        elif kind in ("R", "EQ", "EOF", "SESSION", "MILLE-BSD-TRACE"):
            pass
        else:
            raise AssertionError(f"unknown line {where}")
    return hands, moves, refusals


def test_there_are_traces() -> None:
    assert len(trace_paths()) >= 10


@pytest.mark.parametrize("path", trace_paths(), ids=lambda p: p.name)
def test_bsd_trace_replays(path: Path) -> None:
    data = path.read_bytes()
    text = gzip.decompress(data).decode() if path.suffix == ".gz" else data.decode()
    hands, moves, _ = replay_trace(text)
    assert hands > 0 and moves > 0


def test_a_wrong_trace_fails() -> None:
    path = trace_paths()[0]
    data = path.read_bytes()
    text = gzip.decompress(data).decode() if path.suffix == ".gz" else data.decode()
    bad = text.replace("X 0 P already picked", "X 0 P no more cards", 1)
    assert bad != text
    with pytest.raises(AssertionError):
        replay_trace(bad)


@pytest.mark.parametrize("name", ["mille.engine.table", "mille.engine.battle"])
def test_doctests(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 104))
def test_many_random_hands_follow_the_spec(seed: int) -> None:
    """The heavier variant: 4 x 1000 more hands."""
    assert random_hands(seed, 1000) > 0
