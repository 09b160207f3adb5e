"""The one translation layer: every word a person reads goes through ``_``.

English is the source language and costs nothing: until a language other
than English is chosen, ``_`` returns its argument and nothing is read
(not the catalog, not the ``gettext`` module).  :func:`choose` picks the
language once, at start-up (``mille --lang CODE``, else the first
non-empty of ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``, as
Python's ``gettext`` reads them); ``C``, ``POSIX``, English or a language
with no catalog leave everything in English.

The catalogs are gettext's: ``mille/locale/LANG/LC_MESSAGES/mille.po``,
compiled to ``mille.mo`` by the package's build (``setup.py``, with
:func:`write_mo`); a ``.po`` with no ``.mo`` beside it, or newer than it
(a working copy), is compiled in memory.  ``docs/translating.md`` says how
to add a language.

Strings at a module's top level are marked with ``N_`` (for extraction)
and translated where they are shown, with ``_``: the language may be
chosen after the module is imported.  Moves, saves, the record and the
protocol carry no language: only what is shown is translated.

No import of the rest of mille: every layer may use it.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # no typing import at run time (start-up)
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Protocol

    class Translations(Protocol):
        def gettext(self, message: str, /) -> str: ...

        def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...

        def pgettext(self, context: str, message: str, /) -> str: ...

    Entry = tuple[str | None, str, str | None, list[str], bool]  # context, id, plural, strs, fuzzy


DOMAIN = "mille"
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")
ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")  # gettext's order
ENGLISH = ("", "C", "POSIX", "en")

_translation: Translations | None = None  # None: English, the messages as written
language = "en"  # the language chosen (a catalog's code)


def _(message: str) -> str:
    """``message`` in the language chosen ("" stays "": gettext's own
    ``""`` is the catalog's header)."""
    if _translation is None or not message:
        return message
    return _translation.gettext(message)


def N_(message: str) -> str:
    """Marks ``message`` for translation where it is written (a module's
    constant); ``_`` translates it where it is shown."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the count ``n`` (the language's plural
    rule; English: ``singular`` for 1, ``plural`` otherwise)."""
    if _translation is None:
        return singular if n == 1 else plural
    return _translation.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the language chosen, where ``context`` tells a
    translator which of a word's senses (or how short) is meant."""
    if _translation is None:
        return message
    return _translation.pgettext(context, message)


def when(stamp: float | None = None) -> str:
    """The local date and time ``stamp`` (seconds since the epoch; None:
    now) in the language chosen: in English as BSD shows it (``ctime``:
    ``Tue Dec  1 19:37:56 2026``); else as the catalog writes it, its day
    and month names its own (French: ``mar. 1 déc. 2026 19:37``), never
    the C library's locale."""
    import time

    if _translation is None:
        return time.ctime(stamp)
    moment = time.localtime(stamp)
    days = pgettext("the days, Monday first", "Mon Tue Wed Thu Fri Sat Sun").split()
    months = pgettext(
        "the months, January first", "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec"
    ).split()
    if len(days) != 7 or len(months) != 12:
        return time.ctime(stamp)
    return pgettext(
        "a date and time (ctime's order in English)",
        "{day} {month} {mday:2} {hour:02}:{minute:02}:{second:02} {year}",
    ).format(
        day=days[moment.tm_wday],
        month=months[moment.tm_mon - 1],
        mday=moment.tm_mday,
        year=moment.tm_year,
        hour=moment.tm_hour,
        minute=moment.tm_min,
        second=moment.tm_sec,
    )


ERRNO_TEXTS = {  # the system's words (glibc's) for the errors a person meets
    "ENOENT": N_("No such file or directory"),
    "EACCES": N_("Permission denied"),
    "EPERM": N_("Operation not permitted"),
    "EISDIR": N_("Is a directory"),
    "ENOTDIR": N_("Not a directory"),
    "ENOSPC": N_("No space left on device"),
    "EDQUOT": N_("Disk quota exceeded"),
    "EROFS": N_("Read-only file system"),
    "EEXIST": N_("File exists"),
    "ENOTEMPTY": N_("Directory not empty"),
    "ENAMETOOLONG": N_("File name too long"),
    "ELOOP": N_("Too many levels of symbolic links"),
    "EIO": N_("Input/output error"),
    "EBUSY": N_("Device or resource busy"),
    "EMFILE": N_("Too many open files"),
    "EXDEV": N_("Invalid cross-device link"),
    "ECONNREFUSED": N_("Connection refused"),
    "ECONNRESET": N_("Connection reset by peer"),
    "EADDRINUSE": N_("Address already in use"),
    "EADDRNOTAVAIL": N_("Cannot assign requested address"),
    "ETIMEDOUT": N_("Connection timed out"),
    "EHOSTUNREACH": N_("No route to host"),
    "ENETUNREACH": N_("Network is unreachable"),
}


def oserror(exc: BaseException) -> str:
    """The reason of ``exc`` for a person: in English the system's
    (``strerror``, as it is); else the catalog's words for its ``errno``
    (:data:`ERRNO_TEXTS`), the system's for one it has not.

    >>> oserror(FileNotFoundError(2, "No such file or directory"))
    'No such file or directory'
    """
    text = getattr(exc, "strerror", None) or str(exc)
    if _translation is None:
        return text
    words = getattr(exc, "words", None)  # this program's own reason (storage.checks.Worded)
    if words is not None:
        template, values = words
        return str(_(template).format(**values))
    import errno

    code = getattr(exc, "errno", None)
    name = errno.errorcode.get(code, "") if isinstance(code, int) else ""
    return _(ERRNO_TEXTS[name]) if name in ERRNO_TEXTS else _(text)


def heard(text: str, templates: Iterable[str] = (), inner: Iterable[str] = ()) -> str:
    """``text``, English made elsewhere in this program (an exception's
    words: why a save or a name is refused), in the language chosen: the message
    itself, or one of ``templates`` (``"{name} is taken"``) that it was
    made from with ``str.format``, translated with the same values (each
    value itself :func:`heard` with the templates ``inner``, when given:
    ``not a mille save file (no format name)``); as it is if neither.

    >>> heard("'Ann' is taken", ["{name} is taken"])
    "'Ann' is taken"
    """
    if _translation is None:
        return text
    import re
    import string

    for template in templates:
        pattern, seen = "", set()
        for literal, field, _spec, _conv in string.Formatter().parse(template):
            pattern += re.escape(literal)
            if field is not None:
                pattern += f"(?P={field})" if field in seen else f"(?P<{field}>.+?)"
                seen.add(field)
        match = re.fullmatch(pattern, text, re.DOTALL)
        if match:
            values = match.groupdict()
            if inner:
                values = {key: heard(value, inner) for key, value in values.items()}
            return _translation.gettext(template).format(**values)
    return _translation.gettext(text)


def _word(text: str) -> bool:
    return not text or (text.isascii() and text.replace("-", "").replace("_", "").isalnum())


def parts(code: str) -> tuple[str, str, str] | None:
    """A language code's language, territory and modifier (``fr_FR.UTF-8@euro``:
    ``fr``, ``FR``, ``euro``; ``-`` will do for ``_``), None when ``code``
    is not a language's name (a path, a word with other characters).

    >>> parts("fr_FR.UTF-8@euro"), parts("FR"), parts("../fr"), parts("/tmp")
    (('fr', 'FR', 'euro'), ('FR', '', ''), None, None)
    """
    head, _at, modifier = code.partition("@")
    head, _dot, encoding = head.partition(".")
    lang, _sep, land = head.replace("-", "_").partition("_")
    ok = (
        0 < len(lang) <= 8
        and lang.isascii()
        and lang.isalpha()
        and len(land) <= 8
        and (not land or (land.isascii() and land.isalnum()))
        and all(_word(each) for each in (encoding, modifier))
        and bool(encoding or not _dot)
        and bool(modifier or not _at)
    )
    return (lang, land, modifier) if ok else None


def wanted(code: str | None = None, environ: Mapping[str, str] = os.environ) -> list[str]:
    """The languages asked for, best first: ``code`` (``--lang``) or the
    first non-empty variable of ``ENVIRONMENT`` (a ``:``-separated list in
    ``LANGUAGE``); each without its encoding, ``fr_FR.UTF-8`` as
    ``fr_FR``, then ``fr``, in gettext's case (``FR``, ``fr-fr``: ``fr``,
    ``fr_FR``).  A language code is a name, never a path: one that is not
    (``/some/dir``, ``../x``) is left out.

    >>> wanted(None, {"LANG": "fr_FR.UTF-8"})
    ['fr_FR', 'fr']
    >>> wanted(None, {"LANGUAGE": "", "LC_ALL": "C.UTF-8", "LANG": "fr_FR"})
    ['C']
    >>> wanted("de:fr", {}), wanted("FR-fr", {}), wanted("../fr", {})
    (['de', 'fr'], ['fr_FR', 'fr'], [])
    """
    if code is None:
        code = next((environ[name] for name in ENVIRONMENT if environ.get(name)), "")
    found: list[str] = []
    for item in code.split(":"):
        found_parts = parts(item)
        if found_parts is None:
            continue
        lang, land, modifier = found_parts
        name = lang if lang in ("C", "POSIX") else lang.lower()
        full = f"{name}_{land.upper()}" if land else name
        tries = [f"{full}@{modifier}"] if modifier else []
        for each in [*tries, full, name]:
            if each not in found:
                found.append(each)
    return found


def catalog(code: str, where: str = LOCALE_DIR) -> str | None:
    """The catalog of language ``code`` (its ``.mo``, or its ``.po``), or
    None when there is none (or ``code`` is not a language's name)."""
    if parts(code) is None:
        return None
    base = os.path.join(where, code, "LC_MESSAGES", DOMAIN)
    for suffix in (".mo", ".po"):
        if os.path.isfile(base + suffix):
            return base + suffix
    return None


said: str | None = None  # what choose() has to say about --lang (one line), or None


def choose(code: str | None = None, environ: Mapping[str, str] = os.environ) -> str:
    """Choose the language (``code``: ``--lang``'s, else the environment's)
    and read its catalog; the code chosen, ``en`` for English (which reads
    nothing).  A language with no catalog, or a catalog that cannot be
    read, is English; :data:`said` is then the one line to show (for
    ``--lang``'s language, or a catalog that cannot be read; the
    environment's language with no catalog says nothing)."""
    global language, said
    use(None)
    said = None
    asked = wanted(code, environ)
    for each in asked:
        if each in ENGLISH or each.startswith("en_"):
            return language
        path = catalog(each)
        if path is None:
            continue
        try:
            translation = load(path, each)
        except Exception as exc:  # noqa: BLE001 - any damage: English, one line
            said = f"mille: the catalog {path} cannot be read ({exc}); playing in English"
            return language
        use(translation, each)
        return language
    if code:
        said = f"mille: no translation for {code!r}; playing in English"
    return language


def use(translation: Translations | None, code: str = "xx") -> None:
    """Show every message through ``translation`` from now on (None:
    English); the tests' way to a made-up language."""
    global _translation, language
    _translation = translation
    language = "en" if translation is None else code


def load(path: str, code: str = "") -> Translations:
    """The catalog at ``path``: its ``.mo``, unless the ``.po`` beside it is
    newer (or the ``.mo`` is missing): then the ``.po``, compiled here."""
    import gettext
    import io

    po = os.path.splitext(path)[0] + ".po"
    mo = os.path.splitext(path)[0] + ".mo"
    if os.path.isfile(po) and (
        not os.path.isfile(mo) or os.path.getmtime(po) > os.path.getmtime(mo)
    ):
        with open(po, encoding="utf-8") as file:
            return Checked(
                gettext.GNUTranslations(io.BytesIO(write_mo(read_po(file.read())))), code
            )
    with open(mo, "rb") as file:
        return Checked(gettext.GNUTranslations(file), code)


PERCENT = r"%(?:\([A-Za-z_]+\))?[sdr]"


def fields(text: str) -> set[str] | None:
    """The places of a ``str.format`` or ``%`` template (``{name}``,
    ``%(prog)s``), None when its braces are not a template's.

    >>> sorted(fields("{name} has {n:d} cards, %s") or ()), fields("a } b")
    (['%s', 'n', 'name'], None)
    """
    import re
    import string

    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError:
        return None
    names = {re.split(r"[.\[]", field)[0] for _l, field, _s, _c in parsed if field is not None}
    return names | set(re.findall(PERCENT, text))


ELIDING = {"fr": ("de", "que")}  # the words that elide before a vowel: d'Anne, qu'Élodie
VOWELS = "aeiouyæœ"


def elides(name: str) -> bool:
    """Whether ``name`` starts with a vowel (accented or not; a ``y``
    before a consonant), as French elides ``de`` before it: ``h`` does not
    (a mute h cannot be told from an aspirated one by its letters).

    >>> [elides(name) for name in ("Anne", "Élodie", "Ordi 2", "Yves", "Yann", "Hugo", "Bob")]
    [True, True, True, True, False, False, False]
    """
    import unicodedata

    letters = unicodedata.normalize("NFD", name.lower())
    letters = "".join(ch for ch in letters if not unicodedata.combining(ch))
    if not letters or letters[0] not in VOWELS:
        return False
    return letters[0] != "y" or (len(letters) > 1 and letters[1] not in VOWELS)


def de(name: str) -> str:
    """``de {name}`` in French, elided before a vowel: ``d'Anne``, ``de Bob``.

    >>> de("Anne"), de("Bob"), de("Élodie")
    ("d'Anne", 'de Bob', "d'Élodie")
    """
    return f"d'{name}" if elides(name) else f"de {name}"


class Elided(str):
    """A translated template whose ``format`` elides the language's words
    (``de``, ``que``) written just before a place (``de {name}``) where the
    value starts with a vowel: ``Au tour d'Anne.``."""

    words: tuple[str, ...] = ()

    def format(self, /, *args: object, **kwargs: object) -> str:
        import re

        if not self.words:
            return str.format(self, *args, **kwargs)
        pattern = r"\b(" + "|".join(self.words) + r") \{([A-Za-z_][A-Za-z0-9_]*)\}"

        def elide(match: re.Match[str]) -> str:
            value = kwargs.get(match[2])
            if isinstance(value, str) and elides(value):
                return f"{match[1][:-1]}'{{{match[2]}}}"
            return match[0]

        return str.format(re.sub(pattern, elide, self, flags=re.IGNORECASE), *args, **kwargs)


class Checked:
    """A catalog whose every translation has no place its message lacks:
    one that has (``{nom}`` for ``{name}``, a brace unclosed) is the
    English message, for that message alone.  In a language that elides
    (:data:`ELIDING`), its templates elide (:class:`Elided`)."""

    def __init__(self, inner: Translations, code: str = "") -> None:
        self.inner = inner
        self.seen: dict[tuple[str, ...], str] = {}
        words = ELIDING.get(code.partition("_")[0].partition("@")[0], ())
        self.kind = type("Elided", (Elided,), {"words": words}) if words else str

    def _fit(self, key: tuple[str, ...], done: str, english: str, *sources: str) -> str:
        if done == english:
            return done
        if key not in self.seen:
            have = fields(done)
            allowed: set[str] = set()
            for source in sources:
                allowed |= fields(source) or set()
            fit = done if have is not None and have <= allowed else english
            self.seen[key] = self.kind(fit) if "{" in fit else fit
        return self.seen[key]

    def gettext(self, message: str, /) -> str:
        return self._fit((message,), self.inner.gettext(message), message, message)

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        english = singular if n == 1 else plural
        done = self.inner.ngettext(singular, plural, n)
        return self._fit((singular, plural, done), done, english, singular, plural)

    def pgettext(self, context: str, message: str, /) -> str:
        done = self.inner.pgettext(context, message)
        return self._fit((context, message), done, message, message)


# ----- the catalogs' formats: .po read, .mo written (the build uses them) ------


def _unquote(text: str) -> str:
    """A ``.po`` string's content (``"..."``), its escapes read."""
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise ValueError(f"not a quoted string: {text[:40]}")
    out: list[str] = []
    chars = iter(text[1:-1])
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}
    for ch in chars:
        if ch == "\\":
            nxt = next(chars, "")
            out.append(escapes.get(nxt, "\\" + nxt))
        else:
            out.append(ch)
    return "".join(out)


def read_po(text: str) -> list[Entry]:
    """The entries of a ``.po`` file: (msgctxt, msgid, msgid_plural,
    msgstr forms, fuzzy), the header's (msgid ``""``) first.  Obsolete
    entries (``#~``) are left out."""
    entries: list[Entry] = []
    fields: dict[str, str] = {}
    fuzzy = False
    key = ""

    def flush() -> None:
        nonlocal fuzzy
        if "msgid" in fields:
            forms = sorted(
                (int(name[7:-1]), value)
                for name, value in fields.items()
                if name.startswith("msgstr[")
            )
            strs = [value for _n, value in forms] if forms else [fields.get("msgstr", "")]
            entries.append(
                (fields.get("msgctxt"), fields["msgid"], fields.get("msgid_plural"), strs, fuzzy)
            )
        fields.clear()
        fuzzy = False

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        try:
            if not line:
                continue
            if line.startswith("#"):
                if key.startswith("msgstr"):
                    flush()
                    key = ""
                if line.startswith("#,") and "fuzzy" in line:
                    fuzzy = True
                continue
            if line.startswith('"'):
                fields[key] += _unquote(line)
                continue
            name, _space, rest = line.partition(" ")
            if name in ("msgctxt", "msgid") and key.startswith("msgstr"):
                flush()
            key = name
            fields[key] = _unquote(rest)
        except (ValueError, KeyError) as exc:
            raise ValueError(f"line {number}: {exc}") from None
    flush()
    return entries


def write_mo(entries: Iterable[Entry]) -> bytes:
    """A GNU ``.mo`` file of ``entries`` (the fuzzy and untranslated ones
    left out, the header kept), as ``msgfmt`` writes it."""
    import struct

    pairs: dict[bytes, bytes] = {}
    for context, msgid, plural, strs, fuzzy in entries:
        if (fuzzy and msgid) or not any(strs):
            continue
        key = msgid if plural is None else f"{msgid}\0{plural}"
        if context is not None:
            key = f"{context}\x04{key}"
        pairs[key.encode("utf-8")] = "\0".join(strs).encode("utf-8")
    keys = sorted(pairs)
    ids = strs_ = b""
    offsets: list[tuple[int, int, int, int]] = []
    for name in keys:
        offsets.append((len(ids), len(name), len(strs_), len(pairs[name])))
        ids += name + b"\0"
        strs_ += pairs[name] + b"\0"
    count = len(keys)
    start = 7 * 4 + 16 * count  # the header, then both tables
    table_ids: list[int] = []
    table_strs: list[int] = []
    for id_at, id_len, str_at, str_len in offsets:
        table_ids += [id_len, start + id_at]
        table_strs += [str_len, start + len(ids) + str_at]
    header = struct.pack("Iiiiiii", 0x950412DE, 0, count, 7 * 4, 7 * 4 + count * 8, 0, 0)
    return (
        header
        + struct.pack(f"{len(table_ids)}i", *table_ids)
        + struct.pack(f"{len(table_strs)}i", *table_strs)
        + ids
        + strs_
    )
