"""The line mode (``mille --plain``): any preset, no curses.

For screen readers, dumb terminals and scripts.  Everything is a plain
line on standard output: what each seat did, the table and your hand when
it is your turn, the scores at the end of a hand.  Commands are read a line
at a time from standard input, in the board's language:

    p          pick a card
    u 3        use the card in slot 3 (slots P or 0, 1-6)
    u 4 2      use the hazard in slot 4 on side 2
    d p        discard the card in slot P
    y / n      answer a question (Extension?, Coup Fourre?, Another hand?)
    o          keep your hand in order, or stop
    w          the full score table
    r          the options in force, the table and your hand again
    h          a hint: the expert's move and why (it is not played)
    t          the card tracker on or off: the cards you have not seen,
               now and with the table at each of your turns while it is on
    l          the whole hand so far
    s          save the game (``file:`` asks the name)
    q          quit (asks Really?)
    ?          this summary, for the game's rules, and the options in force

``h``, ``t`` and ``l`` work at the game's questions too (all but ``Really?``,
``Save game?`` and the save dialogue's).  Each computer's move is printed
(and flushed) as it is made; nothing is printed while a computer thinks, so
a script's transcript is the same on every run.

Refusals are the board's messages (``must pick first``, ``which
opponent?``).  At the end of the input (a script that stops, ^D) the game
in progress is written to the recovery file, which the next ``mille``
offers to resume: nothing is asked and nothing is lost.  A hang-up,
SIGTERM, ^\\ (SIGQUIT) or output that goes away (a closed pipe, a full
disk) does the same, with exit status 1.

Signals only set flags, except while the line mode waits for a line (then
the handler raises at once): a computer's move, a save or a hint is never
cut in half.  ^C asks ``Really?`` once the move under way is done; a
hang-up keeps the game between two moves, and a second signal while the
game is being kept changes nothing.
"""

from __future__ import annotations

import os
import signal
import sys

from ..engine import describe
from ..engine.describe import card_name, seat_name, side_members, side_name
from ..engine.table import (
    COUP,
    PLAYING,
    Answer,
    Move,
    Outcome,
    Use,
)
from ..engine.text import escape
from ..i18n import N_, _, ngettext
from ..storage.recovery import signal_reason
from . import flow, process, recorder
from .commands import Command, Mistake, answer, parse
from .plain_board import (
    event_lines,
    hand_line,
    hand_so_far,
    help_text,
    options_line,
    score_lines,
    table_lines,
    tracker_line,
    wrap,
)
from .questions import NO_ADVICE, Question

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import FrameType
    from typing import BinaryIO, TextIO

    from ..game.protocol import Game
    from ..game.session import Session

PROMPT = N_("Your move: ")
TRACKER_ON = N_("The card tracker is on: shown with the table at each of your turns until t again.")
CLEAR = "\x1b[H\x1b[2J\x1b[3J"  # home, clear the screen, clear the scrollback
LINE_MAX = 4096  # bytes of one command line that are read; the rest is dropped


class EndOfInput(Exception):
    """Standard input is exhausted (or gone)."""


Hangup = flow.Hangup  # SIGHUP, SIGTERM or SIGQUIT: keep the game and leave
Quit = flow.Quit  # the player is done (Really? yes, or no more hands)


class OutputLost(Exception):
    """Standard output is gone (a closed pipe, a full disk)."""


class LineUi:
    """One run of the line mode over ``stdin`` (bytes) and ``stdout`` (text).

    It reads lines (with ^C and a hang-up while it waits), prints what
    happens, and implements :class:`mille.frontends.flow.Front` for the game
    flow; a line becomes a move or a command in
    :mod:`mille.frontends.commands`, and the table's lines are
    :mod:`mille.frontends.plain_board`'s.
    """

    save_after_game = False  # a game won is over: nothing to save
    save_again = True  # a failed save at a hand's end asks again, never deals the hand
    file_asked = ""  # the file the save dialogue was last given

    def __init__(self, session: Game, stdin: BinaryIO, stdout: TextIO, message: str = "") -> None:
        self.session = session
        self.stdin = stdin
        self.stdout = stdout
        try:  # a script's commands are echoed, so the transcript reads as a dialogue
            self.echo = not stdin.isatty()
        except (AttributeError, ValueError, OSError):
            self.echo = True
        try:  # a hot seat clears a terminal's screen and scrollback at each hand-off
            self.clears = stdout.isatty()
        except (AttributeError, ValueError, OSError):
            self.clears = False
        self.message = message
        self.seat = session.viewer  # the person the lines are for
        self.shown = 0  # events of session.log already told (to ``seat``)
        self.told: dict[int, int] = {}  # the same for the other people, by seat
        self.saved = False  # the last question's S saved the game
        self.changed = False  # a move was made since the game was loaded or saved
        self.turn_told = False  # the table was shown at the start of this turn
        self.tracking = False  # the card tracker is shown with the table
        self.in_really = False  # ^C at Really? quits
        self.stop: str | None = None  # a hang-up or SIGTERM came: why the game is kept
        self.interrupted = False  # ^C came while busy: Really? at the next safe point
        self.recorder = recorder.Recorder()  # the record of the games played here
        self.waiting = False  # reading a line: a signal's handler raises at once

    # ----- output ------------------------------------------------------------

    def say(self, text: str = "") -> None:
        """``text`` and a new line, cut between words at a terminal's width
        (not on a pipe or a file: a script reads whole lines)."""
        columns = terminal_columns(self.stdout) if self.clears else 0
        self.write(wrap(text, columns) + "\n")

    def write(self, text: str, flush: bool = False) -> None:
        """Write to the output; OutputLost if it is gone."""
        try:
            self.stdout.write(text)
            if flush:
                self.stdout.flush()
        except (OSError, ValueError):  # a closed pipe, a full disk, a closed file
            raise OutputLost from None

    # ----- signals ---------------------------------------------------------------

    def on_signal(self, signum: int, frame: FrameType | None) -> None:
        """SIGINT, SIGTERM, SIGHUP, SIGQUIT: a flag, looked at between moves;
        while a line is awaited, at once (once: the next only sets a flag)."""
        if signum == signal.SIGINT:
            self.interrupted = True
            if self.waiting:
                self.waiting = False
                self.interrupted = False
                raise KeyboardInterrupt
            return
        if self.stop is None:
            self.stop = signal_reason(signum)
        if self.waiting:
            self.waiting = False
            raise Hangup(self.stop)

    def checkpoint(self) -> None:
        """Between two moves: act on the signals that came meanwhile."""
        if self.stop is not None:
            raise Hangup(self.stop)
        if self.interrupted and not self.in_really:
            self.interrupted = False
            self.write("\n")
            flow.really(self)

    def flush(self) -> None:
        """What was said goes out now (through a pipe too, as a prompt does)."""
        self.write("", flush=True)

    def read_line(self, prompt: str, file_name: bool = False) -> str:
        """A line of input after ``prompt``; EndOfInput at the end.  ^C asks
        ``Really?``, as on the board, then asks again.  A ``file_name`` is
        decoded as the file system's names are (``os.fsdecode``, as the
        boards do: the bytes typed are the name, in any locale).  A line
        the front end does itself (:meth:`done_here`) is read past."""
        while True:
            self.checkpoint()
            self.write(prompt, flush=True)
            try:
                raw = self.next_line()
            except KeyboardInterrupt:
                self.write("\n")
                if self.in_really or self.ask(Question.REALLY):
                    raise Quit from None
                continue
            if not raw:
                self.write("\n")
                raise EndOfInput
            line = (os.fsdecode(raw) if file_name else raw.decode("utf-8", "replace")).strip()
            if self.echo:
                self.write(escape(line)[:80] + "\n")
            if not self.done_here(line, prompt, file_name):
                return line

    def next_line(self) -> bytes:
        """The next line typed (``b""`` at the end of the input); ^C or a
        hang-up while it is awaited raises at once."""
        self.waiting = True
        try:
            self.signalled()  # came since the checkpoint
            return read_line(self.stdin)
        except OSError:  # the terminal or pipe is gone
            raise EndOfInput from None
        finally:
            self.waiting = False

    def signalled(self) -> None:
        """A hang-up or ^C that came while a line is awaited, raised."""
        if self.stop is not None:
            raise Hangup(self.stop)
        if self.interrupted:
            self.interrupted = False
            raise KeyboardInterrupt

    def done_here(self, line: str, prompt: str, file_name: bool) -> bool:
        """Whether ``line``, read at ``prompt``, was done by the front end
        itself (at one keyboard, none is)."""
        return False

    def ask(self, question: Question, can_save: bool = True) -> bool:
        """A yes/no question (``flow.ask``); ``s`` saves and asks again."""
        return flow.ask(self, question, can_save)

    def read_answer(self, question: Question, can_save: bool) -> str:
        """One answer to ``question``: ``y``, ``n``, ``s``, or ``""`` for
        what was done here (h, t, l, ?, or a line that is no answer)."""
        self.in_really = question is Question.REALLY
        try:
            said = answer(self.read_line(question.words + " "))
        finally:
            self.in_really = False
        if said in ("y", "n"):
            return said
        advice = question not in NO_ADVICE
        if can_save and said == "s":
            return "s"
        if advice and said == "h":
            self.hint()
        elif advice and said == "t":
            self.toggle_tracker()
        elif advice and said == "l":
            self.tell_hand()
        elif said == "?":
            extra = [
                *([_("s saves the game first")] if can_save else []),
                *([_("h: a hint, t: the card tracker, l: the hand")] if advice else []),
            ]
            if extra:
                self.say(_("Answer y or n ({extra}).").format(extra=_("; ").join(extra)))
            else:
                self.say(_("Answer y or n."))
        else:
            self.say(_("Answer y or n."))
        return ""

    # ----- what the player is told ---------------------------------------------

    def tell_events(self) -> None:
        """Every move since the last told, as the seat's event stream tells them."""
        table = self.session.view(self.seat)
        for event in self.session.events(self.seat, self.shown):
            for line in event_lines(table, event):
                self.say(line)
        self.shown = len(self.session.log)

    def tell_table(self) -> None:
        for line in table_lines(self.session.view(self.seat), self.tracking):
            self.say(line)

    def tell_scores(self) -> None:
        for line in score_lines(self.session.view(self.seat)):
            self.say(line)

    # ----- commands --------------------------------------------------------------

    def command(self, text: str) -> Move | None:
        """A move to make, or None when the command was done here."""
        parsed = parse(text)
        if isinstance(parsed, Mistake):
            self.say(_(parsed.text))
        elif isinstance(parsed, Command):
            self.do(parsed.letter)
        elif isinstance(parsed, Use) and parsed.target is None and self.untargeted(parsed.slot):
            pass
        else:
            return parsed
        return None

    def untargeted(self, slot: int) -> bool:
        """``u N`` with a hazard that must name its side: say which sides it
        can hit (the engine's check), or, with none, why; True when said
        (the move is not made)."""
        view = self.session.view(self.seat)
        if view.check(Use(slot)) != "which opponent?":
            return False  # no side needed, or refused before one counts
        sides = describe.hazard_targets(view, slot)
        if not sides:
            self.say(describe.no_target(view, slot))
            return True
        self.say(describe.refusal("which opponent?"))
        named = ", ".join(
            describe.side_label(view.rules, side, view.reader, view.names) for side in sides
        )
        line = ngettext(
            "It can hit side {sides} (u {slot} S).",
            "It can hit sides {sides} (u {slot} S).",
            len(sides),
        )
        self.say(line.format(sides=named, slot="P" if slot == 0 else slot))
        return True

    def do(self, letter: str) -> None:
        """A command the line mode does itself (not a move)."""
        if letter == "o":
            view = self.session.view(self.seat)
            self.session.set_ordering(not view.ordering)
            self.say(
                _("Your hand is kept in order.")
                if view.ordering
                else _("Your hand is no longer kept in order.")
            )
            self.say(hand_line(view))
        elif letter == "w":
            self.tell_scores()
        elif letter == "r":
            self.say(options_line(self.session.rules, self.session.level))
            self.tell_table()
        elif letter == "l":
            self.tell_hand()
        elif letter == "s":
            self.save()
        elif letter == "h":
            self.hint()
        elif letter == "t":
            self.toggle_tracker()
        elif letter == "q":
            flow.really(self)
        elif letter == "?":
            self.say(help_text(self.session.rules, self.session.level))
        else:
            self.say(_("E: command not implemented"))

    def hint(self) -> None:
        self.say(flow.hint(self.session.view(self.seat))[0])

    def toggle_tracker(self) -> None:
        """``t``: the tracker on (its counts now, and with the table at each
        of your turns, said so) or off."""
        self.tracking = not self.tracking
        if self.tracking:
            self.say(_(TRACKER_ON))
            self.say(tracker_line(self.session.view(self.seat)))
        else:
            self.say(_("The card tracker is off."))

    def tell_hand(self) -> None:
        """``l``: every move of this hand since the deal."""
        seat = self.seat
        for line in hand_so_far(self.session.view(seat), self.session.events(seat)):
            self.say(line)

    def save(self) -> bool:
        """The save dialogue (``flow.save``); True if the game was written."""
        self.file_asked = ""
        return flow.save(self)

    def read_file_name(self) -> str:
        self.file_asked = self.read_line(_("file: "), file_name=True)
        return self.file_asked

    def save_failed(self, reason: str) -> None:
        name = self.file_asked or self.session.source or ""
        line = _("The game was not saved to {file}: {why}.")
        self.say(line.format(file=escape(name), why=escape(_(reason))))

    def saved_to(self, name: str, when: str) -> None:
        self.say(f"{escape(name)} [{when}]")
        self.changed = False

    # ----- the game (driven by flow.run) -----------------------------------------

    def computer_thinks(self) -> None:
        self.flush()  # what was said is out while the computer thinks

    def computer_moved(self, outcome: Outcome) -> None:
        self.changed = True
        self.tell_events()  # as it happens, not when all have moved

    def human_turn(self) -> None:
        self.tell_events()
        if not self.turn_told:
            self.tell_table()
            self.turn_told = True

    def read_move(self) -> Move | None:
        return self.command(self.read_line(_(PROMPT)))

    def refused(self, reason: str) -> None:
        self.say(describe.refusal(reason))

    def played(self, outcome: Outcome) -> None:
        self.changed = True
        if isinstance(outcome.move, Answer):
            return
        table = self.session.view(self.seat)
        if table.current_player == self.seat and table.phase == PLAYING:
            self.tell_events()  # your pick, or a safety's extra turn
            self.say(hand_line(table))
        else:
            self.turn_told = False

    def question(self, question: Question) -> None:
        """Before ``Coup Fourre?`` (what it answers) and ``Extension?``."""
        table = self.session.view(self.seat)
        self.tell_events()
        if table.phase == COUP:
            side, safety, hazard = table.offer or (0, 0, 0)
            attacker = self.session.log[-1].outcome.seat if self.session.log else self.seat
            who = seat_name(table.rules, attacker, self.seat, table.names)
            line = _("{who} played {hazard} on side {side}; you hold {safety}.")
            self.say(
                line.format(who=who, hazard=card_name(hazard), side=side, safety=card_name(safety))
            )

    def hand_over(self) -> None:
        table = self.session.view(self.seat)
        self.tell_events()
        self.say(describe.hand_result(table))
        self.tell_scores()
        won = describe.game_result(table, len(self.session.at_keyboard()) > 1)  # (by name)
        if won:
            self.say(won)
            for seat in self.session.at_keyboard():  # the record, each person's
                for line in self.recorder.lines(seat):
                    self.say(escape(line))

    def go_on_after_failed_save(self) -> None:
        self.new_hand()

    def new_hand(self) -> None:
        self.shown = 0
        self.told = {}
        self.turn_told = False
        self.changed = True
        view = self.session.view(self.seat)
        line = _("A new hand: side {side} starts ({name}).")
        name = seat_name(view.rules, view.starter, view.reader, view.names)
        self.say(line.format(side=view.rules.side_of(view.starter), name=name))

    def hand_off(self, seat: int) -> None:
        """A hot seat: ``Pass to Ann. Ann, press RETURN.``; on a terminal the
        screen and its scrollback are cleared first, so the last person's
        hand is gone before the next person comes to the keyboard (nobody
        can read or scroll back to it), and again after RETURN (piped, the
        lines go on)."""
        name = escape(describe.person_name(seat, self.session.name(seat)))
        if self.clears:
            self.write(CLEAR, flush=True)
        else:
            self.say()
        self.read_line(_("Pass to {name}. {name}, press RETURN. ").format(name=name))
        if self.clears:
            self.write(CLEAR, flush=True)
        self.told[self.seat] = self.shown
        self.seat = seat
        self.shown = self.told.get(seat, describe.recent(self.session.log, seat))
        self.turn_told = False
        self.say(
            _("{name}, you are side {side}.").format(
                name=name, side=self.session.rules.side_of(seat)
            )
        )

    def pause(self) -> None:
        """Handed the keyboard with nothing to decide: what happened, until RETURN."""
        self.tell_events()
        self.read_line(_("Your side was hit: press RETURN. "))

    def introduce(self) -> None:
        rules = self.session.rules
        names = self.session.people
        seat = self.seat if len(names) < 2 else None  # several people: nobody's "You"
        team = describe.is_team_game(rules)
        sides = _("; ").join(
            (_("side {side} {name} ({members})") if team else _("side {side} {name}")).format(
                side=side,
                name=side_name(rules, side, seat, names),
                members=side_members(rules, side, seat, names) if team else "",
            )
            for side in range(1, rules.sides + 1)
        )
        line = _(
            "mille: {rules}, {players} players: {sides}. "
            "Target {miles} miles, game {points} points. Type ? for help."
        )
        self.say(
            line.format(
                rules=rules.name,
                players=rules.players,
                sides=sides,
                miles=self.session.view(self.seat).target,
                points=rules.winning_score,
            )
        )
        self.say(options_line(rules, self.session.level))
        if self.message:
            self.say(escape(self.message))

    def resumed_at_end(self) -> None:
        self.new_hand()

    def started(self) -> None:
        self.shown = describe.recent(self.session.log, self.seat)

    def run(self) -> None:
        """Play until the player quits (returns) or is gone (Hangup,
        EndOfInput, OutputLost): :func:`mille.frontends.flow.run`."""
        flow.run(self)


def read_line(stream: BinaryIO) -> bytes:
    """A line of ``stream`` (b"" at its end): at most LINE_MAX bytes of it,
    the rest of an over-long line read and dropped (a signal stops it)."""
    raw = stream.readline(LINE_MAX)
    rest = raw
    while rest and not rest.endswith(b"\n"):
        rest = stream.readline(LINE_MAX)
    return raw


def _silence(stream: TextIO) -> None:
    """After the output went away: what is still buffered for it goes
    nowhere (not to a traceback when Python exits)."""
    try:
        fd = stream.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
    except (OSError, ValueError, AttributeError):
        return
    try:
        os.dup2(null, fd)
    except OSError:
        pass
    finally:
        os.close(null)


def keep(session: Session, reason: str) -> tuple[str, bool]:
    """Write the game to the recovery file: the line to tell, and whether
    the game is kept (the exit status says when it is not)."""
    return process.keep(session, reason, after=N_(" (mille offers it next time)"))


def play(
    session: Session,
    message: str = "",
    *,
    fresh: bool = False,
    stdin: BinaryIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Run the line mode; the exit status (0 when the player quits or the
    input ends, 1 after a hang-up or a game that could not be kept).

    At the end of the input the game is written to the recovery file,
    unless nothing was played and it is safe elsewhere: a ``fresh`` new
    game, or a game read from a file (``session.source``).
    """
    source = stdin if stdin is not None else getattr(sys.stdin, "buffer", None)
    if source is None:
        print(_("mille: no standard input"), file=sys.stderr)
        return 1
    if stdout is None and sys.stdout is None:  # mille --plain >&-
        print(_("mille: no standard output"), file=sys.stderr)
        return 1
    ui = LineUi(session, source, stdout if stdout is not None else sys.stdout, message)

    def tell(line: str) -> None:
        process.tell_after(ui.stdout, line)  # the line comes after what was said

    undo = process.route_exit_signals(ui.on_signal)
    try:
        try:
            ui.run()
        except Quit:
            return 0
        except EndOfInput:
            if not ui.changed and (fresh or session.source is not None):
                return 0  # nothing played: nothing to keep
            line, kept = keep(session, N_("end of input"))
            tell(line)
            return 0 if kept else 1
        except Hangup as exc:
            tell(keep(session, exc.reason)[0])
            return 1
        except OutputLost:
            if ui.stdout is sys.stdout:
                _silence(ui.stdout)
            tell(keep(session, N_("output lost"))[0])
            return 1
    finally:
        for restore in undo:
            restore()
        try:
            ui.stdout.flush()
        except (OSError, ValueError):
            pass
    return 0


def terminal_columns(stream: TextIO) -> int:
    """The width of the terminal ``stream`` writes to (0 if none: a pipe,
    a file, where a script reads whole lines)."""
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):
        return 0
