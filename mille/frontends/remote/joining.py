"""``mille --join``: the command's arguments made one :class:`Join`
value, the seat's token taken from its seat file, and the seat played on
the board or in lines; the exit status (``seat``'s ``*_STATUS``)."""

from __future__ import annotations

import os
import sys

from ...engine.text import escape
from ...net.client import WAIT_FOR_HOST
from ...net.wire import DEFAULT_PORT, shown
from .link import Join, quiet_asyncio
from .seat import FAILED_STATUS
from .tls import client_tls, fingerprint


def split_address(text: str) -> tuple[str, int]:
    """``ADDRESS[:PORT]`` (``[::1]:PORT`` for IPv6); ValueError if bad.

    >>> split_address("example.org:7000"), split_address("[::1]"), split_address("::1")
    (('example.org', 7000), ('::1', 7477), ('::1', 7477))
    """
    port = DEFAULT_PORT
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        if rest:
            if not rest.startswith(":"):
                raise ValueError(f"bad address: {escape(text)}")
            port = _port(rest[1:])
        return host, port
    if text.count(":") == 1:
        host, _, number = text.partition(":")
        return host, _port(number)
    return text, port


def _port(text: str) -> int:
    if not (text.isascii() and text.isdecimal()) or not 0 < int(text) < 65536:
        raise ValueError(f"bad port: {escape(text)[:20]}")
    return int(text)


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
    how = f"to play in lines: {command} --plain" if command else "to play in lines, add --plain"
    return f"mille: Screen must be at least {BOARD_LINES}x{BOARD_COLS} (this one is {size}); {how}"


def join(
    target: str,
    code: str,
    name: str | None,
    cert: str | None,
    *,
    board: bool = False,
    color: bool = True,
    wait: float = WAIT_FOR_HOST,
) -> int:
    """``mille --join ADDRESS[:PORT] CODE``: play a person seat, in lines
    or on the ``board``, waiting up to ``wait`` seconds for a host that is
    not listening yet; the exit status."""
    try:
        address, port = split_address(target)
        context = client_tls(cert)
    except (ValueError, OSError) as exc:
        print(f"mille: {shown(exc, 300)}", file=sys.stderr)
        return FAILED_STATUS
    from ...net.client import resume_hello
    from ...storage.seatfile import SeatFile
    from .hosting import join_command

    back = join_command(address, port, code, cert)
    size = too_small() if board else ""
    if size:  # said before the seat is taken: the host's game does not start for nothing
        print(small_screen_line(size, back), file=sys.stderr)
        return FAILED_STATUS
    quiet_asyncio()
    seat_file = SeatFile(address, port, code)
    token = resume_hello(seat_file, {"code": code}).get("token")
    the_join = Join(
        address,
        port,
        code,
        name=name,
        token=token if isinstance(token, str) else None,
        context=context,
        wait=wait,
        back=back,  # told on leaving
        fingerprint=fingerprint(cert) if cert is not None else "",
    )
    try:
        if board:
            from .board_ui import play_board

            return play_board(the_join, color, seat_file=seat_file)
        from .lines import play_lines

        return play_lines(the_join, seat_file=seat_file)
    except KeyboardInterrupt:
        return 130
    finally:
        seat_file.release()
