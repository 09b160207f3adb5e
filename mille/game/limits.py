"""What one person may give the others: a name and a chat line, each
defined once, here.

The host (``net/server.py``) takes them from the network, the client
(``net/client.py``) cuts what its person types, the save's writer
(``storage/current.py``) writes them and its reader checks them, and the
command line names the people: all by these functions, counting alike.
A text is first put in Unicode's composed form (NFC: an accented letter
typed as a letter and a combining accent, as macOS gives it, counts as
one character), then measured both in characters and in the columns it
takes on a terminal (``engine.text.width``: a wide character two, a
combining mark none).  So whatever the host accepts is what a save
holds and reads back: a letter followed by 200 combining accents is 201
characters and 1 column, and is cut by characters as any line is.

>>> say_text("  hi\\x1b[2J   there ")
'hi\\\\x1b[2J there'
>>> len(say_text("a" + "\\u0301" * 300)), check_say(say_text("a" + "\\u0301" * 300))
(200, None)
>>> check_name("e\\u0301ve") == "\\u00e9ve"
True
>>> check_name("\\u2764\\ufe0f" * 9)
Traceback (most recent call last):
...
mille.game.limits.BadName: a name has at most 16 characters (a wide one counts two)
>>> check_name("Hal\\u2800\\u2800")
Traceback (most recent call last):
...
mille.game.limits.BadName: 'Hal  ': a name is printable, without ',' or '=' or spaces at its ends
>>> check_name("a" + "\\u0301" * 60)
Traceback (most recent call last):
...
mille.game.limits.BadName: a name has at most 32 characters, taking 16 columns (a wide one counts two)
"""

from __future__ import annotations

from ..engine.text import ELLIPSIS, ZWJ, escape, fit, printable, width
from ..i18n import N_

NAME_COLUMNS = 16  # columns a person's name takes on screen (a wide character two)
NAME_CHARACTERS = 32  # characters of a name (after NFC): a letter and a mark on each column
SAY_COLUMNS = 200  # columns of a chat line
SAY_CHARACTERS = 200  # characters of a chat line (after NFC)
SAY_BURST = 5  # chat lines one seat may say in SAY_WINDOW seconds (however often it reconnects)
SAY_WINDOW = 10.0
MAX_WATCHERS = 16  # watchers of one table (``mille --watch``), the host's and anything stored
CHAT_KEPT = 100  # a hand's chat lines kept (the last), in the game and in its save

_TAKEN = r"(you|partner|(partner|comp|player) \d+|team [a-z])"  # the names mille gives seats

# why a name is refused: English in ``str(BadName)``, shown translated with
# ``i18n.heard(str(exc), NAME_REFUSALS)``; the host sends its code and values
# (``BadName.code``, ``.values``: ``BAD_NAMES``), never the English
NAME_EMPTY = N_("a name cannot be empty")
NAME_WIDE = N_("a name has at most {count} characters (a wide one counts two)")
NAME_LONG = N_(
    "a name has at most {characters} characters, taking {columns} columns (a wide one counts two)"
)
NAME_UNPRINTABLE = N_("{name}: a name is printable, without ',' or '=' or spaces at its ends")
NAME_GIVEN = N_("{name} is a name mille gives a seat")
NAME_UNSEEN = N_("{name}: a name has something to see (not only blanks or marks)")
NAME_REFUSALS = (NAME_EMPTY, NAME_WIDE, NAME_LONG, NAME_UNPRINTABLE, NAME_GIVEN, NAME_UNSEEN)
# each refusal's code, as the protocol carries it (``BadName.code``, ``.values``)
BAD_NAMES = {
    NAME_EMPTY: "name-empty",
    NAME_WIDE: "name-wide",
    NAME_LONG: "name-long",
    NAME_UNPRINTABLE: "name-unprintable",
    NAME_GIVEN: "name-given",
    NAME_UNSEEN: "name-unseen",
}

# printable characters a terminal draws as nothing but blank: a name takes
# them as spaces (so none at its ends, and never a name alone): the Hangul
# fillers, the braille blank, the ideographic space's look-alikes
BLANKS = "\u115f\u1160\u2800\u3164\uffa0"


def default_name(seat: int) -> str:
    """A person's name when none was given: ``Player N`` (as ``Comp N``)."""
    return f"Player {seat}"


def computer_name(seat: int) -> str:
    """A computer's seat's name: ``Comp N`` (``_TAKEN``: no person's)."""
    return f"Comp {seat}"


def normal(text: str) -> str:
    """``text`` in Unicode's composed form (NFC), as every limit counts it."""
    if text.isascii():
        return text
    import unicodedata  # (only for text beyond ASCII)

    return unicodedata.normalize("NFC", text)


def fits(text: str, characters: int, columns: int) -> bool:
    """Whether ``text`` (composed) holds at most ``characters`` characters
    taking at most ``columns`` columns."""
    return len(text) <= characters and width(text) <= columns


def cut(text: str, characters: int, columns: int) -> str:
    """``text`` (composed, printable) cut to fit :func:`fits`, ending in
    ``...`` if cut."""
    if fits(text, characters, columns):
        return text
    kept = len(ELLIPSIS)
    # (a joiner whose emoji after it was cut would be escaped by the next reader)
    return fit(text[: characters - kept], columns - kept).rstrip(ZWJ) + ELLIPSIS


# ----- chat ------------------------------------------------------------------------


def say_text(text: str) -> str:
    """A chat line as the table keeps it: composed, made one line (its
    spaces run together), control characters escaped, cut to
    ``SAY_CHARACTERS`` characters and ``SAY_COLUMNS`` columns; ""
    if nothing is left."""
    # composed again once escaped: an escape's last letter may take a
    # combining mark after it, which the next cut (the host's) would compose
    return cut(normal(escape(" ".join(normal(text).split()))), SAY_CHARACTERS, SAY_COLUMNS)


def check_say(text: object) -> str | None:
    """Why ``text`` cannot be a chat line kept (None: it can), as a save's
    reader checks it; every line :func:`say_text` makes can."""
    if (
        not isinstance(text, str)
        or not text
        or not printable(text)
        or not fits(normal(text), SAY_CHARACTERS, SAY_COLUMNS)
    ):
        return (
            f"a chat line is 1 to {SAY_CHARACTERS} printable characters"
            f" taking at most {SAY_COLUMNS} columns"
        )
    return None


# ----- names -----------------------------------------------------------------------


_AS_SPACES = str.maketrans(dict.fromkeys(BLANKS, " "))


class BadName(ValueError):
    """A person's name mille cannot use; ``str()`` says why (in English:
    its ``template``, one of ``NAME_REFUSALS``, with its ``values``), and
    ``code`` names it (``BAD_NAMES``)."""

    def __init__(self, template: str, **values: str | int) -> None:
        super().__init__(template.format(**values))
        self.template = template
        self.code = BAD_NAMES[template]
        self.values = values


def check_name(name: str) -> str:
    """``name`` composed (NFC), if a person may be called so: printable
    characters, 1 to ``NAME_CHARACTERS`` of them taking at most
    ``NAME_COLUMNS`` columns on screen (a wide character, as CJK's, takes
    two, a combining mark none: ``engine.text.width``), no ``,`` or ``=``
    (the command line's separators), no space at either end (a blank, as
    the braille blank or a Hangul filler, is a space), something to see
    (not only combining marks), and not a name mille gives a seat (``You``, ``Partner``, ``Comp 1``, ``Player
    2``, ``Team A``).

    >>> check_name("Ann")
    'Ann'
    >>> check_name("you")
    Traceback (most recent call last):
    ...
    mille.game.limits.BadName: 'you' is a name mille gives a seat
    """
    if not name:
        raise BadName(NAME_EMPTY)
    name = normal(name)
    if not name.isascii():
        name = name.translate(_AS_SPACES)
        if not width(name.replace(" ", "")):  # blanks and marks alone
            raise BadName(NAME_UNSEEN, name=repr(name))
    if not fits(name, NAME_CHARACTERS, NAME_COLUMNS):
        if len(name) <= NAME_CHARACTERS:
            raise BadName(NAME_WIDE, count=NAME_COLUMNS)
        raise BadName(NAME_LONG, characters=NAME_CHARACTERS, columns=NAME_COLUMNS)
    if not name.isprintable() or "," in name or "=" in name or name.strip() != name:
        raise BadName(NAME_UNPRINTABLE, name=repr(name))
    import re  # (only when a name is given: not at start-up)

    if re.fullmatch(_TAKEN, name, re.IGNORECASE):
        raise BadName(NAME_GIVEN, name=repr(name))
    return name


def name_key(name: str) -> str:
    """What two names are compared by: the same name whatever its case
    or its composition (``Ann``, ``ANN``; ``José`` typed either way)."""
    return normal(normal(name).casefold())
