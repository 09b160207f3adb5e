"""The curses boards in a terminal: which board a game gets, and running it
with the terminal set up and restored however the game ends."""

from __future__ import annotations

import curses
import os
import signal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

from ..engine.rules import TOP
from ..game.session import Session
from .table_ui import TableUi
from .ui import (
    MIN_COLS,
    MIN_LINES,
    TOO_SMALL,
    Hangup,
    Ui,
    cannot_use_terminal,
    install,
    keep,
    terminal_problem,
)


def board_class(session: Session) -> type[Ui]:
    """BSD's board for the bsd preset, the N-seat board for the others."""
    rules = session.rules
    if rules.players == 2 and rules.battle == TOP:  # what BSD's board can draw
        return Ui
    return TableUi


def play(session: Session, message: str = "") -> int:
    """Run the game in the terminal; returns the exit status.

    0 when the player quits.  1 when the terminal cannot do curses (one
    line on stderr, suggesting ``--plain``), and after a hang-up, SIGTERM
    or a lost terminal (as BSD's ``die(1)`` when reads fail), once the game
    in progress is in the recovery file.  The terminal is restored however
    this returns or raises.
    """
    problem = terminal_problem()
    if problem is not None:
        return cannot_use_terminal(problem)
    board = board_class(session)
    try:
        scr = curses.initscr()
    except curses.error as exc:  # no terminfo entry for $TERM, or the like
        return cannot_use_terminal(str(exc) or "initscr failed")
    undo: list[Callable[[], None]] = []
    told = ""  # a line for stderr once the terminal is restored
    status = 0
    try:
        lines, cols = scr.getmaxyx()
        if lines < MIN_LINES or cols < MIN_COLS:
            curses.endwin()
            import sys

            print(TOO_SMALL, file=sys.stderr)
            return 1
        curses.noecho()
        curses.cbreak()
        scr.keypad(False)
        ui = board(scr, session, message)
        undo = install(ui)
        try:
            ui.run()
        except Hangup as exc:
            told = keep(session, exc.reason)  # before the terminal is touched again
            status = 1
    finally:
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
    if told:
        try:
            os.write(2, (told + "\n").encode(errors="replace"))
        except OSError:  # the terminal is gone
            pass
    return status
