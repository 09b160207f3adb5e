"""Whether this terminal can hold a board, asked before a remote seat is
taken or a table opened (``mille --join``, ``mille --host``): a board too
small for its terminal is one line, with the way to play in lines."""

from __future__ import annotations

import os
import sys

from ...i18n import _

BOARD_LINES, BOARD_COLS = 24, 80  # the boards' least size (screen.MIN_LINES, MIN_COLS)


def too_small(fd: int | None = None) -> str:
    """Why this terminal is too small for a board (its size), before a
    seat is taken; "" if it is big enough or its size is unknown.

    >>> too_small(-1)
    ''
    """
    try:
        cols, lines = os.get_terminal_size(sys.stdout.fileno() if fd is None else fd)
    except (OSError, ValueError):
        return ""
    if not (lines and cols) or (lines >= BOARD_LINES and cols >= BOARD_COLS):
        return ""  # (0x0: a terminal that does not know its size)
    return f"{lines}x{cols}"


def small_screen_line(size: str, command: str) -> str:
    """The one line a board too small for its terminal says, before any
    seat is taken or table opened (``command``: the joiner's, to type
    again with ``--plain``; "" for the host).

    >>> small_screen_line("20x60", "mille --join 127.0.0.1:7477 abcd")
    'mille: Screen must be at least 24x80 (this one is 20x60); to play in lines: mille --join 127.0.0.1:7477 abcd --plain'
    """
    if command:
        return _(
            "mille: Screen must be at least {lines}x{cols} (this one is {size});"
            " to play in lines: {command} --plain"
        ).format(lines=BOARD_LINES, cols=BOARD_COLS, size=size, command=command)
    return _(
        "mille: Screen must be at least {lines}x{cols} (this one is {size});"
        " to play in lines, add --plain"
    ).format(lines=BOARD_LINES, cols=BOARD_COLS, size=size)
