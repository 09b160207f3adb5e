"""Benchmark: how long a person waits for a round of computer seats.

    python bench/bench_round.py [--rules milebymile] [--seats 9] [--rounds 20]
        [--seed S] [--cap SECONDS] [--budget full|cut] [--horizon K]

Plays hands over self-play with seat 0 standing in for the person (the
standard computer, its own thinking not counted) and every other seat an
expert as it plays in a game, under its time cap (``Budget.seconds``,
0.9 s a decision unless ``--cap`` gives another; ``--budget full`` or
``cut``: its playouts played out or cut after ``--horizon`` moves,
``search.FULL_BUDGET`` and ``CUT_BUDGET``; the default, its own).  A round is the time
from seat 0's move until seat 0 is to decide again: the other seats'
decisions and every expert's watching of every move, seat 0's included.
Prints the median, 90th percentile and slowest round, how they split
between thinking and watching, and the experts' times for their real
decisions (more than one legal move).  The
figures depend on the machine and its load: run it on a quiet machine,
under ``nice -n 10`` when sharing one.  A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import time
from collections.abc import Sequence

from mille.engine.rules import find_rules
from mille.engine.table import OVER, Table
from mille.players.base import Player, choose, observe, start_hand
from mille.players.expert import DEFAULT_BUDGET, Expert
from mille.players.search import CUT_BUDGET, FULL_BUDGET
from mille.selfplay import PLAYERS


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(q * len(ordered) + 0.999999) - 1))]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rules", default="milebymile")
    parser.add_argument("--seats", type=int, default=9)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--cap",
        type=float,
        default=DEFAULT_BUDGET.seconds,
        help="the expert's time cap a decision, in seconds",
    )
    parser.add_argument("--budget", choices=("default", "full", "cut"), default="default")
    parser.add_argument("--horizon", type=int, default=None, help="with --budget cut")
    args = parser.parse_args(argv)
    rules = find_rules(args.rules, players=args.seats)
    budget = {"default": DEFAULT_BUDGET, "full": FULL_BUDGET, "cut": CUT_BUDGET}[args.budget]
    budget = dataclasses.replace(budget, seconds=args.cap)
    if args.horizon is not None:
        budget = dataclasses.replace(budget, horizon=args.horizon)
    master = random.Random(args.seed)
    rounds: list[tuple[float, float, float]] = []  # (round, thinking, watching)
    decisions: list[float] = []  # the experts' real decisions (more than one legal move)
    while len(rounds) < args.rounds:
        table = Table.new(rules, random.Random(master.getrandbits(64)))
        seats: list[Player] = [PLAYERS["standard"](rules, random.Random(master.getrandbits(64)), 0)]
        seats += [
            Expert(random.Random(master.getrandbits(64)), seat, budget=budget)
            for seat in range(1, rules.players)
        ]
        for player in seats:
            start_hand(player, table)
        began: float | None = None
        others = False  # another seat moved since seat 0's move
        thinking = watching = 0.0
        while table.phase != OVER and len(rounds) < args.rounds:
            seat = table.current_player
            assert seat is not None
            if seat == 0 and began is not None and others:
                rounds.append((time.perf_counter() - began, thinking, watching))
                began = None
            real = len(table.legal_moves()) > 1
            start = time.perf_counter()
            move = choose(seats[seat], table)
            if seat == 0:
                if began is None:
                    began = time.perf_counter()
                    others = False
                    thinking = watching = 0.0
            else:
                others = True
                spent = time.perf_counter() - start
                thinking += spent
                if real:
                    decisions.append(spent)
            outcome = table.apply(move)
            start = time.perf_counter()
            for player in seats:
                observe(player, table, outcome)
            watching += time.perf_counter() - start
    times = [r for r, _, _ in rounds]
    print(
        f"{args.rules} ({rules.players} seats), the expert capped at {args.cap} s, "
        f"horizon {budget.horizon}, "
        f"seed {args.seed}: {len(rounds)} rounds of {rules.players - 1} computer seats"
    )
    print(
        f"  a round: median {statistics.median(times):.2f} s, 90th percentile "
        f"{percentile(times, 0.9):.2f} s, slowest {max(times):.2f} s"
    )
    print(
        f"  of which thinking {statistics.median(t for _, t, _ in rounds):.2f} s and watching "
        f"{statistics.median(w for _, _, w in rounds):.2f} s at the median"
    )
    print(
        f"  an expert's move: median {statistics.median(decisions) * 1000:.0f} ms, 95th "
        f"percentile {percentile(decisions, 0.95) * 1000:.0f} ms, slowest "
        f"{max(decisions) * 1000:.0f} ms ({len(decisions)} real decisions: more than one legal move)"
    )


if __name__ == "__main__":
    main()
