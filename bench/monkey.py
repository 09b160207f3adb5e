"""Monkey test: random keys and window sizes thrown at the installed ``mille``.

Runs ``mille`` in a pseudo-terminal and sends random input: every byte
value, typical commands, arrow/function keys and random escape sequences,
^C, ``S`` with random file names, pastes, and window resizes between 1x1
and 100x40 (each burst ending at 80x24).  When the game exits it is
started again.  It fails on:

* a traceback or ``internal error`` in the output, or an exit status other
  than 0 (the player quit);
* a hang: with the window at 80x24, a ^G (a key every prompt answers, with
  a beep or an echo) gets no output within ``--timeout`` seconds;
* a spin: the child uses more than half a CPU while it should be idle
  (measured over ``--idle`` seconds after each probe);
* a broken screen: after a resize burst ends at 80x24 the screen (as pyte
  renders it) must become whole again, without a key.

Some bytes are never sent: ^Z and ^\\ (job control: the terminal would stop
or kill the game, not mille), ^S (flow control: the terminal would stop
output until ^Q) and ``/`` (so that every save stays in the scratch
directory).  Runs with a private ``XDG_STATE_HOME`` and a scratch working
directory, both removed at the end.

    python bench/monkey.py [--keys 10000] [--seed 1] [--timeout 5] [--idle 0.3]

Prints one JSON line of figures; exit status 1 on a failure, with the
reason and the last keys sent.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import select
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pexpect
import pyte

NEVER = {0x1A, 0x1C, 0x13, ord("/")}  # ^Z, ^\, ^S, /
BYTES = [b for b in range(256) if b not in NEVER]
SEQUENCES = [
    b"\x1b[A",
    b"\x1b[B",
    b"\x1b[C",
    b"\x1b[D",
    b"\x1bOP",
    b"\x1bOQ",
    b"\x1b[15~",
    b"\x1b[1;5C",
    b"\x1b[H",
    b"\x1b[F",
    b"\x1b[2~",
    b"\x1b[3~",
    b"\x1b",
]
COMMANDS = [
    b"p",
    b"P",
    b"o",
    b"w",
    b"r",
    b"\x0c",
    b"?",
    b"q",
    b"n",
    b"y",
    b"\r",
    b" ",
    b"e",
    b"\x7f",
    b"\x15",
]
NAME_CHARS = "abcxyz019._-~ é\x01\x1b"


class Failure(Exception):
    pass


def mille_command() -> str:
    here = Path(sys.executable).parent / "mille"
    if here.exists():
        return str(here)
    found = shutil.which("mille")
    if found is None:
        raise SystemExit("monkey: the mille console script is not installed")
    return found


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc), 0 if unknown."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Monkey:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.dice = random.Random(args.seed)
        self.scratch = Path(tempfile.mkdtemp(prefix="mille-monkey-"))
        self.state_home = self.scratch / "state"
        self.cwd = self.scratch / "saves"
        self.cwd.mkdir()
        self.keys_sent = 0  # bytes sent as keys (pastes not counted)
        self.pasted = 0  # bytes sent in pastes
        self.restarts = 0
        self.probes = 0
        self.resizes = 0
        self.worst_probe = 0.0
        self.worst_cpu = 0.0
        self.output = 0
        self.recent: list[bytes] = []
        self.child: pexpect.spawn | None = None
        self.size = (24, 80)
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.tail = b""  # the end of the output, for the failure report

    # ----- the child -----------------------------------------------------------

    def start(self) -> None:
        env = dict(os.environ, TERM="screen", XDG_STATE_HOME=str(self.state_home))
        for name in ("LINES", "COLUMNS"):
            env.pop(name, None)
        self.size = (24, 80)
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.child = pexpect.spawn(
            mille_command(),
            ["--seed", str(self.dice.randrange(10**6))],
            dimensions=self.size,
            env=env,
            cwd=str(self.cwd),
        )
        self.child.delaybeforesend = None
        self.wait_for(
            lambda: "--MILEAGE--" in self.row(17) or "Really?" in self.row(10), "the first board"
        )

    def pump(self, timeout: float = 0.0) -> bool:
        """Read what is ready; False once the child has exited."""
        assert self.child is not None
        try:
            data = self.child.read_nonblocking(65536, timeout=timeout)
        except pexpect.TIMEOUT:
            return True
        except pexpect.EOF:
            self.exited()
            return False
        self.output += len(data)
        self.tail = (self.tail + data)[-2000:]
        if b"Traceback" in self.tail or b"internal error" in self.tail:
            raise Failure("a traceback or internal error")
        self.stream.feed(data)
        return True

    def exited(self) -> None:
        assert self.child is not None
        self.child.close()
        status = self.child.exitstatus
        if status != 0:
            raise Failure(f"mille exited with status {status} (signal {self.child.signalstatus})")
        self.restarts += 1
        self.start()

    def row(self, y: int) -> str:
        return self.screen.display[y] if y < len(self.screen.display) else ""

    def wait_for(self, cond: object, what: str) -> None:
        deadline = time.monotonic() + self.args.timeout
        while not cond():  # type: ignore[operator]
            if time.monotonic() > deadline:
                raise Failure(f"no {what} within {self.args.timeout} s")
            if not self.pump(0.05):
                return  # exited and restarted: a fresh board

    # ----- input ---------------------------------------------------------------

    def send(self, data: bytes, paste: bool = False) -> None:
        """Write keys as the program takes them, reading its output meanwhile;
        a program that stops reading for ``--timeout`` seconds is a hang."""
        assert self.child is not None
        self.recent = (self.recent + [data[:40]])[-40:]
        if paste:
            self.pasted += len(data)
        else:
            self.keys_sent += len(data)
        fd = self.child.child_fd
        view = memoryview(data)
        deadline = time.monotonic() + self.args.timeout
        while view:
            readable, writable, _ = select.select([fd], [fd], [], 0.05)
            if readable and not self.pump():
                return  # exited (and started again): the rest is lost
            if writable:
                view = view[os.write(fd, view[:64]) :]
                deadline = time.monotonic() + self.args.timeout
            elif time.monotonic() > deadline:
                raise Failure(f"hang: mille read no key for {self.args.timeout} s")
        self.pump()

    def resize(self, rows: int, cols: int) -> None:
        assert self.child is not None
        self.child.setwinsize(rows, cols)
        self.screen.resize(rows, cols)
        self.size = (rows, cols)
        self.resizes += 1
        self.recent = (self.recent + [f"<resize {rows}x{cols}>".encode()])[-40:]

    def resize_burst(self) -> None:
        if self.dice.random() < 0.5:  # a fast drag to nothing and straight back
            self.resize(1, 1)
        else:
            for _ in range(self.dice.randint(1, 6)):
                self.resize(self.dice.randint(1, 40), self.dice.randint(1, 100))
                if self.dice.random() < 0.3:
                    self.send(bytes([self.dice.choice(BYTES)]))  # typing at the notice
                self.pump(self.dice.choice((0, 0, 0.01)))
        self.resize(24, 80)
        self.wait_for(self.whole, "whole screen after a resize burst (no key sent)")

    def whole(self) -> bool:
        """The board (or the help screen) complete at 80x24."""
        lines = self.screen.display
        if lines[0].startswith("MILLE BORNES"):
            return "Press any key" in "\n".join(lines)
        return (
            "--HAND--" in lines[5]
            and "--MILEAGE--" in lines[17]
            and lines[16].rstrip().endswith("_" * 39)
            and "Screen must" not in lines[0]
        )

    def probe(self) -> None:
        """^G must get an answer (beep, echo or the board back) at 80x24, and
        the child must then sit idle."""
        assert self.child is not None
        if not self.pump(0.05):
            return
        while True:  # let it finish what it is doing
            before = self.output
            if not self.pump(0.1):
                return
            if self.output == before:
                break
        before = self.output
        began = time.monotonic()
        self.send(b"\x07")
        while self.output == before:
            if time.monotonic() - began > self.args.timeout:
                raise Failure(f"hang: no answer to ^G within {self.args.timeout} s")
            if not self.pump(0.05):
                return
        self.worst_probe = max(self.worst_probe, time.monotonic() - began)
        self.probes += 1
        while True:
            before = self.output
            if not self.pump(0.1):
                return
            if self.output == before:
                break
        pid = self.child.pid
        cpu, wall = cpu_seconds(pid), time.monotonic()
        time.sleep(self.args.idle)
        if not self.child.isalive():
            self.pump(0.05)
            return
        share = (cpu_seconds(pid) - cpu) / (time.monotonic() - wall)
        self.worst_cpu = max(self.worst_cpu, share)
        if share > 0.5:
            raise Failure(f"spin: {share:.0%} of a CPU while idle")

    def random_input(self) -> bytes:
        roll = self.dice.random()
        if roll < 0.35:
            return bytes(self.dice.choice(BYTES) for _ in range(self.dice.randint(1, 8)))
        if roll < 0.65:
            return self.dice.choice(COMMANDS)
        if roll < 0.8:
            verb = self.dice.choice(b"uUdD")
            slot = self.dice.choice(b"P0123456789x")
            return bytes([verb, slot]) + self.dice.choice((b"\r", b" ", b"", b"\x7f"))
        if roll < 0.88:
            return self.dice.choice(SEQUENCES)
        if roll < 0.93:
            return b"\x03"
        if roll < 0.99:
            name = "".join(self.dice.choice(NAME_CHARS) for _ in range(self.dice.randint(0, 12)))
            return b"s" + name.encode() + self.dice.choice((b"\r", b"\ry", b"\rn", b"\x15\r"))
        size = self.dice.choice((300, 2000, 8000))
        return b"s" + bytes(self.dice.choice(range(0x61, 0x7B)) for _ in range(size)) + b"\r"

    def paste_likely(self, data: bytes) -> bool:
        return len(data) > 100

    def run(self) -> dict[str, object]:
        began = time.monotonic()
        self.start()
        step = 0
        while self.keys_sent < self.args.keys:
            step += 1
            data = self.random_input()
            for start in range(0, len(data), 512):
                self.send(data[start : start + 512], paste=self.paste_likely(data))
            if step % 25 == 0:
                self.resize_burst()
            if step % 10 == 0:
                self.probe()
        self.resize(24, 80)
        self.wait_for(self.whole, "whole screen at the end")
        self.probe()
        return {
            "keys": self.keys_sent,
            "pasted_bytes": self.pasted,
            "restarts": self.restarts,
            "probes": self.probes,
            "resizes": self.resizes,
            "worst_probe_s": round(self.worst_probe, 3),
            "worst_idle_cpu": round(self.worst_cpu, 3),
            "output_bytes": self.output,
            "seconds": round(time.monotonic() - began, 1),
            "seed": self.args.seed,
        }

    def close(self) -> None:
        if self.child is not None and self.child.isalive():
            self.child.terminate(force=True)
        if self.child is not None:
            self.child.close()
        shutil.rmtree(self.scratch, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--keys", type=int, default=10_000, help="bytes to send (10000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=5.0, help="hang limit, seconds")
    parser.add_argument("--idle", type=float, default=0.3, help="idle CPU window, seconds")
    args = parser.parse_args(argv)
    monkey = Monkey(args)
    try:
        figures = monkey.run()
    except Failure as exc:
        print(
            f"monkey: FAILED after {monkey.keys_sent} keys, {monkey.restarts} restarts: {exc}",
            file=sys.stderr,
        )
        print(f"last input: {b' '.join(monkey.recent)!r}", file=sys.stderr)
        print(f"last output: {monkey.tail[-600:]!r}", file=sys.stderr)
        print(
            "screen:\n" + "\n".join(line.rstrip() for line in monkey.screen.display),
            file=sys.stderr,
        )
        return 1
    finally:
        monkey.close()
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
