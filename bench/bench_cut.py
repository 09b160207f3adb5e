"""Benchmark: what an expert's playout costs, played out or cut short.

    python bench/bench_cut.py [--rules classic] [--seats 2] [--hands 6] [--seed S]

Plays ``--hands`` hands of the standard computers and keeps about a third
of seat 0's real decisions (after its pick, two or more distinct moves);
at each, plays 10 playouts of the search (``search.Sampler.playout``, its
worlds, the candidates in turn) whole, then cut at 16, 32 and 48 moves
and scored by the learned value (``Budget.horizon``), and prints for each
the time a playout and the moves it made.  The time depends on the
machine and its load.  A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence

from mille.engine.rules import find_rules
from mille.engine.table import PICK, PLAYING, Move, Table
from mille.engine.view import SeatView
from mille.players.heuristic import Heuristic
from mille.players.search import Sampler, distinct_moves
from mille.players.value import load_value
from mille.selfplay import play_one_hand


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args(argv)
    rules = find_rules(args.rules, players=args.seats)
    value = load_value()
    rng = random.Random(args.seed)
    tables: list[Table] = []

    class Keeper(Heuristic):
        def choose(self, view: SeatView) -> Move:
            legal = view.legal_moves()
            if (
                self.seat == 0
                and view.phase == PLAYING
                and PICK not in legal
                and len(distinct_moves(view, legal)) > 1
                and rng.random() < 0.3
            ):
                tables.append(view.world())
            move: Move = super().choose(view)
            return move

    for hand in range(args.hands):
        table = Table.new(rules, random.Random(rng.getrandbits(64)))
        play_one_hand(table, [Keeper(random.Random(hand), s) for s in range(rules.players)])
    print(f"{args.rules} ({rules.players} seats): {len(tables)} positions, 10 playouts each")
    for horizon in (None, 16, 32, 48):
        seconds = 0.0
        playouts = moves = 0
        for world0 in tables:
            view = SeatView(world0, 0)
            sampler = Sampler(view, value=value, horizon=horizon, objective="hands")
            candidates = distinct_moves(view, view.legal_moves())
            for k in range(10):
                world, seed = sampler.world(rng), rng.getrandbits(64)
                began = time.perf_counter()
                _, made = sampler.playout(world, candidates[k % len(candidates)], seed)
                seconds += time.perf_counter() - began
                playouts += 1
                moves += made
        name = "played out" if horizon is None else f"cut at {horizon}"
        print(
            f"  {name}: {seconds / playouts * 1000:.3f} ms a playout, {moves / playouts:.1f} moves"
        )


if __name__ == "__main__":
    main()
