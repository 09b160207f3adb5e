"""The protocol's words: its version, its limits, one JSON object a line,
moves as text, and the errors: their codes and the lines each end shows
in its own language from a code and its values (``docs/protocol.md`` is
their description; ``messages`` declares the messages).

Both ends use this module; it has no I/O.

>>> encode({"type": "ping"})
b'{"type":"ping"}\\n'
>>> decode(b'{"type": "ping"}\\n')
{'type': 'ping'}
>>> parse_move("U3>2"), str(parse_move("DP"))
(Use(slot=3, target=2), 'DP')
>>> str(ProtocolError(BAD_MESSAGE, values={"field": "move", "kind": "str"}))
'bad-message: bad message: move must be a str'
>>> parse_move("X")
Traceback (most recent call last):
...
mille.net.wire.ProtocolError: bad-move: not a move: "X"
"""

from __future__ import annotations

import json

from ..engine.text import escape, shorten
from ..game.limits import BAD_NAMES
from ..i18n import N_, _
from ..storage.shapes import move_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from ..engine.moves import Move

PROTOCOL = 3  # the version spoken; a client and a host must speak the same
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

# errors: a code and the values of its line (each end shows the line in
# its own language: ``error_line``)
BAD_JSON = "bad-json"  # not one JSON object (or not UTF-8)
BAD_MESSAGE = "bad-message"  # a field missing, or of another kind: {field}, {kind}
UNKNOWN_TYPE = "unknown-type"  # a message of a type the host does not know: {type}
HELLO_AGAIN = "hello-again"  # a second hello
TAKEN_OVER = "taken-over"  # another connection took this seat: the host hangs up
BAD_MOVE = "bad-move"  # a move's text is no move: {move}
TOO_LONG = "too-long"  # the line is over MAX_LINE ({count}): the host hangs up
TOO_FAST = "too-fast"  # over RATE ({rate}): the message is dropped
CHAT_TOO_FAST = "chat-too-fast"  # over SAY_BURST chat lines: the line is dropped
TOO_SLOW = "too-slow"  # no hello within FIRST_DEADLINE, or idle too long: the host hangs up
VERSION = "version"  # another protocol version ({protocol}, {version}): the host hangs up
WRONG_CODE = "wrong-code"  # no table has this join code (slowed down per address)
TOO_MANY = "too-many-tries"  # too many wrong codes from one address: wait
TOO_MANY_CONNECTIONS = "too-many-connections"  # from one address at once
TOO_MANY_COMEBACKS = "too-many-comebacks"  # a seat (or an address) came back too often
WRONG_TOKEN = "wrong-token"  # no seat has this resume token
TABLE_FULL = "table-full"  # no free person seat
SEAT_WAITS = "seat-waits"  # no free seat; {name}'s waits for its person (with its token)
HELLO_FIRST = "hello-first"  # a message before hello
REFUSED = "refused"  # the engine refused the move ({reason}, its words); nothing changed
NOT_STARTED = "not-started"  # a joiner's move in the waiting room
HAND_NOT_OVER = "hand-not-over"  # a deal while the hand is played
STALE = "stale"  # the move was for an older state: nothing changed
NOT_HOST = "not-host"  # only the host may do this (save, deal, end)
TABLE_OVER = "table-over"  # the host ended the table
BUSY = "busy"  # the host holds too many connections not yet seated: try again later
WATCHING = "watching"  # a watcher's move, deal, save, start or end: it only watches
WATCHERS_FULL = "watchers-full"  # the table has MAX_WATCHERS watchers ({count})

# a TLS connection refused before its handshake (TOO_MANY_CONNECTIONS, BUSY)
# is told so by TLS's own alert record: fatal (2), access_denied (49)
TLS_REFUSED = bytes([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x31])
TLS_REFUSED_REASON = "TLSV1_ALERT_ACCESS_DENIED"  # as OpenSSL names it at the client

# the errors after which a client stops (the table, or the seat, is not to be had)
FATAL = (
    VERSION,
    WRONG_CODE,
    TOO_MANY,
    TOO_MANY_CONNECTIONS,
    TOO_MANY_COMEBACKS,
    WRONG_TOKEN,
    TABLE_FULL,
    SEAT_WAITS,
    TABLE_OVER,
    BUSY,
    WATCHERS_FULL,
)

# a bye's code: why the host hangs up on everyone
ENDED = "ended"  # the host ended the game (its q)
HOST_GONE = "host-gone"  # the host's program stopped (the game is kept on its machine)
HOST_LEFT = "host-left"  # after a game over: the host wants no other game (Another game? n)
BYE_REASONS = {
    ENDED: N_("the host ended the game"),
    HOST_GONE: N_("the host went away"),
    HOST_LEFT: N_("the host left the table"),
}

OTHER_PROTOCOL = N_(
    "this host speaks mille protocol {protocol}, not {version}: play with the same version of mille"
)
# each error's line, by its code: the values are the error's ``values``
ERRORS = {
    BAD_JSON: N_("not a JSON object on one line"),
    BAD_MESSAGE: N_("bad message: {field} must be a {kind}"),
    UNKNOWN_TYPE: N_("bad message: unknown type {type}"),
    HELLO_AGAIN: N_("bad message: hello was already said"),
    TAKEN_OVER: N_("another connection took this seat"),
    BAD_MOVE: N_("not a move: {move}"),
    TOO_LONG: N_("line longer than {count} bytes"),
    TOO_FAST: N_("more than {rate} messages a second"),
    CHAT_TOO_FAST: N_("too many chat lines: wait a few seconds"),
    TOO_SLOW: N_("too slow"),
    VERSION: OTHER_PROTOCOL,
    WRONG_CODE: N_("wrong join code"),
    TOO_MANY: N_("too many wrong join codes from your address: wait a minute"),
    TOO_MANY_CONNECTIONS: N_("too many connections from your address"),
    TOO_MANY_COMEBACKS: N_("this seat came back too often: wait a minute"),
    WRONG_TOKEN: N_("no seat has this token"),
    TABLE_FULL: N_("every person seat is taken"),
    SEAT_WAITS: N_(
        "every person seat is taken; {name}'s waits for the person who sat there: "
        "the same mille --join on their machine takes it back"
    ),
    HELLO_FIRST: N_("send hello first"),
    REFUSED: "{reason}",  # (the engine's words: ``engine.describe.refusal``)
    NOT_STARTED: N_("the host has not started the game yet"),
    HAND_NOT_OVER: N_("the hand is not over"),
    STALE: N_("the table changed: your move was not made"),
    NOT_HOST: N_("only the host may do this"),
    TABLE_OVER: N_("the host ended the game"),
    BUSY: N_("the host is busy: try again in a minute"),
    WATCHING: N_("a watcher cannot play"),
    WATCHERS_FULL: N_("this table has {count} watchers already"),
}
# the values an error always has (the host's limits)
DEFAULT_VALUES: dict[str, dict[str, str | int]] = {
    TOO_LONG: {"count": MAX_LINE},
    TOO_FAST: {"rate": f"{RATE:g}"},
}
# a welcome's ``name_refused``: why the joiner's name does not name the seat
HOST_NAMED = "host-named"
NAME_TAKEN = "name-taken"
NAME_REFUSED = {
    HOST_NAMED: N_("the host named this seat {name}"),
    NAME_TAKEN: N_("{name} is taken at this table"),
    **{code: template for template, code in BAD_NAMES.items()},
}
# a version error from a host of protocol 1 (no values): the line shown
OLDER_HOST = N_("the host speaks another mille protocol: play with the same version of mille")
UNKNOWN_ERROR = N_(
    "the host answered {code}, which this mille does not know: play with the same version of mille"
)


class ProtocolError(ValueError):
    """A message that breaks the protocol; ``code`` names the error,
    ``values`` the values of its line (``ERRORS``), ``str()`` is
    ``code: line`` (in English: ``message``, unless given)."""

    def __init__(
        self,
        code: str,
        message: str | None = None,
        values: dict[str, str | int] | None = None,
    ) -> None:
        self.code = code
        self.values = {**DEFAULT_VALUES.get(code, {}), **(values or {})}
        if message is None:
            message = _format(ERRORS.get(code, code), self.values) or code
        self.message = message
        super().__init__(f"{code}: {self.message}")


def _format(template: str, values: Mapping[str, Any]) -> str | None:
    """``template`` with ``values`` (each shown safely); None if they do
    not fit it."""
    try:
        return template.format(**{key: shown(value, 60) for key, value in values.items()})
    except (KeyError, IndexError, ValueError, AttributeError):
        return None


def error_line(message: Mapping[str, Any]) -> str:
    """The other end's ``error`` in the language chosen, made from its
    code and values through the catalog (the engine's refusal through
    ``engine.describe.refusal``); a code this mille does not know, or
    values that do not fit, in a line that says so.

    >>> error_line({"code": "too-long", "values": {"count": 16384}})
    'line longer than 16384 bytes'
    >>> error_line({"code": "refused", "values": {"reason": "must pick first"}})
    'must pick first'
    >>> error_line({"code": "version", "message": "this host speaks mille protocol 1, not 2"})
    'the host speaks another mille protocol: play with the same version of mille'
    """
    code, values = message.get("code"), message.get("values")
    template = ERRORS.get(code) if isinstance(code, str) else None
    if code == VERSION and not isinstance(values, dict):
        return _(OLDER_HOST)  # a host of protocol 1: its line is English, no values
    line = None
    if template is not None and isinstance(values, dict):
        if code == REFUSED:
            from ..engine.describe import refusal

            return refusal(shown(values.get("reason"), 80))
        line = _format(_(template), values)
    return line or _(UNKNOWN_ERROR).format(code=shown(json_text(code), 40))


def move_refusal(message: Mapping[str, Any]) -> str:
    """Why the host refused a seat's move: the engine's words as they are
    (``refused``: the board shows them translated,
    ``engine.describe.refusal``), else the error's line.

    >>> move_refusal({"code": "refused", "values": {"reason": "must pick first"}})
    'must pick first'
    """
    values = message.get("values")
    reason = values.get("reason") if isinstance(values, dict) else None
    if message.get("code") == REFUSED and isinstance(reason, str):
        return reason
    return error_line(message)


def refusal_line(refused: Any) -> str:
    """A welcome's ``name_refused`` (its code and values) in the language
    chosen ("" if it is none).

    >>> refusal_line({"code": "host-named", "values": {"name": "Bob"}})
    'the host named this seat Bob'
    """
    if not isinstance(refused, dict):
        return ""
    code, values = refused.get("code"), refused.get("values")
    template = NAME_REFUSED.get(code) if isinstance(code, str) else None
    if template is None or not isinstance(values, dict):
        return _(UNKNOWN_ERROR).format(code=shown(json_text(code), 40))
    return _format(_(template), values) or _(UNKNOWN_ERROR).format(code=shown(json_text(code), 40))


def encode(message: Mapping[str, Any]) -> bytes:
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
        raise ProtocolError(BAD_MESSAGE, values={"field": "type", "kind": "str"})
    return data


def field(message: Mapping[str, Any], key: str, kind: type) -> Any:
    """``message[key]``, which must be of ``kind`` (a bool is no int here)."""
    value = message.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ProtocolError(BAD_MESSAGE, values={"field": key, "kind": kind.__name__})
    return value


def bye_code(message: Mapping[str, Any]) -> str:
    """Why a ``bye`` came: its ``code`` (``HOST_GONE`` if it names none)."""
    code = message.get("code")
    return str(code) if code in BYE_REASONS else HOST_GONE


def bye_line(message: Mapping[str, Any]) -> str:
    """A ``bye``'s reason in the language chosen.

    >>> bye_line({"type": "bye", "code": "ended"})
    'the host ended the game'
    """
    return _(BYE_REASONS[bye_code(message)])


def shown(text: Any, limit: int = 60) -> str:
    """A value from the other end, safe to print: escaped, capped."""
    return escape(shorten(str(text), limit))


# ----- moves and cards as text -----------------------------------------------------


def parse_move(text: Any) -> Move:
    """A move written as the save format writes it (``storage.shapes.move_of``):
    ``P``, ``U3``, ``UP``, ``U3>2`` (a hazard on side 2), ``D5``, ``y``, ``n``."""
    move = move_of(text)
    if move is None:
        raise ProtocolError(BAD_MOVE, values={"move": shown(json_text(text), 20)})
    return move


def json_text(value: Any) -> str:
    """A value from a client, quoted for an error line (short, escaped)."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = "?"
    return escape(shorten(text, 30))
