"""Reading a computer's memory back from a save file, for every computer.

A computer saves what it remembers as JSON (card counts by card name, small
integers); these helpers check what comes back and say what is wrong in one
line, raising the computer's own error class.  Values quoted in a message
are escaped and cut (a hostile file cannot make a long or multi-line one).

>>> card_counts({"A": 1, "B": 2}, ("A", "B"), "seen", ValueError)
[1, 2]
>>> card_counts({"A": 1}, ("A", "B"), "seen", ValueError)
Traceback (most recent call last):
...
ValueError: seen: missing card 'B'
>>> len(quote("x" * 100)), quote(2 ** 700)
(60, 'a number of about 210 digits')
>>> seat_number("3"), seat_number("03"), seat_number(3)
(3, None, None)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine.text import escape, shorten

QUOTE_LIMIT = 60  # the most of a value a message shows


def quote(value: object) -> str:
    """A value from a save file, for a message: at most ``QUOTE_LIMIT``
    characters, escaped, never raising (huge numbers are named by size)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
        return f"a number of about {value.bit_length() * 3 // 10} digits"
    try:
        return escape(shorten(repr(value), QUOTE_LIMIT))
    except (ValueError, RecursionError):
        return f"a {type(value).__name__}"


def integer(value: object, what: str, error: type[ValueError]) -> int:
    """``value`` if it is an integer (``true`` is not), else ``error``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"{what} must be an integer, not {type(value).__name__}")
    return value


def saved_object(
    data: object,
    keys: Sequence[str],
    what: str,
    error: type[ValueError],
    optional: Sequence[str] = (),
) -> dict[str, Any]:
    """``data``, a saved memory: an object holding each of ``keys`` and no
    other key but ``optional``; ``error`` (``what: ...``) if not."""
    if not isinstance(data, dict):
        raise error(f"{what}: expected an object")
    for key in data:
        if key not in keys and key not in optional:
            raise error(f"{what}: unknown key {quote(key)}")
    for key in keys:
        if key not in data:
            raise error(f"{what}: missing key {key!r}")
    return data


def seat_number(key: object) -> int | None:
    """The seat a save's key names (``"0"``, ``"12"``: digits, no leading
    zero, at most three), or None if ``key`` is not one."""
    if (
        isinstance(key, str)
        and key.isascii()
        and key.isdigit()
        and len(key) <= 3
        and (key == "0" or key[0] != "0")
    ):
        return int(key)
    return None


def card_counts(raw: object, names: Sequence[str], what: str, error: type[ValueError]) -> list[int]:
    """An object of integers naming each of ``names`` exactly once, as a
    list in the order of ``names``."""
    if not isinstance(raw, dict):
        raise error(f"{what} must be an object")
    for key in raw:
        if key not in names:
            raise error(f"{what}: unknown card {quote(key)}")
    counts = []
    for name in names:
        if name not in raw:
            raise error(f"{what}: missing card {name!r}")
        counts.append(integer(raw[name], f"{what} {name!r}", error))
    return counts
