"""``mille.net.seats``: what a seat is sent and how its moves are made."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mille.engine.moves import COUP, NO, PICK, YES, Discard, IllegalMove, Use
from mille.engine.rules import find_rules
from mille.game.session import Session
from mille.net.bot import choose
from mille.net.follow import table_of
from mille.net.seats import Feed
from mille.net.wire import ProtocolError, parse_move
from mille.storage.shapes import table_to_dict


def state(feed: Feed) -> Any:
    return json.dumps(table_to_dict(feed.session.table), sort_keys=True)


def test_a_refused_move_gets_the_engines_message_and_changes_nothing() -> None:
    feed = Feed(Session.new(seed=3, humans=(0, 1)))
    before = state(feed)
    with pytest.raises(IllegalMove, match="^must pick first$"):
        feed.play(0, 0, Use(1))
    with pytest.raises(IllegalMove, match="^not your turn$"):
        feed.play(1, 0, PICK)
    assert state(feed) == before
    assert (feed.version(0), feed.version(1)) == (0, 0)


def test_a_move_for_an_old_version_is_refused() -> None:
    feed = Feed(Session.new(seed=3, humans=(0, 1)))
    feed.play(0, 0, PICK)
    before = state(feed)
    with pytest.raises(ProtocolError) as refused:
        feed.play(0, 0, Discard(1))  # made against version 0: the pick came since
    assert str(refused.value) == "stale: the table changed: your move was not made"
    assert state(feed) == before
    feed.play(0, 1, Discard(1))


def test_the_seats_events_and_versions() -> None:
    feed = Feed(Session.new(seed=3, humans=(0, 1)))
    feed.play(0, 0, PICK)
    mine, theirs = feed.events_since(0, 0), feed.events_since(1, 0)
    assert mine is not None and theirs is not None
    assert mine[0]["drawn"] != [None] and theirs[0]["drawn"] == [None]
    assert feed.events_since(1, 1) == [] and feed.events_since(1, 5) is None


def game_until_a_computer_is_asked() -> Feed:
    """A classic game for four, people at seats 0 and 1, computers at 2
    and 3 whose questions wait for them (as when a worker process holds
    them: ``ops`` is a list), played until a computer is asked Coup
    Fourre? while its partner, a person, is the next to play."""
    for seed in range(80):
        session = Session.new(find_rules("classic", players=4), seed=seed, humans=(0, 1))
        feed = Feed(session)
        feed.ops = []
        for _ in range(300):
            table = session.table
            if table.hand_over:
                break
            if table.phase == COUP and table.asked in session.computers:
                if table.to_move in session.people:
                    return feed
                break
            seat = table.current_player
            assert seat is not None
            if seat in session.computers:
                feed.computer_plays(seat, feed.think(seat))
            else:
                legal = feed.snapshot(seat)["legal"]
                feed.play(seat, feed.version(seat), parse_move(choose(legal)))
    raise AssertionError("no coup fourre asked")


def test_another_seats_coup_fourre_question_is_not_shown() -> None:
    feed = game_until_a_computer_is_asked()
    table = feed.session.table
    asked = table.asked
    assert asked is not None
    others = [seat for seat in range(4) if seat != asked]
    seen = {seat: (feed.version(seat), feed.snapshot(seat)) for seat in others}
    assert feed.snapshot(asked)["phase"] == "coup"
    assert all(snapshot["phase"] == "playing" for _, snapshot in seen.values())
    assert all(snapshot["asked"] is None for _, snapshot in seen.values())
    # the seat to play may move now: its move waits for the answer
    mover = table.to_move
    legal = seen[mover][1]["legal"]
    assert legal
    played = feed.play(mover, feed.version(mover), parse_move(choose(legal)))
    assert played.changed == [] and table.phase == COUP
    feed.computer_plays(asked, NO)
    # declined: the others were shown nothing of it, then the waiting move
    for seat in others:
        events = feed.events_since(seat, seen[seat][0])
        assert events is not None and [e["seat"] for e in events] == [mover]
    assert table.phase != COUP


def test_a_move_waiting_for_a_coup_fourre_is_stale_after_it() -> None:
    feed = game_until_a_computer_is_asked()
    table = feed.session.table
    asked = table.asked
    assert asked is not None
    mover = table.to_move
    feed.play(mover, feed.version(mover), parse_move(choose(feed.snapshot(mover)["legal"])))
    played = feed.computer_plays(asked, YES)
    assert played.stale == [mover]
    assert table.current_player == asked  # the coup fourre's extra turn


def test_a_person_is_never_asked_coup_fourre_over_the_network() -> None:
    """Four people: every coup fourre is called for the one who holds the
    safety, and no seat's view ever shows the question."""
    coups = 0
    for seed in range(6):
        feed = Feed(Session.new(find_rules("classic", players=4), seed=seed, humans=(0, 1, 2, 3)))
        assert feed.session.calls_coup
        while not feed.session.table.hand_over:
            assert all(feed.snapshot(seat)["phase"] != "coup" for seat in range(4))
            seat = feed.session.table.current_player
            assert seat is not None
            legal = feed.snapshot(seat)["legal"]
            assert "n" not in legal
            feed.play(seat, feed.version(seat), parse_move(choose(legal)))
        coups += sum(1 for event in feed.session.log if event.outcome.coup_fourre)
    assert coups > 0


@pytest.mark.parametrize(
    ("preset", "players"), [("bsd", 2), ("classic", 4), ("classic", 6), ("milebymile", 9)]
)
def test_the_client_rebuilds_the_seats_view(preset: str, players: int) -> None:
    rules = find_rules(preset, players=players)
    feed = Feed(Session.new(rules, seed=2, humans=()))
    session = feed.session
    for _ in range(200):
        if session.table.hand_over:
            break
        seat = session.table.current_player
        assert seat is not None
        feed.computer_plays(seat, feed.think(seat))
        for viewer in range(players):
            sent = json.loads(json.dumps(feed.snapshot(viewer)))
            rebuilt = table_of(sent)
            assert rebuilt.hands[viewer] == session.table.hands[viewer]
            assert rebuilt.tableaux == session.table.tableaux
            assert rebuilt.discard == session.table.discard
            assert len(rebuilt.deck) == len(session.table.deck)


def test_a_hosted_game_resumed_from_a_save_calls_coup_fourre_too() -> None:
    """A host alone against computers, saved while asked Coup Fourre?
    (before the policy): loaded, one person, it would ask; hosted again
    (``Feed``), the question is called at once, and so is every later one."""
    from test_table_classic import build

    from mille.engine.cards import FLAT_TIRE, GO, PUNCTURE_PROOF
    from mille.storage.savefile import dumps, loads

    table = build(
        2,
        hands={0: [PUNCTURE_PROOF]},
        picked={1: FLAT_TIRE},
        sides={1: {"battle": [GO]}},
        to_move=1,
    )
    session = Session.new(find_rules("classic", players=2), seed=4)
    session.table = table
    session._apply(Use(0, 1))  # the computer's Flat Tire; the person asked
    loaded = loads(dumps(session))
    assert loaded.table.phase == COUP and not loaded.calls_coup  # alone: would be asked
    feed = Feed(loaded)
    assert loaded.calls_coup and loaded.table.phase != COUP
    assert [e.outcome.seat for e in loaded.log if e.outcome.coup_fourre] == [0]
    assert feed.snapshot(0)["phase"] == "playing"
