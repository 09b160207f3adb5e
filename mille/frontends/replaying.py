"""``mille --replay [N|FILE]``: a finished game found (:func:`find`), and
the words both replay front ends say (the board's, :mod:`.replay_ui`, and
the line mode's, :mod:`.replay_lines`).

The game comes from the record (the last game recorded, or game ``N`` as
``mille --stats`` numbers them) or from a game file (``mille --export``
writes one, ``docs/game-format.md``); :func:`find` refuses, in one line
and with exit status 1, no such game, a game kept without its moves, a
file that is no game file, a later version's.  The words: where the
replay is (:func:`status`: ``hand 2 of 4, move 14 of 63``), the move just
made in the log's words (:func:`move_words`), whose view is shown
(:func:`whose`).
"""

from __future__ import annotations

import sys

from ..engine import describe
from ..engine.cards import NO_CARD
from ..engine.moves import Pick
from ..i18n import N_, _

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..game.history import History
    from ..game.replay import Replay

NO_MOVES = N_(
    "mille: --replay: game {number} was recorded without its moves"
    " (by an older mille, or resumed from a save)"
)
NO_GAME = N_("mille: --replay: no game {number} in the record (mille --stats numbers them)")
NO_GAMES = N_("mille: --replay: no game in the record yet")
OPEN = N_("every hand open")
MARKS = N_(
    "A reviewed game (mille --review) marks the person's moves:\n"
    "  ! a mistake   ? another move than the expert's   = the expert's move"
)


def find(what: str) -> Replay | None:
    """The replay of the game ``what`` names, or None once the refusal is said."""
    from ..game.history import HistoryError
    from ..game.replay import Replay
    from ..storage import gamefile
    from .process import complain

    if what and not (what.isdigit() and what.isascii()):
        try:
            return Replay(gamefile.load(what), source=what)
        except (gamefile.SaveError, HistoryError) as exc:
            complain(what, str(exc))
            return None
    number = int(what) if what else None
    found = _recorded(number)
    if found is None:
        return None
    number, text = found
    try:
        history = gamefile.loads(text)
        return Replay(history, notes=_marks(number, history), here=_here(number))
    except (gamefile.SaveError, HistoryError) as exc:  # moves another program changed
        line = _("mille: --replay: the moves of game {number} cannot be read: {why}")
        print(line.format(number=what or _("last"), why=exc), file=sys.stderr)
        return None


def _here(number: int) -> tuple[int, ...]:
    """The seats of game ``number`` that the record says were played at
    this machine (a joiner's own seat; () if it cannot say)."""
    from ..storage import record

    try:
        games = record.games()
    except (record.RecordError, ValueError):
        return ()
    found = (g for g in games if g.number == number)
    return next((tuple(s.seat for s in g.seats if s.here and s.level is None) for g in found), ())


def _marks(number: int, history: History) -> dict[tuple[int, int], str]:
    """The marks of the reviews the record keeps of game ``number`` (each
    person's seat reviewed, ``mille --review``), as the replay's notes."""
    from ..game.review import people, replay_notes
    from .review_words import kept_review

    reviews = (kept_review(number, seat) for seat in people(history))
    return replay_notes(review for review in reviews if review is not None)


def _recorded(number: int | None) -> tuple[int, str] | None:
    """Game ``number``'s number and game file text in the record (None:
    the last game's), or None once the refusal is said."""
    from ..storage import record
    from .record_words import record_failed

    try:
        if number is None:
            games = record.games()
            if not games:
                print(_(NO_GAMES), file=sys.stderr)
                return None
            number = games[-1].number
        text = record.history(number)
    except LookupError:
        print(_(NO_GAME).format(number=number), file=sys.stderr)
        return None
    except record.RecordError as exc:
        record_failed(exc)
        return None
    except ValueError as exc:
        line = _("mille: --replay: the moves of game {number} cannot be read: {why}")
        print(line.format(number=number, why=exc), file=sys.stderr)
        return None
    if text is None:
        print(_(NO_MOVES).format(number=number), file=sys.stderr)
        return None
    return number, text


def help_lines(text: str) -> list[str]:
    """A replay's help page ``text`` with the marks' key (:data:`MARKS`)
    before its last paragraph (the board's "Press a key" line)."""
    head, _sep, tail = text.rpartition("\n\n")
    if not head:  # one paragraph (the line mode's): the key after it
        return [*text.split("\n"), *_(MARKS).split("\n")]
    return f"{head}\n\n{_(MARKS)}\n\n{tail}".split("\n")


def status(game: Replay) -> str:
    """Where the replay is: ``hand 2 of 4, move 14 of 63``."""
    hand, move = game.where()
    line = _("hand {hand} of {hands}, move {move} of {moves}")
    return line.format(hand=hand + 1, hands=game.hands, move=move, moves=game.moves())


def whose(game: Replay) -> str:
    """Whose view is shown: a seat's name, or every hand open."""
    if game.open:
        return _(OPEN)
    seat = game.viewer
    name = describe.seat_name(game.rules, seat, None, game.people)
    return _("seen by {who}").format(who=name)


def move_words(game: Replay) -> str:
    """The move just made, in the log's words as the viewer saw it (every
    hand open: as it was), its note after it; "" at a hand's start."""
    log = game.log
    if not log:
        return ""
    seen = game.events(game.viewer, len(log) - 1)
    words = " ".join(describe.describe(game.view(game.viewer), seen[0])) if seen else ""
    outcome = log[-1].outcome
    if not words and isinstance(outcome.move, Pick):  # another seat's pick
        who = describe.seat_name(
            game.rules, outcome.seat, game.view(game.viewer).reader, game.people
        )
        cards = [describe.card_name(card) for card in outcome.drawn if card != NO_CARD]
        if game.open and cards:
            words = _("{who} drew {cards}").format(who=who, cards=", ".join(cards))
        else:
            words = _("{who} drew a card").format(who=who)
    note = game.note()
    return f"{words} [{note}]" if note and words else words or note
