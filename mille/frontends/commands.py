"""The line mode's commands: a line typed at ``Your move:`` or at a
question, turned into what it asks for.

:func:`parse` gives a move to make (``u 3`` is ``Use(3)``), a
:class:`Command` the line mode does itself (``o``, ``w``, ``r``, ``s``,
``q``, ``?``, ``h``, ``t``, ``l``, ``e``), or a :class:`Mistake`, the one
line that says what is wrong; :func:`answer` reads the answer to a
question.  Nothing here reads or prints: :class:`mille.frontends.plain.LineUi`
does.  Words work for the letters (``pick``, ``use 3``, ``hint``), in
English and in French (``piocher``, ``jouer 3``, ``conseil``), whatever
the language shown; an answer is ``y``/``yes`` or ``n``/``no``, and the
language's own words too (in French ``o``/``oui``, ``n``/``non``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.table import PICK, Discard, Move, Use
from ..engine.text import escape
from ..i18n import N_, _, pgettext

# each command's word, for those who type it out
WORDS = {
    "pick": "p",
    "use": "u",
    "discard": "d",
    "order": "o",
    "window": "w",
    "reprint": "r",
    "hint": "h",
    "tracker": "t",
    "log": "l",
    "save": "s",
    "quit": "q",
    "help": "?",
    # the French help's words (accepted in any language: none is English)
    "piocher": "p",
    "jouer": "u",
    "défausser": "d",
    "defausser": "d",
    "trier": "o",
    "montrer": "w",
    "remontrer": "r",
    "conseil": "h",
    "compteur": "t",
    "manche": "l",
    "sauver": "s",
    "quitter": "q",
    "aide": "?",
}
COMMANDS = ("o", "w", "r", "s", "q", "?", "e", "h", "t", "l")  # done by the line mode
UNKNOWN_MAX = 40  # the most of an unknown command that its message repeats

# the answers to a question, and what the line mode does there itself
ANSWERS = {
    "y": "y",
    "yes": "y",
    "n": "n",
    "no": "n",
    "s": "s",
    "h": "h",
    "hint": "h",
    "t": "t",
    "tracker": "t",
    "l": "l",
    "log": "l",
    "?": "?",
    "conseil": "h",
    "compteur": "t",
    "manche": "l",
}


@dataclass(frozen=True)
class Command:
    """A command the line mode does itself: its letter (one of COMMANDS)."""

    letter: str


@dataclass(frozen=True)
class Mistake:
    """A line that is no command: the line that says why."""

    text: str


def parse(text: str) -> Move | Command | Mistake | None:
    """What a line at ``Your move:`` asks for; None for an empty line.

    >>> parse("u 4 2")
    Use(slot=4, target=2)
    >>> parse("Discard P")
    Discard(slot=0)
    >>> parse("w")
    Command(letter='w')
    >>> parse("d 9")
    Mistake(text='no such slot: 9 (P or 0, 1-6)')
    """
    words = text.replace(",", " ").split()
    if not words:
        return None
    head = words[0].lower()
    head = WORDS.get(head, head)
    rest = words[1:]
    if len(head) > 1 and head[0] in "ud":  # u3, d4
        rest = [head[1:]] + rest
        head = head[0]
    if head == "p" and not rest:
        return PICK
    if head in ("u", "d"):
        if not rest:
            return Mistake(N_("which card? (u N or d N, N is P or 1-6)"))
        slot = _slot(rest[0])
        if slot is None:
            return Mistake(
                _("no such slot: {slot} (P or 0, 1-6)").format(slot=escape(rest[0])[:20])
            )
        if head == "d":
            if len(rest) > 1:
                return Mistake(N_("d takes a slot only"))
            return Discard(slot)
        if len(rest) > 2:
            return Mistake(N_("u takes a slot and a side"))
        if len(rest) == 2:
            target = _number(rest[1])
            if target is None:
                return Mistake(N_("no such opponent"))
            return Use(slot, target)
        return Use(slot)
    if rest or head not in COMMANDS:
        return Mistake(unknown(text))
    return Command(head)


def unknown(text: str) -> str:
    """A command that is none: one letter as the board says it
    (``unknown command: X``), more as typed (``unknown command: play 2``)."""
    text = " ".join(text.split())
    if len(text) == 1:
        return _("unknown command: {key}").format(key=escape(text).upper())  # the board's words
    shown = escape(text)
    if len(shown) > UNKNOWN_MAX:
        shown = shown[: UNKNOWN_MAX - 3] + "..."
    return _("unknown command: {key}").format(key=shown)


def answer(text: str) -> str:
    """An answer to a question: ``y``, ``n``, ``s`` (save first), ``h``,
    ``t``, ``l``, ``?``; ``""`` for a line that is none of them.

    >>> answer("Yes"), answer("n"), answer("oui")
    ('y', 'n', '')
    """
    said = text.lower()
    yes, no = yes_no_words()
    if said in yes:
        return "y"
    if said in no:
        return "n"
    return ANSWERS.get(said, "")


def yes_no_words() -> tuple[frozenset[str], frozenset[str]]:
    """The words (one letter ones among them) that answer yes and no in
    the language shown: ``y``, ``yes``, ``n``, ``no`` always, and the
    language's own (in French ``o``, ``oui``, ``n``, ``non``); a word
    that would be both is neither."""
    yes = {"y", "yes", *pgettext("the words that answer yes", "y yes").lower().split()}
    no = {"n", "no", *pgettext("the words that answer no", "n no").lower().split()}
    return frozenset(yes - no), frozenset(no - yes)


def yes_no_key(key: int) -> str:
    """A key at a yes/no question: ``y`` or ``n`` for a letter that says
    yes or no (``Y``, ``N``; in French ``O`` too), ``""`` otherwise."""
    if not 0 < key < 0x110000:
        return ""
    letter = chr(key).lower()
    yes, no = yes_no_words()
    if len(letter) == 1 and letter in yes:
        return "y"
    if len(letter) == 1 and letter in no:
        return "n"
    return ""


def _slot(text: str) -> int | None:
    text = text.lower()
    if text in ("p", "0"):
        return 0
    if len(text) == 1 and "1" <= text <= "6":
        return int(text)
    return None


def _number(text: str) -> int | None:
    """A side number as typed: ASCII digits only (``²`` is a digit to
    ``str.isdigit`` and not to ``int``)."""
    return int(text) if text.isascii() and text.isdecimal() and len(text) < 4 else None
