"""The board of the ``classic`` and ``milebymile`` presets, 2 to 9 seats, drawn.

BSD's board (:class:`mille.frontends.bsd_screen.BsdBoard`) has room for two
players only.  This one (:class:`TableBoard`) draws a table instead, on the
same 80x24 screen::

    row 0        the game, the target (Extension), the deck and the discard top
    row 1        column headings
    rows 2-10    a row per side (two in a team game: the side, then its
                 players): number, name, miles, battle and speed tops,
                 safeties (``*`` a coup fourre), karma, hand and overall totals
    then         your hand (P, 1-6) on the left; on the right what happened
                 since your last turn, read from the session's log (or, while
                 T is on, the card tracker: how many of each card you have
                 not seen, in three columns)
    rows 19-21   reminders of the keys (small window only)
    row 22       the prompt (``>>:Move:``, the questions); at its right, the
                 status: the options in force and the computers' level, or
                 which computer is thinking
    row 23       the error line (H puts a hint there: the expert's move)

On a terminal taller than 24 rows the last four rows stay at the bottom
and the log gets the rows between.  L shows the whole hand's log, full
screen (:meth:`mille.frontends.ui.Ui.show_log`).  The keys and prompts
are BSD's board's, with a side to name for a hazard
(:class:`mille.frontends.table_ui.TableUi`).

``W`` (and the end of a hand) swaps the side rows for the full score table:
every row of the preset's scoring for every side, then the totals and
Games.  Everything drawn comes from the table and the log, plus the prompt
and the error line, so a restored game shows the screen that was saved.
"""

from __future__ import annotations

import curses
import textwrap
from collections.abc import Mapping

from ..engine.cards import EXTRA_TANK, is_hazard, is_remedy, is_safety
from ..engine.describe import (
    SAFETY_SHORT,
    card_name,
    describe,
    end_lines,
    fitting_name,
    is_team_game,
    option_summary,
    option_words,
    recent,
    safety_marks,
    safety_short,
    score_table,
    seat_name,
    short_card_name,
    side_label,
    side_members,
    side_name,
    top_cards,
)
from ..engine.rules import PROBLEMS, Rules
from ..engine.table import COUP, EXTENSION, Event, Use
from ..engine.text import ELLIPSIS, fit, fit_name, shorten
from ..engine.text import width as text_width
from ..engine.view import SeatView
from ..i18n import N_, _, ngettext
from .questions import Question
from .screen import MOVE_PROMPT, Screen, presence_mark, refused_keys, tracker_cells, without_keys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..game.protocol import Game

COLS = 80
LAST_COL = COLS - 1

# Row 0: the game and the piles.
GAME_X, TARGET_X, DECK_X, DISCARD_X = 0, 30, 51, 60

# The side rows: (heading, column, width, right-aligned).
SIDES_Y = 2  # the first side row (row 1 holds the headings)
NUMBER = ("#", 0, 2, True)
NAME = (N_("Side"), 3, 6, False)
MILES = (N_("Miles"), 10, 5, True)
BATTLE = (N_("Battle"), 16, 10, False)
SPEED = (N_("Speed"), 27, 12, False)
SAFETIES = (N_("Safeties"), 40, 22, False)
KARMA = (N_("Karma"), 63, 5, False)
HAND = (N_("Hand"), 69, 5, True)
TOTAL = (N_("Total"), 74, 6, True)
SAFETY_OFFSETS = (0, 6, 13, 18)  # Tank*, Proof*, Ace*, RoW* in their own columns
MEMBERS_X = 3  # a team's players, on the row under the side's

# The full score table.
LABEL_WIDTH = 17  # "Milestones Played"
MAX_COLUMN = 10
FULL_LOWER = 14  # the lowest row of the hand's heading under the full table

# Your hand and the log.
HAND_X, CARD_X = 0, 2
LOG_X = 20
LOG_WIDTH = COLS - LOG_X
LOG_BOTTOM = 21  # on 24 rows; three rows above the bottom on a taller terminal
HINT_Y = 19  # three rows of reminders, small window only (on 24 rows)
TRACKER_COLUMNS, TRACKER_COLUMN = 3, 20  # the card tracker, in the log's place

# Colour, where the terminal has it (BSD's board stays plain, as BSD's).
HAZARD_PAIR, REMEDY_PAIR, SAFETY_PAIR, YOU_PAIR = 1, 2, 3, 4
PAIR_COLORS = {  # each pair's foreground, on the terminal's own background
    HAZARD_PAIR: curses.COLOR_RED,
    REMEDY_PAIR: curses.COLOR_GREEN,
    SAFETY_PAIR: curses.COLOR_CYAN,
    YOU_PAIR: curses.COLOR_YELLOW,
}

PROMPT_Y, ERROR_Y = 22, 23  # on 24 rows: the last two rows
STATUS_X = 30  # the status, right of the prompt, starts here at the most
QUESTIONS = (Question.COUP_FOURRE.text, Question.EXTENSION.text)  # the prompts a move answers
CONTEXT_X = 16  # a question's context, after the prompt and its answer


NETWORK_KEYS = N_("  J      the table: who is here, the join command   C      a line to the table")


def table_help(rules: Rules, level: str = "standard", network: bool = False) -> list[str]:
    """``?`` on the N-seat board: the keys and the rules that apply to
    ``rules`` (a side to name only with three sides or more, Extension?
    only where there is one, partners only in a team game; J and C in a
    ``network`` game), then the options in force; at most 24 lines of at
    most 79 columns."""
    lines = _table_keys(rules, level, network)
    lines += textwrap.wrap(_rules_text(rules), LAST_COL)
    # the record (mille --stats) where the page has room: not with every option on
    for ending in ((_(RECORD_HELP[0]),), ()):
        page = lines + list(ending) + [_("Press any key to go back to the game.")]
        last = page[: len(lines)]
        for piece in page[len(lines) :]:
            if text_width(last[-1]) + 2 + text_width(piece) <= LAST_COL:
                last[-1] += "  " + piece
            else:
                last.append(piece)
        if len(last) <= 24:
            return last
    return last


def _table_keys(rules: Rules, level: str, network: bool) -> list[str]:
    """:func:`table_help`'s first lines: the options in force and the keys."""
    questions = [Question.COUP_FOURRE.words]
    if rules.extension is not None:
        questions.append(Question.EXTENSION.words)
    if rules.discard_safeties:
        questions.append(Question.DISCARD_SAFETY.words)
    from ..players.registry import LEVEL_GUIDE

    in_force = _("In force: {options}").format(options=", ".join(option_words(rules, level)))
    head = _(
        "MILLE BORNES.  {in_force} (--level: {guide}).  Together: --people 0=Ann,2=Bob.  Keys (either case):"
    )
    lines = textwrap.wrap(head.format(in_force=in_force, guide=_(LEVEL_GUIDE)), LAST_COL)
    lines += _(
        "  P      pick a card               U n    use the card in slot n\n"
        "  D n    discard the card in slot n (n: P or 0, 1-6; RETURN or SPACE confirms)"
    ).split("\n")
    if rules.sides > 2:
        lines.append(_("  U n on a hazard then asks which side: its number on the board, RETURN."))
    lines += _(
        "  O      keep your hand in order   W      side rows / full score table\n"
        "  R, ^L  redraw the screen         S      save the game\n"
        "  H      hint: the expert's move   T      cards not seen yet (on / off)\n"
        "  L      the hand so far (scroll)  ?      this help     Q, ^C  quit (Really?)"
    ).split("\n")
    if network:
        lines.append(_(NETWORK_KEYS))
    yes_no = _("Yes/no: y, n, S (save first), ^L; {questions}: H, T, L too.")
    lines += textwrap.wrap(yes_no.format(questions=", ".join(questions)), LAST_COL)
    return lines


def _rules_text(rules: Rules) -> str:
    """:func:`table_help`'s paragraph on the rules that apply to ``rules``."""
    if rules.perfect_crossing:
        race = _("Race to exactly the target.")
    else:
        race = _("Race to the target or past it (+200 if exact).")
    text = (
        race
        + "  "
        + _(
            "Pick, then use or discard one card.  A Go starts you rolling; "
            "hazards stop an opposing side (Out of Gas, Flat Tire, Accident, Stop) or slow "
            "it (Speed Limit: 50 at most) until it plays the remedy (Gasoline, Spare Tire, "
            "Repairs, then Go; End of Limit)."
        )
    )
    if rules.battle == PROBLEMS:
        text += "  " + _("Played remedies go on the discard pile (Discard Go).")
    if rules.stacking:
        text += "  " + _("Hazards may hit a stopped side.")
    text += "  " + _(
        "A safety protects your side for good and gives another turn.  Hit by a "
        "hazard whose safety you hold: Coup Fourre? y plays it (+300), you move next "
        "(with other people: called)."
    )
    if rules.extension is not None:
        text += "  " + _(
            "Extension? (at {target}): y races on to {extension}, n ends the hand."
        ).format(target=rules.target, extension=rules.extension)
    if is_team_game(rules):
        text += "  " + _("Partners share a car; hands stay private.")
    if not rules.always_discard:
        text += "  " + _("A card you could play may not be discarded.")
    if rules.karma:
        text += "  " + _(
            "Karma: a hazard costs your side its karma; one without it cannot "
            "attack one with it; two with it clash (both lose it); False Virtue gives "
            "it back."
        )
    text += "  " + _(
        "Score: miles, 100 a safety, 300 all four, 300 a coup fourre (*), 400 "
        "the trip, bonuses (W)."
    )
    return text


RECORD_HELP = (N_("Your record: mille --stats (--no-record: none)."),)


# ----- colour --------------------------------------------------------------------


def card_pair(card: int) -> int:
    """The colour pair a card is drawn in: hazards red, remedies green,
    safeties cyan; 0 (the terminal's own colour) for distances and none.

    >>> from mille.engine.cards import STOP, GO, RIGHT_OF_WAY, D100, NO_CARD
    >>> [card_pair(card) for card in (STOP, GO, RIGHT_OF_WAY, D100, NO_CARD)]
    [1, 2, 3, 0, 0]
    """
    if is_hazard(card):
        return HAZARD_PAIR
    if is_remedy(card):
        return REMEDY_PAIR
    if is_safety(card):
        return SAFETY_PAIR
    return 0


def color_wanted(environ: Mapping[str, str], asked: bool = True) -> bool:
    """Colour unless ``--no-color`` (``asked`` False) or ``NO_COLOR`` is set
    and not empty (https://no-color.org).

    >>> color_wanted({}), color_wanted({"NO_COLOR": "1"}), color_wanted({"NO_COLOR": ""})
    (True, False, True)
    >>> color_wanted({}, asked=False)
    False
    """
    return asked and not environ.get("NO_COLOR")


def start_colors() -> bool:
    """Set up the colour pairs (after ``initscr``); False where the terminal
    has no colour."""
    try:
        if not curses.has_colors():
            return False
        curses.start_color()
        background = -1  # the terminal's own background
        try:
            curses.use_default_colors()
        except curses.error:
            background = curses.COLOR_BLACK
        for pair, foreground in PAIR_COLORS.items():
            curses.init_pair(pair, foreground, background)
    except curses.error:
        return False
    return True


# ----- words for the board ------------------------------------------------------


def game_title(table: SeatView) -> str:
    """``classic 4 players 2v2``: the preset, the seats, the teams."""
    rules = table.rules
    title = _("{rules} {players} players").format(rules=rules.name, players=rules.players)
    return title + (f" {rules.team_mode}" if is_team_game(rules) else "")


def since_last_turn(log: list[Event], seat: int) -> list[Event]:
    """The events from ``seat``'s last move that ended a turn on (the whole
    hand before it has ended one): what it did, and what came of it."""
    return log[recent(log, seat) :]


def log_lines(session: Game, seat: int) -> list[str]:
    """What happened since ``seat``'s last turn, as its event stream tells
    it; at the end of a hand, how it ended (and the game)."""
    table = session.view(seat)
    every = session.events(seat)
    start = recent(every, seat)
    notes = session.talk.notes  # a network table's lines
    lines = []
    for index in range(start, len(every)):
        lines += [text for at, text in notes if at == index]
        lines += describe(table, every[index])
    lines += [text for at, text in notes if at >= len(every)]
    return lines + end_lines(table, len(session.at_keyboard()) > 1)  # (a hot seat: by name)


def fit_lines(lines: list[str], width: int, height: int) -> list[str]:
    """``lines`` wrapped to ``width``; if they take more than ``height``
    rows, the last ones, under a line saying how many are not shown."""
    rows = [
        row for line in lines for row in textwrap.wrap(line, width, subsequent_indent="  ") or [""]
    ]
    if len(rows) <= height:
        return rows
    shown = rows[len(rows) - height + 1 :] if height > 1 else []
    hidden = len(rows) - len(shown)
    line = ngettext("({count} earlier line not shown)", "({count} earlier lines not shown)", hidden)
    return [line.format(count=hidden)][:height] + shown


def attacker(session: Game, hazard: int, seat: int) -> str | None:
    """Who played ``hazard`` last this hand (the one a coup fourre answers),
    as ``seat`` calls them."""
    for event in reversed(session.events(seat)):
        outcome = event.outcome
        if isinstance(outcome.move, Use) and outcome.card == hazard:
            return seat_name(session.rules, outcome.seat, session.view(seat).reader, session.people)
    return None


def question_context(session: Game, seat: int) -> str:
    """What the pending question is about, when it is yours.

    >>> from mille.engine.rules import find_rules
    >>> from mille.game.session import Session
    >>> s = Session.new(find_rules("classic", players=3), seed=1)
    >>> s.table.phase, s.table.asked, s.table.offer = COUP, 0, (1, 16, 6)
    >>> question_context(s, 0)
    'Flat Tire on you - you hold Puncture Proof'
    """
    table = session.view(seat)
    rules = table.rules
    if table.asked != seat:
        return ""
    if table.phase == COUP and table.offer is not None:
        safety, hazard = table.offer[1:]
        if is_team_game(rules):
            line = _("{hazard} on your team - you hold {safety}")
        else:
            line = _("{hazard} on you - you hold {safety}")
        line = line.format(hazard=card_name(hazard), safety=card_name(safety))
        who = attacker(session, hazard, seat)
        return f"{who}: {line}" if who is not None else line
    if table.phase == EXTENSION:
        miles = table.tableaux[table.side_index(seat)].mileage
        line = _("{miles} miles: y races on to {extension}, n ends the hand")
        return line.format(miles=miles, extension=rules.extension)
    return ""


def target_hint(table: SeatView, sides: list[int]) -> str:
    """The sides a hazard of yours can hit, as the board numbers them
    (``sides``: :func:`mille.engine.describe.hazard_targets`)."""
    hint = "  ".join(side_label(table.rules, side, table.reader, table.names) for side in sides)
    if text_width(hint) > LAST_COL:
        hint = _("sides {sides}").format(sides=" ".join(map(str, sides)))
    return hint


def side_rows(table: SeatView) -> int:
    """Rows the sides take: one each, two each in a team game."""
    return table.rules.sides * (2 if is_team_game(table.rules) else 1)


# ----- the board ------------------------------------------------------------------


class TableBoard(Screen):
    """The board for every preset but ``bsd``: a row per side, your hand and
    a log (or the card tracker), the prompt and the status, the error line."""

    PROMPT_Y, PROMPT_X = PROMPT_Y, 0  # PROMPT_Y follows the terminal's height (layout)
    PROMPT_RIGHT = LAST_COL
    MESSAGE_WIDTH = LAST_COL  # as message_text cuts it
    TRACKER_HIDES_SCORES = False  # the tracker takes the log's place; W is W

    thinking = ""  # the computer deciding now, shown on the status line
    awaited = ""  # the person the table waits for (away), shown there instead
    colored = False  # the colour pairs are set up (tui: a terminal with colour, wanted)
    error_y, log_bottom, hint_y = ERROR_Y, LOG_BOTTOM, HINT_Y  # on 24 rows (layout)

    def help_lines(self) -> list[str]:
        network = self.session.networked
        lines = table_help(self.session.rules, self.session.level, network)
        return without_keys(lines, refused_keys(self.session))

    def layout(self) -> None:
        """The bottom rows follow the terminal's height: prompt and error
        line last, the reminders and the log's end above them."""
        height = max(self.scr.getmaxyx()[0], PROMPT_Y + 2)
        self.error_y = height - 1
        self.PROMPT_Y = height - 2
        self.log_bottom = height - 3
        self.hint_y = height - 5

    def status_text(self) -> str:
        """Right of the prompt: who is thinking, or (at >>:Move:) the
        options that differ from the preset's and the computers' level
        (none where people alone play)."""
        if self.thinking:
            return _("{who} is thinking...").format(who=self.thinking)
        if self.awaited:
            return _("waiting for {who}").format(who=self.awaited)
        if self.prompt != MOVE_PROMPT:
            return ""
        words = option_summary(self.session.rules, self.session.level)
        options, level = words[:-1], words[-1]
        seats = range(self.session.rules.players)
        playing = sum(1 for seat in seats if not self.session.is_person(seat))
        if not playing:  # people alone: no word of a computer
            return _(", ").join(options)
        if playing == 1:
            computers = _("{level} computer").format(level=level)
        else:
            computers = _("{level} computers").format(level=level)
        return (_(", ").join(options) + _("; ") if options else "") + computers

    def draw_status(self) -> None:
        text = self.status_text()
        if not text:
            return
        prompt = text_width(_(self.prompt))
        start = self.PROMPT_X + prompt + 1 + len(self.echo) + len(self.ghost) + 1
        room = COLS - max(start, STATUS_X)
        if room > len(ELLIPSIS):
            text = shorten(text, room) if text.isascii() else fit(text, room)
            self.put(self.PROMPT_Y, COLS - text_width(text), text)

    def draw_whole_hint(self) -> None:
        """A hint longer than the error line, whole, at the foot of the
        log's place (those rows blanked first), until the next key."""
        lines = textwrap.wrap(self.whole_hint, LOG_WIDTH)
        for y, line in enumerate(lines, start=self.log_bottom - len(lines) + 1):
            self.put(y, LOG_X, " " * LOG_WIDTH)
            self.put(y, LOG_X, line)

    def field(self, y: int, column: tuple[str, int, int, bool], text: str, attr: int = 0) -> None:
        """Write ``text`` in a column of the side rows (cut to its width)."""
        x, width, right = column[1:]
        text = fit(text, width)  # by columns: a wide character takes two
        self.put(y, x, " " * (width - text_width(text)) + text if right else text, attr)

    def draw(self) -> None:
        table = self.session.view(self.seat)
        self.layout()
        self.draw_top(table)
        if self.full_window():
            lower = self.draw_full(table)
        else:
            self.draw_sides(table)
            lower = SIDES_Y + side_rows(table)
            self.draw_hints(table)
        self.draw_hand(table, lower)
        if self.tracker_shown():
            self.draw_unseen(table, lower)
        else:
            self.draw_log(lower)
        if self.hint_shown_whole():
            self.draw_whole_hint()
        if self.message:
            self.draw_message()
        if self.prompt in QUESTIONS:  # derived, so a restored game shows it too
            self.put(
                self.PROMPT_Y,
                CONTEXT_X,
                fit(question_context(self.session, self.seat), COLS - CONTEXT_X),
            )
        self.draw_status()
        self.draw_prompt()

    def pair(self, number: int) -> int:
        """A colour pair's attribute; 0 without colour (or for pair 0)."""
        return curses.color_pair(number) if self.colored and number else 0

    def card_attr(self, card: int) -> int:
        """How ``card`` is drawn: in its kind's colour (:func:`card_pair`)."""
        return self.pair(card_pair(card))

    def draw_message(self) -> None:
        """The error line; a message longer than it (a chat line, a long
        refusal), whole: wrapped at the foot of the log's place (those rows
        blanked first), above the prompt, as a long hint is."""
        text = self.message_text()
        if len(text) <= LAST_COL:
            self.put(self.error_y, 0, text)
            return
        lines = textwrap.wrap(text, LAST_COL)[-(self.log_bottom - SIDES_Y) :]
        for y, line in enumerate(lines, start=self.log_bottom - len(lines) + 1):
            self.put(y, 0, " " * LAST_COL)
            self.put(y, 0, line)

    def message_text(self) -> str:
        from ..engine.text import escape

        return escape(_(self.message))

    def draw_top(self, table: SeatView) -> None:
        rules = table.rules
        self.put(0, GAME_X, game_title(table))
        target = _("Target {miles}").format(miles=table.target)
        self.put(0, TARGET_X, target)
        if rules.extension is not None and table.target == rules.extension:
            self.put(0, TARGET_X + text_width(target) + 1, _("Extension"), curses.A_STANDOUT)
        deck = _("Deck {count}").format(count=table.deck_size)
        self.put(0, DECK_X, deck)
        if table.discard:
            top = table.discard[-1]
            label = _("Discard")
            x = max(DISCARD_X, DECK_X + text_width(deck) + 1)  # a longer word for Deck
            self.put(0, x, label)
            x += text_width(label) + 1
            self.put(0, x, fitting_name(top, COLS - x), self.card_attr(top))

    def draw_sides(self, table: SeatView) -> None:
        rules = table.rules
        columns = [NUMBER, NAME, MILES, BATTLE, SPEED, SAFETIES, HAND, TOTAL]
        if rules.karma:
            columns.append(KARMA)
        for column in columns:
            self.field(SIDES_Y - 1, column, _(column[0]))
        team = is_team_game(rules)
        y = SIDES_Y
        for side in range(1, rules.sides + 1):
            tab = table.tableaux[side - 1]
            battle, speed = top_cards(table, side)
            yours = table.reader is not None and side == table.side_of(table.reader)
            attr = curses.A_BOLD | self.pair(YOU_PAIR) if yours else 0
            self.field(y, NUMBER, str(side), attr)
            seats = rules.members(side)
            if len(seats) == 1:  # a network seat's mark: awaited, away, a computer for now
                self.put(y, 0, presence_mark(self.session, seats[0]))
            name = fit_name(side_name(rules, side, table.reader, table.names), NAME[2])
            self.field(y, NAME, name, attr)
            self.field(y, MILES, str(tab.mileage))
            self.field(y, BATTLE, fitting_name(battle, BATTLE[2]), self.card_attr(battle))
            self.field(y, SPEED, fitting_name(speed, SPEED[2]), self.card_attr(speed))
            x = SAFETIES[1]
            shorts = [safety_short(index) for index in range(len(SAFETY_SHORT))]
            for mark in safety_marks(table, side):
                self.put(
                    y,
                    x + SAFETY_OFFSETS[shorts.index(mark.rstrip("*"))],
                    mark,
                    self.card_attr(EXTRA_TANK),
                )
            if rules.karma:
                self.field(y, KARMA, _("yes") if tab.karma else _("no"))
            self.field(y, HAND, str(table.hand_score(side).total))
            self.field(y, TOTAL, str(table.total(side)))
            y += 1
            if team:
                members = side_members(rules, side, table.reader, table.names)
                self.put(y, MEMBERS_X, members[: COLS - MEMBERS_X])
                y += 1

    def draw_full(self, table: SeatView) -> int:
        """Every score row for every side (W, and the end of a hand); the
        row where the hand's heading goes, under a blank one."""
        sides = table.rules.sides
        width = min(MAX_COLUMN, (COLS - LABEL_WIDTH) // sides)
        for index in range(sides):
            name = fit(side_name(table.rules, index + 1, table.reader, table.names), width - 1)
            self.put(1, LABEL_WIDTH + index * width, " " * (width - text_width(name)) + name)
        rows = score_table(table)
        for y, (label, values) in enumerate(rows, start=2):
            attr = curses.A_BOLD if label == _("Overall Total") else 0
            self.put(y, 0, fit(label, LABEL_WIDTH))
            for index, value in enumerate(values):
                self.put(y, LABEL_WIDTH + index * width, str(value).rjust(width), attr)
        return min(FULL_LOWER, 2 + len(rows) + 1)

    def draw_hand(self, table: SeatView, lower: int) -> None:
        self.put(lower, HAND_X, fit(_("--HAND--"), LOG_X - 1))
        hand = table.hand
        for slot, card in enumerate(hand):
            y = lower + 1 + slot
            self.put(y, HAND_X, "P" if slot == 0 else str(slot))
            shown = short_card_name(card)  # (BSD's board's 18-column names: the hand's room)
            self.put(y, CARD_X, fit(shown, LOG_X - CARD_X - 1), self.card_attr(card))

    def draw_log(self, lower: int) -> None:
        self.put(lower, LOG_X, fit(_("--SINCE YOUR LAST TURN--  (l: the whole hand)"), LOG_WIDTH))
        top = lower + 1
        for y, line in enumerate(
            fit_lines(log_lines(self.session, self.seat), LOG_WIDTH, self.log_bottom + 1 - top),
            start=top,
        ):
            self.put(y, LOG_X, line)

    def draw_unseen(self, table: SeatView, lower: int) -> None:
        """The card tracker (T) where the log goes: how many of each card
        you have not seen (the deck and the other hands), read downwards."""
        from ..engine.describe import unseen

        total = sum(unseen(table))
        line = ngettext(
            "--NOT SEEN YET-- {total} card, {deck} in the deck  (t: log)",
            "--NOT SEEN YET-- {total} cards, {deck} in the deck  (t: log)",
            total,
        )
        self.put(lower, LOG_X, fit(line.format(total=total, deck=table.deck_size), LOG_WIDTH))
        for index, column in enumerate(tracker_cells(table, TRACKER_COLUMNS)):
            for y, cell in enumerate(column, start=lower + 1):
                self.put(y, LOG_X + index * TRACKER_COLUMN, cell)

    def draw_hints(self, table: SeatView) -> None:
        room = LOG_X - 1
        refused = refused_keys(self.session)
        keys = (
            _("t: tracker") if "h: " in refused else _("h: hint  t: tracker")
        )  # (a watcher: no hint)
        self.put(self.hint_y, HAND_X, fit(keys, room))
        self.put(self.hint_y + 1, HAND_X, fit(_("w: scores  ?: help"), room))
        if "o: " in refused:  # a remote seat cannot order its hand
            return
        order = _("o: stop ordering") if table.ordering else _("o: order hand")
        self.put(self.hint_y + 2, HAND_X, fit(order, room))


__all__ = [
    "PAIR_COLORS",
    "TableBoard",
    "card_pair",
    "color_wanted",
    "start_colors",
    "fit_lines",
    "game_title",
    "log_lines",
    "question_context",
    "since_last_turn",
    "table_help",
    "target_hint",
]
