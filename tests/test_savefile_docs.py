"""docs/save-format.md describes every field a save holds."""

from __future__ import annotations

from pathlib import Path

from mille.savefile import FORMAT, VERSION, dumps, session_to_dict
from mille.session import Session

DOC = (Path(__file__).parent.parent / "docs" / "save-format.md").read_text()


def test_every_field_is_described() -> None:
    data = session_to_dict(Session.new(1))
    keys = set(data) | set(data["players"][0]) | set(data["rng"]["deal"])
    missing = sorted(k for k in keys if f"| `{k}` |" not in DOC)
    assert not missing, f"undocumented save fields: {missing}"
    assert all(f'"{k}": generator' in DOC for k in data["rng"])


def test_the_doc_names_the_format_and_version() -> None:
    assert f"`{FORMAT}`, version {VERSION}" in DOC
    assert f'"format": "{FORMAT}"' in DOC and f'"version": {VERSION}' in DOC


def test_the_example_has_the_files_shape() -> None:
    """The example's lines (less the cut ones) are lines a real save has."""
    real = dumps(Session.new(1)).splitlines()
    shapes = {line.split(":")[0] for line in real}
    example = DOC.split("```json\n")[1].split("```")[0].splitlines()
    for line in example:
        assert line.split(":")[0] in shapes, line
