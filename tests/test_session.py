"""The Session: what the UI drives and a save file holds."""

from __future__ import annotations

import random

from builders import build, player
from mille.engine import COMPUTER, HUMAN, IllegalMove, Phase, PICK, Use
from mille.session import Session

import pytest


def test_same_seed_same_game() -> None:
    a, b = Session.new(42), Session.new(42)
    assert a.state == b.state
    assert a.deal_rng.getstate() == b.deal_rng.getstate()
    assert Session.new(43).state != a.state


def test_unseeded_games_differ() -> None:
    assert Session.new().state != Session.new().state


def test_play_refuses_illegal_moves() -> None:
    s = Session.new(1)
    with pytest.raises(IllegalMove, match="must pick first"):
        s.play(Use(1))


def play_through(s: Session, rng: random.Random) -> None:
    while not s.state.hand_over:
        st = s.state
        if st.phase is Phase.EXTENSION:
            assert st.extender == HUMAN  # the computer's is decided inside play()
            st.decide_extension(rng.random() < 0.5)
        elif s.computer_to_move:
            s.computer_move()
        else:
            s.play(rng.choice(st.legal_moves()))


def test_hands_alternate_and_the_computer_decides_its_own_extension() -> None:
    s = Session.new(7)
    rng = random.Random(7)
    starters = []
    for _ in range(6):
        starters.append(s.state.starter)
        play_through(s, rng)
        s.next_hand()
    assert starters == [HUMAN, COMPUTER] * 3


def test_computer_reaching_700_gets_an_answer_at_once() -> None:
    s = Session.new(1)
    s.state = build(player(["Stop", "25", "Go"], battle="Go", miles=["100"] * 6 + ["75"]),
                    player(["", "25", "50"], battle="Go"), to_move=COMPUTER)
    s.play(Use(1))
    assert s.state.phase is not Phase.EXTENSION
    assert s.state.hand_over or s.state.end == 1000
    assert s.state.check(PICK) in (None, "the hand is over")
