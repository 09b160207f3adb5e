"""The protocol's words: its version, its limits, one JSON object a line,
moves as text, and the errors (``docs/protocol.md`` is their description).

Both ends use this module; it has no I/O.

>>> encode({"type": "ping"})
b'{"type":"ping"}\\n'
>>> decode(b'{"type": "ping"}\\n')
{'type': 'ping'}
>>> parse_move("U3>2"), str(parse_move("DP"))
(Use(slot=3, target=2), 'DP')
>>> hello("k4mxq7hzp2wd", name="Ann")
{'type': 'hello', 'protocol': 1, 'code': 'k4mxq7hzp2wd', 'name': 'Ann'}
>>> parse_move("X")
Traceback (most recent call last):
...
mille.net.wire.ProtocolError: bad-move: not a move: "X"
"""

from __future__ import annotations

import json

from ..engine.text import escape, shorten
from ..i18n import N_
from ..storage.shapes import move_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ..engine.moves import Move

PROTOCOL = 1  # the version spoken; a client and a host must speak the same
DEFAULT_PORT = 7477  # "mille" has no port of its own; the host says which it took

# limits, per connection (the host's; docs/protocol.md)
MAX_LINE = 16 * 1024  # bytes of one line a client sends
MAX_SERVER_LINE = 1 << 20  # bytes of one line a client accepts from the host
RATE = 20.0  # messages a second, on average
BURST = 40  # messages at once above the average
FIRST_DEADLINE = 10.0  # seconds to send the first message (hello)
IDLE_DEADLINE = 60.0  # seconds without any message before the host hangs up
PING_EVERY = 15.0  # the host pings an idle connection this often
SEND_QUEUE = 256  # messages waiting to be sent; a client that falls further behind is cut
CODE_LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read aloud, typed
CODE_LENGTH = 12  # about 59 bits: not guessed, even without the slowing down

# errors: a code (for programs) and a line (for people)
BAD_JSON = "bad-json"  # not one JSON object (or not UTF-8)
BAD_MESSAGE = "bad-message"  # a JSON object without the fields its type needs
BAD_MOVE = "bad-move"  # a move's text is no move
TOO_LONG = "too-long"  # the line is over MAX_LINE: the host hangs up
TOO_FAST = "too-fast"  # over RATE: the message is dropped
TOO_SLOW = "too-slow"  # no hello within FIRST_DEADLINE, or idle too long: the host hangs up
VERSION = "version"  # another protocol version: the host hangs up
WRONG_CODE = "wrong-code"  # no table has this join code (slowed down per address)
TOO_MANY = "too-many-tries"  # too many wrong codes from one address: wait
WRONG_TOKEN = "wrong-token"  # no seat has this resume token
TABLE_FULL = "table-full"  # no free person seat
HELLO_FIRST = "hello-first"  # a message before hello
REFUSED = "refused"  # the engine refused the move: its message; nothing changed
STALE = "stale"  # the move was for an older state: nothing changed
NOT_HOST = "not-host"  # only the host may do this (save, deal, end)
TABLE_OVER = "table-over"  # the host ended the table
BUSY = "busy"  # the host holds too many connections not yet seated: try again later

# the errors after which a client stops (the table, or the seat, is not to be had)
FATAL = (VERSION, WRONG_CODE, TOO_MANY, WRONG_TOKEN, TABLE_FULL, TABLE_OVER, BUSY)

# a bye's code: why the host hangs up on everyone
ENDED = "ended"  # the host ended the game (its q, or Another game? n)
HOST_GONE = "host-gone"  # the host's program stopped (the game is kept on its machine)
BYE_REASONS = {ENDED: N_("the host ended the game"), HOST_GONE: N_("the host went away")}

# The lines are English on the wire (the protocol carries no language): the
# receiving end shows them translated (``i18n.heard(text, HOST_TEXTS)``).
LINE_LONGER = N_("line longer than {count} bytes")
MORE_THAN = N_("more than {rate} messages a second")
OTHER_PROTOCOL = N_(
    "this host speaks mille protocol {protocol}, not {version}: play with the same version of mille"
)
SEAT_WAITS = N_(
    "every person seat is taken; {name}'s waits for the person who sat there: "
    "the same mille --join on their machine takes it back"
)
HOST_NAMED = N_("the host named this seat {name}")
NAME_TAKEN = N_("{name} is taken at this table")
MESSAGES = {
    BAD_JSON: N_("not a JSON object on one line"),
    TOO_LONG: LINE_LONGER.format(count=MAX_LINE),
    TOO_FAST: MORE_THAN.format(rate=f"{RATE:g}"),
    TOO_SLOW: N_("too slow"),
    WRONG_CODE: N_("wrong join code"),
    TOO_MANY: N_("too many wrong join codes from your address: wait a minute"),
    WRONG_TOKEN: N_("no seat has this token"),
    TABLE_FULL: N_("every person seat is taken"),
    HELLO_FIRST: N_("send hello first"),
    STALE: N_("the table changed: your move was not made"),
    NOT_HOST: N_("only the host may do this"),
    TABLE_OVER: N_("the host ended the game"),
    BUSY: N_("the host is busy: try again in a minute"),
}
HOST_TEXTS = (LINE_LONGER, MORE_THAN, OTHER_PROTOCOL, SEAT_WAITS, HOST_NAMED, NAME_TAKEN)


class ProtocolError(ValueError):
    """A message that breaks the protocol; ``code`` names the error,
    ``str()`` is ``code: line``."""

    def __init__(self, code: str, message: str | None = None) -> None:
        self.code = code
        self.message = MESSAGES.get(code, code) if message is None else message
        super().__init__(f"{code}: {self.message}")


def encode(message: dict[str, Any]) -> bytes:
    """One message as its line (compact JSON, ASCII only, a newline)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=True).encode() + b"\n"


def _no_constant(name: str) -> Any:
    raise ValueError(f"not JSON: {name}")


def decode(line: bytes) -> dict[str, Any]:
    """One line as a message (a JSON object with a string ``type``);
    ``ProtocolError`` otherwise."""
    try:
        data = json.loads(line.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ProtocolError(BAD_JSON) from None
    if not isinstance(data, dict):
        raise ProtocolError(BAD_JSON)
    if not isinstance(data.get("type"), str):
        raise ProtocolError(BAD_MESSAGE, "bad message: no type")
    return data


def field(message: dict[str, Any], key: str, kind: type) -> Any:
    """``message[key]``, which must be of ``kind`` (a bool is no int here)."""
    value = message.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ProtocolError(BAD_MESSAGE, f"bad message: {key} must be a {kind.__name__}")
    return value


def hello(
    code: str, *, name: str | None = None, token: str | None = None, version: int | None = None
) -> dict[str, Any]:
    """The first message: to take a free seat (``name``), or to come back
    to a seat (its ``token``, and the last ``version`` seen if known)."""
    message: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL, "code": code}
    if token is not None:
        message["token"] = token
        if version is not None:
            message["version"] = version
    elif name is not None:
        message["name"] = name
    return message


def error(code: str, message: str | None = None) -> dict[str, Any]:
    """The error message for ``code`` (its usual line unless ``message``)."""
    return {
        "type": "error",
        "code": code,
        "message": MESSAGES.get(code, code) if message is None else message,
    }


def bye(code: str) -> dict[str, Any]:
    """The host's goodbye to every connection: ``code`` (``ENDED``,
    ``HOST_GONE``) for programs, ``reason`` for people."""
    return {"type": "bye", "code": code, "reason": BYE_REASONS[code]}


def bye_code(message: dict[str, Any]) -> str:
    """Why a ``bye`` came: its ``code``, or (from a host of 2.1, which sent
    only the reason) the code its English reason stands for;
    ``HOST_GONE`` when neither says."""
    code = message.get("code")
    if code in BYE_REASONS:
        return str(code)
    return ENDED if message.get("reason") == BYE_REASONS[ENDED] else HOST_GONE


def shown(text: Any, limit: int = 60) -> str:
    """A value from the other end, safe to print: escaped, capped."""
    return escape(shorten(str(text), limit))


# ----- moves and cards as text -----------------------------------------------------


def parse_move(text: Any) -> Move:
    """A move written as the save format writes it (``storage.shapes.move_of``):
    ``P``, ``U3``, ``UP``, ``U3>2`` (a hazard on side 2), ``D5``, ``y``, ``n``."""
    move = move_of(text)
    if move is None:
        raise ProtocolError(BAD_MOVE, f"not a move: {shown(json.dumps(text), 20)}")
    return move


def json_text(value: Any) -> str:
    """A value from a client, quoted for an error line (short, escaped)."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = "?"
    return escape(shorten(text, 30))
