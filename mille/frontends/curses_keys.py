"""Keys for the curses boards: where key bytes come from, and reading them.

A :class:`Keyboard` gives raw key bytes: :class:`TtyKeyboard` on a POSIX
terminal (``select`` on the terminal and the signal wake-up pipe, so no
signal is ever lost), :class:`WindowKeyboard` elsewhere (curses' own
``getch`` with a timeout) and for stand-in windows in tests, and
:class:`StreamKeyboard` before curses starts (the kept games' offer).

A :class:`KeyReader` reads them byte by byte (no keypad translation, so the
command language behaves like BSD's ``readch``), keeps the keys read ahead,
and reads an escape sequence (an arrow or function key) whole, as one key,
:data:`SEQUENCE`.  What the keys mean is the board's
(:class:`mille.frontends.ui.Ui`).
"""

from __future__ import annotations

import abc
import curses
import os
import select

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

from ..engine.text import escape

CTRL_C, CTRL_L, CTRL_U = 3, 12, 21
BACKSPACE, DELETE = 8, 127
RETURN, NEWLINE, SPACE = 13, 10, 32
ESC = 27
RESIZE = curses.KEY_RESIZE  # curses' key for a new terminal size
SEQUENCE = 0x10000  # KeyReader's answer for a whole escape sequence
ESC_WAIT = 0.1  # seconds to wait for the rest of an escape sequence
SEQUENCE_MAX = 16  # bytes; a longer "sequence" is cut there
MAX_FAILED_READS = 100  # reads in a row that find the terminal gone (BSD's readch)
POLL_MS = 100  # where the terminal cannot be waited on with select (Windows)


class LostTerminal(Exception):
    """Reads keep failing: the terminal has gone away."""


def key_name(key: int) -> str:
    """How BSD's ``unctrl`` shows a key byte: ``A``, ``^X``, ``^?``, ``M-a``."""
    if not 0 <= key <= 255:
        return f"<{key}>"
    if key >= 128:
        return "M-" + key_name(key - 128)
    if key < 32:
        return "^" + chr(key + 64)
    return "^?" if key == DELETE else chr(key)


def is_erase(key: int) -> bool:
    return key in (BACKSPACE, DELETE, curses.KEY_BACKSPACE)


def is_kill(key: int) -> bool:
    return key == CTRL_U


def visible(text: str) -> str:
    """Text as the screen shows it: control characters as ``^X``."""
    return "".join(key_name(ord(ch)) if ch < " " or ch == "\x7f" else ch for ch in text)


def shown_name(typed: bytes, encoding: str) -> str:
    """A file name being typed, as the ``file:`` prompt shows it.

    Control characters as ``^X`` (BSD's ``unctrl``); bytes the terminal's
    character set cannot show as ``\\xNN`` (under ``LC_ALL=C``, ``été``
    shows as ``\\xc3\\xa9t\\xc3\\xa9``), so what was typed is always seen.

    >>> shown_name("été".encode(), "utf-8")
    'été'
    >>> shown_name("été\\x1b".encode(), "ascii")
    '\\\\xc3\\\\xa9t\\\\xc3\\\\xa9^['
    """
    try:
        text = typed.decode(encoding, "backslashreplace")
    except LookupError:
        text = typed.decode("utf-8", "backslashreplace")
    return "".join(
        key_name(ord(ch)) if ch < " " or ch == "\x7f" else ch if ch.isprintable() else escape(ch)
        for ch in text
    )


# ----- the keyboards --------------------------------------------------------


class Keyboard(abc.ABC):
    """Where key bytes come from.

    ``poll()`` gives a key that is ready without waiting (or None);
    ``wait(timeout)`` waits for one, up to ``timeout`` seconds (None: until
    a key or a signal), and gives None if it stopped without a key, so the
    caller can look at what the signal handlers flagged.
    """

    def poll(self) -> int | None:
        return None

    @abc.abstractmethod
    def wait(self, timeout: float | None) -> int | None:
        """A key, or None when the wait ended without one."""

    def size(self) -> tuple[int, int] | None:
        """The terminal's size (rows, columns), if it can be asked."""
        return None

    def wake(self) -> None:  # noqa: B027 (a keyboard that polls needs no wake-up)
        """End a wait from another thread (news from the network), as a
        signal does; a polling keyboard sees its flags within a poll."""


class WindowKeyboard(Keyboard):
    """The window's own ``getch``, with curses' timeout.

    Used where ``select`` cannot wait on the terminal (Windows) with a
    polling interval, so flags set by signals are seen within ``poll_ms``,
    and for stand-in windows in tests (``poll_ms=-1``: block).  It cannot
    look ahead, so the screen is drawn before every key.
    """

    def __init__(self, scr: curses.window, poll_ms: int = -1) -> None:
        self.scr = scr
        self.poll_ms = poll_ms

    def wait(self, timeout: float | None) -> int | None:
        self.scr.timeout(self.poll_ms if timeout is None else int(timeout * 1000))
        key = self.scr.getch()
        return None if key < 0 else key


class TtyKeyboard(Keyboard):
    """Keys from a POSIX terminal: non-blocking ``getch`` plus ``select``.

    ``select`` waits on the terminal and on the signal wake-up pipe
    (``signal.set_wakeup_fd``), so a signal that arrives just before the
    wait still ends it: no ^C is ever lost.  When the terminal is readable
    but no key comes (end of file, I/O error: the terminal is gone), that
    is a failed read; after MAX_FAILED_READS in a row, LostTerminal.
    """

    def __init__(self, scr: curses.window, fd: int, wakeup: int, waker: int = -1) -> None:
        self.scr = scr
        self.fd = fd
        self.wakeup = wakeup
        self.waker = waker  # the wake-up pipe's write end (no signal is used to wake)
        self.failures = 0
        scr.nodelay(True)

    def poll(self) -> int | None:
        key = self.scr.getch()
        if key < 0:
            return None
        self.failures = 0
        return key

    def wait(self, timeout: float | None) -> int | None:
        import time

        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            key = self.poll()
            if key is not None:
                return key
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                ready = select.select([self.fd, self.wakeup], [], [], left)[0]
            except (OSError, ValueError) as exc:
                raise LostTerminal from exc
            if not ready:
                return None  # timed out
            if self.wakeup in ready:
                self.drain()
                return None  # a signal: the caller looks at the flags
            self.failures += 1
            if self.failures >= MAX_FAILED_READS:
                raise LostTerminal

    def wake(self) -> None:
        """A byte down the wake-up pipe: ``wait`` ends (from any thread)."""
        if self.waker >= 0:
            try:
                os.write(self.waker, b"\0")
            except OSError:  # full (a wake-up is pending already) or closed
                pass

    def drain(self) -> None:
        try:
            while os.read(self.wakeup, 512):
                pass
        except OSError:  # empty (non-blocking)
            pass

    def size(self) -> tuple[int, int] | None:
        try:
            cols, rows = os.get_terminal_size(self.fd)
        except OSError:
            return None
        return max(rows, 1), max(cols, 1)


class StreamKeyboard(Keyboard):
    """Key bytes from ``read`` (one byte, or b"" at the end), before curses
    starts: the question that offers a kept game.  It waits as long as
    ``read`` does (a signal's handler may raise meanwhile); the end of the
    input or a failed read is LostTerminal."""

    def __init__(self, read: Callable[[], bytes]) -> None:
        self.read = read

    def wait(self, timeout: float | None) -> int | None:
        try:
            data = self.read()
        except OSError as exc:
            raise LostTerminal from exc
        if not data:
            raise LostTerminal
        return data[0]


# ----- reading keys ---------------------------------------------------------


class KeyReader:
    """Key bytes from a :class:`Keyboard`: the keys read ahead first, and an
    escape sequence read whole.

    ``idle`` is called before waiting for a key (and only then: a paste or
    a held key costs no redraw per byte); ``lost`` when the keyboard finds
    the terminal gone (the read then gives None).
    """

    def __init__(
        self, keyboard: Keyboard, idle: Callable[[], None], lost: Callable[[], None]
    ) -> None:
        self.keyboard = keyboard
        self.idle = idle
        self.lost = lost
        self.pending: list[int] = []  # keys read ahead, to be read again
        self.sequence = b""  # the escape sequence behind the last SEQUENCE key

    def unread(self, key: int) -> None:
        """``key`` is the next one read again."""
        self.pending.insert(0, key)

    def next_byte(self, timeout: float | None = None) -> int | None:
        """The next raw key (a read-ahead one first); None if none came."""
        if self.pending:
            return self.pending.pop(0)
        try:
            key = self.keyboard.poll()
            if key is None:
                self.idle()
                key = self.keyboard.wait(timeout)
        except LostTerminal:
            self.lost()
            return None
        return key

    def escape_sequence(self) -> int:
        """After ESC: a CSI (``ESC [ ...``) or SS3 (``ESC O x``) sequence, as
        arrow and function keys send, read whole: SEQUENCE.  A lone ESC
        (nothing else within ESC_WAIT) is ESC."""
        first = self.next_byte(ESC_WAIT)
        if first is None:
            return ESC
        if first not in (ord("["), ord("O")):
            self.unread(first)
            return ESC
        seq = bytearray((ESC, first))
        while len(seq) < SEQUENCE_MAX:
            key = self.next_byte(ESC_WAIT)
            if key is None:
                break
            if first == ord("[") and 0x20 <= key <= 0x3F:  # parameters, intermediates
                seq.append(key)
                continue
            if 0x40 <= key <= 0x7E:  # the final byte
                seq.append(key)
            else:  # not part of it: read it again on its own
                self.unread(key)
            break
        self.sequence = bytes(seq)
        return SEQUENCE

    def key_text(self, key: int) -> str:
        """A key as messages show it: ``X``, ``^X``, ``^[[D`` for a sequence."""
        if key == SEQUENCE:
            return "".join(key_name(byte) for byte in self.sequence)
        return key_name(key)
