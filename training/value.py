"""Train the value of the position (``mille/players/data/value.json``).

    python -m training.value --seed 1 --hands 3000 --out mille/players/data/value.json
        [--families duel,teams,sides] [--explore 0.2] [--hold-out 10] [--ridge 1.0]

For each family of tables (``mille.players.value.family``) it plays
``--hands`` hands of self-play: the preset's standard computer (the
rules-aware heuristic) in every seat, classic and Mile by Mile in turn
(duel: 2 seats; teams: 4 seats, two teams of two; sides: 3 seats), each
real decision (after the pick, two or more distinct moves) played as the
standard plays it, or with chance ``--explore`` as a move drawn among the
other distinct moves, so that the positions are not only the standard's
own.  Each decision records the state's features from the deciding seat's
view (``mille.players.value.state_features``) and, when the hand is over,
whether that seat's side won it (1), lost (0) or tied (1/2).

It then fits a logistic model per family (numpy, Newton's method, an L2
penalty ``--ridge`` on the standardized features), holding out every
``--hold-out``-th hand, and prints for each family the rows, the held-out
log-loss (against a constant's), a calibration table of the held-out
rows (tenths of the predicted chance: the rows, the mean chance
predicted, the share won), and the CPU seconds of the self-play and of
the fit.  The weights go to ``--out`` (the package's data file by
default), with the seed, the data size, the log-loss and the CPU time
they cost.  Deals come from ``random.Random`` seeded with ``--seed`` and
the family: not the benchmarks' seeds (``bench/`` uses small seeds).

numpy is needed here only (``pip install -e '.[train]'``); the game never
imports it.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from mille.engine.rules import Rules, find_rules
from mille.engine.table import PICK, PLAYING, Move, Outcome, Table
from mille.engine.view import SeatView
from mille.players.heuristic import Heuristic
from mille.players.search import distinct_moves
from mille.players.value import (
    FAMILIES,
    ValueModel,
    Weights,
    load_value,
    model_from_dict,
    state_features,
)
from mille.selfplay import play_one_hand

Array = npt.NDArray[np.float64]
SEED_BASE = 700_000  # training deals: random.Random(SEED_BASE + 1000 * seed + family)

# the tables of each family, played in turn
TABLES: dict[str, tuple[tuple[str, int, str | None], ...]] = {
    "duel": (("classic", 2, None), ("milebymile", 2, None)),
    "teams": (("classic", 4, None), ("milebymile", 4, "2v2")),
    "sides": (("classic", 3, None), ("milebymile", 3, None)),
}


class Explorer:
    """The standard computer of one seat, with chance ``explore`` of
    another distinct move at a real decision; records each real decision's
    features (``rows``: seat, features)."""

    def __init__(self, rng: random.Random, seat: int, explore: float, rows: list[Any]) -> None:
        self.inner = Heuristic(rng, seat)
        self.seat = seat
        self.rng = rng
        self.explore = explore
        self.rows = rows

    def start_hand(self, view: SeatView) -> None:
        self.inner.start_hand(view)

    def observe(self, view: SeatView, outcome: Outcome) -> None:
        self.inner.observe(view, outcome)

    def choose(self, view: SeatView) -> Move:
        move: Move = self.inner.choose(view)
        if view.phase != PLAYING:
            return move
        legal = view.legal_moves()
        if PICK in legal:
            return move
        moves = distinct_moves(view, legal)
        if len(moves) < 2:
            return move
        self.rows.append((self.seat, state_features(view)))
        if self.rng.random() < self.explore:
            others = [m for m in moves if m != move]
            if others:
                return self.rng.choice(others)
        return move


def side_results(table: Table, rules: Rules) -> list[float]:
    """By side: 1 won the hand (strictly more than every other side), 0 lost,
    1/2 tied for the best."""
    scores = [table.hand_score(side).total for side in range(1, rules.sides + 1)]
    out = []
    for i, mine in enumerate(scores):
        best = max(s for j, s in enumerate(scores) if j != i)
        out.append(1.0 if mine > best else (0.5 if mine == best else 0.0))
    return out


def self_play(
    fam: str, hands: int, seed: int, explore: float
) -> tuple[Array, Array, npt.NDArray[np.int64]]:
    """The family's rows: features, result for the seat's side, hand number."""
    master = random.Random(SEED_BASE + 1000 * seed + FAMILIES.index(fam))
    tables = [find_rules(name, players=n, team_mode=mode) for name, n, mode in TABLES[fam]]
    xs: list[npt.NDArray[np.float32]] = []
    ys: list[float] = []
    hs: list[int] = []
    for hand in range(hands):
        rules = tables[hand % len(tables)]
        table = Table.new(rules, random.Random(master.getrandbits(64)))
        rows: list[Any] = []
        seats = [
            Explorer(random.Random(master.getrandbits(64)), seat, explore, rows)
            for seat in range(rules.players)
        ]
        play_one_hand(table, seats)
        results = side_results(table, rules)
        if rows:
            xs.append(np.array([features for _seat, features in rows], dtype=np.float32))
        for seat, _features in rows:
            ys.append(results[rules.side_of(seat) - 1])
            hs.append(hand)
    x = np.concatenate(xs).astype(np.float64)
    return x, np.array(ys), np.array(hs, dtype=np.int64)


def sigmoid(z: Array) -> Array:
    out: Array = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
    return out


def log_loss(p: Array, y: Array) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit_logistic(x: Array, y: Array, ridge: float, steps: int = 25) -> tuple[Array, float]:
    """Weights and bias of an L2-penalized logistic fit (soft labels), on the
    raw features (standardized inside, folded back)."""
    mu = x.mean(0)
    sd = x.std(0)
    keep = sd > 1e-9
    sd = np.where(keep, sd, 1.0)
    z = np.where(keep, (x - mu) / sd, 0.0)
    n, k = z.shape
    a = np.hstack([z, np.ones((n, 1))])
    w = np.zeros(k + 1)
    penalty = np.full(k + 1, ridge)
    penalty[-1] = 0.0
    for _ in range(steps):
        p = sigmoid(a @ w)
        grad = a.T @ (p - y) + penalty * w
        hess = (a * (p * (1 - p))[:, None]).T @ a + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.max(np.abs(step))) < 1e-7:
            break
    raw = np.where(keep, w[:k] / sd, 0.0)
    bias = float(w[k] - np.sum(raw * mu))
    return raw, bias


def calibration(p: Array, y: Array, bins: int = 10) -> list[list[float]]:
    """Rows, mean predicted chance, share won, by tenth of the predicted chance."""
    out = []
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        mask = (p >= lo) & ((p < hi) if b < bins - 1 else (p <= hi))
        n = int(mask.sum())
        if n:
            out.append([float(n), float(p[mask].mean()), float(y[mask].mean())])
        else:
            out.append([0.0, (lo + hi) / 2, 0.0])
    return out


def train(fam: str, args: argparse.Namespace) -> tuple[Weights, dict[str, Any]]:
    began = time.process_time()
    x, y, hand = self_play(fam, args.hands, args.seed, args.explore)
    played = time.process_time() - began
    test = hand % args.hold_out == 0
    w, b = fit_logistic(x[~test], y[~test], args.ridge)
    fitted = time.process_time() - began - played
    p = sigmoid(x[test] @ w + b)
    loss = log_loss(p, y[test])
    constant = log_loss(np.full(int(test.sum()), y[~test].mean()), y[test])
    table = calibration(p, y[test])
    print(
        f"{fam}: {args.hands} hands, {len(y)} decisions ({int(test.sum())} held out); "
        f"held-out log-loss {loss:.4f} (a constant: {constant:.4f}); "
        f"CPU {played:.0f} s self-play + {fitted:.1f} s fit"
    )
    print("  predicted   rows   mean   won")
    for k, (n, mean, won) in enumerate(table):
        print(f"  {k / 10:.1f}-{(k + 1) / 10:.1f}  {int(n):6d}  {mean:.3f}  {won:.3f}")
    report = {
        "hands": args.hands,
        "decisions": int(len(y)),
        "held_out": int(test.sum()),
        "log_loss": round(loss, 5),
        "constant_log_loss": round(constant, 5),
        "cpu_seconds": round(played + fitted, 1),
    }
    return Weights(b, tuple(float(v) for v in w)), report


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hands", type=int, default=3000, help="hands of self-play a family")
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--explore", type=float, default=0.2)
    parser.add_argument("--hold-out", type=int, default=10, help="every n-th hand held out")
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument(
        "--out", default="mille/players/data/value.json", help="the weights file to write"
    )
    parser.add_argument(
        "--keep",
        action="store_true",
        help="keep the families of the file at --out that are not trained now",
    )
    args = parser.parse_args(argv)
    families = args.families.split(",")
    for fam in families:
        if fam not in FAMILIES:
            parser.error(f"unknown family {fam!r} (choose from {', '.join(FAMILIES)})")
    if args.hands < args.hold_out or args.hold_out < 2:
        parser.error("--hands must be at least --hold-out, and --hold-out at least 2")
    weights: dict[str, Weights] = {}
    trained: dict[str, Any] = {}
    if args.keep:
        old = load_value(args.out)
        weights.update(old.families)
        trained.update(old.trained)
    for fam in families:
        weights[fam], trained[fam] = train(fam, args)
        trained[fam].update(seed=args.seed, explore=args.explore, ridge=args.ridge)
    model = ValueModel(weights, trained=trained)
    data = model.to_dict()
    model_from_dict(data)  # what the game will check
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
