"""docs/save-format.md describes every field a save holds, and its example
is a real save."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from mille.engine.rules import find_rules
from mille.game.session import Session
from mille.storage.savefile import FORMAT, VERSION, dumps, loads, session_to_dict

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


V3 = Path(__file__).parent / "data" / "saves-v3"


def test_every_field_is_described() -> None:
    """Each key of a bsd, a classic team and a milebymile file has its row,
    and so has each key of the kept version-3 files' logs."""
    keys: set[str] = set()
    for rules in (
        find_rules("bsd"),
        find_rules("classic", players=4),
        find_rules("milebymile", players=3, karma=True),
    ):
        keys |= every_key(session_to_dict(Session.new(rules, seed=1)))
    offer_keys: set[str] = set()
    for path in sorted(V3.glob("*.json")):
        data = json.loads(path.read_text())
        keys |= every_key(data, skip=("memory", "offer"))
        offer_keys |= set(data["table"]["offer"] or ())
    missing = sorted(k for k in keys if f"| `{k}` |" not in DOC)
    assert not missing, f"undocumented save fields: {missing}"
    offer_row = DOC.split("| `offer` |")[1].split("\n")[0]  # its keys are shown inline
    assert offer_keys == {"side", "safety", "hazard"}
    assert all(f'"{k}":' in offer_row for k in offer_keys)


def test_every_event_field_is_described_in_the_log_section() -> None:
    """The log's section has a row for each key of an event, in the order
    the file writes them, and names every notice the loader accepts."""
    event = json.loads((V3 / "classic-6-targets.json").read_text())["log"][0]
    section = DOC.split("### The log")[1].split("###")[0]
    rows = re.findall(r"^\| `([a-z_]+)` \|", section, re.M)
    assert rows == list(event)
    for notice in (
        "discard pile reshuffled",
        "karma clash: both lose karma",
        "side N loses karma",
        "side N regains karma",
    ):
        assert f'`"{notice}"`' in section, notice


def test_the_computers_memories_are_named() -> None:
    for rules in (find_rules("bsd"), find_rules("classic", players=4)):
        memory = session_to_dict(Session.new(rules, seed=1))["seats"][1]["memory"]
        section = DOC.split("### Seats")[1].split("###")[0]
        assert all(f"`{key}`" in section for key in memory), sorted(memory)


def test_the_doc_names_the_format_and_version() -> None:
    assert f"`{FORMAT}`, version {VERSION}" in DOC
    assert "today 1, 2 and 3" in DOC and "## Version 2" in DOC and "## Version 1" in DOC
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
    assert [str(event.outcome.move) for event in session.log] == ["P", "DP", "P"]


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
