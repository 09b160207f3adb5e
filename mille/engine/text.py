"""Text that is safe to show: control characters escaped, length capped.

Everything mille prints that came from outside (a path, a value read from a
save file, an OS error message) goes through :func:`escape` so that it takes
exactly one line and cannot move the cursor, clear the screen or ring the
bell; :func:`shorten` caps it.

>>> escape("bad\\nname")
'bad\\\\nname'
>>> escape("bad\\x1b[2Jname")
'bad\\\\x1b[2Jname'
>>> escape("été.sav")
'été.sav'
>>> escape("caf\\udce9")  # an undecodable byte kept by os.fsdecode
'caf\\\\xe9'
>>> shorten("x" * 100, 10)
'xxxxxxx...'
>>> shorten("short", 10)
'short'
"""

from __future__ import annotations

ELLIPSIS = "..."

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape_char(ch: str) -> str:
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # a byte os.fsdecode could not decode
        return f"\\x{code - 0xDC00:02x}"
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def escape(text: str) -> str:
    """``text`` with every non-printable character written as an escape.

    Spaces and printable characters (any script) stay as they are; line
    breaks, ESC, DEL, other control and format characters, and undecodable
    bytes become ``\\n``, ``\\x1b``, ``\\u202e``-style escapes.
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escape_char(ch) for ch in text)


def shorten(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, ending in ``...`` if cut."""
    if len(text) <= limit:
        return text
    if limit <= len(ELLIPSIS):
        return text[:limit]
    return text[: limit - len(ELLIPSIS)] + ELLIPSIS
