"""The game flow the front ends share (``mille.frontends.flow``): the turn
loop and its dialogues, driven by fake front ends; the boards and the line
mode are tested with them in test_board, test_plain and the end-to-end
tests."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from mille.engine.cards import D50, EXTRA_TANK, GO
from mille.engine.rules import find_rules
from mille.engine.table import EXTENSION, OVER, PICK, PLAYING, Discard, Move, Outcome, Use
from mille.engine.view import SeatView
from mille.frontends import flow
from mille.frontends.questions import Question
from mille.frontends.recorder import Recorder
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
    fake = FakeDialogue(session, answers=[False])
    assert not flow.end_of_hand(fake)
    assert fake.asked == ["Another game?"]  # a game won: nothing to save (issue 40, item 9)


def test_bsds_board_asks_save_game_after_a_game_as_bsd() -> None:
    fake = FakeDialogue(finished(game_over=True), answers=[False, False])
    fake.save_after_game = True
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


# ----- the turn loop (flow.run, flow.step) --------------------------------------


class OutOfMoves(Exception):
    """The fake front end has no more moves to make."""


class FakeFront(FakeDialogue):
    """A front end for the whole flow: ``moves`` for your turns, in order
    (OutOfMoves after the last), ``answers`` for the yes/no questions
    (True, False or a key such as ``"s"``); ``calls`` notes what the loop
    asked of it, in order."""

    def __init__(
        self,
        session: Session,
        moves: list[Move | None],
        answers: list[bool | str] | None = None,
        stop_after: int | None = None,
        names: list[str] | None = None,
    ) -> None:
        super().__init__(session, [], names)
        self.replies = list(answers or [])
        self.moves = list(moves)
        self.stop_after = stop_after  # checkpoints before a hang-up comes
        self.calls: list[str] = []
        self.seat = min(session.people, default=0)
        self.recorder = Recorder()

    def ask(self, question: Question, can_save: bool = True) -> bool:
        return flow.ask(self, question, can_save)

    def read_answer(self, question: Question, can_save: bool) -> str:
        self.calls.append(question.text)
        self.asked.append(question.text)
        reply = self.replies.pop(0)
        return reply if isinstance(reply, str) else "y" if reply else "n"

    def introduce(self) -> None:
        self.calls.append("introduce")

    def resumed_at_end(self) -> None:
        self.calls.append("resumed at end")

    def started(self) -> None:
        self.calls.append("started")

    def checkpoint(self) -> None:
        self.calls.append("checkpoint")
        if self.stop_after is not None and self.calls.count("checkpoint") > self.stop_after:
            raise flow.Hangup("hang-up")

    def computer_thinks(self) -> None:
        self.calls.append("thinks")

    def computer_moved(self, outcome: Outcome) -> None:
        self.calls.append(f"computer {outcome.seat}")

    def human_turn(self) -> None:
        self.calls.append("your turn")

    def read_move(self) -> Move | None:
        if not self.moves:
            raise OutOfMoves
        return self.moves.pop(0)

    def refused(self, reason: str) -> None:
        self.calls.append(f"refused: {reason}")

    def played(self, outcome: Outcome) -> None:
        self.calls.append("played")

    def hand_off(self, seat: int) -> None:
        self.calls.append(f"hand-off to {seat}")
        self.seat = seat

    def pause(self) -> None:
        self.calls.append("pause")

    def question(self, question: Question) -> None:
        self.calls.append(f"question {question.text}")

    def hand_over(self) -> None:
        self.calls.append("hand over")


def computers_first() -> Session:
    """classic, 4 seats, the computers to move (seat 1 starts)."""
    session = Session.new(find_rules("classic", players=4), seed=1)
    session.table.to_move = 1
    return session


def test_computers_move_one_at_a_time_with_a_checkpoint_before_each() -> None:
    fake = FakeFront(computers_first(), moves=[])
    with pytest.raises(OutOfMoves):
        flow.run(fake)
    assert fake.calls[:2] == ["introduce", "started"]
    computer_calls = fake.calls[2 : fake.calls.index("your turn")]
    assert computer_calls[:4] == ["checkpoint", "thinks", "computer 1", "checkpoint"]
    assert computer_calls.count("checkpoint") == computer_calls.count("thinks") >= 3
    assert fake.session.table.current_player == 0


def test_a_hang_up_between_two_computer_moves_stops_after_the_move_under_way() -> None:
    session = computers_first()
    fake = FakeFront(session, moves=[], stop_after=1)
    with pytest.raises(flow.Hangup, match="hang-up"):
        flow.run(fake)
    assert len(session.log) == 1, "one computer moved, then the hang-up was seen"
    assert fake.calls[-1] == "checkpoint"


def test_your_move_is_read_and_made() -> None:
    session = Session.new(seed=4)
    assert session.human_to_move
    fake = FakeFront(session, moves=[None, PICK])
    with pytest.raises(OutOfMoves):
        flow.run(fake)
    assert fake.calls[2:6] == ["your turn", "your turn", "played", "your turn"]
    assert session.log[-1].outcome.move == PICK


def test_a_refused_move_changes_nothing() -> None:
    session = Session.new(seed=4)
    before = session.table.copy()
    fake = FakeFront(session, moves=[Use(1)])
    with pytest.raises(OutOfMoves):
        flow.run(fake)
    assert "refused: must pick first" in fake.calls and "played" not in fake.calls
    assert session.table == before


def safety_to_discard() -> Session:
    """classic, 2 seats, your turn after the pick, Extra Tank in slot 1."""
    session = Session.new(find_rules("classic", players=2), seed=6)
    session.play(PICK)
    session.table.hands[0][1] = EXTRA_TANK
    return session


@pytest.mark.parametrize("answer", [True, False])
def test_discard_a_safety_is_asked_first(answer: bool) -> None:
    session = safety_to_discard()
    fake = FakeFront(session, moves=[Discard(1)], answers=[answer])
    flow.step(fake)
    assert fake.calls == ["your turn", "Discard a safety?", *(["played"] * answer)]
    assert (session.table.hands[0][1] == EXTRA_TANK) is not answer


def test_extension_is_asked_of_you_and_answered() -> None:
    session = Session.new(find_rules("classic", players=2), seed=6)
    tab = session.table.tableaux[0]
    tab.battle, tab.mileage = [GO], 650
    session.table.hands[0][1] = D50
    fake = FakeFront(session, moves=[PICK, Use(1)], answers=[True])
    flow.step(fake)
    flow.step(fake)
    assert session.table.phase == EXTENSION
    flow.step(fake)
    assert fake.calls[-3:] == ["question Extension?", "Extension?", "played"]
    assert session.table.phase == PLAYING and session.table.target == 1000


def test_a_computers_question_is_the_computers() -> None:
    session = Session.new(find_rules("classic", players=3), seed=2)
    table = session.table
    table.phase, table.asked, table.to_move = EXTENSION, 1, 2
    fake = FakeFront(session, moves=[])
    flow.step(fake)
    assert fake.calls == ["checkpoint", "thinks", "computer 1"] and fake.asked == []


def test_the_end_of_a_hand_then_quitting() -> None:
    fake = FakeFront(finished(), moves=[], answers=[False, False])
    with pytest.raises(flow.Quit):
        flow.step(fake)
    assert fake.calls == ["hand over", "Another hand?", "Save game?"]


class Quitter(FakeFront):
    """Q at the first move, and ``answers`` for Really?."""

    def read_move(self) -> Move | None:
        flow.really(self)
        return None


def test_run_returns_when_the_player_quits() -> None:
    fake = Quitter(Session.new(seed=4), moves=[], answers=[True])
    flow.run(fake)  # no Quit escapes: run returns when the player is done
    assert fake.calls == ["introduce", "started", "your turn", "Really?"]


def test_the_end_of_a_hand_then_another() -> None:
    fake = FakeFront(finished(), moves=[], answers=[True])
    flow.step(fake)
    assert fake.shown == ["new hand"] and fake.calls == ["hand over", "Another hand?"]


def test_a_game_saved_at_the_end_of_a_hand_deals_the_next() -> None:
    session = finished()
    fake = FakeFront(session, moves=[])
    with pytest.raises(OutOfMoves):
        flow.run(fake)
    assert fake.calls[:3] == ["introduce", "resumed at end", "started"]
    assert session.table.phase == PLAYING


@pytest.mark.parametrize("answer", [True, False])
def test_really(answer: bool) -> None:
    fake = FakeDialogue(Session.new(seed=1), answers=[answer])
    if answer:
        with pytest.raises(flow.Quit):
            flow.really(fake)
    else:
        flow.really(fake)
    assert fake.asked == ["Really?"]


def test_s_saves_then_asks_again(tmp_path: Path) -> None:
    name = str(tmp_path / "g.json")
    fake = FakeFront(Session.new(seed=1), moves=[], answers=["s", "h", False], names=[name])
    assert not flow.ask(fake, Question.ANOTHER_HAND)
    assert fake.saved, "the answer's S saved the game"
    assert fake.asked == ["Another hand?", "file:", "Another hand?", "Another hand?"]
    assert fake.shown == [f"saved: {name}"]


def test_no_save_within_the_save_dialogue() -> None:
    fake = FakeFront(Session.new(seed=1), moves=[], answers=["s", True])
    assert flow.ask(fake, Question.OVERWRITE_FILE, can_save=False)
    assert not fake.saved and fake.asked == ["Overwrite file?", "Overwrite file?"]


# ----- the hint, for every front end ---------------------------------------------


def test_a_hint_that_fails_says_why_on_one_line(
    monkeypatch: pytest.MonkeyPatch, unhurried_search: None
) -> None:
    from mille.players import advice

    table = Session.new(seed=4).table
    text, advised = flow.hint(SeatView(table, 0))
    assert advised and text == advice.hint(SeatView(table, 0))

    def broken(table: object) -> str:
        raise RuntimeError("no\nroom")

    monkeypatch.setattr(advice, "hint", broken)
    assert flow.hint(SeatView(table, 0)) == ("no hint: no\\nroom", False)
    monkeypatch.setattr(advice, "hint", lambda table: 1 / 0 and "")
    assert flow.hint(SeatView(table, 0)) == ("no hint: division by zero", False)

    def silent(table: object) -> str:
        raise KeyError

    monkeypatch.setattr(advice, "hint", silent)
    assert flow.hint(SeatView(table, 0)) == ("no hint: KeyError", False)
