"""Train the learned computer's weights (``mille/players/data/learned.json``).

    python -m training.train generate --out DIR --rules classic --seats 2 \
        --hands 40 --chunks 10 --seed 1 [--worlds 8] [--policy learned]
    python -m training.train fit --data DIR... --out FILE --seed 1 [--ridge 1.0]
        [--hold-out 0.2] [--limit N]
    python -m training.train curve --data DIR... [--seed 1]

``generate`` plays hands with the rules-aware heuristic (``--policy
learned``: the current learned model) in every seat and labels each
decision after a pick: every distinct candidate move is played out in
``--worlds`` worlds dealt from what the seat sees (the expert's playouts,
``mille.players.search.Sampler``, the standard computer or ``--policy`` in
every seat, the same worlds and random streams for every candidate), and
the decision is saved with each candidate's features and its mean value
(points of the hand against the best other side, plus the game's chances).
Each chunk of ``--hands`` hands is one file, written when done: a run that
stops resumes where it was (chunks already written are skipped).  Its
seeds (``--seed``, the chunk's number) are not the benchmarks' seeds.

``fit`` reads the decisions, holds a share out (by chunk, seeded), fits the
weights by ridge regression of each candidate's value less the decision's
mean value (in thousands of points) on its features less their decision
mean, shared weights plus one set per family of presets, writes the weights
with the seed, the data size and the time, and prints how often the model
and the heuristic choose the held-out decisions' best candidate and what
their choices lose against it.  ``curve`` fits on growing shares of the
data and prints the same for each (a learning curve).

numpy is needed here only (``pip install -e '.[train]'``); the game never
imports it.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from mille.engine.rules import find_rules
from mille.engine.table import Table
from mille.engine.view import SeatView
from mille.players.base import Player
from mille.players.features import FEATURE_NAMES, Decision, family
from mille.players.learned import SHARED, Learned, Model, load_model
from mille.players.registry import make_player
from mille.players.search import Sampler
from mille.selfplay import play_one_hand

Array = npt.NDArray[np.float64]
INDEX = {name: i for i, name in enumerate(FEATURE_NAMES)}
SCALE = 1000.0  # values in thousands of points


class LearnedSampler(Sampler):
    """The expert's worlds and playouts with the learned model in every seat."""

    model: Model

    def policies(self, views: Sequence[SeatView], rng: random.Random) -> list[Player]:
        return [Learned(rng, view.seat, self.model) for view in views]


class Labeller:
    """A player that plays as ``inner`` and labels its decisions."""

    def __init__(
        self, inner: Player, worlds: int, rng: random.Random, out: list[dict[str, Any]], policy: str
    ) -> None:
        self.inner = inner
        self.seat = inner.seat
        self.worlds = worlds
        self.rng = rng
        self.out = out
        self.policy = policy

    def start_hand(self, view: SeatView) -> None:
        self.inner.start_hand(view)

    def observe(self, view: SeatView, outcome: Any) -> None:
        self.inner.observe(view, outcome)

    def choose(self, view: SeatView) -> Any:
        legal = view.legal_moves()
        if view.phase == "playing" and not any(str(m) == "P" for m in legal) and len(legal) > 1:
            self.label(view, legal)
        return self.inner.choose(view)

    def label(self, view: SeatView, legal: list[Any]) -> None:
        decision = Decision(view, random.Random(self.rng.getrandbits(64)), legal)
        if len(decision.moves) < 2:
            return
        sampler: Sampler
        if self.policy == "learned":
            sampler = LearnedSampler(view)
            sampler.model = load_model()
        else:
            sampler = Sampler(view)
        totals = [0.0] * len(decision.moves)
        for _ in range(self.worlds):
            world = sampler.world(self.rng)
            seed = self.rng.getrandbits(64)
            for i, move in enumerate(decision.moves):
                value, _moves = sampler.playout(world, move, seed)
                totals[i] += value
        self.out.append(
            {
                "family": family(view.rules),
                "features": decision.features,
                "q": [t / self.worlds for t in totals],
            }
        )


def generate(args: argparse.Namespace) -> None:
    rules = find_rules(args.rules, players=args.seats, team_mode=args.teams)
    os.makedirs(args.out, exist_ok=True)
    for chunk in range(args.first, args.first + args.chunks):
        name = f"{args.rules}-{rules.players}-{args.policy}-s{args.seed}-c{chunk}.jsonl"
        path = os.path.join(args.out, name)
        if os.path.exists(path):
            continue  # resumed: done before
        began = time.perf_counter()
        master = random.Random(f"training {args.rules} {rules.players} {args.seed} {chunk}")
        out: list[dict[str, Any]] = []
        for _ in range(args.hands):
            table = Table.new(rules, random.Random(master.getrandbits(64)))
            seats: list[Player] = []
            for seat in range(rules.players):
                rng = random.Random(master.getrandbits(64))
                inner = make_player(rules, args.policy, seat, rng)
                seats.append(Labeller(inner, args.worlds, rng, out, args.policy))
            play_one_hand(table, seats)
        with open(path + ".part", "w", encoding="utf-8") as f:
            for record in out:
                f.write(json.dumps(record, separators=(",", ":")) + "\n")
        os.replace(path + ".part", path)
        print(
            f"{name}: {len(out)} decisions, {time.perf_counter() - began:.0f} s",
            flush=True,
        )


def read(paths: Sequence[str]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Every chunk file under ``paths`` (directories or files), sorted by name."""
    files: list[str] = []
    for path in paths:
        files += sorted(glob.glob(os.path.join(path, "*.jsonl"))) if os.path.isdir(path) else [path]
    chunks = []
    for name in sorted(files):
        with open(name, encoding="utf-8") as f:
            chunks.append((os.path.basename(name), [json.loads(line) for line in f]))
    return chunks


def split(
    chunks: list[tuple[str, list[dict[str, Any]]]], hold_out: float, seed: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The decisions to train on and those held out (whole chunks, seeded)."""
    order = list(range(len(chunks)))
    random.Random(seed).shuffle(order)
    held = set(order[: max(1, round(hold_out * len(chunks)))] if hold_out > 0 else [])
    train = [d for i, (_, ds) in enumerate(chunks) if i not in held for d in ds]
    test = [d for i, (_, ds) in enumerate(chunks) if i in held for d in ds]
    return train, test


def matrix(decision: dict[str, Any]) -> Array:
    rows = np.zeros((len(decision["features"]), len(FEATURE_NAMES)))
    for r, features in enumerate(decision["features"]):
        for name, value in features.items():
            rows[r, INDEX[name]] = value
    return rows


def fit(decisions: list[dict[str, Any]], ridge: float) -> Model:
    """Shared weights and one set per family, by ridge regression (see above)."""
    families = sorted({d["family"] for d in decisions})
    n = len(FEATURE_NAMES)
    # each family's sums: a decision's rows count for the shared block and
    # for its family's block alike
    xtx = {fam: np.zeros((n, n)) for fam in families}
    xty = {fam: np.zeros(n) for fam in families}
    for d in decisions:
        x = matrix(d)
        x -= x.mean(axis=0)
        q = np.asarray(d["q"], dtype=np.float64) / SCALE
        xtx[d["family"]] += x.T @ x
        xty[d["family"]] += x.T @ (q - q.mean())
    blocks = [SHARED] + families
    width = n * len(blocks)
    a = np.zeros((width, width))
    b = np.zeros(width)
    for k, fam in enumerate(families, start=1):
        part = slice(k * n, (k + 1) * n)
        a[:n, :n] += xtx[fam]
        a[:n, part] = a[part, :n] = a[part, part] = xtx[fam]
        b[:n] += xty[fam]
        b[part] = xty[fam]
    # the weights are pulled towards the heuristic's choice alone (its
    # weight fitted by itself), the shared block more lightly than each
    # family's own: the more ridge, the nearer the heuristic it plays
    h = INDEX["heuristic:choice"]
    prior = np.zeros(width)
    prior[h] = b[h] / a[h, h] if a[h, h] > 0 else 1.0
    penalty = np.full(width, ridge)
    penalty[:n] = ridge / 4
    w = np.linalg.solve(a + np.diag(penalty), b + penalty * prior)
    weights = {
        block: {FEATURE_NAMES[i]: float(w[k * n + i]) for i in range(n) if abs(w[k * n + i]) > 1e-9}
        for k, block in enumerate(blocks)
    }
    return Model(weights)


def evaluate(model: Model, decisions: list[dict[str, Any]]) -> dict[str, float]:
    """How often the model and the heuristic choose the best candidate of
    the held-out decisions (by their values), and what they lose to it."""
    hits = {"model": 0, "heuristic": 0}
    loss = {"model": 0.0, "heuristic": 0.0}
    for d in decisions:
        q = d["q"]
        best = max(q)
        scores = [model.score(f, d["family"]) for f in d["features"]]
        mine = max(range(len(q)), key=lambda i: scores[i])
        heur = max(range(len(q)), key=lambda i: d["features"][i].get("heuristic:choice", 0.0))
        for who, i in (("model", mine), ("heuristic", heur)):
            hits[who] += q[i] == best
            loss[who] += best - q[i]
    count = max(1, len(decisions))
    return {
        "held_out": len(decisions),
        "model_best": hits["model"] / count,
        "heuristic_best": hits["heuristic"] / count,
        "model_loss": loss["model"] / count,
        "heuristic_loss": loss["heuristic"] / count,
    }


def show(result: dict[str, float]) -> str:
    return (
        f"held out {int(result['held_out'])} decisions: best move chosen "
        f"model {result['model_best']:.1%}, heuristic {result['heuristic_best']:.1%}; "
        f"points lost to the best a decision: model {result['model_loss']:.1f}, "
        f"heuristic {result['heuristic_loss']:.1f}; model gains "
        f"{result['heuristic_loss'] - result['model_loss']:+.1f}"
    )


def choose_ridge(decisions: list[dict[str, Any]], ridges: Sequence[float], seed: int) -> float:
    """The ridge among ``ridges`` whose fit loses least on a seeded sixth of
    ``decisions`` (the training data's own, not the held-out ones)."""
    if len(ridges) == 1:
        return ridges[0]
    order = decisions[:]
    random.Random(seed + 1).shuffle(order)
    cut = len(order) // 6
    fitted = {r: evaluate(fit(order[cut:], r), order[:cut])["model_loss"] for r in ridges}
    for r, loss in fitted.items():
        print(f"  ridge {r:g}: validation loss {loss:.2f} a decision", flush=True)
    return min(ridges, key=lambda r: fitted[r])


def do_fit(args: argparse.Namespace) -> None:
    began = time.perf_counter()
    chunks = read(args.data)
    train, test = split(chunks, args.hold_out, args.seed)
    if args.limit:  # a seeded sample of that size (the chunks are by preset)
        random.Random(args.seed).shuffle(train)
        train = train[: args.limit]
    ridge = choose_ridge(train, args.ridge, args.seed)
    model = fit(train, ridge)
    seconds = time.perf_counter() - began
    result = evaluate(model, test) if test else {}
    trained = {
        "seed": args.seed,
        "ridge": ridge,
        "decisions": len(train),
        "held_out": len(test),
        "chunks": [name for name, _ in chunks],
        "seconds": round(seconds, 1),
        "command": " ".join(["python -m training.train", *sys.argv[1:]]),
        **{k: round(v, 4) for k, v in result.items()},
    }
    model = Model(model.weights, trained=trained)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(model.to_dict(), f, indent=1)
            f.write("\n")
    print(f"fit {len(train)} decisions in {seconds:.1f} s (seed {args.seed})")
    if result:
        print(show(result))


def curve(args: argparse.Namespace) -> None:
    chunks = read(args.data)
    train, test = split(chunks, args.hold_out, args.seed)
    random.Random(args.seed).shuffle(train)
    size = 250
    while True:
        size = min(size, len(train))
        model = fit(train[:size], choose_ridge(train[:size], args.ridge, args.seed))
        print(f"{size} decisions: {show(evaluate(model, test))}", flush=True)
        if size == len(train):
            break
        size *= 2


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m training.train")
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="label decisions by playouts")
    gen.add_argument("--out", required=True)
    gen.add_argument("--rules", default="classic")
    gen.add_argument("--seats", type=int, default=2)
    gen.add_argument("--teams", default=None)
    gen.add_argument("--hands", type=int, default=20, help="hands per chunk")
    gen.add_argument("--chunks", type=int, default=10)
    gen.add_argument("--first", type=int, default=0, help="the first chunk's number")
    gen.add_argument("--seed", type=int, default=1)
    gen.add_argument("--worlds", type=int, default=8)
    gen.add_argument("--policy", default="heuristic", choices=("heuristic", "learned"))
    for name in ("fit", "curve"):
        p = sub.add_parser(name, help="fit the weights" if name == "fit" else "a learning curve")
        p.add_argument("--data", nargs="+", required=True)
        p.add_argument("--seed", type=int, default=1)
        p.add_argument(
            "--ridge", type=float, nargs="+", default=[1.0], help="the best on validation"
        )
        p.add_argument("--hold-out", type=float, default=0.2)
        if name == "fit":
            p.add_argument("--out", default=None)
            p.add_argument(
                "--limit", type=int, default=0, help="train on N decisions drawn at random"
            )
    args = parser.parse_args(argv)
    if args.command == "generate":
        generate(args)
    elif args.command == "fit":
        do_fit(args)
    else:
        curve(args)


if __name__ == "__main__":
    main()
