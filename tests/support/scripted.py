"""A front end for several people at one table that plays by itself: each
person's move is drawn at random among the seat's legal moves (uses
first), every question answered from a seeded generator.  It checks, at
each decision, that the flow handed it to the right person, and notes
every hand-off and pause."""

from __future__ import annotations

import random

from mille.engine.table import Discard, Move, Outcome, Use
from mille.frontends import flow
from mille.frontends.questions import Question
from mille.frontends.recorder import Recorder
from mille.game.session import Session


class Scripted:
    save_after_game = False  # as every front end but BSD's own board

    def __init__(self, session: Session, rng: random.Random, games: int = 1) -> None:
        self.session = session
        self.rng = rng
        self.saved = False
        self.seat = min(session.people)
        self.games = games  # answer y to Another game? until this many are over
        self.calls: list[str] = []
        self.moves = 0
        self.answer = ""  # the answer to every Coup Fourre? and Extension? ("": at random)
        self.recorder = Recorder()

    # the dialogues
    def ask(self, question: Question, can_save: bool = True) -> bool:
        return flow.ask(self, question, can_save)

    def read_answer(self, question: Question, can_save: bool) -> str:
        self.calls.append(f"{self.seat}: {question.text}")
        if question is Question.ANOTHER_HAND:
            return "y"
        if question is Question.ANOTHER_GAME:
            self.games -= 1
            return "y" if self.games > 0 else "n"
        if question in (Question.SAVE_GAME, Question.REALLY):
            return "n"
        assert self.session.table.current_player in (self.seat, None), question
        return self.answer or self.rng.choice("yn")

    def read_file_name(self) -> str:
        return ""

    def save(self) -> bool:
        return False

    def save_failed(self, reason: str) -> None:
        raise AssertionError(reason)

    def saved_to(self, name: str, when: str) -> None:
        pass

    def new_hand(self) -> None:
        self.calls.append("new hand")

    def go_on_after_failed_save(self) -> None:
        raise AssertionError("no save fails here")

    # the turn loop
    def introduce(self) -> None:
        pass

    def resumed_at_end(self) -> None:
        pass

    def started(self) -> None:
        pass

    def checkpoint(self) -> None:
        pass

    def computer_thinks(self) -> None:
        pass

    def computer_moved(self, outcome: Outcome) -> None:
        self.session.table.validate()

    def human_turn(self) -> None:
        pass

    def read_move(self) -> Move | None:
        view = self.session.view(self.seat)
        assert view.to_decide(), "the flow reads a move from the person at the keyboard"
        legal = view.legal_moves()
        uses = [m for m in legal if isinstance(m, Use)]
        discards = [m for m in legal if isinstance(m, Discard)]
        self.moves += 1
        if uses and (not discards or self.rng.random() < 0.7):
            return self.rng.choice(uses)
        return self.rng.choice(discards or legal)

    def refused(self, reason: str) -> None:
        raise AssertionError(reason)

    def played(self, outcome: Outcome) -> None:
        assert outcome.seat == self.seat
        self.session.table.validate()

    def question(self, question: Question) -> None:
        self.calls.append(f"{self.seat}: question {question.text}")

    def hand_over(self) -> None:
        self.calls.append("hand over")

    def hand_off(self, seat: int) -> None:
        assert seat in self.session.people
        self.calls.append(f"hand-off to {seat}")
        self.seat = seat

    def pause(self) -> None:
        self.calls.append(f"{self.seat}: pause")
