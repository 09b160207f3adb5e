"""A person's rating against the computer levels: Elo, with the levels fixed.

Each computer level has a fixed rating (:data:`LEVELS`), measured by
self-play (``docs/benchmarks.md``): ``standard`` is the anchor, 1500; the
``expert`` wins 60.2% of whole games against it, 400 * log10(0.602 / 0.398)
= +72 points, so 1572; ``easy`` wins 20% of the decided hands against it
(its share of whole games, each made of several hands, is lower still),
400 * log10(0.2 / 0.8) = -241, so 1259.  A person starts at
:data:`START` (the standard computer's rating).

After a game, each person's rating moves by the Elo formula against every
opposing side made of computers alone, at once (``docs/record.md``)::

    new = old + K / n * sum(S_o - E_o)
    E_o = 1 / (1 + 10 ** ((R_o - old) / 400))

where ``n`` is the number of such sides, ``R_o`` the mean of their
computers' level ratings, ``S_o`` 1 if the person's side ended above side
``o``, 0.5 if level with it, 0 if below, and ``K`` = :data:`K`.  Sides
with a person on them (partners, opponents over the network) do not move
it: the rating says how a person does against the computers.

The rule is applied here, one game at a time (:func:`after_game`);
``storage/stats.py`` replays the record's games through it.  A rating from
fewer than :data:`PROVISIONAL` rated games is provisional (shown ``1506?``).
The levels are those a person chooses (``players.registry.LEVELS``, in
its order: a test ties them).

Plain arithmetic and no rating library: the
levels are fixed and the update is one line, so a package (TrueSkill,
Plackett-Luce) would add a dependency for nothing this needs.

>>> round(update(1500.0, [(1500.0, 1.0)]))
1516
>>> round(update(1500.0, [(1572.0, 0.0), (1259.0, 1.0)]))
1497
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

START = 1500.0  # a person's rating before any game
K = 32.0  # the most a game moves a rating
# fixed by self-play, one for each level a person may choose (players.registry.LEVELS)
LEVELS = {"easy": 1259.0, "standard": 1500.0, "expert": 1572.0}
PROVISIONAL = 10  # a rating from fewer rated games than this is provisional


def expected(rating: float, opponent: float) -> float:
    """The share of games ``rating`` is expected to win against ``opponent``.

    >>> expected(1500.0, 1500.0)
    0.5
    """
    return 1.0 / (1.0 + float(10.0 ** ((opponent - rating) / 400.0)))


def update(rating: float, results: Sequence[tuple[float, float]]) -> float:
    """``rating`` after a game against sides of the given ratings, each
    with its result (1 won against it, 0.5 level, 0 lost); no side: as it
    was."""
    if not results:
        return rating
    gain = sum(score - expected(rating, opponent) for opponent, score in results)
    return rating + K * gain / len(results)


def level_rating(level: str) -> float:
    """A computer level's fixed rating (an unknown level: the standard's)."""
    return LEVELS.get(level, LEVELS["standard"])


def after_game(
    before: Mapping[str, float],
    people: Sequence[tuple[str, int]],
    sides: Sequence[tuple[int, int, Sequence[str | None]]],
) -> dict[str, float]:
    """The rule applied to one game: the new rating of each person of
    ``people`` (name, side) who played a side of computers alone, from
    ``before`` (:data:`START` for a person not in it); ``sides`` are the
    game's (side, total at the end, each member's level: None for a
    person).  Everyone moves at once, from their rating before the game;
    a person with no side of computers against them is not in the result.

    >>> sides = [(1, 5000, [None]), (2, 4000, ["standard"])]
    >>> after_game({}, [("Ann", 1)], sides)
    {'Ann': 1516.0}
    >>> after_game({}, [("Ann", 1), ("Bob", 2)], [(1, 5000, [None]), (2, 4000, [None])])
    {}
    """
    totals = {side: total for side, total, _ in sides}
    found: dict[str, float] = {}
    for name, mine in people:
        if mine not in totals:
            continue
        results = []
        for side, total, members in sides:
            if side == mine or not members or any(level is None for level in members):
                continue  # the person's own side, or a side with a person on it
            strength = sum(level_rating(level or "") for level in members) / len(members)
            score = 1.0 if totals[mine] > total else 0.5 if totals[mine] == total else 0.0
            results.append((strength, score))
        if results:
            found[name] = update(before.get(name, START), results)
    return found


def provisional(games: int) -> bool:
    """Whether a rating from ``games`` rated games is still provisional.

    >>> provisional(3), provisional(PROVISIONAL)
    (True, False)
    """
    return games < PROVISIONAL
