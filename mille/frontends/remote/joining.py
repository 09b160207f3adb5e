"""``mille --join``: the command's arguments made one :class:`Join`
value, the seat's token taken from its seat file, and the seat played on
the board or in lines; the exit status (``seat``'s ``*_STATUS``)."""

from __future__ import annotations

import sys

from ...engine.text import escape
from ...i18n import _
from ...net.client import WAIT_FOR_HOST
from ...net.wire import DEFAULT_PORT, shown
from .link import Join, quiet_asyncio
from .seat import FAILED_STATUS
from .size import small_screen_line, too_small
from .tls import client_tls, fingerprint


def split_address(text: str) -> tuple[str, int]:
    """``ADDRESS[:PORT]`` (``[::1]:PORT`` for IPv6); ValueError if bad.

    >>> split_address("example.org:7000"), split_address("[::1]"), split_address("::1")
    (('example.org', 7000), ('::1', 7477), ('::1', 7477))
    """
    port = DEFAULT_PORT
    if text.startswith("["):
        host, _bracket, rest = text[1:].partition("]")
        if rest:
            if not rest.startswith(":"):
                raise ValueError(_("bad address: {address}").format(address=escape(text)))
            port = _port(rest[1:])
        return host, port
    if text.count(":") == 1:
        host, _colon, number = text.partition(":")
        return host, _port(number)
    return text, port


def _port(text: str) -> int:
    if not (text.isascii() and text.isdecimal()) or not 0 < int(text) < 65536:
        raise ValueError(_("bad port: {port}").format(port=escape(text)[:20]))
    return int(text)


def join(
    target: str,
    code: str,
    name: str | None,
    cert: str | None,
    *,
    board: bool = False,
    color: bool = True,
    wait: float = WAIT_FOR_HOST,
    watch: bool = False,
) -> int:
    """``mille --join ADDRESS[:PORT] CODE``: play a person seat, in lines
    or on the ``board``, waiting up to ``wait`` seconds for a host that is
    not listening yet; the exit status.  ``watch`` (``mille --watch``):
    watch the table, with its watch code, holding no seat (no seat file)."""
    try:
        address, port = split_address(target)
        context = client_tls(cert)
    except (ValueError, OSError) as exc:
        print(f"mille: {shown(exc, 300)}", file=sys.stderr)
        return FAILED_STATUS
    from ...net.client import resume_hello
    from ...storage.seatfile import SeatFile
    from .hosting import join_command

    back = join_command(address, port, code, cert, watch=watch)
    size = too_small() if board else ""
    if size:  # said before the seat is taken: the host's game does not start for nothing
        print(small_screen_line(size, back), file=sys.stderr)
        return FAILED_STATUS
    quiet_asyncio()
    seat_file = None if watch else SeatFile(address, port, code)
    token = None if seat_file is None else resume_hello(seat_file, {"code": code}).get("token")
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
        if seat_file is not None:
            seat_file.release()
