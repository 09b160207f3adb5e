"""The server over loopback: the protocol's errors, word for word; drops
and reconnects inside and after the grace period; and a fuzz of bad
input while a game goes on at another table (the host never crashes,
answers each bad connection with an error or a close, keeps answering
the others, and the game stays valid)."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from mille.engine.rules import find_rules
from mille.game.session import Session
from mille.net.bot import Bot
from mille.net.server import Host, Limits, Server
from mille.net.wire import MAX_LINE, PROTOCOL, encode, error_line
from mille.storage.savefile import load_session
from mille.storage.shapes import table_to_dict

FAST = Limits(
    grace=30,
    first_deadline=0.5,
    idle_deadline=2,
    ping_every=0.5,
    rate=1000,
    burst=1000,
    fail_delay=0.001,
    max_fail_delay=0.01,
    max_failures=20,
    fail_window=60,
)


def classic4(seed: int = 1) -> Session:
    return Session.new(find_rules("classic", players=4), seed=seed, humans=(0, 1, 2, 3))


async def exchange(
    port: int, payload: bytes, *, wait: float = 3.0, then: bytes = b""
) -> tuple[list[dict[str, Any]], bool]:
    """Send ``payload`` (then ``then``) on a new connection; the messages
    answered and whether the host closed the connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
    answers: list[dict[str, Any]] = []
    closed = False
    try:
        writer.write(payload)
        try:
            await writer.drain()
        except (ConnectionError, OSError):
            pass
        if then:
            writer.write(then)
        while True:
            try:
                line = await asyncio.wait_for(reader.readline(), wait)
            except asyncio.TimeoutError:
                break
            except (ConnectionError, OSError):
                closed = True
                break
            if not line:
                closed = True
                break
            answers.append(json.loads(line))
    finally:
        writer.close()
    return answers, closed


def hello(code: str, **more: Any) -> bytes:
    return encode({"type": "hello", "protocol": PROTOCOL, "code": code, **more})


def run(test: Callable[[Server, Host, int], Awaitable[None]], session: Session | None = None,
        limits: Limits = FAST) -> None:  # fmt: skip
    async def main() -> None:
        server = Server(limits)
        host = server.add(Host(session or classic4(), host_seat=0, code="abcdefghjkmn"))
        _, port = await server.start()
        try:
            await asyncio.wait_for(test(server, host, port), 120)
        finally:
            await server.close()

    asyncio.run(main())


# ----- the errors, word for word ---------------------------------------------------------


def spoken(answer: dict[str, Any]) -> tuple[str, str]:
    """An error as its code and the line it is shown with (in English),
    its fields only the protocol's (a ``version`` error's English
    ``message`` too, for a mille of protocol 1)."""
    assert answer["type"] == "error"
    fields = {"type", "code", "values"} | ({"message"} if answer["code"] == "version" else set())
    assert set(answer) == fields, answer
    return answer["code"], error_line(answer)


def test_the_errors_of_a_first_message() -> None:
    async def test(server: Server, host: Host, port: int) -> None:
        cases = [
            (b"not json\n", "bad-json", "not a JSON object on one line"),
            (b"\xff\xfe\n", "bad-json", "not a JSON object on one line"),
            (b"[1, 2]\n", "bad-json", "not a JSON object on one line"),
            (b'{"type": 5}\n', "bad-message", "bad message: type must be a str"),
            (b'{"type": "move"}\n', "hello-first", "send hello first"),
            (
                encode({"type": "hello", "protocol": 99, "code": "x"}),
                "version",
                "this host speaks mille protocol 3, not 99: play with the same version of mille",
            ),
            (hello("wrongwrongxx"), "wrong-code", "wrong join code"),
            (
                encode({"type": "hello", "protocol": PROTOCOL, "code": 7}),
                "bad-message",
                "bad message: code must be a str",
            ),  # fmt: skip
            (hello(host.code, token="not a token"), "wrong-token", "no seat has this token"),
            (b"x" * (MAX_LINE + 10) + b"\n", "too-long", "line longer than 16384 bytes"),
            (b'{"type": "hel', "too-slow", "too slow"),
        ]
        for payload, code, message in cases:
            answers, closed = await exchange(port, payload)
            assert [spoken(answer) for answer in answers] == [(code, message)], payload[:40]
            assert closed

    run(test)


def test_a_full_table_and_a_seat_taken_back() -> None:
    async def test(server: Server, host: Host, port: int) -> None:
        for number in range(3):
            answers, _ = await exchange(port, hello(host.code, name=f"p{number}"), wait=0.3)
            assert answers[0]["type"] == "welcome" and answers[0]["seat"] == number + 1
        answers, closed = await exchange(port, hello(host.code, name="late"))
        assert answers == [{"type": "error", "code": "table-full", "values": {}}]
        assert closed
        # p1 dropped (its connection closed): a p1 without its token is told how p1 comes back
        answers, closed = await exchange(port, hello(host.code, name="P1"))
        message = (
            "every person seat is taken; p1's waits for the person who sat there: "
            "the same mille --join on their machine takes it back"
        )
        assert answers == [{"type": "error", "code": "seat-waits", "values": {"name": "p1"}}]
        assert spoken(answers[0]) == ("seat-waits", message)
        assert closed

    run(test)


def test_moves_errors_after_hello() -> None:
    async def test(server: Server, host: Host, port: int) -> None:
        token = host.seats[0].token
        assert token is not None
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(hello(host.code, token=token))

        async def answer(message: Any) -> dict[str, Any]:
            if message is not None:
                writer.write(message if isinstance(message, bytes) else encode(message))
            while True:
                got: dict[str, Any] = json.loads(await asyncio.wait_for(reader.readline(), 5))
                if got["type"] in ("error", "pong", "update", "saved"):
                    return got

        first = await answer(None)
        assert first["type"] == "update" and first["version"] == 0
        assert (await answer({"type": "ping"}))["type"] == "pong"
        cases = [
            ({"type": "move", "version": 0, "move": "U1"}, "refused", "must pick first"),
            (
                {"type": "move", "version": 3, "move": "P"},
                "stale",
                "the table changed: your move was not made",
            ),  # fmt: skip
            (
                {"type": "move", "version": "0", "move": "P"},
                "bad-message",
                "bad message: version must be a int",
            ),  # fmt: skip
            ({"type": "move", "version": 0, "move": 5}, "bad-move", "not a move: 5"),
            ({"type": "move", "version": 0, "move": "U9"}, "bad-move", 'not a move: "U9"'),
            ({"type": "teleport"}, "unknown-type", 'bad message: unknown type "teleport"'),
            ({"type": "hello"}, "hello-again", "bad message: hello was already said"),
            (b"\xc3\x28\n", "bad-json", "not a JSON object on one line"),
            ({"type": "deal"}, "hand-not-over", "the hand is not over"),
        ]
        for message, code, text in cases:
            assert spoken(await answer(message)) == (code, text)
        got = await answer({"type": "move", "version": 0, "move": "P"})
        assert got["type"] == "update" and got["version"] == 1
        writer.close()

        # another seat may not save, deal or end
        answers, _ = await exchange(
            port,
            hello(host.code, name="x") + encode({"type": "save", "file": "/tmp/x"}),
            wait=0.5,
        )
        errors = [a for a in answers if a["type"] == "error"]
        assert errors == [{"type": "error", "code": "not-host", "values": {}}]
        assert spoken(errors[0]) == ("not-host", "only the host may do this")

    run(test)


def test_wrong_codes_are_slowed_then_refused_per_address() -> None:
    async def test(server: Server, host: Host, port: int) -> None:
        codes = []
        for _ in range(25):
            answers, closed = await exchange(port, hello("wrongwrongxx"))
            codes.append(answers[0]["code"])
            assert closed
        assert codes == ["wrong-code"] * 20 + ["too-many-tries"] * 5
        # the right code too, from that address, for a while
        answers, _ = await exchange(port, hello(host.code, name="x"))
        assert answers[0] == {"type": "error", "code": "too-many-tries", "values": {}}
        assert spoken(answers[0]) == (
            "too-many-tries",
            "too many wrong join codes from your address: wait a minute",
        )

    run(test)


def test_a_seated_person_comes_back_past_their_addresss_wrong_codes() -> None:
    """20 wrong codes from an address (the same home router) do not lock out
    a person seated there: the right code with their seat's token is let
    in; the right code with a wrong token, or a new join, is still refused."""

    async def test(server: Server, host: Host, port: int) -> None:
        answers, _ = await exchange(port, hello(host.code, name="ann"), wait=0.5)
        assert answers[0]["type"] == "welcome"
        token = host.seats[answers[0]["seat"]].token
        for _ in range(21):
            await exchange(port, hello("wrongwrongxx"), wait=0.5)
        for refused in (
            hello(host.code, name="bob"),
            hello(host.code, token="x" * 32),
            hello("wrongwrongxx", token=token),
        ):
            answers, closed = await exchange(port, refused, wait=0.5)
            assert closed and answers[0]["code"] == "too-many-tries"
        answers, _ = await exchange(port, hello(host.code, token=token), wait=0.5)
        assert answers[0]["type"] == "welcome" and answers[0]["seat"] == 1

    run(test)


# ----- drops and reconnects ---------------------------------------------------------------


async def game_with_a_drop(port: int, host: Host, grace_passes: bool) -> list[Bot]:
    """Four bots at classic; seat 1 leaves after 3 moves and comes back
    with its token (after the grace period if ``grace_passes``)."""
    token = host.seats[0].token
    assert token is not None
    first = Bot("host")
    await first.join(port, host.code, token=token)
    bots = [first]
    for number in (1, 2, 3):
        bot = Bot(f"bot {number}", deal=False)
        await bot.join(port, host.code)
        bots.append(bot)
    bots[1].stop_after = 3
    tasks = [asyncio.ensure_future(bot.run()) for bot in bots]
    await bots[1].done.wait()
    assert bots[1].follow.seat == 1
    if grace_passes:
        while not host.seats[1].stand_in:
            await asyncio.sleep(0.05)
        seen = bots[2].follow.version
        while bots[2].follow.version < seen + 8:  # the computer plays on for seat 1
            await asyncio.sleep(0.05)
    else:
        for _ in range(20):
            await asyncio.sleep(0.05)
        assert host.waiting_for() in (1, None)
    back = Bot("bot 1", deal=False)
    await back.join(port, host.code, token=bots[1].follow.token, version=bots[1].follow.version)
    tasks.append(asyncio.ensure_future(back.run()))
    await asyncio.wait_for(asyncio.gather(*tasks), 120)
    bots.append(back)
    return bots


def test_a_drop_inside_the_grace_period() -> None:
    session = classic4(4)

    async def test(server: Server, host: Host, port: int) -> None:
        bots = await game_with_a_drop(port, host, grace_passes=False)
        back = bots[-1]
        first = next(m for m in back.messages if m["type"] == "update")
        assert first["missed"] is False  # the moves it missed, from its version on
        assert first["events"][0]["version"] == bots[1].follow.version + 1
        # the others were told whom they waited for
        waits = {m["waiting_for"] for m in bots[2].messages if m["type"] == "seats"}
        assert 1 in waits
        statuses = {r["status"] for m in bots[2].messages if m["type"] == "seats" for r in m["seats"] if r["seat"] == 1}  # fmt: skip
        assert {"here", "away"} <= statuses and "computer-for-now" not in statuses
        # the joiners' names are the session's people's (a save keeps them), and the
        # views name them, each seat being You to itself (the client's words)
        assert session.people == {0: "Player 0", 1: "bot 1", 2: "bot 2", 3: "bot 3"}
        assert [host.name(seat) for seat in host.seats] == [
            "Player 0",
            "bot 1",
            "bot 2",
            "bot 3",
        ]
        assert bots[2].follow.names == session.people

    run(test, session)
    assert session.table.game_over
    session.table.validate()


def test_a_drop_after_the_grace_period() -> None:
    session = classic4(5)
    limits = Limits(**{**FAST.__dict__, "grace": 0.3})

    async def test(server: Server, host: Host, port: int) -> None:
        bots = await game_with_a_drop(port, host, grace_passes=True)
        statuses = [r["status"] for m in bots[2].messages if m["type"] == "seats" for r in m["seats"] if r["seat"] == 1]  # fmt: skip
        assert "computer-for-now" in statuses
        assert statuses[-1] == "here"  # back, and the computer stopped
        assert bots[-1].moves > 0

    run(test, session, limits)
    assert session.table.game_over
    session.table.validate()


def test_the_table_deals_on_while_the_host_is_away() -> None:
    """The end of a hand while the host is away: after the grace period the
    table deals the next hand itself (a computer plays the host's seat
    meanwhile); the end of the game waits for the host (a new game is
    its to start), and the others are told whom the table waits for."""
    session = classic4(6)
    limits = Limits(**{**FAST.__dict__, "grace": 0.2})

    async def test(server: Server, host: Host, port: int) -> None:
        bots = [Bot(f"bot {number}", deal=False) for number in (1, 2, 3)]
        for bot in bots:  # the host never comes: its seat waits, then a computer plays it
            await bot.join(port, host.code)
        await asyncio.wait_for(asyncio.gather(*(bot.run() for bot in bots)), 60)
        deals = [m for m in bots[0].messages if m["type"] == "update" for e in m["events"] if e.get("deal")]  # fmt: skip
        assert deals, "no hand was dealt while the host was away"
        assert session.table.game_over and host.waiting_for() == 0
        assert host.seats_message()["waiting_for"] == 0

    run(test, session, limits)
    session.table.validate()


# ----- fuzz ------------------------------------------------------------------------------------


def fuzz_payloads(rng: random.Random, code: str, count: int) -> list[bytes]:
    """Bad first lines: garbage, invalid UTF-8, wrong types, wrong codes."""
    kinds: list[Callable[[], bytes]] = [
        lambda: bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))) + b"\n",
        lambda: b'{"type": "hello", "code": "\xff\xfe"}\n',
        lambda: encode({"type": rng.choice([None, 1, [], {}, "x" * 100]), "code": code}),
        lambda: encode({"type": "hello", "protocol": rng.choice(["1", 1.0, None, [1], True]), "code": code}),
        lambda: encode({"type": "hello", "protocol": PROTOCOL, "code": rng.choice([1, None, [code], {}])}),
        lambda: encode({"type": "hello", "protocol": PROTOCOL, "code": code, "token": rng.choice([1, [], "x" * 10_000])}),
        lambda: b"[" * 5000 + b"\n",
        lambda: b'"just a string"\n',
        lambda: b"\n",
    ]  # fmt: skip
    return [rng.choice(kinds)() for _ in range(count)]


async def fuzz(
    port: int, code: str, server: Server, host: Host, count: int, rng: random.Random
) -> int:
    """Bad connections of every kind against a table; the number of cases,
    each answered by an error or a close."""
    cases = 0
    for payload in fuzz_payloads(rng, code, count):
        answers, closed = await exchange(port, payload, wait=2)
        assert closed or any(a["type"] == "error" for a in answers), payload[:60]
        cases += 1
    # a 10 MB line, and half-sent lines held open
    answers, closed = await exchange(port, b"x" * (10 << 20) + b"\n")
    assert closed and answers in ([], [{"type": "error", "code": "too-long", "message": "line longer than 16384 bytes"}])  # fmt: skip
    cases += 1
    held = [asyncio.ensure_future(exchange(port, b'{"type": "hello", "pro')) for _ in range(5)]
    for answers, closed in await asyncio.gather(*held):
        assert closed and answers[0]["code"] == "too-slow"
        cases += 1
    # after hello: wrong types, stale moves, floods, another seat's token
    server.failures.clear()  # the wrong tokens above may have shut this address out
    free = host.free_seat()
    assert free is not None
    answers, _ = await exchange(port, hello(code, name="fuzz"), wait=0.3)
    token = answers[0]["token"]
    bad_after: list[dict[str, Any]] = [
        {"type": "move", "version": -1, "move": "P"},
        {"type": "move", "version": 10**30, "move": "P"},
        {"type": "move", "version": None, "move": "P"},
        {"type": "move", "version": 0, "move": "U3>9"},
        {"type": "move", "version": 0, "move": ["P"]},
        {"type": "save", "file": "/tmp/nothing"},
        {"type": "end"},
        {"type": "deal"},
        {"type": "hello", "protocol": PROTOCOL, "code": code},
        {"type": "bye?"},
    ]
    for message in bad_after:
        answers, _ = await exchange(port, hello(code, token=token) + encode(message), wait=0.3)
        assert any(a["type"] == "error" for a in answers), message
        cases += 1
    flood = hello(code, token=token) + encode({"type": "ping"}) * 3000
    answers, closed = await exchange(port, flood, wait=1)
    assert closed or any(a.get("code") == "too-fast" for a in answers)
    cases += 1
    other = host.seats[0].token
    assert other is not None
    server.failures.clear()
    answers, closed = await exchange(port, hello(code, token=other[:-2] + "xx"))
    assert closed and answers[0]["code"] == "wrong-token"
    cases += 1
    return cases


async def wrong_codes(port: int, count: int) -> int:
    for start in range(0, count, 16):
        batch = [
            exchange(port, hello(f"guess{n:07d}")) for n in range(start, min(count, start + 16))
        ]
        for answers, closed in await asyncio.gather(*batch):
            assert closed and answers[0]["code"] in ("wrong-code", "too-many-tries")
    return count


def fuzz_beside_a_game(count: int, codes: int) -> int:
    """The fuzz and the wrong codes at a second table, while four bots play
    a classic game to the end at the first; the number of cases."""
    game = classic4(9)
    cases = 0

    async def test(server: Server, host: Host, port: int) -> None:
        nonlocal cases
        target = server.add(Host(classic4(10), host_seat=0, code="pqrstuvwxyz2"))
        token = host.seats[0].token
        assert token is not None
        first = Bot("host")
        await first.join(port, host.code, token=token)
        bots = [first]
        for number in (1, 2, 3):
            bot = Bot(f"bot {number}", deal=False)
            await bot.join(port, host.code)
            bots.append(bot)
        playing = asyncio.gather(*(bot.run() for bot in bots))
        cases = await fuzz(port, target.code, server, target, count, random.Random(count))
        server.failures.clear()
        cases += await wrong_codes(port, codes)
        # the host still answers: the game goes on to its end
        await asyncio.wait_for(playing, 120)
        assert all(bot.errors == [] for bot in bots)
        target.feed.session.table.validate()

    run(test, game)
    assert game.table.game_over
    game.table.validate()
    return cases


def test_fuzz_beside_a_game() -> None:
    assert fuzz_beside_a_game(60, 200) > 270


@pytest.mark.slow
def test_fuzz_beside_a_game_long() -> None:
    assert fuzz_beside_a_game(2000, 5000) > 7000


def test_computers_in_a_worker_process(tmp_path: Any) -> None:
    """The computers think in the worker's replica, which stays in step with
    the table (moves, the computers' answers, new hands) to the end of the
    game; the host's save is the replica's, the same table."""
    rules = find_rules("milebymile", players=4, winning_score=3000)
    session = Session.new(rules, seed=6, humans=(0,))

    async def main() -> None:
        server = Server(FAST)
        host = server.add(Host(session, host_seat=0, worker=True))
        _, port = await server.start()
        try:
            token = host.seats[0].token
            assert token is not None
            bot = Bot("host")
            await bot.join(port, host.code, token=token)
            await asyncio.wait_for(bot.run(), 120)
            deals = [e for m in bot.messages if m["type"] == "update" for e in m["events"] if e.get("deal")]  # fmt: skip
            assert len(deals) >= 2
            assert host.thinker is not None  # never fell back to a thread
            assert host.thinker.process is not None and host.thinker.process.returncode is None
            path = str(tmp_path / "game.sav")
            assert await host.keep(path) == path
            saved = load_session(path)
            assert table_to_dict(saved.table) == table_to_dict(session.table)
            assert sorted(saved.computers) == [1, 2, 3]
        finally:
            await server.close()
            if host.thinker is not None:
                await host.thinker.stop()

    asyncio.run(main())
    assert session.table.game_over
    session.table.validate()


def test_closing_the_server_ends_its_connections_handlers() -> None:
    """A host told to stop (SIGTERM, SIGHUP) while a joiner is coming back
    leaves no connection's handler suspended when its loop closes (which
    printed ``RuntimeError: Event loop is closed`` after "the game is kept")."""

    async def main() -> set[asyncio.Task[Any]]:
        server = Server(FAST)
        host = server.add(Host(classic4()))
        _, port = await server.start()
        seated, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(hello(host.code, name="ann"))
        assert json.loads(await asyncio.wait_for(seated.readline(), 5))["type"] == "welcome"
        _, silent = await asyncio.open_connection("127.0.0.1", port)  # a hello to come
        await asyncio.sleep(0.05)
        await server.close()
        left = asyncio.all_tasks() - {asyncio.current_task()}
        writer.close()
        silent.close()
        return left

    assert asyncio.run(main()) == set()
