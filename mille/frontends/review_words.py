"""``mille --review [N|FILE] [--seat NAME] [--plain|--json]``: a finished
game reviewed for one person (``mille.game.review``), said as lines.

Each decision of the person (the move made, the expert's from that seat's
view then, what the move made cost in the hint's words), the chance to
win each hand after every move as a sparkline in 80 columns with the
mistakes marked under it, and a summary (the decisions as the expert's,
the mistakes and their cost, luck against the person's own plays).
``--json`` gives the same as codes and numbers.  While it analyses, a
line on standard error says how far it is (on a terminal only); ``^C``
stops it with one line (exit status 130).  A review of a game of the
record is kept there (``storage.record``: the ``reviews`` table), so
asking again is instant.  Every word goes through :mod:`mille.i18n`.
"""

from __future__ import annotations

import json
import sys

from ..engine.rules import Rules
from ..game.history import History
from ..game.review import (
    ANALYSIS,
    VERSION,
    Decision,
    Judged,
    Point,
    Review,
    count,
    decisions,
    people,
)
from ..i18n import _, ngettext
from ..players.advice import more_hands, move_label

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SEED = 0x524556  # the review's random stream: the same game, the same review
WIDTH = 80  # the chart's columns at most


class Refused(Exception):
    """A review that cannot be made; ``str()`` is the one line said."""


# ----- the review as data ------------------------------------------------------


def _card(card: int) -> str | None:
    from ..storage.shapes import card_text

    return card_text(card)


def _judged(judged: Judged | None) -> dict[str, Any] | None:
    if judged is None:
        return None
    return {"hands": judged.hands, "z": judged.z, "worlds": judged.worlds}


def to_dict(review: Review) -> dict[str, Any]:
    """``review`` as JSON-able codes and numbers (what the record keeps)."""
    return {
        "version": VERSION,
        "seat": review.seat,
        "seed": review.seed,
        "decisions": [
            {
                "hand": d.hand,
                "move": d.number,
                "made": str(d.made),
                "best": str(d.best),
                "made_card": _card(d.made_card),
                "best_card": _card(d.best_card),
                "first": _judged(d.first),
                "second": _judged(d.second),
                "mistake": d.mistake,
            }
            for d in review.decisions
        ],
        "chances": [[p.hand, p.number, round(p.chance, 4)] for p in review.points],
        "share": review.share,
    }


def from_dict(data: Any) -> Review | None:
    """The review :func:`to_dict` wrote; None if it is not one of this
    version's (made again)."""
    from ..storage.checks import read_card
    from ..storage.shapes import move_of

    def judged(item: Any) -> Judged | None:
        return None if item is None else Judged(item["hands"], item["z"], item["worlds"])

    def card(name: Any) -> int:
        return read_card(name, "review", empty_ok=True)

    try:
        if data["version"] != VERSION:
            return None
        found = []
        for d in data["decisions"]:
            made, best = move_of(d["made"]), move_of(d["best"])
            if made is None or best is None:
                return None
            found.append(
                Decision(
                    d["hand"],
                    d["move"],
                    made,
                    best,
                    card(d["made_card"]),
                    card(d["best_card"]),
                    judged(d["first"]),
                    judged(d["second"]),
                    bool(d["mistake"]),
                )
            )
        points = tuple(Point(h, n, float(c)) for h, n, c in data["chances"])
        return Review(data["seat"], data["seed"], tuple(found), points, float(data["share"]))
    except (KeyError, TypeError, ValueError, IndexError):
        return None


# ----- the words -----------------------------------------------------------------


def _label(rules: Rules, move: Any, card: int) -> str:
    hand = [card] * 7  # (the label reads the card of the move's slot only)
    return move_label(rules, hand, move)


def decision_line(rules: Rules, decision: Decision) -> str:
    """One decision: ``move 12: D3 25; the expert: U2 Go; a mistake: about
    4 more hands won in 100``."""
    made = _label(rules, decision.made, decision.made_card)
    where = _("move {number}").format(number=decision.number + 1)
    if decision.agrees:
        return _("{where}: {move}, as the expert").format(where=where, move=made)
    best = _label(rules, decision.best, decision.best_card)
    if decision.mistake:
        line = _("{where}: {move}; the expert: {best}; a mistake: {worth}")
    elif decision.cost > 0:
        line = _("{where}: {move}; the expert: {best}; not surely worse ({worth})")
    else:
        line = _("{where}: {move}; the expert: {best}; no worse")
    return line.format(where=where, move=made, best=best, worth=more_hands(decision.cost))


def chart_lines(review: Review, sparks: str) -> list[str]:
    """Each hand's chance to win after every move, as a sparkline of at
    most :data:`WIDTH` columns, and under it ``!`` at each mistake."""
    from .record_words import sparkline

    lines: list[str] = []
    hands = sorted({p.hand for p in review.points})
    for hand in hands:
        points = [p for p in review.points if p.hand == hand]
        head = _("hand {number}").format(number=hand + 1) + " "
        width = max(1, WIDTH - len(head))
        columns = min(width, len(points))
        spans = [
            (c * len(points) // columns, (c + 1) * len(points) // columns) for c in range(columns)
        ]
        values = [round(points[end - 1].chance * 100) for _, end in spans]
        bars = sparkline(values + [0, 100], sparks)[:-2]  # (0 and 100: an absolute scale)
        wrong = {d.number for d in review.decisions if d.hand == hand and d.mistake}
        marks = "".join(
            "!" if any(p.number in wrong for p in points[start:end]) else " "
            for start, end in spans
        )
        lines.append(head + bars)
        if marks.strip():
            lines.append(" " * len(head) + marks.rstrip())
    return lines


def summary_lines(review: Review, name: str) -> list[str]:
    """The review added up: the decisions as the expert's, the mistakes
    and their cost, luck against the person's own plays."""
    s = review.summary()
    lines = [
        ngettext(
            "{name}: {agreed} of {count} decision as the expert's",
            "{name}: {agreed} of {count} decisions as the expert's",
            s.decisions,
        ).format(name=name, agreed=s.agreed, count=s.decisions)
    ]
    if s.mistakes:
        line = ngettext(
            "{count} mistake: the expert's moves there, {worth}",
            "{count} mistakes: the expert's moves there, {worth}",
            s.mistakes,
        )
        lines.append(line.format(count=s.mistakes, worth=more_hands(s.cost)))
    else:
        lines.append(_("no mistake the analysis is sure of"))
    if s.luck is not None and s.own is not None:
        line = _(
            "hands won: {won:g} of {played}; {name}'s decisions against the expert's"
            " {own:+.2f} hands, luck (the deals, the draws, the other seats' moves) {luck:+.2f}"
        )
        lines.append(line.format(won=s.hands, played=s.played, luck=s.luck, own=s.own, name=name))
    return lines


def review_lines(history: History, review: Review, name: str, title: str, sparks: str) -> list[str]:
    """The whole review as lines (``--plain``'s text)."""
    lines = [
        _("Review of {game}: {name}'s decisions, judged from what they could see then").format(
            game=title, name=name
        )
    ]
    for hand in range(len(history.hands)):
        lines.append(_("hand {number}").format(number=hand + 1))
        lines += [
            "  " + decision_line(history.rules, d) for d in review.decisions if d.hand == hand
        ]
    if review.points:
        lines.append(_("The chance to win each hand after every move (a mistake: !):"))
        lines += chart_lines(review, sparks)
    lines += summary_lines(review, name)
    return lines


def json_of(review: Review, number: int | None, name: str) -> dict[str, Any]:
    """``--json``: the review and its summary, codes and numbers."""
    s = review.summary()
    return {
        "game": number,
        "seat": review.seat,
        "name": name,
        "summary": {
            "decisions": s.decisions,
            "agreed": s.agreed,
            "mistakes": s.mistakes,
            "cost": s.cost,
            "own": s.own,
            "luck": s.luck,
            "hands": s.hands,
            "played": s.played,
        },
        "review": to_dict(review),
    }


# ----- mille --review ---------------------------------------------------------------


def asked(given: dict[str, Any], files: list[str]) -> tuple[str | None, str | None] | str:
    """``--review [N|FILE] [--seat NAME] [--plain|--json]`` (the command
    line's options, ``given``, and its files): the game asked for (None:
    the last) and the name, or the line that refuses them (they go alone).

    >>> asked({"review": "3", "seat": "Ann", "lang": "fr"}, [])
    ('3', 'Ann')
    >>> asked({"review": "", "seat": None}, ["game.json"])
    ('game.json', None)
    >>> asked({"review": None, "seat": "Ann"}, [])
    'mille: --seat goes with --review'
    """
    review = given.get("review")
    options = {k for k, v in given.items() if v is not None and v is not False}
    if review is None:
        return _("mille: {option} goes with {other}").format(option="--seat", other="--review")
    if options - {"review", "seat", "plain", "json", "files", "lang"} or len(files) > (not review):
        return _("mille: {option} takes no other option or file").format(option="--review")
    return review or (files[0] if files else None), given.get("seat")


def _load(target: str | None) -> tuple[History, int | None, tuple[int, ...]]:
    """The game asked for: its history, its number in the record (None
    for a file), the seats of people at this machine."""
    from ..storage import gamefile, record

    if target is not None and not (target.isdigit() and target.isascii()):
        try:
            return gamefile.load(target), None, ()
        except (OSError, ValueError) as exc:
            from ..engine.text import escape

            why = getattr(exc, "strerror", None) or str(exc)
            raise Refused(
                _("mille: --review: {file}: {why}").format(file=escape(target), why=why)
            ) from None
    games = [game for game in record.games() if game.whole]
    if target is None:
        if not games:
            raise Refused(_("mille: --review: no game in the record has its moves kept"))
        number = games[-1].number
    else:
        number = int(target)
    try:
        text = record.history(number)
    except LookupError:
        line = _("mille: --review: no game {number} in the record (mille --stats numbers them)")
        raise Refused(line.format(number=number)) from None
    if text is None:
        line = _(
            "mille: --review: game {number} was recorded without its moves"
            " (by an older mille, or resumed from a save)"
        )
        raise Refused(line.format(number=number))
    here = next(
        (
            tuple(s.seat for s in g.seats if s.here and s.level is None)
            for g in games
            if g.number == number
        ),
        (),
    )
    try:
        return gamefile.loads(text), number, here
    except ValueError as exc:
        line = _("mille: --review: the moves of game {number} cannot be read: {why}")
        raise Refused(line.format(number=number, why=exc)) from None


def choose_seat(history: History, name: str | None, here: tuple[int, ...]) -> int:
    """The person reviewed: ``name`` (``--seat``), else the person at this
    machine, else the only person; :class:`Refused` says why not."""
    from ..storage.record import fold

    seats = people(history)
    names = history.names()
    listed = ", ".join(names[seat] for seat in seats)
    if not seats:
        raise Refused(_("mille: --review: no person played this game (only computers)"))
    if name is not None:
        for seat in seats:
            if fold(names[seat]) == fold(name):
                return seat
        line = _("mille: --review: --seat: no person {name} in this game (its people: {names})")
        raise Refused(line.format(name=name, names=listed))
    mine = [seat for seat in seats if seat in here]
    if len(mine) == 1:
        return mine[0]
    if len(seats) == 1:
        return seats[0]
    line = _("mille: --review: whose decisions? --seat NAME (its people: {names})")
    raise Refused(line.format(names=listed))


def _progress(done: int, total: int) -> None:
    """The line on standard error while it analyses (a terminal only)."""
    try:
        if not sys.stderr.isatty():
            return
    except (AttributeError, ValueError, OSError):
        return
    line = _("reviewing: {done} of {total} decisions").format(done=done, total=total)
    sys.stderr.write("\r" + line + ("\n" if done == total else ""))
    sys.stderr.flush()


def analyse(history: History, seat: int) -> Review:
    """The review of ``seat``, its progress shown (``^C``: KeyboardInterrupt)."""
    from ..game.review import chances

    total = count(history, seat)
    found: list[Decision] = []
    _progress(0, total)
    for decision in decisions(history, seat, SEED, ANALYSIS):
        found.append(decision)
        _progress(len(found), total)
    return Review(seat, SEED, tuple(found), chances(history, seat), 1 / history.rules.sides)


def kept_review(number: int | None, seat: int) -> Review | None:
    """The review of game ``number`` for ``seat`` the record keeps (None:
    none, or none that this version reads)."""
    from ..storage import record

    if number is None:
        return None
    try:
        text = record.review(number, seat)
        return None if text is None else from_dict(json.loads(text))
    except (record.RecordError, ValueError):
        return None


def _keep(number: int | None, review: Review) -> None:
    from ..storage import record
    from .record_words import record_failed

    if number is None:
        return
    try:
        record.keep_review(number, review.seat, json.dumps(to_dict(review), sort_keys=True))
    except record.RecordError as exc:
        record_failed(exc)


def show_review(target: str | None, name: str | None, as_json: bool) -> int:
    """``mille --review [N|FILE] [--seat NAME] [--json]``: the exit status."""
    from ..storage import record
    from .record_words import _sparks, _write, json_text, record_failed

    try:
        history, number, here = _load(target)
        seat = choose_seat(history, name, here)
    except Refused as exc:
        print(exc, file=sys.stderr)
        return 1
    except record.RecordError as exc:
        record_failed(exc)
        return 1
    shown = history.names()[seat]
    review = kept_review(number, seat)
    if review is None:
        try:
            review = analyse(history, seat)
        except KeyboardInterrupt:
            print("\n" + _("mille: --review: stopped (nothing kept)"), file=sys.stderr)
            return 130
        _keep(number, review)
    if as_json:
        return _write(json_text(json_of(review, number, shown)) + "\n")
    title = _("game {number}").format(number=number) if number is not None else _("the game file")
    lines = review_lines(history, review, shown, title, _sparks())
    return _write("".join(line + "\n" for line in lines))
