"""Whole games with two, three and four people at one keyboard in every
preset, driven by the one game flow; the same games replayed from a save
taken mid-hand; the hand-offs after a hazard, the same whoever holds the
safety (its Coup Fourre? called for them: nobody is asked)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_table_classic import build

from mille.engine.cards import FLAT_TIRE, GO, PUNCTURE_PROOF
from mille.engine.rules import find_rules
from mille.engine.table import COUP, OVER, Use
from mille.frontends import flow
from mille.game.session import Session
from mille.storage.savefile import dumps, loads
from support.scripted import Scripted

GAMES = [
    ("bsd", 2, (0, 1), {}),
    ("classic", 2, (0, 1), {}),
    ("classic", 3, (0, 1, 2), {}),
    ("classic", 4, (0, 2), {}),  # partners against two computers
    ("classic", 4, (0, 1, 2, 3), {}),
    ("milebymile", 3, (0, 1), {}),
    ("milebymile", 5, (1, 2, 4), {"karma": True}),
    ("milebymile", 6, (0, 1, 3, 5), {"team_mode": "2v2v2"}),
    ("milebymile", 4, (0, 1, 2, 3), {"team_mode": "2v2", "stacking": True}),
]


def new_game(name: str, players: int, people: tuple[int, ...], options: dict[str, Any]) -> Session:
    rules = find_rules(name, players=players, **options)
    names = {seat: f"P{seat}" for seat in people}
    return Session.new(rules, seed=players * 7 + len(people), humans=people, names=names)


def play_out(front: Scripted) -> None:
    flow.run(front)
    table = front.session.table
    assert table.phase == OVER and table.game_over
    table.validate()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g[0]}{g[1]}-{len(g[2])}people")
def test_a_whole_game_with_people(game: Any) -> None:
    session = new_game(*game)
    front = Scripted(session, random.Random(1))
    play_out(front)
    assert front.moves > 20
    if len(session.people) > 1:
        assert any(call.startswith("hand-off") for call in front.calls)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g[0]}{g[1]}-{len(g[2])}people")
def test_a_game_saved_mid_hand_plays_on_the_same(game: Any) -> None:
    """Play some moves, save, then finish both the game and its copy
    loaded from the save, the people's dice alike: the same ending."""
    session = new_game(*game)
    front = Scripted(session, random.Random(2))
    for _ in range(40):
        flow.step(front)
        if session.table.phase == OVER:
            break
    text = dumps(session)
    dice = front.rng.getstate()
    play_out(front)
    restored = loads(text)
    assert restored.people == session.people
    again = Scripted(restored, random.Random())
    again.rng.setstate(dice)
    play_out(again)
    assert restored.table.totals == session.table.totals
    assert restored.table.games == session.table.games
    assert dumps(restored) == dumps(session)


def _partners_hit(holder: int | None) -> Scripted:
    """classic 2v2, people at seats 0 and 2 (partners), computers at 1 and
    3: seat 1 puts a Flat Tire on team A; ``holder`` holds Puncture Proof."""
    hands = {} if holder is None else {holder: [PUNCTURE_PROOF]}
    t = build(4, hands=hands, picked={1: FLAT_TIRE}, sides={1: {"battle": [GO]}}, to_move=1)
    s = Session.new(find_rules("classic", players=4), seed=5, humans=(0, 2))
    s.table = t
    front = Scripted(s, random.Random(0))
    front.answer = "n"
    return front


@pytest.mark.parametrize("holder", [None, 0, 2])
def test_hand_offs_after_a_hazard_show_nobody_holding_the_safety(holder: int | None) -> None:
    front = _partners_hit(holder)
    front.seat = 2  # Bob had the keyboard last
    outcome = front.session.play(Use(0, 1))
    flow.after_hazard(front, outcome)
    asked = [call for call in front.calls if "question" in call or "Coup" in call]
    seen = [call for call in front.calls if call not in asked and "pause" not in call]
    # the same hand-offs, in the same order, whoever holds it (or nobody)
    assert seen == ["hand-off to 0"]
    # nobody is asked (two people: the coup fourre is called for the one
    # who holds the safety, Session.calls_coup); each looks, one key each
    assert asked == []
    for seat in (2, 0):
        assert [c for c in front.calls if c.startswith(f"{seat}: ")] == [f"{seat}: pause"]
    coups = [event.outcome.seat for event in front.session.log if event.outcome.coup_fourre]
    assert coups == ([] if holder is None else [holder])


def test_a_game_kept_at_a_persons_coup_fourre_calls_it_when_resumed() -> None:
    """A hot-seat game saved while a person was asked Coup Fourre? (before
    the session called it for them) plays on with it called, not asked."""
    front = _partners_hit(2)
    front.session._apply(Use(0, 1))  # the hazard alone: the question left pending
    assert front.session.table.phase == COUP
    restored = loads(dumps(front.session))
    again = Scripted(restored, random.Random(0))
    flow.step(again)
    assert not [call for call in again.calls if "Coup" in call]
    assert [e.outcome.seat for e in restored.log if e.outcome.coup_fourre] == [2]
    assert restored.table.current_player == 2  # the coup fourre's extra turn


def test_a_hot_seats_game_names_its_winner() -> None:
    """Issue 40, item 19: a hot seat's game ended ``You win the game
    with ...``, said to whoever held the keyboard; at one keyboard shared
    by several people the winner is named, in lines and on the row board."""
    from mille.engine import describe
    from mille.frontends.table_screen import log_lines

    session = Session.new(find_rules("classic", players=2), seed=4, humans=(0, 1))
    session.people = {0: "Ann", 1: "Bob"}
    rng = random.Random(4)
    while session.table.phase != OVER:
        session.play(rng.choice(session.table.legal_moves()))
    session.table.totals = [0, session.rules.winning_score + 200]
    won = f"Bob wins the game with {session.view(0).total(2)}."
    for seat in (0, 1):
        assert describe.game_result(session.view(seat), shared=True) == won
        assert log_lines(session, seat)[-1] == won
    assert str(describe.game_result(session.view(1))).startswith("You win the game")  # one
