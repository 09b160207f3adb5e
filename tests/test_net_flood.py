"""A host that stays up under a flood: silent connections to a TLS host
are capped and cut like plain ones (the handshake within the limits), the
connections without a seat have a total cap that a newcomer still gets
under, and a real ``mille --host`` held to 1,024 descriptors keeps a
seated player, a rejoin and a new join working while 60 loopback
addresses flood it, printing nothing of it."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import sys
import textwrap
import threading
import time
from typing import Any

import pytest

from mille.engine.rules import find_rules
from mille.frontends.remote.tls import server_tls
from mille.game.session import Session
from mille.net.server import Host, Limits, Server
from mille.net.wire import PROTOCOL, encode

LINUX = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="loopback beyond 127.0.0.1 is Linux's"
)


def table(server: Server) -> Host:
    return server.add(
        Host(Session.new(find_rules("classic", players=4), seed=1, humans=(0, 1, 2, 3)))
    )


async def silent(port: int, count: int, source: str = "127.0.0.1") -> list[asyncio.StreamReader]:
    """``count`` connections that say nothing (their writers are kept open)."""
    held = []
    for _ in range(count):
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        held.append(reader)
        silent.writers.append(writer)  # type: ignore[attr-defined]
    return held


silent.writers = []  # type: ignore[attr-defined]


async def closed_within(reader: asyncio.StreamReader, seconds: float) -> bool:
    try:
        await asyncio.wait_for(reader.read(), seconds)
    except asyncio.TimeoutError:
        return False
    except (ConnectionError, OSError):
        pass
    return True


def test_silent_connections_to_a_tls_host_are_capped_and_cut(tmp_path: Any) -> None:
    if shutil.which("openssl") is None:
        pytest.skip("no openssl to make a certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
         "-out", str(cert), "-days", "1", "-subj", "/CN=mille"],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip

    async def main() -> tuple[int, int]:
        server = Server(Limits(first_deadline=1.0, per_address=32))
        table(server)
        _, port = await server.start("127.0.0.1", 0, server_tls(str(cert), str(key)))
        try:
            held = await silent(port, 40)
            cut_at_once = sum(await asyncio.gather(*(closed_within(r, 0.5) for r in held)))
            cut_later = sum(await asyncio.gather(*(closed_within(r, 5) for r in held)))
            return cut_at_once, cut_later
        finally:
            for writer in silent.writers:  # type: ignore[attr-defined]
                writer.close()
            silent.writers.clear()  # type: ignore[attr-defined]
            await server.close()

    at_once, later = asyncio.run(main())
    assert at_once == 8  # over the 32 an address may hold: no handshake, cut
    assert later == 40  # the others within the first message's deadline (no 60 s wait)


@LINUX
def test_a_newcomer_gets_in_past_the_cap_of_connections_without_a_seat() -> None:
    async def main() -> tuple[dict[str, Any], int]:
        server = Server(Limits(unseated=20, per_address=32, first_deadline=30))
        host = table(server)
        _, port = await server.start()
        try:
            for number in range(2, 12):  # 10 addresses, 4 silent connections each
                await silent(port, 4, f"127.0.0.{number}")
            deadline = time.monotonic() + 10
            while server.unseated_count + server.answered < 40:  # each one waiting, or cut
                assert time.monotonic() < deadline, server.unseated_count
                await asyncio.sleep(0.01)
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(encode({"type": "hello", "protocol": PROTOCOL, "code": host.code}))
            answer = json.loads(await asyncio.wait_for(reader.readline(), 10))
            writer.close()
            return answer, server.unseated_count
        finally:
            for writer in silent.writers:  # type: ignore[attr-defined]
                writer.close()
            silent.writers.clear()  # type: ignore[attr-defined]
            await server.close()

    answer, unseated = asyncio.run(main())
    assert answer["type"] == "welcome"
    assert unseated <= 20


FLOODER = textwrap.dedent(
    """
    import asyncio, json, resource, sys, time
    port, seconds = int(sys.argv[1]), float(sys.argv[2])
    HEIGHT = 2000  # connections opened: the flood is at its height (the host's 1024 are full)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8192)), hard))
    counts = {"opened": 0, "failed": 0, "cut": 0, "peak": 0}
    held = set()

    async def one(source):
        while time.monotonic() < end:
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(source, 0))
            except OSError:
                counts["failed"] += 1
                await asyncio.sleep(0.05)
                continue
            counts["opened"] += 1
            if counts["opened"] == HEIGHT:
                print("at its height", flush=True)
            held.add(writer)
            counts["peak"] = max(counts["peak"], len(held))
            try:
                await asyncio.wait_for(reader.read(), end - time.monotonic())
                counts["cut"] += 1
            except (asyncio.TimeoutError, OSError):
                pass
            held.discard(writer)
            writer.close()

    async def main():
        global end
        end = time.monotonic() + seconds
        print("flooding", flush=True)
        await asyncio.gather(*(one(f"127.0.0.{2 + n // 32}") for n in range(60 * 32)))

    asyncio.run(main())
    print(json.dumps(counts), flush=True)
    """
)


def limited() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))


async def hello(port: int, **fields: Any) -> tuple[dict[str, Any], Any, Any, float]:
    start = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
    writer.write(encode({"type": "hello", "protocol": PROTOCOL, **fields}))
    while True:
        message = json.loads(await asyncio.wait_for(reader.readline(), 20))
        if message["type"] in ("welcome", "error"):
            return message, reader, writer, time.monotonic() - start


async def answered(reader: Any, writer: Any) -> float:
    """A seated connection asks for its view again: seconds to the update."""
    start = time.monotonic()
    writer.write(encode({"type": "view"}))
    while True:
        message = json.loads(await asyncio.wait_for(reader.readline(), 20))
        if message["type"] == "update":
            return time.monotonic() - start


@pytest.mark.slow
@LINUX
def test_a_host_held_to_1024_descriptors_stays_up_under_a_flood_from_60_addresses() -> None:
    host = subprocess.Popen(
        [sys.executable, "-m", "mille", "--host", "--plain", "--rules", "classic",
         "--players", "4", "--people", "0,1,2", "--port", "0", "--grace", "600"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=limited,
    )  # fmt: skip
    said: list[str] = []  # the host's standard error, as it comes
    assert host.stderr is not None
    threading.Thread(target=lambda: said.extend(host.stderr), daemon=True).start()  # type: ignore[arg-type]
    try:
        assert host.stdout is not None
        lines = [host.stdout.readline() for _ in range(3)]
        found = re.search(r"mille --join 127\.0\.0\.1:(\d+) (\w+)", lines[2])
        assert found, lines
        port, code = int(found[1]), found[2]

        async def main() -> dict[str, float]:
            seated, reader, writer, _ = await hello(port, code=code, name="Ann")
            assert seated["type"] == "welcome", seated
            flooding = await asyncio.create_subprocess_exec(
                sys.executable, "-c", FLOODER, str(port), "12", stdout=subprocess.PIPE
            )
            assert flooding.stdout is not None
            assert await flooding.stdout.readline() == b"flooding\n"
            height = await asyncio.wait_for(flooding.stdout.readline(), 12)
            assert height == b"at its height\n", height  # (before its 12 s are over)
            figures = {"seated player served": await answered(reader, writer)}
            writer.close()
            again, reader, writer, took = await hello(port, code=code, token=seated["token"])
            assert (again["type"], again["seat"]) == ("welcome", seated["seat"]), again
            figures["rejoin"] = took
            new, _, new_writer, took = await hello(port, code=code, name="Bob")
            assert new["type"] == "welcome" and new["seat"] != seated["seat"], new
            figures["new join"] = took
            figures["seated player served again"] = await answered(reader, writer)
            out, _ = await flooding.communicate()
            counts = json.loads(out.decode().splitlines()[-1])
            figures |= {f"flood {key}": value for key, value in counts.items()}
            writer.close()
            new_writer.close()
            return figures

        figures = asyncio.run(main())
        print(figures)
        assert figures["flood peak"] >= 1024  # the flood did try for more than the host holds
        assert figures["rejoin"] < 5 and figures["new join"] < 5  # (7 s for a rejoin in 2.1)
        assert host.poll() is None  # the host is up
        assert said == []  # nothing over the host's game
        host.stdin.close()  # type: ignore[union-attr]
        assert host.wait(60) == 0
    finally:
        host.kill()
        host.wait(10)


@pytest.mark.skipif(sys.platform == "win32", reason="no resource module")
def test_the_host_raises_its_descriptor_limit_to_the_hard_one() -> None:
    """In a child held to 256 open files (hard limit 1,024), the host's
    raise_descriptor_limit takes the soft one to 1,024."""
    code = (
        "import resource; from mille.net.server import raise_descriptor_limit;"
        "resource.setrlimit(resource.RLIMIT_NOFILE, (256, 1024)); raise_descriptor_limit();"
        "print(*resource.getrlimit(resource.RLIMIT_NOFILE))"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert run.stdout == "1024 1024\n"
