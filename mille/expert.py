"""The expert computer: a determinized Monte-Carlo search over the engine.

It sees only what its seat may see: its own hand, every tableau, the
discard pile and the set-aside pile, how many cards each other seat holds,
the deck's size, and what it observed (in ``classic`` and ``milebymile`` a
``Coup Fourre?`` put to another seat shows that the seat holds the safety,
until it plays it).  Never the order of the deck, never another hand.

For each real decision (more than one distinct legal move):

1. **Worlds.**  It lists the cards it cannot see (the preset's deck less
   every card in view, in card order, so the list depends on nothing
   hidden), shuffles them with its own ``random.Random`` and deals them
   back: into each other hand (as many cards as that hand holds, the known
   safeties first) and the rest into the deck.  Under the reshuffle rule
   the order of a future reshuffle is hidden too: each world draws its own
   ``table.seed``.
2. **Candidates.**  Legal moves that do the same thing (the same card from
   two slots) are one candidate.
3. **Playouts.**  Each candidate is played in a world, then the hand is
   played out to its end by the preset's standard computer in every seat
   (BSD's heuristic for ``bsd``, the rules-aware heuristic otherwise: a
   rollout of the standard policy, so the search improves on it), each
   bot's card counts started from what its seat sees in that world.  Every
   candidate meets the same worlds with the same random stream (common
   random numbers), so differences between candidates are the moves' own.
4. **Value.**  A playout is worth its side's hand score less the best
   opposing side's, plus ``GAME_WEIGHT`` times an estimate of its chance
   to win the game from the totals after the hand (1 or 0 once the game is
   over).
5. **Budget.**  Sequential halving: every live candidate gets the same
   worlds, the worse half is dropped, the others get twice as many worlds,
   until the budget of simulated moves (``Budget.moves``, about a quarter
   of a second in ``bsd``) is spent or one candidate is clearly best.  The
   standard computer's own move is kept unless another beats it by
   ``Budget.confidence`` standard errors of the paired difference.

The budget counts simulated moves, not seconds: the same random stream
gives the same choice on any machine (saved games replay exactly).  It
always answers ``Coup Fourre?`` yes and takes BSD's coup-fourre window
(the coup is worth 300 points and a turn); ``Extension?`` is searched.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Sequence

from .cards import EXTRA_TANK, NO_CARD, NUM_SAFETIES
from .computer import IN_HAND, PLAYED, UNKNOWN, BsdComputer
from .heuristic import KINDS, NAMES, Heuristic
from .memory import integer, quote
from .players import Player
from .table import (
    COUP,
    EXTENSION,
    NO,
    OVER,
    PICK,
    YES,
    Answer,
    Discard,
    Move,
    Outcome,
    Pick,
    Table,
    Use,
    deck_cards,
)

GAME_WEIGHT = 3000.0  # points a sure game win is worth over a lost one
HAND_SPREAD = 900.0  # the spread of one hand's score difference (bsd, about)
HAND_POINTS = 1000.0  # what a side scores in a hand, about

_SAFETY_NAMES = tuple(NAMES[EXTRA_TANK + i] for i in range(NUM_SAFETIES))


class ExpertError(ValueError):
    """A misuse of the expert, or a saved memory that cannot be restored;
    ``str()`` is the exact message."""


@dataclass(frozen=True)
class Budget:
    """How much the expert searches per decision.

    ``moves`` is the number of simulated moves (all playouts together) a
    decision may spend; ``worlds`` the worlds each candidate meets in the
    first round; ``confidence`` how many standard errors a candidate must
    beat the standard computer's move by to be preferred; ``decisive`` the
    standard errors by which a leader ends the search early.
    """

    moves: int = 32_000
    worlds: int = 12
    confidence: float = 2.0
    decisive: float = 2.0

    def __post_init__(self) -> None:
        if self.moves < 1 or self.worlds < 2:
            raise ExpertError("a budget needs at least 1 move and 2 worlds")


DEFAULT_BUDGET = Budget()


@dataclass
class _Stats:
    """One candidate's playout values, world by world."""

    move: Move
    values: list[float]

    def mean(self, n: int) -> float:
        return sum(self.values[:n]) / n


class Expert:
    """The search player of one seat (see the module docstring)."""

    def __init__(self, rng: random.Random, seat: int, *,
                 budget: Budget = DEFAULT_BUDGET) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
            raise ExpertError(f"seat must be a whole number from 0, not {seat!r}")
        self.rng = rng
        self.seat = seat
        self.budget = budget
        # safeties another seat is known to hold (a Coup Fourre? put to it)
        self.known: dict[int, list[int]] = {}
        self.last_moves = 0  # simulated moves of the last decision (for benchmarks)
        self.last_playouts = 0

    # ----- memory --------------------------------------------------------------

    def start_hand(self, table: Table) -> None:
        """A new deal: nothing is known of the other hands."""
        self.known = {}

    def observe(self, table: Table, outcome: Outcome) -> None:
        """Remember which safeties a ``Coup Fourre?`` showed, until played."""
        held = self.known.get(outcome.seat)
        if held and outcome.card in held and not isinstance(outcome.move, (Pick, Discard)):
            held.remove(outcome.card)
            if not held:
                del self.known[outcome.seat]
        if table.phase == COUP and table.offer is not None and table.asked is not None \
                and table.asked != self.seat:
            safety = table.offer[1]
            cards = self.known.setdefault(table.asked, [])
            if safety not in cards:
                cards.append(safety)
                cards.sort()

    # ----- the decision ----------------------------------------------------------

    def choose(self, table: Table) -> Move:
        """The move for its seat: a pick, a use, a discard or an answer."""
        if table.current_player != self.seat:
            raise ExpertError(f"seat {self.seat} is not to decide")
        self.last_moves = 0
        if table.phase == COUP:
            return YES
        if table.phase == EXTENSION:
            candidates: list[Move] = [YES, NO]
        else:
            legal = table.legal_moves()
            if PICK in legal:
                # bsd's coup-fourre window comes before the pick
                windows = [m for m in legal if isinstance(m, Use)]
                return windows[0] if windows else PICK
            candidates = distinct_moves(table, legal)
        if len(candidates) == 1:
            return candidates[0]
        return self._search(table, candidates)

    def _search(self, table: Table, candidates: list[Move]) -> Move:
        budget = self.budget
        rng = random.Random(self.rng.getrandbits(64))
        sampler = _Sampler(table, self.seat, self.known)
        base_move = sampler.base_move(table, rng.getrandbits(64), candidates)
        stats = [_Stats(move, []) for move in candidates]
        base = next(s for s in stats if s.move == base_move)
        worlds: list[tuple[Table, int]] = []
        alive = stats[:]
        width = budget.worlds
        used = playouts = 0
        while True:
            while len(worlds) < width:
                worlds.append((sampler.world(rng), rng.getrandbits(64)))
            for st in alive:
                for i in range(len(st.values), width):
                    world, seed = worlds[i]
                    value, moves = sampler.playout(world, st.move, seed)
                    st.values.append(value)
                    used += moves
                    playouts += 1
            # drop what is clearly worse than the standard move, then the worse half
            rivals = [s for s in alive if s is not base
                      and _z(s, base, width) > -budget.decisive]
            rivals.sort(key=lambda s: -s.mean(width))
            if len(rivals) > 1:
                rivals = rivals[:(len(rivals) + 1) // 2]
            alive = [base] + rivals
            if not rivals or used >= budget.moves:
                break
            per_playout = used / playouts
            room = (budget.moves - used) / (per_playout * len(alive))
            more = int(min(width, room))
            if more < 2:
                break
            width += more
        self.last_moves = used
        self.last_playouts = playouts
        best = max(alive, key=lambda s: s.mean(width))
        if best is not base and _z(best, base, width) >= budget.confidence:
            return best.move
        return base.move

    # ----- saving ------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Its memory as JSON-able data (not its rng, not its budget)."""
        return {
            "seat": self.seat,
            "known": {str(seat): [NAMES[c] for c in cards]
                      for seat, cards in sorted(self.known.items())},
        }

    @classmethod
    def from_dict(cls, data: Any, rng: random.Random, seat: int) -> Expert:
        """Rebuild a memory saved by ``to_dict`` for ``seat``;
        :class:`ExpertError` says what is wrong with it."""
        if not isinstance(data, dict):
            raise ExpertError("expert: expected an object")
        keys = ("seat", "known")
        for key in data:
            if key not in keys:
                raise ExpertError(f"expert: unknown key {quote(key)}")
        for key in keys:
            if key not in data:
                raise ExpertError(f"expert: missing key {key!r}")
        saved = integer(data["seat"], "expert: seat", ExpertError)
        if saved != seat:
            raise ExpertError(f"expert: saved for seat {quote(saved)}, not seat {seat}")
        raw = data["known"]
        if not isinstance(raw, dict):
            raise ExpertError("expert: known must be an object")
        known: dict[int, list[int]] = {}
        claimed: set[int] = set()
        for key, cards in raw.items():
            if not isinstance(key, str) or not key.isdigit() or len(key) > 1 and key[0] == "0":
                raise ExpertError(f"expert: known: {quote(key)} is not a seat number")
            other = int(key)
            if other == seat:
                raise ExpertError(f"expert: known: seat {other} is its own seat")
            if not isinstance(cards, list) or not cards:
                raise ExpertError(f"expert: known {key!r} must be a list of safeties")
            held = []
            for name in cards:
                if not isinstance(name, str) or name not in _SAFETY_NAMES:
                    raise ExpertError(f"expert: known {key!r}: {quote(name)} is not a safety")
                card = NAMES.index(name)
                if card in claimed:
                    raise ExpertError(f"expert: known: {name!r} held twice")
                claimed.add(card)
                held.append(card)
            known[other] = sorted(held)
        bot = cls(rng, seat)
        bot.known = known
        return bot


def _z(a: _Stats, b: _Stats, n: int) -> float:
    """How many standard errors ``a``'s mean beats ``b``'s by, paired over
    the first ``n`` worlds."""
    diffs = [x - y for x, y in zip(a.values[:n], b.values[:n])]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    if var <= 0:
        return math.inf if mean > 0 else (0.0 if mean == 0 else -math.inf)
    return mean / math.sqrt(var / n)


def distinct_moves(table: Table, legal: Sequence[Move]) -> list[Move]:
    """The legal moves that do different things: one per kind of move,
    card and target (the first slot holding the card)."""
    hand = table.hands[table.to_move]
    seen: set[tuple[int, int, int | None]] = set()
    moves: list[Move] = []
    for move in legal:
        if isinstance(move, Use):
            key = (0, hand[move.slot], move.target)
        elif isinstance(move, Discard):
            key = (1, hand[move.slot], None)
        else:
            moves.append(move)
            continue
        if key not in seen:
            seen.add(key)
            moves.append(move)
    return moves


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


class _Sampler:
    """One decision's view: the unseen cards, the worlds, the playouts."""

    def __init__(self, table: Table, seat: int, known: dict[int, list[int]]) -> None:
        rules = table.rules
        self.table = table
        self.seat = seat
        self.side = table.side_of(seat)
        self.bsd = rules.name == "bsd" and rules.players == 2
        public = [0] * KINDS
        for card in table.discard + table.set_aside:
            public[card] += 1
        for tab in table.tableaux:
            for card in tab.cards():
                public[card] += 1
        self.public = public
        unseen = deck_cards(rules)  # in card order
        for card in [c for c in table.hands[seat] if c != NO_CARD]:
            unseen.remove(card)
        for kind, n in enumerate(public):
            for _ in range(n):
                unseen.remove(kind)
        # known safeties go to their seats first
        self.known: dict[int, list[int]] = {}
        for other, cards in known.items():
            if other >= rules.players or other == seat:
                continue
            room = sum(c != NO_CARD for c in table.hands[other])
            held = [c for c in cards if c in unseen][:room]
            for card in held:
                unseen.remove(card)
            if held:
                self.known[other] = held
        self.unseen = unseen

    def world(self, rng: random.Random) -> Table:
        """A table consistent with what the seat sees, hidden cards dealt at random."""
        world = self.table.copy()
        cards = self.unseen[:]
        rng.shuffle(cards)
        for other, hand in enumerate(world.hands):
            if other == self.seat:
                continue
            held = self.known.get(other, [])
            k = 0
            for slot, card in enumerate(hand):
                if card != NO_CARD:
                    if k < len(held):
                        hand[slot] = held[k]
                        k += 1
                    else:
                        hand[slot] = cards.pop()
        world.deck = cards
        if world.rules.reshuffle:
            world.seed = rng.getrandbits(32)
        return world

    def policies(self, world: Table, rng: random.Random) -> list[Player]:
        """The standard computer in every seat, its counts from what that
        seat sees in ``world``."""
        rules = world.rules
        players: list[Player] = []
        for seat in range(rules.players):
            seen = self.public[:]
            for card in world.hands[seat]:
                if card != NO_CARD:
                    seen[card] += 1
            if self.bsd:
                bot = BsdComputer(rng, seat)
                bot.seen = seen[:EXTRA_TANK + NUM_SAFETIES]
                own = world.tableaux[seat].safeties
                hand = world.hands[seat]
                bot.safeties = [PLAYED if EXTRA_TANK + i in own else
                                IN_HAND if EXTRA_TANK + i in hand else UNKNOWN
                                for i in range(NUM_SAFETIES)]
                players.append(bot)
            else:
                heuristic = Heuristic(rng, seat)
                heuristic.deck = list(rules.deck) + [rules.false_virtues]
                heuristic.seen = seen
                heuristic.refills = world.refills
                players.append(heuristic)
        return players

    def base_move(self, table: Table, seed: int, candidates: list[Move]) -> Move:
        """The standard computer's move here (as one of ``candidates``)."""
        world = self.world(random.Random(seed))
        players = self.policies(world, random.Random(seed))
        move = players[self.seat].choose(world)
        if move in candidates:
            return move
        hand = table.hands[self.seat]
        for other in candidates:
            if type(other) is type(move) and isinstance(other, (Use, Discard)) and \
                    isinstance(move, (Use, Discard)) and hand[other.slot] == hand[move.slot] \
                    and getattr(other, "target", None) == getattr(move, "target", None):
                return other
        return candidates[0]

    def playout(self, world: Table, move: Move, seed: int) -> tuple[float, int]:
        """``move`` in a copy of ``world``, then the standard computers to
        the end of the hand: the value for the seat's side, and the moves made.

        Each seat draws from its own stream of the world's deck (the cards
        at every n-th place from the top, n the number of seats, starting
        with the next seat), so the cards a seat draws do not shift when a
        candidate changes who moves when (a safety's extra turn): the
        candidates stay comparable world by world.  Any fixed rule that
        takes each next card from places not yet drawn deals the unseen
        cards as fairly as the deck's order does.
        """
        t = world.copy()
        rng = random.Random(seed)
        players = self.policies(t, rng)
        streams = self.streams(world)
        refills = world.refills
        moves = 0
        while True:
            seat = t.current_player
            assert seat is not None
            if isinstance(move, Pick):
                if streams is not None and t.deck and t.refills == refills:
                    _arrange(t, streams, seat)
                t.apply_unchecked(move)
                outcome = Outcome(seat, move, drawn=t.drawn)
            elif isinstance(move, Answer):
                offer = t.offer
                t.apply_unchecked(move)
                if offer is not None and move.yes:
                    outcome = Outcome(seat, move, card=offer[1], coup_fourre=True)
                else:
                    outcome = Outcome(seat, move)
            else:
                card = t.hands[seat][move.slot]
                t.apply_unchecked(move)
                outcome = Outcome(seat, move, card=card)
            moves += 1
            for player in players:
                player.observe(t, outcome)
            if t.phase == OVER:
                break
            seat = t.current_player
            assert seat is not None
            move = players[seat].choose(t)
        return self.value(t), moves

    def streams(self, world: Table) -> list[list[int]] | None:
        """Each seat's cards of the world's deck, the first to draw last
        (None under ``no duplicates``, where a draw depends on the hand)."""
        if world.rules.rigging == "no duplicates":
            return None
        n = world.rules.players
        first = (self.seat + 1) % n
        streams: list[list[int]] = [[] for _ in range(n)]
        for k, card in enumerate(reversed(world.deck)):
            streams[(first + k) % n].append(card)
        for stream in streams:
            stream.reverse()
        return streams

    def value(self, t: Table) -> float:
        """A finished hand's worth to the seat's side (see the module docstring)."""
        sides = t.rules.sides
        scores = [t.hand_score(side).total for side in range(1, sides + 1)]
        mine = scores[self.side - 1]
        others = [s for i, s in enumerate(scores) if i != self.side - 1]
        diff = mine - max(others)
        totals = [t.totals[i] + scores[i] for i in range(sides)]
        return diff + GAME_WEIGHT * game_chance(t, totals, self.side)


def _arrange(t: Table, streams: list[list[int]], seat: int) -> None:
    """Put the next cards of ``seat``'s stream on top of the deck (another
    seat's once its own is out), for the pick it is about to make."""
    deck = t.deck
    hand = t.hands[seat]
    count = min(len(deck), 2 if hand[1] == NO_CARD else 1)
    for k in range(count):
        stream = streams[seat]
        if not stream:
            stream = next(s for s in streams if s)
        card = stream.pop()
        top = len(deck) - 1 - k
        i = deck.index(card, 0, top + 1)
        deck[i], deck[top] = deck[top], deck[i]


def game_chance(t: Table, totals: list[int], side: int) -> float:
    """An estimate of ``side``'s chance to win the game, from the totals
    after a hand: 1 or 0 once it is over, else a normal approximation of the
    race to the winning score against the best opposing side."""
    rules = t.rules
    mine = totals[side - 1]
    best_other = max(s for i, s in enumerate(totals) if i != side - 1)
    top = max(totals)
    if top >= rules.winning_score:
        if mine == top and totals.count(top) == 1:
            return 1.0
        if mine == top:
            return 0.5
        if totals.count(top) > 1 and rules.game_tie == "no game":
            return 0.5
        return 0.0
    hands_left = max(1.0, (rules.winning_score - top) / HAND_POINTS)
    return _phi((mine - best_other) / (HAND_SPREAD * math.sqrt(hands_left)))


__all__ = ["Budget", "DEFAULT_BUDGET", "Expert", "ExpertError", "distinct_moves",
           "game_chance"]
