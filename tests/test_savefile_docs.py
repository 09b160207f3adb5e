"""docs/save-format.md describes every field a save holds, and its example
is a real save."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from mille.rules import find_rules
from mille.savefile import FORMAT, VERSION, dumps, loads, session_to_dict
from mille.session import Session

DOC = (Path(__file__).parent.parent / "docs" / "save-format.md").read_text()
EXAMPLE = DOC.split("```json\n")[1].split("```")[0]


def every_key(value: object, skip: tuple[str, ...] = ("memory",)) -> set[str]:
    keys: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            keys.add(key)
            if key not in skip:
                keys |= every_key(item, skip)
    elif isinstance(value, list):
        for item in value:
            keys |= every_key(item, skip)
    return keys


def test_every_field_is_described() -> None:
    """Each key of a bsd, a classic team and a milebymile file has its row."""
    keys: set[str] = set()
    for rules in (find_rules("bsd"), find_rules("classic", players=4),
                  find_rules("milebymile", players=3, karma=True)):
        keys |= every_key(session_to_dict(Session.new(rules, seed=1)))
    missing = sorted(k for k in keys if f"| `{k}` |" not in DOC)
    assert not missing, f"undocumented save fields: {missing}"


def test_the_computers_memories_are_named() -> None:
    for rules in (find_rules("bsd"), find_rules("classic", players=4)):
        memory = session_to_dict(Session.new(rules, seed=1))["seats"][1]["memory"]
        section = DOC.split("### Seats")[1].split("###")[0]
        assert all(f"`{key}`" in section for key in memory), sorted(memory)


def test_the_doc_names_the_format_and_version() -> None:
    assert f"`{FORMAT}`, version {VERSION}" in DOC
    assert f'"format": "{FORMAT}"' in EXAMPLE and f'"version": {VERSION}' in EXAMPLE


def test_the_example_is_a_real_save() -> None:
    """With real generator states where it shows ``[...]``, the example
    loads, and is written back byte for byte: it is canonical."""
    words = list(random.Random(0).getstate()[1])
    text = EXAMPLE.replace('"state": [...]', f'"state": {json.dumps(words)}')
    assert text.count(json.dumps(words)) == 2
    session = loads(text)
    assert dumps(session) == text
    assert session.human_to_move and session.rules.name == "bsd"


def test_the_refusals_quoted_are_the_loaders() -> None:
    """Every message the Reading table quotes is one the tests see."""
    from test_savefile import CORPUS

    table = DOC.split("## Reading")[1].split("## Fields")[0]
    quoted = {q for q in re.findall(r"`([^`]+: [^`]+)`", table) if not q.endswith("...")}
    seen = {message for _, _, message in CORPUS} | {
        "table.asked: a computer never leaves a question pending",  # test_savefile's own test
        "impossible game: a safety in the discard pile (Extra Tank)",  # the safety varies
    }
    assert len(quoted) >= 12
    assert quoted <= seen, sorted(quoted - seen)
