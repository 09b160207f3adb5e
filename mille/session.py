"""A game in progress: the rules state, the computer, the dice, the settings.

This is what the UI drives and what a save file holds.  It has no screen:
the UI asks it to make moves and draws what comes back.
"""

from __future__ import annotations

import random

from .computer import BsdComputer
from .engine import COMPUTER, GameState, Move, MoveResult, Phase


class Session:
    """The rules state plus the computer, the shuffler and the settings."""

    def __init__(
        self,
        state: GameState,
        computer: BsdComputer,
        deal_rng: random.Random,  # shuffles every new hand
        window_full: bool = False,  # the W setting: full score window
        source: str | None = None,  # the file this game was restored from
    ) -> None:
        self.state = state
        self.computer = computer
        self.deal_rng = deal_rng
        self.window_full = window_full
        self.source = source

    @classmethod
    def new(cls, seed: int | None = None) -> Session:
        """A new game; ``seed`` makes the deals and the computer reproducible."""
        master = random.Random(seed)
        deal_rng = random.Random(master.getrandbits(64))
        computer = BsdComputer(random.Random(master.getrandbits(64)))
        state = GameState.new_game(deal_rng)
        computer.start_hand(state)
        return cls(state=state, computer=computer, deal_rng=deal_rng)

    @property
    def computer_to_move(self) -> bool:
        return self.state.phase is Phase.PLAYING and self.state.to_move == COMPUTER

    def play(self, move: Move) -> MoveResult:
        """Make a move for whoever is to move; ``IllegalMove`` if refused.

        The computer sees the result (it remembers what it may see).  If the
        computer just reached exactly 700 it decides on the extension here.
        """
        result = self.state.apply(move)
        self.computer.observe(self.state, result)
        if self.state.phase is Phase.EXTENSION and self.state.extender == COMPUTER:
            self.state.decide_extension(self.computer.wants_extension(self.state, result))
        return result

    def computer_move(self) -> MoveResult:
        """Let the computer make one move (a pick, a use or a discard)."""
        return self.play(self.computer.choose(self.state))

    def next_hand(self) -> None:
        """Bank the finished hand and deal the next one."""
        self.state.new_hand(self.deal_rng)
        self.computer.start_hand(self.state)
