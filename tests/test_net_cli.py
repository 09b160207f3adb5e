"""``mille --host`` and ``mille --join`` on the command line, the client's
own lines, and docs/protocol.md against the code."""

from __future__ import annotations

import io
import json
import pathlib
import re
import socket
import subprocess
import sys

import pytest

from mille.frontends.cli import USAGE, Network, UsageError, parse_args
from mille.frontends.remote.joining import split_address
from mille.net.follow import Follow
from mille.net.wire import ERRORS, PROTOCOL, ProtocolError

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_the_network_options() -> None:
    assert parse_args(["--host"]).net == Network()
    options = parse_args(["--host", "--rules", "classic", "--players", "4", "--people", "1=Ann,3",
                          "--listen", "::", "--port", "0", "--grace", "5"])  # fmt: skip
    assert options.net == Network(listen="::", port=0, grace=5.0)
    assert options.people == ((1, "Ann"), (3, None))
    assert options.rules is not None and options.rules.players == 4
    joined = parse_args(["--join", "example.org:7000", "abc", "--name", "Ann"]).net
    assert joined == Network(join=("example.org:7000", "abc"), name="Ann")
    waiting = parse_args(["--join", "example.org", "abc", "--wait", "0"]).net
    assert waiting == Network(join=("example.org", "abc"), wait=0.0)
    assert parse_args(["--host", "game.sav"]).file == "game.sav"


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["--grace", "9"], "mille: --grace goes with --host or --join"),
        (["--host", "--join", "a", "b"], "mille: --host and --join cannot be used together"),
        (["--join", "a", "b", "--listen", "::"], "mille: --listen goes with --host"),
        (["--join", "a", "b", "file"], "mille: --join takes no file: the host holds the game"),
        (["--host", "--wait", "5"], "mille: --wait goes with --join"),
    ],
)
def test_network_usage_errors(argv: list[str], line: str) -> None:
    with pytest.raises(UsageError) as refused:
        parse_args(argv)
    assert str(refused.value) == f"{line}\n{USAGE}"


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["--host", "--port", "70000"], "mille: --port must be 0 to 65535"),
        (["--host", "--grace", "0"], "mille: --grace must be 1 to 3600 seconds"),
        (["--join", "a", "b", "--wait", "86401"], "mille: --wait must be 0 to 86400 seconds"),
        (
            ["--join", "a", "b", "--name", "You"],
            "mille: --name: 'You' is a name mille gives a seat",
        ),
        (
            ["--join", "a", "b", "--name", "A,B"],
            "mille: --name: 'A,B': a name is printable, without ',' or '=' or spaces at its ends",
        ),
        (
            ["--host", "--people", "0,1", "game.sav"],
            "mille: --people cannot be used with a file: "
            "a saved game keeps its own rules, people, level and deal",
        ),
        (
            ["--join", "a", "b", "--people", "0"],
            f"mille: --people goes with --host\n{USAGE}",
        ),
        (
            ["--host", "--people", "4", "--rules", "classic", "--players", "4"],
            "mille: --people: no seat 4 at a table of 4 (seats 0 to 3)",
        ),
    ],
)
def test_network_number_errors(argv: list[str], line: str) -> None:
    with pytest.raises(UsageError) as refused:
        parse_args(argv)
    assert str(refused.value) == line


def test_addresses() -> None:
    assert split_address("[::1]:80") == ("::1", 80)
    assert split_address("host") == ("host", 7477)
    with pytest.raises(ValueError, match="^bad port: x$"):
        split_address("host:x")
    with pytest.raises(ValueError, match="^bad port: 0$"):
        split_address("host:0")


def mille(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mille", *args],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_joining_nothing_is_one_line() -> None:
    port = free_port()
    run = mille("--join", f"127.0.0.1:{port}", "code", "--plain", "--wait", "0")
    assert run.returncode == 1
    assert run.stdout == f"mille: cannot reach 127.0.0.1:{port}: Connection refused\n"
    run = mille("--join", "127.0.0.1:x", "code", "--plain")
    assert (run.returncode, run.stderr) == (1, "mille: bad port: x\n")
    run = mille("--join", f"127.0.0.1:{port}", "code")  # the board, not on a terminal
    assert (run.returncode, run.stderr) == (
        1,
        "mille: standard input and output must be a terminal "
        "(for plain lines on pipes: mille --join ... --plain)\n",
    )


def test_host_option_errors_are_one_line() -> None:
    run = mille("--host", "--cert", "c.pem")
    assert (run.returncode, run.stderr) == (1, "mille: --cert and --key go together\n")
    run = mille("--host", "--cert", "/nonexistent.pem", "--key", "/nonexistent.pem")
    assert (run.returncode, run.stderr) == (
        1,
        "mille: cannot read the certificate /nonexistent.pem: No such file or directory\n",
    )


def test_a_host_of_another_version_is_one_line() -> None:
    with pytest.raises(ProtocolError) as refused:
        Follow().welcome({"type": "welcome", "protocol": PROTOCOL + 1, "seat": 1})
    assert refused.value.message == (
        f"the host speaks mille protocol {PROTOCOL + 1}, not {PROTOCOL}: "
        "play with the same version of mille"
    )


def test_the_protocol_page_lists_every_error_as_the_code_says() -> None:
    page = (ROOT / "docs" / "protocol.md").read_text()
    rows = dict(re.findall(r"^\| `([a-z-]+)` \| `([^`]*)`", page, re.MULTILINE))
    for code, message in ERRORS.items():
        assert rows.get(code) == message, code
    assert f'"protocol": {PROTOCOL}' in page or f'"protocol":{PROTOCOL}' in page


def test_tls(tmp_path: pathlib.Path) -> None:
    """With a certificate the host speaks TLS: a joiner that trusts it is
    welcomed; one without TLS is let in to nothing, and says so in one line."""
    import asyncio
    import shutil

    from mille.engine.rules import find_rules
    from mille.frontends.remote.lines import play_lines
    from mille.frontends.remote.link import Join
    from mille.frontends.remote.seat import NOT_WELCOMED
    from mille.frontends.remote.tls import client_tls, server_tls
    from mille.game.session import Session
    from mille.net.bot import Bot
    from mille.net.server import Host, Server

    if shutil.which("openssl") is None:
        pytest.skip("no openssl to make a certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
         "-out", str(cert), "-days", "1", "-subj", "/CN=mille"],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip

    async def main() -> None:
        server = Server()
        session = Session.new(find_rules("classic", players=4), seed=1, humans=(0, 1, 2, 3))
        host = server.add(Host(session, host_seat=0))
        _, port = await server.start("127.0.0.1", 0, server_tls(str(cert), str(key)))
        try:
            bot = Bot("ann", deal=False)
            await bot.join(port, host.code, ssl_context=client_tls(str(cert)))
            bot.stop_after = 0
            reader = bot.client.reader
            assert reader is not None
            welcome = json.loads(await asyncio.wait_for(reader.readline(), 10))
            assert welcome["type"] == "welcome" and welcome["seat"] == 1
            await bot.client.close()

            class Out:
                text = ""

                def write(self, text: str) -> None:
                    Out.text += text

                def flush(self) -> None:
                    pass

            status = await asyncio.wait_for(
                asyncio.to_thread(
                    play_lines,
                    Join("127.0.0.1", port, host.code, name="x"),
                    stdin=io.BytesIO(),
                    stdout=Out(),  # type: ignore[arg-type]
                ),
                30,
            )
            assert (status, Out.text) == (1, NOT_WELCOMED + "\n")
        finally:
            await server.close()

    asyncio.run(main())
