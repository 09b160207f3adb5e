"""Headless self-play: automatic players against each other, no terminal.

    python -m mille.selfplay --hands 1000 --seed 1 --players bsd,random

plays the hands (who starts alternates, as in the game) and prints one JSON
object on its last line: hands, players, points (the sum of each player's
hand totals), hand_wins (hands where that player's hand total was higher),
hands_per_second and seconds.  ``--workers N`` splits the hands over N
processes (the result is then that of N seeded runs added up).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any, Callable, Sequence

from .autoplayers import GreedyPlayer, RandomPlayer
from .computer import BsdComputer
from .engine import GameState, MoveResult, Phase
from .players import Player

PLAYERS: dict[str, Callable[[random.Random, int], Player]] = {
    "bsd": lambda rng, seat: BsdComputer(rng, seat),
    "random": lambda rng, seat: RandomPlayer(rng),
    "greedy": lambda rng, seat: GreedyPlayer(rng),
}

MAX_MOVES_PER_HAND = 10_000  # a hand takes a few hundred at most


def play_hands(
    n: int,
    seed: int,
    names: Sequence[str],
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``n`` hands between the two named players; the summary dict."""
    if len(names) != 2:
        raise ValueError("two players are needed")
    for name in names:
        if name not in PLAYERS:
            raise ValueError(f"unknown player: {name!r}")
    master = random.Random(seed)
    deal_rng = random.Random(master.getrandbits(64))
    seats = [PLAYERS[name](random.Random(master.getrandbits(64)), seat)
             for seat, name in enumerate(names)]
    points = [0, 0]
    wins = [0, 0]
    started = time.perf_counter()
    state = GameState.new_game(deal_rng)
    for hand in range(n):
        if hand:
            state.new_hand(deal_rng)
        _play_one_hand(state, seats)
        totals = [state.hand_score(0).total, state.hand_score(1).total]
        for p in (0, 1):
            points[p] += totals[p]
        if totals[0] != totals[1]:
            wins[0 if totals[0] > totals[1] else 1] += 1
        if progress is not None:
            progress(hand + 1)
    seconds = time.perf_counter() - started
    return {
        "hands": n,
        "players": list(names),
        "points": points,
        "hand_wins": wins,
        "hands_per_second": round(n / seconds, 1) if seconds > 0 else 0.0,
        "seconds": round(seconds, 3),
    }


def _play_one_hand(state: GameState, seats: Sequence[Player]) -> None:
    for player in seats:
        player.start_hand(state)
    last: MoveResult | None = None
    for _ in range(MAX_MOVES_PER_HAND):
        phase = state.phase
        if phase is Phase.HAND_OVER:
            return
        if phase is Phase.EXTENSION:
            assert state.extender is not None and last is not None
            state.decide_extension(seats[state.extender].wants_extension(state, last))
            continue
        last = state.apply(seats[state.to_move].choose(state))
        for player in seats:
            player.observe(state, last)
    raise RuntimeError("a hand did not end")


def _play_chunk(args: tuple[int, int, tuple[str, str]]) -> dict[str, Any]:
    n, seed, names = args
    return play_hands(n, seed, names)


def play_parallel(n: int, seed: int, names: Sequence[str], workers: int) -> dict[str, Any]:
    """``play_hands`` split over ``workers`` processes (seeds seed, seed+1...)."""
    import multiprocessing

    sizes = [n // workers + (1 if i < n % workers else 0) for i in range(workers)]
    jobs = [(size, seed + i, (names[0], names[1])) for i, size in enumerate(sizes) if size]
    started = time.perf_counter()
    with multiprocessing.Pool(len(jobs)) as pool:
        parts = pool.map(_play_chunk, jobs)
    seconds = time.perf_counter() - started
    return {
        "hands": n,
        "players": list(names),
        "points": [sum(p["points"][i] for p in parts) for i in (0, 1)],
        "hand_wins": [sum(p["hand_wins"][i] for p in parts) for i in (0, 1)],
        "hands_per_second": round(n / seconds, 1) if seconds > 0 else 0.0,
        "seconds": round(seconds, 3),
    }


def _players_arg(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",")]
    if len(names) != 2:
        raise argparse.ArgumentTypeError("give two players, e.g. bsd,random")
    for name in names:
        if name not in PLAYERS:
            raise argparse.ArgumentTypeError(
                f"unknown player {name!r} (choose from {', '.join(PLAYERS)})"
            )
    return names


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text}")
    return value


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


class _Bar:
    """A one-line progress bar on stderr."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.shown = -1

    def __call__(self, done: int) -> None:
        filled = 40 * done // self.total
        if filled == self.shown and done != self.total:
            return
        self.shown = filled
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (40 - filled)}] {done}/{self.total}")
        if done == self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m mille.selfplay",
        description="Play hands of mille between automatic players, headless.",
    )
    parser.add_argument("--hands", type=_positive, required=True, help="hands to play")
    parser.add_argument("--seed", type=_integer, default=0, help="random seed (default 0)")
    parser.add_argument("--players", type=_players_arg, default=["bsd", "bsd"],
                        help="two of bsd, random, greedy, e.g. bsd,random (default bsd,bsd)")
    parser.add_argument("--progress", action="store_true", help="progress bar on stderr")
    parser.add_argument("--workers", type=_positive, default=1,
                        help="processes to use (default 1)")
    args = parser.parse_args(argv)
    if args.workers > 1:
        summary = play_parallel(args.hands, args.seed, args.players, args.workers)
        if args.progress:
            _Bar(args.hands)(args.hands)
    else:
        bar = _Bar(args.hands) if args.progress else None
        summary = play_hands(args.hands, args.seed, args.players, bar)
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
