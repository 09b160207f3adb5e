"""The hint's line of why (mille.players.advice.reason), card by card."""

from __future__ import annotations

import random

import pytest
from test_table_milebymile import build

from mille.engine.cards import (
    D25,
    D50,
    D75,
    D100,
    EXTRA_TANK,
    FALSE_VIRTUE,
    GASOLINE,
    REPAIRS,
    RIGHT_OF_WAY,
    SPARE_TIRE,
    is_safety,
)
from mille.engine.rules import find_rules
from mille.engine.table import PICK, Discard, Move, Table, Use
from mille.engine.view import SeatView
from mille.players.advice import hint, label, reason
from mille.players.search import Choice, Sampler, Verdict

# a hint compared with another: the same on a loaded machine (conftest.py)
pytestmark = pytest.mark.usefixtures("unhurried_search")


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


def classic_at(mileage: int, hand: list[int]) -> Table:
    """classic, 3 players: you have picked, at ``mileage``, holding ``hand``."""
    t = Table.new(find_rules("classic", players=3), random.Random(9))
    t.apply(PICK)
    t.hands[0][:] = hand
    t.tableaux[0].mileage = mileage
    return t


def test_a_distance_past_the_target_is_discarded_for_that() -> None:
    """Issue 28: holding 100, 75, 50, 50 at 625 of an exact 700, the 100
    can never be played: the hint says so, not ``the card needed least``
    (a position met in a game: classic, 3 players, seed 9)."""
    t = classic_at(625, [D100, D75, D50, D75, D75, D50, D25])
    view = SeatView(t, 0)
    assert reason(view, Discard(0)) == "100 would pass 700"
    assert reason(view, Discard(2)) == "the card needed least"
    # (the expert's search leans to another move here, which the confident
    # analysis does not find clearly better)
    assert hint(view) == (
        "hint: DP 100 - 100 would pass 700; played out, no clear better move than DP 100"
    )


def overruled(monkeypatch: pytest.MonkeyPatch, better: bool, hands: float) -> list[object]:
    """The expert's search prefers DP 100 to the standard computer's D2 50;
    the confident analysis finds it ``better`` or not, by ``hands``.  The
    analyses asked for, with their arguments."""
    from mille.players import advice, expert

    def searched(*args: object) -> Choice:
        return Choice(Discard(0), 1, 1, standard=Discard(2))

    asked: list[object] = []

    def confirm(sampler: Sampler, standard: Move, rival: Move, rng: object) -> Verdict:
        asked.append((sampler.objective, standard, rival))
        return Verdict(standard, rival, better, 3.0 if better else 1.2, hands, 96)

    monkeypatch.setattr(expert, "search", searched)
    monkeypatch.setattr(advice, "confirm", confirm)
    return asked


def test_a_move_the_search_preferred_says_what_it_beat(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28: when the expert's playouts overrule the standard computer's
    discard, the hint names that, not the standard computer's reason;
    issue 35: only when a confident analysis finds it clearly better, and
    with what it is worth in hands won."""
    asked = overruled(monkeypatch, True, 0.063)
    t = classic_at(0, [D100, D75, D50, D50, REPAIRS, SPARE_TIRE, GASOLINE])
    assert hint(SeatView(t, 0)) == (
        "hint: DP 100 - played out, it beats the usual D2 50: about 6 more hands won in 100"
    )
    assert asked == [("hands", Discard(2), Discard(0))]


@pytest.mark.parametrize(
    ("hands", "worth"),
    [(0.012, "about 1 more hand won in 100"), (0.004, "under 1 more hand won in 100")],
)
def test_a_small_clear_gain_says_so(
    monkeypatch: pytest.MonkeyPatch, hands: float, worth: str
) -> None:
    overruled(monkeypatch, True, hands)
    t = classic_at(0, [D100, D75, D50, D50, REPAIRS, SPARE_TIRE, GASOLINE])
    assert hint(SeatView(t, 0)) == f"hint: DP 100 - played out, it beats the usual D2 50: {worth}"


def test_a_move_not_clearly_better_is_not_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: the search leaned to DP 100, the confident analysis did not
    find it clearly better: the hint names the standard computer's move,
    with its reason, and says that no clear better move was found."""
    overruled(monkeypatch, False, 0.01)
    t = classic_at(0, [D100, D75, D50, D50, REPAIRS, SPARE_TIRE, GASOLINE])
    assert hint(SeatView(t, 0)) == (
        "hint: D2 50 - the card needed least; played out, no clear better move than D2 50"
    )


def test_the_standard_move_kept_keeps_its_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    from mille.players import expert

    def searched(*args: object) -> Choice:
        return Choice(Discard(2), 1, 1, standard=Discard(2))

    monkeypatch.setattr(expert, "search", searched)
    t = classic_at(0, [D100, D75, D50, D50, REPAIRS, SPARE_TIRE, GASOLINE])
    assert hint(SeatView(t, 0)) == "hint: D2 50 - the card needed least"
