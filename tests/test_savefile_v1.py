"""Version-1 save files kept from mille 1.0 (tests/data/saves-v1) still load,
and play on."""

from __future__ import annotations

import json
import pathlib
import random

import pytest

from mille.engine import Phase
from mille.savefile import dumps, load_session

V1 = pathlib.Path(__file__).parent / "data" / "saves-v1"
FILES = sorted(V1.glob("*.json"))


def test_the_kept_files_are_version_1() -> None:
    assert len(FILES) == 5
    for path in FILES:
        data = json.loads(path.read_text())
        assert (data["format"], data["version"]) == ("bsd-mille-save", 1)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_version_1_file_loads_and_plays_on(path: pathlib.Path) -> None:
    session = load_session(str(path))
    session.state.validate()
    assert json.loads(dumps(session))["players"] == json.loads(path.read_text())["players"]
    driver = random.Random(path.stem)
    for _ in range(300):
        state = session.state
        if state.phase is Phase.HAND_OVER:
            session.next_hand()
        elif state.phase is Phase.EXTENSION:
            state.decide_extension(False)
        elif session.computer_to_move:
            session.computer_move()
        else:
            session.play(driver.choice(state.legal_moves()))
        session.state.validate()


def test_the_phases_kept() -> None:
    phases = {p.stem: json.loads(p.read_text())["phase"] for p in FILES}
    assert phases == {
        "extension": "extension", "hand-over": "hand over", "mid-hand": "playing",
        "new-game": "playing", "second-game": "playing",
    }
