"""``mille --replay``: a finished game shown again on the board it was
played on (BSD's board for the bsd preset, the row board for the
others), a key a step.

The board is the game's own (:class:`~mille.frontends.ui.Ui` or
:class:`~mille.frontends.table_ui.TableUi`, drawing the replay as any
game: :class:`mille.game.replay.Replay` satisfies ``Game``), run by
:func:`mille.frontends.tui.play` (the terminal checked, set up and
restored however it ends); only its loop is the replay's: a key, a step,
the board drawn again at once.  The prompt line says where the replay is
(``hand 2 of 4, move 14 of 63``), the error line the move just made in the
log's words (and its note); ``?`` lists the keys (:data:`KEYS`).
"""

from __future__ import annotations

from ..engine.text import fit
from ..engine.text import width as text_width
from ..i18n import N_, _
from . import replaying
from .bsd_screen import COMPUTER, HUMAN, BsdBoard
from .curses_keys import CTRL_L, NEWLINE, RETURN, SEQUENCE, SPACE
from .screen import fit_line
from .table_screen import HAND_X, LOG_X, TableBoard
from .table_ui import TableUi
from .ui import VIEW_END, VIEW_HOME, Ui

TYPE_CHECKING = False
if TYPE_CHECKING:
    import curses
    from collections.abc import Callable

    from ..engine.view import SeatView
    from ..game.protocol import Game
    from ..game.replay import Replay
    from .bsd_screen import COMPUTER, HUMAN, BsdBoard
from .curses_keys import Keyboard

RIGHT = (b"\x1b[C", b"\x1bOC")
LEFT = (b"\x1b[D", b"\x1bOD")
KEYS = N_(
    "The replay's keys:\n"
    "\n"
    "  ->, l, SPACE   the next move\n"
    "  <-, h          the move before\n"
    "  Home, [        the start of this hand\n"
    "  End, ]         the end of this hand\n"
    "  n              the next hand\n"
    "  p              the hand before\n"
    "  v              one seat's view, or every hand open\n"
    "  s              the next seat's view\n"
    "  W              the full score window\n"
    "  L              the whole hand so far\n"
    "  R, ^L          redraw the screen\n"
    "  q              leave the replay\n"
    "  ?              these keys\n"
    "\n"
    "Every hand open, the board shows the hand of the seat that moved.\n"
    "\n"
    "Press a key to go back to the replay."
)

HINTS = N_("l, h: moves\nn, p: hands\nv s: view  ?: keys")  # (19 columns at most)

# each key's step: by its byte, or by its escape sequence
STEPS: dict[int | bytes, Callable[[Replay], None]] = {
    ord("l"): lambda game: game.forward(),
    SPACE: lambda game: game.forward(),
    RETURN: lambda game: game.forward(),
    NEWLINE: lambda game: game.forward(),
    ord("h"): lambda game: game.back(),
    ord("["): lambda game: game.start(),
    ord("]"): lambda game: game.end(),
    ord("n"): lambda game: game.next(),
    ord("p"): lambda game: game.previous(),
    ord("v"): lambda game: setattr(game, "open", not game.open),
    ord("s"): lambda game: game.choose(game.viewer + 1),
}
for sequence in RIGHT:
    STEPS[sequence] = STEPS[ord("l")]
for sequence in LEFT:
    STEPS[sequence] = STEPS[ord("h")]
for sequence in VIEW_HOME:
    STEPS[sequence] = STEPS[ord("[")]
for sequence in VIEW_END:
    STEPS[sequence] = STEPS[ord("]")]


class Replaying(Ui):
    """The replay's loop on a board (mixed into the board's own class)."""

    def __init__(
        self, scr: curses.window, game: Replay, message: str = "", keyboard: Keyboard | None = None
    ) -> None:
        super().__init__(scr, game, message, keyboard)
        self.replay = game

    def run(self) -> None:
        """Until ``q`` (returns) or a hang-up (Hangup)."""
        self.sync_size()
        self.show()
        while True:
            key = self.read_key()
            step = STEPS.get(self.keys.sequence if key == SEQUENCE else key)
            char = chr(key) if key < 128 else ""
            if step is not None:
                step(self.replay)
            elif char in ("q", "Q"):
                return
            elif char == "?":
                self.keys_page()
            elif char in ("W", "w"):
                self.replay.window_full = not self.replay.window_full
            elif char in ("L",):
                self.show_log()
            elif char in ("R", "r") or key == CTRL_L:
                self.redraw()
            else:
                self.beep()
            self.show()

    def show(self) -> None:
        """The board at the replay's position: the seat whose view is
        shown (every hand open: the seat that moved), where it is, the
        move just made."""
        game, screen = self.replay, self.screen
        log = game.log
        if game.open:
            mover = log[-1].outcome.seat if log else game.table.current_player
            self.seat = game.viewer if mover is None else mover
        else:
            self.seat = game.viewer
        screen.new_hand()
        if log:
            screen.computer_moved(log[-1].outcome)
        status, words, whose = (
            replaying.status(game),
            replaying.move_words(game),
            replaying.whose(game),
        )
        room = screen.PROMPT_RIGHT - screen.PROMPT_X + 1
        if text_width(status) < room:  # the row board: where, then what
            self.set_prompt(status)
            screen.message = f"{words} ({whose})" if words else whose
            return
        # BSD's board: the prompt is short (the move, its card under it), the error line longer
        self.set_prompt(fit_line(words, room - 1))
        shown = f"{status}, {whose}"
        screen.message = shown if text_width(shown) <= screen.MESSAGE_WIDTH else status

    def keys_page(self) -> None:
        """``?``: the replay's keys, until a key."""
        self.screen.page = lambda: replaying.help_lines(_(KEYS))
        try:
            self.read_key()
        finally:
            self.screen.page = None


class ReplayBsdBoard(BsdBoard):
    """BSD's board, its sides where the viewer's seat puts them, whoever's
    hand is shown (every hand open: the seat that moved)."""

    def sides(self) -> tuple[int, int]:
        return (HUMAN, COMPUTER) if self.session.viewer == HUMAN else (COMPUTER, HUMAN)


class BsdReplay(Replaying):
    """BSD's board, replaying: the full score window (not the game's keys)."""

    SCREEN = ReplayBsdBoard

    def run(self) -> None:
        self.replay.window_full = True
        super().run()


class ReplayTableBoard(TableBoard):
    """The row board, its reminders the replay's keys."""

    def draw_hints(self, table: SeatView) -> None:
        room = LOG_X - 1
        for y, line in enumerate(_(HINTS).split("\n")):
            self.put(self.hint_y + y, HAND_X, fit(line, room))


class TableReplay(Replaying, TableUi):
    """The row board, replaying."""

    SCREEN = ReplayTableBoard


def board_for(game: Replay) -> type[Replaying]:
    """The board ``game`` was played on, replaying."""
    from .tui import board_class

    return TableReplay if board_class(game) is TableUi else BsdReplay


def play(game: Replay, color: bool = True) -> int:
    """Show ``game`` on its board in the terminal; the exit status (0,
    or 1 where the terminal cannot be used or is gone)."""
    from . import tui

    kind = board_for(game)

    def board(scr: curses.window, session: Game, message: str) -> Ui:
        return kind(scr, game, message)

    return tui.play(game, color=color, board=board, gone=lambda exc: ("", 1))
