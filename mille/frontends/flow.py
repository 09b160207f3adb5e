"""The game flow every front end shares: the turn loop and its dialogues.

The boards (``ui``, ``table_ui``) and the line mode (``plain``) draw and
read in their own ways; whose move it is, which questions are asked, in
what order, and what each answer does are written here once.

:func:`run` drives a game: the computers move one at a time, with a
:meth:`Front.checkpoint` before each (a hang-up is seen after the move
under way, not after all of them); your turn reads one command
(:meth:`Front.read_move`), asks ``Discard a safety?`` for a safety the
rules let you discard, and makes the move; ``Coup Fourre?`` and
``Extension?`` are asked when they are yours; the end of a hand asks
:func:`end_of_hand`'s questions; ``Really?`` (:func:`really`) ends the
game on ``y``.  A front end implements :class:`Front` (draw or tell, read
keys or lines), and the next one (a remote seat) needs no copy of the loop.

The dialogues alone are :class:`Dialogue` (ask a yes/no question, read a
file name, show the outcome of a save, show the next hand, which the flow
deals) with :func:`save` and :func:`end_of_hand`.

**Several people.**  Any seat may be a person (``session.people``); the
others are computers.  A front end shows one seat at a time, its
``seat``: its board or lines are drawn from that seat's view and event
stream (``session.view(seat)``, ``session.events(seat)``), with names
relative to it.  On one keyboard (a hot seat) the flow gives the front end
to the person who must decide (:func:`give`): between two different
people's turns, and before a question to another person, it calls
:meth:`Front.hand_off`, which hides the hand shown and waits for the next
person ("Pass to Ann. Ann, press a key").  ``Coup Fourre?`` must not show
that a person holds the safety, nor can the time they take to answer it
be hidden from the others at the table: with two people or more it is
never asked, the session calls the coup fourre for them
(``Session.calls_coup``), and a person alone against computers is asked.
After a hazard lands on a side with people (the presets that ask it),
every person of that side is given the front end in seat order
(:func:`after_hazard`), to see it (and a coup fourre called), a key each;
the computers answer at once, and their view never shows another seat's
question (``SeatView.question_hidden``).  Whoever holds the front end answers
``Another hand?``/``Another game?`` and may save (S) or quit (Q, for
everyone) when it is their move.
"""

from __future__ import annotations

import os

from ..engine.cards import HAZARDS
from ..engine.rules import other_side
from ..engine.table import COUP, EXTENSION, NO, OVER, PLAYING, YES, IllegalMove, Use
from ..i18n import _, oserror, when
from .questions import Question

TYPE_CHECKING = False  # no typing import at run time (start-up)
if TYPE_CHECKING:
    from typing import Protocol

    from ..engine.table import Move, Outcome
    from ..engine.view import SeatView
    from ..game.protocol import Game
    from .recorder import Recorder

    class Dialogue(Protocol):
        """What a front end does for the shared dialogues."""

        @property
        def session(self) -> Game:
            """The game played (read: a front end may hold a narrower one)."""

        saved: bool  # the last yes/no question's S saved the game
        save_after_game: bool  # Save game? asked after a game won too (BSD's own board)

        def ask(self, question: Question, can_save: bool = True) -> bool:
            """A yes/no question (``can_save``: S saves the game first)."""

        def read_file_name(self) -> str:
            """The ``file:`` prompt; ``""`` gives up."""

        def save(self) -> bool:
            """The save dialogue (:func:`save` with this front end)."""

        def save_failed(self, reason: str) -> None:
            """Show why the game was not written; the game goes on."""

        def saved_to(self, name: str, when: str) -> None:
            """Show that the game was written to ``name`` at ``when``."""

        def new_hand(self) -> None:
            """Show the next hand (the flow has dealt it)."""

        def go_on_after_failed_save(self) -> None:
            """Show the next hand (dealt) after a save at the end failed,
            keeping the reason in view."""

    class Front(Dialogue, Protocol):
        """What a front end does for the turn loop (:func:`run`): draw or
        tell what happens, read your moves; the loop decides the rest.

        ``seat`` is the seat it shows now (a person's); "you" below is the
        person at that seat."""

        seat: int
        recorder: Recorder  # the record of the games it plays (its own)

        def hand_off(self, seat: int) -> None:
            """Hide the hand shown, have the person at ``seat`` take the
            keyboard (a key), then show ``seat``'s board: ``seat`` is now
            the one shown."""

        def pause(self) -> None:
            """The person just handed the keyboard has nothing to decide
            (a hazard landed on their side): let them look, until a key."""

        def read_answer(self, question: Question, can_save: bool) -> str:
            """One answer to a yes/no question (:func:`ask`): ``"y"``,
            ``"n"``, ``"s"`` (only if ``can_save``), or ``""`` for what the
            front end did itself (a hint, help, a redraw, a beep)."""

        def introduce(self) -> None:
            """Before anything else: what the game is (or nothing)."""

        def resumed_at_end(self) -> None:
            """A game saved at an end-of-hand question: the flow has dealt
            the next hand; show it."""

        def started(self) -> None:
            """The game is about to be played: show it."""

        def checkpoint(self) -> None:
            """Between two moves: act on the signals that came meanwhile
            (:class:`Hangup` if the player is gone)."""

        def computer_thinks(self) -> None:
            """A computer is about to decide (its move, or an answer)."""

        def computer_moved(self, outcome: Outcome) -> None:
            """Show what the computer did."""

        def human_turn(self) -> None:
            """Your move is about to be read: show what you need."""

        def read_move(self) -> Move | None:
            """One command: a move to make, or None if it was done there."""

        def refused(self, reason: str) -> None:
            """Show why the engine refused your move; nothing changed."""

        def played(self, outcome: Outcome) -> None:
            """Your move or answer was made (``outcome``, as you saw it)."""

        def question(self, question: Question) -> None:
            """``Coup Fourre?`` or ``Extension?`` is about to be asked of you."""

        def hand_over(self) -> None:
            """The hand is over: show how it ended, before the questions."""


class Quit(Exception):
    """The player is done (``Really?`` yes, or no more hands)."""


class Hangup(Exception):
    """The player is gone (a hang-up, SIGTERM, SIGQUIT, a lost terminal):
    the game must be kept and the program left.

    Raised by a front end between two moves or while it waits for input,
    never by a signal handler in the middle of a save.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason  # "hang-up", "terminated", "terminal lost", ...


def save(front: Dialogue) -> bool:
    """BSD's save dialogue; True if the game was written.

    A game read from a file asks ``Same file?`` first (as in BSD, only
    such a game does); otherwise, or on ``n``, the ``file:`` prompt, and
    ``Overwrite file?`` for another file that exists.  A failed save says
    why on one line and never ends the game.
    """
    session = front.session
    game = session.local  # (a remote seat's save is its host's: its own dialogue)
    if game is None:
        return False
    source = session.source
    if source and front.ask(Question.SAME_FILE, can_save=False):
        name = source
    else:
        name = front.read_file_name()
        if not name:
            return False
        if (
            name != source
            and os.path.exists(name)
            and not front.ask(Question.OVERWRITE_FILE, can_save=False)
        ):
            return False
    from ..storage import savefile

    try:
        savefile.save_session(game, name)
    except OSError as exc:
        front.save_failed(oserror(exc))
        return False
    except Exception as exc:  # a save never ends the game
        front.save_failed(str(exc) or type(exc).__name__)
        return False
    front.saved_to(name, when())
    return True


def end_of_hand(front: Dialogue) -> bool:
    """The questions at the end of a hand; True to play on, False when the
    player is done (the front end then quits).

    ``Another hand?`` (``Another game?`` once a side has won) deals the next
    hand on ``y``.  On ``n``, ``Save game?`` unless the answer's S just saved
    the game, or the game is over (asked there only on BSD's own board, as
    BSD does: ``save_after_game``); a save that fails plays on rather than
    losing the game (BSD's way, the next hand dealt), or, where the front
    asks again (``save_again``: the line mode), asks ``Save game?`` again
    until the game is saved or the person says no, never dealing the hand
    refused.
    """
    if front.ask(Question.deal(front.session.table.game_over)):
        front.session.next_hand()
        front.new_hand()
        return True
    if front.session.table.game_over and not front.save_after_game:
        return False  # a game won is over: nothing to save (BSD's own board still asks)
    if not front.saved and front.ask(Question.SAVE_GAME) and not front.save():
        while getattr(front, "save_again", False):  # (the line mode's)
            if not front.ask(Question.SAVE_GAME) or front.save():
                return False
        front.session.next_hand()
        front.go_on_after_failed_save()
        return True
    return False


def hint(view: SeatView) -> tuple[str, bool]:
    """H (``h`` in the line mode): the expert's move for the view's seat and why, never
    played, and True; or the line that says why there is none (``no hint:
    ...``) and False: advice never ends the game."""
    from ..players import advice

    try:
        return advice.hint(view), True
    except Exception as exc:  # advice must never end the game
        from ..engine.text import escape

        return _("no hint: {why}").format(why=escape(str(exc)) or type(exc).__name__), False


def ask(front: Front, question: Question, can_save: bool = True) -> bool:
    """A yes/no question, asked until it is answered (a loop, never a
    recursion); ``front.saved`` then says whether an S saved the game.

    S saves the game, then asks again, as BSD's ``getyn``, at every
    question but those of the save dialogue itself (``Same file?``,
    ``Overwrite file?``: ``can_save=False``): BSD starts a save within the
    save there, and a held S nested them without end.
    """
    saved = False
    while True:
        answer = front.read_answer(question, can_save)
        if answer in ("y", "n"):
            front.saved = saved
            return answer == "y"
        if answer == "s" and can_save:
            saved = front.save()


def really(front: Dialogue) -> None:
    """Q (and ^C): ``Really?``; yes raises :class:`Quit`."""
    if front.ask(Question.REALLY):
        raise Quit


def finish_hand(front: Front) -> None:
    """The end of a hand: note it for the record (which writes a game that
    ended), show it, ask :func:`end_of_hand`'s questions; :class:`Quit`
    when the player is done."""
    front.recorder.hand_over(front.session)
    front.hand_over()
    if not end_of_hand(front):
        raise Quit


def play(front: Front, move: Move) -> Outcome | None:
    """Make your ``move`` (or answer); a refusal is shown, nothing changed (None)."""
    try:
        outcome = front.session.play(move)
    except IllegalMove as exc:
        front.refused(str(exc))
        return None
    front.played(outcome)
    return outcome


def give(front: Front, seat: int) -> None:
    """The front end to the person at ``seat`` (a hand-off if another
    person holds it)."""
    if front.seat != seat:
        front.hand_off(seat)


def human_turn(front: Front) -> None:
    """Your turn: one command; a move is made, after ``Discard a safety?``
    for a safety the rules let you discard (n: nothing changed)."""
    front.human_turn()
    move = front.read_move()
    if move is None:
        return
    if front.session.table.discards_safety(move) and not front.ask(Question.DISCARD_SAFETY):
        return
    outcome = play(front, move)
    if outcome is not None:
        after_hazard(front, outcome)


def answer(front: Front) -> None:
    """The question pending, asked of you (the seat asked holds the front end);
    a ``Coup Fourre?`` the session calls for you (``Session.calls_coup``,
    a game kept at the question before it did) is called, not asked."""
    session = front.session
    if session.table.phase == COUP and session.calls_coup:
        play(front, YES)
        return
    question = Question.EXTENSION if session.table.phase == EXTENSION else Question.COUP_FOURRE
    front.question(question)
    play(front, YES if front.ask(question) else NO)


def after_hazard(front: Front, outcome: Outcome) -> None:
    """After a hazard, with two or more people at the table and the rule
    that asks ``Coup Fourre?``: each person of the side it was played on
    gets the front end in turn (the one holding it first) and looks, until
    a key (:meth:`Front.pause`); the session has called a coup fourre for
    the one who held the safety (``Session.calls_coup``: nobody is asked,
    so nobody's pause is longer for it).  A question still pending (a
    session that asks) is answered there by the one asked."""
    session = front.session
    rules = session.rules
    move = outcome.move
    here = session.at_keyboard()
    if (
        len(here) < 2
        or rules.coup_window
        or not isinstance(move, Use)
        or outcome.card not in HAZARDS
    ):
        return
    side = move.target if move.target is not None else other_side(rules.side_of(outcome.seat))
    people = [seat for seat in rules.members(side) if seat in here]
    people.sort(key=lambda seat: seat != front.seat)  # no hand-off for the one there
    table = session.table
    for seat in people:
        give(front, seat)
        if table.phase == COUP and table.asked == seat:
            answer(front)
        else:  # a key either way: no pause, no haste shows the question
            front.pause()


def step(front: Front) -> None:
    """One move, answer or end of a hand, whichever the game needs next."""
    session = front.session
    table = session.table
    phase = table.phase
    if phase == OVER:
        finish_hand(front)
    elif session.another_decides:
        front.checkpoint()  # a signal is seen between two moves
        front.computer_thinks()
        outcome = session.another_moves()
        front.computer_moved(outcome)
        after_hazard(front, outcome)
    else:
        seat = table.current_player
        assert seat is not None
        give(front, seat)
        if phase == PLAYING:
            human_turn(front)
        else:  # a question for you (the session answers the computers' at once)
            answer(front)


def run(front: Front) -> None:
    """Play until a player quits (returns) or is gone (:class:`Hangup`)."""
    session = front.session
    front.recorder.begin()  # (the game's time, for the record)
    front.introduce()
    if session.table.phase == OVER:  # saved at an end-of-hand question
        session.next_hand()
        front.resumed_at_end()
    here = session.at_keyboard()
    if len(here) > 1:  # a hot seat: call the first person to the keyboard
        seat = session.table.current_player
        front.hand_off(seat if seat in here else front.seat)
    front.started()
    try:
        while True:
            step(front)
    except Quit:
        pass
