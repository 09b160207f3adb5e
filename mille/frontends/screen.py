"""What a curses board shows, and drawing it: the part both boards share.

A :class:`Screen` draws one board from the game (the session) and from what
the screen shows besides it: the prompt and what was typed after it, the
error line, the hint on it, the card tracker (T), the help page (?), the
whole hand's log (L) and the notice of a terminal too small.  It holds no
input logic: the board's dialogues (:class:`mille.frontends.ui.Ui`) set
those and the screen draws them.  Every frame is drawn whole; curses sends
only what changed.

BSD's board is :class:`mille.frontends.bsd_screen.BsdBoard`, the board of
the other presets :class:`mille.frontends.table_screen.TableBoard`.
"""

from __future__ import annotations

import abc
import curses
import os
from collections.abc import Callable

from ..engine.table import OVER, Outcome, Table
from ..engine.text import ELLIPSIS, escape, fit, shorten
from ..engine.text import width as text_width
from ..engine.view import SeatView
from ..i18n import N_, _
from .curses_keys import visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..game.protocol import Game

MIN_LINES = 24
MIN_COLS = 80
TOO_SMALL = N_("Screen must be at least 24x80")

MOVE_PROMPT = N_(">>:Move:")

TRACK_NAME = 14  # "Puncture Proof": a card tracker's cell, its name

# The whole hand's log (L), full screen.
MORE = N_("(more: press a key)")  # a help page that goes on, in a long translation
VIEW_TITLE = N_("The hand so far")
VIEW_KEYS = N_("up/down, PgUp/PgDn, space, Home/End: scroll   q or ESC: back to the game")


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


def presence_mark(session: Game, seat: int) -> str:
    """The mark beside a seat's name (a network seat's board: awaited,
    away, a computer for now); "" at one keyboard."""
    return session.talk.mark(seat)


def hand_off_lines(name: str) -> list[str]:
    """The hand-off page's words (both boards).

    >>> hand_off_lines("Ann")
    ['Pass to Ann.', 'Ann, press a key.']
    """
    return [_("Pass to {name}.").format(name=name), _("{name}, press a key.").format(name=name)]


def tracker_cells(view: SeatView, columns: int) -> list[list[str]]:
    """The card tracker's cells, ``Out of Gas      2``, in ``columns``
    columns read downwards (the counts are :func:`mille.engine.describe.unseen`)."""
    from ..engine.describe import tracker_name, unseen

    rows = [(fit(tracker_name(card), TRACK_NAME), count) for card, count in enumerate(unseen(view))]
    height = -(-len(rows) // columns)
    cells = [f"{name}{' ' * (TRACK_NAME - text_width(name))}{count:>3}" for name, count in rows]
    return [cells[index * height : (index + 1) * height] for index in range(columns)]


KEY_COLUMN = 35  # where the second column of keys starts in the boards' help


def without_keys(lines: list[str], refused: tuple[str, ...]) -> list[str]:
    """A board's help (``?``) less the keys ``refused`` (a remote seat's):
    the ``O`` cell (the first column) and the ``S`` cell (the second).

    >>> refused = ("o: ", "s: ")
    >>> without_keys(["  O      keep your hand in order   W      window"], refused)
    ['                                   W      window']
    >>> without_keys(["  R, ^L  redraw the screen         S      save the game"], refused)
    ['  R, ^L  redraw the screen']
    """
    shown = []
    for line in lines:
        if "o: " in refused and line.startswith("  O  "):
            line = " " * KEY_COLUMN + line[KEY_COLUMN:]
        if "s: " in refused and line[KEY_COLUMN : KEY_COLUMN + 3] == "S  ":
            line = line[:KEY_COLUMN].rstrip()
        shown.append(line)
    return shown


def refused_keys(session: Game) -> tuple[str, ...]:
    """The keys this seat's board does not offer (a remote seat's talk
    says them: ``o: ``, ``s: `` for a joiner that is not the host, ``h: ``
    for a watcher)."""
    return session.talk.refused_keys


class Screen(abc.ABC):
    """One board's screen: the game from the session, plus what is shown
    besides it (set by the board's dialogues).  A board draws the game in
    :meth:`draw`; the help page, the L view, the notice of a terminal too
    small and the prompt line are drawn here."""

    PROMPT_Y, PROMPT_X = 0, 0  # where the prompt line starts
    PROMPT_RIGHT = MIN_COLS - 1  # the last column it may use
    MESSAGE_WIDTH = MIN_COLS - 1  # the error line's room
    TRACKER_HIDES_SCORES = False  # the tracker takes the score window (W leaves it)

    def __init__(self, scr: curses.window, session: Game, message: str = "") -> None:
        self.scr = scr
        self.session = session
        # the seat shown: the first person's (a hot seat hands it on: handing)
        self.seat = session.viewer
        self.handing = ""  # the hand-off page is up, for this person
        self.message = message  # the error line's text
        self.prompt = MOVE_PROMPT
        self.echo = ""  # what was typed after the prompt
        self.ghost = ""  # a refused slot key, shown until overwritten (as BSD)
        self.too_small = False
        self.helping = False  # the help screen is up
        self.help_page = 0  # which of its pages (one, unless a translation is long)
        self.page: Callable[[], list[str]] | None = None  # a page up instead of the board (J)
        self.bell = False  # a beep is due with the next screen update
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

    def put(self, y: int, x: int, text: str, attr: int = 0) -> None:
        """Write text, silently clipped to the screen."""
        height, width = self.scr.getmaxyx()
        if y >= height or x >= width:
            return
        try:
            text.encode(self.encoding)
        except UnicodeEncodeError:  # what the terminal cannot show, as \xNN bytes
            text = "".join(self.showable(ch) for ch in text)
        text = fit(text, width - x)  # by columns: a wide character takes two
        if y == height - 1 and x + text_width(text) >= width:
            text = fit(text, width - x - 1)  # never the bottom-right cell
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
            self.put(0, 0, _(TOO_SMALL))
        elif self.handing:
            self.draw_hand_off()
        elif self.helping:
            pages = self.help_pages()
            for y, line in enumerate(pages[min(self.help_page, len(pages) - 1)]):
                self.put(y, 0, line)
        elif self.page is not None:
            for y, line in enumerate(self.page()):
                self.put(y, 0, line)
        elif self.viewing is not None:
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

    def draw_hand_off(self) -> None:
        """The hand-off page: no hand, no board, only who is to come."""
        height, width = self.scr.getmaxyx()
        name = escape(self.handing)
        for dy, line in enumerate(hand_off_lines(name)):
            self.put(height // 2 - 1 + dy, max((width - text_width(line)) // 2, 0), line)

    @abc.abstractmethod
    def draw(self) -> None:
        """The game's screen (not the help, not the too-small notice)."""

    @abc.abstractmethod
    def help_lines(self) -> list[str]:
        """``?``: the keys and the rules, with the options in force."""

    def help_pages(self) -> list[list[str]]:
        """``?``'s pages: the help on one screen, as written; a translation
        too long for it wrapped to the screen's width and cut into pages,
        each but the last ending in ``MORE``."""
        lines = self.help_lines()
        height, width = self.scr.getmaxyx()
        if len(lines) <= height and all(text_width(line) < width for line in lines):
            return [lines]
        import textwrap

        rows: list[str] = []
        for line in lines:
            if text_width(line) < width:
                rows.append(line)
                continue
            indent = " " * (len(line) - len(line.lstrip()))
            rows += textwrap.wrap(line, width - 1, subsequent_indent=indent + "  ") or [""]
        size = max(height - 1, 1)
        pages = [rows[at : at + size] for at in range(0, len(rows), size)]
        more = fit(_(MORE), width - 1)
        return [page + [more] for page in pages[:-1]] + pages[-1:]

    def computer_moved(self, outcome: Outcome) -> None:  # noqa: B027 (a board may keep nothing)
        """A computer moved: what the board keeps of it (BSD's shows the
        last move under the prompt)."""

    def new_hand(self) -> None:  # noqa: B027 (a board may forget nothing)
        """A new hand was dealt: what the board forgets."""

    def redraw(self) -> None:
        """R and ^L: repaint the terminal from scratch."""
        self.scr.clear()
        self.render()

    def beep(self) -> None:
        self.bell = True  # rung with the next screen update: one per burst of keys

    def set_prompt(self, text: str) -> None:
        self.prompt, self.echo, self.ghost = text, "", ""

    def follow(self, size: tuple[int, int] | None) -> None:
        """Follow the terminal's ``size`` (if known) and repaint it all."""
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

    # ----- the game's state, as the screens show it ----------------------------

    def full_window(self) -> bool:
        return self.session.window_full or self.session.table.phase == OVER

    def tracker_shown(self) -> bool:
        """T is on and the hand is not over (the end of a hand shows the scores)."""
        return self.tracking and self.session.table.phase != OVER

    # ----- the hint -------------------------------------------------------------

    def hint_shown_whole(self) -> bool:
        """A hint too long for the error line is shown whole (until a key)."""
        return (
            bool(self.whole_hint)
            and self.hinted is not None
            and self.message == self.hinted[1]
            and self.hinted[0] == self.session.table
        )

    def expire_hint(self) -> None:
        """A hint shown for another position (a move, O) leaves the error line."""
        if (
            self.hinted is not None
            and self.message == self.hinted[1]
            and self.hinted[0] != self.session.table
        ):
            self.message = ""

    # ----- the prompt line --------------------------------------------------------

    def draw_prompt(self) -> None:
        y, x = self.PROMPT_Y, self.PROMPT_X
        attr = curses.A_STANDOUT if self.prompt == MOVE_PROMPT else 0
        prompt = _(self.prompt)  # set in English (the dialogues compare it), shown translated
        self.put(y, x, prompt, attr)
        start = x + text_width(prompt) + 1
        room = self.PROMPT_RIGHT + 1 - start
        shown = visible(self.echo)
        if len(shown) + len(self.ghost) >= room:  # keep the end of a long name in view
            shown = shown[len(shown) + len(self.ghost) - room + 1 :]
        self.put(y, start, shown + self.ghost)
        try:
            self.scr.move(y, start + len(shown))
        except curses.error:
            pass

    # ----- L: the hand so far, full screen --------------------------------------

    def view_lines(self) -> list[str]:
        """L: every move of this hand since the deal, in the log's words,
        wrapped to the screen."""
        import textwrap

        from ..engine.describe import hand_lines

        width = self.scr.getmaxyx()[1] - 1
        return [
            row
            for line in hand_lines(self.session.view(self.seat), self.session.events(self.seat))
            for row in textwrap.wrap(escape(line), width, subsequent_indent="  ") or [""]
        ]

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
            where = _("lines {first}-{last} of {count}").format(
                first=self.view_top + 1, last=self.view_top + len(shown), count=len(lines)
            )
        else:
            where = _("nothing yet")
        self.put(0, 0, f"{_(VIEW_TITLE)} ({where})", curses.A_BOLD)
        for y, line in enumerate(shown, start=1):
            self.put(y, 0, line)
        self.put(height - 1, 0, fit(_(VIEW_KEYS), width - 1))
