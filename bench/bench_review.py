"""Benchmark: are a review's mistakes sure, and is a review quick enough?

    python bench/bench_review.py hold [--rules classic] [--decisions 1000] [--seed S]
        [--workers 2] [--recheck-worlds N]
    python bench/bench_review.py speed [--games 5] [--seed S]

``hold``: whole games of the preset's standard computer in every seat,
seat 0 taken as the person (its moves are the decisions reviewed), each
reviewed (``mille.game.review``) until ``--decisions`` decisions are
judged; each "mistake" called is re-analysed (``review.recheck``: an
expert of its own, its guesses and worlds from another seed).  A call
*holds* when the re-analysis is sure the move made is worse too (by
``Analysis.bar`` standard errors and ``Analysis.threshold``).  Printed
after each game, with 95% Wilson intervals: the share that holds among
the calls whose two analyses were each at least 2.5, 3, 3.5, 4 and 5
standard errors (how ``Analysis.sure`` was chosen), and how many the
re-analysis finds worse at all.  The issue's bar: 95%.  The re-analysis
meets at most ``Analysis.most`` worlds a move, as the review does;
``--recheck-worlds`` gives it more (a judge of more power: a call whose
difference is real but small is less often left unsure).

``speed``: whole classic games of 4 hands (two seats: the seeds that deal
one), each reviewed once: the seconds a review takes (wall clock and this
process's CPU), mean with its 95% interval.  The issue's bar: 60 s.

A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from dataclasses import replace

from bench_levels import mean_interval, wilson

from mille.engine.rules import Rules, find_rules
from mille.game.history import History
from mille.game.review import ANALYSIS, decisions, recheck, review
from mille.selfplay import played_game


def self_play(rules: Rules, seed: int) -> History:
    """A whole game of the standard computer in every seat; seat 0 is
    recorded as a person (``Ann``), the others as computers."""
    return played_game(rules, seed, people={0: "Ann"})


Call = tuple[float, float, float, float]  # the call's two z, the re-analysis's hands and z


def _calls(job: tuple[str, int, int]) -> tuple[int, list[Call]]:
    """One game reviewed, each mistake called re-analysed (``recheck``:
    an expert of its own, fresh worlds): the decisions judged, and for
    each call the standard errors of its two analyses and the
    re-analysis's hands won more and standard errors."""
    name, seed, worlds = job
    judge = replace(ANALYSIS, most=worlds)
    history = self_play(find_rules(name), seed)
    judged = list(decisions(history, 0, 2 * seed))
    again = []
    for d in judged:
        if d.mistake and d.first is not None and d.second is not None:
            check = recheck(history, 0, d, 2 * seed + 1, judge)
            again.append((d.first.z, d.second.z, check.hands, check.z))
    return len(judged), again


BARS = (2.5, 3.0, 3.5, 4.0, 5.0)  # the calls kept at each bar of both analyses


def report(count: int, calls: list[Call]) -> None:
    """The hold rate of the calls, at each bar of the call's two analyses:
    the re-analysis sure the move made is worse (``ANALYSIS.bar``
    standard errors and ``ANALYSIS.threshold``), or worse at all."""
    print(f"{count} decisions, {len(calls)} mistake calls ({len(calls) / max(1, count):.1%})")
    for bar in BARS:
        kept = [c for c in calls if min(c[0], c[1]) >= bar]
        sure = sum(z >= ANALYSIS.bar and h >= ANALYSIS.threshold for _, _, h, z in kept)
        worse = sum(h > 0 for _, _, h, _ in kept)
        share, low, high = wilson(sure, len(kept))
        print(
            f"  both analyses >= {bar} SE: {len(kept)} calls; re-analysed sure worse {sure}"
            f" ({share:.1%}, 95% {low:.1%}-{high:.1%}), worse at all {worse}",
            flush=True,
        )


def hold(args: argparse.Namespace) -> None:
    count = 0
    calls: list[Call] = []
    started = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        worlds = args.recheck_worlds
        jobs = ((args.rules, seed, worlds) for seed in range(args.seed, args.seed + 100_000))
        for judged, again in pool.imap_unordered(_calls, jobs):
            count += judged
            calls += again
            print(
                f"after {time.perf_counter() - started:.0f} s, rules {args.rules},"
                f" re-analysis of at most {worlds} worlds a move:"
            )
            report(count, calls)
            if count >= args.decisions:
                break


def speed(args: argparse.Namespace) -> None:
    rules = find_rules("classic")
    walls: list[float] = []
    cpus: list[float] = []
    seed = args.seed
    while len(walls) < args.games:
        history = self_play(rules, seed)
        seed += 1
        if len(history.hands) != 4:
            continue
        wall, cpu = time.perf_counter(), time.process_time()
        done = review(history, 0, seed)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        print(
            f"  seed {seed - 1}: {len(done.decisions)} decisions,"
            f" {walls[-1]:.1f} s ({cpus[-1]:.1f} s CPU)",
            flush=True,
        )
    for what, values in (("wall clock", walls), ("CPU", cpus)):
        mean, half = mean_interval(values)
        print(f"{what}: {mean:.1f} s a game of 4 hands (95% +/- {half:.1f}), {len(values)} games")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=("hold", "speed"))
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--decisions", type=int, default=1000)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--recheck-worlds", type=int, default=ANALYSIS.most)
    args = parser.parse_args()
    hold(args) if args.what == "hold" else speed(args)


if __name__ == "__main__":
    main()
