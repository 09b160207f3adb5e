"""A network game kept whole at the host, and sent to every seat once it
is over (the ``game`` message, ``docs/protocol.md``).

Each seat of a network game plays through a view that never holds the
others' cards, so no seat can keep the game's deals; the host's session
does (``cards_dealt``, ``log``, ``orders``: ``seats.Feed.hand_played``
reads them).  A :class:`Hands` notes each hand as it ends; once the game is over,
:meth:`Hands.message` makes the one message every seat is sent: the game
file's text (``storage.gamefile.dumps(..., compact=True)``), which each
seat's record keeps as a game played at home is kept.  Nothing of it is
sent before the game's end: it holds every card once hidden.
"""

from __future__ import annotations

from . import messages

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..game.history import Hand
    from .seats import Feed


class Hands:
    """The hands of the game being played at a table, each noted as it
    ends; None once one is not known (a game resumed from a save)."""

    def __init__(self) -> None:
        self.hands: list[Hand] | None = []
        self.sent: messages.WholeGame | None = None  # the game over, once made

    def note(self, feed: Feed) -> None:
        """The hand just ended at ``feed``, noted (once a game is over
        its last hand is in :attr:`sent`: not noted again)."""
        if self.sent is not None:
            return
        hand = feed.hand_played()
        if hand is None or (self.hands == [] and not hand.deal.opens):
            self.hands = None  # (its deal not known, or not its game's first)
        elif self.hands is not None:
            self.hands.append(hand)

    def message(self, feed: Feed) -> messages.WholeGame:
        """The game over, whole: its last hand noted, the ``game`` message
        every seat is sent (its history None where a hand is not known)."""
        if self.sent is None:
            self.note(feed)
            hands = self.hands
            self.sent = messages.whole_game(feed.game_text(hands) if hands else None)
        return self.sent

    def next_game(self) -> None:
        """Another game is dealt: its hands from none."""
        self.hands, self.sent = [], None
