"""A stand-in for a curses window, for driving the boards without a terminal.

:class:`Grid` is the screen alone (a grid of cells); :class:`FakeWindow`
adds a queue of keys and, at every key the board waits for, a note of the
prompt and error lines and of the whole screen.  Where those lines are
differs by board: BSD's prompt is row 10, columns 20-39, its error line
row 15 from column 45 (the defaults); the N-seat board's are rows 22 and
23, whole.
"""

from __future__ import annotations


class OutOfKeys(Exception):
    """The board waited for a key after the last scripted one."""


class Grid:
    """Just enough of a curses window to draw on: a grid of cells."""

    def __init__(self, rows: int = 24, cols: int = 80) -> None:
        self.rows, self.cols = rows, cols
        self.cells = [[" "] * cols for _ in range(rows)]
        self.cursor = (0, 0)
        self.delay = -1  # curses' timeout(): -1 blocks

    def getmaxyx(self) -> tuple[int, int]:
        return self.rows, self.cols

    def erase(self) -> None:
        self.cells = [[" "] * self.cols for _ in range(self.rows)]

    clear = erase

    def addstr(self, y: int, x: int, text: str, attr: int = 0) -> None:
        for i, ch in enumerate(text):
            self.cells[y][x + i] = ch

    def refresh(self) -> None:
        pass

    def move(self, y: int, x: int) -> None:
        self.cursor = (y, x)

    def timeout(self, delay: int) -> None:
        self.delay = delay

    def line(self, y: int) -> str:
        return "".join(self.cells[y])

    def lines(self) -> list[str]:
        """The rows, trailing blanks cut."""
        return [self.line(y).rstrip() for y in range(self.rows)]

    def full_lines(self) -> list[str]:
        """The rows, every cell."""
        return [self.line(y) for y in range(self.rows)]

    def text(self) -> str:
        return "\n".join(self.lines())


class FakeWindow(Grid):
    """A grid with a key queue that notes the screen at every key read."""

    def __init__(
        self,
        keys: str | bytes = "",
        rows: int = 24,
        cols: int = 80,
        *,
        prompt: tuple[int, int, int] = (10, 20, 40),
        error: tuple[int, int] = (15, 45),
    ) -> None:
        super().__init__(rows, cols)
        self.keys = list(keys.encode("latin-1") if isinstance(keys, str) else keys)
        self.prompt_at, self.error_at = prompt, error
        self.prompts: list[str] = []  # the prompt at every key read
        self.errors: list[str] = []  # the error line at every key read
        self.screens: list[list[str]] = []  # the whole screen at every key read
        self.beeps = 0

    def getch(self) -> int:
        if self.delay >= 0:  # a short wait: the rest of an escape sequence
            return self.keys.pop(0) if self.keys else -1
        y, start, end = self.prompt_at
        self.prompts.append(self.line(y)[start:end].rstrip())
        y, start = self.error_at
        self.errors.append(self.line(y)[start:].rstrip())
        self.screens.append(self.full_lines())
        if not self.keys:
            raise OutOfKeys(self.text())
        return self.keys.pop(0)
