"""Benchmark: how good the expert's decisions are, one by one, against an oracle.

    python bench/bench_decisions.py [--rules bsd] [--hands 24] [--rollouts 200]
        [--seed S] [--workers 2] [--players expert,sees-hands,sees-safeties,budget-x4]
        [--dump FILE]

Whole hands measure a level (``bench_levels.py``) but slowly: a hand has
some 25 decisions, most of them easy, and its result is mostly the luck of
the deal.  This looks at the decisions themselves:

1. **Record.**  The expert plays ``--hands`` hands against the standard
   computer (the expert's seat alternating); each real decision of the
   expert (more than one distinct move) is kept: the true table, the
   expert's memory, the other seats' Numneed.
2. **Oracle.**  Each distinct move of each decision is played out
   ``--rollouts`` times by the standard computers, on the true hands with
   the deck shuffled again (the same shuffles for every move).  A move's
   worth is the mean sign of the hand's result for the expert's side (+1
   won, -1 lost, 0 even) and its mean score difference.
3. **Players.**  Each measured player decides each recorded decision
   afresh; its gain is its move's worth less the standard computer's
   move's, in both measures, averaged over the decisions (with a 95%
   interval).  Half the sign gain is, to first order, the share of hands
   it wins more than the standard computer per decision.

Players: ``expert`` (as it plays, without its time cap), ``sees-hands``
(the expert told the other hands: the worth of its guesses' being exact,
at the same budget), ``sees-safeties`` (told only the safeties each other
hand holds, its guesses otherwise its own), ``filter-safeties`` (its worlds'
safeties dealt from its guesses, as before it kept them apart),
``budget-x4`` and ``budget-half`` (four times, half the simulated moves),
``conf-X`` (departing from the standard move at X standard errors),
``oracle-halves`` (the best move by half the oracle's playouts, measured
on the other half: what knowing the hands and a large budget can gain),
``objective-hands`` and ``objective-points`` (the expert valuing its
playouts by the hand won or lost, or by the points: ``search.OBJECTIVES``),
``no-guess`` (no guesses at the other hands: its worlds dealt at random
from the unseen cards, the safeties too), ``cut-K`` for K 16, 24, 32 or
48 (its playouts cut after K moves and scored by the learned value of
the position: ``search.CUT_BUDGET``).
Each player after the first is also compared with the first, decision by
decision (the difference of their sign gains, with a 95% interval).

``--twice`` asks each player a second time, with another random stream:
the stability of its departures from the standard move (how many a second
search of the same position makes again, to the same move).
``--dump FILE`` writes each decision's standard move, chosen move and
gains, by player (JSON), to see which kinds of departure gain.

It also prints how good the expert's guesses at the other hands are: the
share of their cards a guess holds, on average, against a random guess.

Only the expert's own moves are asked, on states its own play reached: a
measure of decisions at the margin, not of a whole level.  A benchmark,
not a test.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import math
import multiprocessing
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bench_levels import UNCAPPED, mean_interval, percentile

from mille.engine.cards import EXTRA_TANK, NO_CARD
from mille.engine.rules import Rules, find_rules
from mille.engine.table import EXTENSION, NO, OVER, PICK, PLAYING, YES, Move, Table
from mille.engine.view import SeatView
from mille.players.base import Player, choose, observe, start_hand
from mille.players.beliefs import move_key
from mille.players.computer import BsdComputer
from mille.players.expert import Expert
from mille.players.search import CUT_BUDGET, Sampler, distinct_moves, expand
from mille.selfplay import PLAYERS


@dataclass
class Decision:
    """One real decision of the expert, as it was."""

    table: Table
    expert: Expert
    needs: dict[int, list[int]]  # each BSD computer's Numneed, as it really was


def candidates(table: Table) -> list[Move]:
    if table.phase == EXTENSION:
        return [YES, NO]
    return distinct_moves(SeatView(table, table.to_move), table.legal_moves())


def key(table: Table, move: Move) -> str:
    seat = table.current_player
    assert seat is not None
    slot = getattr(move, "slot", None)
    return move_key(move, table.hands[seat][slot] if slot is not None else NO_CARD)


def record(args: tuple[Rules, int, int]) -> list[Decision]:
    """The expert's real decisions in ``hands`` hands from ``seed``."""
    rules, seed, hands = args
    master = random.Random(seed)
    decisions = []
    for h in range(hands):
        table = Table.new(rules, random.Random(master.getrandbits(64)))
        mine = h % rules.players
        expert = Expert(random.Random(master.getrandbits(64)), mine, budget=UNCAPPED)
        seats: list[Player] = [
            expert
            if seat == mine
            else PLAYERS["standard"](rules, random.Random(master.getrandbits(64)), seat)
            for seat in range(rules.players)
        ]
        for player in seats:
            start_hand(player, table)
        while table.phase != OVER:
            seat = table.current_player
            assert seat is not None
            if (
                seat == mine
                and (
                    table.phase == EXTENSION
                    or table.phase == PLAYING
                    and PICK not in table.legal_moves()
                )
                and len(candidates(table)) > 1
            ):
                needs = {s: p.need[:] for s, p in enumerate(seats) if isinstance(p, BsdComputer)}
                decisions.append(Decision(table.copy(), copy.deepcopy(expert), needs))
            outcome = table.apply(choose(seats[seat], table))
            for player in seats:
                observe(player, table, outcome)
    return decisions


class _Oracle(Sampler):
    def value(self, t: Table) -> float:
        scores = [t.hand_score(side).total for side in range(1, t.rules.sides + 1)]
        return scores[self.side - 1] - max(s for i, s in enumerate(scores) if i != self.side - 1)


def oracle(args: tuple[Decision, int, int]) -> dict[str, list[float]]:
    """Each move's score differences over ``rollouts`` reshuffles of the true deck."""
    decision, rollouts, seed = args
    table = decision.table
    seat = table.current_player
    assert seat is not None
    sampler = _Oracle(SeatView(table, seat), None, decision.needs)
    moves = candidates(table)
    rng = random.Random(seed)
    worth: dict[str, list[float]] = {key(table, m): [] for m in moves}
    for _ in range(rollouts):
        world = table.copy()
        rng.shuffle(world.deck)
        if world.rules.reshuffle:
            world.seed = rng.getrandbits(32)
        playout_seed = rng.getrandbits(64)
        for move in moves:
            worth[key(table, move)].append(sampler.playout(world, move, playout_seed)[0])
    return worth


def standard_move(decision: Decision) -> str:
    """The standard computer's move there, as the expert works it out."""
    table = decision.table
    expert = decision.expert
    sampler = Sampler(SeatView(table, expert.seat), expert.beliefs, expert.needs)
    return key(table, sampler.base_move(99, candidates(table)))


def decide(args: tuple[Decision, str, int]) -> tuple[str, float]:
    """A measured player's move at a decision, and its time."""
    decision, player, seed = args
    table = decision.table
    expert = copy.deepcopy(decision.expert)
    expert.rng = random.Random(seed)
    if player == "budget-x4":
        expert.budget = dataclasses.replace(
            UNCAPPED, moves=UNCAPPED.moves * 4, extra=UNCAPPED.extra * 4
        )
    elif player == "filter-safeties":
        expert.track_safeties = False
    elif player.startswith("conf-"):
        expert.budget = dataclasses.replace(UNCAPPED, confidence=float(player[5:]))
    elif player == "budget-half":
        expert.budget = dataclasses.replace(
            UNCAPPED, moves=UNCAPPED.moves // 2, extra=UNCAPPED.extra // 2
        )
    elif player.startswith("cut-"):
        expert.budget = dataclasses.replace(CUT_BUDGET, horizon=int(player[4:]), seconds=None)
    elif player == "no-guess":
        expert.beliefs = {}
        expert.track_safeties = False
    elif player.startswith("objective-"):
        expert.objective = player[len("objective-") :]
    elif player == "sees-hands":
        expert.beliefs = {
            s: [[c for c in hand if c != NO_CARD]]
            for s, hand in enumerate(table.hands)
            if s != expert.seat
        }
    elif player == "sees-safeties":
        expert.track_safeties = False
        for seat, guesses in expert.beliefs.items():
            held = [c for c in table.hands[seat] if c >= EXTRA_TANK]
            room = sum(c != NO_CARD for c in table.hands[seat]) - len(held)
            expert.beliefs[seat] = [[c for c in g if c < EXTRA_TANK][:room] + held for g in guesses]
    began = time.perf_counter()
    move = choose(expert, table)
    return key(table, move), time.perf_counter() - began


def guessed(decision: Decision, seed: int) -> tuple[float, float]:
    """The share of the other hands' cards its guesses hold, on average, and
    the share a guess dealt at random from the unseen cards would hold."""
    table, expert = decision.table, decision.expert
    rng = random.Random(seed)
    pool = expand(SeatView(table, expert.seat).unseen())
    right = chance = 0.0
    others = [s for s in expert.beliefs if s < len(table.hands)]
    for seat in others:
        true = Counter(c for c in table.hands[seat] if c != NO_CARD)
        size = max(1, sum(true.values()))
        guesses = expert.beliefs[seat]
        right += sum(sum((Counter(g) & true).values()) for g in guesses) / len(guesses) / size
        chance += (
            sum(
                sum((Counter(rng.sample(pool, min(size, len(pool)))) & true).values())
                for _ in range(20)
            )
            / 20
            / size
        )
    n = max(1, len(others))
    return right / n, chance / n


def _sign(v: float) -> int:
    return (v > 0) - (v < 0)


def gains(
    worths: Sequence[dict[str, list[float]]], standard: Sequence[str], chosen: Sequence[str]
) -> tuple[list[float], list[float]]:
    """Per decision: the chosen move's sign and points gain over the standard move."""
    signs, points = [], []
    for worth, base, move in zip(worths, standard, chosen):
        n = len(worth[base])
        signs.append((sum(map(_sign, worth[move])) - sum(map(_sign, worth[base]))) / n)
        points.append((sum(worth[move]) - sum(worth[base])) / n)
    return signs, points


def halves(
    worths: Sequence[dict[str, list[float]]], standard: Sequence[str]
) -> tuple[list[float], list[float]]:
    """The oracle's best move by one half of its playouts, measured on the other."""
    signs, points = [], []
    for worth, base in zip(worths, standard):
        for pick, judge in (
            (slice(0, None, 2), slice(1, None, 2)),
            (slice(1, None, 2), slice(0, None, 2)),
        ):
            score = {m: sum(map(_sign, v[pick])) for m, v in worth.items()}
            best = max(score, key=lambda m: score[m])
            if score[best] <= score[base]:
                best = base
            n = len(worth[base][judge])
            signs.append(
                (sum(map(_sign, worth[best][judge])) - sum(map(_sign, worth[base][judge]))) / n
            )
            points.append((sum(worth[best][judge]) - sum(worth[base][judge])) / n)
    return signs, points


def stability(standard: Sequence[str], first: Sequence[str], second: Sequence[str]) -> str:
    """How often a second search departs from the standard move as the
    first did: the shares of decisions, with 95% intervals."""
    n = len(standard)
    dep1 = [a != s for a, s in zip(first, standard)]
    dep2 = [b != s for b, s in zip(second, standard)]
    same = [d and a == b for d, a, b in zip(dep1, first, second)]

    def share(flags: Sequence[bool]) -> str:
        mean, half = mean_interval([float(f) for f in flags])
        return f"{mean:.1%} (±{half:.1%})"

    confirmed = sum(same) / max(1, sum(dep1))
    return (
        f"twice: departs {share(dep1)} then {share(dep2)}; departs to the same move in both "
        f"{share(same)} of {n} decisions; {confirmed:.0%} of its departures made again"
    )


def line(
    label: str,
    signs: list[float],
    points: list[float],
    departs: float,
    times: list[float] | None = None,
) -> str:
    mean, half = mean_interval(signs)
    text = (
        f"  {label:14s} departs {departs:5.1%}  sign gain {mean:+.4f} "
        f"(±{half:.4f})  points {sum(points) / len(points):+6.2f}"
    )
    if times:
        text += (
            f"  median {percentile(times, 0.5) * 1000:.0f} ms, "
            f"p95 {percentile(times, 0.95) * 1000:.0f} ms"
        )
    return text


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rules", default="bsd")
    parser.add_argument("--seats", type=int, default=None)
    parser.add_argument("--hands", type=int, default=24)
    parser.add_argument("--rollouts", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--players", default="expert,sees-hands,sees-safeties,budget-x4,oracle-halves"
    )
    parser.add_argument("--dump", help="write each decision's moves and gains (JSON)")
    parser.add_argument(
        "--twice", action="store_true", help="ask each player twice: its departures' stability"
    )
    args = parser.parse_args(argv)
    dumps: dict[str, list[dict[str, object]]] = {}
    rules = find_rules(args.rules, players=args.seats)
    players = args.players.split(",")
    for player in players:
        if player not in (
            "expert",
            "filter-safeties",
            "sees-hands",
            "sees-safeties",
            "budget-x4",
            "budget-half",
            "oracle-halves",
            "objective-hands",
            "objective-points",
            "no-guess",
        ) and not (player.startswith("conf-") or player in [f"cut-{k}" for k in (16, 24, 32, 48)]):
            parser.error(f"unknown player {player!r}")
    began = time.perf_counter()
    jobs = max(1, args.workers) * 2
    sizes = [args.hands // jobs + (i < args.hands % jobs) for i in range(jobs)]
    with multiprocessing.Pool(args.workers) as pool:
        decisions = [
            d
            for part in pool.map(
                record, [(rules, args.seed * 1009 + i, n) for i, n in enumerate(sizes) if n]
            )
            for d in part
        ]
        worths = pool.map(
            oracle,
            [(d, args.rollouts, args.seed * 7919 + i) for i, d in enumerate(decisions)],
            chunksize=4,
        )
        standard = pool.map(standard_move, decisions, chunksize=8)
        print(
            f"{args.rules} ({rules.players} seats): {len(decisions)} decisions of the expert "
            f"in {args.hands} hands, {args.rollouts} oracle playouts a move, seed {args.seed}"
        )
        shares = [guessed(d, i) for i, d in enumerate(decisions)]
        print(
            f"  its guesses hold {sum(r for r, _ in shares) / len(shares):.1%} of the other "
            f"hands' cards (a random guess {sum(c for _, c in shares) / len(shares):.1%})"
        )
        first: list[float] | None = None
        for player in players:
            if player == "oracle-halves":
                signs, points = halves(worths, standard)
                print(line(player, signs, points, math.nan))
                continue
            results = pool.map(
                decide,
                [(d, player, args.seed * 31 + i) for i, d in enumerate(decisions)],
                chunksize=4,
            )
            chosen = [r[0] for r in results]
            signs, points = gains(worths, standard, chosen)
            if args.dump:
                dumps[player] = [
                    dict(standard=b, chosen=c, sign=g, points=p)
                    for b, c, g, p in zip(standard, chosen, signs, points)
                ]
            departs = sum(c != s for c, s in zip(chosen, standard)) / len(chosen)
            print(line(player, signs, points, departs, [r[1] for r in results]))
            if first is None:
                first = signs
            else:
                mean, half = mean_interval([a - b for a, b in zip(signs, first)])
                print(f"    less {players[0]}: sign gain {mean:+.4f} (±{half:.4f})")
            if args.twice:
                again = pool.map(
                    decide,
                    [(d, player, args.seed * 37 + 1_000_003 + i) for i, d in enumerate(decisions)],
                    chunksize=4,
                )
                print("    " + stability(standard, chosen, [r[0] for r in again]))
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as out:
            json.dump(dumps, out)
    print(f"  ({time.perf_counter() - began:.0f} s)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
