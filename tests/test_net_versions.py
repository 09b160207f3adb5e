"""Protocol 2 and the mille of protocol 1: neither plays with the other,
and each is refused in one line (``docs/protocol.md``, Versions)."""

from __future__ import annotations

import asyncio
import io
import json
import socket
import threading

from mille.engine.rules import find_rules
from mille.frontends.remote.lines import play_lines
from mille.frontends.remote.link import Join
from mille.frontends.remote.seat import REFUSED_STATUS
from mille.game.session import Session
from mille.net.server import Host, Server

OLD_HELLO = b'{"type":"hello","protocol":1,"code":"k4mxq7hzp2wd","name":"Ann"}\n'
# what a host of protocol 1 (mille 2.x) answered a hello of another version
OLD_REFUSAL = (
    b'{"type":"error","code":"version","message":"this host speaks mille protocol 1, '
    b'not 2: play with the same version of mille"}\n'
)


def test_a_joiner_of_protocol_1_is_refused_in_one_line() -> None:
    """The host answers one ``version`` error, its English line in
    ``message`` too (all a mille of protocol 1 reads and shows), and
    hangs up."""

    async def main() -> list[bytes]:
        server = Server()
        session = Session.new(find_rules("classic", players=4), seed=1, humans=(0, 1))
        server.add(Host(session, host_seat=0))
        _, port = await server.start()
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(OLD_HELLO)
            lines = []
            while line := await asyncio.wait_for(reader.readline(), 10):
                lines.append(line)
            writer.close()
            return lines
        finally:
            await server.close()

    lines = asyncio.run(main())
    assert [json.loads(line) for line in lines] == [
        {
            "type": "error",
            "code": "version",
            "values": {"protocol": 3, "version": "1"},
            "message": "this host speaks mille protocol 3, not 1: play with the same version of mille",
        }
    ]


def test_a_host_of_protocol_1_is_refused_in_one_line() -> None:
    """A host of protocol 1 refuses the hello of protocol 2 in its own
    English words, without values: ``mille --join`` says so in one line
    of its own and stops (status 2)."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    heard: list[bytes] = []

    def old_host() -> None:
        conn, _ = listener.accept()
        with conn:
            conn.settimeout(10)
            heard.append(conn.makefile("rb").readline())
            conn.sendall(OLD_REFUSAL)

    thread = threading.Thread(target=old_host, daemon=True)
    thread.start()
    out = io.StringIO()
    try:
        status = play_lines(
            Join("127.0.0.1", port, "k4mxq7hzp2wd"), stdin=io.BytesIO(b""), stdout=out
        )
    finally:
        thread.join(10)
        listener.close()
    assert json.loads(heard[0])["protocol"] == 3
    assert (status, out.getvalue()) == (
        REFUSED_STATUS,
        "mille: the host speaks another mille protocol: play with the same version of mille\n",
    )
