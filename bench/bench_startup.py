"""Start-up time: from exec to a complete first board, in a pseudo-terminal.

Measures ``mille --seed 1`` (the installed console script) and, as the
floor, a bare Python program that draws a similar 80x24 screen with curses
and waits for a key.  Both run under the same interpreter in an 80x24 pty;
the clock stops when the screen (as pyte renders it) shows the whole board.

    python bench/bench_startup.py [--runs N] [--baseline REV]

Prints the median and best times and the ratio mille / floor.
``--lang CODE`` also times ``mille --lang CODE --seed 1`` (the catalog
read, the board in that language).
``--baseline REV`` also times ``python -m mille --seed 1`` on the code of
git revision REV (a commit hash, a branch or a tag; e.g. ``67d8018``,
mille 1.0) from a temporary worktree, interleaved with the others.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import pexpect
import pyte
import revision

FLOOR = r"""
import curses
scr = curses.initscr()
curses.noecho(); curses.cbreak()
rows = [
    (0, 40, "|                     You   Comp   Value"),
    (1, 40, "| Milestones Played     0     0"),
    (2, 40, "|       Each Safety     0     0      100"),
    (3, 40, "|    All 4 Safeties     0     0      300"),
    (4, 40, "|  Each Coup Fourre     0     0      300"),
    (5, 0, "--HAND--            --DECK--            |                    ----   ----   -----"),
    (6, 0, "P                     89                |        Hand Total     0     0"),
    (7, 0, "1 Repairs           --DISCARD--         |                   -----  -----"),
    (8, 0, "2 Go                                    |     Overall Total     0     0"),
    (9, 0, "3 25                                    |              Games    0     0"),
    (10, 0, "4 Out of Gas                            |"),
    (11, 0, "5 Flat Tire                             | p: pick            q: quit"),
    (12, 0, "6 Gasoline                              | u: use #           o: order hand"),
    (13, 0, "--BATTLE--          --BATTLE--          | d: discard #       s: save"),
    (14, 40, "| w: toggle window   r: reprint"),
    (15, 0, "--SPEED--           --SPEED--           |"),
    (16, 40, "|" + "_" * 39),
    (17, 0, "--MILEAGE--                              --MILEAGE--"),
]
for y, x, text in rows:
    scr.addstr(y, x, text)
scr.addstr(10, 20, ">>:Move:", curses.A_STANDOUT)
scr.addstr(10, 28, " ")
scr.refresh()
scr.getch()
curses.endwin()
"""


PROMPT, MILEAGE = ">>:Move:", "--MILEAGE--"  # in the language timed: see words()


def words(code: str | None) -> tuple[str, str]:
    """The prompt and the mileage heading in language ``code`` (None: English)."""
    if code is None:
        return ">>:Move:", "--MILEAGE--"
    from mille import i18n

    i18n.choose(code)
    try:
        return i18n._(">>:Move:"), i18n._("--MILEAGE--")
    finally:
        i18n.use(None)


def board_complete(screen: pyte.Screen, prompt: str = PROMPT, mileage: str = MILEAGE) -> bool:
    lines = screen.display
    return (
        lines[10][20 : 20 + len(prompt)] == prompt
        and lines[17].startswith(mileage)
        and lines[17][41 : 41 + len(mileage)] == mileage
        and lines[12][:2] == "6 "
        and lines[12][2:20].strip() != ""
        and lines[14][40:42] == "| "
        and lines[16].endswith("_")
    )


PYCACHE = tempfile.mkdtemp(prefix="mille-bench-pycache-")
# Private state directories: each run is ended by a signal, and mille keeps
# the interrupted game there (a later plain mille would ask to resume it).
STATE = tempfile.mkdtemp(prefix="mille-bench-state-")


def time_once(
    command: str, args: list[str], path: str | None = None, lang: str | None = None
) -> float:
    # As an installed program runs: with compiled bytecode cached (here in a
    # private directory, so the source tree is left alone).
    env = dict(
        os.environ,
        TERM="screen",
        PYTHONPYCACHEPREFIX=PYCACHE,
        XDG_STATE_HOME=tempfile.mkdtemp(dir=STATE),
    )  # a fresh one: no resume offer
    for name in (
        "LINES",
        "COLUMNS",
        "PYTHONDONTWRITEBYTECODE",
        "LANGUAGE",
        "LC_ALL",
        "LC_MESSAGES",
    ):
        env.pop(name, None)
    env["LANG"] = "C.UTF-8"  # English, as an unset locale (the language is --lang's)
    if path is not None:  # another revision's package, ahead of the installed one
        env["PYTHONPATH"] = path
    screen = pyte.Screen(80, 24)
    stream = pyte.ByteStream(screen)
    start = time.perf_counter()
    child = pexpect.spawn(command, args, dimensions=(24, 80), env=env)
    child.delaybeforesend = None
    try:
        prompt, mileage = words(lang)
        while not board_complete(screen, prompt, mileage):
            stream.feed(child.read_nonblocking(65536, timeout=10))
        return time.perf_counter() - start
    finally:
        child.terminate(force=True)
        child.close()


def mille_command() -> str:
    here = Path(sys.executable).parent / "mille"
    return str(here) if here.exists() else (shutil.which("mille") or "mille")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--lang", metavar="CODE", help="also time mille --lang CODE")
    parser.add_argument(
        "--baseline",
        metavar="REV",
        help="also time git revision REV's mille (a commit, branch or tag)",
    )
    options = parser.parse_args()
    runs = options.runs
    mille = mille_command()
    cases: dict[str, tuple[str, list[str], str | None]] = {
        "mille --seed 1": (mille, ["--seed", "1"], None),
        "bare curses floor": (sys.executable, ["-c", FLOOR], None),
    }
    if options.lang:
        cases[f"mille --lang {options.lang}"] = (
            mille,
            ["--lang", options.lang, "--seed", "1"],
            None,
        )
    with contextlib.ExitStack() as stack:
        if options.baseline:
            tree = stack.enter_context(revision.worktree(options.baseline))
            cases[f"{options.baseline}"] = (sys.executable, ["-m", "mille", "--seed", "1"], tree)

        def lang_of(args: list[str]) -> str | None:
            return args[args.index("--lang") + 1] if "--lang" in args else None

        for command, args, path in cases.values():  # warm the caches (.pyc, page cache)
            time_once(command, args, path, lang_of(args))
        results: dict[str, list[float]] = {name: [] for name in cases}
        try:
            for _ in range(runs):  # interleaved, so drift hits all alike
                for name, (command, args, path) in cases.items():
                    results[name].append(time_once(command, args, path, lang_of(args)))
        finally:
            shutil.rmtree(PYCACHE, ignore_errors=True)
            shutil.rmtree(STATE, ignore_errors=True)
    for name, times in results.items():
        print(
            f"{name:20s} median {statistics.median(times) * 1000:6.1f} ms"
            f"   best {min(times) * 1000:6.1f} ms   ({runs} runs)"
        )
    ratio = statistics.median(results["mille --seed 1"]) / statistics.median(
        results["bare curses floor"]
    )
    print(f"ratio (median)       {ratio:.2f}x   goal: median under 100 ms and <= 1.6x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
