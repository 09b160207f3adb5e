"""The curses boards' dialogues: the keys, the prompts and the commands,
the way BSD mille reads them, and what the game flow asks of a board.

:class:`Ui` is a :class:`mille.frontends.flow.Front` for the game flow
(:func:`mille.frontends.flow.run`).  It reads keys through a
:class:`~mille.frontends.curses_keys.KeyReader` and shows everything through its
screen, a drawer that reads the session (:class:`~mille.frontends.bsd_screen.BsdBoard`
for BSD's board; the board of the other presets,
:class:`mille.frontends.table_ui.TableUi`, has its own).  Keys are read byte
by byte (no keypad translation) so the command language behaves like BSD's
``readch``; an escape sequence (an arrow or function key) is read whole and
refused as one unknown key.  The screen is brought up to date only when no
key is waiting, so a paste or a held key costs no redraw per byte.

H puts a hint on the error line (the expert's move and why; it is never
played; one too long for the error line is shown whole in the score
window's lower rows until the next key), T toggles the card tracker, L
shows the whole hand so far (full screen, scrollable) and ? a page of help:
none is in BSD mille, and with none pressed the screen is BSD's.

Signals only set flags: the key reader acts on them between keys, so a
signal never cuts a save or a redraw in half.  ^C asks ``Really?``; a
hang-up, SIGTERM, ^\\ (SIGQUIT) or a terminal that is gone (100 failed
reads in a row, as BSD's ``readch``) ends the game with
:class:`~mille.frontends.flow.Hangup`, and the runner
(:func:`mille.frontends.tui.play`) keeps it in the recovery file.  The
game loop looks at the flags between two moves too, so a hang-up while the
computers move is seen after the move under way, not after all of them.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    import curses
    from types import FrameType

    from ..game.protocol import Game

from ..engine.table import PICK, Discard, Move, Outcome, Use
from ..i18n import N_, _
from ..storage.recovery import signal_reason
from . import flow
from .bsd_screen import BsdBoard
from .commands import yes_no_key
from .curses_keys import (
    CTRL_C,
    CTRL_L,
    ESC,
    NEWLINE,
    RESIZE,
    RETURN,
    SEQUENCE,
    SPACE,
    Keyboard,
    KeyReader,
    WindowKeyboard,
    is_erase,
    is_kill,
    shown_name,
)
from .questions import HINTS, LOG, Question
from .recorder import Recorder
from .screen import MOVE_PROMPT, Screen, fit_line

# (the prompts and the error line keep the English, the screen shows them translated)
PAUSE_PROMPT = N_("Your side was hit: press a key")  # a person handed the keyboard for nothing

WELCOME = N_("? help  H hint  T tracker  L log")  # a first run, until the first key
NO_TABLE = N_("J: the table of a network game")
NO_CHAT = N_("C: chat is for a network game")
NAME_MAX = 255  # bytes in a file: name (BSD reads it into 256 bytes; 255 is NAME_MAX)

# L's keys to scroll the hand so far
VIEW_UP = (b"\x1b[A", b"\x1bOA")
VIEW_DOWN = (b"\x1b[B", b"\x1bOB")
VIEW_PAGE_UP = (b"\x1b[5~",)
VIEW_PAGE_DOWN = (b"\x1b[6~",)
VIEW_HOME = (b"\x1b[H", b"\x1bOH", b"\x1b[1~", b"\x1b[7~")
VIEW_END = (b"\x1b[F", b"\x1bOF", b"\x1b[4~", b"\x1b[8~")

Quit = flow.Quit  # leave the program normally (exit status 0)
Hangup = flow.Hangup  # raised by the key reader or between two moves, never mid-save


class Ui:
    """BSD's board for one run of the program: its keys and dialogues.

    What the screen shows is its ``screen``'s (a :class:`Screen` made from
    ``SCREEN``), keys come through ``keys``.  The board of the other presets
    (:class:`mille.frontends.table_ui.TableUi`) keeps all of this but its
    screen, asks for a hazard's side and shows the computers thinking.
    """

    SCREEN: type[Screen] = BsdBoard
    save_after_game = True  # BSD asks Save game? after Another game? n too
    save_again = False  # a failed save at a hand's end plays on, as BSD's die() returns
    file_asked = ""  # the file the save dialogue was last given

    def __init__(
        self,
        scr: curses.window,
        session: Game,
        message: str = "",
        keyboard: Keyboard | None = None,
    ) -> None:
        self.scr = scr
        self.session = session
        self.screen = self.SCREEN(scr, session, message)
        self.keys = KeyReader(
            WindowKeyboard(scr) if keyboard is None else keyboard, self.render, self.lose_terminal
        )
        self.keep_note = bool(message)  # a restore note stays until the player moves
        self.interrupted = False  # ^C (SIGINT) seen, Really? not asked yet
        self.stop: str | None = None  # why the game must be kept and left
        self.winched = False  # SIGWINCH seen: the terminal's size may have changed
        self.in_really = False
        self.saved = False  # the last yes/no prompt saved the game (BSD's Saved)
        self.welcoming = False  # WELCOME is on the error line until the first key
        self.heard = False  # news from elsewhere (the host) woke the key reader
        self.recorder = Recorder()  # the record of the games played here

    # ----- the screen ------------------------------------------------------

    @property
    def seat(self) -> int:
        """The seat shown (a person's); a hot seat hands it on (:meth:`hand_off`)."""
        return self.screen.seat

    @seat.setter
    def seat(self, seat: int) -> None:
        self.screen.seat = seat

    def render(self) -> None:
        """Draw the whole screen from the state; curses sends the changes."""
        self.screen.render()

    def redraw(self) -> None:
        """R and ^L: repaint the terminal from scratch."""
        self.screen.redraw()

    def set_prompt(self, text: str) -> None:
        self.screen.set_prompt(text)

    def error(self, text: str) -> None:
        """Show a message on the error line, with a beep.

        It is drawn before the next key is waited for: at once unless more
        keys are already waiting (a paste), which then cost no redraw each.
        """
        self.screen.message = text
        self.beep()

    def note(self, text: str) -> None:
        self.screen.message = text

    def beep(self) -> None:
        self.screen.beep()

    def show_hint(self) -> None:
        """H: the expert's move for you and why, as a note on the error line
        (never played).  The same position gives the same hint, kept so a
        held H asks the expert once."""
        screen = self.screen
        table = self.session.table
        if screen.hinted is None or screen.hinted[0] != table:
            if not self.keys.pending:
                self.note(N_("hint: thinking..."))
                self.render()
            text, advised = flow.hint(self.session.view(self.seat))
            if not advised:
                screen.hinted = None
                self.error(text)
                return
            screen.hinted = table.copy(), fit_line(text, screen.MESSAGE_WIDTH)
            screen.hint_text = text
        self.note(screen.hinted[1])
        screen.whole_hint = screen.hint_text if screen.hint_text != screen.hinted[1] else ""

    def toggle_tracker(self) -> None:
        """T: the card tracker on or off."""
        self.screen.tracking = not self.screen.tracking

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

    def lose_terminal(self) -> None:
        """The keyboard finds the terminal gone: the game is kept and left."""
        self.stop = N_("terminal lost")

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
            if self.heard:
                self.heard = False
                self.take_news()
            if self.interrupted and not self.screen.too_small:
                self.interrupted = False
                if not self.in_really:
                    self.really()
                continue
            key = self.keys.next_byte()
            if key is None:
                continue  # a signal, or polling: look at the flags again
            if key == RESIZE:
                if self.keys.keyboard.size() is None:  # curses follows the size itself
                    self.screen.resized()
                continue
            if not 0 <= key <= 255 or self.screen.too_small:
                continue  # typing at the notice
            if self.interrupted and not self.in_really:
                self.keys.unread(key)  # ^C came first: Really? gets this key
                continue
            if key == CTRL_C:  # only if the tty does not turn it into SIGINT
                self.interrupted = True
                continue
            self.screen.whole_hint = ""  # the next key gives the score window back
            if self.welcoming:  # the first key takes the first run's line away
                self.welcoming = False
                if self.screen.message == WELCOME:
                    self.screen.message = ""
            if key == ESC:
                return self.keys.escape_sequence()
            return key

    def sync_size(self) -> None:
        """Follow the terminal's size (after SIGWINCH) and repaint it all."""
        self.screen.follow(self.keys.keyboard.size())

    def take_news(self) -> None:
        """Something woke the key reader with news (a network seat: the
        host said something): take it and draw it."""

    # ----- dialogues -------------------------------------------------------

    def really(self) -> None:
        """Q and ^C: ask ``Really?``; yes leaves the program."""
        screen = self.screen
        kept = screen.prompt, screen.echo, screen.ghost, screen.helping, screen.viewing
        self.in_really = True
        screen.helping = False
        screen.viewing = None  # the board, under Really?, not the help or the L view
        try:
            flow.really(self)
        finally:
            self.in_really = False
        screen.prompt, screen.echo, screen.ghost, screen.helping, screen.viewing = kept

    def ask(self, question: Question, can_save: bool = True) -> bool:
        """A yes/no prompt (``flow.ask``); S saves (then asks again), ^L
        redraws.  In the save dialogue (``can_save=False``) S only beeps."""
        return flow.ask(self, question, can_save)

    def read_answer(self, question: Question, can_save: bool) -> str:
        """One key at ``question``: ``y``, ``n``, ``s``, or ``""`` for what
        was done here (H, T, L, ^L, a beep)."""
        self.set_prompt(question.text)
        key = self.read_key()
        said = yes_no_key(key)  # Y, N (in French O too)
        if said:
            self.screen.echo = chr(key).upper()
            return said
        if can_save and key in (ord("s"), ord("S")):
            self.screen.echo = "S"
            return "s"
        if question in HINTS and key in (ord("h"), ord("H")):
            self.show_hint()
        elif question in HINTS and key in (ord("t"), ord("T")):
            self.toggle_tracker()
        elif question in LOG and key in (ord("l"), ord("L")):
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
                self.screen.ghost = ""
                self.screen.echo += char
                confirmed = self.confirm()
                if confirmed is not False:  # erased: read a slot again
                    return slot if confirmed else None
            else:
                self.refuse_slot(self.keys.key_text(ord(char) if char else key))

    def refuse_slot(self, shown: str) -> None:
        """A key that is no slot: BSD's beep, its key shown a moment (the
        ghost); in the other presets the line mode's refusal too, on the
        error line."""
        self.screen.ghost = shown
        if self.session.rules.bare_refusals:
            self.beep()
        else:
            self.error(_("no such slot: {slot} (P or 0, 1-6)").format(slot=shown))

    def confirm(self) -> bool | None:
        """After a slot or a side: RETURN or SPACE confirms it (True), erase
        takes it back (False), ^U abandons the command (None); other keys
        beep."""
        while True:
            key = self.read_key()
            if key in (RETURN, NEWLINE, SPACE):
                return True
            if is_kill(key):
                return None
            if is_erase(key):
                self.screen.echo = self.screen.echo[:-1]
                return False
            self.beep()

    def read_name(self) -> str:
        """The ``file:`` prompt: a line with erase and kill; RETURN ends it.

        At most NAME_MAX bytes (BSD's buffer is 256 bytes): more keys beep,
        as do escape sequences.  Linear in the keys typed or pasted.
        """
        return os.fsdecode(self.read_line(N_("file:"), NAME_MAX))

    def read_line(self, prompt: str, limit: int) -> bytes:
        """A line typed at ``prompt``: at most ``limit`` bytes, erase and
        kill; RETURN ends it."""
        self.set_prompt(prompt)
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
            elif 0 <= key < 256 and len(typed) < limit:
                typed.append(key)
            else:
                self.beep()
                continue
            self.screen.echo = shown_name(bytes(typed), self.screen.encoding)
        return bytes(typed)

    def show_help(self) -> None:
        """``?``: the keys and the rules on one screen, until a key (a
        translation too long for one screen: a page a key)."""
        self.screen.helping = True
        try:
            for page in range(len(self.screen.help_pages())):
                self.screen.help_page = page
                self.read_key()
        finally:
            self.screen.helping = False
            self.screen.help_page = 0

    def show_log(self) -> None:
        """L: the whole hand so far, full screen, from its end; up/down,
        PgUp/PgDn, space and b, Home/End scroll; q, ESC or L leave."""
        self.screen.viewing = self.screen.view_lines()
        self.screen.view_top = max(len(self.screen.viewing) - self.screen.view_rows(), 0)
        try:
            while True:
                key = self.read_key()
                rows = self.screen.view_rows()
                bottom = max(len(self.screen.viewing) - rows, 0)
                char = chr(key).lower() if key < 128 else ""
                seq = self.keys.sequence if key == SEQUENCE else b""
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
                    step = -len(self.screen.viewing)
                elif seq in VIEW_END or key == ord("G"):
                    step = len(self.screen.viewing)
                elif key == CTRL_L:
                    self.redraw()
                    continue
                else:
                    self.beep()
                    continue
                self.screen.view_top = min(max(self.screen.view_top + step, 0), bottom)
        finally:
            self.screen.viewing = None

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
                self.screen.echo = char
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
                self.toggle_order()
                return None
            if char == "Q":
                self.really()
            elif char == "W":
                if self.screen.TRACKER_HIDES_SCORES and self.screen.tracker_shown():
                    self.screen.tracking = False  # back to the scores, as T
                else:
                    self.session.window_full = not self.session.window_full
                    self.screen.message = ""  # BSD clears the score window's bottom rows
            elif char == "H":
                self.show_hint()
            elif char == "T":
                self.toggle_tracker()
            elif char == "R" or key == CTRL_L:
                self.redraw()
            elif char == "S":
                self.save()
            elif char == "E":
                self.error(N_("E: command not implemented"))
            elif char == "?":
                self.show_help()
            elif char == "J":
                self.show_table()
            elif char == "C":
                self.chat()
            elif char == "L":
                self.show_log()
            elif key in (RETURN, NEWLINE, SPACE, 0):
                pass
            else:
                shown = self.keys.key_text(ord(char) if char else key)
                self.error(_("unknown command: {key}").format(key=shown))

    def show_table(self) -> None:
        """J: the network table's page (a network seat's board); at one
        keyboard there is none."""
        self.error(NO_TABLE)

    def chat(self) -> None:
        """C: a line to the table (a network seat's board); at one
        keyboard there is nobody else to read it."""
        self.error(NO_CHAT)

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

    def toggle_order(self) -> None:
        """O: keep the hand in order, or stop."""
        self.session.set_ordering(not self.session.table.ordering)

    def save(self) -> bool:
        """BSD's save dialogue (``flow.save``); True if the game was written."""
        self.file_asked = ""
        return flow.save(self)

    def read_file_name(self) -> str:
        self.file_asked = self.read_name()
        return self.file_asked

    def save_failed(self, reason: str) -> None:
        """Why the save failed: BSD's strerror alone in the bsd preset, else
        that the game was not saved, to which file, and why."""
        if self.session.rules.bare_refusals:
            self.error(reason)
            return
        from .process import show_path

        name = self.file_asked or self.session.source or ""
        line = _("The game was not saved to {file}: {why}.")
        self.error(line.format(file=show_path(name), why=_(reason)))

    def saved_to(self, name: str, when: str) -> None:
        self.note(f"{name} [{when}]")

    # ----- the game (driven by flow.run) -------------------------------------

    def introduce(self) -> None:
        """A new game on mille's first run for this user: the keys BSD's
        board never names (``WELCOME``) on the error line, until the first
        key; on later runs (:mod:`mille.storage.firstrun`) the first screen
        is BSD's, as is a restored game's (its note)."""
        from ..storage import firstrun

        if not self.screen.message and firstrun.first_run():
            self.screen.message = WELCOME
            self.welcoming = self.keep_note = True  # a computer moving first keeps it
            firstrun.mark()

    def resumed_at_end(self) -> None:
        note = self.screen.message  # the restored file's name and date
        self.new_hand()  # saved at an end-of-hand prompt: the next one is dealt
        self.screen.message = note

    def hand_off(self, seat: int) -> None:
        """The hand-off page (``Pass to Ann.``, ``Ann, press a key.``): the
        board and the hand hidden until a key, then ``seat``'s board.  What
        was on the error line, the hint, the help and the L view go."""
        screen = self.screen
        from ..engine.describe import person_name

        screen.handing = person_name(seat, self.session.name(seat))
        screen.message, screen.whole_hint, screen.hinted = "", "", None
        screen.helping, screen.viewing, screen.tracking = False, None, False
        self.set_prompt("")
        try:
            self.read_key()
        finally:
            screen.handing = ""
        self.seat = seat
        if self.session.table.current_player == seat:  # whose turn, by name
            from .turns import your_turn

            screen.message = your_turn(self.session, seat)
        self.render()

    def pause(self) -> None:
        """A person handed the keyboard with nothing to decide: the board,
        until a key."""
        self.set_prompt(PAUSE_PROMPT)
        self.read_key()

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
            self.screen.message = ""
        self.screen.computer_moved(outcome)

    def human_turn(self) -> None:
        self.keep_note = False  # the computer's next move clears the note

    def read_move(self) -> Move | None:
        return self.get_move()

    def refused(self, reason: str) -> None:
        from ..engine.describe import refusal

        self.error(refusal(reason))

    def played(self, outcome: Outcome) -> None:
        if len(self.session.at_keyboard()) > 1:  # the next person sees it as a computer's
            self.screen.computer_moved(outcome)

    def question(self, question: Question) -> None:
        pass

    def new_hand(self) -> None:
        self.screen.new_hand()
        self.screen.message = ""

    def hand_over(self) -> None:
        self.screen.message = ""  # the score window switches layout, as in BSD
        if self.session.table.game_over:  # the record's line (recorder.board_line)
            self.screen.message = self.recorder.board_line(self.seat)

    def end_of_hand(self) -> None:
        """The end of a hand (``flow.finish_hand``): Quit when done."""
        flow.finish_hand(self)

    def go_on_after_failed_save(self) -> None:
        reason = self.screen.message
        self.new_hand()
        self.screen.message = reason  # why the game goes on stays in view

    def step(self) -> None:
        """One move, prompt or decision, whichever the game needs next."""
        flow.step(self)

    def run(self) -> None:
        """Play until the player quits (returns) or is gone (Hangup)."""
        flow.run(self)
