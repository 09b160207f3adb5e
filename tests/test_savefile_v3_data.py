"""Version-3 save files kept as test data (tests/data/saves-v3) load, write
back byte for byte, show the moves since your last turn (their log), and
play on to the end of their hand."""

from __future__ import annotations

import json
import pathlib
import random

import pytest
from test_savefile import EVENT_KEYS, step

from mille.engine.cards import CARD_NAMES
from mille.engine.describe import describe, recent
from mille.engine.table import COUP, PLAYING, Pick, Use
from mille.storage.savefile import dumps, load_session, loads

V3 = pathlib.Path(__file__).parent / "data" / "saves-v3"
FILES = sorted(V3.glob("*.json"))

# each file's log: (seat, move) for every event, as the file has it
LOGS = {
    "bsd-mid-hand": [(1, "P"), (1, "DP")],
    "classic-4-teams": [(1, "P"), (1, "D3"), (2, "P"), (2, "U3"), (3, "P"), (3, "U2")],
    "classic-6-targets": [(1, "P"), (1, "U3>3"), (5, "y"), (5, "P"), (5, "U6>2")],
    "milebymile-3-karma": [(1, "P"), (1, "U5>3"), (2, "y"), (2, "P"), (2, "D4")],
    "classic-4-coup-fourre": [(1, "P"), (1, "U1")],
}


def test_the_kept_files() -> None:
    kept = {p.stem: json.loads(p.read_text()) for p in FILES}
    assert {
        (name, d["version"], d["rules"]["name"], d["rules"]["players"], d["table"]["phase"])
        for name, d in kept.items()
    } == {
        ("bsd-mid-hand", 3, "bsd", 2, PLAYING),
        ("classic-4-teams", 3, "classic", 4, PLAYING),
        ("classic-6-targets", 3, "classic", 6, PLAYING),
        ("milebymile-3-karma", 3, "milebymile", 3, PLAYING),
        ("classic-4-coup-fourre", 3, "classic", 4, COUP),
    }
    assert {name: [(e["seat"], e["move"]) for e in d["log"]] for name, d in kept.items()} == LOGS
    assert all(list(e) == list(EVENT_KEYS) for d in kept.values() for e in d["log"])


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_kept_file_loads_and_writes_back_byte_for_byte(path: pathlib.Path) -> None:
    text = path.read_text()
    session = load_session(str(path))
    assert dumps(session) == text
    session.table.validate(strict=True)
    assert session.human_to_move
    again = loads(text)
    assert again.log == session.log and dumps(again) == text


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_kept_file_shows_its_log(path: pathlib.Path) -> None:
    """The restored log is all "since your last turn", event for event as
    the file has it, and the front ends' words tell each move."""
    data = json.loads(path.read_text())
    session = load_session(str(path))
    log = session.log
    assert log and recent(log, 0) == 0
    assert [(e.outcome.seat, str(e.outcome.move)) for e in log] == LOGS[path.stem]
    for event, saved in zip(log, data["log"]):
        outcome = event.outcome
        assert len(outcome.drawn) == len(saved["drawn"]) <= 2
        assert (
            outcome.coup_fourre,
            outcome.extra_turn,
            list(event.notices),
            event.phase,
            event.mileage,
        ) == (
            saved["coup_fourre"],
            saved["extra_turn"],
            saved["notices"],
            saved["phase"],
            saved["mileage"],
        )
        # a card for every use, discard and accepted coup fourre; none for a pick
        assert (saved["card"] is None) == isinstance(outcome.move, Pick)
        assert set(saved["notices"]) <= set(describe(session.view(0), event))
    lines = [line for event in log for line in describe(session.view(0), event)]
    assert lines, "something to tell"


def test_the_logs_hold_targets_answers_and_notices() -> None:
    sessions = {p.stem: load_session(str(p)) for p in FILES}
    targets = {
        (name, e.outcome.seat, e.outcome.move.target)
        for name, s in sessions.items()
        for e in s.log
        if isinstance(e.outcome.move, Use) and e.outcome.move.target is not None
    }
    assert targets == {
        ("classic-6-targets", 1, 3),
        ("classic-6-targets", 5, 2),
        ("milebymile-3-karma", 1, 3),
    }
    coups = [
        (name, e.outcome.seat, e.phase)
        for name, s in sessions.items()
        for e in s.log
        if e.outcome.coup_fourre
    ]
    assert coups == [("classic-6-targets", 5, COUP), ("milebymile-3-karma", 2, COUP)]
    notices = [n for e in sessions["milebymile-3-karma"].log for n in e.notices]
    assert notices == ["side 2 loses karma", "discard pile reshuffled"]
    # a hazard on your team: two sides, so it names no target
    hazard = sessions["classic-4-teams"].log[-1].outcome
    assert hazard.move == Use(2) and CARD_NAMES[hazard.card] == "Accident"


def test_the_pending_coup_fourre_answers_the_last_move() -> None:
    """The question's attacker is the log's last mover, as the front ends
    show it."""
    session = load_session(str(V3 / "classic-4-coup-fourre.json"))
    table = session.table
    assert table.phase == COUP and table.asked == 0 and table.offer is not None
    side, _safety, hazard = table.offer
    last = session.log[-1].outcome
    assert (last.seat, last.card, side) == (1, hazard, 1)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_kept_file_plays_on(path: pathlib.Path) -> None:
    """On through the next hand; the log moves on with the game."""
    session = load_session(str(path))
    driver = random.Random(path.stem)
    hands = 0
    for n in range(5000):
        if step(session, driver) == "new hand":
            hands += 1
            if hands == 2:
                break
        session.table.validate()
        if n % 10 == 0:
            assert loads(dumps(session)).log == session.log
    assert hands == 2, "the game played on through the next hand"
