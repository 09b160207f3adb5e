"""Version-2 save files kept as test data (tests/data/saves-v2) load, write
back byte for byte, and play on to the end of their hand."""

from __future__ import annotations

import json
import pathlib
import random

import pytest

from mille.savefile import dumps, load_session
from mille.table import COUP, EXTENSION, OVER, PLAYING

from test_savefile import step

V2 = pathlib.Path(__file__).parent / "data" / "saves-v2"
FILES = sorted(V2.glob("*.json"))


def test_the_kept_files() -> None:
    kept = {p.stem: json.loads(p.read_text()) for p in FILES}
    assert {(d["version"], d["rules"]["name"], d["rules"]["players"], d["table"]["phase"])
            for d in kept.values()} == {
        (2, "bsd", 2, PLAYING), (2, "classic", 2, EXTENSION), (2, "classic", 3, COUP),
        (2, "classic", 4, PLAYING), (2, "classic", 6, OVER), (2, "milebymile", 5, PLAYING),
    }


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_kept_file_loads_writes_back_and_plays_on(path: pathlib.Path) -> None:
    session = load_session(str(path))
    assert dumps(session) == path.read_text()
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
