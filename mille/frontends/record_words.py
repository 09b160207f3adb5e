"""The record's words: what the end of a game says of the record (:func:`words`),
``mille --stats`` (:func:`show_stats`, :func:`stats_lines`), ``mille --forget``
(:func:`forget`) and ``mille --export`` (:func:`export`).

Apart from :mod:`mille.frontends.recorder`, which notes each hand and
writes the game at its end: this module reads the record and says it.
Every word goes through :mod:`mille.i18n`.  ``sqlite3`` comes with
``storage.record``, imported only when these run.
"""

from __future__ import annotations

from ..i18n import N_, _, ngettext

TYPE_CHECKING = False  # no typing import at run time (start-up)
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from ..storage.record import Game


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
    if game["against"] != "people":  # the computers of the game
        row = next(
            r
            for r in person["by"]
            if r["rules"] == game["rules"] and r["against"] == game["against"]
        )
        said.append(_record_line(name, _against(game["against"]), row, game["rules"]))
        board.append(_board_score(_against(game["against"]), row))
    from ..storage.record import fold

    met = {fold(r["name"]): r for r in person["head_to_head"]}
    for opponent in game["opponents"]:
        row = met.get(fold(opponent.get("name") or ""))
        if row is not None:  # each person played, by name
            said.append(_record_line(name, opponent["name"], row))
            board.append(_board_score(opponent["name"], row))
    line = _("; ").join(board)
    if game["rating"] is not None and game["against"] in levels:
        said.append(_rating_line(name, game, levels))
        line += _("; rating {rating}").format(rating=_rating(game))
    return said, line


def _record_line(name: str | None, against: str, row: Mapping[str, Any], rules: str = "") -> str:
    """``Your record against standard at bsd: won 3, lost 2 (60% of 5).``
    (``name``'s, or against a person: no rules)."""
    if row["tied"]:
        tally = _("won {won}, lost {lost}, tied {tied} ({share}% of {games})")
    else:
        tally = _("won {won}, lost {lost} ({share}% of {games})")
    tally = tally.format(
        won=row["won"], lost=row["lost"], tied=row["tied"], share=f"{row['share']:g}",
        games=row["games"],
    )  # fmt: skip
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
    return line.format(name=name, against=against, rules=rules, tally=tally)


def _board_score(against: str, row: Mapping[str, Any]) -> str:
    """The board's ``3-2 vs standard``."""
    return _("{score} vs {against}").format(score=_score(row), against=against)


def _rating_line(name: str | None, game: Mapping[str, Any], levels: Mapping[str, int]) -> str:
    """``Your rating 1512? (+16), provisional; standard 1500.``"""
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
    return rated.format(name=name, rating=_rating(game), level=_against(level), value=levels[level])


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
    ratings (times local; ``sparks``: the rating chart's bars); each game
    listed numbered as ``mille --export N`` takes it (``*``: its moves are
    not kept, a game recorded before mille kept them)."""
    from ..engine.text import escape

    people = stats["people"]
    if not people:
        return [_("No game recorded yet (the record: {path}).").format(path=escape(where))]
    said = [_("The record: {path}").format(path=escape(where))]
    provisional = False
    for person in people:
        said += _person_lines(person, sparks)
        provisional = provisional or bool(person["provisional"])
        for game in person["last"]:
            provisional = provisional or bool(game["provisional"])
    levels = _(", ").join(f"{_against(level)} {value}" for level, value in stats["levels"].items())
    said.append(_("The computers' ratings: {levels}.").format(levels=levels))
    if provisional:
        said.append(
            _(
                "A rating marked ? is provisional: fewer than {count} games against computers."
            ).format(count=stats["provisional"])
        )
    return said


def _person_lines(person: Mapping[str, Any], sparks: str) -> list[str]:
    """A person's lines of ``mille --stats``: the games, by rule set and
    opponent, each person met, the scores and streaks, the rating's chart
    and the last games."""
    rated = ""
    if person["rating"] is not None:
        rated = _("; rating {rating}").format(
            rating=f"{person['rating']}{'?' if person['provisional'] else ''}"
        )
    said = [f"{_name(person['name'])}: {_counts(person)}{rated}"]
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
    said.append(_streak_line(person))
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
    if not all(game["moves"] for game in person["last"]):  # (a game of schema 2)
        said.append(_("  last games (local time; the rating after each; *: no moves kept):"))
    elif person["last"]:  # (--last 0: none, nor their heading)
        said.append(_("  last games (local time; the rating after each):"))
    return said + [_last_line(game) for game in person["last"]]


def _streak_line(person: Mapping[str, Any]) -> str:
    """``  best 5100, average 3433.3; 1 won in a row, longest winning streak 1``."""
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
    return in_a_row.format(
        best=person["best"],
        average=f"{person['average']:g}",
        games=streak["games"],
        longest=streak["longest_won"],
    )


def _last_line(game: Mapping[str, Any]) -> str:
    """One of the last games, numbered: ``    #3 2026-01-01 03:00 bsd vs
    standard: won 5100-100; 1515? (+16)`` (``#3*``: its moves not kept)."""
    if game["place"] == "network":
        line = _("    #{number} {when} {rules} vs {against} (network): {result} {score}-{other}")
    else:
        line = _("    #{number} {when} {rules} vs {against}: {result} {score}-{other}")
    rating = "" if game["rating"] is None else _("; ") + _rating(game)
    return (
        line.format(
            number=f"{game['number']}{'' if game['moves'] else '*'}",
            when=_when(game),
            rules=game["rules"],
            against=_against_words(game),
            result=_result(game["result"]),
            score=game["score"],
            other=game["best_other"],
        )
        + rating
    )


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
        record_failed(exc)
        return 1
    if damaged:
        line = ngettext(
            "mille: the record: {count} game could not be read (left out)",
            "mille: the record: {count} games could not be read (left out)",
            damaged,
        )
        print(line.format(count=damaged), file=sys.stderr)
    asked = name is not None or (history and (people or rules or level))
    if not found["people"] and asked:
        print(_nothing_found(history, name, people), file=sys.stderr)
        return 1
    if as_json:
        return _write(json_text({"record": where} | found) + "\n")
    return _write("".join(line + "\n" for line in stats_lines(found, where, _sparks())))


def _no_game_of(option: str, name: str, known: Sequence[str], word: str = "of") -> str:
    """``mille: OPTION: no game of NAME in the record``, with the names
    it has (the first :data:`NAMES_SHOWN`), or that it has none."""
    listed = ", ".join(_name(one) for one in known[:NAMES_SHOWN])
    more = ", ..." if len(known) > NAMES_SHOWN else ""
    if not known:
        line = _("mille: {option}: no game of {name} in the record (it has no names)")
    elif word == "with":
        line = _("mille: {option}: no game with {name} in the record (its names: {names})")
    else:
        line = _("mille: {option}: no game of {name} in the record (its names: {names})")
    return line.format(option=option, name=_name(name), names=listed + more)


def _nothing_found(history: Sequence[Game], name: str | None, people: Sequence[str]) -> str:
    """Why ``--stats`` with ``name`` or filters found nothing (the record
    has games): the name or a person no game has, with the names there are;
    a name played against only; else no game is one of those asked."""
    from ..storage.record import fold

    spelled: dict[str, str] = {}
    for game in history:
        for seat in game.seats:
            if seat.name is not None:
                spelled.setdefault(fold(seat.name), seat.name)
    known = sorted(spelled.values(), key=lambda one: (fold(one), one))
    if name is not None and fold(name) not in spelled:
        return _no_game_of("--stats", name, known)
    missing = [one for one in people if fold(one) not in spelled]
    if missing:
        return _no_game_of("--stats", missing[0], known, "with")
    if name is not None and not any(
        seat.here and seat.name is not None and fold(seat.name) == fold(name)
        for game in history
        for seat in game.seats
    ):  # a person played against, not at this machine
        return _(
            "mille: --stats: {name} played no game at this machine"
            " (the games against them: --stats --people {name})"
        ).format(name=_name(name))
    return _("mille: --stats: no game recorded is one of those asked for")


def record_failed(exc: Exception) -> None:
    """Say on standard error, in one line, why the record could not be
    read or written (``exc``, a RecordError)."""
    import sys

    print(_("mille: the record: {why}").format(why=exc), file=sys.stderr)


def _stdin_is_terminal() -> bool:
    """Someone may answer ``Forget NAME?`` (not a script on a pipe)."""
    from .process import is_terminal

    return is_terminal(stdout=False)


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
            print(_no_game_of("--forget", name, record.names()), file=sys.stderr)
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
            from .commands import answer as read_answer

            if read_answer(answer.strip()) != "y":
                print(_("Nothing forgotten."))
                return 1
        count = record.forget(name)
    except record.RecordError as exc:
        record_failed(exc)
        return 1
    print(
        ngettext("Forgot {name}: {count} game.", "Forgot {name}: {count} games.", count).format(
            name=shown, count=count
        )
    )
    return 0


def export(number: int, file: str) -> int:
    """``mille --export N FILE``: game N of the record (as ``--stats``
    numbers them) written whole to FILE, a game file (``docs/game-format.md``)
    a friend can replay; the exit status.  FILE must be new (an existing
    file is never overwritten, nor a link followed); a game without its
    moves, no game N, a FILE that cannot be made: one line, status 1."""
    import sys

    from ..engine.text import escape
    from ..storage import gamefile, record

    shown = escape(file)
    try:
        text = record.history(number)
        if text is None:
            line = _(
                "mille: --export: game {number} was recorded without its moves"
                " (by an older mille, or resumed from a save)"
            )
            print(line.format(number=number), file=sys.stderr)
            return 1
        data = gamefile.dumps(gamefile.loads(text)).encode("utf-8")
    except LookupError:
        line = _("mille: --export: no game {number} in the record (mille --stats numbers them)")
        print(line.format(number=number), file=sys.stderr)
        return 1
    except record.RecordError as exc:
        record_failed(exc)
        return 1
    except ValueError as exc:  # (a SaveError too: moves another program changed)
        from ..storage.checks import said

        line = _("mille: --export: the moves of game {number} cannot be read: {why}")
        print(line.format(number=number, why=said(str(exc))), file=sys.stderr)
        return 1
    why = _write_new(file, data)
    if why is not None:
        print(_("mille: --export: {file}: {why}").format(file=shown, why=why), file=sys.stderr)
        return 1
    print(_("Game {number} written to {file}.").format(number=number, file=shown))
    return 0


def _write_new(file: str, data: bytes) -> str | None:
    """Write ``data`` to the new file ``file`` (never one that exists, nor
    through a link); why not, as a line, or None once written."""
    import os

    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(file, flags | getattr(os, "O_BINARY", 0), 0o666)
    except FileExistsError:
        return _("it exists (never overwritten: choose another name)")
    except (OSError, ValueError) as exc:
        return getattr(exc, "strerror", None) or str(exc)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
    except OSError as exc:
        try:
            os.remove(file)
        except OSError:
            pass
        return exc.strerror or str(exc)
    return None
