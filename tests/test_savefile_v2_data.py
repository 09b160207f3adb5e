"""Version-2 save files kept as test data (tests/data/saves-v2) load, are
written as version 3 (the same game, an empty log) that loads back equal and
writes back byte for byte, and play on to the end of their hand."""

from __future__ import annotations

import json
import pathlib
import random

import pytest
from test_savefile import fingerprint, step

from mille.engine.table import COUP, EXTENSION, OVER, PLAYING
from mille.storage.savefile import dumps, load_session, loads

V2 = pathlib.Path(__file__).parent / "data" / "saves-v2"
FILES = sorted(V2.glob("*.json"))


def test_the_kept_files() -> None:
    kept = {p.stem: json.loads(p.read_text()) for p in FILES}
    assert {
        (d["version"], d["rules"]["name"], d["rules"]["players"], d["table"]["phase"])
        for d in kept.values()
    } == {
        (2, "bsd", 2, PLAYING),
        (2, "classic", 2, EXTENSION),
        (2, "classic", 3, COUP),
        (2, "classic", 4, PLAYING),
        (2, "classic", 6, OVER),
        (2, "milebymile", 5, PLAYING),
    }
    assert not any("log" in d for d in kept.values())


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_kept_file_is_written_as_version_3(path: pathlib.Path) -> None:
    """The same text but for the version number, and an empty log at the
    end: everything version 2 kept is kept, in the same words."""
    kept = path.read_text()
    old = json.loads(kept)
    session = load_session(str(path))
    assert session.log == []
    text = dumps(session)
    assert (
        text
        == kept.replace('\n  "version": 2,\n', '\n  "version": 3,\n', 1).removesuffix("\n}\n")
        + ',\n  "log": []\n}\n'
    )
    new = json.loads(text)
    assert new["version"] == 3 and new["log"] == []
    assert list(new) == list(old) + ["log"]
    assert {k: v for k, v in new.items() if k not in ("version", "log")} == {
        k: v for k, v in old.items() if k != "version"
    }
    again = loads(text)
    assert fingerprint(again) == fingerprint(session) and again.log == []
    assert dumps(again) == text


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_kept_file_loads_and_plays_on(path: pathlib.Path) -> None:
    session = load_session(str(path))
    session.table.validate(strict=True)
    driver = random.Random(path.stem)
    hands = 0
    for _ in range(5000):
        if step(session, driver) == "new hand":
            hands += 1
            if hands == 2:
                break
        session.table.validate()
    assert hands == 2, "the game played on through the next hand"
