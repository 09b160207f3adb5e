"""A weights file's strength: ``bench/bench_levels.py`` with the learned
computer playing from that file instead of the package's.

    python -m training.strength --weights FILE [bench_levels options]

e.g. ``python -m training.strength --weights w.json --rules classic --seats 2
--deals 1000 --seed 7001 --players learned,standard``.  Only one worker (the
model is given to the players in this process).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import sys
from collections.abc import Sequence
from types import ModuleType

from mille.engine.rules import Rules
from mille.players.base import Player
from mille.players.learned import Learned, load_model

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def bench_levels() -> ModuleType:
    """bench/bench_levels.py, imported from its file (bench is no package)."""
    path = os.path.join(ROOT, "bench", "bench_levels.py")
    spec = importlib.util.spec_from_file_location("bench_levels", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_levels"] = module
    spec.loader.exec_module(module)
    return module


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m training.strength")
    parser.add_argument("--weights", required=True)
    args, rest = parser.parse_known_args(argv)
    model = load_model(args.weights)
    bench = bench_levels()

    def learned(rules: Rules, rng: random.Random, seat: int) -> Player:
        return Learned(rng, seat, model)

    setattr(bench, "PLAYERS", {**bench.PLAYERS, "learned": learned})  # noqa: B010
    bench.main([*rest, "--workers", "1"])


if __name__ == "__main__":
    main()
