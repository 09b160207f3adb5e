"""The yes/no questions the flow asks (``flow.ask``), as values: the front
ends tell them apart by what they are, never by their English words,
which are looked up here, once (``Question.words``, through ``_``).

>>> Question.SAVE_GAME.text, Question.SAVE_GAME in NO_ADVICE
('Save game?', True)
>>> Question.deal(game_over=True) is Question.ANOTHER_GAME
True
"""

from __future__ import annotations

import enum

from ..i18n import N_, _


class Question(enum.Enum):
    """A question the flow asks; its words are in ``WORDS``."""

    REALLY = "really"  # Q and ^C: quit?
    ANOTHER_HAND = "another-hand"
    ANOTHER_GAME = "another-game"
    SAVE_GAME = "save-game"
    SAME_FILE = "same-file"  # the save dialogue's
    OVERWRITE_FILE = "overwrite-file"  # the save dialogue's
    DISCARD_SAFETY = "discard-safety"
    COUP_FOURRE = "coup-fourre"
    EXTENSION = "extension"

    @property
    def text(self) -> str:
        """The question in English, as BSD asks it (the board's prompt is
        set so, and shown translated)."""
        return WORDS[self]

    @property
    def words(self) -> str:
        """The question in the language chosen."""
        return _(WORDS[self])

    @staticmethod
    def deal(game_over: bool) -> Question:
        """The question at the end of a hand: ``Another game?`` once a
        side has won, else ``Another hand?``."""
        return Question.ANOTHER_GAME if game_over else Question.ANOTHER_HAND


WORDS = {
    Question.REALLY: N_("Really?"),
    Question.ANOTHER_HAND: N_("Another hand?"),
    Question.ANOTHER_GAME: N_("Another game?"),
    Question.SAVE_GAME: N_("Save game?"),
    Question.SAME_FILE: N_("Same file?"),
    Question.OVERWRITE_FILE: N_("Overwrite file?"),
    Question.DISCARD_SAFETY: N_("Discard a safety?"),
    Question.COUP_FOURRE: N_("Coup Fourre?"),
    Question.EXTENSION: N_("Extension?"),
}
DEALS = frozenset({Question.ANOTHER_HAND, Question.ANOTHER_GAME})  # the host's alone
HINTS = frozenset({Question.COUP_FOURRE, Question.EXTENSION, Question.DISCARD_SAFETY})  # H, T
LOG = HINTS | DEALS  # and L
# the questions that take no h or t (the save dialogue's, Really?, Save game?)
NO_ADVICE = frozenset(
    {Question.REALLY, Question.SAME_FILE, Question.OVERWRITE_FILE, Question.SAVE_GAME}
)
