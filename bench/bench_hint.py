"""Benchmark: can a hint's "better move" be trusted?

    python bench/bench_hint.py [--rules classic] [--seats 2] [--positions 200]
        [--keep 0.35] [--worlds 400] [--seed S] [--workers 2]

The hint (``mille.players.advice``) names another move than the standard
computer's only when a confident analysis (``search.confirm``) finds it
clearly better.  This measures how often such a call holds:

1. **Positions.**  Hands played by the standard computer in every seat;
   each real decision (more than one distinct move, not a pick) is kept
   with chance ``--keep`` until ``--positions`` are kept.
2. **The hint.**  ``advice.advise`` on the deciding seat's view, as `H`
   asks it: whether the expert's search leaned to another move, whether
   the confident analysis called it clearly better (a *clear call*).
3. **Re-analysis.**  Each clear call is played out again, the rival
   against the standard move, in ``--worlds`` other worlds (another random
   stream, the same knowledge: what the seat sees) with no early stop; and
   by an oracle that knows the true hands (the true table, its deck
   shuffled again).  The call holds when the rival's mean value is higher;
   also counted: when the re-analysis is itself confident (2.5 standard
   errors).

Prints the shares with their 95% Wilson intervals, and the hands won in
100 the clear calls claimed and the re-analyses found.  A benchmark, not a
test.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from bench_levels import mean_interval, wilson

from mille.engine.rules import Rules, find_rules
from mille.engine.table import OVER, PICK, PLAYING, Table
from mille.engine.view import SeatView
from mille.players import advice
from mille.players.base import Player, choose, observe, start_hand
from mille.players.registry import make_computer
from mille.players.search import Sampler, Trial, confirm, distinct_moves


@dataclass
class Result:
    """One position: what the hint did, and (a clear call) what the
    re-analyses found."""

    leaned: bool  # the expert's search leaned to another move
    clear: bool  # the confident analysis called it clearly better
    claimed: float = math.nan  # hands won in 100 the call claimed
    worlds: int = 0  # worlds of the confident analysis
    again_z: float = math.nan  # the re-analysis: standard errors
    again_hands: float = math.nan
    true_z: float = math.nan  # the oracle on the true hands
    true_hands: float = math.nan


def positions(rules: Rules, seed: int, count: int, keep: float) -> list[Table]:
    """``count`` decisions met in hands of the standard computers."""
    master = random.Random(seed)
    found: list[Table] = []
    while len(found) < count:
        table = Table.new(rules, random.Random(master.getrandbits(64)))
        seats: list[Player] = [
            make_computer(rules, s, random.Random(master.getrandbits(64)))
            for s in range(rules.players)
        ]
        for p in seats:
            start_hand(p, table)
        while table.phase != OVER and len(found) < count:
            seat = table.current_player
            assert seat is not None
            view = SeatView(table, seat)
            if (
                table.phase == PLAYING
                and PICK not in view.legal_moves()
                and len(distinct_moves(view, view.legal_moves())) > 1
                and master.random() < keep
            ):
                found.append(table.copy())
            outcome = table.apply(choose(seats[seat], table))
            for p in seats:
                observe(p, table, outcome)
    return found


class _Oracle(Sampler):
    """Worlds that are the true table, its deck shuffled again."""

    def __init__(self, table: Table, seat: int) -> None:
        super().__init__(SeatView(table, seat), objective="hands")
        self.table = table

    def world(self, rng: random.Random) -> Table:
        world = self.table.copy()
        rng.shuffle(world.deck)
        if world.rules.reshuffle:
            world.seed = rng.getrandbits(32)
        return world


def judge(args: tuple[Table, int, int]) -> Result:
    table, worlds, seed = args
    seat = table.current_player
    assert seat is not None
    view = SeatView(table, seat)
    move, verdict = advice.advise(view)
    if verdict is None:
        return Result(False, False)
    if not verdict.better:
        return Result(True, False, worlds=verdict.worlds)
    fixed = Trial(bar=math.inf, most=worlds, seconds=None)
    rng = random.Random(seed)
    standard, rival = verdict.standard, verdict.rival
    again = confirm(Sampler(view, objective="hands"), standard, rival, rng, fixed)
    true = confirm(_Oracle(table, seat), standard, rival, rng, fixed)
    return Result(
        True,
        True,
        verdict.hands * 100,
        verdict.worlds,
        again.z,
        again.hands * 100,
        true.z,
        true.hands * 100,
    )


def share(label: str, k: int, n: int) -> str:
    p, lo, hi = wilson(k, n)
    return f"  {label}: {k}/{n} = {p:.1%} (95% {lo:.1%}-{hi:.1%})"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--keep", type=float, default=0.35)
    parser.add_argument("--worlds", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    rules = find_rules(args.rules, players=args.seats)
    began = time.perf_counter()
    tables = positions(rules, args.seed, args.positions, args.keep)
    jobs = [(t, args.worlds, args.seed * 7919 + i) for i, t in enumerate(tables)]
    with multiprocessing.Pool(args.workers) as pool:
        results = pool.map(judge, jobs, chunksize=1)
    n = len(results)
    leaned = [r for r in results if r.leaned]
    clear = [r for r in results if r.clear]
    print(
        f"{args.rules} ({rules.players} seats): {n} positions of the standard computers, "
        f"seed {args.seed}, re-analysis {args.worlds} worlds"
    )
    print(share("the search leaned to another move", len(leaned), n))
    print(share("clear calls (named by the hint)", len(clear), n))
    if leaned:
        worlds = sorted(r.worlds for r in leaned)
        print(f"  worlds of the confident analysis: median {worlds[len(worlds) // 2]}")
    if clear:
        print(
            share(
                "clear calls the re-analysis finds better",
                sum(r.again_z > 0 for r in clear),
                len(clear),
            )
        )
        print(
            share("  ... and clearly (z >= 2.5)", sum(r.again_z >= 2.5 for r in clear), len(clear))
        )
        print(
            share(
                "clear calls the true hands find better",
                sum(r.true_z > 0 for r in clear),
                len(clear),
            )
        )
        print(
            share("  ... and clearly (z >= 2.5)", sum(r.true_z >= 2.5 for r in clear), len(clear))
        )
        for label, values in (
            ("claimed", [r.claimed for r in clear]),
            ("re-analysis", [r.again_hands for r in clear]),
            ("true hands", [r.true_hands for r in clear]),
        ):
            mean, half = mean_interval(values)
            print(f"  hands won in 100 by the named move, {label}: {mean:+.2f} (±{half:.2f})")
    print(f"  ({time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    main()
