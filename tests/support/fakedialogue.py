"""A front end for the shared dialogues (``mille.frontends.flow``) that
answers from lists and notes what it would show."""

from __future__ import annotations

from mille.frontends.flow import save
from mille.frontends.questions import Question
from mille.game.session import Session


class FakeDialogue:
    """A front end that answers from a list, for the tests:
    ``answers`` for the yes/no questions in turn, ``names`` for ``file:``."""

    save_after_game = False  # as every front end but BSD's own board

    def __init__(
        self, session: Session, answers: list[bool], names: list[str] | None = None
    ) -> None:
        self.session = session
        self.saved = False
        self.answers = list(answers)
        self.names = list(names or [])
        self.asked: list[str] = []
        self.shown: list[str] = []  # what the front end would show, in order

    def ask(self, question: Question, can_save: bool = True) -> bool:
        self.asked.append(question.text)
        return self.answers.pop(0)

    def read_file_name(self) -> str:
        self.asked.append("file:")
        return self.names.pop(0)

    def save(self) -> bool:
        return save(self)

    def save_failed(self, reason: str) -> None:
        self.shown.append(f"failed: {reason}")

    def saved_to(self, name: str, when: str) -> None:
        self.shown.append(f"saved: {name}")

    def new_hand(self) -> None:
        self.shown.append("new hand")

    def go_on_after_failed_save(self) -> None:
        self.shown.append("new hand after a failed save")
