"""Another game at the end of a network game (issue 48, Rematch): every
person at the table is asked ``Another game?``; once everyone at it says
``y`` the same table plays again, its seats and names kept; a person who
says ``n`` leaves the table (the others read that they left), and the
host's ``n`` ends it for everyone in words that say the host left, never
``the host ended the game``."""

from __future__ import annotations

import asyncio
import io
import queue
import threading
from typing import Any

from test_net_remote_session import StandIn

from mille import i18n
from mille.engine.rules import find_rules
from mille.frontends.questions import Question
from mille.frontends.remote.lines import LineSeat, RemoteLineUi
from mille.frontends.remote.seat import ENDED_STATUS, Gone, ending
from mille.game.session import Session
from mille.net.bot import Bot
from mille.net.follow import table_of
from mille.net.seats import Feed
from mille.net.server import Host, Limits, Server
from mille.net.wire import PROTOCOL, decode

SHORT: dict[str, Any] = {"distance": 300, "winning_score": 1000}  # games of a few hands
TIMEOUT = 60.0


def short_session() -> Session:
    rules = find_rules("milebymile", players=3, **SHORT)
    return Session.new(rules, seed=5, humans=(0, 1), names={0: "Hal", 1: "Ann"}, level="easy")


async def table_of_two(session: Session, host_games: int, ann_games: int) -> tuple[Host, list[Bot]]:
    """Hal (hosting, seat 0) and Ann (seat 1) play by bots, Hal wanting
    ``host_games`` games and Ann ``ann_games``; a computer at seat 2."""
    server = Server(Limits(grace=30, rate=1000, burst=1000))
    host = server.add(Host(session, host_seat=0))
    _, port = await server.start()
    hal, ann = Bot("Hal", games=host_games), Bot("Ann", deal=False, games=ann_games)
    try:
        token = host.seats[0].token
        assert token is not None
        await hal.join(port, host.code, token=token)
        await ann.join(port, host.code)
        await asyncio.wait_for(asyncio.gather(hal.run(), ann.run()), TIMEOUT)
    finally:
        await server.close()
    return host, [hal, ann]


def games_seen(bot: Bot) -> list[dict[str, Any]]:
    """The first view of each game the bot was shown (the table at its
    first deal, and after each game over's deal)."""
    firsts: list[dict[str, Any]] = []
    over = True
    for message in bot.messages:
        if message["type"] != "update":
            continue
        table = table_of(message["view"])
        if over and not table.game_over:
            firsts.append(message["view"])
        over = table.game_over
    return firsts


def test_both_agree_and_the_same_table_plays_a_second_game() -> None:
    session = short_session()
    host, bots = asyncio.run(table_of_two(session, 2, 2))
    assert session.table.game_over
    for bot in bots:
        assert bot.games == 0  # both games played to their end
        first, second = games_seen(bot)
        assert second["names"] == first["names"] == ["Hal", "Ann", None]
        assert second["totals"] == [0, 0, 0]  # the scores from none
        assert sum(second["games"]) == 1  # the game won, counted as the board shows it
        assert bot.errors == []
    assert bots[0].follow.seat == 0 and bots[1].follow.seat == 1


def test_another_game_waits_for_everyone_at_the_table() -> None:
    """The host's ``y`` alone deals nothing while Ann is still at the
    table and has not answered."""

    async def main() -> tuple[Host, Session]:
        session = short_session()
        server = Server(Limits(grace=30, rate=1000, burst=1000))
        host = server.add(Host(session, host_seat=0))
        _, port = await server.start()
        hal, ann = Bot("Hal", games=2), Bot("Ann", deal=False, games=1)
        try:
            token = host.seats[0].token
            assert token is not None
            await hal.join(port, host.code, token=token)
            await ann.join(port, host.code)
            hal_runs = asyncio.ensure_future(hal.run())

            async def ann_stays() -> None:  # Ann plays on, and answers nothing at the end
                ann.games = 99
                assert ann.client.reader is not None
                while True:
                    message = decode(await ann.client.reader.readuntil(b"\n"))
                    if message["type"] == "update" and table_of(message["view"]).game_over:
                        return
                    await ann.on(message)

            await asyncio.wait_for(ann_stays(), TIMEOUT)
            await asyncio.sleep(0.5)  # Hal's deal has come by now
            assert session.table.game_over  # not dealt: Ann has not answered
            assert host.agreed == {0}
            ann.client.send({"type": "again"})
            for _ in range(100):
                if not session.table.game_over:
                    break
                await asyncio.sleep(0.05)
            assert not session.table.game_over  # dealt: everyone wants it
            assert session.table.totals == [0, 0, 0]
            hal_runs.cancel()
        finally:
            await server.close()
        return host, session

    asyncio.run(main())


def test_the_host_leaving_after_the_game_ends_the_table_saying_so() -> None:
    session = short_session()

    async def main() -> list[Bot]:
        server = Server(Limits(grace=30, rate=1000, burst=1000))
        host = server.add(Host(session, host_seat=0))
        _, port = await server.start()
        hal, ann = Bot("Hal", games=1), Bot("Ann", deal=False, games=99)
        try:
            token = host.seats[0].token
            assert token is not None
            await hal.join(port, host.code, token=token)
            await ann.join(port, host.code)
            ann_runs = asyncio.ensure_future(ann.run())
            await asyncio.wait_for(hal.run(), TIMEOUT)  # to the game's end
        finally:
            pass
        hal.client.send({"type": "end"})  # (hal's link is closed: the host's end, as the table's)
        host.end_by(None, {"type": "end"})  # type: ignore[arg-type]
        await asyncio.wait_for(ann_runs, TIMEOUT)
        await server.close()
        return [hal, ann]

    _hal, ann = asyncio.run(main())
    assert ann.bye == "host-left"
    gone = ending({"type": "bye", "code": "host-left"})
    assert (gone.reason, gone.status) == ("mille: the host left the table", ENDED_STATUS)
    assert "the host ended the game" not in gone.reason


def over_at_seat_1() -> tuple[Feed, StandIn, LineSeat, list[str]]:
    """Ann's seat (1) of a short game played to its end by the host."""
    feed = Feed(short_session())
    session = feed.session
    link = StandIn(feed, 1)
    welcome = {"type": "welcome", "seat": 1, "host": False, "token": "t", "protocol": PROTOCOL}
    remote = LineSeat(link, welcome, link.update())
    said: list[str] = []
    remote.out = said.append
    while not session.table.game_over:
        while not session.table.hand_over:
            seat = session.table.current_player
            assert seat is not None
            feed.play(seat, feed.version(seat), feed.think(seat, feed.stand_in(seat, 1)))
        if not session.table.game_over:
            feed.next_hand()
    link.inbox.put(link.update())
    link.inbox.put({"type": "game", "history": None})
    while remote.another_decides:
        remote.another_moves()
    assert remote.table.game_over
    return feed, link, remote, said


def seats(ann: str) -> dict[str, Any]:
    rows = [
        {"seat": 0, "name": "Hal", "status": "here", "host": True},
        {"seat": 1, "name": "Ann", "status": ann, "host": False},
        {"seat": 2, "name": "Comp 2", "status": "computer", "host": False},
    ]
    return {"type": "seats", "seats": rows, "waiting_for": None, "started": True, "join": ""}


def test_the_others_read_that_a_person_left_the_table_after_the_game() -> None:
    _feed, link, remote, said = over_at_seat_1()
    remote.me = remote.presence.me = 0  # (Hal's end of the same table)
    remote.take(seats("here"))
    remote.take(seats("left"))
    assert said[-1] == "Ann left the table."
    assert "the seat waits" not in said[-1]


def test_a_joiner_is_asked_another_game_and_a_no_leaves_with_its_own_line() -> None:
    _feed, link, remote, said = over_at_seat_1()
    lines: queue.Queue[bytes | None] = queue.Queue()
    out = io.StringIO()
    ui = RemoteLineUi(remote, io.BytesIO(), out, lines)
    lines.put(b"n")
    assert ui.ask(Question.ANOTHER_GAME) is False
    assert out.getvalue() == "Another game? n\n"
    told: list[str] = []
    status = remote.finish(ENDED_STATUS, None, None, told.append, "leaving", "mille --join x")
    assert (status, told) == (ENDED_STATUS, ["You leave the table."])


def test_a_joiners_yes_asks_the_host_for_another_game() -> None:
    feed, link, remote, said = over_at_seat_1()
    assert remote.whole_game() is None and remote.whole_heard  # (the host sent none)
    feed.next_hand()  # (as the host would, once everyone wants it)
    dealt = link.update()
    threading.Timer(0.3, link.inbox.put, (dealt,)).start()  # the deal, once asked
    remote.next_hand()
    assert {"type": "again"} in link.sent
    assert "Waiting for the others: another game when everyone at the table wants it." in said
    assert not remote.table.game_over
    assert not remote.whole_heard  # the next game's own whole game to come


def test_the_words_in_french() -> None:
    assert i18n.choose("fr") == "fr"
    try:
        gone = ending({"type": "bye", "code": "host-left"})
        assert gone.reason == "mille: l'hôte a quitté la table"
        _feed, _link, remote, said = over_at_seat_1()
        remote.me = remote.presence.me = 0
        remote.take(seats("here"))
        remote.take(seats("left"))
        assert said[-1] == "Ann a quitté la table."
    finally:
        i18n.use(None)
    assert isinstance(gone, Gone)
