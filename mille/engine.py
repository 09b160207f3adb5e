"""The rules of BSD mille: state, legality, effects, hand end and scoring.

Pure Python: no curses, no I/O, no globals.  Randomness comes in as a
``random.Random``.  Player 0 is the human (BSD's ``PLAYER``), player 1 the
computer (``COMP``); the rules themselves are symmetric.

Every card is always somewhere: in the deck, the discard pile, a hand, or a
player's battle, speed, mileage or safety pile (see ``GameState.all_cards``).
What the board shows as the battle and speed "tops" is kept apart from the
piles, because a safety can make you rolling (top ``Go``) or lift a limit
(top empty) without a card being played there, exactly as in BSD.

>>> import random
>>> game = GameState.new_game(random.Random(1))
>>> game.check(Use(1))
'must pick first'
>>> game.apply(PICK).drawn != ()
True
>>> game.check(PICK)
'already picked'
"""

from __future__ import annotations

import enum

TYPE_CHECKING = False
if TYPE_CHECKING:
    import random
    from collections import Counter
    from collections.abc import Iterator

from .cards import (
    D200,
    DECK_SIZE,
    END_OF_LIMIT,
    GO,
    HAND_SLOTS,
    NO_CARD,
    NUM_SAFETIES,
    RIGHT_OF_WAY,
    SPEED_LIMIT,
    STOP,
    VALUES,
    CARD_NAMES,
    full_deck,
    is_distance,
    is_hazard,
    is_repair,
    is_safety,
    opposite,
    safety_for,
    safety_index,
)

HUMAN = 0
COMPUTER = 1

# Scores, as BSD's.
SC_SAFETY = 100
SC_ALL_SAFE = 300
SC_COUP = 300
SC_TRIP = 400
SC_SAFE = 300
SC_DELAY = 300
SC_EXTENSION = 200
SC_SHUT_OUT = 500
GAME_POINTS = 5000
FIRST_END = 700
EXTENDED_END = 1000


class IllegalMove(ValueError):
    """A move the rules refuse; ``str()`` is BSD's exact message."""


class Phase(enum.Enum):
    PLAYING = "playing"
    EXTENSION = "extension"  # ``extender`` must answer "Extension?"
    HAND_OVER = "hand over"


class _Record:
    """Equality and repr from ``__slots__`` (no dataclasses: it slows start-up)."""

    __slots__: tuple[str, ...] = ()
    _fields: tuple[str, ...] = ()

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        cls._fields = tuple(
            name for klass in reversed(cls.__mro__) for name in vars(klass).get("__slots__", ())
        )

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({fields})"


class _Frozen(_Record):
    """A small immutable value object."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __hash__(self) -> int:
        return hash((type(self).__name__,) + self._values())


class Pick(_Frozen):
    """Draw the top of the deck into slot P (BSD's P command)."""

    __slots__ = ()

    def __str__(self) -> str:
        return "P"


class _SlotMove(_Frozen):
    __slots__ = ("slot",)
    slot: int
    letter = ""

    def __init__(self, slot: int) -> None:
        if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < HAND_SLOTS:
            raise ValueError(f"slot out of range: {slot!r}")
        object.__setattr__(self, "slot", slot)

    def __str__(self) -> str:
        return f"{self.letter}{'P' if self.slot == 0 else self.slot}"


class Use(_SlotMove):
    """Play the card in a slot (0 = P, 1-6).

    >>> Use(0), str(Use(3))
    (Use(slot=0), 'U3')
    """

    __slots__ = ()
    letter = "U"


class Discard(_SlotMove):
    """Discard the card in a slot (0 = P, 1-6)."""

    __slots__ = ()
    letter = "D"


Move = Pick | Use | Discard
PICK = Pick()
USES = tuple(Use(slot) for slot in range(HAND_SLOTS))
DISCARDS = tuple(Discard(slot) for slot in range(HAND_SLOTS))


class MoveResult(_Frozen):
    """What a successful move did, for the UI and for observers.

    ``card`` is the card used or discarded (``NO_CARD`` for a pick);
    ``drawn`` the cards a pick took from the deck, in order.
    """

    __slots__ = ("player", "move", "card", "drawn", "coup_fourre", "extra_turn")
    player: int
    move: Move
    card: int
    drawn: tuple[int, ...]
    coup_fourre: bool
    extra_turn: bool

    def __init__(self, player: int, move: Move, card: int = NO_CARD,
                 drawn: tuple[int, ...] = (), coup_fourre: bool = False,
                 extra_turn: bool = False) -> None:
        for name, value in (("player", player), ("move", move), ("card", card),
                            ("drawn", drawn), ("coup_fourre", coup_fourre),
                            ("extra_turn", extra_turn)):
            object.__setattr__(self, name, value)


class HandScore(_Frozen):
    """One player's score for a hand, row by row as the full window shows."""

    __slots__ = ("miles", "safeties", "all_four", "coups", "trip", "safe_trip",
                 "delayed_action", "extension", "shut_out")
    miles: int
    safeties: int
    all_four: int
    coups: int
    trip: int
    safe_trip: int
    delayed_action: int
    extension: int
    shut_out: int

    def __init__(self, miles: int = 0, safeties: int = 0, all_four: int = 0,
                 coups: int = 0, trip: int = 0, safe_trip: int = 0,
                 delayed_action: int = 0, extension: int = 0, shut_out: int = 0) -> None:
        for name, value in zip(self.__slots__, (miles, safeties, all_four, coups, trip,
                                                 safe_trip, delayed_action, extension,
                                                 shut_out)):
            object.__setattr__(self, name, value)

    @property
    def total(self) -> int:
        return sum(self._values())  # type: ignore[arg-type]


class PlayerState(_Record):
    """One side of the table."""

    __slots__ = ("hand", "battle", "speed", "battle_pile", "speed_pile", "miles",
                 "safeties", "coups", "can_go", "battle_window", "speed_window",
                 "mileage", "nummiles", "total_before_hand", "games")

    def __init__(
        self,
        hand: list[int] | None = None,
        battle: int = NO_CARD,  # the top the board shows
        speed: int = NO_CARD,
        battle_pile: list[int] | None = None,
        speed_pile: list[int] | None = None,
        miles: list[int] | None = None,  # distance cards, in play order
        safeties: list[int] | None = None,  # in play order
        coups: list[bool] | None = None,
        can_go: bool = False,
        battle_window: bool = False,  # coup-fourre window for a hazard (BSD new_battle)
        speed_window: bool = False,  # ... and for a Speed Limit (BSD new_speed)
        mileage: int = 0,
        nummiles: list[int] | None = None,  # how many of each distance were played
        total_before_hand: int = 0,  # overall total when this hand began
        games: int = 0,
    ) -> None:
        self.hand = hand if hand is not None else [NO_CARD] * HAND_SLOTS
        self.battle = battle
        self.speed = speed
        self.battle_pile = battle_pile if battle_pile is not None else []
        self.speed_pile = speed_pile if speed_pile is not None else []
        self.miles = miles if miles is not None else []
        self.safeties = safeties if safeties is not None else []
        self.coups = coups if coups is not None else [False] * NUM_SAFETIES
        self.can_go = can_go
        self.battle_window = battle_window
        self.speed_window = speed_window
        self.mileage = mileage
        self.nummiles = nummiles if nummiles is not None else [0] * 5
        self.total_before_hand = total_before_hand
        self.games = games

    def has_safety(self, safety: int) -> bool:
        return safety in self.safeties

    def cards(self) -> Iterator[int]:
        """Every card this player holds or has on the table."""
        yield from (c for c in self.hand if c != NO_CARD)
        yield from self.battle_pile
        yield from self.speed_pile
        yield from self.miles
        yield from self.safeties

    def copy(self) -> PlayerState:
        return PlayerState(
            hand=self.hand[:], battle=self.battle, speed=self.speed,
            battle_pile=self.battle_pile[:], speed_pile=self.speed_pile[:],
            miles=self.miles[:], safeties=self.safeties[:], coups=self.coups[:],
            can_go=self.can_go, battle_window=self.battle_window,
            speed_window=self.speed_window, mileage=self.mileage,
            nummiles=self.nummiles[:], total_before_hand=self.total_before_hand,
            games=self.games,
        )


def can_play(me: PlayerState, opp: PlayerState, card: int, end: int) -> bool:
    """BSD comp.c's ``canplay``: could ``me`` usefully play ``card`` now?

    Used for the deck-empty end of a hand.  It is stricter than the rules
    in places (a Speed Limit that cannot stop the opponent finishing).
    """
    if is_distance(card):
        if card == D200 and me.nummiles[D200] == 2:
            return False
        if card >= 2 and me.speed == SPEED_LIMIT:  # 75, 100, 200
            return False
        if card >= 1 and me.mileage + VALUES[card] > end:
            return False
        return me.can_go
    if is_hazard(card):
        if card == SPEED_LIMIT:
            return (
                opp.speed != SPEED_LIMIT
                and not opp.has_safety(RIGHT_OF_WAY)
                and opp.mileage + 50 < end
            )
        return opp.can_go and not opp.has_safety(safety_for(card))
    if is_repair(card):
        return me.battle == opposite(card)
    if card == GO:
        # BSD's is_repair() is also true of an empty battle pile
        return not me.can_go and (
            is_repair(me.battle) or me.battle in (STOP, NO_CARD)
        )
    if card == END_OF_LIMIT:
        return me.speed == SPEED_LIMIT
    return False


def _close_holes(hand: list[int]) -> None:
    """BSD's tidy after a move: each hole in slots 1-6 takes the first card
    found from slot P onwards, so the holes gather in the first slots."""
    for i in range(1, HAND_SLOTS):
        if hand[i] == NO_CARD:
            j = next((k for k in range(HAND_SLOTS) if hand[k] != NO_CARD), 0)
            hand[i], hand[j] = hand[j], NO_CARD


class GameState(_Record):
    """A whole run of games: the current hand plus overall scores."""

    __slots__ = ("players", "deck", "discard", "end", "to_move", "starter", "phase",
                 "extender", "ordering")

    def __init__(
        self,
        players: tuple[PlayerState, PlayerState],
        deck: list[int],  # the top of the deck is the end of the list
        discard: list[int] | None = None,  # top is the end
        end: int = FIRST_END,
        to_move: int = HUMAN,
        starter: int = HUMAN,  # who moved first this hand
        phase: Phase = Phase.PLAYING,
        extender: int | None = None,  # who must decide on an extension
        ordering: bool = False,  # keep the human's hand sorted (the O command)
    ) -> None:
        self.players = players
        self.deck = deck
        self.discard = discard if discard is not None else []
        self.end = end
        self.to_move = to_move
        self.starter = starter
        self.phase = phase
        self.extender = extender
        self.ordering = ordering

    # ----- construction --------------------------------------------------

    @classmethod
    def new_game(cls, rng: random.Random, *, ordering: bool = False) -> GameState:
        """Shuffle and deal the first hand; the human moves first."""
        state = cls(players=(PlayerState(), PlayerState()), deck=[], ordering=ordering)
        state._deal(rng, HUMAN)
        return state

    def _deal(self, rng: random.Random, starter: int) -> None:
        deck = full_deck()
        rng.shuffle(deck)
        for p in self.players:
            p.hand = [NO_CARD] + [deck.pop() for _ in range(HAND_SLOTS - 1)]
            p.battle = p.speed = NO_CARD
            p.battle_pile, p.speed_pile, p.miles, p.safeties = [], [], [], []
            p.coups = [False] * NUM_SAFETIES
            p.can_go = p.battle_window = p.speed_window = False
            p.mileage = 0
            p.nummiles = [0] * 5
        self.deck = deck
        self.discard = []
        self.end = FIRST_END
        self.starter = self.to_move = starter
        self.phase = Phase.PLAYING
        self.extender = None
        if self.ordering:
            self.players[HUMAN].hand.sort()

    def new_hand(self, rng: random.Random) -> None:
        """Bank this hand's scores and deal the next hand.

        The other player starts.  If the hand just ended a game (a total of
        5000 or more), the higher total wins it and both totals restart.
        """
        if self.phase is not Phase.HAND_OVER:
            raise ValueError("the hand is not over")
        totals = [self.total(0), self.total(1)]
        if self.game_over:
            if totals[0] != totals[1]:
                self.players[0 if totals[0] > totals[1] else 1].games += 1
            totals = [0, 0]
        for p, total in zip(self.players, totals):
            p.total_before_hand = total
        self._deal(rng, 1 - self.starter)

    def copy(self) -> GameState:
        return GameState(
            players=(self.players[0].copy(), self.players[1].copy()),
            deck=self.deck[:], discard=self.discard[:], end=self.end,
            to_move=self.to_move, starter=self.starter, phase=self.phase,
            extender=self.extender, ordering=self.ordering,
        )

    # ----- queries --------------------------------------------------------

    @property
    def hand_over(self) -> bool:
        return self.phase is Phase.HAND_OVER

    @property
    def game_over(self) -> bool:
        """The hand is over and somebody's overall total reached 5000."""
        return self.hand_over and max(self.total(0), self.total(1)) >= GAME_POINTS

    def all_cards(self) -> Counter[int]:
        """Every card in the game, wherever it is (always the 101-card deck)."""
        from collections import Counter

        counts: Counter[int] = Counter(self.deck)
        counts.update(self.discard)
        for p in self.players:
            counts.update(p.cards())
        return counts

    def has_picked(self, player: int, slot: int = 0) -> bool:
        """BSD's ``haspicked`` for a move naming ``slot``."""
        if not self.deck:
            return True
        hand = self.players[player].hand
        return hand[1 if is_safety(hand[slot]) else 0] != NO_CARD

    def hand_score(self, player: int) -> HandScore:
        """This hand's score so far; trip bonuses once the hand is over."""
        me = self.players[player]
        nsafe = len(me.safeties)
        bonus: dict[str, int] = {}
        if self.phase is Phase.HAND_OVER and me.mileage == self.end:
            bonus["trip"] = SC_TRIP
            if me.nummiles[D200] == 0:
                bonus["safe_trip"] = SC_SAFE
            if not self.deck:
                bonus["delayed_action"] = SC_DELAY
            if self.end == EXTENDED_END:
                bonus["extension"] = SC_EXTENSION
            if self.players[1 - player].mileage == 0:
                bonus["shut_out"] = SC_SHUT_OUT
        return HandScore(
            miles=me.mileage,
            safeties=SC_SAFETY * nsafe,
            all_four=SC_ALL_SAFE if nsafe == NUM_SAFETIES else 0,
            coups=SC_COUP * sum(me.coups),
            **bonus,
        )

    def total(self, player: int) -> int:
        """Overall total: earlier hands of this game plus this hand."""
        return self.players[player].total_before_hand + self.hand_score(player).total

    # ----- legality -------------------------------------------------------

    def check(self, move: Move) -> str | None:
        """None if the player to move may make ``move``, else BSD's message."""
        if self.phase is not Phase.PLAYING:
            return ("the hand is over" if self.phase is Phase.HAND_OVER
                    else "extension decision pending")
        player = self.to_move
        me = self.players[player]
        if isinstance(move, Pick):
            if not self.deck:
                return "no more cards"
            if me.hand[0] != NO_CARD:
                return "already picked"
            return None
        card = me.hand[move.slot]
        if isinstance(move, Discard):
            if not self.has_picked(player, move.slot):
                return "must pick first"
            if card == NO_CARD:
                return "no card there"
            if is_safety(card):
                return "discard a safety?"
            return None
        return self._check_use(player, card)

    def _check_use(self, player: int, card: int) -> str | None:
        me = self.players[player]
        opp = self.players[1 - player]
        if is_safety(card):
            if not self._is_coup(me, card) and me.hand[0] == NO_CARD and self.deck:
                return "must pick first"
            return None
        if me.hand[0] == NO_CARD and self.deck:
            return "must pick first"
        if card == NO_CARD:
            return "no card there"
        if is_distance(card):
            if card == D200 and me.nummiles[D200] == 2:
                return "only two 200's per hand"
            if card >= 2 and me.speed == SPEED_LIMIT:
                return "limit of 50"
            if card >= 1 and me.mileage + VALUES[card] > self.end:
                return f"puts you over {self.end}"
            if not me.can_go:
                return "cannot move now"
            return None
        if is_repair(card):
            if me.battle != opposite(card):
                return f'can\'t play "{CARD_NAMES[card]}"'
            return None
        if card == GO:
            if me.battle != NO_CARD and me.battle != STOP and not is_repair(me.battle):
                return f'cannot play "Go" on a "{CARD_NAMES[me.battle]}"'
            if me.has_safety(RIGHT_OF_WAY):
                return '"Go" implied by "Right of Way"'
            return None
        if card == END_OF_LIMIT:
            return None if me.speed == SPEED_LIMIT else "not limited"
        if card == SPEED_LIMIT:
            if opp.speed == SPEED_LIMIT:
                return "opponent has limit"
            if opp.has_safety(RIGHT_OF_WAY):
                return "opponent is protected"
            return None
        # Out of Gas, Flat Tire, Accident, Stop
        if not opp.can_go:
            return "opponent cannot go"
        if opp.has_safety(safety_for(card)):
            return "opponent is protected"
        return None

    @staticmethod
    def _is_coup(me: PlayerState, safety: int) -> bool:
        return (me.battle_window and me.battle == opposite(safety)) or (
            me.speed_window and safety == RIGHT_OF_WAY
        )

    def is_legal(self, move: Move) -> bool:
        return self.check(move) is None

    def legal_moves(self) -> list[Move]:
        """Every move the player to move may make now."""
        if self.phase is not Phase.PLAYING:
            return []
        moves: list[Move] = [PICK] if self.check(PICK) is None else []
        for slot in range(HAND_SLOTS):
            if self.check(USES[slot]) is None:
                moves.append(USES[slot])
            if self.check(DISCARDS[slot]) is None:
                moves.append(DISCARDS[slot])
        return moves

    # ----- moves ----------------------------------------------------------

    def apply(self, move: Move) -> MoveResult:
        """Make a move for the player to move; ``IllegalMove`` if refused."""
        message = self.check(move)
        if message is not None:
            raise IllegalMove(message)
        return self.apply_unchecked(move)

    def apply_unchecked(self, move: Move) -> MoveResult:
        """Make a move already known to be legal (``check`` returned None)."""
        player = self.to_move
        me = self.players[player]
        if isinstance(move, Pick):
            drawn = [self.deck.pop()]
            me.hand[0] = drawn[0]
            if me.hand[1] == NO_CARD and self.deck:
                drawn.append(self.deck.pop())
                me.hand[1] = drawn[1]
            me.battle_window = me.speed_window = False
            # BSD never sorts after a pick, but closes holes as after every
            # move: a double draw cut short by the empty deck leaves its
            # one card in slot 1, not in P.
            _close_holes(me.hand)
            self._after_move()
            return MoveResult(player, move, drawn=tuple(drawn))

        card = me.hand[move.slot]
        me.hand[move.slot] = NO_CARD
        coup = extra = False
        if isinstance(move, Discard):
            self.discard.append(card)
        else:
            coup, extra = self._play(player, card)
        self._tidy_hand(player)
        if not extra:
            self.to_move = 1 - player
        if self.phase is Phase.PLAYING:
            self._after_move()
        return MoveResult(player, move, card=card, coup_fourre=coup, extra_turn=extra)

    def _play(self, player: int, card: int) -> tuple[bool, bool]:
        """Effects of playing ``card``; returns (coup fourre, extra turn)."""
        me = self.players[player]
        opp = self.players[1 - player]
        if is_distance(card):
            me.miles.append(card)
            me.nummiles[card] += 1
            me.mileage += VALUES[card]
            if me.mileage == self.end:
                if self.end == FIRST_END:
                    self.phase = Phase.EXTENSION
                    self.extender = player
                else:
                    self.phase = Phase.HAND_OVER
        elif is_repair(card):
            me.battle_pile.append(card)
            me.battle = card
            if me.has_safety(RIGHT_OF_WAY):
                me.can_go = True
        elif card == GO:
            me.battle_pile.append(card)
            me.battle = GO
            me.can_go = True
        elif card == END_OF_LIMIT:
            me.speed_pile.append(card)
            me.speed = END_OF_LIMIT
        elif card == SPEED_LIMIT:
            opp.speed_pile.append(card)
            opp.speed = SPEED_LIMIT
            opp.speed_window = True
        elif is_hazard(card):
            opp.battle_pile.append(card)
            opp.battle = card
            opp.battle_window = True
            opp.can_go = False
        else:
            return self._play_safety(me, card), True
        return False, False

    def _play_safety(self, me: PlayerState, card: int) -> bool:
        coup = self._is_coup(me, card)
        if coup:
            me.coups[safety_index(card)] = True
        me.safeties.append(card)
        if me.battle == opposite(card):
            me.battle = GO
            me.can_go = True
        if card == RIGHT_OF_WAY:
            if me.speed == SPEED_LIMIT:
                me.speed = NO_CARD
            if me.battle in (STOP, NO_CARD) or (not me.can_go and is_repair(me.battle)):
                me.battle = GO
                me.can_go = True
        return coup

    def _tidy_hand(self, player: int) -> None:
        """Close the hole a use or discard left, as BSD does.

        The human's hand is sorted if ordering is on, else its holes are
        closed (``_close_holes``).
        """
        hand = self.players[player].hand
        if self.ordering and player == HUMAN:
            hand.sort()
        else:
            _close_holes(hand)

    def set_ordering(self, on: bool) -> None:
        """The O command: keep the human's hand in card order (sorts now)."""
        self.ordering = on
        if on:
            self.players[HUMAN].hand.sort()

    def _after_move(self) -> None:
        """Deck-empty end of hand: nobody can play, or the mover has no cards."""
        if self.deck:
            return
        if not any(self._could_play(p) for p in (0, 1)):
            self.phase = Phase.HAND_OVER
        elif all(c == NO_CARD for c in self.players[self.to_move].hand):
            self.phase = Phase.HAND_OVER

    def _could_play(self, player: int) -> bool:
        me, opp = self.players[player], self.players[1 - player]
        return any(
            c != NO_CARD and (is_safety(c) or can_play(me, opp, c, self.end))
            for c in me.hand
        )

    def decide_extension(self, extend: bool) -> None:
        """Answer ``Extension?`` for ``self.extender`` (exactly 700 reached)."""
        if self.phase is not Phase.EXTENSION:
            raise ValueError("no extension decision pending")
        self.extender = None
        if extend:
            self.end = EXTENDED_END
            self.phase = Phase.PLAYING
            self._after_move()
        else:
            self.phase = Phase.HAND_OVER

    # ----- consistency ----------------------------------------------------

    def validate(self) -> None:
        """Raise ValueError with a precise message if the state is impossible."""
        from collections import Counter

        counts = self.all_cards()
        if counts != Counter(full_deck()):
            raise ValueError("cards are not the 101-card deck")
        if sum(counts.values()) != DECK_SIZE:
            raise ValueError("cards are not the 101-card deck")
        if self.end not in (FIRST_END, EXTENDED_END):
            raise ValueError(f"end must be 700 or 1000, not {self.end}")
        for n, p in enumerate(self.players):
            if len(p.hand) != HAND_SLOTS:
                raise ValueError(f"player {n}: a hand has {HAND_SLOTS} slots")
            if any(not is_distance(c) for c in p.miles):
                raise ValueError(f"player {n}: only distances go on the mileage pile")
            if p.mileage != sum(VALUES[c] for c in p.miles):
                raise ValueError(f"player {n}: mileage does not match the mileage pile")
            if p.mileage > self.end:
                raise ValueError(f"player {n}: mileage over {self.end}")
            if p.nummiles != [p.miles.count(c) for c in range(5)]:
                raise ValueError(f"player {n}: distance counts do not match the pile")
            if p.nummiles[D200] > 2:
                raise ValueError(f"player {n}: more than two 200s")
            if any(not is_safety(c) for c in p.safeties):
                raise ValueError(f"player {n}: only safeties go in the safety area")
            if len(set(p.safeties)) != len(p.safeties):
                raise ValueError(f"player {n}: a safety played twice")
            for i, coup in enumerate(p.coups):
                if coup and (15 + i) not in p.safeties:
                    raise ValueError(f"player {n}: a coup fourre for an unplayed safety")
            if any(is_distance(c) or is_safety(c) or c in (SPEED_LIMIT, END_OF_LIMIT)
                   for c in p.battle_pile):
                raise ValueError(f"player {n}: a card that cannot be on a battle pile")
            if any(c not in (SPEED_LIMIT, END_OF_LIMIT) for c in p.speed_pile):
                raise ValueError(f"player {n}: a card that cannot be on a speed pile")
            if p.battle != NO_CARD and p.battle not in p.battle_pile and p.battle != GO:
                raise ValueError(f"player {n}: battle top was never played")
            if p.speed not in (NO_CARD, SPEED_LIMIT, END_OF_LIMIT) or (
                p.speed != NO_CARD and p.speed not in p.speed_pile
            ):
                raise ValueError(f"player {n}: impossible speed top")
        if self.phase is Phase.EXTENSION:
            if self.extender not in (0, 1) or self.players[self.extender].mileage != FIRST_END:
                raise ValueError("an extension decision for a player not at 700")
        elif self.extender is not None:
            raise ValueError("an extender outside the extension phase")
