"""A replay's step (issue 47): the time ``mille --replay`` takes to show
the next move, the move before and the next hand, the board drawn again.

    python bench/bench_replay.py [--games N] [--backs N]

Whole games are played by the computers (``--games`` of each kind:
``classic`` with 4 players, ``milebymile`` with 9; the seeds 1, 2, ...),
then replayed (:class:`mille.game.replay.Replay`) on the board they were
played on, drawn on a stand-in for a curses window 80x24 (the board's
whole drawing, not the terminal's).  For each kind it prints, each a mean
with its 95% interval and the 95th percentile, in milliseconds:

- **forward**: every move of every hand, one step on (``l``);
- **back**: ``--backs`` positions a game, drawn at random, one step back
  (``h``: the hand made again from its deal to the move before);
- **next hand**: every hand's start from the one before (``n``);

each step alone (the replay's position) and with the board drawn (the
step a person sees).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable

import revision
from bench_levels import mean_interval, percentile
from bench_record import KINDS

sys.path.insert(0, os.path.join(revision.ROOT, "tests"))  # the boards' stand-in window
from mille.game.history import History
from mille.game.replay import Replay
from mille.selfplay import played_game
from support.fakewindow import Grid


def whole_game(rules_name: str, seed: int) -> History:
    """A game of computers alone (easy: quick), to its end."""
    return played_game(KINDS[rules_name], seed, level="easy")


def timed(step: Callable[[], None]) -> float:
    start = time.perf_counter()
    step()
    return (time.perf_counter() - start) * 1000


def measure(history: History, backs: int, seed: int) -> dict[str, list[float]]:
    """Each step's times (ms) over one game, alone and drawn."""
    from mille.frontends.replay_ui import board_for

    game = Replay(history)
    board = board_for(game)(Grid(), game)  # type: ignore[arg-type]

    def drawn(step: Callable[[], None]) -> Callable[[], None]:
        def both() -> None:
            step()
            board.show()
            board.render()

        return both

    times: dict[str, list[float]] = {}
    steps = {"forward": game.forward, "back": game.back, "next hand": game.next}
    for name in steps:
        times[name] = []
        times[name + ", drawn"] = []
    dice = random.Random(seed)
    for drawing in (False, True):
        suffix = ", drawn" if drawing else ""

        def run(name: str, suffix: str = suffix, drawing: bool = drawing) -> float:
            step = steps[name]
            return timed(drawn(step) if drawing else step)

        for hand in range(game.hands):
            game.go(hand, 0)
            for _ in range(game.moves(hand)):
                times["forward" + suffix].append(run("forward"))
        for _ in range(backs):
            hand = dice.randrange(game.hands)
            game.go(hand, dice.randint(1, game.moves(hand)))
            times["back" + suffix].append(run("back"))
        for hand in range(game.hands - 1):
            game.go(hand, 0)
            times["next hand" + suffix].append(run("next hand"))
    return times


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--backs", type=int, default=200)
    args = parser.parse_args(argv)
    for kind in KINDS:
        totals: dict[str, list[float]] = {}
        hands = moves = 0
        for seed in range(1, args.games + 1):
            history = whole_game(kind, seed)
            hands += len(history.hands)
            moves += sum(len(hand.moves) for hand in history.hands)
            for name, values in measure(history, args.backs, seed).items():
                totals.setdefault(name, []).extend(values)
        print(f"{kind}: {args.games} games, {hands} hands, {moves} moves")
        for name, values in totals.items():
            mean, half = mean_interval(values)
            p95 = percentile(values, 0.95)
            print(
                f"  {name:18} {mean:7.3f} ms +- {half:.3f} (95th percentile {p95:.3f} ms,"
                f" {len(values)} steps)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
