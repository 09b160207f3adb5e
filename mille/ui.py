"""The curses board and the command loop, drawn the way BSD mille draws them.

The screen is 80x24 and has three regions, as in BSD:

* the board (columns 0-39): safeties, your hand, deck, discard pile,
  battle and speed tops, the prompt line and the computer's last move;
* the score window (columns 40-79, rows 0-16) with its ``|`` border, the
  small or full score table and the error line (row 15, column 45);
* the mileage area (rows 17-23): one column per distance card played.

Every frame is drawn whole from the game state plus a little UI state (the
prompt, what was typed, the error line, the computer's last move); curses
sends only what changed.  Keys are read byte by byte (no keypad
translation) so the command language behaves like BSD's ``readch``.
"""

from __future__ import annotations

import curses
import signal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import FrameType
    from typing import Any, NoReturn

from .cards import CARD_NAMES, EXTRA_TANK, HAND_SLOTS, NO_CARD
from .engine import (
    COMPUTER,
    EXTENDED_END,
    HUMAN,
    PICK,
    Discard,
    IllegalMove,
    Move,
    Phase,
    Use,
)
from .session import Session

MIN_LINES = 24
MIN_COLS = 80
TOO_SMALL = "Screen must be at least 24x80"

# Board (BSD's Board window) coordinates.
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

CTRL_C, CTRL_L, CTRL_U = 3, 12, 21
BACKSPACE, DELETE = 8, 127
RETURN, NEWLINE, SPACE = 13, 10, 32

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


class Quit(Exception):
    """Leave the program normally (exit status 0)."""


def key_name(key: int) -> str:
    """How BSD's ``unctrl`` shows a key byte: ``A``, ``^X``, ``^?``, ``M-a``."""
    if not 0 <= key <= 255:
        return f"<{key}>"
    if key >= 128:
        return "M-" + key_name(key - 128)
    if key < 32:
        return "^" + chr(key + 64)
    return "^?" if key == DELETE else chr(key)


def is_erase(key: int) -> bool:
    return key in (BACKSPACE, DELETE, curses.KEY_BACKSPACE)


def is_kill(key: int) -> bool:
    return key == CTRL_U


def visible(text: str) -> str:
    """Text as the screen shows it: control characters as ``^X``."""
    return "".join(key_name(ord(ch)) if ch < " " or ch == "\x7f" else ch for ch in text)


class Ui:
    """The screen and keyboard for one run of the program."""

    def __init__(self, scr: curses.window, session: Session, message: str = "") -> None:
        self.scr = scr
        self.session = session
        self.message = message  # the error line's text
        self.prompt = MOVE_PROMPT
        self.echo = ""  # what was typed after the prompt
        self.ghost = ""  # a refused slot key, shown until overwritten (as BSD)
        self.last_move: tuple[str, str] | None = None  # computer's PLAY/DISCARD, card
        self.interrupted = False
        self.in_really = False
        self.saved = False  # the last yes/no prompt saved the game (BSD's Saved)
        self.too_small = False

    # ----- drawing ---------------------------------------------------------

    def put(self, y: int, x: int, text: str, attr: int = 0) -> None:
        """Write text, silently clipped to the screen."""
        height, width = self.scr.getmaxyx()
        if y >= height or x >= width:
            return
        text = text[: width - x]
        if y == height - 1 and x + len(text) >= width:
            text = text[: width - x - 1]  # never the bottom-right cell
        if text:
            try:
                self.scr.addstr(y, x, text, attr)
            except curses.error:
                pass

    def render(self) -> None:
        """Draw the whole screen from the state; curses sends the changes."""
        scr = self.scr
        scr.erase()
        if self.too_small:
            self.put(0, 0, TOO_SMALL)
            scr.refresh()
            return
        self.draw_board()
        self.draw_score()
        self.draw_miles()
        self.draw_prompt()
        scr.refresh()

    def draw_board(self) -> None:
        state = self.session.state
        for who in (HUMAN, COMPUTER):
            p = state.players[who]
            x = who * COMP_X + CARD_X
            for safety in p.safeties:
                row = safety - EXTRA_TANK
                self.put(row, x, CARD_NAMES[safety])
                if p.coups[row]:
                    self.put(row, x - CARD_X, "*")
            if p.battle != NO_CARD:
                self.put(14, x, CARD_NAMES[p.battle])
            if p.speed != NO_CARD:
                self.put(16, x, CARD_NAMES[p.speed])
        if state.end == EXTENDED_END:
            self.put(EXT_Y, EXT_X, "Extension", curses.A_STANDOUT)
        self.put(5, 0, "--HAND--")
        self.put(5, 20, "--DECK--")
        self.put(7, 20, "--DISCARD--")
        for x in (0, COMP_X):
            self.put(13, x, "--BATTLE--")
            self.put(15, x, "--SPEED--")
        hand = state.players[HUMAN].hand
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
        return self.session.window_full or self.session.state.phase is Phase.HAND_OVER

    def draw_score(self) -> None:
        state = self.session.state
        full = self.full_window()
        for y in range(SCORE_ROWS):
            self.put(y, SCORE_X, "|")
        self.put(SCORE_ROWS - 1, SCORE_X + 1, "_" * (RIGHT - SCORE_X))
        labels = SCORE_TOP + (SCORE_FULL if full else SCORE_SMALL)
        for y, x, text in labels:
            self.put(y, SCORE_X + x, text)
        if not full:
            order = "o: stop ordering" if state.ordering else "o: order hand"
            self.put(12, SCORE_X + 21, order)
        for who in (HUMAN, COMPUTER):
            score = state.hand_score(who)
            rows = [score.miles, score.safeties, score.all_four, score.coups]
            if full:
                rows += [score.trip, score.safe_trip, score.delayed_action,
                         score.extension, score.shut_out]
                tail = {11: score.total, 13: state.total(who), 14: state.players[who].games}
            else:
                tail = {6: score.total, 8: state.total(who), 9: state.players[who].games}
            x = SCORE_X + 21 + 6 * who
            for y, value in enumerate(rows, start=1):
                self.put(y, x, f"{value:4d}")
            for y, value in tail.items():
                self.put(y, x, f"{value:4d}")
        if self.message:
            self.put(ERR_Y, ERR_X, self.message[: RIGHT - ERR_X + 1])

    def draw_miles(self) -> None:
        self.put(MILES_Y, 0, "--MILEAGE--")
        self.put(MILES_Y, 41, "--MILEAGE--")
        for who in (HUMAN, COMPUTER):
            seen = [0] * 5
            for card in self.session.state.players[who].miles:
                self.put(MILES_Y + 1 + card, 40 * who + 4 * seen[card], CARD_NAMES[card])
                seen[card] += 1

    def draw_prompt(self) -> None:
        attr = curses.A_STANDOUT if self.prompt == MOVE_PROMPT else 0
        self.put(MOVE_Y, MOVE_X, self.prompt, attr)
        start = MOVE_X + len(self.prompt) + 1
        room = BOARD_RIGHT + 1 - start
        shown = visible(self.echo)
        if len(shown) + len(self.ghost) >= room:  # keep the end of a long name in view
            shown = shown[len(shown) + len(self.ghost) - room + 1:]
        self.put(MOVE_Y, start, shown + self.ghost)
        try:
            self.scr.move(MOVE_Y, start + len(shown))
        except curses.error:
            pass

    def redraw(self) -> None:
        """R and ^L: repaint the terminal from scratch."""
        self.scr.clear()
        self.render()

    # ----- messages --------------------------------------------------------

    def error(self, text: str) -> None:
        """Show a message on the error line at once, with a beep."""
        self.message = text
        self.beep()
        self.render()

    def note(self, text: str) -> None:
        self.message = text
        self.render()

    def beep(self) -> None:
        try:
            curses.beep()
        except curses.error:
            pass

    # ----- keyboard --------------------------------------------------------

    def on_interrupt(self, signum: int, frame: FrameType | None) -> None:
        self.interrupted = True

    def set_prompt(self, text: str) -> None:
        self.prompt, self.echo, self.ghost = text, "", ""

    def read_key(self) -> int:
        """The next key byte; handles ^C (Really?) and terminal resizes."""
        while True:
            if self.interrupted and not self.too_small:
                self.interrupted = False
                if not self.in_really:
                    self.really()
                continue
            self.render()
            key = self.scr.getch()
            if key == curses.KEY_RESIZE:
                self.resized()
                continue
            if key < 0 or self.too_small:
                continue  # an interrupted read, or typing at the notice
            if self.interrupted and not self.in_really:
                curses.ungetch(key)  # ^C came first: Really? gets this key
                continue
            if key == CTRL_C:  # only if the tty does not turn it into SIGINT
                self.interrupted = True
                continue
            return key

    def resized(self) -> None:
        height, width = self.scr.getmaxyx()
        small = height < MIN_LINES or width < MIN_COLS
        if self.too_small and not small:
            self.scr.clear()  # a full repaint once it is big enough again
        self.too_small = small

    def really(self) -> None:
        """Q and ^C: ask ``Really?``; yes leaves the program."""
        kept = self.prompt, self.echo, self.ghost
        self.in_really = True
        try:
            if self.ask("Really?"):
                raise Quit
        finally:
            self.in_really = False
        self.prompt, self.echo, self.ghost = kept

    def ask(self, question: str) -> bool:
        """A yes/no prompt; S saves (then asks again), ^L redraws."""
        saved = False
        while True:
            self.set_prompt(question)
            key = self.read_key()
            if key in (ord("y"), ord("Y")):
                self.echo = "Y"
                self.saved = saved
                return True
            if key in (ord("n"), ord("N")):
                self.echo = "N"
                self.saved = saved
                return False
            if key in (ord("s"), ord("S")):
                self.echo = "S"
                saved = self.save()
            elif key == CTRL_L:
                self.redraw()
            else:
                self.beep()

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
                self.ghost = key_name(ord(char) if char else key)
                self.beep()

    def read_name(self) -> str:
        """The ``file:`` prompt: a line with erase and kill; RETURN ends it."""
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
            elif 0 <= key < 256:
                typed.append(key)
            self.echo = typed.decode("utf-8", "replace")
        import os

        return os.fsdecode(bytes(typed))

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
            if char and char.isprintable() and not char.isspace():
                self.echo = char
            if char == "P":
                return PICK
            if char and char in "UD":
                slot = self.read_slot()
                if slot is None:
                    continue
                return Use(slot) if char == "U" else Discard(slot)
            if char == "O":
                state = self.session.state
                state.set_ordering(not state.ordering)
                return None
            if char == "Q":
                self.really()
            elif char == "W":
                self.session.window_full = not self.session.window_full
                self.message = ""  # BSD clears the score window's bottom rows
            elif char == "R" or key == CTRL_L:
                self.redraw()
            elif char == "S":
                self.save()
            elif char == "E":
                self.error("E: command not implemented")
            elif key in (RETURN, NEWLINE, SPACE, 0):
                pass
            else:
                self.error(f"unknown command: {key_name(ord(char) if char else key)}")

    def save(self) -> bool:
        """BSD's save dialogue; True if the game was written."""
        session = self.session
        source = session.source
        if source and self.ask("Same file?"):
            name = source
        else:
            name = self.read_name()
            if not name:
                return False
            import os

            if name != source and os.path.exists(name) and not self.ask("Overwrite file?"):
                return False
        try:
            from . import savefile
        except ImportError:
            self.error("saving is not available")
            return False
        try:
            savefile.save_session(session, name)
        except OSError as exc:
            self.error(exc.strerror or str(exc))
            return False
        except Exception as exc:  # a save must never end the game
            self.error(str(exc) or type(exc).__name__)
            return False
        import time

        # as in BSD, only a game restored from a file asks "Same file?"
        self.note(f"{name} [{time.ctime()}]")
        return True

    # ----- the game --------------------------------------------------------

    def human_turn(self) -> None:
        move = self.get_move()
        if move is None:
            return
        try:
            self.session.play(move)
        except IllegalMove as exc:
            self.error(str(exc))

    def computer_turn(self) -> None:
        result = self.session.computer_move()
        self.message = ""
        if not isinstance(result.move, type(PICK)):
            what = "DISCARD" if isinstance(result.move, Discard) else "PLAY"
            self.last_move = (what, CARD_NAMES[result.card])

    def new_hand(self) -> None:
        self.session.next_hand()
        self.last_move = None
        self.message = ""

    def end_of_hand(self) -> None:
        state = self.session.state
        self.message = ""  # the score window switches layout, as in BSD
        if self.ask("Another game?" if state.game_over else "Another hand?"):
            self.new_hand()
            return
        if not self.saved and self.ask("Save game?"):
            if not self.save():
                reason = self.message
                self.new_hand()
                self.message = reason  # why the game goes on stays in view
                return
        raise Quit

    def step(self) -> None:
        """One move, prompt or decision, whichever the game needs next."""
        state = self.session.state
        if state.phase is Phase.PLAYING:
            if self.session.computer_to_move:
                self.computer_turn()
            else:
                self.human_turn()
        elif state.phase is Phase.EXTENSION:
            if state.extender == HUMAN:
                state.decide_extension(self.ask("Extension?"))
            else:  # the session decides for the computer; never left pending
                state.decide_extension(False)
        else:
            self.end_of_hand()

    def run(self) -> None:
        if self.session.state.phase is Phase.HAND_OVER:
            note = self.message  # the restored file's name and date
            self.new_hand()  # saved at an end-of-hand prompt: deal the next one
            self.message = note
        self.resized()
        self.render()
        try:
            while True:
                self.step()
        except Quit:
            pass


def _terminate(signum: int, frame: FrameType | None) -> NoReturn:
    raise SystemExit(1)


def play(session: Session, message: str = "") -> int:
    """Run the game in the terminal; returns the exit status.

    The terminal is restored however this returns or raises.
    """
    try:
        scr = curses.initscr()
    except curses.error as exc:  # no terminfo entry for $TERM, or the like
        import os
        import sys

        term = os.environ.get("TERM", "")
        print(f"mille: cannot use the terminal (TERM={term!r}): {exc}", file=sys.stderr)
        return 1
    handlers: dict[signal.Signals, Any] = {}
    try:
        lines, cols = scr.getmaxyx()
        if lines < MIN_LINES or cols < MIN_COLS:
            curses.endwin()
            import sys

            print(TOO_SMALL, file=sys.stderr)
            return 1
        curses.noecho()
        curses.cbreak()
        scr.keypad(False)
        ui = Ui(scr, session, message)
        handlers[signal.SIGINT] = signal.signal(signal.SIGINT, ui.on_interrupt)
        for sig in (signal.SIGTERM, signal.SIGHUP):
            handlers[sig] = signal.signal(sig, _terminate)
        ui.run()
        return 0
    finally:
        if not curses.isendwin():
            try:
                scr.move(MIN_LINES - 1, 0)
                scr.refresh()
            except curses.error:
                pass
            curses.endwin()
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
