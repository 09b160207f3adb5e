"""Benchmark: hands per second of the standard computers against themselves, headless.

    python bench/bench_selfplay.py [--hands N] [--seed S] [--workers W] [--only bsd]

Prints, as before, BSD's computer against itself (one process, and several
when ``--workers`` is more than 1), then the rules-aware computer of each
other preset with every seat count it measures (classic 2, 3, 4, 6;
milebymile 2, 3, 4, 6, 9), each preset's default team mode.  A benchmark,
not a test.
"""

from __future__ import annotations

import argparse
import os

from mille.rules import find_rules
from mille.selfplay import play_hands, play_parallel

SEATS = {"classic": (2, 3, 4, 6), "milebymile": (2, 3, 4, 6, 9)}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000,
                        help="hands for bsd (the other presets play a third of it)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", choices=("bsd", "classic", "milebymile"), default=None,
                        help="one preset only")
    args = parser.parse_args()
    if args.only in (None, "bsd"):
        single = play_hands(args.hands, args.seed, ["bsd", "bsd"])
        print(f"bsd vs bsd, 1 process: {single['hands_per_second']:.0f} hands/second "
              f"({args.hands} hands in {single['seconds']:.2f} s)")
        if args.workers > 1:
            multi = play_parallel(args.hands, args.seed, ["bsd", "bsd"], args.workers)
            print(f"bsd vs bsd, {args.workers} processes: {multi['hands_per_second']:.0f} "
                  f"hands/second ({args.hands} hands in {multi['seconds']:.2f} s)")
    hands = max(1, args.hands // 3)
    for preset, seats in SEATS.items():
        if args.only not in (None, preset):
            continue
        for players in seats:
            rules = find_rules(preset, players=players)
            summary = play_hands(hands, args.seed, ["standard"] * players, rules)
            print(f"{preset} {players} seats ({rules.team_mode}), standard computers, "
                  f"1 process: {summary['hands_per_second']:.0f} hands/second "
                  f"({hands} hands in {summary['seconds']:.2f} s)")


if __name__ == "__main__":
    main()
