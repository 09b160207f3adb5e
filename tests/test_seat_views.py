"""Non-interference: for every seat at every step of seeded games (every
preset, 2-9 seats, people and computers mixed), the seat's view and its
event stream are the same when the cards hidden from it are shuffled
(and a ``Coup Fourre?`` put to another seat is put, or not, as the
shuffled cards say)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from mille.engine.rules import find_rules
from mille.engine.table import COUP, OVER, PICK, Answer, Event, Outcome, Pick
from mille.engine.view import SeatView
from mille.game.session import Session
from support.hidden import shuffled_hidden

CASES = [
    ("bsd", 2, {}),
    ("classic", 2, {}),
    ("classic", 3, {}),
    ("classic", 4, {}),
    ("classic", 6, {}),
    ("milebymile", 2, {}),
    ("milebymile", 4, {"team_mode": "2v2"}),
    ("milebymile", 5, {"karma": True}),
    ("milebymile", 6, {"team_mode": "2v2v2", "stacking": True}),
    ("milebymile", 7, {"rigging": "2x attacks"}),
    ("milebymile", 8, {}),
    ("milebymile", 9, {"team_mode": "3v3v3", "always_discard": False}),
]


def snapshot(view: SeatView) -> tuple[Any, ...]:
    """Everything a view shows."""
    sides = range(1, view.rules.sides + 1)
    return (
        list(view.hand),
        [repr(tab) for tab in view.tableaux],
        list(view.discard),
        list(view.set_aside),
        view.deck_size,
        view.hand_sizes,
        view.target,
        view.to_move,
        view.starter,
        view.phase,
        view.asked,
        view.offer,
        view.extender,
        list(view.totals),
        list(view.games),
        view.ordering,
        view.refills,
        list(view.notices),
        view.current_player,
        view.hand_over,
        view.game_over,
        view.legal_moves(),
        view.to_decide(),
        [view.hand_score(side) for side in sides],
        view.unseen(),
        view.completing_side() if view.phase == OVER else None,
        [view.check(move) for move in (PICK, Answer(True))],
    )


def hidden_variant(log: list[Event], seat: int, rng: random.Random) -> list[Event]:
    """``log`` as it might have been, all ``seat`` cannot know changed:
    another seat's draws, and whether it was asked and let a coup go."""
    out = []
    for event in log:
        o = event.outcome
        if o.seat != seat and isinstance(o.move, Pick):
            drawn = tuple(rng.randrange(19) for _ in o.drawn)
            event = Event(
                Outcome(o.seat, o.move, o.card, drawn), event.notices, event.phase, event.mileage
            )
        elif (
            o.seat != seat
            and event.phase == COUP
            and isinstance(o.move, Answer)
            and not o.coup_fourre
        ):
            continue
        out.append(event)
    return out


def stream(view: SeatView, log: list[Event]) -> list[Event]:
    return [e for e in map(view.event, log) if e is not None]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}{c[1]}")
def test_a_seat_sees_nothing_of_the_cards_hidden_from_it(case: Any) -> None:
    name, players, options = case
    rules = find_rules(name, players=players, **options)
    rng = random.Random(players * 31 + len(options))
    people = tuple(seat for seat in range(players) if rng.random() < 0.5) or (0,)
    session = Session.new(rules, seed=players, humans=people)
    table = session.table
    steps = 0
    while table.phase != OVER and steps < 400:
        if session.computer_to_move:
            session.computer_move()
        else:
            legal = table.legal_moves()
            session.play(rng.choice(legal))  # people let coups go too
        steps += 1
        for seat in range(players):
            view = session.view(seat)
            other = SeatView(shuffled_hidden(table, seat, rng), seat)
            assert snapshot(other) == snapshot(view), (seat, steps)
            other.world().validate()
            assert stream(view, hidden_variant(session.log, seat, rng)) == session.events(seat)
    assert steps > 30
