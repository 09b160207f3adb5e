"""``mille.game.protocol``: the game every front end plays, and the two
sources that satisfy it, the local game and the remote seat."""

from __future__ import annotations

from test_net_remote_session import StandIn

from mille.engine.rules import find_rules
from mille.frontends.remote.seat import RemoteSeat
from mille.game.protocol import Game, Talk
from mille.game.session import Session
from mille.game.talk import QUIET
from mille.net.seats import Feed

MEMBERS = [name for name in dir(Game) if not name.startswith("_")]


def remote_seat(host: bool = False) -> RemoteSeat:
    rules = find_rules("classic", players=3)
    feed = Feed(Session.new(rules, seed=3, humans=(0, 1, 2), names={0: "Hal", 1: "Ann"}))
    link = StandIn(feed, 1)
    welcome = {"type": "welcome", "seat": 1, "host": host, "token": "t", "protocol": 3}
    return RemoteSeat(link, welcome, link.update())


def test_the_local_game_is_a_game() -> None:
    """``Session`` satisfies ``Game`` (mypy checks the assignment; the run
    checks every member is there); its talk is the quiet value."""
    game: Game = Session.new(seed=1, humans=(1,))
    assert isinstance(game, Game)
    assert all(hasattr(game, name) for name in MEMBERS)
    assert game.talk is QUIET and isinstance(game.talk, Talk)
    assert (game.viewer, game.at_keyboard(), game.local is game) == (1, (1,), True)


def test_the_remote_seat_is_a_game() -> None:
    """The remote seat satisfies ``Game`` too: its own seat shown, no game
    held here (the host saves it), its talk the table's."""
    game: Game = remote_seat()
    assert isinstance(game, Game)
    assert all(hasattr(game, name) for name in MEMBERS)
    assert isinstance(game.talk, Talk)
    assert (game.viewer, game.at_keyboard(), game.local) == (1, (1,), None)
    assert game.talk.refused_keys == ("o: ", "s: ")
    assert remote_seat(host=True).talk.refused_keys == ("o: ",)


def test_the_quiet_talk_says_nothing() -> None:
    """A game at one keyboard: started, no marks, no lines, every key."""
    assert (QUIET.started, QUIET.notes, QUIET.refused_keys) == (True, (), ())
    assert [QUIET.mark(seat) for seat in range(3)] == ["", "", ""]
