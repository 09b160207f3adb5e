"""What every front end does for the record (``storage/record.py``): note
each hand as it ends, write the game when it ends, and the words shown.

The game flow calls :func:`begin` when a game is played and
:func:`hand_over` at the end of every hand (``flow.finish_hand``), for
every front end, a remote seat's too.  At the end of a game the record is
written and :func:`lines` (the line mode: the record and the rating) or
:func:`board_line` (the boards: one line) say it; a record that could not
be written costs one line instead, and the game goes on.

``mille --no-record`` sets :data:`enabled` to False: nothing is written.
This module is cheap to import: ``sqlite3`` comes with ``storage.record``,
imported only at the end of a game (or by ``mille --stats``).
"""

from __future__ import annotations

import time
import weakref
from dataclasses import dataclass, field

TYPE_CHECKING = False  # no typing import at run time (start-up)
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any

    from ..engine.view import SeatView
    from ..game.session import Session

enabled = True  # mille --no-record: False


@dataclass
class Tally:
    """A game being played: when it started, its hands so far (each side's
    score, coups fourrés and safeties), and what to say once it ended."""

    started: float = field(default_factory=time.monotonic)
    rows: list[list[tuple[int, int, int]]] = field(default_factory=list)  # by hand, by side
    last: object = None  # the last hand noted (an update may repeat it)
    said: dict[int, list[str]] = field(default_factory=dict)  # by seat, at the end
    board: dict[int, str] = field(default_factory=dict)  # by seat, at the end


_tallies: weakref.WeakKeyDictionary[Any, Tally] = weakref.WeakKeyDictionary()


def begin(key: object) -> None:
    """A game (``key``: its session or client) is played from now on."""
    _tallies.setdefault(key, Tally())


def hand_over(session: Session) -> None:
    """The flow's end of a hand: note it; at the end of the game, write it."""
    people = session.people
    note(
        session,
        session.view(min(people) if people else 0),
        people=people,
        level=session.level if len(people) < session.rules.players else "",
        here=session.at_keyboard(),
        network=session.networked,
    )


def note(
    key: object,
    view: SeatView,
    *,
    people: Mapping[int, str],
    level: str,
    here: Iterable[int],
    network: bool,
) -> None:
    """A hand over (``view`` shows it): note it, and at the end of the game
    write the game and make the words to say (never raises)."""
    tally = _tallies.setdefault(key, Tally())
    sides = range(1, view.rules.sides + 1)
    scores = [view.hand_score(side) for side in sides]
    mark = (tuple(view.totals), tuple(scores), tuple(view.games))
    if mark == tally.last:
        return
    tally.last = mark
    tally.said, tally.board = {}, {}
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
    rows, started = tally.rows, tally.started
    tally.rows, tally.started = [], time.monotonic()  # the next game's
    here = tuple(seat for seat in here if seat in people)
    if not enabled or not here:  # (--no-record; nobody here to keep it for)
        return
    try:
        _record(tally, view, people, level, here, network, rows, started)
    except Exception as exc:  # the record never ends a game
        reason = " ".join(str(exc).split()) or type(exc).__name__
        _failed(tally, here, reason, False)


def _record(
    tally: Tally,
    view: SeatView,
    people: Mapping[int, str],
    level: str,
    here: tuple[int, ...],
    network: bool,
    rows: list[list[tuple[int, int, int]]],
    started: float,
) -> None:
    import uuid

    from ..storage import record
    from ..storage.shapes import rules_to_dict

    rules = view.rules
    game = record.Game(
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
    )
    try:
        record.add(game)
        stats = record.statistics(record.games())
    except record.RecordError as exc:
        _failed(tally, here, str(exc), exc.kept)
        return
    found = {person["name"]: person for person in stats["people"]}
    against = record.opponents(game)
    for seat in here:
        person = found.get(people[seat])
        if person is None:  # (forgotten meanwhile)
            continue
        tally.said[seat], tally.board[seat] = words(
            person, rules.name, against, stats["levels"], None if len(here) == 1 else people[seat]
        )


def words(
    person: Mapping[str, Any], rules: str, against: str, levels: Mapping[str, int], name: str | None
) -> tuple[list[str], str]:
    """The line mode's lines and the board's line for ``person`` (their
    statistics) at the end of a game of ``rules`` against ``against`` (a
    level or ``people``); ``name`` None: the only person here ("Your").

    >>> person = {"rating": 1512, "by": [{"rules": "bsd", "against": "standard",
    ...     "games": 5, "won": 3, "lost": 2, "tied": 0, "share": 60.0}]}
    >>> words(person, "bsd", "standard", {"standard": 1500}, None)
    (['Your record against standard at bsd: won 3, lost 2 (60% of 5).', \
'Your rating 1512; standard 1500.'], '3-2 vs standard; rating 1512')
    """
    row = next(r for r in person["by"] if r["rules"] == rules and r["against"] == against)
    whose = "Your" if name is None else f"{name}'s"
    tied = f", tied {row['tied']}" if row["tied"] else ""
    said = [
        f"{whose} record against {against} at {rules}: won {row['won']}, lost {row['lost']}"
        f"{tied} ({row['share']:g}% of {row['games']})."
    ]
    board = f"{row['won']}-{row['lost']}" + (f"-{row['tied']}" if row["tied"] else "")
    board += f" vs {against}"
    if against in levels and person["rating"] is not None:
        said.append(f"{whose} rating {person['rating']}; {against} {levels[against]}.")
        board += f"; rating {person['rating']}"
    return said, board


def _failed(tally: Tally, here: tuple[int, ...], reason: str, kept: bool) -> None:
    after = "kept for the next game" if kept else "not kept"
    for seat in here:  # one line, said once
        tally.said[seat] = (
            [] if seat != here[0] else [f"mille: the game was not recorded: {reason} ({after})"]
        )
        tally.board[seat] = f"not recorded: {reason}"


def lines(key: object, seat: int) -> list[str]:
    """What the line mode says for ``seat`` at the end of a game (the
    record and the rating, or why it was not recorded); none otherwise."""
    tally = _tallies.get(key)
    return list(tally.said.get(seat, ())) if tally is not None else []


def board_line(key: object, seat: int) -> str:
    """The board's line for ``seat`` at the end of a game ("" otherwise)."""
    tally = _tallies.get(key)
    return tally.board.get(seat, "") if tally is not None else ""


# ----- mille --stats and mille --forget -----------------------------------------


def stats_lines(stats: Mapping[str, Any], where: str) -> list[str]:
    """``mille --stats``: each person's record (``stats`` as
    :func:`mille.storage.record.statistics` makes it), then the levels'
    ratings."""
    from ..engine.text import escape

    people = stats["people"]
    if not people:
        return [f"No game recorded yet (the record: {escape(where)})."]
    said = [f"The record: {escape(where)}"]
    for person in people:
        rated = f"; rating {person['rating']}" if person["rating"] is not None else ""
        said.append(f"{escape(person['name'])}: {_counts(person)}{rated}")
        for row in person["by"]:
            said.append(f"  {row['rules']} against {row['against']}: {_counts(row)}")
        streak = person["streak"]
        said.append(
            f"  best {person['best']}, average {person['average']:g};"
            f" {streak['games']} {streak['result']} in a row,"
            f" longest winning streak {streak['longest_won']}"
        )
        said.append("  last games:")
        for game in person["last"]:
            when = game["ended"].replace("T", " ").rstrip("Z")[:16]
            said.append(
                f"    {when} {game['rules']} against {game['against']}"
                f" ({game['place']}): {game['result']}, {game['score']} to {game['best_other']}"
            )
    levels = ", ".join(f"{level} {value}" for level, value in stats["levels"].items())
    said.append(f"The computers' ratings: {levels}.")
    return said


def _counts(row: Mapping[str, Any]) -> str:
    games = "game" if row["games"] == 1 else "games"
    tied = f", tied {row['tied']}" if row["tied"] else ""
    return (
        f"{row['games']} {games}, won {row['won']}, lost {row['lost']}{tied}"
        f" ({row['share']:g}% won)"
    )


def show_stats(as_json: bool) -> int:
    """``mille --stats [--json]``: print the statistics; the exit status."""
    import sys

    from ..storage import record

    where = record.path()
    try:
        stats = record.statistics(record.games(where))
    except record.RecordError as exc:
        print(f"mille: the record: {exc}", file=sys.stderr)
        return 1
    if as_json:
        import json

        print(json.dumps({"record": where} | stats, indent=1, ensure_ascii=False))
    else:
        for line in stats_lines(stats, where):
            print(line)
    return 0


def forget(name: str) -> int:
    """``mille --forget NAME``: the name's games keep no name; the exit status."""
    import sys

    from ..engine.text import escape
    from ..storage import record

    try:
        count = record.forget(name)
    except record.RecordError as exc:
        print(f"mille: the record: {exc}", file=sys.stderr)
        return 1
    if count:
        print(f"Forgot {escape(name)}: {count} {'game' if count == 1 else 'games'}.")
    else:
        print(f"No game of {escape(name)} in the record.")
    return 0
