"""Whose turn it is, in words: the one home of what every front end says
about who is to move when more than one person plays (a hot seat, or a
seat over the network), and of what a key pressed out of turn gets.

A game of one person against the computers says none of this (the
computers answer at once, and BSD's board stays BSD's).  No curses here.

>>> from mille.game.session import Session
>>> session = Session.new(seed=1, humans=(0, 1), names={0: "Ann", 1: "Bob"})
>>> session.table.current_player, turn_prompt(session, 1), wait_line(session, 1)
(0, "Ann's turn", "Wait: it is Ann's turn.")
>>> turn_prompt(session, 0), your_turn(session, 0)
('Your turn', 'Ann, your turn.')
"""

from __future__ import annotations

from ..engine.describe import seat_name, stand_in_name
from ..i18n import N_, _

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..game.protocol import Game

NOT_STARTED = N_("Not started yet")  # the prompt while the table waits to start
NOT_STARTED_WAIT = N_("Wait: the game has not started.")


def mover(session: Game, seat: int) -> str:
    """Who decides now, as ``seat`` calls them (``You``, a name, ``Comp
    2``, a computer standing in for an absent person); "" if nobody (the
    hand is over)."""
    current = session.table.current_player
    if current is None:
        return ""
    name = seat_name(session.rules, current, session.view(seat).reader, session.people)
    if session.talk.status(current) == "computer-for-now":
        return stand_in_name(name)
    return name


def started(session: Game) -> bool:
    """Whether the game has started (a network table's waiting room is over)."""
    return session.talk.started


def turn_prompt(session: Game, seat: int) -> str:
    """The words in the prompt's place while ``seat`` waits for another
    to move (``Bob's turn``), or ``Your turn``."""
    if not started(session):
        return _(NOT_STARTED)
    who = mover(session, seat)
    if not who:
        return ""
    if session.table.current_player == session.view(seat).reader:  # (a watcher's: never)
        return _("Your turn")
    return _("{who}'s turn").format(who=who)


def wait_line(session: Game, seat: int) -> str:
    """What a key pressed out of turn gets, at once (nothing is kept for
    later): ``Wait: it is Bob's turn.``"""
    if not started(session):
        return _(NOT_STARTED_WAIT)
    who = mover(session, seat)
    if not who or session.table.current_player == session.view(seat).reader:
        return _("Wait: the table is moving on.")
    return _("Wait: it is {who}'s turn.").format(who=who)


def your_turn(session: Game, seat: int) -> str:
    """At one keyboard shared by several people: whose turn it is, by
    name (``Ann, your turn.``)."""
    return _("{name}, your turn.").format(name=session.name(seat))
