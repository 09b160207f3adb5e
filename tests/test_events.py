"""A logged move checked by the engine (mille.engine.validation.check_event):
every move the engine makes passes, and each impossible one is refused with
its message (a save file shows it after the event's place, word for word
in tests/test_savefile.py)."""

from __future__ import annotations

import pytest

from mille.engine.cards import ACCIDENT, D50, EXTRA_TANK, NO_CARD, STOP
from mille.engine.rules import BSD, Rules, find_rules
from mille.engine.table import (
    COUP,
    EXTENSION,
    NO,
    OVER,
    PICK,
    PLAYING,
    YES,
    Discard,
    Event,
    Outcome,
    Use,
)
from mille.engine.validation import EventError, check_event
from mille.game.session import Session

KARMA = find_rules("milebymile", players=4, karma=True, reshuffle=True)


@pytest.mark.parametrize(
    "rules",
    [BSD, find_rules("classic", players=4), KARMA, find_rules("milebymile", players=6)],
    ids=lambda r: f"{r.name}{r.players}",
)
def test_every_move_made_passes(rules: Rules) -> None:
    checked = 0
    notices: set[str] = set()
    for seed in range(3):
        session = Session.new(rules, seed=seed, humans=())
        for _ in range(3):
            while session.table.phase != OVER:
                session.computer_move()
            for event in session.log:
                check_event(event, rules)
                notices.update(event.notices)
            checked += len(session.log)
            if session.table.game_over:
                break
            session.next_hand()
    assert checked > 500
    if rules is KARMA:
        assert "discard pile reshuffled" in notices and len(notices) > 1


REFUSED = [
    ("a pick that plays a card", Event(Outcome(0, PICK, D50, (D50,))), BSD),
    ("a pick of no card", Event(Outcome(0, PICK)), BSD),
    ("a discard that draws", Event(Outcome(0, Discard(3), D50, (D50,))), BSD),
    ("a discard of no card", Event(Outcome(0, Discard(3))), BSD),
    ("an answer while playing", Event(Outcome(0, YES)), BSD),
    ("a move at a question", Event(Outcome(0, Discard(3), D50), phase=EXTENSION), BSD),
    ("an answer that draws", Event(Outcome(0, NO, drawn=(D50,)), phase=EXTENSION), BSD),
    ("a no that plays", Event(Outcome(0, NO, EXTRA_TANK, (), True), phase=COUP), BSD),
    ("a yes that plays a hazard", Event(Outcome(0, YES, STOP, (), True), phase=COUP), BSD),
    ("a card without a coup", Event(Outcome(0, YES, EXTRA_TANK), phase=COUP), BSD),
    ("another turn for a discard", Event(Outcome(0, Discard(3), D50, (), False, True)), BSD),
    ("a coup fourre discard", Event(Outcome(0, Discard(3), D50, (), True)), BSD),
    ("a safety without its turn", Event(Outcome(0, Use(3), EXTRA_TANK)), BSD),
    ("a hazard on its own side", Event(Outcome(1, Use(3, 2), ACCIDENT)), BSD),
    (
        "karma without the rule",
        Event(Outcome(0, PICK, NO_CARD, (D50,)), ("side 1 loses karma",)),
        BSD,
    ),
    (
        "a reshuffle without the rule",
        Event(Outcome(0, PICK, NO_CARD, (D50,)), ("discard pile reshuffled",)),
        BSD,
    ),
    (
        "a side past the sides",
        Event(Outcome(0, PICK, NO_CARD, (D50,)), ("side 5 regains karma",)),
        KARMA,
    ),
    (
        "the second notice",
        Event(Outcome(0, PICK, NO_CARD, (D50,)), ("discard pile reshuffled", "side 9 loses karma")),
        KARMA,
    ),
]
MESSAGES = [
    "a pick draws 1 or 2 cards and plays none",
    "a pick draws 1 or 2 cards and plays none",
    "D3 plays a card and draws none",
    "D3 plays a card and draws none",
    "an answer is made only to a question",
    "a question must be answered y or n, not D3",
    "only a pick draws cards",
    "only a yes to Coup Fourre? plays a card (its safety)",
    "only a yes to Coup Fourre? plays a card (its safety)",
    "only a yes to Coup Fourre? plays a card (its safety)",
    "only a safety gives another turn or a coup fourre",
    "only a safety gives another turn or a coup fourre",
    "only a safety gives another turn or a coup fourre",
    "a hazard on the mover's own side",
    "not a notice of these rules: 'side 1 loses karma'",
    "not a notice of these rules: 'discard pile reshuffled'",
    "not a notice of these rules: 'side 5 regains karma'",
    "not a notice of these rules: 'side 9 loses karma'",
]


@pytest.mark.parametrize(
    "event, rules, message",
    [(event, rules, message) for (_, event, rules), message in zip(REFUSED, MESSAGES)],
    ids=[name for name, _, _ in REFUSED],
)
def test_an_impossible_move_is_refused(event: Event, rules: Rules, message: str) -> None:
    with pytest.raises(EventError) as refused:
        check_event(event, rules)
    assert str(refused.value) == message
    notices = event.notices
    assert refused.value.notice == (len(notices) - 1 if notices else None)
    assert isinstance(refused.value, ValueError)


def test_the_phase_of_a_move_is_the_playing_one() -> None:
    assert Event(Outcome(0, PICK, NO_CARD, (D50,))).phase == PLAYING
    check_event(Event(Outcome(0, PICK, NO_CARD, (D50, D50))), BSD)
    check_event(Event(Outcome(0, Use(3), EXTRA_TANK, (), True, True)), BSD)
    check_event(Event(Outcome(0, YES, EXTRA_TANK, (), True), phase=COUP), KARMA)
