"""Headless self-play: automatic players against each other, no terminal.

    python -m mille.selfplay --hands 1000 --seed 1 --players standard,random
    python -m mille.selfplay --rules classic --players standard,greedy,standard,greedy --games 20
    python -m mille.selfplay --rules milebymile --players standard,random,random,random \\
        --teams 2v2 --stacking --karma --hands 500

``--players`` names one kind per seat (seat 0 first; its length is the
number of seats): ``standard`` is the preset's computer
(:func:`mille.players.registry.make_computer`: BSD's for ``bsd``, the rules-aware
heuristic for the others; ``bsd`` is an alias), ``heuristic`` the
rules-aware heuristic under any preset, ``random`` and ``greedy`` the
simple players of :mod:`mille.players.autoplayers`, and the levels around
``standard``: ``easy`` (:mod:`mille.players.easy`) and ``expert``
(:mod:`mille.players.expert`, a search player: a tenth to a quarter of a second
a decision).  Seat s plays for side ``s % sides + 1``.  Who starts rotates
by seat, as in the game.

The last line printed is one JSON object: ``rules``, ``team_mode``,
``players`` (by seat), ``seats`` (each side's seats), ``hands`` played,
``games`` finished, and by side: ``points`` (the sum of its hand totals),
``hand_wins`` (hands where its hand total was strictly the highest),
``game_wins``; then ``hands_per_second`` and ``seconds``.  ``--games N``
plays N whole games (to the winning score) instead of ``--hands N``.
``--workers N`` splits the work over N processes (the result is then that
of N seeded runs added up).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NoReturn

from .engine.rules import BSD, PRESETS, RIGGINGS, Rules, RulesError, find_rules
from .engine.table import OVER, Table
from .engine.view import SeatView, seen_by_others
from .players.base import Player
from .players.registry import PLAYER_NAMES, make_player

TYPE_CHECKING = False  # (the game layer is loaded by played_game alone)
if TYPE_CHECKING:
    from .game.history import History

PlayerMaker = Callable[[Rules, random.Random, int], Player]


def _maker(name: str) -> PlayerMaker:
    def make(rules: Rules, rng: random.Random, seat: int) -> Player:
        return make_player(rules, name, seat, rng)

    return make


# one maker per name of the registry's self-play vocabulary
PLAYERS: dict[str, PlayerMaker] = {name: _maker(name) for name in PLAYER_NAMES}

MAX_MOVES_PER_HAND = 20_000  # a hand takes a few hundred at most


def played_game(
    rules: Rules,
    seed: int,
    level: str = "standard",
    people: Mapping[int, str] | None = None,
    hands: int | None = None,
) -> History:
    """A game of the computer at ``level`` in every seat, to its end (or its
    first ``hands`` hands), as a :class:`~mille.game.history.History`; the
    seats in ``people`` are recorded as those persons, the others as
    computers at ``level``.

    >>> game = played_game(find_rules("classic"), 3, people={0: "Ann"}, hands=1)
    >>> game.people, game.computers, len(game.hands)
    ({0: 'Ann'}, {1: 'standard'}, 1)
    """
    from .game.history import Hand, History, hand_of
    from .game.session import Session

    people = dict(people or {})
    game = Session.new(rules, seed=seed, humans=(), level=level)
    kept: list[Hand] = []
    while hands is None or len(kept) < hands:
        if game.table.hand_over:
            hand = hand_of(game.cards_dealt, game.log, game.orders)
            assert hand is not None  # (a session's own deal and log)
            kept.append(hand)
            if game.table.game_over:
                break
            game.next_hand()
        else:
            game.computer_move()
    computers = {seat: level for seat in range(rules.players) if seat not in people}
    return History(rules, people, computers, tuple(kept))


def _check_names(names: Sequence[str], rules: Rules) -> None:
    for name in names:
        if name not in PLAYERS:
            raise ValueError(f"unknown player: {name!r}")
    if len(names) != rules.players:
        raise ValueError(f"{len(names)} players for {rules.players} seats")


def play_hands(
    n: int,
    seed: int,
    names: Sequence[str],
    rules: Rules = BSD,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``n`` hands between the named players (one per seat); the summary."""
    return _play(seed, names, rules, hands=n, progress=progress)


def play_games(
    n: int,
    seed: int,
    names: Sequence[str],
    rules: Rules = BSD,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``n`` whole games (to the winning score); the summary."""
    return _play(seed, names, rules, games=n, progress=progress)


def _play(
    seed: int,
    names: Sequence[str],
    rules: Rules,
    *,
    hands: int | None = None,
    games: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    _check_names(names, rules)
    master = random.Random(seed)
    deal_rng = random.Random(master.getrandbits(64))
    seats = [
        PLAYERS[name](rules, random.Random(master.getrandbits(64)), seat)
        for seat, name in enumerate(names)
    ]
    sides = rules.sides
    points = [0] * sides
    wins = [0] * sides
    game_wins = [0] * sides
    played = finished = 0
    started = time.perf_counter()
    table = Table.new(rules, deal_rng)
    while (played < hands) if hands is not None else (finished < (games or 0)):
        if played:
            table.new_hand(deal_rng)
        play_one_hand(table, seats)
        played += 1
        totals = [table.hand_score(side).total for side in range(1, sides + 1)]
        for i, total in enumerate(totals):
            points[i] += total
        best = max(totals)
        if totals.count(best) == 1:
            wins[totals.index(best)] += 1
        if table.game_over:
            finished += 1
            game_totals = [table.total(side) for side in range(1, sides + 1)]
            top = max(game_totals)
            if game_totals.count(top) == 1:
                game_wins[game_totals.index(top)] += 1
        if progress is not None:
            progress(played if hands is not None else finished)
    seconds = time.perf_counter() - started
    return _summary(rules, names, played, finished, points, wins, game_wins, seconds)


def _summary(
    rules: Rules,
    names: Sequence[str],
    hands: int,
    games: int,
    points: list[int],
    wins: list[int],
    game_wins: list[int],
    seconds: float,
) -> dict[str, Any]:
    return {
        "rules": rules.name,
        "team_mode": rules.team_mode,
        "players": list(names),
        "seats": [list(rules.members(side)) for side in range(1, rules.sides + 1)],
        "hands": hands,
        "games": games,
        "points": points,
        "hand_wins": wins,
        "game_wins": game_wins,
        "hands_per_second": round(hands / seconds, 1) if seconds > 0 else 0.0,
        "seconds": round(seconds, 3),
    }


def play_one_hand(table: Table, seats: Sequence[Player]) -> int:
    """Play the table's hand to its end; the number of moves made."""
    views = [SeatView(table, seat) for seat in range(len(seats))]
    watchers = list(zip(seats, views))
    for player, view in watchers:
        player.start_hand(view)
    for moves in range(MAX_MOVES_PER_HAND):
        if table.phase == OVER:
            return moves
        seat = table.current_player
        assert seat is not None
        outcome = table.apply(seats[seat].choose(views[seat]))
        if outcome.drawn:  # a pick: the others see how many cards, not which
            hidden = seen_by_others(outcome)
            for player, view in watchers:
                player.observe(view, outcome if view.seat == seat else hidden)
        else:
            for player, view in watchers:
                player.observe(view, outcome)
    raise RuntimeError("a hand did not end")


def _play_chunk(args: tuple[int, int, tuple[str, ...], Rules, bool]) -> dict[str, Any]:
    n, seed, names, rules, games = args
    if games:
        return play_games(n, seed, names, rules)
    return play_hands(n, seed, names, rules)


def play_parallel(
    n: int,
    seed: int,
    names: Sequence[str],
    workers: int,
    rules: Rules = BSD,
    *,
    games: bool = False,
) -> dict[str, Any]:
    """``play_hands`` (``play_games`` with ``games``) split over ``workers``
    processes (seeds seed, seed+1...)."""
    import multiprocessing

    _check_names(names, rules)
    sizes = [n // workers + (1 if i < n % workers else 0) for i in range(workers)]
    jobs = [(size, seed + i, tuple(names), rules, games) for i, size in enumerate(sizes) if size]
    started = time.perf_counter()
    with multiprocessing.Pool(len(jobs)) as pool:
        parts = pool.map(_play_chunk, jobs)
    seconds = time.perf_counter() - started

    def add(key: str) -> list[int]:
        return [sum(part[key][i] for part in parts) for i in range(rules.sides)]

    return _summary(
        rules,
        names,
        sum(p["hands"] for p in parts),
        sum(p["games"] for p in parts),
        add("points"),
        add("hand_wins"),
        add("game_wins"),
        seconds,
    )


# ----- the command line ---------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad option is one line ``selfplay: ...`` (exit 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"selfplay: {message}\n")


def _players_arg(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",")]
    for name in names:
        if name not in PLAYERS:
            raise argparse.ArgumentTypeError(
                f"unknown player {name!r} (choose from {', '.join(PLAYERS)})"
            )
    return names


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text}")
    return value


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def _rigging(text: str) -> str:
    name = text.replace("-", " ").replace("_", " ").lower()
    if name not in RIGGINGS:
        raise argparse.ArgumentTypeError(
            f"unknown deck rigging {text!r} (choose from "
            f"{', '.join(r.replace(' ', '-') for r in RIGGINGS)})"
        )
    return name


class _Bar:
    """A one-line progress bar on stderr."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.shown = -1

    def __call__(self, done: int) -> None:
        filled = 40 * done // self.total
        if filled == self.shown and done != self.total:
            return
        self.shown = filled
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (40 - filled)}] {done}/{self.total}")
        if done == self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m mille.selfplay",
        description="Play hands or games of mille between automatic players, headless.",
    )
    amount = parser.add_mutually_exclusive_group(required=True)
    amount.add_argument("--hands", type=_positive, help="hands to play")
    amount.add_argument("--games", type=_positive, help="whole games to play")
    parser.add_argument("--seed", type=_integer, default=0, help="random seed (default 0)")
    parser.add_argument("--rules", choices=PRESETS, default="bsd", help="the preset (default bsd)")
    parser.add_argument(
        "--players",
        type=_players_arg,
        default=None,
        help="one kind per seat, comma separated, of "
        f"{', '.join(PLAYERS)} (default standard,standard)",
    )
    parser.add_argument(
        "--teams",
        metavar="MODE",
        default=None,
        help="milebymile's team mode, e.g. individual, 2v2, 3v3",
    )
    parser.add_argument(
        "--distance",
        type=_integer,
        default=None,
        help="milebymile's race distance (300-3000; in 25s with perfect crossing)",
    )
    parser.add_argument(
        "--winning-score",
        type=_integer,
        default=None,
        help="milebymile's winning score (1000-10000)",
    )
    for flag, what in (
        ("perfect-crossing", "exact finish needed"),
        ("stacking", "stacking attacks"),
        ("reshuffle", "reshuffle the discard pile"),
        ("always-discard", "always allow discarding"),
        ("karma", "the karma rule"),
    ):
        parser.add_argument(
            f"--{flag}",
            action=argparse.BooleanOptionalAction,
            default=None,
            help=f"milebymile: {what} (default: the preset's)",
        )
    parser.add_argument(
        "--rigging",
        type=_rigging,
        default=None,
        help="milebymile's deck rigging: none, no-duplicates, 2x-attacks, 2x-defenses",
    )
    parser.add_argument("--progress", action="store_true", help="progress bar on stderr")
    parser.add_argument("--workers", type=_positive, default=1, help="processes to use (default 1)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    names: list[str] = args.players or ["standard", "standard"]
    try:
        rules = find_rules(
            args.rules,
            players=len(names),
            team_mode=args.teams,
            distance=args.distance,
            winning_score=args.winning_score,
            perfect_crossing=args.perfect_crossing,
            stacking=args.stacking,
            reshuffle=args.reshuffle,
            always_discard=args.always_discard,
            rigging=args.rigging,
            karma=args.karma,
        )
    except RulesError as exc:
        sys.stderr.write(f"selfplay: {exc}\n")
        return 1
    amount = args.hands if args.hands is not None else args.games
    games = args.games is not None
    if args.workers > 1:
        summary = play_parallel(amount, args.seed, names, args.workers, rules, games=games)
        if args.progress:
            _Bar(amount)(amount)
    else:
        bar = _Bar(amount) if args.progress else None
        run = play_games if games else play_hands
        summary = run(amount, args.seed, names, rules, bar)
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
