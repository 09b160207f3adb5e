"""The curses board and the command loop, drawn the way BSD mille draws them.

The screen is 80x24 and has three regions, as in BSD:

* the board (columns 0-39): safeties, your hand, deck, discard pile,
  battle and speed tops, the prompt line and the computer's last move;
* the score window (columns 40-79, rows 0-16) with its ``|`` border, the
  small or full score table (or, while T is on, the card tracker: how many
  of each card you have not seen) and the error line (row 15, column 45);
* the mileage area (rows 17-23): one column per distance card played.

Every frame is drawn whole from the game state plus a little UI state (the
prompt, what was typed, the error line, the computer's last move); curses
sends only what changed, and only when no key is waiting, so a paste or a
held key costs no redraw per byte.  Keys are read byte by byte (no keypad
translation) so the command language behaves like BSD's ``readch``; an
escape sequence (an arrow or function key) is read whole and refused as
one unknown key.

H puts a hint on the error line (the expert's move and why; it is never
played; one too long for the error line is shown whole in the score
window's lower rows until the next key), T toggles the card tracker, L
shows the whole hand so far (full screen, scrollable) and ? a page of help:
none is in BSD mille, and with none pressed the screen is BSD's.

Signals only set flags: the key reader acts on them between keys, so a
signal never cuts a save or a redraw in half.  ^C asks ``Really?``; a
hang-up, SIGTERM, ^\\ (SIGQUIT) or a terminal that is gone (100 failed
reads in a row, as BSD's ``readch``) keeps the game in the recovery file
and leaves with exit status 1.  The game loop looks at the flags between
two moves too, so a hang-up while the computers move is seen after the
move under way, not after all of them.
"""

from __future__ import annotations

import abc
import curses
import os
import select
import signal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import FrameType

from ..engine.cards import CARD_NAMES, EXTRA_TANK, HAND_SLOTS, NO_CARD
from ..engine.table import (
    OVER,
    PICK,
    Discard,
    Move,
    Outcome,
    Pick,
    Table,
    Use,
)
from ..engine.text import ELLIPSIS, escape, shorten
from ..game.session import Session
from ..storage.recovery import signal_reason
from . import flow

MIN_LINES = 24
MIN_COLS = 80
TOO_SMALL = "Screen must be at least 24x80"

# Board (BSD's Board window) coordinates.
# BSD's board has two seats: you (seat 0, side 1) and the computer (seat 1)
HUMAN = 0
COMPUTER = 1

COMP_X = 20  # where the computer's half of the board starts
CARD_X = 2  # card names start two columns in
MOVE_Y, MOVE_X = 10, 20  # the prompt
BOARD_RIGHT = 39  # last column of the board
EXT_Y, EXT_X = 4, 9  # "Extension"

# Score window, in screen coordinates.
SCORE_X = 40
SCORE_ROWS = 17
ERR_Y, ERR_X = 15, 45
RIGHT = 79

# Mileage area.
MILES_Y = 17

MOVE_PROMPT = ">>:Move:"
HINT_QUESTIONS = ("Coup Fourre?", "Extension?", "Discard a safety?")  # they take H and T
LOG_QUESTIONS = HINT_QUESTIONS + ("Another hand?", "Another game?")  # and L

# The card tracker in the score window (T): a heading, two columns of cards.
TRACK_X = SCORE_X + 2
TRACK_COLUMN = 19  # from one column of cards to the next
TRACK_Y = 2  # the first row of cards
TRACK_NAME = 14  # "Puncture Proof"

CTRL_C, CTRL_L, CTRL_U = 3, 12, 21
BACKSPACE, DELETE = 8, 127
RETURN, NEWLINE, SPACE = 13, 10, 32
ESC = 27
SEQUENCE = 0x10000  # read_key's answer for a whole escape sequence (Ui.sequence)
ESC_WAIT = 0.1  # seconds to wait for the rest of an escape sequence
SEQUENCE_MAX = 16  # bytes; a longer "sequence" is cut there
NAME_MAX = 255  # bytes in a file: name (BSD reads it into 256 bytes; 255 is NAME_MAX)
MAX_FAILED_READS = 100  # reads in a row that find the terminal gone (BSD's readch)
POLL_MS = 100  # where the terminal cannot be waited on with select (Windows)

SCORE_TOP = (
    (0, 22, "You   Comp   Value"),
    (1, 2, "Milestones Played"),
    (2, 8, "Each Safety"),
    (3, 5, "All 4 Safeties"),
    (4, 3, "Each Coup Fourre"),
    (2, 37, "100"),
    (3, 37, "300"),
    (4, 37, "300"),
)
SCORE_SMALL = (
    (5, 21, "----   ----   -----"),
    (6, 9, "Hand Total"),
    (7, 20, "-----  -----"),
    (8, 6, "Overall Total"),
    (9, 15, "Games"),
    (11, 2, "p: pick"),
    (12, 2, "u: use #"),
    (13, 2, "d: discard #"),
    (14, 2, "w: toggle window"),
    (11, 21, "q: quit"),
    (13, 21, "s: save"),
    (14, 21, "r: reprint"),
)
SCORE_FULL = (
    (5, 5, "Trip Completed"),
    (6, 10, "Safe Trip"),
    (7, 5, "Delayed Action"),
    (8, 10, "Extension"),
    (9, 11, "Shut-Out"),
    (10, 21, "----   ----   -----"),
    (11, 9, "Hand Total"),
    (12, 20, "-----  -----"),
    (13, 6, "Overall Total"),
    (14, 15, "Games"),
    (5, 37, "400"),
    (6, 37, "300"),
    (7, 37, "300"),
    (8, 37, "200"),
    (9, 37, "500"),
)


HELP = (
    "MILLE BORNES: keys and rules (this help is not in BSD mille)",
    "",
    "At >>:Move: (upper or lower case):",
    "  P      pick a card               U n    use the card in slot n",
    "  D n    discard the card in slot n (n: P or 0, 1-6; RETURN or SPACE confirms)",
    "  O      keep your hand in order   W      small / full score window",
    "  R, ^L  redraw the screen         S      save the game",
    "  H      hint: the expert's move   T      cards not seen yet (T or W: scores)",
    "  L      the hand so far (scroll)  ?      this help",
    "  Q, ^C  quit (asks Really?)",
    "Yes/no questions take y, n, S (save first), ^L; Extension?: H, T, L too.",
    "",
    "Race to exactly 700 miles (1000 after an extension); 5000 points win a game.",
    "Pick, then use or discard one card.  You need a Go to roll.  Hazards stop the",
    "opponent (Out of Gas, Flat Tire, Accident, Stop) or slow them (Speed Limit: no",
    "distance over 50) until they play the remedy (Gasoline, Spare Tire, Repairs,",
    "then Go; End of Limit).  A safety (Extra Tank, Puncture Proof, Driving Ace,",
    "Right of Way) protects for good and gives another turn; played before you",
    "pick, right after its hazard, it is a coup fourre.  Two 200s a hand at most.",
    "",
    "Score: the miles; 100 a safety, 300 for all four, 300 a coup fourre; and for",
    "the trip 400, +300 without 200s, +300 with the deck out, +200 for an",
    "extension, +500 if the opponent has no miles.",
    "Computer: {level} (--level).  Press any key to go back to the game.",
)

# The whole hand's log (L), full screen.
VIEW_TITLE = "The hand so far"
VIEW_KEYS = "up/down, PgUp/PgDn, space, Home/End: scroll   q or ESC: back to the game"
VIEW_UP = (b"\x1b[A", b"\x1bOA")
VIEW_DOWN = (b"\x1b[B", b"\x1bOB")
VIEW_PAGE_UP = (b"\x1b[5~",)
VIEW_PAGE_DOWN = (b"\x1b[6~",)
VIEW_HOME = (b"\x1b[H", b"\x1bOH", b"\x1b[1~", b"\x1b[7~")
VIEW_END = (b"\x1b[F", b"\x1bOF", b"\x1b[4~", b"\x1b[8~")


Quit = flow.Quit  # leave the program normally (exit status 0)
Hangup = flow.Hangup  # raised by the key reader or between two moves, never mid-save


class LostTerminal(Exception):
    """Reads keep failing: the terminal has gone away."""


def key_name(key: int) -> str:
    """How BSD's ``unctrl`` shows a key byte: ``A``, ``^X``, ``^?``, ``M-a``."""
    if not 0 <= key <= 255:
        return f"<{key}>"
    if key >= 128:
        return "M-" + key_name(key - 128)
    if key < 32:
        return "^" + chr(key + 64)
    return "^?" if key == DELETE else chr(key)


def fit_line(text: str, width: int) -> str:
    """``text`` cut to ``width`` at a word, ending in ``...``; a hint that
    has no room for a word of its why keeps just its move.

    >>> fit_line("hint: U2 Go - you are stopped and hold 75", 35)
    'hint: U2 Go - you are stopped...'
    >>> fit_line("hint: D3 Puncture Proof - the card you need least", 24)
    'hint: D3 Puncture Proof'
    >>> fit_line("short", 35)
    'short'
    """
    if len(text) <= width:
        return text
    room = width - len(ELLIPSIS)
    space = text.rfind(" ", 0, room + 1)
    dash = text.find(" - ")
    if dash >= 0 and space <= dash + 2:  # not one word of the why fits
        return text[:dash] if dash <= width else shorten(text, width)
    if space <= 0:
        return shorten(text, width)
    return text[:space].rstrip(" ,-") + ELLIPSIS


def tracker_cells(table: Table, columns: int) -> list[list[str]]:
    """The card tracker's cells, ``Out of Gas      2``, in ``columns``
    columns read downwards (the counts are :func:`mille.engine.describe.unseen`)."""
    from ..engine.describe import tracker

    rows = tracker(table)
    height = -(-len(rows) // columns)
    cells = [f"{name:<{TRACK_NAME}}{count:>3}" for name, count in rows]
    return [cells[index * height : (index + 1) * height] for index in range(columns)]


def is_erase(key: int) -> bool:
    return key in (BACKSPACE, DELETE, curses.KEY_BACKSPACE)


def is_kill(key: int) -> bool:
    return key == CTRL_U


def visible(text: str) -> str:
    """Text as the screen shows it: control characters as ``^X``."""
    return "".join(key_name(ord(ch)) if ch < " " or ch == "\x7f" else ch for ch in text)


def shown_name(typed: bytes, encoding: str) -> str:
    """A file name being typed, as the ``file:`` prompt shows it.

    Control characters as ``^X`` (BSD's ``unctrl``); bytes the terminal's
    character set cannot show as ``\\xNN`` (under ``LC_ALL=C``, ``été``
    shows as ``\\xc3\\xa9t\\xc3\\xa9``), so what was typed is always seen.

    >>> shown_name("été".encode(), "utf-8")
    'été'
    >>> shown_name("été\\x1b".encode(), "ascii")
    '\\\\xc3\\\\xa9t\\\\xc3\\\\xa9^['
    """
    try:
        text = typed.decode(encoding, "backslashreplace")
    except LookupError:
        text = typed.decode("utf-8", "backslashreplace")
    return "".join(
        key_name(ord(ch)) if ch < " " or ch == "\x7f" else ch if ch.isprintable() else escape(ch)
        for ch in text
    )


# ----- the keyboard ---------------------------------------------------------


class Keyboard(abc.ABC):
    """Where key bytes come from.

    ``poll()`` gives a key that is ready without waiting (or None);
    ``wait(timeout)`` waits for one, up to ``timeout`` seconds (None: until
    a key or a signal), and gives None if it stopped without a key, so the
    caller can look at what the signal handlers flagged.
    """

    def poll(self) -> int | None:
        return None

    @abc.abstractmethod
    def wait(self, timeout: float | None) -> int | None:
        """A key, or None when the wait ended without one."""

    def size(self) -> tuple[int, int] | None:
        """The terminal's size (rows, columns), if it can be asked."""
        return None


class WindowKeyboard(Keyboard):
    """The window's own ``getch``, with curses' timeout.

    Used where ``select`` cannot wait on the terminal (Windows) with a
    polling interval, so flags set by signals are seen within ``poll_ms``,
    and for stand-in windows in tests (``poll_ms=-1``: block).  It cannot
    look ahead, so the screen is drawn before every key.
    """

    def __init__(self, scr: curses.window, poll_ms: int = -1) -> None:
        self.scr = scr
        self.poll_ms = poll_ms

    def wait(self, timeout: float | None) -> int | None:
        self.scr.timeout(self.poll_ms if timeout is None else int(timeout * 1000))
        key = self.scr.getch()
        return None if key < 0 else key


class TtyKeyboard(Keyboard):
    """Keys from a POSIX terminal: non-blocking ``getch`` plus ``select``.

    ``select`` waits on the terminal and on the signal wake-up pipe
    (``signal.set_wakeup_fd``), so a signal that arrives just before the
    wait still ends it: no ^C is ever lost.  When the terminal is readable
    but no key comes (end of file, I/O error: the terminal is gone), that
    is a failed read; after MAX_FAILED_READS in a row, LostTerminal.
    """

    def __init__(self, scr: curses.window, fd: int, wakeup: int) -> None:
        self.scr = scr
        self.fd = fd
        self.wakeup = wakeup
        self.failures = 0
        scr.nodelay(True)

    def poll(self) -> int | None:
        key = self.scr.getch()
        if key < 0:
            return None
        self.failures = 0
        return key

    def wait(self, timeout: float | None) -> int | None:
        import time

        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            key = self.poll()
            if key is not None:
                return key
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                ready = select.select([self.fd, self.wakeup], [], [], left)[0]
            except (OSError, ValueError) as exc:
                raise LostTerminal from exc
            if not ready:
                return None  # timed out
            if self.wakeup in ready:
                self.drain()
                return None  # a signal: the caller looks at the flags
            self.failures += 1
            if self.failures >= MAX_FAILED_READS:
                raise LostTerminal

    def drain(self) -> None:
        try:
            while os.read(self.wakeup, 512):
                pass
        except OSError:  # empty (non-blocking)
            pass

    def size(self) -> tuple[int, int] | None:
        try:
            cols, rows = os.get_terminal_size(self.fd)
        except OSError:
            return None
        return max(rows, 1), max(cols, 1)


class Ui:
    """The screen and keyboard for one run of the program: BSD's board.

    The keyboard, the prompts, the signals and what the game flow
    (:func:`mille.frontends.flow.run`, which drives it as a
    :class:`~mille.frontends.flow.Front`) asks of a board are shared with
    the board of the other presets (:class:`mille.frontends.table_ui.TableUi`),
    which overrides ``draw``, the prompt's place, the help text and how a
    computer's move is shown.
    """

    HELP_LINES: tuple[str, ...] = HELP
    PROMPT_Y, PROMPT_X = MOVE_Y, MOVE_X  # where the prompt line starts
    PROMPT_RIGHT = BOARD_RIGHT  # the last column it may use
    MESSAGE_WIDTH = RIGHT - ERR_X + 1  # the error line's room
    TRACKER_HIDES_SCORES = True  # the tracker takes the score window (W leaves it)

    def __init__(
        self,
        scr: curses.window,
        session: Session,
        message: str = "",
        keyboard: Keyboard | None = None,
    ) -> None:
        self.scr = scr
        self.session = session
        self.keyboard = WindowKeyboard(scr) if keyboard is None else keyboard
        self.message = message  # the error line's text
        self.keep_note = bool(message)  # a restore note stays until the player moves
        self.prompt = MOVE_PROMPT
        self.echo = ""  # what was typed after the prompt
        self.ghost = ""  # a refused slot key, shown until overwritten (as BSD)
        self.last_move: tuple[str, str] | None = None  # computer's PLAY/DISCARD, card
        self.interrupted = False  # ^C (SIGINT) seen, Really? not asked yet
        self.stop: str | None = None  # why the game must be kept and left
        self.winched = False  # SIGWINCH seen: the terminal's size may have changed
        self.in_really = False
        self.saved = False  # the last yes/no prompt saved the game (BSD's Saved)
        self.too_small = False
        self.helping = False  # the help screen is up
        self.bell = False  # a beep is due with the next screen update
        self.pending: list[int] = []  # keys read ahead, to be read again
        self.sequence = b""  # the escape sequence behind the last SEQUENCE key
        self.tracking = False  # T: the card tracker is on (a UI setting, not saved)
        self.hinted: tuple[Table, str] | None = None  # the last hint and its position
        self.hint_text = ""  # the last hint, whole
        self.whole_hint = ""  # a hint too long for the error line, shown whole until a key
        self.viewing: list[str] | None = None  # L: the lines of the hand so far, shown
        self.view_top = 0  # the first of them on the screen
        encoding = getattr(scr, "encoding", None) or "utf-8"
        try:
            import codecs

            codecs.lookup(encoding)
        except LookupError:
            encoding = "utf-8"
        self.encoding = encoding

    # ----- drawing ---------------------------------------------------------

    def put(self, y: int, x: int, text: str, attr: int = 0) -> None:
        """Write text, silently clipped to the screen."""
        height, width = self.scr.getmaxyx()
        if y >= height or x >= width:
            return
        try:
            text.encode(self.encoding)
        except UnicodeEncodeError:  # what the terminal cannot show, as \xNN bytes
            text = "".join(self.showable(ch) for ch in text)
        text = text[: width - x]
        if y == height - 1 and x + len(text) >= width:
            text = text[: width - x - 1]  # never the bottom-right cell
        if text:
            try:
                self.scr.addstr(y, x, text, attr)
            except curses.error:
                pass

    def showable(self, ch: str) -> str:
        try:
            ch.encode(self.encoding)
        except UnicodeEncodeError:
            return "".join(f"\\x{byte:02x}" for byte in os.fsencode(ch))
        return ch

    def render(self) -> None:
        """Draw the whole screen from the state; curses sends the changes."""
        scr = self.scr
        scr.erase()
        self.expire_hint()
        if self.too_small:
            self.put(0, 0, TOO_SMALL)
        elif self.helping:
            for y, line in enumerate(self.help_lines()):
                self.put(y, 0, line)
        elif self.viewing is not None and not self.in_really:
            self.draw_view()
        else:
            self.draw()
        try:
            scr.refresh()
            if self.bell:
                curses.beep()
        except curses.error:  # the terminal may be gone
            pass
        self.bell = False

    def help_lines(self) -> list[str]:
        """``?``: the keys and the rules, with the options in force."""
        return [line.replace("{level}", self.session.level) for line in self.HELP_LINES]

    def view_rows(self) -> int:
        """Lines of the hand's log on one screen (L): all rows but the
        title and the keys."""
        return max(self.scr.getmaxyx()[0] - 2, 1)

    def draw_view(self) -> None:
        """L: the hand so far, full screen, a title above, the keys below."""
        lines = self.viewing or []
        height, width = self.scr.getmaxyx()
        rows = self.view_rows()
        self.view_top = max(min(self.view_top, len(lines) - rows), 0)  # after a resize
        shown = lines[self.view_top : self.view_top + rows]
        if lines:
            where = f"lines {self.view_top + 1}-{self.view_top + len(shown)} of {len(lines)}"
        else:
            where = "nothing yet"
        self.put(0, 0, f"{VIEW_TITLE} ({where})", curses.A_BOLD)
        for y, line in enumerate(shown, start=1):
            self.put(y, 0, line)
        self.put(height - 1, 0, VIEW_KEYS)

    def draw(self) -> None:
        """The game's screen (not the help, not the too-small notice)."""
        self.draw_board()
        self.draw_score()
        self.draw_miles()
        self.draw_prompt()

    def draw_board(self) -> None:
        state = self.session.state
        for who in (HUMAN, COMPUTER):
            tab = state.tableaux[who]
            x = who * COMP_X + CARD_X
            for safety in tab.safeties:
                row = safety - EXTRA_TANK
                self.put(row, x, CARD_NAMES[safety])
                if tab.coups[row]:
                    self.put(row, x - CARD_X, "*")
            if tab.top != NO_CARD:
                self.put(14, x, CARD_NAMES[tab.top])
            if tab.speed_top != NO_CARD:
                self.put(16, x, CARD_NAMES[tab.speed_top])
        if state.target == state.rules.extension:
            self.put(EXT_Y, EXT_X, "Extension", curses.A_STANDOUT)
        self.put(5, 0, "--HAND--")
        self.put(5, 20, "--DECK--")
        self.put(7, 20, "--DISCARD--")
        for x in (0, COMP_X):
            self.put(13, x, "--BATTLE--")
            self.put(15, x, "--SPEED--")
        hand = state.hands[HUMAN]
        for slot in range(HAND_SLOTS):
            self.put(6 + slot, 0, "P" if slot == 0 else str(slot))
            if hand[slot] != NO_CARD:
                self.put(6 + slot, CARD_X, CARD_NAMES[hand[slot]])
        self.put(6, COMP_X + CARD_X, f"{len(state.deck):2d}")
        if state.discard:
            self.put(8, COMP_X + CARD_X, CARD_NAMES[state.discard[-1]])
        if self.last_move is not None:
            what, card = self.last_move
            self.put(MOVE_Y + 1, MOVE_X, what)
            self.put(MOVE_Y + 2, MOVE_X, f"{card:>16}")

    def full_window(self) -> bool:
        return self.session.window_full or self.session.state.phase == OVER

    def tracker_shown(self) -> bool:
        """T is on and the hand is not over (the end of a hand shows the scores)."""
        return self.tracking and self.session.table.phase != OVER

    def draw_score(self) -> None:
        for y in range(SCORE_ROWS):
            self.put(y, SCORE_X, "|")
        self.put(SCORE_ROWS - 1, SCORE_X + 1, "_" * (RIGHT - SCORE_X))
        if self.tracker_shown():
            self.draw_tracker()
        else:
            self.draw_scores()
        if self.message:
            self.put(ERR_Y, ERR_X, escape(self.message)[: RIGHT - ERR_X + 1])
        if self.hint_shown_whole():
            self.draw_whole_hint()

    def hint_shown_whole(self) -> bool:
        """A hint too long for the error line is shown whole (until a key)."""
        return (
            bool(self.whole_hint)
            and self.hinted is not None
            and self.message == self.hinted[1]
            and self.hinted[0] == self.session.table
        )

    def draw_whole_hint(self) -> None:
        """The whole hint in the score window's lower rows, ending on the
        error line (those rows blanked first); the next key gives them back."""
        import textwrap

        lines = textwrap.wrap(self.whole_hint, RIGHT - ERR_X + 1)
        top = ERR_Y - len(lines) + 1
        for y, line in enumerate(lines, start=top):
            self.put(y, SCORE_X + 1, " " * (RIGHT - SCORE_X))
            self.put(y, ERR_X, line)

    def draw_tracker(self) -> None:
        """The card tracker in the score window (rows 0-14): how many of
        each card you have not seen (the deck and the computer's hand)."""
        from ..engine.describe import unseen

        table = self.session.table
        self.put(0, TRACK_X, "Not seen yet (deck and Comp's hand)")
        for index, column in enumerate(tracker_cells(table, 2)):
            for y, cell in enumerate(column, start=TRACK_Y):
                self.put(y, TRACK_X + index * TRACK_COLUMN, cell)
        total = sum(unseen(table))
        self.put(13, TRACK_X, f"{total} cards, {len(table.deck)} of them in the deck")
        self.put(14, TRACK_X, "t or w: scores")

    def draw_scores(self) -> None:
        state = self.session.state
        full = self.full_window()
        labels = SCORE_TOP + (SCORE_FULL if full else SCORE_SMALL)
        for y, x, text in labels:
            self.put(y, SCORE_X + x, text)
        if not full:
            order = "o: stop ordering" if state.ordering else "o: order hand"
            self.put(12, SCORE_X + 21, order)
        for who in (HUMAN, COMPUTER):
            side = who + 1
            score = state.hand_score(side)
            rows = [score.miles, score.safeties, score.all_four, score.coups]
            if full:
                rows += [
                    score.trip,
                    score.safe_trip,
                    score.delayed_action,
                    score.extension,
                    score.shut_out,
                ]
                tail = {11: score.total, 13: state.total(side), 14: state.games[who]}
            else:
                tail = {6: score.total, 8: state.total(side), 9: state.games[who]}
            x = SCORE_X + 21 + 6 * who
            for y, value in enumerate(rows, start=1):
                self.put(y, x, f"{value:4d}")
            for y, value in tail.items():
                self.put(y, x, f"{value:4d}")

    def draw_miles(self) -> None:
        self.put(MILES_Y, 0, "--MILEAGE--")
        self.put(MILES_Y, 41, "--MILEAGE--")
        for who in (HUMAN, COMPUTER):
            seen = [0] * 5
            for card in self.session.state.tableaux[who].miles:
                self.put(MILES_Y + 1 + card, 40 * who + 4 * seen[card], CARD_NAMES[card])
                seen[card] += 1

    def draw_prompt(self) -> None:
        y, x = self.PROMPT_Y, self.PROMPT_X
        attr = curses.A_STANDOUT if self.prompt == MOVE_PROMPT else 0
        self.put(y, x, self.prompt, attr)
        start = x + len(self.prompt) + 1
        room = self.PROMPT_RIGHT + 1 - start
        shown = visible(self.echo)
        if len(shown) + len(self.ghost) >= room:  # keep the end of a long name in view
            shown = shown[len(shown) + len(self.ghost) - room + 1 :]
        self.put(y, start, shown + self.ghost)
        try:
            self.scr.move(y, start + len(shown))
        except curses.error:
            pass

    def redraw(self) -> None:
        """R and ^L: repaint the terminal from scratch."""
        self.scr.clear()
        self.render()

    # ----- messages --------------------------------------------------------

    def error(self, text: str) -> None:
        """Show a message on the error line, with a beep.

        It is drawn before the next key is waited for: at once unless more
        keys are already waiting (a paste), which then cost no redraw each.
        """
        self.message = text
        self.beep()

    def note(self, text: str) -> None:
        self.message = text

    def show_hint(self) -> None:
        """H: the expert's move for you and why, as a note on the error line
        (never played).  The same position gives the same hint, kept so a
        held H asks the expert once."""
        table = self.session.table
        if self.hinted is None or self.hinted[0] != table:
            if not self.pending:
                self.note("hint: thinking...")
                self.render()
            from ..engine.describe import YOU
            from ..players.advice import hint

            try:
                text = hint(self.session.view(YOU))
            except Exception as exc:  # advice must never end the game
                self.hinted = None
                self.error(f"no hint: {escape(str(exc)) or type(exc).__name__}")
                return
            self.hinted = table.copy(), fit_line(text, self.MESSAGE_WIDTH)
            self.hint_text = text
        self.note(self.hinted[1])
        self.whole_hint = self.hint_text if self.hint_text != self.hinted[1] else ""

    def expire_hint(self) -> None:
        """A hint shown for another position (a move, O) leaves the error line."""
        if (
            self.hinted is not None
            and self.message == self.hinted[1]
            and self.hinted[0] != self.session.table
        ):
            self.message = ""

    def toggle_tracker(self) -> None:
        """T: the card tracker on or off."""
        self.tracking = not self.tracking

    def beep(self) -> None:
        self.bell = True  # rung with the next screen update: one per burst of keys

    # ----- keyboard --------------------------------------------------------

    def on_interrupt(self, signum: int, frame: FrameType | None) -> None:
        self.interrupted = True

    def on_stop(self, signum: int, frame: FrameType | None) -> None:
        """SIGHUP, SIGTERM and SIGQUIT (^\\): only a flag; the key reader, or
        the loop between two moves, ends the game."""
        if self.stop is None:
            self.stop = signal_reason(signum)

    def on_winch(self, signum: int, frame: FrameType | None) -> None:
        self.winched = True

    def set_prompt(self, text: str) -> None:
        self.prompt, self.echo, self.ghost = text, "", ""

    def next_byte(self, timeout: float | None = None) -> int | None:
        """The next raw key (a read-ahead one first); None if none came.

        The screen is brought up to date only when there is nothing to
        read at once.
        """
        if self.pending:
            return self.pending.pop(0)
        try:
            key = self.keyboard.poll()
            if key is None:
                self.render()
                key = self.keyboard.wait(timeout)
        except LostTerminal:
            self.stop = "terminal lost"
            return None
        return key

    def read_key(self) -> int:
        """The next key: a byte, or SEQUENCE for a whole escape sequence.

        Acts on what the signal handlers flagged: a hang-up raises Hangup,
        ^C asks ``Really?``, a resize repaints at the new size.
        """
        while True:
            if self.stop is not None:
                raise Hangup(self.stop)
            if self.winched:
                self.winched = False
                self.sync_size()
            if self.interrupted and not self.too_small:
                self.interrupted = False
                if not self.in_really:
                    self.really()
                continue
            key = self.next_byte()
            if key is None:
                continue  # a signal, or polling: look at the flags again
            if key == curses.KEY_RESIZE:
                if self.keyboard.size() is None:  # curses follows the size itself
                    self.resized()
                continue
            if not 0 <= key <= 255 or self.too_small:
                continue  # typing at the notice
            if self.interrupted and not self.in_really:
                self.pending.insert(0, key)  # ^C came first: Really? gets this key
                continue
            if key == CTRL_C:  # only if the tty does not turn it into SIGINT
                self.interrupted = True
                continue
            self.whole_hint = ""  # the next key gives the score window back
            if key == ESC:
                return self.escape_sequence()
            return key

    def escape_sequence(self) -> int:
        """After ESC: a CSI (``ESC [ ...``) or SS3 (``ESC O x``) sequence, as
        arrow and function keys send, read whole: SEQUENCE.  A lone ESC
        (nothing else within ESC_WAIT) is ESC."""
        first = self.next_byte(ESC_WAIT)
        if first is None:
            return ESC
        if first not in (ord("["), ord("O")):
            self.pending.insert(0, first)
            return ESC
        seq = bytearray((ESC, first))
        while len(seq) < SEQUENCE_MAX:
            key = self.next_byte(ESC_WAIT)
            if key is None:
                break
            if first == ord("[") and 0x20 <= key <= 0x3F:  # parameters, intermediates
                seq.append(key)
                continue
            if 0x40 <= key <= 0x7E:  # the final byte
                seq.append(key)
            else:  # not part of it: read it again on its own
                self.pending.insert(0, key)
            break
        self.sequence = bytes(seq)
        return SEQUENCE

    def key_text(self, key: int) -> str:
        """A key as messages show it: ``X``, ``^X``, ``^[[D`` for a sequence."""
        if key == SEQUENCE:
            return "".join(key_name(byte) for byte in self.sequence)
        return key_name(key)

    def sync_size(self) -> None:
        """Follow the terminal's size (after SIGWINCH) and repaint it all."""
        size = self.keyboard.size()
        if size is not None and size != self.scr.getmaxyx():
            try:
                curses.resizeterm(*size)
            except curses.error:
                pass
        self.resized()

    def resized(self) -> None:
        height, width = self.scr.getmaxyx()
        self.too_small = height < MIN_LINES or width < MIN_COLS
        self.scr.clear()  # the next update repaints every cell, at this size

    def really(self) -> None:
        """Q and ^C: ask ``Really?``; yes leaves the program."""
        kept = self.prompt, self.echo, self.ghost, self.helping
        self.in_really = True
        self.helping = False
        try:
            flow.really(self)
        finally:
            self.in_really = False
        self.prompt, self.echo, self.ghost, self.helping = kept

    def ask(self, question: str, can_save: bool = True) -> bool:
        """A yes/no prompt (``flow.ask``); S saves (then asks again), ^L
        redraws.  In the save dialogue (``can_save=False``) S only beeps."""
        return flow.ask(self, question, can_save)

    def read_answer(self, question: str, can_save: bool) -> str:
        """One key at ``question``: ``y``, ``n``, ``s``, or ``""`` for what
        was done here (H, T, L, ^L, a beep)."""
        self.set_prompt(question)
        key = self.read_key()
        if key in (ord("y"), ord("Y")):
            self.echo = "Y"
            return "y"
        if key in (ord("n"), ord("N")):
            self.echo = "N"
            return "n"
        if can_save and key in (ord("s"), ord("S")):
            self.echo = "S"
            return "s"
        if question in HINT_QUESTIONS and key in (ord("h"), ord("H")):
            self.show_hint()
        elif question in HINT_QUESTIONS and key in (ord("t"), ord("T")):
            self.toggle_tracker()
        elif question in LOG_QUESTIONS and key in (ord("l"), ord("L")):
            self.show_log()
        elif key == CTRL_L:
            self.redraw()
        else:
            self.beep()
        return ""

    def read_slot(self) -> int | None:
        """After U or D: the slot (P/0, 1-6) and a confirming RETURN or SPACE.

        Erase takes the slot back (erase before a slot, or ^U, abandons the
        command: None).
        """
        while True:
            key = self.read_key()
            if key in (RETURN, NEWLINE, SPACE):
                continue
            if is_erase(key) or is_kill(key):
                return None
            char = chr(key).upper() if key < 128 else ""
            if char and char in "P0123456":
                slot = 0 if char in "P0" else int(char)
                self.ghost = ""
                self.echo += char
                while True:
                    key = self.read_key()
                    if key in (RETURN, NEWLINE, SPACE):
                        return slot
                    if is_kill(key):
                        return None
                    if is_erase(key):
                        self.echo = self.echo[:-1]
                        break
                    self.beep()
            else:
                self.ghost = self.key_text(ord(char) if char else key)
                self.beep()

    def read_name(self) -> str:
        """The ``file:`` prompt: a line with erase and kill; RETURN ends it.

        At most NAME_MAX bytes (BSD's buffer is 256 bytes): more keys beep,
        as do escape sequences.  Linear in the keys typed or pasted.
        """
        self.set_prompt("file:")
        typed = bytearray()
        while True:
            key = self.read_key()
            if key in (RETURN, NEWLINE):
                break
            if is_erase(key):
                while typed and 0x80 <= typed[-1] < 0xC0:  # a whole UTF-8 character
                    typed.pop()
                if typed:
                    typed.pop()
            elif is_kill(key):
                typed.clear()
            elif 0 <= key < 256 and len(typed) < NAME_MAX:
                typed.append(key)
            else:
                self.beep()
                continue
            self.echo = shown_name(bytes(typed), self.encoding)
        return os.fsdecode(bytes(typed))

    def show_help(self) -> None:
        """``?``: the keys and the rules on one screen, until a key."""
        self.helping = True
        try:
            self.read_key()
        finally:
            self.helping = False

    def log_lines_whole(self) -> list[str]:
        """L: every move of this hand since the deal, in the log's words."""
        import textwrap

        from ..engine.describe import hand_lines

        table = self.session.table
        width = self.scr.getmaxyx()[1] - 1
        return [
            row
            for line in hand_lines(table, self.session.log)
            for row in textwrap.wrap(escape(line), width, subsequent_indent="  ") or [""]
        ]

    def show_log(self) -> None:
        """L: the whole hand so far, full screen, from its end; up/down,
        PgUp/PgDn, space and b, Home/End scroll; q, ESC or L leave."""
        self.viewing = self.log_lines_whole()
        self.view_top = max(len(self.viewing) - self.view_rows(), 0)
        try:
            while True:
                key = self.read_key()
                rows = self.view_rows()
                bottom = max(len(self.viewing) - rows, 0)
                char = chr(key).lower() if key < 128 else ""
                seq = self.sequence if key == SEQUENCE else b""
                if char in ("q", "l") or key == ESC:
                    return
                if seq in VIEW_UP or char == "k":
                    step = -1
                elif seq in VIEW_DOWN or char == "j" or key in (RETURN, NEWLINE):
                    step = 1
                elif seq in VIEW_PAGE_UP or char == "b":
                    step = -rows
                elif seq in VIEW_PAGE_DOWN or key == SPACE or char == "f":
                    step = rows
                elif seq in VIEW_HOME or key == ord("g"):
                    step = -len(self.viewing)
                elif seq in VIEW_END or key == ord("G"):
                    step = len(self.viewing)
                elif key == CTRL_L:
                    self.redraw()
                    continue
                else:
                    self.beep()
                    continue
                self.view_top = min(max(self.view_top + step, 0), bottom)
        finally:
            self.viewing = None

    # ----- commands --------------------------------------------------------

    def get_move(self) -> Move | None:
        """Read one command at ``>>:Move:``; a move to make, or None if the
        command was done here (O changes the hand, so the caller redraws)."""
        while True:
            self.set_prompt(MOVE_PROMPT)
            key = self.read_key()
            if is_erase(key) or is_kill(key):
                continue
            char = chr(key).upper() if key < 128 else ""
            if char and char.isprintable() and not char.isspace() and char != "?":
                self.echo = char
            if char == "P":
                return PICK
            if char and char in "UD":
                slot = self.read_slot()
                move = (
                    None if slot is None else self.use(slot) if char == "U" else self.discard(slot)
                )
                if move is None:
                    continue
                return move
            if char == "O":
                state = self.session.state
                state.set_ordering(not state.ordering)
                return None
            if char == "Q":
                self.really()
            elif char == "W":
                if self.TRACKER_HIDES_SCORES and self.tracker_shown():
                    self.tracking = False  # back to the scores, as T
                else:
                    self.session.window_full = not self.session.window_full
                    self.message = ""  # BSD clears the score window's bottom rows
            elif char == "H":
                self.show_hint()
            elif char == "T":
                self.toggle_tracker()
            elif char == "R" or key == CTRL_L:
                self.redraw()
            elif char == "S":
                self.save()
            elif char == "E":
                self.error("E: command not implemented")
            elif char == "?":
                self.show_help()
            elif char == "L":
                self.show_log()
            elif key in (RETURN, NEWLINE, SPACE, 0):
                pass
            else:
                self.error(f"unknown command: {self.key_text(ord(char) if char else key)}")

    def use(self, slot: int) -> Move | None:
        """The move for ``U`` and a slot (None: the command was abandoned).

        BSD's game has one opponent, so a hazard needs no target.
        """
        return Use(slot)

    def discard(self, slot: int) -> Move | None:
        """The move for ``D`` and a slot (None: the command was abandoned).

        (A safety the rules let you discard, not BSD's, then asks ``Discard
        a safety?``: :func:`mille.frontends.flow.human_turn`.)
        """
        return Discard(slot)

    def save(self) -> bool:
        """BSD's save dialogue (``flow.save``); True if the game was written."""
        return flow.save(self)

    def read_file_name(self) -> str:
        return self.read_name()

    def save_failed(self, reason: str) -> None:
        self.error(reason)

    def saved_to(self, name: str, when: str) -> None:
        self.note(f"{name} [{when}]")

    # ----- the game (driven by flow.run) -------------------------------------

    def introduce(self) -> None:
        """Nothing to say first: the board itself shows the game."""

    def resumed_at_end(self) -> None:
        note = self.message  # the restored file's name and date
        self.new_hand()  # saved at an end-of-hand prompt: deal the next one
        self.message = note

    def started(self) -> None:
        self.sync_size()
        self.render()

    def checkpoint(self) -> None:
        """Between two moves: a hang-up is seen after the move under way
        (the computers move a while); ^C waits for the next key."""
        if self.stop is not None:
            raise Hangup(self.stop)

    def computer_thinks(self) -> None:
        pass

    def computer_moved(self, outcome: Outcome) -> None:
        if not self.keep_note:  # a restore note stays until the player has moved
            self.message = ""
        if not isinstance(outcome.move, Pick):
            what = "DISCARD" if isinstance(outcome.move, Discard) else "PLAY"
            self.last_move = (what, CARD_NAMES[outcome.card])

    def human_turn(self) -> None:
        self.keep_note = False  # the computer's next move clears the note

    def read_move(self) -> Move | None:
        return self.get_move()

    def refused(self, reason: str) -> None:
        self.error(reason)

    def played(self) -> None:
        pass

    def moved(self) -> None:
        pass

    def question(self, question: str) -> None:
        pass

    def new_hand(self) -> None:
        self.session.next_hand()
        self.last_move = None
        self.message = ""

    def hand_over(self) -> None:
        self.message = ""  # the score window switches layout, as in BSD

    def end_of_hand(self) -> None:
        """The end of a hand (``flow.finish_hand``): Quit when done."""
        flow.finish_hand(self)

    def go_on_after_failed_save(self) -> None:
        reason = self.message
        self.new_hand()
        self.message = reason  # why the game goes on stays in view

    def step(self) -> None:
        """One move, prompt or decision, whichever the game needs next."""
        flow.step(self)

    def run(self) -> None:
        """Play until the player quits (returns) or is gone (Hangup)."""
        flow.run(self)


# ----- the program ----------------------------------------------------------


def install(ui: Ui) -> list[Callable[[], None]]:
    """Route signals to ``ui`` and give it its keyboard; what undoes it.

    Handlers only set flags.  POSIX-only names (SIGHUP, SIGWINCH) are used
    only where the system has them.  On a POSIX terminal the keyboard waits
    with ``select`` on the terminal and the signal wake-up pipe, and mille
    follows the terminal's size itself (its own SIGWINCH handler); elsewhere
    (Windows) curses polls and reports resizes.
    """
    undo: list[Callable[[], None]] = []

    def handle(signum: int, handler: Callable[[int, FrameType | None], None]) -> None:
        previous = signal.signal(signum, handler)
        kept = signal.SIG_DFL if previous is None else previous  # None: a C handler

        def restore() -> None:
            signal.signal(signum, kept)

        undo.append(restore)

    handle(signal.SIGINT, ui.on_interrupt)
    for name in ("SIGTERM", "SIGHUP", "SIGQUIT"):
        signum = getattr(signal, name, None)
        if signum is not None:
            handle(signum, ui.on_stop)
    winch = getattr(signal, "SIGWINCH", None)
    set_wakeup_fd = getattr(signal, "set_wakeup_fd", None)
    if os.name == "posix" and winch is not None and set_wakeup_fd is not None:
        import sys

        read_end, write_end = os.pipe()
        try:
            for fd in (read_end, write_end):
                os.set_blocking(fd, False)
            previous_fd = set_wakeup_fd(write_end)
            keyboard = TtyKeyboard(ui.scr, sys.stdin.fileno(), read_end)
        except (OSError, ValueError):  # not the main thread, no stdin, ...
            os.close(read_end)
            os.close(write_end)
        else:

            def close() -> None:
                set_wakeup_fd(previous_fd)
                os.close(read_end)
                os.close(write_end)

            undo.append(close)
            ui.keyboard = keyboard
            handle(winch, ui.on_winch)
            release_exit_signals()
            return undo
    ui.keyboard = WindowKeyboard(ui.scr, POLL_MS)
    release_exit_signals()
    return undo


def release_exit_signals() -> None:
    """The handlers are in place: the exit signals held back while a
    resumed game had no recovery file may come (see mille.storage.recovery)."""
    from ..storage.recovery import hold_exit_signals

    hold_exit_signals(False)


def keep(session: Session, reason: str) -> str:
    """Write the game to the recovery file; the line to tell the player."""
    from ..storage import recovery

    try:
        path = recovery.write(session)
    except OSError as exc:
        return f"mille: {reason}; the game could not be kept: {escape(exc.strerror or str(exc))}"
    except Exception as exc:  # whatever happens, the terminal is restored after
        return (
            f"mille: {reason}; the game could not be kept: {type(exc).__name__}: {escape(str(exc))}"
        )
    return f"mille: {reason}; the game is kept in {escape(path)}"


def terminal_problem() -> str | None:
    """Why curses cannot drive this terminal, or None if it can.

    Asked before ``initscr``: an unknown TERM has no terminfo entry, and on
    a terminal without cursor addressing (TERM=dumb) ncurses' ``initscr``
    draws garbage.  Where terminfo cannot be asked (Windows), None.
    """
    setupterm = getattr(curses, "setupterm", None)
    tigetstr = getattr(curses, "tigetstr", None)
    if os.name != "posix" or setupterm is None or tigetstr is None:
        return None
    try:
        setupterm()  # $TERM, on standard output
    except curses.error as exc:
        return str(exc) or "no terminfo entry"
    if not tigetstr("cup"):
        return "it cannot move the cursor"
    return None


def cannot_use_terminal(reason: str) -> int:
    """Say why the board cannot start (one line on stderr); exit status 1."""
    import sys

    term = os.environ.get("TERM", "")
    line = f"mille: cannot use the terminal (TERM={term!r}): {reason}; try mille --plain"
    try:
        print(escape(line), file=sys.stderr)
    except (OSError, ValueError):  # stderr is gone too
        pass
    return 1
