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


def heard(text: str, templates: Iterable[str] = ()) -> str:
    """``text``, English written elsewhere (the host's words, which the
    protocol carries as they are), in the language chosen: the message
    itself, or one of ``templates`` (``"{name} is taken"``) that it was
    made from with ``str.format``, translated with the same values; as it
    is if neither.

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
            return _translation.gettext(template).format(**match.groupdict())
    return _translation.gettext(text)


def wanted(code: str | None = None, environ: Mapping[str, str] = os.environ) -> list[str]:
    """The languages asked for, best first: ``code`` (``--lang``) or the
    first non-empty variable of ``ENVIRONMENT`` (a ``:``-separated list in
    ``LANGUAGE``); each without its encoding, ``fr_FR.UTF-8`` as
    ``fr_FR``, then ``fr``.

    >>> wanted(None, {"LANG": "fr_FR.UTF-8"})
    ['fr_FR', 'fr']
    >>> wanted(None, {"LANGUAGE": "", "LC_ALL": "C.UTF-8", "LANG": "fr_FR"})
    ['C']
    >>> wanted("de:fr", {})
    ['de', 'fr']
    """
    if code is None:
        code = next((environ[name] for name in ENVIRONMENT if environ.get(name)), "")
    found: list[str] = []
    for item in code.split(":"):
        name, _at, modifier = item.partition("@")
        name = name.partition(".")[0]
        tries = [f"{name}@{modifier}"] if modifier else []
        tries += [name, name.partition("_")[0]]
        for each in tries:
            if each and each not in found:
                found.append(each)
    return found


def catalog(code: str, where: str = LOCALE_DIR) -> str | None:
    """The catalog of language ``code`` (its ``.mo``, or its ``.po``), or
    None when there is none."""
    base = os.path.join(where, code, "LC_MESSAGES", DOMAIN)
    for suffix in (".mo", ".po"):
        if os.path.isfile(base + suffix):
            return base + suffix
    return None


def choose(code: str | None = None, environ: Mapping[str, str] = os.environ) -> str:
    """Choose the language (``code``: ``--lang``'s, else the environment's)
    and read its catalog; the code chosen, ``en`` for English (which reads
    nothing).  A language with no catalog is English."""
    global language
    use(None)
    for each in wanted(code, environ):
        if each in ENGLISH or each.startswith("en_"):
            break
        path = catalog(each)
        if path is not None:
            use(load(path))
            language = each
            break
    return language


def use(translation: Translations | None, code: str = "xx") -> None:
    """Show every message through ``translation`` from now on (None:
    English); the tests' way to a made-up language."""
    global _translation, language
    _translation = translation
    language = "en" if translation is None else code


def load(path: str) -> Translations:
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
            return gettext.GNUTranslations(io.BytesIO(write_mo(read_po(file.read()))))
    with open(mo, "rb") as file:
        return gettext.GNUTranslations(file)


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
