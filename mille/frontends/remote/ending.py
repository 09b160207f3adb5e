"""How a seat's time at the host's table ends, for both front ends: the
exit statuses of ``mille --join`` (and of the host's own seat), the host's
``bye`` or refusal in words (:func:`ending`, :class:`Gone`), a message this
mille cannot read (:func:`unreadable`), a host of another protocol
(:func:`other_version`), and what a computer did for a seat while its
person was away (:func:`away_line`)."""

from __future__ import annotations

from ...i18n import N_, _, ngettext
from ...net.client import TABLE_GONE
from ...net.wire import (
    ENDED,
    HOST_LEFT,
    PROTOCOL,
    TABLE_OVER,
    WRONG_CODE,
    bye_code,
    bye_line,
    error_line,
    shown,
)
from .. import flow

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

# the exit statuses of mille --join (and of the host's own seat): what happened
ENDED_STATUS = 0  # the game ended (the host ended it), or the player left the table
FAILED_STATUS = 1  # no host reached (or a bad argument): nothing was played
REFUSED_STATUS = 2  # the host refused the seat (wrong code, table full, ...)
GONE_STATUS = 3  # the line to the host broke and did not come back
GONE = N_("mille: the host went away")
NOT_WELCOMED = N_(
    "mille: the host closed the connection without a word (a host with TLS wants --cert)"
)
NEW_CODE = N_(
    "{refusal} (a host that resumed a kept game, or started again, has a new join command:"
    " ask for it)"
)
UNREADABLE = N_(
    "mille: the host sent what this mille cannot read: play with the same version of mille"
)


class Gone(flow.Hangup):
    """The game goes on without this program (the host ended it, went
    away, or refused the seat): ``reason`` is the line to tell, ``status``
    the exit status."""

    def __init__(
        self, reason: str, status: int = 1, *, final: bool = False, back: bool = False
    ) -> None:
        super().__init__(reason)
        self.status = status
        self.final = final  # the table is gone (not only the line to it)
        self.back = back  # the seat waits: the command that comes back is told


def ending(message: Mapping[str, Any]) -> Gone:
    """What the host's ``bye`` or refusal (an ``error``) means for the
    seat: the line to tell and the exit status; ``final`` if the table is
    gone (its seat file goes with it)."""
    if message.get("type") == "bye":
        ended = bye_code(message) in (ENDED, HOST_LEFT)
        reason = shown(bye_line(message), 120)
        return Gone(f"mille: {reason}", ENDED_STATUS if ended else GONE_STATUS, final=True)
    code = message.get("code")
    status = ENDED_STATUS if code == TABLE_OVER else REFUSED_STATUS
    text = shown(error_line(message), 120)
    if code == WRONG_CODE:  # a table kept and resumed has a new code
        text = _(NEW_CODE).format(refusal=text)
    return Gone(f"mille: {text}", status, final=code in TABLE_GONE)


def away_line(moves: int) -> str:
    """Coming back: what a computer did for the seat meanwhile.

    >>> away_line(1), away_line(2)
    ('While you were away a computer played 1 move for you.', 'While you were away a computer played 2 moves for you.')
    """
    return ngettext(
        "While you were away a computer played {count} move for you.",
        "While you were away a computer played {count} moves for you.",
        moves,
    ).format(count=moves)


def unreadable(status: int = GONE_STATUS) -> Gone:
    """The host sent a message this mille cannot read (another version's,
    or a broken one): one line, the seat kept to come back to."""
    return Gone(_(UNREADABLE), status)


def other_version(welcome: dict[str, Any]) -> str:
    """The line that says the host speaks another protocol ("" if not)."""
    if welcome.get("protocol") == PROTOCOL:
        return ""
    return _(
        "mille: the host speaks mille protocol {protocol}, not {ours}: "
        "play with the same version of mille"
    ).format(protocol=shown(welcome.get("protocol"), 10), ours=PROTOCOL)
