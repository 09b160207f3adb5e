"""``mille --replay --plain``: a finished game shown again in lines, a
command a line (the board's keys as words: ``next``, ``back``, ...).

Each step says where the replay is (``hand 2 of 4, move 14 of 63``),
whose view is shown, and the move just made in the log's words; ``r``
says the table as the seat saw it (every hand open: every hand), a
hand's end its result and scores.  The end of the input, or ``q``, ends
it (exit status 0); nothing is kept: the game is in the record already.
"""

from __future__ import annotations

import sys

from ..engine import describe
from ..engine.cards import NO_CARD
from ..engine.describe import card_name
from ..engine.moves import OVER
from ..i18n import N_, _, ngettext
from . import replaying
from .plain import read_line
from .plain_board import score_lines, table_lines

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import BinaryIO, TextIO

    from ..game.replay import Replay

HELP = N_(
    "Replay commands (then RETURN; case does not matter):\n"
    "  l, next       the next move (RETURN alone too)\n"
    "  h, back       the move before\n"
    "  [, start      the start of this hand\n"
    "  ], end        the end of this hand\n"
    "  n, hand       the next hand\n"
    "  p, previous   the hand before\n"
    "  g N, go N     move N of this hand\n"
    "  v, view       one seat's view, or every hand open\n"
    "  s, seat       the next seat's view\n"
    "  r, reprint    the table as it is\n"
    "  w, window     the scores\n"
    "  q, quit       leave the replay\n"
    "  ?, help       this summary"
)

# each command's words, and what it does
STEPS: dict[str, Callable[[Replay], None]] = {
    "": lambda game: game.forward(),
    "l": lambda game: game.forward(),
    "next": lambda game: game.forward(),
    "h": lambda game: game.back(),
    "back": lambda game: game.back(),
    "[": lambda game: game.start(),
    "start": lambda game: game.start(),
    "]": lambda game: game.end(),
    "end": lambda game: game.end(),
    "n": lambda game: game.next(),
    "hand": lambda game: game.next(),
    "p": lambda game: game.previous(),
    "previous": lambda game: game.previous(),
}
VIEW = ("v", "view")
SEAT = ("s", "seat")
GO = ("g", "go")
REPRINT = ("r", "reprint")
SCORES = ("w", "window")
QUIT = ("q", "quit")
HELPS = ("?", "help")


def open_lines(game: Replay) -> list[str]:
    """Every hand open: each other seat's hand, by name."""
    line = _("{who}, hand: {cards}.")
    lines = []
    for seat, hand in game.open_hands().items():
        who = describe.seat_name(game.rules, seat, None, game.people)
        cards = ", ".join(card_name(card) for card in hand if card != NO_CARD) or _("empty")
        lines.append(line.format(who=who, cards=cards))
    return lines


def where_lines(game: Replay) -> list[str]:
    """Where the replay is, whose view, the move just made; at a hand's
    end its result."""
    lines = [f"{replaying.status(game)} ({replaying.whose(game)})."]
    words = replaying.move_words(game)
    if words:
        lines.append(words)
    if game.table.phase == OVER:
        lines.append(describe.hand_result(game.view(game.viewer)))
    return lines


class ReplayLines:
    """The line mode's replay: reads commands, says what they show."""

    def __init__(self, game: Replay, stdin: BinaryIO, stdout: TextIO) -> None:
        self.game = game
        self.stdin = stdin
        self.stdout = stdout

    def say(self, lines: list[str]) -> None:
        self.stdout.write("".join(line + "\n" for line in lines))
        self.stdout.flush()

    def table(self) -> list[str]:
        """``r``: the table as the viewer saw it (and the open hands)."""
        game = self.game
        return table_lines(game.view(game.viewer)) + open_lines(game)

    def command(self, text: str) -> bool:
        """Do one command line; False to leave."""
        game = self.game
        words = text.strip().lower().split()
        word, rest = (words[0], words[1:]) if words else ("", [])
        if word in QUIT:
            return False
        if word in STEPS and not rest:
            STEPS[word](game)
        elif word in GO and len(rest) == 1 and rest[0].isdigit() and rest[0].isascii():
            game.go(game.where()[0], int(rest[0]))
        elif word in VIEW and not rest:
            game.open = not game.open
        elif word in SEAT and not rest:
            game.choose(game.viewer + 1)
        elif word in REPRINT and not rest:
            self.say(where_lines(game) + self.table())
            return True
        elif word in SCORES and not rest:
            self.say(score_lines(game.view(game.viewer)))
            return True
        elif word in HELPS and not rest:
            self.say(replaying.help_lines(_(HELP)))
            return True
        else:
            shown = " ".join(text.split())[:40]
            self.say([_("unknown command: {command} (? for the commands)").format(command=shown)])
            return True
        self.say(where_lines(game))
        return True

    def run(self) -> None:
        """Until ``q`` or the end of the input."""
        game = self.game
        intro = ngettext(
            "A replay of a game of {hands} hand: ? for the commands.",
            "A replay of a game of {hands} hands: ? for the commands.",
            game.hands,
        )
        self.say([intro.format(hands=game.hands)] + where_lines(game) + self.table())
        while True:
            self.stdout.write(_("replay> "))
            self.stdout.flush()
            raw = read_line(self.stdin)
            if not raw:
                self.say([""])
                return
            if not self.command(raw.decode("utf-8", "replace")):
                return


def play(game: Replay, stdin: BinaryIO | None = None, stdout: TextIO | None = None) -> int:
    """Run the line mode's replay; the exit status (0; 1 without input or output)."""
    source = stdin if stdin is not None else getattr(sys.stdin, "buffer", None)
    out = stdout if stdout is not None else sys.stdout
    if source is None or out is None:
        print(_("mille: no standard input"), file=sys.stderr)
        return 1
    try:
        ReplayLines(game, source, out).run()
    except (BrokenPipeError, OSError):  # the output went away
        return 1
    return 0
