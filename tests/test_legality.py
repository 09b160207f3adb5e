"""Spec section 4: every refusal and its exact BSD message, in check order."""

from __future__ import annotations

from typing import Any

import pytest

from mille.engine.table import NO, OVER, PICK, YES, Answer, Discard, IllegalMove, Use
from support.builders import build, player

ROLLING: dict[str, Any] = dict(battle="Go")


def test_pick_with_empty_deck() -> None:
    s = build(player(["", "25"]), deck_size=0)
    assert s.check(PICK) == "no more cards"


def test_pick_twice() -> None:
    s = build(player(["Go", "25"]))
    assert s.check(PICK) == "already picked"


def test_empty_deck_message_comes_before_already_picked() -> None:
    s = build(player(["Go", "25"]), deck_size=0)
    assert s.check(PICK) == "no more cards"


@pytest.mark.parametrize("move", [Use(1), Discard(1), Use(2), Discard(2)])
def test_must_pick_first_for_non_safeties_and_empty_slots(move: Use | Discard) -> None:
    s = build(player(["", "25", ""], **ROLLING))
    assert s.check(move) == "must pick first"


def test_use_safety_without_coup_must_pick_first() -> None:
    s = build(player(["", "Extra Tank", "25"]))
    assert s.check(Use(1)) == "must pick first"


def test_discard_safety_before_pick_is_refused_as_a_safety() -> None:
    # BSD's haspicked looks at slot 1 for a safety, so this is not "must pick".
    s = build(player(["", "Extra Tank", "25"]))
    assert s.check(Discard(1)) == "discard a safety?"


def test_no_pick_needed_once_deck_is_empty() -> None:
    s = build(player(["", "25", "50"], **ROLLING), deck_size=0)
    assert s.check(Use(1)) is None
    assert s.check(Discard(2)) is None


@pytest.mark.parametrize("move", [Use(3), Discard(3)])
def test_no_card_there(move: Use | Discard) -> None:
    s = build(player(["Go", "25", "50"], **ROLLING))
    assert s.check(move) == "no card there"


def test_discard_a_safety() -> None:
    s = build(player(["Go", "Right of Way"]))
    assert s.check(Discard(1)) == "discard a safety?"


def test_only_two_200s() -> None:
    s = build(player(["200", "25"], battle="Go", miles=["200", "200"]))
    assert s.check(Use(0)) == "only two 200's per hand"


def test_two_200s_message_before_limit() -> None:
    s = build(player(["200"], battle="Go", speed="Speed Limit", miles=["200", "200"]))
    assert s.check(Use(0)) == "only two 200's per hand"


@pytest.mark.parametrize("name", ["75", "100", "200"])
def test_limit_of_50(name: str) -> None:
    s = build(player([name], battle="Go", speed="Speed Limit"))
    assert s.check(Use(0)) == "limit of 50"


@pytest.mark.parametrize("name", ["25", "50"])
def test_25_and_50_allowed_under_limit(name: str) -> None:
    s = build(player([name], battle="Go", speed="Speed Limit"))
    assert s.check(Use(0)) is None


def test_limit_message_before_over_end() -> None:
    s = build(
        player(["100"], battle="Go", speed="Speed Limit", miles=["200", "200", "100", "100", "75"])
    )
    assert s.check(Use(0)) == "limit of 50"


@pytest.mark.parametrize("name", ["50", "75", "100", "200"])
def test_puts_you_over_700(name: str) -> None:
    s = build(player([name], battle="Go", miles=["100"] * 6 + ["75"]))
    assert s.tableaux[0].mileage == 675
    assert s.check(Use(0)) == "puts you over 700"


def test_puts_you_over_1000() -> None:
    s = build(
        player(["100"], battle="Go", miles=["200", "200", "100", "100", "100", "100", "100", "75"]),
        target=1000,
    )
    assert s.check(Use(0)) == "puts you over 1000"


def test_over_end_message_before_cannot_move() -> None:
    s = build(player(["100"], battle="Stop", miles=["100"] * 6 + ["75"]))
    assert s.check(Use(0)) == "puts you over 700"


def test_25_has_no_over_check_only_cannot_move() -> None:
    s = build(player(["25"], battle="Stop"))
    assert s.check(Use(0)) == "cannot move now"


@pytest.mark.parametrize("battle", [None, "Stop", "Flat Tire", "Gasoline"])
def test_cannot_move_now(battle: str | None) -> None:
    s = build(player(["50"], battle=battle))
    assert s.check(Use(0)) == "cannot move now"


@pytest.mark.parametrize(
    "name,battle",
    [
        ("Gasoline", "Go"),
        ("Spare Tire", "Out of Gas"),
        ("Repairs", None),
        ("Gasoline", "Stop"),
    ],
)
def test_cant_play_remedy(name: str, battle: str | None) -> None:
    s = build(player([name], battle=battle))
    assert s.check(Use(0)) == f'can\'t play "{name}"'


@pytest.mark.parametrize("top", ["Flat Tire", "Go", "Accident", "Out of Gas"])
def test_cannot_play_go_on(top: str) -> None:
    s = build(player(["Go"], battle=top, can_go=top == "Go"))
    assert s.check(Use(0)) == f'cannot play "Go" on a "{top}"'


@pytest.mark.parametrize("top", [None, "Stop", "Gasoline", "Spare Tire", "Repairs"])
def test_go_allowed_on(top: str | None) -> None:
    s = build(player(["Go"], battle=top))
    assert s.check(Use(0)) is None


def test_go_implied_by_right_of_way() -> None:
    s = build(player(["Go"], battle="Stop", safeties=["Right of Way"], can_go=False))
    assert s.check(Use(0)) == '"Go" implied by "Right of Way"'


def test_go_on_hazard_message_before_right_of_way() -> None:
    s = build(player(["Go"], battle="Go", safeties=["Right of Way"], can_go=True))
    assert s.check(Use(0)) == 'cannot play "Go" on a "Go"'


def test_not_limited() -> None:
    s = build(player(["End of Limit"], **ROLLING))
    assert s.check(Use(0)) == "not limited"
    s = build(
        player(["End of Limit"], speed="End of Limit", speed_pile=["Speed Limit", "End of Limit"])
    )
    assert s.check(Use(0)) == "not limited"


@pytest.mark.parametrize("name", ["Out of Gas", "Flat Tire", "Accident", "Stop"])
def test_opponent_cannot_go(name: str) -> None:
    s = build(player([name]), player(battle="Stop"))
    assert s.check(Use(0)) == "opponent cannot go"


@pytest.mark.parametrize(
    "name,safety",
    [
        ("Out of Gas", "Extra Tank"),
        ("Flat Tire", "Puncture Proof"),
        ("Accident", "Driving Ace"),
        ("Stop", "Right of Way"),
    ],
)
def test_opponent_is_protected(name: str, safety: str) -> None:
    s = build(player([name]), player(battle="Go", safeties=[safety], can_go=True))
    assert s.check(Use(0)) == "opponent is protected"


def test_opponent_has_limit() -> None:
    s = build(player(["Speed Limit"]), player(battle="Go", speed="Speed Limit"))
    assert s.check(Use(0)) == "opponent has limit"


def test_speed_limit_on_right_of_way_is_protected() -> None:
    s = build(player(["Speed Limit"]), player(safeties=["Right of Way"], battle="Go"))
    assert s.check(Use(0)) == "opponent is protected"


def test_speed_limit_on_a_stopped_opponent_is_allowed() -> None:
    s = build(player(["Speed Limit"]), player(battle="Stop"))
    assert s.check(Use(0)) is None


def test_hazards_on_a_rolling_opponent_are_allowed() -> None:
    s = build(player(["Accident"]), player(battle="Go"))
    assert s.check(Use(0)) is None


def test_a_hazard_naming_a_side_is_checked_as_in_every_preset() -> None:
    """BSD's commands name no side; a move that names one (the engine's
    callers may) is checked as under the other presets, not redirected."""
    s = build(player(["Accident"]), player(battle="Go"))
    assert s.check(Use(0, 2)) is None
    assert s.check(Use(0, 1)) == "can't attack your own side"
    assert s.check(Use(0, 3)) == "no such opponent"


def test_apply_refuses_with_the_message_and_changes_nothing() -> None:
    s = build(player(["", "25"]))
    before = s.copy()
    with pytest.raises(IllegalMove, match="^must pick first$"):
        s.apply(Use(1))
    assert s == before


def test_no_moves_once_the_hand_is_over() -> None:
    s = build(player(["Go"]), phase=OVER)
    assert s.check(Use(0)) == "the hand is over"
    assert s.legal_moves() == []


def test_legal_moves_match_check() -> None:
    s = build(
        player(["", "25", "Go", "Stop", "Extra Tank", "Gasoline", "200"]), player(battle="Go")
    )
    assert s.legal_moves() == [PICK]
    s.apply(PICK)
    legal = s.legal_moves()
    assert Use(2) in legal and Use(3) in legal and Discard(1) in legal
    assert Use(1) not in legal and Discard(4) not in legal
    assert all(s.check(m) is None for m in legal)


def test_an_answer_needs_a_question() -> None:
    s = build(player(["Go", "25"], **ROLLING))
    assert s.check(YES) == "no question pending" and s.check(NO) == "no question pending"
    with pytest.raises(IllegalMove, match="^no question pending$"):
        s.apply(Answer(True))
    s = build(player(["Go"]), phase=OVER)
    assert s.check(YES) == "the hand is over"
