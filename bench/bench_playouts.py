"""Benchmark: state copies plus random playouts to the end of the hand.

    python bench/bench_playouts.py [--playouts N] [--seed S]
        [--rules bsd|classic|milebymile --players N] [--baseline REV]

The unit of work of a search player: copy a mid-hand state, then play
uniformly random legal moves (a pick whenever one is legal, questions
answered no) until the hand ends.  Prints playouts per second for each
preset and seat count (or the one asked for).  ``--baseline REV`` also
measures the bsd preset on the code of git revision REV (a commit hash, a
branch or a tag; e.g. ``67d8018``, mille 1.0, whose two-player engine was
``mille.engine``) in the same run, from a temporary worktree.  A benchmark,
not a test.
"""

from __future__ import annotations

import argparse
import random
import time

import revision

from mille.engine.rules import find_rules
from mille.engine.table import COUP, EXTENSION, NO, PICK, PLAYING, Table

TABLES = (
    ("bsd", 2),
    ("classic", 2),
    ("classic", 3),
    ("classic", 4),
    ("classic", 6),
    ("milebymile", 2),
    ("milebymile", 4),
    ("milebymile", 6),
    ("milebymile", 9),
)

# the same measure, bsd, on another revision's code: the N-seat engine
# (mille.engine.table) where it has one, else mille 1.0's engine (mille.engine)
BASELINE = """
import random, sys, time
playouts, seed = int(sys.argv[1]), int(sys.argv[2])
try:
    from mille.engine.rules import find_rules
    from mille.engine.table import COUP, EXTENSION, NO, PICK, PLAYING, Table
except ImportError:
    from mille.engine import GameState, Phase, Pick
    def new(rng):
        return GameState.new_game(rng)
    def step(state, rng):
        if state.phase is Phase.EXTENSION:
            state.decide_extension(False)
        if state.phase is not Phase.PLAYING:
            return False
        moves = state.legal_moves()
        picks = [m for m in moves if isinstance(m, Pick)]
        state.apply_unchecked(picks[0] if picks else rng.choice(moves))
        return True
    def playing(state):
        return state.phase is Phase.PLAYING
else:
    def new(rng):
        return Table.new(find_rules("bsd"), rng)
    def step(state, rng):
        if state.phase == EXTENSION or state.phase == COUP:
            state.apply_unchecked(NO)
        if state.phase != PLAYING:
            return False
        moves = state.legal_moves()
        state.apply_unchecked(PICK if moves[0] is PICK else rng.choice(moves))
        return True
    def playing(state):
        return state.phase == PLAYING
rng = random.Random(seed)
states = []
for _ in range(200):
    state = new(rng)
    for _ in range(rng.randrange(41)):
        if not step(state, rng):
            break
    if playing(state):
        states.append(state)
rng = random.Random(seed)
began = time.perf_counter()
for n in range(playouts):
    state = states[n % len(states)].copy()
    while step(state, rng):
        pass
print(playouts / (time.perf_counter() - began))
"""


def start_states(count: int, seed: int, rules_name: str, players: int) -> list[Table]:
    """``count`` mid-hand tables, 0 to 40 random moves into a fresh deal."""
    rules = find_rules(rules_name, players=players)
    rng = random.Random(seed)
    states = []
    for _ in range(count):
        state = Table.new(rules, rng)
        for _ in range(rng.randrange(41)):
            if not step(state, rng):
                break
        if state.phase == PLAYING:
            states.append(state)
    return states


def step(state: Table, rng: random.Random) -> bool:
    """One random move (questions answered no); False once the hand is over."""
    if state.phase == EXTENSION or state.phase == COUP:
        state.apply_unchecked(NO)
    if state.phase != PLAYING:
        return False
    moves = state.legal_moves()
    state.apply_unchecked(PICK if moves[0] is PICK else rng.choice(moves))
    return True


def measure(playouts: int, seed: int, rules_name: str, players: int) -> tuple[float, float]:
    """Playouts per second and moves per playout."""
    tables = start_states(200, seed, rules_name, players)
    rng = random.Random(seed)
    moves = 0
    began = time.perf_counter()
    for n in range(playouts):
        state = tables[n % len(tables)].copy()
        while step(state, rng):
            moves += 1
    return playouts / (time.perf_counter() - began), moves / playouts


def baseline(rev: str, playouts: int, seed: int) -> float:
    """Playouts per second of the bsd game on the code of git revision ``rev``."""
    with revision.worktree(rev) as tree:
        return float(revision.run(tree, BASELINE, str(playouts), str(seed)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument(
        "--baseline",
        metavar="REV",
        help="also measure bsd on git revision REV (a commit, branch or tag)",
    )
    args = parser.parse_args()
    tables = ((args.rules, args.players),) if args.rules else TABLES
    if args.baseline:
        revision.resolve(args.baseline)  # an unknown one is refused before any measure
        rate = baseline(args.baseline, args.playouts, args.seed)
        print(f"{args.baseline} code, bsd, 2 seats: {rate:7.0f} playouts/second")
    for name, players in tables:
        rate, moves = measure(args.playouts, args.seed, name, players)
        print(f"{name:>10}, {players} seats: {rate:7.0f} playouts/second ({moves:.0f} moves each)")


if __name__ == "__main__":
    main()
