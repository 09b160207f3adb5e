"""The time ``savefile.dumps`` takes to write a save's text: what a network
host spends after every move and chat line (its recovery file), and what
the save tests spend at every step.

    python bench/bench_save.py [--runs N] [--repeat N] [--baseline REV]

Three games, made once by this tree's code and kept as their save files:
``bsd`` with 2 seats mid-hand (a person and the standard computer),
``classic`` with 4 seats and experts, ``milebymile`` with 9 seats and
experts (a person and eight experts, their memories as a save holds them:
2,000 guesses at the hands, shared out).  The experts' moves are chosen
with a small search (it is their memory that counts here, not their play).

Each run is a fresh process (``python -S``) that loads the three saves and
times ``dumps`` of each ``--repeat`` times, after one call to warm up, and
then ``session_to_dict`` (the part of ``dumps`` that gathers the game as a
dict, before its text is written) as many times; the run's figure for each
is the median of those.  Prints, for each game, the mean of each over the
runs in milliseconds with its 95% interval.  ``--baseline
REV`` also times the code of git revision REV on the same saves, its runs
interleaved with this tree's, and prints the ratio of the two (REV over
this tree: how many times faster this tree is) with its 95% interval.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import tempfile

import revision
from bench_levels import mean_interval

from mille.engine.rules import BSD, Rules, find_rules
from mille.engine.table import OVER, Use
from mille.game.session import Session
from mille.players.expert import Budget, Expert
from mille.storage import savefile

# (name, rules, the computers' level, steps played before the save)
GAMES: tuple[tuple[str, Rules, str, int], ...] = (
    ("bsd, 2 seats, mid-hand", BSD, "standard", 50),
    ("classic, 4 seats, experts", find_rules("classic", players=4), "expert", 40),
    ("milebymile, 9 seats, experts", find_rules("milebymile", players=9), "expert", 30),
)
QUICK = Budget(moves=1, worlds=2, extra=0, seconds=None)  # a move fast: the memory is the point
TIMED = """
import json, statistics, sys, time
from mille.storage.savefile import dumps, loads, session_to_dict
repeat, paths = int(sys.argv[1]), sys.argv[2:]
medians = []
for path in paths:
    with open(path, encoding="ascii") as f:
        session = loads(f.read())
    for call in (dumps, session_to_dict):
        call(session)
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            call(session)
            times.append(time.perf_counter() - start)
        medians.append(statistics.median(times))
print(json.dumps(medians))
"""


def played(rules: Rules, level: str, steps: int, seed: int = 1) -> Session:
    """A game of ``rules`` after ``steps`` moves: the person (seat 0)
    plays at random (a card played rather than discarded, mostly), the
    computers as they do."""
    session = Session.new(rules, seed=seed, humans=(0,), level=level)
    for computer in session.computers.values():
        if isinstance(computer, Expert):
            computer.budget = QUICK
    driver = random.Random(seed)
    for _ in range(steps):
        if session.table.phase == OVER:
            session.next_hand()
        elif session.computer_to_move:
            session.computer_move()
        else:
            moves = session.table.legal_moves()
            uses = [m for m in moves if isinstance(m, Use)]
            session.play(driver.choice(uses if uses and driver.random() < 0.7 else moves))
    return session


def timed(tree: str, paths: list[str], repeat: int) -> list[float]:
    """The median times of ``dumps`` and of ``session_to_dict`` (the
    game as the dict that ``dumps`` writes out) of each save in turn, in
    seconds, by the code of ``tree``."""
    return [float(t) for t in json.loads(revision.run(tree, TIMED, str(repeat), *paths))]


def interval(values: list[float], scale: float = 1.0, digits: int = 2) -> str:
    mean, half = mean_interval([v * scale for v in values])
    return f"{mean:.{digits}f} ({mean - half:.{digits}f}-{mean + half:.{digits}f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10, help="processes of each tree")
    parser.add_argument("--repeat", type=int, default=20, help="dumps of each save a run")
    parser.add_argument("--baseline", metavar="REV", help="a git revision timed side by side")
    args = parser.parse_args()
    if args.baseline:
        revision.resolve(args.baseline)
    with tempfile.TemporaryDirectory(prefix="mille-bench-save-") as tmp:
        paths = []
        for number, (name, rules, level, steps) in enumerate(GAMES):
            text = savefile.dumps(played(rules, level, steps))
            paths.append(os.path.join(tmp, f"{number}.json"))
            with open(paths[-1], "w", encoding="ascii") as f:
                f.write(text)
            print(f"{name}: {len(text):,} bytes")
        trees = {"this tree": revision.ROOT}
        baseline = revision.worktree(args.baseline) if args.baseline else contextlib.nullcontext("")
        with baseline as other:
            if other:
                trees[args.baseline] = other
            runs: dict[str, list[list[float]]] = {label: [] for label in trees}
            for _ in range(args.runs):  # interleaved, so that the load hits both alike
                for label, tree in trees.items():
                    runs[label].append(timed(tree, paths, args.repeat))
    print(f"ms (mean of {args.runs} runs, 95% interval; each the median of {args.repeat}):")
    for number, (name, _, _, _) in enumerate(GAMES):
        print(f"  {name}")
        for offset, what in enumerate(("dumps", "of which session_to_dict")):
            column = 2 * number + offset
            cells = [
                f"{label} {interval([r[column] for r in runs[label]], 1000)}" for label in trees
            ]
            if args.baseline:
                pairs = zip(runs[args.baseline], runs["this tree"])
                ratios = [before[column] / now[column] for before, now in pairs]
                cells.append(f"{args.baseline} / this tree {interval(ratios)}")
            print(f"    {what}: " + "; ".join(cells))


if __name__ == "__main__":
    main()
