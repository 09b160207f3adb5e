"""Benchmark: hands per second of the standard computers against themselves, headless.

    python bench/bench_selfplay.py [--hands N] [--seed S] [--workers W] [--only bsd]
        [--baseline REV]

Prints, as before, BSD's computer against itself (one process, and several
when ``--workers`` is more than 1), then the rules-aware computer of each
other preset with every seat count it measures (classic 2, 3, 4, 6;
milebymile 2, 3, 4, 6, 9), each preset's default team mode.
``--baseline REV`` first measures BSD's computer against itself on the code
of git revision REV (a commit hash, a branch or a tag; e.g. ``67d8018``,
mille 1.0) from a temporary worktree, then on this
code, alternating three rounds, so the two figures share the machine's load.
A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import os

import revision

from mille.engine.rules import find_rules
from mille.selfplay import play_hands, play_parallel

# BSD's computer against itself, one process, on another revision's code
BASELINE = """
import sys
from mille.selfplay import play_hands
print(play_hands(int(sys.argv[1]), int(sys.argv[2]), ["bsd", "bsd"])["hands_per_second"])
"""

SEATS = {"classic": (2, 3, 4, 6), "milebymile": (2, 3, 4, 6, 9)}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--hands",
        type=int,
        default=3000,
        help="hands for bsd (the other presets play a third of it)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--only", choices=("bsd", "classic", "milebymile"), default=None, help="one preset only"
    )
    parser.add_argument(
        "--baseline",
        metavar="REV",
        help="also measure bsd vs bsd on git revision REV (a commit, branch or tag), side by side",
    )
    args = parser.parse_args()
    if args.baseline:
        side_by_side(args.baseline, args.hands, args.seed)
    if args.only in (None, "bsd"):
        single = play_hands(args.hands, args.seed, ["bsd", "bsd"])
        print(
            f"bsd vs bsd, 1 process: {single['hands_per_second']:.0f} hands/second "
            f"({args.hands} hands in {single['seconds']:.2f} s)"
        )
        if args.workers > 1:
            multi = play_parallel(args.hands, args.seed, ["bsd", "bsd"], args.workers)
            print(
                f"bsd vs bsd, {args.workers} processes: {multi['hands_per_second']:.0f} "
                f"hands/second ({args.hands} hands in {multi['seconds']:.2f} s)"
            )
    hands = max(1, args.hands // 3)
    for preset, seats in SEATS.items():
        if args.only not in (None, preset):
            continue
        for players in seats:
            rules = find_rules(preset, players=players)
            summary = play_hands(hands, args.seed, ["standard"] * players, rules)
            print(
                f"{preset} {players} seats ({rules.team_mode}), standard computers, "
                f"1 process: {summary['hands_per_second']:.0f} hands/second "
                f"({hands} hands in {summary['seconds']:.2f} s)"
            )


def side_by_side(rev: str, hands: int, seed: int) -> None:
    """bsd vs bsd hands/second on ``rev`` and on this code, three rounds each,
    alternating; prints the medians."""
    with revision.worktree(rev) as tree:
        rates: dict[str, list[float]] = {rev: [], "this code": []}
        for _ in range(3):
            for name, path in ((rev, tree), ("this code", revision.ROOT)):
                rates[name].append(float(revision.run(path, BASELINE, str(hands), str(seed))))
    for name, values in rates.items():
        values.sort()
        print(
            f"bsd vs bsd on {name}: median {values[1]:.0f} hands/second "
            f"(rounds: {', '.join(f'{v:.0f}' for v in values)})"
        )


if __name__ == "__main__":
    main()
