"""What every front end does for the record (``storage/record.py``): note
each hand as it ends (whole: its deal and moves, ``game.history``), write
the game when it ends; the words said are :mod:`.record_words`'.

Each front end holds a :class:`Recorder`, its own (``front.recorder``):
the game flow calls :meth:`Recorder.begin` when a game is played and
:meth:`Recorder.hand_over` at the end of every hand (``flow.finish_hand``),
for every front end, a remote seat's too.  At the end of a game the record
is written and :meth:`Recorder.lines` (the line mode: the record and the
rating) or :meth:`Recorder.board_line` (the boards: one line) say it; a
record that could not be written costs one line instead, and the game
goes on.

The person at this machine is recorded under their own name
(:func:`own_name`) when they play alone under the name mille gives a
seat (``Player 0``; the screens say ``You``).

``mille --no-record`` sets :data:`enabled` to False: the recorders made
from then on write nothing.  This module is cheap to import: ``sqlite3``
comes with ``storage.record``, imported only at the end of a game (or by
``mille --stats``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..i18n import _

TYPE_CHECKING = False  # no typing import at run time (start-up)
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from ..engine.rules import Rules
    from ..engine.view import SeatView
    from ..game.history import Hand, History
    from ..game.protocol import Game as Played
    from ..storage.record import Game

enabled = True  # mille --no-record: False (the recorders made after it write nothing)


@dataclass
class Tally:
    """A game being played: when it started, its hands so far (each side's
    score, coups fourrés and safeties), and what to say once it ended."""

    started: float = field(default_factory=time.monotonic)
    rows: list[list[tuple[int, int, int]]] = field(default_factory=list)  # by hand, by side
    last: object = None  # the last hand noted (an update may repeat it)
    # the game's hands whole (game.history), None once one is not known
    # (a game restored from a save, a remote seat's: recorded without moves)
    whole_hands: list[Hand] | None = field(default_factory=list)
    said: dict[int, list[str]] = field(default_factory=dict)  # by seat, at the end
    board: dict[int, str] = field(default_factory=dict)  # by seat, at the end


class Recorder:
    """A front end's record keeper: the game it plays, noted hand by hand
    and written at its end (``enabled`` False: never written)."""

    def __init__(self, record: bool | None = None) -> None:
        self.enabled = enabled if record is None else record
        self.tally = Tally()

    def begin(self) -> None:
        """A game is played from now on (its time counts from here)."""
        self.tally = Tally()

    def hand_over(self, session: Played) -> None:
        """The flow's end of a hand: note it; at the end of the game, write it."""
        from ..game.history import hand_of

        people = session.people
        local = session.local  # a game at this keyboard: its hand whole
        self.note(
            session.view(session.viewer),
            people=people,
            level=session.level if len(people) < session.rules.players else "",
            here=session.at_keyboard(),
            network=session.networked,
            hand=None if local is None else hand_of(local.cards_dealt, local.log, local.orders),
            kept=session.whole_game(),  # (a remote seat's game over: the host's, whole)
        )

    def note(
        self,
        view: SeatView,
        *,
        people: Mapping[int, str],
        level: str,
        here: Iterable[int],
        network: bool,
        hand: Hand | None = None,
        kept: History | None = None,
    ) -> None:
        """A hand over (``view`` shows it; ``hand``: it whole, None where
        not known; ``kept``: the game over whole, as another program kept
        it): note it, and at the end of the game write the game and make
        the words to say (never raises)."""
        tally = self.tally
        sides = range(1, view.rules.sides + 1)
        scores = [view.hand_score(side) for side in sides]
        mark = (tuple(view.totals), tuple(scores), tuple(view.games))
        if mark == tally.last:
            return
        tally.last = mark
        tally.said, tally.board = {}, {}
        if hand is None or (tally.whole_hands == [] and not hand.deal.opens):
            tally.whole_hands = None  # (its deal not known, or not its game's first)
        elif tally.whole_hands is not None:
            tally.whole_hands.append(hand)
        tally.rows.append(
            [
                (
                    score.total,
                    sum(view.tableaux[side - 1].coups),
                    len(view.tableaux[side - 1].safeties),
                )
                for side, score in zip(sides, scores)
            ]
        )
        if not view.game_over:
            return
        rows, started, hands = tally.rows, tally.started, tally.whole_hands
        if kept is not None:
            hands = list(kept.hands)
        tally.rows, tally.started, tally.whole_hands = [], time.monotonic(), []  # the next game's
        here = tuple(seat for seat in here if seat in people)
        if not self.enabled or not here:  # (--no-record; nobody here to keep it for)
            return
        try:
            names = recorded_names(people, here)
            whole = None if hands is None else _whole(view.rules, names, level, hands)
            game = _game(view, names, level, here, network, rows, started, whole)
            _record(tally, game, names, here)
        except Exception as exc:  # the record never ends a game
            reason = " ".join(str(exc).split()) or type(exc).__name__
            _failed(tally, here, reason, False)

    def lines(self, seat: int) -> list[str]:
        """What the line mode says for ``seat`` at the end of a game (the
        record and the rating, or why it was not recorded); none otherwise."""
        return list(self.tally.said.get(seat, ()))

    def board_line(self, seat: int) -> str:
        """The board's line for ``seat`` at the end of a game ("" otherwise)."""
        return self.tally.board.get(seat, "")


def own_name() -> str | None:
    """The person's own name: the one ``--name`` remembered, else their
    account's login name where mille accepts it as a name; None otherwise."""
    from ..storage import settings

    remembered = settings.name()
    if remembered is not None:
        return remembered
    import getpass

    from ..game.session import check_name

    try:
        return check_name(getpass.getuser())
    except Exception:  # no login name, or none mille takes
        return None


def recorded_names(people: Mapping[int, str], here: tuple[int, ...]) -> dict[int, str]:
    """The names the record keeps: the people's, but a person alone at
    this machine under the name mille gives their seat (``Player N``) is
    recorded under :func:`own_name`."""
    from ..game.session import default_name

    names = dict(people)
    if len(here) == 1 and names.get(here[0]) == default_name(here[0]):
        mine = own_name()
        if mine is not None and all(mine != name for name in names.values()):
            names[here[0]] = mine
    return names


SEEN_SINCE = 20  # the last games searched for the one just recorded


def _whole(rules: Rules, people: Mapping[int, str], level: str, hands: list[Hand]) -> str:
    """The game whole, as the record keeps it (a game file's text)."""
    from ..game.history import History
    from ..storage import gamefile

    computers = {seat: level for seat in range(rules.players) if seat not in people}
    return gamefile.dumps(History(rules, dict(people), computers, tuple(hands)), compact=True)


def _game(
    view: SeatView,
    people: Mapping[int, str],
    level: str,
    here: tuple[int, ...],
    network: bool,
    rows: list[list[tuple[int, int, int]]],
    started: float,
    whole: str | None = None,
) -> Game:
    """The game that ended (``view`` shows its end) as the record keeps it:
    ``rows`` its hands' scores, ``whole`` its deals and moves."""
    import uuid

    from ..storage import record
    from ..storage.shapes import rules_to_dict

    rules = view.rules
    return record.Game(
        key=uuid.uuid4().hex,
        ended=record.now(),
        seconds=round(time.monotonic() - started, 1),
        rules=rules.name,
        options=rules_to_dict(rules),
        place="network" if network else "keyboard",
        level=level,
        seats=tuple(
            record.Seat(
                seat,
                rules.side_of(seat),
                name=people.get(seat),
                level=None if seat in people else level,
                here=seat in here,
            )
            for seat in range(rules.players)
        ),
        sides=tuple(
            record.Side(
                side,
                view.total(side),
                tuple(hand[side - 1][0] for hand in rows),
                sum(hand[side - 1][1] for hand in rows),
                sum(hand[side - 1][2] for hand in rows),
            )
            for side in range(1, rules.sides + 1)
        ),
        history=whole,
    )


def _record(tally: Tally, game: Game, people: Mapping[int, str], here: tuple[int, ...]) -> None:
    """Write ``game`` to the record and make what to say of it to each
    person ``here`` (their record and rating), or why it was not written."""
    from ..storage import record, stats
    from .record_words import words

    try:
        record.add(game)
        found = stats.statistics(record.games(), last=SEEN_SINCE)
    except record.RecordError as exc:
        _failed(tally, here, str(exc), exc.kept)
        return
    persons = {record.fold(person["name"]): person for person in found["people"]}
    for seat in here:
        person = persons.get(record.fold(people[seat]))
        # this game among the last ones (another mille may have recorded one
        # that ended later while this one waited for the record)
        this = [row for row in (person or {}).get("last", ()) if row["key"] == game.key]
        if person is None or not this:
            continue  # (forgotten meanwhile)
        tally.said[seat], tally.board[seat] = words(
            {**person, "last": this}, found["levels"], None if len(here) == 1 else people[seat]
        )


def _failed(tally: Tally, here: tuple[int, ...], reason: str, kept: bool) -> None:
    if kept:
        said = _("mille: the game was not recorded: {reason} (kept for the next game)")
    else:
        said = _("mille: the game was not recorded: {reason} (not kept)")
    for seat in here:  # one line, said once
        tally.said[seat] = [] if seat != here[0] else [said.format(reason=reason)]
        tally.board[seat] = _("not recorded: {reason}").format(reason=reason)
