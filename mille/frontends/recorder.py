"""What every front end does for the record (``storage/record.py``): note
each hand as it ends, write the game when it ends, and the words shown.

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

from ..i18n import N_, _, ngettext

TYPE_CHECKING = False  # no typing import at run time (start-up)
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any

    from ..engine.view import SeatView
    from ..game.session import Session

enabled = True  # mille --no-record: False (the recorders made after it write nothing)


@dataclass
class Tally:
    """A game being played: when it started, its hands so far (each side's
    score, coups fourrés and safeties), and what to say once it ended."""

    started: float = field(default_factory=time.monotonic)
    rows: list[list[tuple[int, int, int]]] = field(default_factory=list)  # by hand, by side
    last: object = None  # the last hand noted (an update may repeat it)
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

    def hand_over(self, session: Session) -> None:
        """The flow's end of a hand: note it; at the end of the game, write it."""
        people = session.people
        self.note(
            session.view(min(people) if people else 0),
            people=people,
            level=session.level if len(people) < session.rules.players else "",
            here=session.at_keyboard(),
            network=session.networked,
        )

    def note(
        self,
        view: SeatView,
        *,
        people: Mapping[int, str],
        level: str,
        here: Iterable[int],
        network: bool,
    ) -> None:
        """A hand over (``view`` shows it): note it, and at the end of the
        game write the game and make the words to say (never raises)."""
        tally = self.tally
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
        if not self.enabled or not here:  # (--no-record; nobody here to keep it for)
            return
        try:
            _record(tally, view, recorded_names(people, here), level, here, network, rows, started)
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

    from ..storage import record, stats
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


def _rating(game: Mapping[str, Any]) -> str:
    """``1516? (+16)``: a rating after a game, ``?`` while provisional."""
    mark = "?" if game["provisional"] else ""
    return f"{game['rating']}{mark} ({game['change']:+d})"


def _score(row: Mapping[str, Any]) -> str:
    """``3-1`` (won-lost), ``3-1-2`` with ties."""
    return f"{row['won']}-{row['lost']}" + (f"-{row['tied']}" if row["tied"] else "")


def words(
    person: Mapping[str, Any], levels: Mapping[str, int], name: str | None
) -> tuple[list[str], str]:
    """The line mode's lines and the board's line for ``person`` (their
    statistics: the game just ended first in ``last``) at the end of a
    game; ``name`` None: the only person here ("Your").

    >>> game = {"rules": "bsd", "against": "standard", "opponents": [{"level": "standard"}],
    ...     "rating": 1512, "change": 16, "provisional": True}
    >>> person = {"last": [game], "head_to_head": [], "by": [{"rules": "bsd",
    ...     "against": "standard", "games": 5, "won": 3, "lost": 2, "tied": 0, "share": 60.0}]}
    >>> words(person, {"standard": 1500}, None)
    (['Your record against standard at bsd: won 3, lost 2 (60% of 5).', \
'Your rating 1512? (+16), provisional; standard 1500.'], '3-2 vs standard; rating 1512? (+16)')
    """
    game = person["last"][0]
    said: list[str] = []
    board: list[str] = []

    def record_line(against: str, row: Mapping[str, Any], rules: str = "") -> None:
        if row["tied"]:
            tally = _("won {won}, lost {lost}, tied {tied} ({share}% of {games})")
        else:
            tally = _("won {won}, lost {lost} ({share}% of {games})")
        tally = tally.format(
            won=row["won"],
            lost=row["lost"],
            tied=row["tied"],
            share=f"{row['share']:g}",
            games=row["games"],
        )
        if name is None:
            line = (
                _("Your record against {against} at {rules}: {tally}.")
                if rules
                else _("Your record against {against}: {tally}.")
            )
        else:
            line = (
                _("{name}'s record against {against} at {rules}: {tally}.")
                if rules
                else _("{name}'s record against {against}: {tally}.")
            )
        said.append(line.format(name=name, against=against, rules=rules, tally=tally))
        board.append(_("{score} vs {against}").format(score=_score(row), against=against))

    if game["against"] != "people":  # the computers of the game
        row = next(
            r
            for r in person["by"]
            if r["rules"] == game["rules"] and r["against"] == game["against"]
        )
        record_line(_against(game["against"]), row, game["rules"])
    from ..storage.record import fold

    met = {fold(r["name"]): r for r in person["head_to_head"]}
    for opponent in game["opponents"]:
        row = met.get(fold(opponent.get("name") or ""))
        if row is not None:  # each person played, by name
            record_line(opponent["name"], row)
    line = "; ".join(board)
    if game["rating"] is not None and game["against"] in levels:
        if name is None:
            rated = (
                _("Your rating {rating}, provisional; {level} {value}.")
                if game["provisional"]
                else _("Your rating {rating}; {level} {value}.")
            )
        else:
            rated = (
                _("{name}'s rating {rating}, provisional; {level} {value}.")
                if game["provisional"]
                else _("{name}'s rating {rating}; {level} {value}.")
            )
        level = game["against"]
        said.append(
            rated.format(
                name=name, rating=_rating(game), level=_against(level), value=levels[level]
            )
        )
        line += _("; rating {rating}").format(rating=_rating(game))
    return said, line


def _failed(tally: Tally, here: tuple[int, ...], reason: str, kept: bool) -> None:
    if kept:
        said = _("mille: the game was not recorded: {reason} (kept for the next game)")
    else:
        said = _("mille: the game was not recorded: {reason} (not kept)")
    for seat in here:  # one line, said once
        tally.said[seat] = [] if seat != here[0] else [said.format(reason=reason)]
        tally.board[seat] = _("not recorded: {reason}").format(reason=reason)


# ----- mille --stats and mille --forget -----------------------------------------

SPARKS = "\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588"  # a sparkline's eight heights
ASCII_SPARKS = "_.-~=+*#"  # the same, for an output that cannot show them
CHART = 40  # the most games the rating chart shows (the last ones): it fits 80 columns
NAMES_SHOWN = 8  # the most names a --forget that found nothing lists
RESULT_WORDS = {"won": N_("won"), "lost": N_("lost"), "tied": N_("tied")}  # the record's


def _against(against: str) -> str:
    """Whom a row of the record was played against, in words: a level's
    name, or people."""
    if against == "people":
        return _("people")
    from ..engine.describe import level_name

    return level_name(against)


def _result(result: str) -> str:
    return _(RESULT_WORDS[result]) if result in RESULT_WORDS else result


def sparkline(values: list[int], sparks: str = SPARKS) -> str:
    """``values`` as a row of bars, one a value, the lowest ``sparks[0]``.

    >>> sparkline([1500, 1516, 1532, 1516], ASCII_SPARKS)
    '_=#='
    """
    low, high = min(values), max(values)
    top = len(sparks) - 1
    return "".join(
        sparks[0 if high == low else round((value - low) * top / (high - low))] for value in values
    )


def _name(text: str) -> str:
    """A name as a line shows it: escaped, and cut past
    :data:`mille.storage.record.NAME_SHOWN` characters."""
    from ..engine.text import escape, shorten
    from ..storage.record import NAME_SHOWN

    return shorten(escape(text), NAME_SHOWN)


def _when(game: Mapping[str, Any]) -> str:
    """A game's end in local time, to the minute (``2026-11-27 23:50``)."""
    return str(game["local"]).replace("T", " ")[:16]


def _against_words(game: Mapping[str, Any]) -> str:
    """Whom a game was played against: the people by name, the computers
    by level (``Bob, standard``); a person forgotten: ``someone``."""
    return ", ".join(
        _name(one["name"])
        if "name" in one
        else _against(one["level"])
        if "level" in one
        else _("someone")
        for one in game["opponents"]
    )


def stats_lines(stats: Mapping[str, Any], where: str, sparks: str = SPARKS) -> list[str]:
    """``mille --stats``: each person's record (``stats`` as
    :func:`mille.storage.stats.statistics` makes it), then the levels'
    ratings (times local; ``sparks``: the rating chart's bars)."""
    from ..engine.text import escape

    people = stats["people"]
    if not people:
        return [_("No game recorded yet (the record: {path}).").format(path=escape(where))]
    said = [_("The record: {path}").format(path=escape(where))]
    provisional = False
    for person in people:
        rated = ""
        if person["rating"] is not None:
            provisional = provisional or person["provisional"]
            rated = _("; rating {rating}").format(
                rating=f"{person['rating']}{'?' if person['provisional'] else ''}"
            )
        said.append(f"{_name(person['name'])}: {_counts(person)}{rated}")
        for row in person["by"]:
            said.append(
                _("  {rules} against {against}: {counts}").format(
                    rules=row["rules"], against=_against(row["against"]), counts=_counts(row)
                )
            )
        for row in person["head_to_head"]:
            said.append(
                _("  {name} vs {other}: {score}").format(
                    name=_name(person["name"]), other=_name(row["name"]), score=_score(row)
                )
            )
        streak = person["streak"]
        in_a_row = {
            "won": ngettext(
                "  best {best}, average {average}; {games} won in a row,"
                " longest winning streak {longest}",
                "  best {best}, average {average}; {games} won in a row,"
                " longest winning streak {longest}",
                streak["games"],
            ),
            "lost": ngettext(
                "  best {best}, average {average}; {games} lost in a row,"
                " longest winning streak {longest}",
                "  best {best}, average {average}; {games} lost in a row,"
                " longest winning streak {longest}",
                streak["games"],
            ),
            "tied": ngettext(
                "  best {best}, average {average}; {games} tied in a row,"
                " longest winning streak {longest}",
                "  best {best}, average {average}; {games} tied in a row,"
                " longest winning streak {longest}",
                streak["games"],
            ),
        }[streak["result"]]
        said.append(
            in_a_row.format(
                best=person["best"],
                average=f"{person['average']:g}",
                games=streak["games"],
                longest=streak["longest_won"],
            )
        )
        history = person["history"][-CHART:]
        if len(history) > 1:
            said.append(
                _("  rating, last {count} games: {chart} {low} to {high}").format(
                    count=len(history),
                    chart=sparkline(history, sparks),
                    low=min(history),
                    high=max(history),
                )
            )
        said.append(_("  last games (local time; the rating after each):"))
        for game in person["last"]:
            if game["place"] == "network":
                line = _("    {when} {rules} vs {against} (network): {result} {score}-{other}")
            else:
                line = _("    {when} {rules} vs {against}: {result} {score}-{other}")
            rating = "" if game["rating"] is None else f"; {_rating(game)}"
            provisional = provisional or bool(game["provisional"])
            said.append(
                line.format(
                    when=_when(game),
                    rules=game["rules"],
                    against=_against_words(game),
                    result=_result(game["result"]),
                    score=game["score"],
                    other=game["best_other"],
                )
                + rating
            )
    levels = _(", ").join(f"{_against(level)} {value}" for level, value in stats["levels"].items())
    said.append(_("The computers' ratings: {levels}.").format(levels=levels))
    if provisional:
        said.append(
            _(
                "A rating marked ? is provisional: fewer than {count} games against computers."
            ).format(count=stats["provisional"])
        )
    return said


def _counts(row: Mapping[str, Any]) -> str:
    if row["tied"]:
        text = ngettext(
            "{games} game, won {won}, lost {lost}, tied {tied} ({share}% won)",
            "{games} games, won {won}, lost {lost}, tied {tied} ({share}% won)",
            row["games"],
        )
    else:
        text = ngettext(
            "{games} game, won {won}, lost {lost} ({share}% won)",
            "{games} games, won {won}, lost {lost} ({share}% won)",
            row["games"],
        )
    return text.format(
        games=row["games"],
        won=row["won"],
        lost=row["lost"],
        tied=row["tied"],
        share=f"{row['share']:g}",
    )


def json_text(value: object) -> str:
    """``value`` as JSON, every character a terminal would act on
    (controls, C1's among them, bidi overrides, and any other not printable)
    escaped as ``\\u`` and four hex digits."""
    import json

    text = json.dumps(value, indent=1, ensure_ascii=False)
    if text.isprintable():
        return text

    def one(char: str) -> str:
        if char == "\n" or char.isprintable():
            return char
        return json.dumps(char, ensure_ascii=True)[1:-1]

    return "".join(one(char) for char in text)


def _write(text: str) -> int:
    """Print ``text``; a reader gone (``mille --stats | head -1``) ends it
    quietly: 0, no traceback."""
    import os
    import sys

    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        try:  # the interpreter's own flush at exit would fail again
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        return 0
    return 0


def _sparks() -> str:
    import sys

    try:
        SPARKS.encode(sys.stdout.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return ASCII_SPARKS
    return SPARKS


def show_stats(
    as_json: bool,
    name: str | None = None,
    *,
    rules: str | None = None,
    level: str | None = None,
    people: tuple[str, ...] = (),
    last: int | None = None,
) -> int:
    """``mille --stats [NAME] [--json]``: print the statistics (of NAME
    alone; the games of ``rules``, against ``level``, with ``people``; the
    ``last`` games); the exit status.  A record that cannot be read, or
    with no game of NAME, costs one line (status 1); rows changed by
    another program that cannot be read are left out, with one line."""
    import sys

    from ..storage import record, stats

    where = record.path()
    try:
        history, damaged = record.read(where)
        found = stats.statistics(
            history,
            name=name,
            rules=rules,
            level=level,
            people=people,
            last=stats.LAST if last is None else last,
        )
    except record.RecordError as exc:
        print(_("mille: the record: {why}").format(why=exc), file=sys.stderr)
        return 1
    if damaged:
        line = ngettext(
            "mille: the record: {count} game could not be read (left out)",
            "mille: the record: {count} games could not be read (left out)",
            damaged,
        )
        print(line.format(count=damaged), file=sys.stderr)
    if name is not None and not found["people"]:
        met = any(
            seat.name is not None and record.fold(seat.name) == record.fold(name)
            for game in history
            for seat in game.seats
        )
        if met:  # a person played against, not at this machine
            print(
                _(
                    "mille: --stats: {name} played no game at this machine"
                    " (the games against them: --stats --people {name})"
                ).format(name=_name(name)),
                file=sys.stderr,
            )
        else:
            print(
                _("mille: --stats: no game of {name} in the record").format(name=_name(name)),
                file=sys.stderr,
            )
        return 1
    if as_json:
        return _write(json_text({"record": where} | found) + "\n")
    return _write("".join(line + "\n" for line in stats_lines(found, where, _sparks())))


def _stdin_is_terminal() -> bool:
    import sys

    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def forget(name: str, yes: bool = False) -> int:
    """``mille --forget NAME [--yes]``: the name's games (its name in any
    case or Unicode spelling) keep no name, after ``Forget NAME?`` when a
    person is at the terminal (not with ``--yes``); the exit status (1:
    nothing forgotten)."""
    import sys

    from ..storage import record

    shown = _name(name)
    try:
        count = record.count(name)
        if not count:
            known = record.names()
            listed = ", ".join(_name(one) for one in known[:NAMES_SHOWN])
            more = ", ..." if len(known) > NAMES_SHOWN else ""
            if known:
                line = _("mille: --forget: no game of {name} in the record (its names: {names})")
            else:
                line = _("mille: --forget: no game of {name} in the record (it has no names)")
            print(line.format(name=shown, names=listed + more), file=sys.stderr)
            return 1
        if not yes and _stdin_is_terminal():
            question = ngettext(
                "Forget {name} in {count} game? (y/n) ",
                "Forget {name} in {count} games? (y/n) ",
                count,
            )
            try:
                answer = input(question.format(name=shown, count=count))
            except (EOFError, KeyboardInterrupt):
                answer = ""
            if answer.strip().lower() not in ("y", "yes"):
                print(_("Nothing forgotten."))
                return 1
        count = record.forget(name)
    except record.RecordError as exc:
        print(_("mille: the record: {why}").format(why=exc), file=sys.stderr)
        return 1
    print(
        ngettext("Forgot {name}: {count} game.", "Forgot {name}: {count} games.", count).format(
            name=shown, count=count
        )
    )
    return 0
