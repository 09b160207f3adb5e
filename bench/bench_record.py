"""The record's cost (issue 47): the bytes a game takes in the database now
that each is kept whole, and the time ``mille --stats`` takes on 10,000
games, which must not grow.

    python bench/bench_record.py [--games N] [--runs N] [--rows N] [--baseline REV]

**Bytes.** Whole games are played by the computers (``--games`` of each
kind: ``classic`` with 4 players, ``milebymile`` with 9) and noted hand by
hand as the recorder notes them; for each kind it prints the hands a game
has, its game file's bytes as JSON and as the record keeps it (bzip2), each
a mean with its 95% interval over the games, and the database's bytes a
game with the moves and without them (the same games, ``--rows`` rows of
each, so the pages' rounding counts for little).

**Time.** A record of 10,000 games (the games played, repeated under new
keys, four people and the three levels) is read by ``--stats`` in a fresh
process each run (``main(["--stats"])``, its output thrown away; the
interpreter's own start not counted).  ``--baseline REV`` also times the
code of git revision REV on the same games as its schema keeps them (the
record of schema 2, with no moves: made from the same file), the runs
interleaved, and prints the ratio with its 95% interval.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile

import revision
from bench_levels import mean_interval

from mille.engine.rules import Rules, find_rules
from mille.game.history import History, hand_of
from mille.game.session import Session
from mille.storage import gamefile, record
from mille.storage.shapes import rules_to_dict

ROOT = revision.ROOT
KINDS = {
    "classic, 4 players": find_rules("classic", players=4),
    "milebymile, 9 players": find_rules("milebymile", players=9),
}
PEOPLE = ("Ann", "Bob", "Cy", "Dee")
TIMED = """
import contextlib, io, sys, time
start = time.perf_counter()
from mille.frontends.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    status = main(["--stats"])
print(time.perf_counter() - start, status)
"""


def whole_game(rules: Rules, seed: int, level: str) -> tuple[int, str]:
    """A game the computers play to its end, one seat a person's (played
    by a computer of the same level, as the record sees a person): its
    hands and its game file's compact text."""
    game = Session.new(rules, seed=seed, humans=(0,), names={0: "Ann"}, level=level)
    stand_in = game.stand_in(0, seed)
    hands = []
    while True:
        table = game.table
        if table.hand_over:
            hand = hand_of(game.cards_dealt, game.log, game.orders)
            assert hand is not None
            hands.append(hand)
            if table.game_over:
                break
            game.next_hand()
            stand_in.start_hand(game.view(0))
        elif game.computer_to_move:
            game.computer_move()
        else:
            game.play(stand_in.choose(game.view(0)))
    computers = {seat: level for seat in game.computers}
    kept = History(rules, {0: "Ann"}, computers, tuple(hands))
    return len(hands), gamefile.dumps(kept, compact=True)


def recorded(rules: Rules, number: int, text: str | None, person: str = "Ann") -> record.Game:
    """A game as the record keeps it, numbered ``number`` (its key and its
    end), ``text`` its moves."""
    sides = rules.sides
    level = ("easy", "standard", "expert")[number % 3]
    return record.Game(
        key=f"{number:032x}",
        ended=f"2026-{1 + number // 40000 % 12:02d}-01T00:{number // 60 % 60:02d}:{number % 60:02d}Z",
        seconds=600.0,
        rules=rules.name,
        options=rules_to_dict(rules),
        place="keyboard",
        level=level,
        seats=tuple(
            record.Seat(
                seat,
                rules.side_of(seat),
                name=person if seat == 0 else None,
                level=None if seat == 0 else level,
                here=seat == 0,
            )
            for seat in range(rules.players)
        ),
        sides=tuple(
            record.Side(side, 5000 - 700 * side, (2500, 2500), 1, 3) for side in range(1, sides + 1)
        ),
        history=text,
    )


def write(where: str, games: list[record.Game]) -> None:
    """``games`` into a new record at ``where``, in one transaction."""
    db = record.connect(where)
    try:
        db.execute("BEGIN IMMEDIATE")
        for one in games:
            record._insert(db, one)
        db.execute("COMMIT")
    finally:
        db.close()


def interval(values: list[float]) -> str:
    mean, half = mean_interval(values)
    return f"{mean:,.0f} (95% {mean - half:,.0f}-{mean + half:,.0f})"


def measure_bytes(kind: str, rules: Rules, games: int, rows: int, level: str, tmp: str) -> None:
    played = [whole_game(rules, seed, level) for seed in range(1, games + 1)]
    texts = [text for _, text in played]
    print(f"{kind}: {games} games ({level} computers)")
    print(f"  hands a game: {interval([float(hands) for hands, _ in played])}")
    print(f"  game file, JSON: {interval([float(len(t.encode())) for t in texts])} bytes")
    packed = [float(len(record._packed(t))) for t in texts]
    print(f"  game file, as the record keeps it (bzip2): {interval(packed)} bytes")
    sizes: dict[str, float] = {}
    for label, whole in (("without the moves", False), ("with the moves", True)):
        where = os.path.join(tmp, f"{len(sizes)}-{rules.players}.sqlite3")
        write(
            where,
            [
                recorded(rules, n, texts[n % games] if whole else None)
                for n in range(1, rows * games + 1)
            ],
        )
        sizes[label] = os.path.getsize(where) / (rows * games)
        print(f"  the database a game, {label}: {sizes[label]:,.0f} bytes")


def stats_record(tmp: str, rows: int, level: str) -> tuple[str, str]:
    """A record of ``rows`` games at schema 3 (with their moves) and the
    same at schema 2 (none), in their own data folders."""
    texts = [
        (rules, whole_game(rules, seed, level)[1])
        for rules in KINDS.values()
        for seed in range(1, 4)
    ]
    now, before = os.path.join(tmp, "now", "mille"), os.path.join(tmp, "before", "mille")
    os.makedirs(now)
    os.makedirs(before)
    games = []
    for number in range(1, rows + 1):
        rules, text = texts[number % len(texts)]
        games.append(recorded(rules, number, text, PEOPLE[number % len(PEOPLE)]))
    write(os.path.join(now, record.FILE), games)
    shutil.copy(os.path.join(now, record.FILE), os.path.join(before, record.FILE))
    db = sqlite3.connect(os.path.join(before, record.FILE))
    db.executescript("DROP TABLE moves; PRAGMA user_version = 2; VACUUM;")
    db.close()
    return os.path.dirname(now), os.path.dirname(before)


def time_stats(tree: str, data: str) -> float:
    done = subprocess.run(
        [sys.executable, "-S", "-c", TIMED],
        env={**os.environ, "PYTHONPATH": tree, "XDG_DATA_HOME": data, "LANG": "C.UTF-8"},
        capture_output=True,
        text=True,
        check=False,
    )
    seconds, status = done.stdout.split()
    if status != "0":
        sys.exit(f"bench_record.py: --stats failed: {done.stderr.strip()[-200:]}")
    return float(seconds)


def measure_stats(args: argparse.Namespace, tmp: str) -> None:
    now, before = stats_record(tmp, args.stats_games, args.level)
    print(f"--stats on {args.stats_games:,} games, {args.runs} runs, seconds (median; mean, 95%):")
    with revision.worktree(args.baseline) if args.baseline else _no_tree() as tree:
        times: dict[str, list[float]] = {"this tree": []}
        if tree:
            times[f"{args.baseline}"] = []
        for _ in range(args.runs):
            times["this tree"].append(time_stats(ROOT, now))
            if tree:
                times[f"{args.baseline}"].append(time_stats(tree, before))
    for label, values in times.items():
        mean, half = mean_interval(values)
        print(
            f"  {label}: {statistics.median(values):.3f}; {mean:.3f} ({mean - half:.3f}-"
            f"{mean + half:.3f})"
        )
    if args.baseline:
        ratios = [a / b for a, b in zip(times["this tree"], times[f"{args.baseline}"])]
        mean, half = mean_interval(ratios)
        print(
            f"  ratio this tree / {args.baseline}: {mean:.3f} ({mean - half:.3f}-{mean + half:.3f})"
        )


class _no_tree:
    def __enter__(self) -> str:
        return ""

    def __exit__(self, *_: object) -> None:
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="whole games of each kind")
    parser.add_argument("--rows", type=int, default=100, help="rows of each game (bytes)")
    parser.add_argument("--runs", type=int, default=10, help="--stats runs of each")
    parser.add_argument("--stats-games", type=int, default=10_000)
    parser.add_argument("--level", default="standard")
    parser.add_argument("--baseline", help="a git revision timed side by side")
    parser.add_argument("--only", choices=("bytes", "stats"))
    args = parser.parse_args()
    if args.baseline:
        revision.resolve(args.baseline)
    tmp = tempfile.mkdtemp(prefix="mille-bench-record-")
    try:
        if args.only != "stats":
            for kind, rules in KINDS.items():
                measure_bytes(kind, rules, args.games, args.rows, args.level, tmp)
        if args.only != "bytes":
            measure_stats(args, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
