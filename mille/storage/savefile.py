"""Save files: a game in progress as versioned, validated JSON.

BSD mille dumped its memory to the file and read it back unchecked.  Here
a save is a JSON document (``docs/save-format.md`` describes every field)
that is written atomically and checked from end to end when loaded: a file
that is not a complete, consistent save is refused with a one-line reason,
and never modified.  Nothing is ever pickled, marshalled or evaluated.

This module is the API: :func:`dumps` and :func:`loads` (a session to the
file's text and back), :func:`save_session` and :func:`load_session` (to
a file and back, at most ``MAX_SIZE`` bytes), and :class:`SaveError`, the
one error a refused file raises.  The work is done by the modules beside
it: the format mille writes, version 3 (:mod:`.current`); the versions
before it, 2 and 1, which still load (:mod:`.legacy`); the checks of every
value read, with their messages (:mod:`.checks`); and the atomic write
(:mod:`.atomic`).  Here are the file's text (its layout and its JSON), the
choice of a reader by the file's version, and the size limit.

>>> from mille.game.session import Session
>>> game = Session.new(seed=7)
>>> text = dumps(game)
>>> dumps(loads(text)) == text
True
>>> loads(text.replace('"target": 700', '"target": 800'))
Traceback (most recent call last):
  ...
mille.storage.checks.SaveError: impossible game: target must be one of [700, 1000], not 800
"""

from __future__ import annotations

import errno
import json
import math
import os
import stat
import sys

TYPE_CHECKING = False  # typing is not loaded at run time (start-up)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, NoReturn

from ..game.session import Session
from ..i18n import N_
from . import atomic
from .checks import (
    BAD_JSON,
    DUPLICATE_KEY,
    EMPTY,
    MESSAGE_LIMIT,
    NO_FORMAT_NAME,
    NOT_A_SAVE,
    NOT_JSON_OBJECT,
    NOT_UTF8,
    OVER_SIZE,
    TOO_DEEP,
    TOO_MANY_DIGITS,
    SaveError,
    Worded,
    fail,
    said,
    show,
)
from .current import FORMAT, PLAIN, VERSION, from_v3, session_to_dict
from .legacy import from_v1, from_v2
from .shapes import TABLE_OPTIONAL, TABLEAU_OPTIONAL, table_from_dict, table_to_dict

__all__ = [
    "FORMAT",
    "MAX_SIZE",
    "MESSAGE_LIMIT",
    "VERSION",
    "VERSIONS",
    "SaveError",
    "dumps",
    "load_session",
    "loads",
    "said",
    "save_session",
    "session_from_dict",
    "session_to_dict",
    "table_from_dict",
    "table_to_dict",
]

# The reader of each version this mille reads (1 converted, 2 without a log).
READERS: dict[int, Callable[[dict[str, Any]], Session]] = {
    1: from_v1,
    2: from_v2,
    VERSION: from_v3,
}
VERSIONS = tuple(READERS)
# The most a save file may hold.  A save is about 20 KiB; nine seats with
# eight experts about 250 KiB (their guesses at the hands).  Before the
# expert wrote its guesses as card letters such a save took 1.2 to 2.3 MiB:
# those load too.  A save is refused (not written) past it.
MAX_SIZE = 4 << 20
SIZE_MIB = MAX_SIZE >> 20  # the limit in the messages
# a save too large to write (its bytes; the MiB a save may hold)
TOO_LARGE = N_(
    "cannot save: the game takes {count} bytes, over the {size} MiB a save file may hold"
)
# Read without blocking on a FIFO or taking a terminal (where these exist).
_READ_FLAGS: int = os.O_RDONLY
for _flag in ("O_BINARY", "O_NONBLOCK", "O_NOCTTY", "O_CLOEXEC"):
    _READ_FLAGS |= getattr(os, _flag, 0)

# tests/test_docs.py reads the keys written only when set under these names
_TABLE_OPTIONAL = TABLE_OPTIONAL
_TABLEAU_OPTIONAL = TABLEAU_OPTIONAL


# ----- writing ----------------------------------------------------------------


def dumps(session: Session) -> str:
    """The save file's text for ``session`` (deterministic, ASCII, ends in a newline)."""
    return _format(session_to_dict(session), "") + "\n"


# The formatting, made once: ``_ENCODE(v)`` is ``json.dumps(v, allow_nan=False)``
# (the same encoder, not a new one at each value) and ``_STRING(s)`` is
# ``json.dumps(s)`` for a string (its ASCII escapes).
_ENCODE = json.JSONEncoder(allow_nan=False).encode
_STRING = json.encoder.encode_basestring_ascii


def _format(value: Any, indent: str) -> str:
    """JSON text: objects one key a line, arrays of plain values on one line.

    >>> print(_format({"a": [1, "é"], "b": {}, "c": [{"d": None}], "e": []}, ""))
    {
      "a": [1, "\\u00e9"],
      "b": {},
      "c": [
        {
          "d": null
        }
      ],
      "e": []
    }
    """
    out: list[str] = []
    _write(value, indent, out)
    return "".join(out)


def _write(value: Any, indent: str, out: list[str]) -> None:
    """Append ``value``'s text to ``out``, its nested lines under ``indent``.

    The values a save holds (dicts, lists, strings, numbers, true, false,
    null) take the quick ways; any other (an empty dict, a list of lists,
    a subclass, a tuple, NaN) is written by :func:`_other`, the whole of the
    rules.
    """
    kind = type(value)
    if kind is str:
        out.append(_STRING(value))
    elif kind is int:
        try:
            out.append(int.__repr__(value))
        except ValueError:  # more digits than Python writes: the encoder says why
            out.append(_scalar(value))
    elif kind is dict and value:
        _object(value, indent, out)
    elif kind is list and PLAIN.issuperset(map(type, value)):
        out.append(_scalar(value))
    elif kind is bool:
        out.append("true" if value else "false")
    elif value is None:
        out.append("null")
    elif kind is float and math.isfinite(value):
        out.append(float.__repr__(value))
    else:
        _other(value, indent, out)


def _other(value: Any, indent: str, out: list[str]) -> None:
    """:func:`_write` for any value: what a dict, a list or a plain value is
    written as, whatever its exact type; SaveError for any other value."""
    if isinstance(value, dict):
        if value:
            _object(value, indent, out)
        else:
            out.append("{}")
    elif isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        inner = indent + "  "
        before = "[\n" + inner
        for item in value:
            out.append(before)
            _write(item, inner, out)
            before = ",\n" + inner
        out.append("\n" + indent + "]")
    elif value is None or isinstance(value, (bool, int, float, str, list)):
        out.append(_scalar(value))
    else:
        raise SaveError(f"cannot save a value of type {type(value).__name__}")


def _object(value: dict[Any, Any], indent: str, out: list[str]) -> None:
    """:func:`_write` for a dict that is not empty: one key a line, each
    key as text (``str(key)``)."""
    inner = indent + "  "
    before = "{\n" + inner
    for key, item in value.items():
        out.append(before)
        out.append(_STRING(key) if type(key) is str else json.dumps(str(key)))
        out.append(": ")
        _write(item, inner, out)
        before = ",\n" + inner
    out.append("\n" + indent + "}")


def _scalar(value: Any) -> str:
    """A plain value or an array of them on one line (``json.dumps``)."""
    try:
        return _ENCODE(value)
    except ValueError:
        raise SaveError("cannot save a number that is not finite") from None


def save_session(session: Session, path: str, mode: int | None = None) -> None:
    """Write ``session`` to ``path`` atomically; OSError if it cannot be done.

    The text is first checked to load back into the same game, and to be
    at most ``MAX_SIZE`` bytes.  It goes to a temporary file beside the
    target, is flushed to disk and then renamed over the target, so the
    target is either the old file or the complete new one; the temporary
    file never outlives a failure.  A symbolic link is followed (its
    target is replaced); a target you may not write to is refused with
    ``Permission denied``, as creat(2) would (:func:`.atomic.write`).
    With ``mode``, the file gets that mode (a recovery file's 0600).
    """
    try:
        text = dumps(session)
        if dumps(loads(text)) != text:
            raise SaveError("the saved game does not load back the same")
    except SaveError as e:  # a bug, not the user's: keep the game, say why
        raise OSError(errno.EINVAL, f"cannot save: {e}") from e
    data = text.encode("ascii")
    if len(data) > MAX_SIZE:  # it would not load: refuse it now
        raise Worded(errno.EFBIG, TOO_LARGE, count=len(data), size=SIZE_MIB)
    atomic.write(path, data, mode)


# ----- reading ----------------------------------------------------------------


def _not_a_save(reason: str, where: str = "") -> NoReturn:
    fail(where, NOT_A_SAVE.format(reason=reason))


def _listed(versions: tuple[int, ...]) -> str:
    """``1, 2 and 3``."""
    *rest, last = map(str, versions)
    return f"{', '.join(rest)} and {last}" if rest else last


def session_from_dict(data: Any) -> Session:
    """Rebuild a session from a save's parsed JSON (version 3; 2, which has
    no log; or 1, converted); SaveError if it is not one."""
    try:
        return _session_from_dict(data)
    except RecursionError:  # a check deeper in (a computer's) met a deep value
        _not_a_save(TOO_DEEP)


def _session_from_dict(data: Any) -> Session:
    if not isinstance(data, dict):
        _not_a_save(NOT_JSON_OBJECT)
    if data.get("format") != FORMAT:
        if "format" not in data:
            _not_a_save(NO_FORMAT_NAME)
        _not_a_save(show(data["format"]), "format")
    version = data.get("version")
    if type(version) is not int or version not in READERS:
        fail(
            "version",
            f"unsupported save version {show(version)}"
            f" (this mille reads versions {_listed(VERSIONS)})",
        )
    return READERS[version](data)


def parse(text: str, not_a: str = NOT_A_SAVE) -> Any:
    """A file's JSON value, or SaveError ``not_a`` (``not a mille save file
    ({reason})``) with why it is no JSON mille reads: bad JSON, a key
    twice, a constant JSON has not (``NaN``), too deep, too many digits."""

    def refuse(reason: str) -> NoReturn:
        fail("", not_a.format(reason=reason))

    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in pairs:
            if key in result:
                refuse(DUPLICATE_KEY.format(key=show(key)))
            result[key] = value
        return result

    def no_constant(name: str) -> NoReturn:
        refuse(f"{name} is not JSON")

    try:
        return json.loads(text, object_pairs_hook=no_duplicates, parse_constant=no_constant)
    except json.JSONDecodeError as e:
        refuse(BAD_JSON.format(line=e.lineno, column=e.colno, what=e.msg.lower()))
    except RecursionError:
        refuse(TOO_DEEP)
    except SaveError:
        raise
    except ValueError as e:  # e.g. an integer too long to convert
        limit = getattr(sys, "get_int_max_str_digits", lambda: 0)()
        if limit and "integer string conversion" in str(e):  # Python's own words
            refuse(TOO_MANY_DIGITS.format(limit=limit))
        refuse(str(e).splitlines()[0])


def loads(text: str) -> Session:
    """Restore a session from a save file's text; SaveError if it is not one."""
    return session_from_dict(parse(text))


def load_session(path: str) -> Session:
    """Restore the game saved in ``path`` (never modified); SaveError if it cannot.

    OS errors give the system's reason (``No such file or directory``); the
    restored session's ``source`` is ``path``.
    """
    session = loads(read_text(path))
    session.source = path
    return session


def read_text(path: str, not_a: str = NOT_A_SAVE) -> str:
    """The text of the file ``path`` (at most ``MAX_SIZE`` bytes of UTF-8,
    a regular file; never modified); SaveError (``not_a``) if it is not."""

    def refuse(reason: str) -> NoReturn:
        fail("", not_a.format(reason=reason))

    try:
        fd = os.open(path, _READ_FLAGS)
    except OSError as e:
        raise SaveError(e.strerror or str(e), e.errno) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise SaveError(os.strerror(errno.EISDIR), errno.EISDIR)
        if not stat.S_ISREG(info.st_mode):
            raise SaveError("not a regular file")
        if info.st_size > MAX_SIZE:
            refuse(OVER_SIZE.format(size=SIZE_MIB))
        chunks = []
        size = 0
        while size <= MAX_SIZE:
            chunk = os.read(fd, MAX_SIZE + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as e:
        raise SaveError(e.strerror or str(e), e.errno) from None
    finally:
        os.close(fd)
    raw = b"".join(chunks)
    if len(raw) > MAX_SIZE:
        refuse(OVER_SIZE.format(size=SIZE_MIB))
    if not raw.strip():
        refuse(EMPTY)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        refuse(NOT_UTF8.format(at=e.start))
