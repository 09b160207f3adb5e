"""The checks of a save's values, and the one error they raise.

Every value a save file holds is read through one of these readers: each
takes the parsed JSON value and the path it was found at (``table.hands[2]``),
checks its type and range, and returns it as the game holds it (a card's
name becomes its number, a generator's state a ``random.Random``).  A value
that does not pass raises :class:`SaveError` with the path and a precise
lower-case reason; a bad value is quoted by :func:`show`, cut short and
made safe to print, whatever it is.

>>> read_int(7, "table.to_move", 0, 3)
Traceback (most recent call last):
  ...
mille.storage.checks.SaveError: table.to_move: 7 is out of range 0..3
>>> read_card("Foo", "table.hands[2][3]", empty_ok=True)
Traceback (most recent call last):
  ...
mille.storage.checks.SaveError: table.hands[2][3]: unknown card 'Foo'
"""

from __future__ import annotations

import json
import math
import random

TYPE_CHECKING = False  # typing is not loaded at run time (start-up)
if TYPE_CHECKING:
    from typing import Any, NoReturn

    from ..engine.table import Table
    from ..players.base import Player

from ..engine.cards import ALL_NAMES, D25, D200, HAND_SLOTS, NO_CARD, NUM_SAFETIES
from ..engine.text import escape, shorten
from ..i18n import N_, _, heard
from ..players.registry import computer_class

SHOW_LIMIT = 60  # characters of a bad value quoted in a message
MESSAGE_LIMIT = 160  # characters of a SaveError's message
BIG = 10**9  # the bound of a counter that has no other (games, totals)

_CARD_BY_NAME = {name: card for card, name in enumerate(ALL_NAMES)}
_MT_N = 624  # words in the Mersenne Twister's state
_RNG_KEYS = ("version", "state", "gauss_next")


class Worded(OSError):
    """An operating-system error whose reason is one of this program's
    messages: ``strerror`` in English, and ``words`` (its template and
    values) for :func:`mille.i18n.oserror` to show it translated."""

    def __init__(self, code: int, template: str, **values: object) -> None:
        super().__init__(code, template.format(**values))
        self.words = (template, values)


class SaveError(ValueError):
    """A file is not a save this program can restore; ``str()`` says why.

    The reason is always one printable line of at most ``MESSAGE_LIMIT``
    characters, whatever the file held.  ``errno`` is set when the reason is
    an operating-system error.
    """

    def __init__(self, message: str, errno: int | None = None) -> None:
        super().__init__(shorten(escape(message), MESSAGE_LIMIT))
        self.errno = errno


# the reasons a save is refused: English in ``str(SaveError)`` (a save and its
# messages carry no language), shown translated by :func:`said`
EXPECTED_OBJECT = N_("expected an object, got {value}")
MISSING_KEY = N_("missing key {key}")
UNKNOWN_KEY = N_("unknown key {key}")
EXPECTED_INT = N_("expected an integer, got {value}")
OUT_OF_RANGE = N_("{value} is out of range {low}..{high}")
EXPECTED_INT_OR_NULL = N_("expected an integer or null, got {value}")
EXPECTED_BOOL = N_("expected true or false, got {value}")
EXPECTED_STR = N_("expected a string, got {value}")
EXPECTED_ARRAY = N_("expected an array, got {value}")
EXPECTED_ENTRIES = N_("expected {count} entries, got {found}")
EXPECTED_CARD = N_("expected a card name, got {value}")
EXPECTED_CARD_OR_NULL = N_("expected a card name or null, got {value}")
UNKNOWN_CARD = N_("unknown card {value}")
NOT_A_SAVE = N_("not a mille save file ({reason})")
NOT_A_GAME = N_("not a mille game file ({reason})")  # a game file's (storage.gamefile)
UNSUPPORTED_GAME = N_("unsupported game file version {version} (this mille reads version {known})")
# why a file is not a save at all (NOT_A_SAVE's reason)
NOT_JSON_OBJECT = N_("not a JSON object")
NO_FORMAT_NAME = N_("no format name")
TOO_DEEP = N_("nested too deeply")
EMPTY = N_("empty")
DUPLICATE_KEY = N_("duplicate key {key}")
TOO_MANY_DIGITS = N_("a number of more than {limit} digits")
OVER_SIZE = N_("over {size} MiB")
NOT_UTF8 = N_("not UTF-8 text at byte {at}")
BAD_JSON = N_("bad JSON at line {line} column {column}: {what}")
NOT_A_SAVE_REASONS = (
    NOT_JSON_OBJECT, NO_FORMAT_NAME, TOO_DEEP, EMPTY, DUPLICATE_KEY, TOO_MANY_DIGITS, OVER_SIZE,
    NOT_UTF8, BAD_JSON,
)  # fmt: skip
SAVE_TEXTS = (
    EXPECTED_OBJECT, MISSING_KEY, UNKNOWN_KEY, EXPECTED_INT, OUT_OF_RANGE, EXPECTED_INT_OR_NULL,
    EXPECTED_BOOL, EXPECTED_STR, EXPECTED_ARRAY, EXPECTED_ENTRIES, EXPECTED_CARD,
    EXPECTED_CARD_OR_NULL, UNKNOWN_CARD, NOT_A_SAVE, NOT_A_GAME, UNSUPPORTED_GAME,
)  # fmt: skip


def said(reason: str) -> str:
    """Why a save is refused (``str(SaveError)``, English) in the language
    chosen: the place in the file as it is, the reason translated.

    >>> said("log[3].turn: missing key 'seat'")
    "log[3].turn: missing key 'seat'"
    """
    where, colon, rest = reason.partition(": ")
    if colon and where and " " not in where:
        return _("{where}: {reason}").format(where=where, reason=said(rest))
    return heard(reason, SAVE_TEXTS, NOT_A_SAVE_REASONS)


def fail(where: str, message: str) -> NoReturn:
    """Refuse the value at ``where`` (the file itself when empty)."""
    raise SaveError(f"{where}: {message}" if where else message)


# ----- quoting a bad value ----------------------------------------------------


def show(value: Any) -> str:
    """A bad value for a message: JSON-like, at most ``SHOW_LIMIT`` characters.

    Never raises, whatever the value (nested past the recursion limit, an
    integer past the int-to-text digit limit, a megabyte of text): only the
    part that is shown is ever rendered.
    """
    if isinstance(value, str):  # Python's quotes, as in "unknown card 'Foo'"
        text = repr(value[: SHOW_LIMIT + 1])
    else:
        parts: list[str] = []
        _render(value, parts, SHOW_LIMIT + 1)
        text = "".join(parts)
    return shorten(escape(text), SHOW_LIMIT)


def _render(value: Any, parts: list[str], budget: int) -> int:
    """Append ``value`` as JSON to ``parts`` until ``budget`` characters are
    used up (then stop: deep or long values are never walked to the end);
    the budget left."""
    if budget <= 0:
        return budget
    if isinstance(value, (list, tuple, dict)):
        keyed = isinstance(value, dict)  # an object: each item after its key
        parts.append("{" if keyed else "[")
        budget -= 1
        for i, item in enumerate(value.items() if isinstance(value, dict) else value):
            if budget <= 0:
                return budget
            if i:
                parts.append(", ")
                budget -= 2
            if keyed:
                key, item = item
                budget = _render(str(key) if isinstance(key, str) else key, parts, budget)
                parts.append(": ")
                budget -= 2
            budget = _render(item, parts, budget)
        parts.append("}" if keyed else "]")
        return budget - 1
    if value is None or isinstance(value, bool):
        text = {None: "null", True: "true", False: "false"}[value]
    elif isinstance(value, int):
        text = _int_text(value)
    elif isinstance(value, float):
        text = repr(value) if math.isfinite(value) else str(value)
    elif isinstance(value, str):
        text = json.dumps(value[:budget])
    else:
        text = f"<{type(value).__name__}>"
    parts.append(text[: budget + 1])
    return budget - len(text)


def _int_text(value: int) -> str:
    """An integer's digits, or (past a few hundred) its leading digits: at
    least ``SHOW_LIMIT + 1`` characters, never the whole of a huge number."""
    if value.bit_length() <= 1000:
        return str(value)
    # a lower bound on the digits past the first hundred
    cut = int((value.bit_length() - 1) * 0.30102999) - 100
    return ("-" if value < 0 else "") + str(abs(value) // 10**cut)


# ----- plain values -----------------------------------------------------------


def read_object(data: Any, where: str, keys: tuple[str, ...]) -> dict[str, Any]:
    """An object with exactly ``keys`` (a missing key is named first)."""
    if not isinstance(data, dict):
        fail(where, EXPECTED_OBJECT.format(value=show(data)))
    for key in keys:
        if key not in data:
            fail(where, MISSING_KEY.format(key=repr(key)))
    for key in data:
        if key not in keys:
            fail(where, UNKNOWN_KEY.format(key=show(key)))
    return data


def read_int(data: Any, where: str, low: int, high: int) -> int:
    """An integer (not a boolean, not ``25.0``) from ``low`` to ``high``."""
    if type(data) is not int:
        fail(where, EXPECTED_INT.format(value=show(data)))
    if not low <= data <= high:
        fail(where, OUT_OF_RANGE.format(value=show(data), low=low, high=high))
    return data


def read_optional_int(data: Any, where: str, low: int, high: int) -> int | None:
    """``null``, or an integer from ``low`` to ``high``."""
    if data is None:
        return None
    if type(data) is not int:
        fail(where, EXPECTED_INT_OR_NULL.format(value=show(data)))
    return read_int(data, where, low, high)


def read_bool(data: Any, where: str) -> bool:
    if type(data) is not bool:
        fail(where, EXPECTED_BOOL.format(value=show(data)))
    return data


def read_str(data: Any, where: str) -> str:
    if not isinstance(data, str):
        fail(where, EXPECTED_STR.format(value=show(data)))
    return data


def read_list(data: Any, where: str, length: int | None = None) -> list[Any]:
    """An array (of ``length`` entries if given)."""
    if not isinstance(data, list):
        fail(where, EXPECTED_ARRAY.format(value=show(data)))
    if length is not None and len(data) != length:
        fail(where, EXPECTED_ENTRIES.format(count=length, found=len(data)))
    return data


def read_ints(data: Any, where: str, length: int, low: int, high: int) -> list[int]:
    return [
        read_int(n, f"{where}[{i}]", low, high)
        for i, n in enumerate(read_list(data, where, length))
    ]


# ----- cards ------------------------------------------------------------------


def read_card(data: Any, where: str, *, empty_ok: bool) -> int:
    """A card by its exact name (``null``, no card, if ``empty_ok``)."""
    if data is None and empty_ok:
        return NO_CARD
    if not isinstance(data, str):
        expected = EXPECTED_CARD_OR_NULL if empty_ok else EXPECTED_CARD
        fail(where, expected.format(value=show(data)))
    try:
        return _CARD_BY_NAME[data]
    except KeyError:
        fail(where, UNKNOWN_CARD.format(value=show(data)))


def read_cards(data: Any, where: str) -> list[int]:
    """A pile: an array of cards, none empty."""
    return [
        read_card(c, f"{where}[{i}]", empty_ok=False) for i, c in enumerate(read_list(data, where))
    ]


def read_hand(data: Any, where: str) -> list[int]:
    """A hand: ``HAND_SLOTS`` cards or empty slots."""
    return [
        read_card(c, f"{where}[{i}]", empty_ok=True)
        for i, c in enumerate(read_list(data, where, HAND_SLOTS))
    ]


def distance_counts(played: list[int]) -> list[int]:
    """How many of each distance card ``played`` holds (``Tableau.nummiles``)."""
    return [played.count(c) for c in range(D25, D200 + 1)]


def read_coups(data: Any, where: str) -> list[bool]:
    """A side's coups fourrés: a flag for each safety."""
    return [
        read_bool(c, f"{where}[{i}]") for i, c in enumerate(read_list(data, where, NUM_SAFETIES))
    ]


# ----- generators -------------------------------------------------------------


def rng_to_dict(rng: random.Random) -> dict[str, Any]:
    """A generator's state as the file writes it (read by :func:`read_rng`)."""
    version, internal, gauss_next = rng.getstate()
    return {"version": version, "state": list(internal), "gauss_next": gauss_next}


def read_rng(data: Any, where: str) -> random.Random:
    """A generator in the state :func:`rng_to_dict` wrote, checked so that
    ``setstate`` cannot fail."""
    d = read_object(data, where, _RNG_KEYS)
    if type(d["version"]) is not int or d["version"] != 3:
        fail(f"{where}.version", f"unsupported generator version {show(d['version'])}")
    words = read_list(d["state"], f"{where}.state", _MT_N + 1)
    for i, w in enumerate(words[:_MT_N]):
        read_int(w, f"{where}.state[{i}]", 0, 2**32 - 1)
    read_int(words[_MT_N], f"{where}.state[{_MT_N}]", 1, _MT_N)
    if not any(words[:_MT_N]):
        fail(f"{where}.state", "all zero: not a generator state")
    gauss = d["gauss_next"]
    if gauss is not None and (type(gauss) is not float or not math.isfinite(gauss)):
        fail(f"{where}.gauss_next", f"expected a number or null, got {show(gauss)}")
    rng = random.Random()
    rng.setstate((3, tuple(words), gauss))  # cannot fail: its own checks are those above
    return rng


# ----- what the engine and the computers check --------------------------------


def validated(table: Table) -> Table:
    """``table`` if the rules allow it (the engine's own checks, strictly)."""
    try:
        table.validate(strict=True)
    except ValueError as e:
        fail("", f"impossible game: {e}")
    return table


def read_computer(kind: str, memory: Any, rng: random.Random, seat: int, where: str) -> Player:
    """The computer of ``seat`` rebuilt from its memory by its own check."""
    if not isinstance(memory, dict):
        fail(where, f"expected an object, got {show(memory)}")
    try:
        computer: Player = computer_class(kind).from_dict(memory, rng, seat)
    except RecursionError:
        fail(where, "nested too deeply")
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as e:
        reason = str(e).splitlines()[0] if str(e) else type(e).__name__
        for prefix in ("computer: ", "computer.", "heuristic: "):
            reason = reason.removeprefix(prefix)
        fail(where, reason)
    if getattr(computer, "seat", seat) != seat:
        fail(where, f"the memory of seat {show(computer.seat)}, not {seat}")
    return computer
