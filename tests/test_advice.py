"""The hint's line of why (mille.players.advice.reason), card by card."""

from __future__ import annotations

from test_table_milebymile import build

from mille.engine.cards import EXTRA_TANK, FALSE_VIRTUE, RIGHT_OF_WAY, is_safety
from mille.engine.table import Use
from mille.engine.view import SeatView
from mille.players.advice import label, reason


def test_false_virtue_is_not_a_safety() -> None:
    assert [c for c in range(FALSE_VIRTUE + 1) if is_safety(c)] == list(
        range(EXTRA_TANK, RIGHT_OF_WAY + 1)
    )


def test_a_false_virtue_hint_tells_of_karma_not_of_safety() -> None:
    t = build(3, picked={0: FALSE_VIRTUE}, karma=True, sides={1: {"karma": False}})
    move = Use(0)
    assert t.check(move) is None
    assert label(SeatView(t, 0), move) == "UP False Virtue"
    assert reason(SeatView(t, 0), move) == "gets your karma back"


def test_a_safety_hint_tells_of_the_extra_turn() -> None:
    t = build(3, picked={0: RIGHT_OF_WAY}, karma=True)
    assert reason(SeatView(t, 0), Use(0)) == "safe for good, another turn"
