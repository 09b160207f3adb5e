"""The statistics of the record (``mille --stats``): each person's games
won, lost and tied, by rule set and opponent, against each person met, the
rating game by game (:mod:`mille.game.rating`) and the last games, from the
games :mod:`mille.storage.record` reads.  Derived every time, never stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..game import rating
from .record import Game, Seat, ended_at, fold

LAST = 5  # the last games shown for each person (--last N: N)


def opponents(game: Game) -> str:
    """Whom the people played, as the statistics group it: the computers'
    level, or ``people`` for a game without a computer."""
    return game.level or "people"


def _sides(game: Game) -> list[tuple[int, int, list[str | None]]]:
    return [
        (side.side, side.total, [s.level if s.name is None and s.level else None
                                 for s in game.seats if s.side == side.side])
        for side in game.sides
    ]  # fmt: skip


def _rated_people(game: Game) -> list[tuple[str, int]]:
    return [(seat.name, seat.side) for seat in game.seats if seat.here and seat.name is not None]


def rating_history(history: Sequence[Game]) -> dict[str, dict[str, tuple[float, float]]]:
    """For each person at this machine (their folded name), the rating
    before and after each rated game (by the game's key), ``history``
    replayed oldest first by :func:`mille.game.rating.after_game`."""
    now: dict[str, float] = {}
    found: dict[str, dict[str, tuple[float, float]]] = {}
    for game in history:
        people = [(fold(name), side) for name, side in _rated_people(game)]
        changes = rating.after_game(now, people, _sides(game))
        for name, after in changes.items():
            found.setdefault(name, {})[game.key] = (now.get(name, rating.START), after)
        now.update(changes)
    return found


def ratings(history: Sequence[Game]) -> dict[str, float]:
    """Each person's rating (at this machine, by the name first written)
    after ``history``, oldest first (:mod:`mille.game.rating`)."""
    spelled: dict[str, str] = {}
    for game in history:
        for name, _ in _rated_people(game):
            spelled.setdefault(fold(name), name)
    return {
        spelled[name]: list(games.values())[-1][1]
        for name, games in rating_history(history).items()
    }


def _share(won: int, games: int) -> float:
    return round(100.0 * won / games, 1) if games else 0.0


def _tally(results: Sequence[str]) -> dict[str, Any]:
    won, lost, tied = (results.count(word) for word in ("won", "lost", "tied"))
    return {
        "games": len(results),
        "won": won,
        "lost": lost,
        "tied": tied,
        "share": _share(won, len(results)),
    }


def local_time(ended: str) -> str:
    """An end (UTC, as recorded) in this machine's local time, ISO 8601
    with its offset (``2026-11-27T23:50:01+01:00``)."""
    import datetime

    try:
        when = datetime.datetime.fromtimestamp(ended_at(ended), datetime.timezone.utc)
        return when.astimezone().isoformat()
    except (OverflowError, OSError, ValueError):  # (a time at the calendar's ends)
        return ended


def _against(game: Game, seat: Seat) -> list[dict[str, str]]:
    """The seat's opponents in ``game``: each person by name (a forgotten
    one: no name), then each computer level once."""
    found: list[dict[str, str]] = []
    levels: list[str] = []
    for other in game.seats:
        if other.side == seat.side:
            continue
        if other.name is None and other.level:
            if other.level not in levels:
                levels.append(other.level)
        else:
            found.append({"name": other.name} if other.name is not None else {})
    return found + [{"level": level} for level in levels]


def _matches(game: Game, rules: str | None, level: str | None, people: Sequence[str]) -> bool:
    """Whether ``game`` is one of those asked for (``--rules``, ``--level``:
    against that level, ``--people``: with every one of those people)."""
    if rules is not None and game.rules != rules:
        return False
    if level is not None and game.level != level:
        return False
    there = {fold(seat.name) for seat in game.seats if seat.name is not None}
    return all(fold(name) in there for name in people)


def statistics(
    history: Sequence[Game],
    *,
    name: str | None = None,
    rules: str | None = None,
    level: str | None = None,
    people: Sequence[str] = (),
    last: int = LAST,
) -> dict[str, Any]:
    """The statistics of every person at this machine (by name; ``name``:
    that one alone, compared as :func:`fold` does) over ``history``, oldest
    first: what ``mille --stats --json`` prints.  ``rules``, ``level`` and
    ``people`` keep only the games asked for (the ratings come from every
    game, in order), ``people`` the games with them, of the others;
    ``last``: how many of the last games to list."""
    rated = rating_history(history)
    played: dict[str, list[tuple[Game, Seat]]] = {}
    spelled: dict[str, str] = {}
    for game in history:
        for seat in game.seats:
            if seat.here and seat.name is not None:
                key = fold(seat.name)
                spelled.setdefault(key, seat.name)
                if _matches(game, rules, level, people):
                    played.setdefault(key, []).append((game, seat))
    wanted = None if name is None else fold(name)
    others = {fold(one) for one in people}  # (the people are the others: not their own block)
    found = []
    for key in sorted(played, key=lambda text: (text, spelled[text])):
        if (wanted is not None and key != wanted) or key in others:
            continue
        found.append(_person(spelled[key], played[key], rated.get(key, {}), last))
    return {
        "levels": {level: round(value) for level, value in rating.LEVELS.items()},
        "provisional": rating.PROVISIONAL,
        "people": found,
    }


def _person(
    name: str,
    games_of: list[tuple[Game, Seat]],
    rated: dict[str, tuple[float, float]],
    last: int,
) -> dict[str, Any]:
    """One person's statistics (``--stats --json``'s object): ``games_of``
    their games with their seat, oldest first; ``rated`` their rating
    before and after each rated game; ``last``: how many games to list."""
    results = [game.result(seat.side) for game, seat in games_of]
    scores = [next(s.total for s in game.sides if s.side == seat.side) for game, seat in games_of]
    kinds: dict[tuple[str, str], list[str]] = {}
    for (game, _seat), result in zip(games_of, results):
        kinds.setdefault((game.rules, opponents(game)), []).append(result)
    streak = 0
    while streak < len(results) and results[-1 - streak] == results[-1]:
        streak += 1
    longest = run = 0
    for result in results:
        run = run + 1 if result == "won" else 0
        longest = max(longest, run)
    position = {key: number for number, key in enumerate(rated, 1)}  # of the rated games
    shown = [
        _last_game(game, seat, result, score, rated, position)
        for (game, seat), result, score in list(zip(games_of, results, scores))[::-1][:last]
    ]
    after_all = [after for _, after in rated.values()]
    return (
        {"name": name}
        | _tally(results)
        | {
            "rating": round(after_all[-1]) if after_all else None,
            "provisional": rating.provisional(len(after_all)) if after_all else None,
            "rated_games": len(after_all),
            "history": [round(value) for value in after_all],
            "best": max(scores),
            "average": round(sum(scores) / len(scores), 1),
            "streak": {"result": results[-1], "games": streak, "longest_won": longest},
            "by": [
                {"rules": rules, "against": against} | _tally(kinds[rules, against])
                for rules, against in sorted(kinds)
            ],
            "head_to_head": _head_to_head(games_of),
            "last": shown,
        }
    )


def _head_to_head(games_of: list[tuple[Game, Seat]]) -> list[dict[str, Any]]:
    """Each person met across the table, by name: who ended above the other."""
    rivals: dict[str, tuple[str, list[str]]] = {}
    for game, seat in games_of:
        totals = {side.side: side.total for side in game.sides}
        for other in game.seats:
            if other.side != seat.side and other.name is not None:
                spelling, seen = rivals.setdefault(fold(other.name), (other.name, []))
                mine, theirs = totals[seat.side], totals[other.side]
                seen.append("won" if mine > theirs else "tied" if mine == theirs else "lost")
    return [
        {"name": spelling} | _tally(seen)
        for _, (spelling, seen) in sorted(rivals.items(), key=lambda item: item[0])
    ]


def _last_game(
    game: Game,
    seat: Seat,
    result: str,
    score: int,
    rated: dict[str, tuple[float, float]],
    position: dict[str, int],
) -> dict[str, Any]:
    """One of the last games listed: numbered as the record numbers it
    (``moves``: whether its moves are kept), the rating after it."""
    others = [s.total for s in game.sides if s.side != seat.side]
    before, after = rated.get(game.key, (None, None))
    return {
        "key": game.key,
        "number": game.number,
        "moves": game.whole,
        "ended": game.ended,
        "local": local_time(game.ended),
        "rules": game.rules,
        "against": opponents(game),
        "opponents": _against(game, seat),
        "place": game.place,
        "result": result,
        "score": score,
        "best_other": max(others, default=0),
        "rating": None if after is None else round(after),
        "change": None if after is None else round(after) - round(before or 0),
        "provisional": None if after is None else rating.provisional(position[game.key]),
    }
