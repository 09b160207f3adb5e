"""The catalogs' tools: extract the messages, update a language, check it,
and the pseudo-language the tests show every screen in.

    python tools/catalogs.py extract         # mille/locale/mille.pot from the sources
    python tools/catalogs.py update fr       # fr's .po: new messages added, gone ones dropped
    python tools/catalogs.py check           # every catalog complete, placeholders matching

The messages are the string literals given to ``_``, ``N_``, ``ngettext``
and ``pgettext`` in ``mille/`` (read with ``ast``: the standard library's
own, no Babel needed; ``pybabel extract`` with the same keywords finds the
same).  ``docs/translating.md`` is the guide.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mille import i18n  # noqa: E402
from mille.engine.text import width  # noqa: E402

PACKAGE = ROOT / "mille"
LOCALE = PACKAGE / "locale"
TEMPLATE = LOCALE / "mille.pot"
HEADER = (
    "Project-Id-Version: mille\n"
    "MIME-Version: 1.0\n"
    "Content-Type: text/plain; charset=UTF-8\n"
    "Content-Transfer-Encoding: 8bit\n"
)
PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(?:![rsa])?(?::[^{}]*)?\}|%[sd%]")

Key = tuple[str | None, str, str | None]  # context, msgid, plural


def extract(root: Path = PACKAGE) -> dict[Key, list[str]]:
    """Every message of the sources, with where it is (``path:line``), in
    the order found."""
    found: dict[Key, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = path.relative_to(ROOT).as_posix()
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            args = [
                arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None
                for arg in node.args
            ]
            name = node.func.id
            key: Key | None = None
            if name in ("_", "N_") and len(args) == 1 and args[0] is not None:
                key = (None, args[0], None)
            elif name == "ngettext" and len(args) == 3 and args[0] and args[1]:
                key = (None, args[0], args[1])
            elif name == "pgettext" and len(args) == 2 and args[0] and args[1]:
                key = (args[0], args[1], None)
            if key is not None and key[1]:
                found.setdefault(key, []).append(f"{where}:{node.lineno}")
    # the cards' short names: pgettext(context, a card's English name), every card
    from mille.engine import describe

    for context in describe.CARD_CONTEXTS:
        for name in describe.CARD_WORDS:
            found.setdefault((context, name, None), []).append("mille/engine/describe.py")
    return found


def quote(text: str) -> str:
    """A ``.po`` string, split after each newline."""

    def one(part: str) -> str:
        escaped = part.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
        return '"' + escaped.replace("\n", "\\n") + '"'

    parts = text.splitlines(keepends=True)
    if len(parts) <= 1:
        return one(text)
    return '""\n' + "\n".join(one(part) for part in parts)


def format_po(entries: list[tuple[Key, list[str], list[str]]], header: str, flags: str = "") -> str:
    """A ``.po`` file: the header, then each (key, places, translations)."""
    out = ['msgid ""', "msgstr " + quote(header), ""]
    for (context, msgid, plural), places, strs in entries:
        out += [f"#: {' '.join(places[:4])}"]
        if PLACEHOLDER.search(msgid) and "{" in msgid:
            out.append("#, python-brace-format")
        if context is not None:
            out.append("msgctxt " + quote(context))
        out.append("msgid " + quote(msgid))
        if plural is None:
            out.append("msgstr " + quote(strs[0] if strs else ""))
        else:
            out.append("msgid_plural " + quote(plural))
            forms = strs or ["", ""]
            out += [f"msgstr[{n}] " + quote(form) for n, form in enumerate(forms)]
        out.append("")
    return "\n".join(out)


def read(path: Path) -> tuple[str, dict[Key, list[str]]]:
    """A ``.po``'s header and translations by key (fuzzy ones as untranslated)."""
    header = ""
    found: dict[Key, list[str]] = {}
    for context, msgid, plural, strs, fuzzy in i18n.read_po(path.read_text(encoding="utf-8")):
        if not msgid:
            header = strs[0]
        else:
            found[(context, msgid, plural)] = [] if fuzzy else strs
    return header, found


def write_template() -> dict[Key, list[str]]:
    messages = extract()
    TEMPLATE.parent.mkdir(parents=True, exist_ok=True)
    TEMPLATE.write_text(
        format_po([(key, places, []) for key, places in messages.items()], HEADER),
        encoding="utf-8",
    )
    return messages


def update(code: str) -> Path:
    """The language's ``.po`` with the template's messages, in its order,
    the translations kept (a new one empty)."""
    messages = extract()
    path = LOCALE / code / "LC_MESSAGES" / "mille.po"
    header, done = read(path) if path.is_file() else (HEADER, {})
    path.parent.mkdir(parents=True, exist_ok=True)
    entries = [(key, places, done.get(key, [])) for key, places in messages.items()]
    path.write_text(format_po(entries, header), encoding="utf-8")
    return path


def placeholders(text: str) -> list[str]:
    """The places of ``text``, each without its format spec (a translation
    may pad a number otherwise: ``{mday:2}`` as ``{mday}``).

    >>> placeholders("{mday:2} {name!r} %s")
    ['%s', '{mday}', '{name!r}']
    """
    return sorted(re.sub(r":[^{}]*\}$", "}", place) for place in PLACEHOLDER.findall(text))


def problems(path: Path, messages: dict[Key, list[str]] | None = None) -> list[str]:
    """What is wrong with a catalog: a message of the sources missing or
    untranslated, one the sources no longer have, a placeholder changed."""
    messages = extract() if messages is None else messages
    _header, done = read(path)
    found: list[str] = []
    for key in messages:
        strs = done.get(key)
        if not strs or not all(strs):
            found.append(f"untranslated: {key[1]!r}")
            continue
        english = placeholders(key[1])
        for form in strs:
            if placeholders(form) != english and not (
                key[2] is not None and placeholders(form) == placeholders(key[2])
            ):
                if key[2] is not None and english != placeholders(key[2]):
                    continue  # "one card" / "{n} cards": either set will do
                found.append(f"placeholders of {key[1]!r}: {form!r}")
        if "\n" in key[1] and max(map(width, key[1].split("\n"))) < 80:
            for form in strs:  # a screen (the help): it fits 80 columns, as the English
                found += [
                    f"longer than 79 columns: {line!r}"
                    for line in form.split("\n")
                    if width(line) > 79
                ]
    if path.parent.parent.name in TYPOGRAPHY:
        for key in messages:
            found += [problem for form in done.get(key, []) for problem in typography(form)]
    found += [f"not in the sources: {key[1]!r}" for key in done if key not in messages]
    return found


NO_BREAK = {":": "\u00a0", ";": "\u00a0\u202f", "?": "\u00a0\u202f", "!": "\u00a0\u202f"}
TYPOGRAPHY = {"fr"}  # the languages whose catalogs follow French typography


def typography(text: str) -> list[str]:
    """What French typography finds wrong in ``text``: ``; : ? !`` without
    a no-break space before (U+00A0; U+202F will do before ``; ? !``),
    ``« »`` without one inside.  A mark alone at the start of a line or
    after two spaces is a key (``? aide``); ``12:30``, ``https://``, ``[:PORT]``,
    ``?!``, IPv6's ``::``, BSD's ``>>:``, ``{hour}:{minute}`` and the placeholders' own
    marks (``{n:d}``) are no punctuation.

    >>> typography("Partie\u00a0? (o/n)\u00a0: oui"), typography("x: y")
    ([], ["no no-break space before ':': 'x: y'"])
    """
    plain = re.sub(r">>:[^:\n]*:", "X", PLACEHOLDER.sub("0", text))  # BSD's prompt
    found: list[str] = []
    for at, mark in enumerate(plain):
        before = plain[at - 1] if at else "\n"
        after = plain[at + 1 : at + 3]
        if mark in "«" and after[:1] not in "\u00a0\u202f":
            found.append(f"no no-break space inside « »: {text!r}")
        if mark in "»" and before not in "\u00a0\u202f":
            found.append(f"no no-break space inside « »: {text!r}")
        if mark not in NO_BREAK or before in NO_BREAK[mark] or before in "\n?!>":
            continue
        if mark == ":" and (
            after[:2] == "//"
            or before in "[:"
            or after[:1] == ":"
            or (before.isdigit() and after[:1].isdigit())
        ):
            continue
        if before == " " and (at < 2 or plain[at - 2] in " \n"):
            continue  # a key: "  ? aide"
        what = (
            "a space before {!r} is not a no-break space"
            if before == " "
            else ("no no-break space before {!r}")
        )
        found.append(what.format(mark) + f": {text!r}")
    return list(dict.fromkeys(found))


# ----- the pseudo-language --------------------------------------------------------

ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçđéƒĝĥíĵķĺɱñóƥʠŕšťúʋŵхýžÁßÇĐÉƑĜĤÍĴĶĹϺÑÓƤǪŘŠŤÚƲŴХÝŽ",
)


def pseudo(text: str) -> str:
    """``text`` in the pseudo-language: every letter accented, about 40%
    longer, in brackets, the placeholders as they are (a line at a time)."""

    def line(part: str) -> str:
        if not part.strip():
            return part
        pieces = PLACEHOLDER.split(part)
        kept = PLACEHOLDER.findall(part)
        out = pieces[0].translate(ACCENTED)
        for hold, piece in zip(kept, pieces[1:]):
            out += hold + piece.translate(ACCENTED)
        grow = max(1, (len(part) * 2) // 5 - 2)
        lead = len(out) - len(out.lstrip())
        return out[:lead] + "[" + out[lead:] + "~" * grow + "]"

    return "\n".join(line(part) for part in text.split("\n"))


class Pseudo:
    """The pseudo-language as a catalog (``i18n.use(Pseudo())``)."""

    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return pseudo(singular if n == 1 else plural)

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message)


def main(argv: list[str]) -> int:
    if argv[:1] == ["extract"]:
        print(f"{len(write_template())} messages in {TEMPLATE.relative_to(ROOT)}")
        return 0
    if argv[:1] == ["update"] and len(argv) == 2:
        print(update(argv[1]).relative_to(ROOT))
        return 0
    if argv[:1] == ["check"]:
        messages = extract()
        bad = 0
        for path in sorted(LOCALE.glob("*/LC_MESSAGES/mille.po")):
            found = problems(path, messages)
            bad += len(found)
            for problem in found:
                print(f"{path.relative_to(ROOT)}: {problem}")
        return 1 if bad else 0
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
