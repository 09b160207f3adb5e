"""Benchmark: state copies plus random playouts to the end of the hand.

    python bench/bench_playouts.py [--playouts N] [--seed S] [--engine table]
        [--rules bsd|classic|milebymile] [--players N]

The unit of work of a search player: copy a mid-hand state, then play
uniformly random legal moves (a pick whenever one is legal, Extension?
answered no) until the hand ends.  Prints playouts per second.  A
benchmark, not a test.  Today the engine plays the bsd preset only; the
N-seat presets are to be added here as the engine learns them (issue 9).
"""

from __future__ import annotations

import argparse
import random
import time

from mille.engine import GameState, Phase, Pick
from mille.rules import find_rules
from mille.table import NO, PICK, PLAYING, EXTENSION, COUP, Table


def start_states(count: int, seed: int) -> list[GameState]:
    """``count`` mid-hand states, 0 to 40 random moves into a fresh deal."""
    rng = random.Random(seed)
    states = []
    for _ in range(count):
        state = GameState.new_game(rng)
        for _ in range(rng.randrange(41)):
            if not playout_step(state, rng):
                break
        if state.phase is Phase.PLAYING:
            states.append(state)
    return states


def playout_step(state: GameState, rng: random.Random) -> bool:
    """One random move; False once the hand is over."""
    if state.phase is Phase.EXTENSION:
        state.decide_extension(False)
    if state.phase is not Phase.PLAYING:
        return False
    moves = state.legal_moves()
    picks = [m for m in moves if isinstance(m, Pick)]
    state.apply_unchecked(picks[0] if picks else rng.choice(moves))
    return True


def table_start_states(count: int, seed: int, rules_name: str, players: int) -> list[Table]:
    """The same for mille.table under the named preset."""
    rules = find_rules(rules_name, players=players)
    rng = random.Random(seed)
    states = []
    for _ in range(count):
        state = Table.new(rules, rng)
        for _ in range(rng.randrange(41)):
            if not table_step(state, rng):
                break
        if state.phase == PLAYING:
            states.append(state)
    return states


def table_step(state: Table, rng: random.Random) -> bool:
    """One random move of mille.table (questions answered no)."""
    if state.phase == EXTENSION or state.phase == COUP:
        state.apply_unchecked(NO)
    if state.phase != PLAYING:
        return False
    moves = state.legal_moves()
    state.apply_unchecked(PICK if moves[0] is PICK else rng.choice(moves))
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--engine", choices=("engine", "table"), default="engine")
    parser.add_argument("--rules", default="bsd")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    if args.engine == "table":
        table_main(args.playouts, args.seed, args.rules, args.players)
        return
    states = start_states(200, args.seed)
    rng = random.Random(args.seed)
    moves = 0
    began = time.perf_counter()
    for n in range(args.playouts):
        state = states[n % len(states)].copy()
        while playout_step(state, rng):
            moves += 1
    seconds = time.perf_counter() - began
    print(f"bsd, 2 seats: {args.playouts / seconds:.0f} playouts/second "
          f"({args.playouts} in {seconds:.2f} s, {moves / args.playouts:.0f} moves each)")


def table_main(playouts: int, seed: int, rules_name: str, players: int) -> None:
    tables = table_start_states(200, seed, rules_name, players)
    rng = random.Random(seed)
    moves = 0
    began = time.perf_counter()
    for n in range(playouts):
        state = tables[n % len(tables)].copy()
        while table_step(state, rng):
            moves += 1
    seconds = time.perf_counter() - began
    print(f"table {rules_name}, {players} seats: {playouts / seconds:.0f} playouts/second "
          f"({playouts} in {seconds:.2f} s, {moves / playouts:.0f} moves each)")


if __name__ == "__main__":
    main()
