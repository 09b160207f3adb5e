"""The people and names given on the command line: ``--people``'s seats
and names, ``--name``'s, each checked as the game checks a name, a
refusal in one line (:class:`mille.frontends.cli_help.UsageError`)."""

from __future__ import annotations

TYPE_CHECKING = False  # no typing import at run time (start-up)
if TYPE_CHECKING:
    import argparse

from ..i18n import _
from .cli_help import UsageError, quote


def parse_people(text: str, players: int) -> tuple[tuple[int, str | None], ...]:
    """``--people``: ``SEAT`` or ``SEAT=NAME``, comma-separated; UsageError
    with one line if it is not so.

    >>> parse_people("0=Ann,2", 4)
    ((0, 'Ann'), (2, None))
    >>> parse_people("0=Ann,4=Bob", 4)
    Traceback (most recent call last):
    ...
    mille.frontends.cli_help.UsageError: mille: --people: no seat 4 at a table of 4 (seats 0 to 3)
    """

    people: list[tuple[int, str | None]] = []
    for item in text.split(","):
        seat_text, equals, name = item.partition("=")
        if not (seat_text.isascii() and seat_text.isdigit()) or (equals and not name):
            raise UsageError(
                _(
                    "mille: --people: {item} is not SEAT or SEAT=NAME (for example 0=Ann,2=Bob)"
                ).format(item=quote(item))
            )
        seat = int(seat_text)
        if seat >= players:
            raise UsageError(
                _(
                    "mille: --people: no seat {seat} at a table of {players} (seats 0 to {last})"
                ).format(seat=seat, players=players, last=players - 1)
            )
        if seat in dict(people):
            raise UsageError(_("mille: --people: seat {seat} twice").format(seat=seat))
        if equals:
            from .process import LINE_LIMIT

            checked_name(name, "--people", LINE_LIMIT - 18)
            if name in dict(people).values():
                raise UsageError(
                    _("mille: --people: two people named {name}").format(name=quote(name))
                )
        people.append((seat, name if equals else None))
    return tuple(people)


def name_given(args: argparse.Namespace) -> str | None:
    """``--name NAME`` at home: the person's own name, checked."""
    return None if args.name is None else checked_name(args.name, "--name", 120)


def checked_name(text: str, option: str, limit: int) -> str:
    """A name given with ``option``, as :func:`mille.game.session.check_name`
    takes it; else UsageError saying why in one line (cut to ``limit``)."""
    from ..game.limits import NAME_REFUSALS
    from ..game.session import BadName, check_name
    from ..i18n import heard

    try:
        return check_name(text)
    except BadName as exc:
        raise UsageError(
            f"mille: {option}: {quote(heard(str(exc), NAME_REFUSALS), limit)}"
        ) from None
