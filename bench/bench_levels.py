"""Benchmark: one level against another on duplicate deals.

    python bench/bench_levels.py --rules bsd --players expert,standard --deals 200
        [--seed S] [--workers W] [--games N] [--seats N] [--teams MODE]
        [--baseline REV]

Each deal (seeded) is played twice with the kinds swapped between the
seats, so the luck of the deal cancels: with ``--players A,B`` seat 0 plays
A and seat 1 plays B, then seat 0 plays B and seat 1 A, on the same cards
(with more seats, seats alternate the two kinds, side by side).  A deal is
one hand from a fresh table; ``--games N`` also plays N duplicate whole
games to the winning score (every hand of a game comes from the game's own
seeded dealer, the same in both runs).

Prints, for the first kind A:

* the share of decided hands it won (a hand is decided when the two kinds'
  sides scored differently), with its 95% Wilson interval;
* the points per hand it made more than B, with its 95% interval (from the
  deal pairs, whose two hands share the luck of the deal);
* with ``--games``, the share of whole games it won, with its 95% interval;
* the median and 95th-percentile time per decision of each kind, counting
  only real decisions (more than one legal move), and the slowest; for the
  expert, the share of decisions that took longer than its time cap.

The expert plays here without its time cap (``Budget.seconds``), so that
the figures do not depend on how busy the machine is: the same seeds give
the same games.  In play, the cap cuts short the decisions counted as
longer than it.

``--baseline REV`` makes B the kind as a git revision's code plays it,
in the same run: ``--players standard,standard --baseline c73a8c6`` is the
current tree's standard (A) against c73a8c6's standard (B, reported as
``standard@c73a8c6``).  The revision's ``mille/`` is extracted to a
temporary directory as the package ``mille_base`` and its players are
imported from there; the engine (``mille.engine``; in a revision from
before the packages, its ``table`` and ``battle`` modules) is the current
tree's for both kinds, so both play the same game and the revision's
players read today's tables and moves.

``--save FILE`` also writes the raw tallies (JSON); ``--merge FILE...``
prints the figures of several saved runs together (runs of at most ten
minutes each add up to a long measurement).  Run it under ``nice`` with
one worker on a shared machine.  A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import io
import json
import math
import multiprocessing
import os
import random
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import mille.engine
import mille.engine.battle
import mille.engine.moves
import mille.engine.state
import mille.engine.table
import mille.engine.tableau
from mille.engine.rules import WINDOW, Rules, find_rules
from mille.engine.table import OVER, Move, Outcome, Table
from mille.engine.view import SeatView
from mille.players.base import Player
from mille.players.expert import DEFAULT_BUDGET, Expert
from mille.players.search import CUT_BUDGET, FULL_BUDGET
from mille.selfplay import PLAYERS, play_one_hand

Z95 = 1.959964


@dataclass
class Tally:
    """What a batch of deals and games measured."""

    decided: int = 0  # hands where the two kinds scored differently
    won: int = 0  # ... won by the first kind
    hands: int = 0
    pair_diffs: list[float] = field(default_factory=list)  # per deal: A - B, both runs
    games: int = 0  # games with a winner
    games_won: int = 0
    game_hands: int = 0
    # the hands of the games, paired as deals (the k-th hand of both runs)
    game_decided: int = 0
    game_won: int = 0
    game_pair_diffs: list[float] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)  # by kind

    def add(self, other: Tally) -> None:
        self.decided += other.decided
        self.won += other.won
        self.hands += other.hands
        self.pair_diffs += other.pair_diffs
        self.games += other.games
        self.games_won += other.games_won
        self.game_hands += other.game_hands
        self.game_decided += other.game_decided
        self.game_won += other.game_won
        self.game_pair_diffs += other.game_pair_diffs
        for kind, times in other.times.items():
            self.times.setdefault(kind, []).extend(times)


class Timed:
    """A player whose real decisions (more than one legal move) are timed."""

    def __init__(self, player: Player, times: list[float]) -> None:
        self.player = player
        self.seat = player.seat
        self.times = times

    # what the driver gives (a seat's view; a table in revisions before
    # players were given views) is passed on as it is

    def start_hand(self, view: Any) -> None:
        self.player.start_hand(view)

    def observe(self, view: Any, outcome: Any) -> None:
        self.player.observe(view, outcome)

    def choose(self, view: Any) -> object:
        real = len(view.legal_moves()) > 1
        began = time.perf_counter()
        move = self.player.choose(view)
        if real:
            self.times.append(time.perf_counter() - began)
        return move


class TableFed:
    """A player of a revision from before players were given their seat's
    view: it is given the table behind the view, as it was then."""

    def __init__(self, player: Any) -> None:
        self.player = player
        self.seat: int = player.seat

    def start_hand(self, view: SeatView) -> None:
        self.player.start_hand(view._table)

    def observe(self, view: SeatView, outcome: Outcome) -> None:
        self.player.observe(view._table, outcome)

    def choose(self, view: SeatView) -> Move:
        move: Move = self.player.choose(view._table)
        return move


def seat_kinds(rules: Rules, a: str, b: str, swapped: bool) -> list[str]:
    """A kind per seat: sides alternate A and B (B and A when swapped)."""
    return [
        (b if swapped else a) if (rules.side_of(seat) - 1) % 2 == 0 else (a if swapped else b)
        for seat in range(rules.players)
    ]


def side_scores(table: Table, rules: Rules, kinds: list[str], a: str) -> tuple[float, float]:
    """The mean hand score of A's sides and of B's sides."""
    mine: list[int] = []
    theirs: list[int] = []
    for side in range(1, rules.sides + 1):
        kind = kinds[rules.members(side)[0]]
        (mine if kind == a else theirs).append(table.hand_score(side).total)
    return max(mine), max(theirs)


UNCAPPED = dataclasses.replace(DEFAULT_BUDGET, seconds=None)
# the expert's variants a bench may name (as it plays, without its time cap):
# full playouts, and playouts cut after k moves and scored by the learned value
EXPERTS = {
    "expert": UNCAPPED,
    "expert-full": dataclasses.replace(FULL_BUDGET, seconds=None),
    **{
        f"expert-cut{k}": dataclasses.replace(CUT_BUDGET, horizon=k, seconds=None)
        for k in (16, 24, 32, 48)
    },
}


BASE = "mille_base"  # the package name of a revision's code
# modules always taken from the current tree: in a revision with the engine
# package, all of it; in one from before, its table and battle modules
FLAT_ENGINE = {"table": mille.engine.table, "battle": mille.engine.battle}


def flat_table() -> ModuleType:
    """The current tree's ``table`` as a revision from before the engine
    package imports it: every name its ``table`` module had, some of which
    (``Tableau``, the move classes) now live in other engine modules."""
    shim = ModuleType(f"{BASE}.table")
    for module in (mille.engine.tableau, mille.engine.moves, mille.engine.state):
        shim.__dict__.update({k: v for k, v in vars(module).items() if not k.startswith("__")})
    shim.__dict__.update({k: v for k, v in vars(mille.engine.table).items() if k != "__name__"})
    # what its players asked of a table then, under today's names (in this
    # process only: the bench's tables are today's, shared by both kinds)
    table = mille.engine.table.Table
    if not hasattr(table, "is_bsd"):
        table.is_bsd = property(lambda t: t.rules.coup == WINDOW)  # type: ignore[attr-defined]
    if not hasattr(table, "is_legal"):
        table.is_legal = lambda t, move: t.check(move) is None  # type: ignore[attr-defined]
    return shim


_loaded: dict[str, ModuleType] = {}  # extracted directory -> its selfplay module


class BaselineError(ValueError):
    """A revision that cannot be measured; the message says why."""


def extract_baseline(rev: str, repo: str | None = None) -> str:
    """The revision's ``mille/`` extracted as ``mille_base`` in a new
    temporary directory; :class:`BaselineError` for an unknown revision."""
    repo = repo or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    found = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", rev + "^{commit}"],
        cwd=repo,
        capture_output=True,
        text=True,
    )
    if found.returncode != 0:
        raise BaselineError(f"unknown revision {rev!r}")
    commit = found.stdout.strip()
    archive = subprocess.run(
        ["git", "archive", "--format=tar", commit, "mille"], cwd=repo, capture_output=True
    )
    if archive.returncode != 0:
        raise BaselineError(f"revision {rev!r} has no mille package")
    where = tempfile.mkdtemp(prefix="bench_levels_")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        extract_safely(tar, where)
    os.rename(os.path.join(where, "mille"), os.path.join(where, BASE))
    return where


def extract_safely(tar: tarfile.TarFile, where: str) -> None:
    """The archive's plain files and directories written under ``where``, and
    nothing else: a link, a device, an absolute name or one that climbs out of
    ``where`` is a :class:`BaselineError` before anything is written (what
    ``extractall(filter="data")`` does, on the Pythons before it: 3.10.12
    and 3.11.4; Debian's 3.11.2 has none)."""
    root = os.path.realpath(where)
    members = tar.getmembers()
    for member in members:
        target = os.path.realpath(os.path.join(root, member.name))
        inside = target == root or target.startswith(root + os.sep)
        if not (member.isfile() or member.isdir()) or os.path.isabs(member.name) or not inside:
            raise BaselineError(f"the archive's member {member.name!r} is not a plain file")
    for member in members:
        target = os.path.join(root, member.name)
        if member.isdir():
            os.makedirs(target, exist_ok=True)
            continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        source = tar.extractfile(member)
        assert source is not None  # a regular file's contents
        with source, open(target, "wb") as out:
            shutil.copyfileobj(source, out)


def load_baseline(where: str) -> ModuleType:
    """The selfplay module of the revision extracted in ``where`` (once per
    process), its engine modules being the current tree's."""
    if where in _loaded:
        return _loaded[where]
    if _loaded:
        raise BaselineError("one baseline revision per process")
    sys.path.insert(0, where)
    package = importlib.import_module(BASE)
    layered = os.path.isdir(os.path.join(where, BASE, "engine"))
    if layered:
        engine = {
            name.removeprefix("mille."): module
            for name, module in sys.modules.items()
            if name == "mille.engine" or name.startswith("mille.engine.")
        }
    else:
        engine = {**FLAT_ENGINE, "table": flat_table()}
    for name, module in engine.items():
        sys.modules[f"{BASE}.{name}"] = module
        if "." not in name:
            setattr(package, name, module)
    players = f"{BASE}.players." if layered else f"{BASE}."
    try:
        selfplay = importlib.import_module(f"{BASE}.selfplay")
        for kind in ("easy", "heuristic", "expert", "computer", "autoplayers"):
            importlib.import_module(players + kind)
    except ImportError as exc:
        raise BaselineError(f"the revision's players do not run on this engine: {exc}") from None
    _loaded[where] = selfplay
    return selfplay


def make_player(
    rules: Rules, kind: str, rng: random.Random, seat: int, baseline: str | None = None
) -> Player:
    """The kind's player (the expert without its time cap); a kind named
    ``kind@rev`` is the revision's, extracted in ``baseline``."""
    if "@" in kind:
        assert baseline is not None, "a revision's kind without its code"
        selfplay = load_baseline(baseline)
        kind = kind.split("@")[0]
        if kind == "expert":
            expert = sys.modules.get(f"{BASE}.players.expert") or sys.modules[f"{BASE}.expert"]
            budget = dataclasses.replace(expert.DEFAULT_BUDGET, seconds=None)
            player = expert.Expert(rng, seat, budget=budget)
        else:
            player = selfplay.PLAYERS[kind](rules, rng, seat)
        if not os.path.exists(os.path.join(baseline, BASE, "engine", "view.py")):
            return TableFed(player)
        return player  # type: ignore[no-any-return]
    if kind in EXPERTS:
        return Expert(rng, seat, budget=EXPERTS[kind])
    return PLAYERS[kind](rules, rng, seat)


Job = tuple[Rules, str, str, int, int, "str | None"]  # rules, A, B, count, seed, baseline


def make_seats(
    rules: Rules, kinds: list[str], seed: int, tally: Tally, baseline: str | None = None
) -> list[Timed]:
    master = random.Random(seed)
    return [
        Timed(
            make_player(rules, kind, random.Random(master.getrandbits(64)), seat, baseline),
            tally.times.setdefault(kind, []),
        )
        for seat, kind in enumerate(kinds)
    ]


def play_deals(args: Job) -> Tally:
    """``count`` duplicate deals from ``seed``."""
    rules, a, b, count, seed, baseline = args
    tally = Tally()
    master = random.Random(seed)
    for _ in range(count):
        deal_seed = master.getrandbits(64)
        players_seed = master.getrandbits(64)
        diff = 0.0
        for swapped in (False, True):
            kinds = seat_kinds(rules, a, b, swapped)
            table = Table.new(rules, random.Random(deal_seed))
            seats = make_seats(rules, kinds, players_seed, tally, baseline)
            play_one_hand(table, seats)  # type: ignore[arg-type]
            mine, theirs = side_scores(table, rules, kinds, a)
            tally.hands += 1
            diff += mine - theirs
            if mine != theirs:
                tally.decided += 1
                tally.won += mine > theirs
        tally.pair_diffs.append(diff / 2)
    return tally


def play_games(args: Job) -> Tally:
    """``count`` duplicate whole games from ``seed``."""
    rules, a, b, count, seed, baseline = args
    tally = Tally()
    master = random.Random(seed)
    for _ in range(count):
        deal_seed = master.getrandbits(64)
        players_seed = master.getrandbits(64)
        diffs: list[list[float]] = []
        for swapped in (False, True):
            kinds = seat_kinds(rules, a, b, swapped)
            dealer = random.Random(deal_seed)
            table = Table.new(rules, dealer)
            seats = make_seats(rules, kinds, players_seed, tally, baseline)
            diffs.append([])
            while True:
                play_one_hand(table, seats)  # type: ignore[arg-type]
                tally.game_hands += 1
                mine, theirs = side_scores(table, rules, kinds, a)
                diffs[-1].append(mine - theirs)
                if mine != theirs:
                    tally.game_decided += 1
                    tally.game_won += mine > theirs
                if table.game_over:
                    break
                table.new_hand(dealer)
            totals = [table.total(side) for side in range(1, rules.sides + 1)]
            top = max(totals)
            if totals.count(top) == 1:
                tally.games += 1
                winner = totals.index(top) + 1
                tally.games_won += kinds[rules.members(winner)[0]] == a
            assert table.phase == OVER
        # the k-th hands of the two runs were dealt the same cards
        tally.game_pair_diffs += [(x + y) / 2 for x, y in zip(*diffs)]
    return tally


def wilson(k: int, n: int) -> tuple[float, float, float]:
    """Share and 95% Wilson interval."""
    if n == 0:
        return math.nan, math.nan, math.nan
    p = k / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return p, centre - half, centre + half


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% normal interval."""
    n = len(values)
    if n < 2:
        return (values[0] if values else math.nan), math.nan
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, Z95 * math.sqrt(var / n)


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return math.nan
    k = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[k]


def run(jobs: list[Job], worker: Callable[[Job], Tally], workers: int) -> Tally:
    total = Tally()
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            for part in pool.imap_unordered(worker, jobs):
                total.add(part)
    else:
        for job in jobs:
            total.add(worker(job))
            sys.stderr.write(".")
            sys.stderr.flush()
        sys.stderr.write("\n")
    return total


def report(tally: Tally, a: str, b: str, head: str) -> None:
    """Print the figures of ``tally`` (A is the first kind)."""
    print(head)

    def hands(where: str, won: int, decided: int, diffs: list[float]) -> None:
        p, lo, hi = wilson(won, decided)
        print(
            f"  decided hands{where} won by {a}: {won}/{decided} = {p:.1%} "
            f"(95% interval {lo:.1%} to {hi:.1%})"
        )
        mean, half = mean_interval(diffs)
        print(
            f"  points per hand{where} ({len(diffs)} deals), {a} minus {b}: {mean:+.1f} "
            f"(95% interval {mean - half:+.1f} to {mean + half:+.1f})"
        )

    if tally.hands:
        hands("", tally.won, tally.decided, tally.pair_diffs)
    if tally.game_hands:
        p, lo, hi = wilson(tally.games_won, tally.games)
        print(
            f"  whole games won by {a}: {tally.games_won}/{tally.games} = {p:.1%} "
            f"(95% interval {lo:.1%} to {hi:.1%}; {tally.game_hands} hands)"
        )
        # (the k-th hands of the two runs of a game, when both played one)
        hands(" within those games", tally.game_won, tally.game_decided, tally.game_pair_diffs)
    for kind in (a, b):
        times = tally.times.get(kind, [])
        if times:
            print(
                f"  {kind}: {len(times)} real decisions, median "
                f"{percentile(times, 0.5) * 1000:.1f} ms, 95th percentile "
                f"{percentile(times, 0.95) * 1000:.1f} ms, slowest "
                f"{max(times) * 1000:.0f} ms"
            )
            cap = DEFAULT_BUDGET.seconds
            if kind in EXPERTS and cap is not None:
                over = sum(t > cap for t in times)
                print(
                    f"  {kind}: {over} decisions ({over / len(times):.2%}) longer than "
                    f"its {cap} s time cap"
                )


def merge(paths: Sequence[str]) -> None:
    """Print the figures of saved runs added up."""
    total = Tally()
    kinds: tuple[str, str] | None = None
    for path in paths:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        if kinds is not None and tuple(data["kinds"]) != kinds:
            raise SystemExit(f"bench_levels: {path} measures {data['kinds']}, not {kinds}")
        kinds = (data["kinds"][0], data["kinds"][1])
        total.add(Tally(**data["tally"]))
    assert kinds is not None
    report(
        total,
        kinds[0],
        kinds[1],
        f"{len(paths)} runs together: {kinds[0]} against "
        f"{kinds[1]}, {len(total.pair_diffs)} duplicate deals ({total.hands} hands), "
        f"{total.games} decided games",
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rules", default="bsd")
    parser.add_argument(
        "--players", default="expert,standard", help="the two kinds, A,B (A is measured)"
    )
    parser.add_argument("--seats", type=int, default=None, help="seats (default: 2)")
    parser.add_argument("--teams", default=None, help="milebymile's team mode")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--games", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=10, help="deals or games per job")
    parser.add_argument(
        "--baseline", metavar="REV", help="B plays as this git revision's code (see above)"
    )
    parser.add_argument("--save", metavar="FILE", help="also write the raw tallies (JSON)")
    parser.add_argument(
        "--merge",
        metavar="FILE",
        nargs="+",
        help="print the figures of saved runs together, and nothing else",
    )
    args = parser.parse_args(argv)
    if args.merge:
        merge(args.merge)
        return
    a, b = args.players.split(",")
    for kind in (a, b):
        if kind not in PLAYERS and kind not in EXPERTS:
            parser.error(f"unknown player {kind!r}")
    rules = find_rules(args.rules, players=args.seats, team_mode=args.teams)
    baseline: str | None = None
    if args.baseline:
        try:
            baseline = extract_baseline(args.baseline)
            load_baseline(baseline)
        except BaselineError as exc:
            raise SystemExit(f"bench_levels: {exc}") from None
        b = f"{b}@{args.baseline}"
    began = time.perf_counter()

    def jobs(count: int, salt: int) -> list[Job]:
        sizes = [args.chunk] * (count // args.chunk) + (
            [count % args.chunk] if count % args.chunk else []
        )
        return [
            (rules, a, b, size, args.seed * 100003 + salt + i, baseline)
            for i, size in enumerate(sizes)
        ]

    try:
        tally = run(jobs(args.deals, 0), play_deals, args.workers) if args.deals else Tally()
        if args.games:
            tally.add(run(jobs(args.games, 50000), play_games, args.workers))
    finally:
        if baseline is not None:
            shutil.rmtree(baseline, ignore_errors=True)
    seconds = time.perf_counter() - began

    report(
        tally,
        a,
        b,
        f"{args.rules} ({rules.players} seats, {rules.team_mode}): {a} against "
        f"{b}, {args.deals} duplicate deals ({tally.hands} hands), {args.games} duplicate "
        f"games, seed {args.seed}, {args.workers} worker(s), {seconds:.0f} s",
    )
    if args.save:
        with open(args.save, "w", encoding="utf-8") as f:
            json.dump({"kinds": [a, b], "rules": args.rules, "tally": dataclasses.asdict(tally)}, f)


if __name__ == "__main__":
    main()
