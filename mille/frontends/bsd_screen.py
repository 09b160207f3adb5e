"""BSD's board, drawn the way BSD mille draws it.

The screen is 80x24 and has three regions, as in BSD:

* the board (columns 0-39): safeties, your hand, deck, discard pile,
  battle and speed tops, the prompt line and the computer's last move;
* the score window (columns 40-79, rows 0-16) with its ``|`` border, the
  small or full score table (or, while T is on, the card tracker: how many
  of each card you have not seen) and the error line (row 15, column 45);
* the mileage area (rows 17-23): one column per distance card played.

:class:`BsdBoard` draws it from the session and what the screen shows
besides the game (:class:`mille.frontends.screen.Screen`); the keys and
the prompts are the board's dialogues' (:class:`mille.frontends.ui.Ui`).
"""

from __future__ import annotations

import curses

from ..engine.cards import CARD_NAMES, EXTRA_TANK, HAND_SLOTS, NO_CARD
from ..engine.describe import person_name, short_card_name
from ..engine.table import Discard, Outcome, Pick
from ..engine.text import escape, fit, fit_name
from ..engine.text import width as text_width
from ..i18n import N_, _, ngettext
from .screen import Screen, presence_mark, refused_keys, tracker_cells, without_keys

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

# The card tracker in the score window (T): a heading, two columns of cards.
TRACK_X = SCORE_X + 2
TRACK_COLUMN = 19  # from one column of cards to the next
TRACK_Y = 2  # the first row of cards

SCORE_TOP = (
    (0, 22, N_("You   Comp   Value")),
    (1, 2, N_("Milestones Played")),
    (2, 8, N_("Each Safety")),
    (3, 5, N_("All 4 Safeties")),
    (4, 3, N_("Each Coup Fourre")),
    (2, 37, "100"),
    (3, 37, "300"),
    (4, 37, "300"),
)
SCORE_SMALL = (
    (5, 21, "----   ----   -----"),
    (6, 9, N_("Hand Total")),
    (7, 20, "-----  -----"),
    (8, 6, N_("Overall Total")),
    (9, 15, N_("Games")),
    (11, 2, N_("p: pick")),
    (12, 2, N_("u: use #")),
    (13, 2, N_("d: discard #")),
    (14, 2, N_("w: toggle window")),
    (11, 21, N_("q: quit")),
    (13, 21, N_("s: save")),
    (14, 21, N_("r: reprint")),
)
SCORE_FULL = (
    (5, 5, N_("Trip Completed")),
    (6, 10, N_("Safe Trip")),
    (7, 5, N_("Delayed Action")),
    (8, 10, N_("Extension")),
    (9, 11, N_("Shut-Out")),
    (10, 21, "----   ----   -----"),
    (11, 9, N_("Hand Total")),
    (12, 20, "-----  -----"),
    (13, 6, N_("Overall Total")),
    (14, 15, N_("Games")),
    (5, 37, "400"),
    (6, 37, "300"),
    (7, 37, "300"),
    (8, 37, "200"),
    (9, 37, "500"),
)


HELP_TEXT = N_("""MILLE BORNES: keys and rules (this help is not in BSD mille)

At >>:Move: (upper or lower case):
  P      pick a card               U n    use the card in slot n
  D n    discard the card in slot n (n: P or 0, 1-6; RETURN or SPACE confirms)
  O      keep your hand in order   W      small / full score window
  R, ^L  redraw the screen         S      save the game
  H      hint: the expert's move   T      cards not seen yet (T or W: scores)
  L      the hand so far (scroll)  ?      this help
  Q, ^C  quit (asks Really?)
Yes/no questions take y, n, S (save first), ^L; Extension?: H, T, L too.
Race to exactly 700 miles (1000 after an extension); 5000 points win a game.
Pick, then use or discard one card.  You need a Go to roll.  Hazards stop the
opponent (Out of Gas, Flat Tire, Accident, Stop) or slow them (Speed Limit: no
distance over 50) until they play the remedy (Gasoline, Spare Tire, Repairs,
then Go; End of Limit).  A safety (Extra Tank, Puncture Proof, Driving Ace,
Right of Way) protects for good and gives another turn; played before you
pick, right after its hazard, it is a coup fourre.  Two 200s a hand at most.
Hot seat: --people 0=Ann,1=Bob.  Your record: mille --stats (--no-record).
Score: the miles; 100 a safety, 300 for all four, 300 a coup fourre; and for
the trip 400, +300 without 200s, +300 with the deck out, +200 for an
extension, +500 if the opponent has no miles.""")
HELP = tuple(HELP_TEXT.split("\n"))  # in English
QUIT_KEYS = N_("  Q, ^C  quit (asks Really?)")  # a line of HELP
NETWORK_KEYS = N_("       J      the table   C  a line to the table")
HELP_END = N_("Computer: {level} (--level: {guide}).  Press any key to go back to the game.")


def help_lines(level: str) -> list[str]:
    """``?`` on BSD's board: the keys, the rules, the computer's level and
    who each level is for.

    >>> help_lines("easy")[-2:]  # doctest: +NORMALIZE_WHITESPACE
    ['Computer: easy (--level: easy for a first game, standard for most, expert for a',
     'challenge).  Press any key to go back to the game.']
    """
    import textwrap

    from ..engine.describe import level_name
    from ..players.registry import LEVEL_GUIDE

    end = _(HELP_END).format(level=level_name(level), guide=_(LEVEL_GUIDE))
    return [*_(HELP_TEXT).split("\n"), *textwrap.wrap(end, RIGHT)]


def place_label(x: int, english: str, shown: str) -> tuple[int, str]:
    """Where a translated label of the score window goes, and its text: a
    label ending where its English ends (the names of the rows end at
    column 19, before the numbers), fitted to its room (a heading or a key
    to the end of the window)."""
    end = x + text_width(english)
    if ": " in english:  # a key, in its column
        room = 19 if x < 21 else RIGHT - SCORE_X - x + 1
        return x, fit(shown, room)
    if end <= 20:  # a row's name, right-aligned to the numbers
        shown = fit(shown, end - 1)
        return end - text_width(shown), shown
    return x, fit(shown, RIGHT - SCORE_X - x + 1)


class BsdBoard(Screen):
    """BSD's board: two seats, the score window, the mileage area."""

    PROMPT_Y, PROMPT_X = MOVE_Y, MOVE_X
    PROMPT_RIGHT = BOARD_RIGHT
    MESSAGE_WIDTH = RIGHT - ERR_X + 1
    TRACKER_HIDES_SCORES = True  # the tracker takes the score window (W leaves it)

    last_move: tuple[str, str] | None = None  # the computer's PLAY/DISCARD, card

    def help_lines(self) -> list[str]:
        lines = help_lines(self.session.level)
        if self.session.networked:  # J and C beside Q
            quit_keys = _(QUIT_KEYS)
            if quit_keys in lines:
                lines[lines.index(quit_keys)] = quit_keys + _(NETWORK_KEYS)
        return without_keys(lines, refused_keys(self.session))

    def computer_moved(self, outcome: Outcome) -> None:
        """The computer's last move stays under the prompt (not a pick)."""
        if not isinstance(outcome.move, Pick):
            what = _("DISCARD") if isinstance(outcome.move, Discard) else _("PLAY")
            self.last_move = (what, short_card_name(outcome.card))

    def new_hand(self) -> None:
        self.last_move = None

    def sides(self) -> tuple[int, int]:
        """The seats (and sides, less one) drawn left and right: the seat
        shown on the left, as BSD draws you (with two people, each sees
        their own side there)."""
        return (HUMAN, COMPUTER) if self.seat == HUMAN else (COMPUTER, HUMAN)

    def draw(self) -> None:
        """The game's screen (not the help, not the too-small notice)."""
        self.draw_board()
        self.draw_score()
        self.draw_miles()
        self.draw_prompt()

    def draw_board(self) -> None:
        state = self.session.view(self.seat)
        for index, who in enumerate(self.sides()):
            tab = state.tableaux[who]
            x = index * COMP_X + CARD_X
            for safety in tab.safeties:
                row = safety - EXTRA_TANK
                self.put(row, x, short_card_name(safety))
                if tab.coups[row]:
                    self.put(row, x - CARD_X, "*")
            if tab.top != NO_CARD:
                self.put(14, x, short_card_name(tab.top))
            if tab.speed_top != NO_CARD:
                self.put(16, x, short_card_name(tab.speed_top))
        if state.target == state.rules.extension:
            self.put(EXT_Y, EXT_X, fit(_("Extension"), COMP_X - EXT_X - 1), curses.A_STANDOUT)
        self.put(5, 0, fit(_("--HAND--"), COMP_X - 1))
        self.put(5, 20, fit(_("--DECK--"), COMP_X - 1))
        self.put(7, 20, fit(_("--DISCARD--"), COMP_X - 1))
        for x in (0, COMP_X):
            self.put(13, x, fit(_("--BATTLE--"), COMP_X - 1))
            self.put(15, x, fit(_("--SPEED--"), COMP_X - 1))
        hand = state.hand
        for slot in range(HAND_SLOTS):
            self.put(6 + slot, 0, "P" if slot == 0 else str(slot))
            if hand[slot] != NO_CARD:
                self.put(6 + slot, CARD_X, short_card_name(hand[slot]))
        self.put(6, COMP_X + CARD_X, f"{state.deck_size:2d}")
        if state.discard:
            self.put(8, COMP_X + CARD_X, short_card_name(state.discard[-1]))
        if self.last_move is not None:
            what, card = self.last_move
            self.put(MOVE_Y + 1, MOVE_X, fit(what, BOARD_RIGHT - MOVE_X))
            card = fit(card, 16)
            self.put(MOVE_Y + 2, MOVE_X, " " * (16 - text_width(card)) + card)

    def draw_score(self) -> None:
        for y in range(SCORE_ROWS):
            self.put(y, SCORE_X, "|")
        self.put(SCORE_ROWS - 1, SCORE_X + 1, "_" * (RIGHT - SCORE_X))
        if self.tracker_shown():
            self.draw_tracker()
        else:
            self.draw_scores()
        if self.message:
            self.draw_message()
        if self.hint_shown_whole():
            self.draw_whole_hint()

    def draw_message(self) -> None:
        """The error line; over the network a longer message (who came or
        went, chat) whole, on the score window's lower rows ending on the
        error line, as a long hint is."""
        import textwrap

        text = escape(_(self.message))  # kept in English, shown translated
        width = RIGHT - ERR_X + 1
        network = self.session.networked  # at home, cut as BSD's
        if len(text) <= width or not network or self.hint_shown_whole():
            self.put(ERR_Y, ERR_X, text[:width])
            return
        lines = textwrap.wrap(text, width)[-(ERR_Y - 10) :]
        for y, line in enumerate(lines, start=ERR_Y - len(lines) + 1):
            self.put(y, SCORE_X + 1, " " * (RIGHT - SCORE_X))
            self.put(y, ERR_X, line)

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

        table = self.session.view(self.seat)
        other = self.sides()[1]
        if other in self.session.people:
            heading = _("Not seen yet (deck and {name}'s hand)")
            heading = heading.format(name=person_name(other, self.session.people[other]))
        else:
            heading = _("Not seen yet (deck and Comp's hand)")
        self.put(0, TRACK_X, fit(heading, RIGHT - TRACK_X + 1))
        for index, column in enumerate(tracker_cells(table, 2)):
            for y, cell in enumerate(column, start=TRACK_Y):
                self.put(y, TRACK_X + index * TRACK_COLUMN, cell)
        total = sum(unseen(table))
        line = ngettext(
            "{total} card, {deck} of them in the deck",
            "{total} cards, {deck} of them in the deck",
            total,
        )
        self.put(
            13, TRACK_X, fit(line.format(total=total, deck=table.deck_size), RIGHT - TRACK_X + 1)
        )
        self.put(14, TRACK_X, fit(_("t or w: scores"), RIGHT - TRACK_X + 1))

    def draw_scores(self) -> None:
        state = self.session.view(self.seat)
        full = self.full_window()
        labels = SCORE_TOP + (SCORE_FULL if full else SCORE_SMALL)
        refused = refused_keys(self.session)  # a joiner's board: no s, no o
        for y, x, text in labels:
            if text[:3] in refused:
                continue
            shown = _(text)
            if shown is not text:
                x, shown = place_label(x, text, shown)
            self.put(y, SCORE_X + x, shown)
        if not full and "o: " not in refused:
            order = _("o: stop ordering") if state.ordering else _("o: order hand")
            self.put(12, SCORE_X + 21, fit(order, RIGHT - SCORE_X - 21))
        other = self.sides()[1]
        if other in self.session.people:  # two people: the other's name, not Comp
            mark = presence_mark(self.session, other)  # a network seat: away, a computer
            shown = person_name(other, self.session.people[other])
            name = fit_name(shown, 6 - text_width(mark)) + mark  # by columns
            self.put(0, SCORE_X + 28, name + " " * (7 - text_width(name)))
        for index, who in enumerate(self.sides()):
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
            x = SCORE_X + 21 + 6 * index
            for y, value in enumerate(rows, start=1):
                self.put(y, x, f"{value:4d}")
            for y, value in tail.items():
                self.put(y, x, f"{value:4d}")

    def draw_miles(self) -> None:
        self.put(MILES_Y, 0, fit(_("--MILEAGE--"), SCORE_X - 1))
        self.put(MILES_Y, 41, fit(_("--MILEAGE--"), SCORE_X - 2))
        for index, who in enumerate(self.sides()):
            seen = [0] * 5
            for card in self.session.view(self.seat).tableaux[who].miles:
                self.put(MILES_Y + 1 + card, 40 * index + 4 * seen[card], CARD_NAMES[card])
                seen[card] += 1
