"""The curses boards in a terminal: which board a game gets, and running it
with the terminal set up and restored however the game ends: whether
curses can drive the terminal, the signals routed to the board, the game
kept in the recovery file after a hang-up."""

from __future__ import annotations

import curses
import os
import signal

from ..i18n import _, oserror

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import FrameType

    from ..game.protocol import Game

from ..engine.rules import TOP
from ..engine.text import escape
from . import process
from .curses_keys import POLL_MS, TtyKeyboard, WindowKeyboard
from .screen import MIN_COLS, MIN_LINES, TOO_SMALL
from .table_screen import TableBoard, color_wanted, start_colors
from .table_ui import TableUi
from .ui import Hangup, Ui


def board_class(session: Game) -> type[Ui]:
    """BSD's board for the bsd preset, the N-seat board for the others."""
    rules = session.rules
    if rules.players == 2 and rules.battle == TOP:  # what BSD's board can draw
        return Ui
    return TableUi


def play(
    session: Game,
    message: str = "",
    color: bool = True,
    *,
    board: Callable[[curses.window, Game, str], Ui] | None = None,
    gone: Callable[[Hangup], tuple[str, int]] | None = None,
) -> int:
    """Run the game in the terminal; returns the exit status.

    The board with a row per side is drawn in colour where the terminal
    has it, unless ``color`` is False (``--no-color``) or ``NO_COLOR`` is
    set and not empty; BSD's board is drawn plain, as BSD draws it.

    0 when the player quits.  1 when the terminal cannot do curses (one
    line on stderr, suggesting ``--plain``), and after a hang-up, SIGTERM
    or a lost terminal (as BSD's ``die(1)`` when reads fail), once the game
    in progress is in the recovery file.  The terminal is restored however
    this returns or raises.

    A remote seat's game (``mille --join``) gives its own ``board`` (what
    makes the board, with the remote seat's dialogues) and ``gone``: what a
    :class:`Hangup` tells and the status (the host holds the game: nothing
    is kept here).
    """
    problem = terminal_problem()
    if problem is not None:
        return cannot_use_terminal(problem)
    make = board_class(session) if board is None else board
    try:
        scr = curses.initscr()
    except curses.error as exc:  # no terminfo entry for $TERM, or the like
        return cannot_use_terminal(str(exc) or _("initscr failed"))
    undo: list[Callable[[], None]] = []
    try:
        lines, cols = scr.getmaxyx()
        if lines < MIN_LINES or cols < MIN_COLS:
            curses.endwin()
            import sys

            print(_(TOO_SMALL), file=sys.stderr)
            return 1
        curses.noecho()
        curses.cbreak()
        scr.keypad(False)
        ui = make(scr, session, message)
        if isinstance(ui.screen, TableBoard) and color_wanted(os.environ, color):
            ui.screen.colored = start_colors()
        undo = install(ui)
        told, status = _run(ui, session, gone)
    finally:
        _restore(scr, undo)
    if told:
        try:
            os.write(2, (told + "\n").encode(errors="replace"))
        except OSError:  # the terminal is gone
            pass
    return status


def _run(
    ui: Ui, session: Game, gone: Callable[[Hangup], tuple[str, int]] | None
) -> tuple[str, int]:
    """The game played on ``ui``: the line for stderr once the terminal is
    restored ("" for none) and the exit status."""
    try:
        ui.run()
    except Hangup as exc:
        if gone is None:
            return keep(session, exc.reason), 1  # before the terminal is touched again
        return gone(exc)
    return "", 0


def _restore(scr: curses.window, undo: list[Callable[[], None]]) -> None:
    """The terminal as it was (the cursor on the last line), the signals
    and keyboard :func:`install` set undone."""
    if not curses.isendwin():
        try:
            scr.move(MIN_LINES - 1, 0)
            scr.refresh()
        except curses.error:
            pass
        try:
            curses.endwin()
        except curses.error:
            pass
    for step in reversed(undo):
        step()
    if undo:  # as BSD's die(): a ^C typed as the game ends does nothing
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def install(ui: Ui) -> list[Callable[[], None]]:
    """Route signals to ``ui`` and give it its keyboard; what undoes it.

    Handlers only set flags.  POSIX-only names (SIGHUP, SIGWINCH) are used
    only where the system has them.  On a POSIX terminal the keyboard waits
    with ``select`` on the terminal and the signal wake-up pipe, and mille
    follows the terminal's size itself (its own SIGWINCH handler); elsewhere
    (Windows) curses polls and reports resizes.
    """
    undo: list[Callable[[], None]] = []

    def handle(signum: int, handler: Callable[[int, FrameType | None], None]) -> None:
        undo.append(process.route(signum, handler))

    handle(signal.SIGINT, ui.on_interrupt)
    for name in ("SIGTERM", "SIGHUP", "SIGQUIT"):
        signum = getattr(signal, name, None)
        if signum is not None:
            handle(signum, ui.on_stop)
    winch = getattr(signal, "SIGWINCH", None)
    set_wakeup_fd = getattr(signal, "set_wakeup_fd", None)
    if os.name == "posix" and winch is not None and set_wakeup_fd is not None:
        import sys

        read_end, write_end = os.pipe()
        try:
            for fd in (read_end, write_end):
                os.set_blocking(fd, False)
            previous_fd = set_wakeup_fd(write_end)
            keyboard = TtyKeyboard(ui.scr, sys.stdin.fileno(), read_end, write_end)
        except (OSError, ValueError):  # not the main thread, no stdin, ...
            os.close(read_end)
            os.close(write_end)
        else:

            def close() -> None:
                set_wakeup_fd(previous_fd)
                os.close(read_end)
                os.close(write_end)

            undo.append(close)
            ui.keys.keyboard = keyboard
            handle(winch, ui.on_winch)
            process.release_exit_signals()
            return undo
    ui.keys.keyboard = WindowKeyboard(ui.scr, POLL_MS)
    process.release_exit_signals()
    return undo


def keep(session: Game, reason: str) -> str:
    """Write the game to the recovery file; the line to tell the player
    ("" for a game this program does not hold: its host keeps it)."""
    game = session.local
    if game is None:
        return ""
    return process.keep(game, reason, why=why_not_kept)[0]


def why_not_kept(exc: Exception) -> str:
    """The board's words for what stopped the game being kept: the
    system's for an OSError, else the error's name and message."""
    if isinstance(exc, OSError):
        return oserror(exc)
    return f"{type(exc).__name__}: {exc}"


def terminal_problem() -> str | None:
    """Why curses cannot drive this terminal, or None if it can.

    Asked before ``initscr``: an unknown TERM has no terminfo entry, and on
    a terminal without cursor addressing (TERM=dumb) ncurses' ``initscr``
    draws garbage.  Where terminfo cannot be asked (Windows), None.
    """
    setupterm = getattr(curses, "setupterm", None)
    tigetstr = getattr(curses, "tigetstr", None)
    if os.name != "posix" or setupterm is None or tigetstr is None:
        return None
    try:
        setupterm()  # $TERM, on standard output
    except curses.error as exc:
        return str(exc) or _("no terminfo entry")
    if not tigetstr("cup"):
        return _("it cannot move the cursor")
    return None


def cannot_use_terminal(reason: str) -> int:
    """Say why the board cannot start (one line on stderr); exit status 1."""
    import sys

    term = os.environ.get("TERM", "")
    line = _("mille: cannot use the terminal (TERM={term}): {reason}; try mille --plain")
    line = line.format(term=repr(term), reason=reason)
    try:
        print(escape(line), file=sys.stderr)
    except (OSError, ValueError):  # stderr is gone too
        pass
    return 1
