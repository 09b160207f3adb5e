"""Run the installed ``mille`` in a pseudo-terminal and read its screen.

pexpect gives the pty; pyte plays the output onto an 80x24 screen, the
way a terminal would.  ``TERM=screen`` keeps curses to sequences pyte
understands, but for two that pyte lacks and this file adds: SU and SD
(``CSI n S``, ``CSI n T``), the scrolls within the margins that curses
sends when a block of lines moves (the N-seat board's log when the score
table takes the top).
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pexpect
import pyte


def mille_command() -> str:
    """The installed console script (next to this Python, else on PATH)."""
    here = Path(sys.executable).parent / "mille"
    if here.exists():
        return str(here)
    found = shutil.which("mille")
    if found is None:
        raise RuntimeError("the mille console script is not installed")
    return found


class Screen(pyte.Screen):
    """pyte's screen, plus the scrolls SU and SD."""

    def _scroll(self, count: int | None, lines: Callable[[int | None], None]) -> None:
        x, y = self.cursor.x, self.cursor.y
        self.cursor.y = self.margins.top if self.margins else 0
        lines(count or 1)
        self.cursor.x, self.cursor.y = x, y

    def scroll_up(self, count: int | None = None, *args: object, **kwargs: object) -> None:
        """SU: the lines within the margins move up ``count``, blanks below."""
        self._scroll(count, self.delete_lines)

    def scroll_down(self, count: int | None = None, *args: object, **kwargs: object) -> None:
        """SD: the lines within the margins move down ``count``, blanks above."""
        self._scroll(count, self.insert_lines)


class Stream(pyte.ByteStream):
    csi = dict(pyte.ByteStream.csi, S="scroll_up", T="scroll_down")


class Term:
    """One ``mille`` process on a virtual terminal."""

    def __init__(
        self,
        *args: str,
        rows: int = 24,
        cols: int = 80,
        cwd: str | os.PathLike[str] | None = None,
        command: str | None = None,
        state_home: str | os.PathLike[str] | None = None,
        env: dict[str, str] | None = None,
        first_run: bool = False,
    ) -> None:
        """Run ``mille *args`` (or ``command *args``) on a rows x cols pty.

        Every Term has its own ``XDG_STATE_HOME`` (``self.state_home``): a
        fresh temporary directory, removed by ``close()``, unless the caller
        passes one (kept).  No test reads or leaves a recovery file in the
        real home.  ``env`` adds to (or overrides) the environment.  In a
        state directory of its own the user has run mille before (BSD's
        first screen is BSD's) unless ``first_run``: then mille finds no
        ``welcomed`` file there and names its keys on BSD's error line.  A
        state directory the caller passes is left as it is.
        """
        self._own_state_home = state_home is None
        self.state_home = (
            tempfile.mkdtemp(prefix="mille-state-") if state_home is None else str(state_home)
        )
        if state_home is None and not first_run:
            directory = Path(self.state_home) / "mille"
            directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            (directory / "welcomed").touch()
        extra_env, env = env, dict(os.environ, TERM="screen", XDG_STATE_HOME=self.state_home)
        for name in ("LINES", "COLUMNS"):  # curses must ask the pty its size
            env.pop(name, None)
        env.update(extra_env or {})
        self.rows, self.cols = rows, cols
        self.screen = Screen(cols, rows)
        self.stream = Stream(self.screen)
        self.raw = bytearray()  # everything the program wrote
        self.child = pexpect.spawn(
            command or mille_command(),
            list(args),
            dimensions=(rows, cols),
            env=env,
            cwd=None if cwd is None else str(cwd),
        )
        self.child.delaybeforesend = None  # waits are on the screen, not the clock
        # and close() comes once the child is reaped (wait_exit, close): no sleep there
        self.child.ptyproc.delayafterclose = 0

    # ----- output -----------------------------------------------------------

    def pump(self, timeout: float = 0.05) -> bool:
        """Feed whatever output is ready into the screen; False at EOF."""
        try:
            data = self.child.read_nonblocking(65536, timeout=timeout)
        except pexpect.TIMEOUT:
            return True
        except pexpect.EOF:
            return False
        self.raw += data
        self.stream.feed(data)
        return True

    def lines(self) -> list[str]:
        """The screen, one string per row, trailing blanks removed."""
        return [line.rstrip() for line in self.screen.display]

    def row(self, y: int) -> str:
        return self.lines()[y]

    def text(self) -> str:
        return "\n".join(self.lines())

    def wait(self, cond: Callable[[], bool], timeout: float = 5.0, what: str = "") -> None:
        """Pump output until ``cond()`` holds; AssertionError on time-out."""
        deadline = time.monotonic() + timeout
        while not cond():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what!r}; screen:\n{self.text()}")
            if not self.pump():
                if cond():
                    return
                raise AssertionError(f"mille exited waiting for {what!r}; screen:\n{self.text()}")

    def wait_for(self, text: str, row: int | None = None, timeout: float = 5.0) -> list[str]:
        """Wait until ``text`` is on the screen (on ``row`` if given)."""

        def seen() -> bool:
            lines = self.lines()
            return text in (lines[row] if row is not None else "\n".join(lines))

        self.wait(seen, timeout, text)
        return self.lines()

    def drawn(self, text: str, row: int | None = None, timeout: float = 5.0) -> list[str]:
        """The whole screen once ``text`` is on it and the drawing has stopped.

        A screen is written in pieces: the prompt's row can be there before the
        rows below it, so a test that reads other rows waits for this, not for
        ``wait_for``'s lines (CI once read an empty row 17 that way)."""
        self.wait_for(text, row, timeout)
        return self.settle()

    def settle(self, quiet: float = 0.15) -> list[str]:
        """Pump until the program has written nothing for ``quiet`` seconds."""
        while True:
            before = len(self.raw)
            if not self.pump(quiet) or len(self.raw) == before:
                return self.lines()

    # ----- input ------------------------------------------------------------

    def send(self, keys: str | bytes) -> None:
        self.child.send(keys)

    def paste(self, data: bytes, chunk: int = 1024) -> None:
        """Send a lot at once, reading the output meanwhile (a full pty
        output buffer would stop the program, and then the input)."""
        for start in range(0, len(data), chunk):
            self.child.send(data[start : start + chunk])
            self.pump(0)

    def resize(self, rows: int, cols: int) -> None:
        """Resize the pty (mille gets SIGWINCH) and the virtual screen."""
        self.child.setwinsize(rows, cols)
        self.screen.resize(rows, cols)
        self.rows, self.cols = rows, cols

    def bells(self) -> int:
        return self.raw.count(b"\x07")

    # ----- the end ----------------------------------------------------------

    def wait_exit(self, timeout: float = 5.0) -> int:
        """Wait for the program to end; its exit status."""
        deadline = time.monotonic() + timeout
        while self.pump():
            if time.monotonic() > deadline:
                raise AssertionError(f"mille did not exit; screen:\n{self.text()}")
        self.child.wait()
        self.child.close()
        status = self.child.exitstatus
        assert status is not None, f"killed by signal {self.child.signalstatus}"
        return int(status)

    def close(self) -> None:
        """Kill the program if it still runs, close the pty, remove the own
        state directory.  The test is over: the program is killed at once
        (SIGKILL) and reaped by polling, not with pexpect's fixed sleeps
        (its ``terminate`` and ``close`` wait a tenth of a second each step)."""
        if self.child.isalive():
            self.child.kill(signal.SIGKILL)
            deadline = time.monotonic() + 30.0
            while self.child.isalive() and time.monotonic() < deadline:
                time.sleep(0.005)
        self.child.close()
        if self._own_state_home:
            shutil.rmtree(self.state_home, ignore_errors=True)
