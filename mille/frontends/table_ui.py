"""The curses board of the ``classic`` and ``milebymile`` presets: its dialogues.

It keeps BSD's board's keys, prompts, signals and game flow (``flow.run``,
through :class:`mille.frontends.ui.Ui`), with a screen of its own
(:class:`mille.frontends.table_screen.TableBoard`), a side to name for a
hazard when there are two opposing sides or more, and the status line
saying which computer is thinking.
"""

from __future__ import annotations

from ..engine.describe import card_name, hazard_targets, no_target, seat_name
from ..engine.table import Move, Outcome, Use
from ..i18n import _
from .curses_keys import NEWLINE, RETURN, SPACE, is_erase, is_kill
from .questions import Question
from .table_screen import TableBoard, target_hint
from .ui import Ui


class TableUi(Ui):
    """The board for every preset but ``bsd``: BSD's keys plus a target for
    hazards, and the computers' moves told as they are made."""

    SCREEN = TableBoard
    screen: TableBoard
    save_after_game = False  # a game won is over: nothing to save

    # ----- commands --------------------------------------------------------

    def use(self, slot: int) -> Move | None:
        """``U n``: a hazard with two or more opposing sides asks for the
        side, listing those it can hit (the engine's check); with none, the
        engine's reason goes on the error line at once.  A side typed that
        it cannot hit gets the engine's refusal (``no such opponent`` and the
        like); RETURN with no side sends none (``which opponent?``).  Erase
        with no side typed, or ^U, abandons the command.
        """
        table = self.session.view(self.seat)
        move = Use(slot)
        if table.check(move) != "which opponent?":
            return move  # no target needed, or refused before one counts
        sides = hazard_targets(table, slot)
        if not sides:  # every side is out of reach: say why, ask nothing
            self.error(no_target(table, slot))
            return None
        self.set_prompt(_("{card} on side:").format(card=card_name(table.hand[slot])))
        self.note(target_hint(table, sides))
        target = self.read_target()
        self.screen.message = ""
        if target is None:
            return None
        return move if target < 0 else Use(slot, target)

    def read_target(self) -> int | None:
        """A side number (a digit) and RETURN or SPACE; -1 for RETURN alone,
        None if abandoned."""
        while True:
            key = self.read_key()
            if key in (RETURN, NEWLINE, SPACE):
                return -1
            if is_erase(key) or is_kill(key):
                return None
            char = chr(key) if key < 128 else ""
            if not (char and "0" <= char <= "9"):  # ASCII digits only
                self.screen.ghost = self.keys.key_text(key)
                self.beep()
                continue
            self.screen.ghost, self.screen.echo = "", char
            confirmed = self.confirm()
            if confirmed is not False:  # erased: read a side again
                return int(char) if confirmed else None

    # ----- the game --------------------------------------------------------

    def introduce(self) -> None:
        """Nothing to say first: this board names its keys (``h: hint`` ...)."""

    def computer_thinks(self) -> None:
        """Before a computer's move (or answer): the status says which
        computer is deciding (``Comp 3 is thinking...``) from before its
        decision until its move is drawn.

        The screen shows each move as it is made: with many computers (and
        the expert thinking up to 0.9 s a move) it never waits for them all.
        """
        if not self.screen.thinking:  # the first of the computers to move in a row
            self.screen.thinking = self.thinker()
            if not self.keys.pending:  # not while keys typed ahead wait
                self.render()

    def computer_moved(self, outcome: Outcome) -> None:
        """The log tells what the computer did; the next one's name, if a
        computer moves next, stays on the status line."""
        self.screen.thinking = self.thinker()
        if not self.keep_note:  # a restore note stays until the player has moved
            self.screen.message = ""
        self.render()

    def thinker(self) -> str:
        """The computer that decides next, if a computer does."""
        session = self.session
        seat = session.table.current_player
        if seat is None or not session.another_decides:
            return ""
        return seat_name(session.rules, seat, session.view(self.seat).reader, session.people)

    def question(self, question: Question) -> None:
        """Your answer to ``Extension?`` or ``Coup Fourre?`` is a move."""
        self.keep_note = False
