"""Text that is safe to show: control characters escaped, length capped,
width on screen measured.

Everything mille prints that came from outside (a path, a value read from a
save file, an OS error message) goes through :func:`escape` so that it takes
exactly one line and cannot move the cursor, clear the screen or ring the
bell; :func:`shorten` caps it.  :func:`width` is how many columns a text
takes on a terminal (a wide character, as CJK's, takes two, a combining
mark none), and :func:`fit` cuts one to a number of columns.

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
>>> width("Ann"), width("\u5c71\u7530"), width("e\u0301te\u0301")
(3, 4, 3)
>>> fit("\u5c71\u7530\u592a\u90ce", 5), shorten("\u5c71\u7530\u592a\u90ce", 7)
('\u5c71\u7530', '\u5c71\u7530...')
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


NO_BREAK_SPACES = "\u00a0\u202f"


def escape(text: str) -> str:
    """``text`` with every non-printable character written as an escape.

    Spaces and printable characters (any script) stay as they are; line
    breaks, ESC, DEL, other control and format characters, and undecodable
    bytes become ``\\n``, ``\\x1b``, ``\\u202e``-style escapes.  The
    no-break spaces French puts before ``: ; ? !`` (U+00A0, U+202F) are
    spaces: they stay.
    A zero-width joiner between two emoji (``\U0001f468\u200d\U0001f469``,
    one picture) is shown as it is: it moves nothing; any other is escaped.

    >>> escape("\U0001f468\u200d\U0001f469") == "\U0001f468\u200d\U0001f469"
    True
    >>> print(escape("a\u200db"))
    a\u200db
    """
    if text.isprintable():
        return text
    return "".join(
        ch
        if ch.isprintable() or ch in NO_BREAK_SPACES or _joins_emoji(text, index)
        else _escape_char(ch)
        for index, ch in enumerate(text)
    )


def printable(text: str) -> bool:
    """Whether ``text`` is shown as it is (:func:`escape` leaves it)."""
    return escape(text) == text


ZWJ = "\u200d"
_EMOJI_MARKS = "\ufe0f\U0001f3fb\U0001f3fc\U0001f3fd\U0001f3fe\U0001f3ff"  # style, skin tones


def _joins_emoji(text: str, index: int) -> bool:
    """Whether ``text[index]`` is a zero-width joiner inside an emoji
    sequence: an emoji (a symbol beyond ASCII, its style or skin tone
    after it) before, an emoji after."""
    if text[index] != ZWJ:
        return False
    before = text[:index].rstrip(_EMOJI_MARKS)
    after = text[index + 1 : index + 2]
    return bool(before and after) and _emoji(before[-1]) and _emoji(after)


def _emoji(ch: str) -> bool:
    import unicodedata  # (only for a joiner)

    return ord(ch) > 0x7F and unicodedata.category(ch) == "So"


def shorten(text: str, limit: int) -> str:
    """``text`` cut to take at most ``limit`` columns (:func:`width`: as
    many characters for ASCII), ending in ``...`` if cut."""
    if width(text) <= limit:
        return text
    if limit <= len(ELLIPSIS):
        return fit(text, limit)
    return fit(text, limit - len(ELLIPSIS)) + ELLIPSIS


VS16 = "\ufe0f"  # emoji presentation: the character before it drawn as a wide emoji


def char_width(ch: str) -> int:
    """Columns one printable character takes: 2 for a wide or full-width
    one (Unicode's East Asian Width ``W`` or ``F``) and for a regional
    indicator (half a flag, drawn wide), 0 for a combining mark, else 1."""
    if ch.isascii():
        return 1
    import unicodedata  # (only for text beyond ASCII)

    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me"):
        return 0
    if unicodedata.east_asian_width(ch) in ("W", "F") or "\U0001f1e6" <= ch <= "\U0001f1ff":
        return 2
    return 1


def _columns(text: str) -> list[int]:
    """The columns each character of ``text`` adds, as terminals draw it
    (counting high where they differ): :func:`char_width`, but VS16
    (U+FE0F) makes the character before it wide (``\u2764\ufe0f``, a red
    heart, takes 2), so it adds what that one lacked."""
    added: list[int] = []
    for ch in text:
        if ch == VS16 and added:
            added.append(1 if added[-1] == 1 else 0)
        else:
            added.append(char_width(ch))
    return added


def width(text: str) -> int:
    """Columns ``text`` (printable) takes on a terminal.

    >>> width("\u2764\ufe0f"), width("\u2764"), width("\U0001f1eb\U0001f1f7")
    (2, 1, 4)
    """
    if text.isascii():
        return len(text)
    return sum(_columns(text))


def fit_name(name: str, columns: int) -> str:
    """``name`` in at most ``columns`` columns (:func:`fit`), keeping a
    number at its end, so that names told apart by it (the default
    ``Player 1``, ``Player 2``) stay apart in a narrow column.

    >>> fit_name("Player 1", 6), fit_name("Player 12", 6), fit_name("Ann", 6)
    ('Play 1', 'Pla 12', 'Ann')
    >>> fit_name("Bartholomew", 6), fit_name("Player 123456", 6)
    ('Bartho', 'Player')
    """
    if width(name) <= columns:
        return name
    head, _, number = name.rpartition(" ")
    if head and number.isascii() and number.isdigit() and len(number) + 2 <= columns:
        return fit(head, columns - len(number) - 1).rstrip() + " " + number
    return fit(name, columns)


def fit(text: str, columns: int) -> str:
    """The longest start of ``text`` that takes at most ``columns`` columns
    (whole characters, a combining mark kept with its letter)."""
    if text.isascii():
        return text[:columns]
    used = 0
    for index, added in enumerate(_columns(text)):
        used += added
        if used > columns:
            return text[: index - 1] if text[index] == VS16 else text[:index]
    return text
