"""Benchmark: hands per second of BSD's computer against itself, headless.

    python bench/bench_selfplay.py [--hands N] [--seed S] [--workers W]

Prints the single-process figure, and the multi-process one when
``--workers`` is more than 1.  A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import os

from mille.selfplay import play_hands, play_parallel


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    single = play_hands(args.hands, args.seed, ["bsd", "bsd"])
    print(f"bsd vs bsd, 1 process: {single['hands_per_second']:.0f} hands/second "
          f"({args.hands} hands in {single['seconds']:.2f} s)")
    if args.workers > 1:
        multi = play_parallel(args.hands, args.seed, ["bsd", "bsd"], args.workers)
        print(f"bsd vs bsd, {args.workers} processes: {multi['hands_per_second']:.0f} "
              f"hands/second ({args.hands} hands in {multi['seconds']:.2f} s)")


if __name__ == "__main__":
    main()
