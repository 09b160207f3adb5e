"""The one home of the JSON shapes (``mille.storage.shapes``): the save
files and the protocol write and read moves, cards and events alike, and
the joiner reads an event from the host with a save's checks."""

from __future__ import annotations

import pytest

from mille.engine.rules import find_rules
from mille.game.session import Session
from mille.net.follow import event_of
from mille.net.wire import ProtocolError, parse_move
from mille.storage.checks import SaveError
from mille.storage.shapes import event_to_dict, move_of, read_move

MOVES = ["P", "UP", "U1", "U6", "U3>2", "U6>9", "DP", "D1", "D6", "y", "n"]
NOT_MOVES = ["", "X", "U7", "D7", "U3>0", "U3>10", "p", "DP ", "P\n", "U", None, 3, ["P"]]


@pytest.mark.parametrize("text", MOVES)
def test_the_save_and_the_wire_read_a_move_alike(text: str) -> None:
    move = move_of(text)
    assert move is not None and str(move) == text
    assert parse_move(text) == move == read_move(text, "log[0].move")


@pytest.mark.parametrize("text", NOT_MOVES)
def test_the_save_and_the_wire_refuse_the_same_texts(text: object) -> None:
    assert move_of(text) is None
    with pytest.raises(ProtocolError, match="^bad-move: not a move: "):
        parse_move(text)
    with pytest.raises(SaveError, match=r"^log\[0\]\.move: expected a move \(P, U3"):
        read_move(text, "log[0].move")


def sent_event() -> dict[str, object]:
    """A seat's first event as the host sends it (its version first)."""
    session = Session.new(seed=1)
    session.play(move_of("P"))  # type: ignore[arg-type]
    return {"version": 1} | event_to_dict(session.events(1)[0])


def test_an_event_from_the_host_is_read_back() -> None:
    rules = find_rules("bsd")
    sent = sent_event()
    event = event_of(sent, rules)
    assert event is not None and {"version": 1} | event_to_dict(event) == sent
    assert event_of({"version": 9, "deal": True}, rules) is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"move": "X"}, "event.move: expected a move (P, U3, U4>2, DP, y, n), got 'X'"),
        ({"card": "Foo"}, "event.card: unknown card 'Foo'"),
        ({"seat": 5}, "event.seat: 5 is out of range 0..1"),
        (
            {"phase": "over"},
            "event.phase: expected one of 'playing', 'extension', 'coup', got 'over'",
        ),
        ({"extra": 1}, "event: unknown key 'extra'"),
    ],
)
def test_a_bad_event_from_the_host_is_one_line(change: dict[str, object], message: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        event_of(sent_event() | change, find_rules("bsd"))
    assert str(caught.value) == f"bad-message: bad event from the host: {message}"
