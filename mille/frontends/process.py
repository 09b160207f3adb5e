"""What the front ends' runners share at the level of the process.

Routing a signal to a handler (and putting the previous one back), letting
the exit signals come once the handlers are in place, and keeping a game in
the recovery file when the player is gone, and a line on standard error
(:func:`complain`).  The board's runner (:func:`mille.frontends.tui.play`)
and the line mode's (:func:`mille.frontends.plain.play`) use these, each
with its own line for standard error, and so do the command line and the
kept games' offer.  No curses here: the line mode runs without it.
"""

from __future__ import annotations

import signal
import sys

from ..i18n import N_, _

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from types import FrameType
    from typing import TextIO

    from ..game.session import Session

from ..engine.text import escape

LINE_LIMIT = 200  # the longest line mille prints on stderr
PATH_LIMIT = 100  # the most of a file name shown in it (its end)


def route(signum: int, handler: Callable[[int, FrameType | None], None]) -> Callable[[], None]:
    """``handler`` for ``signum`` from now on; what puts the previous one back.

    ValueError (or OSError) if it cannot be set (not the main thread).
    """
    previous = signal.signal(signum, handler)
    kept = signal.SIG_DFL if previous is None else previous  # None: a C handler

    def restore() -> None:
        signal.signal(signum, kept)

    return restore


def route_named(
    handlers: Iterable[tuple[str, Callable[[int, FrameType | None], None]]],
    undo: list[Callable[[], None]],
) -> None:
    """Each handler for the signal of its name, where the system has it
    (``SIGHUP``...), one by one; what puts each previous one back, added
    to ``undo`` as it is routed (nothing off the main thread)."""
    for name, handler in handlers:
        signum = getattr(signal, name, None)
        if signum is not None:
            try:
                undo.append(route(signum, handler))
            except (ValueError, OSError):  # not the main thread
                pass


def route_exit_signals(
    handler: Callable[[int, FrameType | None], None],
) -> list[Callable[[], None]]:
    """``handler`` for ^C and the exit signals (SIGINT, SIGTERM, SIGHUP,
    SIGQUIT, where the system has them), as the line mode takes them; what
    puts each previous one back (nothing off the main thread).  Once they
    are in place the exit signals held back may come."""
    undo: list[Callable[[], None]] = []
    route_named([(name, handler) for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT")], undo)
    if undo:
        release_exit_signals()  # held back while a resumed game had no file
    return undo


def release_exit_signals() -> None:
    """The handlers are in place: the exit signals held back while a
    resumed game had no recovery file may come (see mille.storage.recovery)."""
    from ..storage.recovery import hold_exit_signals

    hold_exit_signals(False)


# recovery.signal_reason's words (the storage layer keeps no translation), shown translated
SIGNAL_REASONS = (N_("hang-up"), N_("quit signal"), N_("terminated"))


def keep(
    session: Session,
    reason: str,
    *,
    why: Callable[[Exception], str] = str,
    after: str = "",
    write: Callable[[], str] | None = None,
) -> tuple[str, bool]:
    """Write the game to the recovery file; the line to tell the player and
    whether the game is kept.

    The line is ``mille: REASON; the game is kept in PATH`` then ``after``,
    or ``mille: REASON; the game could not be kept: WHY`` with ``why``'s
    words for the error.  Whatever goes wrong, this returns (the terminal
    is restored after it).  ``write`` writes the file instead and returns
    its path (the network's host has its game written by a worker).
    """
    from ..storage import recovery

    try:
        path = recovery.write(session) if write is None else write()
    except Exception as exc:  # the line says why; the exit status says it failed
        line = _("mille: {reason}; the game could not be kept: {why}")
        return line.format(reason=_(reason), why=escape(why(exc))), False
    line = _("mille: {reason}; the game is kept in {path}")
    return line.format(reason=_(reason), path=escape(path)) + _(after), True


def tell_after(stream: TextIO, line: str) -> None:
    """``line`` on standard error, after what was said on ``stream``
    (flushed first); nothing if either is gone."""
    try:
        stream.flush()
    except (OSError, ValueError):
        pass
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError):  # stderr is gone too
        pass


def show_path(path: str) -> str:
    """A file name for a message: escaped and, if long, cut to its end
    (``.../saves/game``), where the name that matters is."""
    from ..engine.text import ELLIPSIS

    text = escape(path)
    if len(text) <= PATH_LIMIT:
        return text
    return ELLIPSIS + text[len(text) - PATH_LIMIT + len(ELLIPSIS) :]


def is_terminal(*, stdout: bool = True) -> bool:
    """Someone is at the terminal: standard input is one (and standard
    output, with ``stdout``); False for a pipe, a file, or a stream closed
    (``mille <&-``: None)."""
    try:
        return sys.stdin.isatty() and (not stdout or sys.stdout.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def complain(path: str | None, reason: str, tail: str = "") -> None:
    """Print ``mille: FILE: reason tail`` (or ``mille: reason``) on stderr as
    one line: control characters escaped, at most ``LINE_LIMIT`` characters
    (the reason is cut, ``tail`` is always shown whole)."""
    from ..engine.text import shorten

    head = _("mille: ") if path is None else _("mille: {path}: ").format(path=show_path(path))
    tail = escape(_(tail))
    reason = shorten(escape(_(reason)), max(LINE_LIMIT - len(head) - len(tail), 10))
    try:
        print(shorten(head + reason + tail, LINE_LIMIT), file=sys.stderr)
    except (OSError, ValueError):  # the terminal is gone (or stderr closed)
        pass
