"""``mille --watch``: its command line, the watch command on ``J`` and
in ``who``, and a whole game watched in lines over loopback (the remote
seat's front end, with nobody at its keyboard and no hand)."""

from __future__ import annotations

import asyncio
import io
import threading
from typing import Any

import pytest

from mille.engine.rules import find_rules
from mille.frontends.cli import USAGE, Network, UsageError, parse_args
from mille.frontends.remote.ending import ENDED_STATUS
from mille.frontends.remote.hosting import join_command
from mille.frontends.remote.joining import join
from mille.frontends.remote.lines import play_lines
from mille.frontends.remote.link import Join
from mille.frontends.remote.presence import Presence, table_lines, who_lines
from mille.frontends.remote.seat import RemoteSeat, welcomed
from mille.frontends.turns import mover, turn_prompt, wait_line
from mille.game.session import Session
from mille.net.bot import Bot
from mille.net.server import Host, Limits, Server


def test_the_watch_options() -> None:
    assert parse_args(["--watch", "example.org:7000", "abc"]).net == Network(
        join=("example.org:7000", "abc"), watch=True
    )
    assert parse_args(["--host", "--no-watchers"]).net == Network(watchers=False)
    assert parse_args(["--host"]).net == Network()


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["--watch", "a", "b", "--join", "c", "d"], "mille: --watch goes without --host or --join"),
        (["--host", "--watch", "a", "b"], "mille: --watch goes without --host or --join"),
        (["--no-watchers"], "mille: --no-watchers goes with --host"),
        (["--join", "a", "b", "--no-watchers"], "mille: --no-watchers goes with --host"),
    ],
)
def test_watch_usage_errors(argv: list[str], line: str) -> None:
    with pytest.raises(UsageError) as refused:
        parse_args(argv)
    assert str(refused.value) == f"{line}\n{USAGE}"


def test_the_watch_command_is_shown_beside_the_join_command() -> None:
    command = join_command("127.0.0.1", 7000, "k4mxq7hzp2wd", watch=True)
    assert command == "mille --watch 127.0.0.1:7000 k4mxq7hzp2wd"
    presence = Presence(0)
    presence.take(
        {
            "type": "seats",
            "seats": [{"seat": 0, "name": "Hal", "status": "here", "host": True}],
            "waiting_for": None,
            "started": True,
            "join": "mille --join 127.0.0.1:7000 abcdefghjkmn",
            "watch": command,
            "watchers": 2,
        }
    )
    assert who_lines(presence, True)[:2] == [
        "To join this table: mille --join 127.0.0.1:7000 abcdefghjkmn",
        "To watch this table: mille --watch 127.0.0.1:7000 k4mxq7hzp2wd",
    ]
    assert who_lines(presence, True)[-1] == "2 people watch."
    page = table_lines(presence, True, [], 80, 24)
    assert page[page.index("To watch, others type:") + 1] == f"  {command}"


def test_a_watcher_without_a_host_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    status = join("127.0.0.1:1", "abcdefghjkmn", None, None, wait=0, watch=True)
    assert status != 0
    assert len(capsys.readouterr().err.splitlines()) <= 1


def test_a_whole_game_watched_in_lines() -> None:
    out = io.StringIO()
    result: dict[str, Any] = {}

    async def scene() -> None:
        session = Session.new(find_rules("bsd", players=2), seed=3, humans=(0,))
        server = Server(Limits(grace=30, rate=1000, burst=1000))
        host = server.add(Host(session, host_seat=0, names={0: "Hal"}))
        _, port = await server.start()
        bot = Bot("Hal")
        try:
            await bot.join(port, host.code, token=host.seats[0].token)
            watch = Join("127.0.0.1", port, host.watch_code, name="Wes")

            def watching() -> None:
                result["status"] = play_lines(watch, stdin=io.BytesIO(b"P\n"), stdout=out)

            thread = threading.Thread(target=watching, daemon=True)
            thread.start()
            while not host.watchers:
                await asyncio.sleep(0.01)
            await asyncio.wait_for(bot.run(), 60)
            result["moves"] = len(session.log)
            for _ in range(400):  # (the watcher shows the last moves at its pace)
                if "wins the game" in out.getvalue():
                    break
                await asyncio.sleep(0.05)
            await server.close()
            for _ in range(200):
                if not thread.is_alive():
                    break
                await asyncio.sleep(0.05)
        finally:
            await server.close()
            await bot.client.close()

    asyncio.run(scene())
    lines = out.getvalue().splitlines()
    assert lines[0] == (
        "You watch this table: you see no hand, and your lines reach the watchers alone."
    )
    assert "1 person watches." in lines
    assert any(line.startswith("Comp 1 played") for line in lines)
    # the seat it looks from is Hal's, named: nobody at the table is its "You"
    assert any(line.startswith(("Hal played", "Hal discarded")) for line in lines)
    yours = ("You drew", "You played", "You discarded", "Side 1, You", "You win", "You complete")
    assert not [line for line in lines if line.startswith(yours) or ", You" in line]
    assert any("wins the game" in line for line in lines), lines[-12:]
    assert "status" in result


def test_a_watchers_welcome_is_read_as_a_seat_with_no_token() -> None:
    seat = welcomed({"type": "watching", "protocol": 3, "viewer": 0, "name": "Wes"})
    assert seat.watching and seat.seat == 0 and seat.token == "" and not seat.host


def test_a_watchers_remote_seat_decides_nothing_and_holds_no_hand() -> None:
    from test_net_remote_session import StandIn

    from mille.engine.cards import NO_CARD
    from mille.net.seats import Feed

    rules = find_rules("classic", players=3)
    feed = Feed(Session.new(rules, seed=3, humans=(0, 1, 2), names={0: "Hal", 1: "Ann"}))
    link = StandIn(feed, feed.public)
    welcome = {"type": "watching", "protocol": 3, "viewer": 0, "name": "Wes"}
    remote = RemoteSeat(link, welcome, link.update())
    assert remote.watching and remote.at_keyboard() == () and remote.viewer == 0
    assert feed.session.table.current_player == 0  # Hal's turn: another's, for a watcher
    assert remote.another_decides and not remote.human_to_move and not remote.mine_next
    # the words: Hal's turn, never "Your turn" (the seat it looks from is Hal's)
    assert turn_prompt(remote, remote.viewer) == "Hal's turn"
    assert wait_line(remote, remote.viewer) == "Wait: it is Hal's turn."
    assert mover(remote, remote.viewer) == "Hal"
    assert remote.view(0).hand == [NO_CARD] * 7 and remote.view(0).legal_moves() == []
    assert remote.refused_keys == ("o: ", "s: ", "h: ")  # no hand: no hint either
    feed.play(0, feed.version(0), feed.view(0).legal_moves()[0])  # Hal picks
    link.inbox.put(link.update())
    outcome = remote.another_moves()
    assert outcome.seat == 0 and set(outcome.drawn) == {NO_CARD}  # a draw it does not see
    told: list[str] = []  # q: it leaves as a watcher, no seat said to wait
    back = "mille --watch 127.0.0.1:7000 abcdefghjkmn"
    assert remote.finish(ENDED_STATUS, None, None, told.append, "leaving", back) == ENDED_STATUS
    assert told == ["You stop watching the table.", f"To come back: {back}"]


def test_a_watchers_board_names_every_seat_and_offers_no_hint() -> None:
    """The board of a watcher: the sides by their names (no ``You``), and
    its keys without ``h: hint``."""
    from test_net_remote_session import StandIn

    from mille.frontends.remote.board_ui import RemoteTableUi
    from mille.net.seats import Feed
    from support.fakewindow import FakeWindow

    rules = find_rules("classic", players=3)
    feed = Feed(Session.new(rules, seed=3, humans=(0, 1, 2), names={0: "Hal", 1: "Ann"}))
    link = StandIn(feed, feed.public)
    welcome = {"type": "watching", "protocol": 3, "viewer": 0, "name": "Wes"}
    window = FakeWindow()
    ui = RemoteTableUi(window, RemoteSeat(link, welcome, link.update()))  # type: ignore[arg-type]
    ui.render()
    screen = "\n".join(window.full_lines())
    assert " 1 Hal " in screen and " 2 Ann " in screen and "You" not in screen
    assert "h: hint" not in screen and "t: tracker" in screen
