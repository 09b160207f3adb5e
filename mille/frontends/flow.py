"""The dialogues every front end shares: saving a game, the end of a hand.

The boards (``ui``, ``table_ui``) and the line mode (``plain``) draw and
read in their own ways; which questions these dialogues ask, in what order,
and what each answer does are written here once.  A front end implements
:class:`Dialogue` (ask a yes/no question, read a file name, show the
outcome of a save, deal the next hand) and calls :func:`save` and
:func:`end_of_hand`.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # no typing import at run time (start-up)
if TYPE_CHECKING:
    from typing import Protocol

    from ..game.session import Session

    class Dialogue(Protocol):
        """What a front end does for the shared dialogues."""

        session: Session
        saved: bool  # the last yes/no question's S saved the game

        def ask(self, question: str, can_save: bool = True) -> bool:
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
            """Deal the next hand and show it."""

        def go_on_after_failed_save(self) -> None:
            """Deal the next hand after a save at the end failed, keeping
            the reason in view."""


def save(front: Dialogue) -> bool:
    """BSD's save dialogue; True if the game was written.

    A game read from a file asks ``Same file?`` first (as in BSD, only
    such a game does); otherwise, or on ``n``, the ``file:`` prompt, and
    ``Overwrite file?`` for another file that exists.  A failed save says
    why on one line and never ends the game.
    """
    session = front.session
    source = session.source
    if source and front.ask("Same file?", can_save=False):
        name = source
    else:
        name = front.read_file_name()
        if not name:
            return False
        if (
            name != source
            and os.path.exists(name)
            and not front.ask("Overwrite file?", can_save=False)
        ):
            return False
    from ..storage import savefile

    try:
        savefile.save_session(session, name)
    except OSError as exc:
        front.save_failed(exc.strerror or str(exc))
        return False
    except Exception as exc:  # a save never ends the game
        front.save_failed(str(exc) or type(exc).__name__)
        return False
    import time

    front.saved_to(name, time.ctime())
    return True


def end_of_hand(front: Dialogue) -> bool:
    """The questions at the end of a hand; True to play on, False when the
    player is done (the front end then quits).

    ``Another hand?`` (``Another game?`` once a side has won) deals the next
    hand on ``y``.  On ``n``, ``Save game?`` unless the answer's S just saved
    the game; a save that fails plays on rather than losing the game.
    """
    if front.ask("Another game?" if front.session.table.game_over else "Another hand?"):
        front.new_hand()
        return True
    if not front.saved and front.ask("Save game?") and not front.save():
        front.go_on_after_failed_save()
        return True
    return False
