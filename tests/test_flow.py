"""The dialogues the front ends share (``mille.frontends.flow``), driven by a
fake front end; the boards and the line mode are tested with them in
test_board, test_plain and the end-to-end tests."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from mille.engine.table import OVER
from mille.frontends import flow
from mille.game.session import Session
from mille.storage.savefile import load_session
from support.fakedialogue import FakeDialogue


def finished(game_over: bool = False) -> Session:
    """A session whose hand is over (and, with ``game_over``, its game)."""
    session = Session.new(seed=4)
    rng = random.Random(4)
    while session.table.phase != OVER:
        if session.computer_to_move:
            session.computer_move()
        else:
            session.play(rng.choice(session.table.legal_moves()))
    if game_over:
        session.table.totals = [session.rules.winning_score, 0]
    return session


def test_another_hand_deals_it() -> None:
    fake = FakeDialogue(finished(), answers=[True])
    assert flow.end_of_hand(fake)
    assert fake.asked == ["Another hand?"] and fake.shown == ["new hand"]


def test_another_game_once_a_side_has_won() -> None:
    session = finished(game_over=True)
    assert session.table.game_over
    fake = FakeDialogue(session, answers=[False, False])
    assert not flow.end_of_hand(fake)
    assert fake.asked == ["Another game?", "Save game?"]


def test_no_save_question_after_s_saved_the_game() -> None:
    fake = FakeDialogue(finished(), answers=[False])
    fake.saved = True
    assert not flow.end_of_hand(fake)
    assert fake.asked == ["Another hand?"]


def test_saving_at_the_end_then_quitting(tmp_path: Path) -> None:
    name = str(tmp_path / "g.json")
    session = finished()
    fake = FakeDialogue(session, answers=[False, True], names=[name])
    assert not flow.end_of_hand(fake)
    assert fake.asked == ["Another hand?", "Save game?", "file:"]
    assert fake.shown == [f"saved: {name}"]
    assert load_session(name).table == session.table


def test_a_failed_save_at_the_end_plays_on(tmp_path: Path) -> None:
    name = str(tmp_path / "no such directory" / "g.json")
    fake = FakeDialogue(finished(), answers=[False, True], names=[name])
    assert flow.end_of_hand(fake)
    assert fake.shown == ["failed: No such file or directory", "new hand after a failed save"]


def test_an_empty_name_saves_nothing() -> None:
    fake = FakeDialogue(Session.new(seed=1), answers=[], names=[""])
    assert not flow.save(fake)
    assert fake.asked == ["file:"] and fake.shown == []


def test_same_file_for_a_restored_game(tmp_path: Path) -> None:
    name = str(tmp_path / "g.json")
    session = Session.new(seed=1)
    session.source = name
    fake = FakeDialogue(session, answers=[True])
    assert flow.save(fake)
    assert fake.asked == ["Same file?"] and fake.shown == [f"saved: {name}"]


@pytest.mark.parametrize("overwrite", [True, False])
def test_overwrite_file(tmp_path: Path, overwrite: bool) -> None:
    path = tmp_path / "g.json"
    path.write_text("old")
    fake = FakeDialogue(Session.new(seed=1), answers=[overwrite], names=[str(path)])
    assert flow.save(fake) is overwrite
    assert fake.asked == ["file:", "Overwrite file?"]
    assert (path.read_text() != "old") is overwrite


def test_a_save_that_raises_says_why_and_goes_on(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import mille.storage.savefile

    def broken(session: Session, name: str) -> None:
        raise ValueError("game too large to save")

    monkeypatch.setattr(mille.storage.savefile, "save_session", broken)
    fake = FakeDialogue(Session.new(seed=1), answers=[], names=[str(tmp_path / "g")])
    assert not flow.save(fake)
    assert fake.shown == ["failed: game too large to save"]
