"""The N-seat engine (mille.table) under the bsd preset is BSD's engine.

(a) Lock-step: seeded random hands played through ``mille.engine`` and
``mille.table`` together (same deal, same random choices), comparing the
legal moves, the refusal message of every possible move and the whole
observable state after every move, hand after hand (game ends included).
(b) The rule parts of the OpenBSD traces replayed through ``mille.table``.

``MILLE_TABLE_HANDS`` sets how many lock-step hands to play (default 200; the
slow variant plays 4,000 more).
"""

from __future__ import annotations

import json
import os
import random

import pytest

from mille import engine
from mille.cards import NO_CARD
from mille.rules import BSD, find_rules
from mille.table import (
    DISCARDS,
    NO,
    OVER,
    PICK,
    USES,
    YES,
    Answer,
    Discard,
    IllegalMove,
    Move,
    Pick,
    Table,
    Use,
)

HANDS = int(os.environ.get("MILLE_TABLE_HANDS", "200"))

ENGINE_MOVES: tuple[engine.Move, ...] = (
    (engine.PICK,) + engine.USES + engine.DISCARDS)
TABLE_MOVES: tuple[Move, ...] = (PICK,) + USES + DISCARDS


def to_table(move: engine.Move) -> Move:
    if isinstance(move, engine.Pick):
        return PICK
    if isinstance(move, engine.Use):
        return USES[move.slot]
    return DISCARDS[move.slot]


def engine_view(g: engine.GameState) -> object:
    players = []
    for n, p in enumerate(g.players):
        players.append((
            p.hand, p.battle, p.speed, p.battle_pile, p.speed_pile, p.miles,
            p.safeties, p.coups, p.can_go, p.battle_window, p.speed_window,
            p.mileage, p.nummiles, g.hand_score(n)._values(), g.total(n), p.games,
        ))
    phase = {engine.Phase.PLAYING: "playing", engine.Phase.EXTENSION: "extension",
             engine.Phase.HAND_OVER: "hand over"}[g.phase]
    return (players, g.deck, g.discard, g.end, g.to_move, g.starter, phase,
            g.extender, g.hand_over, g.game_over)


def table_view(t: Table) -> object:
    players = []
    for n in (0, 1):
        tab = t.tableaux[n]
        s = t.hand_score(n + 1)
        assert s.perfect_crossing == 0
        players.append((
            t.hands[n], tab.top, tab.speed_top, tab.battle, tab.speed, tab.miles,
            tab.safeties, tab.coups, tab.can_go, tab.battle_window, tab.speed_window,
            tab.mileage, tab.nummiles,
            (s.miles, s.safeties, s.all_four, s.coups, s.trip, s.safe_trip,
             s.delayed_action, s.extension, s.shut_out),
            t.total(n + 1), t.games[n],
        ))
    return (players, t.deck, t.discard, t.target, t.to_move, t.starter, t.phase,
            t.asked, t.hand_over, t.game_over)


def compare(g: engine.GameState, t: Table, where: str) -> None:
    assert engine_view(g) == table_view(t), where
    for em, tm in zip(ENGINE_MOVES, TABLE_MOVES):
        assert g.check(em) == t.check(tm), f"{where}: {tm}"
    expected = [to_table(m) for m in g.legal_moves()]
    if g.phase is engine.Phase.EXTENSION:
        expected = [YES, NO]
        assert t.current_player == g.extender
    elif g.phase is engine.Phase.PLAYING:
        assert t.current_player == g.to_move
        assert t.check(YES) == "no question pending"
    assert sorted(map(str, t.legal_moves())) == sorted(map(str, expected)), where


def lockstep(seed: int, hands: int, ordering: bool = False) -> int:
    """Play ``hands`` hands in lock-step; returns the moves compared."""
    deal_g, deal_t = random.Random(seed), random.Random(seed)
    choose = random.Random(seed * 7919 + 1)
    g = engine.GameState.new_game(deal_g, ordering=ordering)
    t = Table.new(BSD, deal_t, ordering=ordering)
    moves = 0
    for hand in range(hands):
        if hand:
            g.new_hand(deal_g)
            t.new_hand(deal_t)
        compare(g, t, f"seed {seed} hand {hand} deal")
        while not g.hand_over:
            where = f"seed {seed} hand {hand} move {moves}"
            if g.phase is engine.Phase.EXTENSION:
                yes = choose.random() < 0.5
                g.decide_extension(yes)
                t.apply(Answer(yes))
            else:
                if choose.random() < 0.05 and ordering:
                    on = not g.ordering
                    g.set_ordering(on)
                    t.set_ordering(on)
                    compare(g, t, where + " (ordering)")
                move = choose.choice(g.legal_moves())
                result = g.apply(move)
                outcome = t.apply(to_table(move))
                assert (outcome.seat, outcome.card, outcome.drawn, outcome.coup_fourre,
                        outcome.extra_turn) == (result.player, result.card, result.drawn,
                                                result.coup_fourre, result.extra_turn), where
            t.validate()
            compare(g, t, where)
            moves += 1
    return moves


@pytest.mark.parametrize("seed", range(4))
def test_lockstep_random_hands(seed: int) -> None:
    assert lockstep(seed, HANDS // 4) > 0


def test_lockstep_with_ordering() -> None:
    assert lockstep(99, 40, ordering=True) > 0


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


def test_dict_round_trip_plays_on_identically() -> None:
    rng = random.Random(5)
    t = Table.new(BSD, random.Random(5))
    for step in range(400):
        if t.hand_over:
            t.new_hand(random.Random(step))
        data = json.loads(json.dumps(t.to_dict()))
        back = Table.from_dict(data)
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

from mille.battle import TOP  # noqa: E402

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
        out.update({
            f"h{n}": ",".join(map(str, t.hands[n])), f"b{n}": str(tab.top),
            f"s{n}": str(tab.speed_top), f"m{n}": str(tab.mileage),
            f"g{n}": str(int(tab.can_go)), f"nb{n}": str(int(tab.battle_window)),
            f"ns{n}": str(int(tab.speed_window)), f"sf{n}": safeties or "-",
            f"nm{n}": ",".join(map(str, tab.nummiles)),
        })
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
    if not any(c != NO_CARD and (c >= 15 or TOP.could_play(t, seat, c))
               for seat in (0, 1) for c in t.hands[seat]):
        return "stuck"
    assert all(c == NO_CARD for c in t.hands[t.to_move])
    return "empty-hand"


def score_cells(t: Table, seat: int) -> list[int]:
    s = t.hand_score(seat + 1)
    return [s.miles, s.safeties, s.all_four, s.coups, s.trip, s.safe_trip,
            s.delayed_action, s.extension, s.shut_out, s.total, t.total(seat + 1),
            t.games[seat]]


def replay_trace(text: str) -> tuple[int, int, int]:
    """Replay one trace's rule lines; returns (hands, moves, refusals)."""
    t: Table | None = None
    hands = moves = refusals = 0
    lines = [line.split(" ") for line in text.split("\n")
             if line and not line.startswith("#")]
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
                assert drawn == before[len(t.deck):][::-1] == cards, where
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


@pytest.mark.parametrize("name", ["mille.table", "mille.battle"])
def test_doctests(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 104))
def test_lockstep_many_hands(seed: int) -> None:
    """The heavier variant: 4 x 1000 more hands (about a minute)."""
    assert lockstep(seed, 1000) > 0
