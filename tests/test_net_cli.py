"""``mille --host`` and ``mille --join`` on the command line, the client's
own lines, and docs/protocol.md against the code."""

from __future__ import annotations

import pathlib
import re
import socket
import subprocess
import sys

import pytest

from mille.frontends.cli import USAGE, Network, UsageError, parse_args
from mille.frontends.remote import split_address
from mille.net.client import Remote
from mille.net.wire import MESSAGES, PROTOCOL, ProtocolError

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_the_network_options() -> None:
    assert parse_args(["--host"]).net == Network()
    options = parse_args(["--host", "--rules", "classic", "--players", "4", "--people", "2",
                          "--listen", "::", "--port", "0", "--grace", "5"])  # fmt: skip
    assert options.net == Network(listen="::", port=0, grace=5.0, people=2)
    assert options.rules is not None and options.rules.players == 4
    joined = parse_args(["--join", "example.org:7000", "abc", "--name", "Ann"]).net
    assert joined == Network(join=("example.org:7000", "abc"), name="Ann")
    assert parse_args(["--host", "game.sav"]).file == "game.sav"


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["--name", "x"], "mille: --name goes with --host or --join"),
        (["--host", "--join", "a", "b"], "mille: --host and --join cannot be used together"),
        (["--join", "a", "b", "--listen", "::"], "mille: --listen goes with --host"),
        (["--join", "a", "b", "file"], "mille: --join takes no file: the host holds the game"),
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
    run = mille("--join", f"127.0.0.1:{port}", "code")
    assert run.returncode == 1
    assert run.stdout == f"mille: cannot reach 127.0.0.1:{port}: Connection refused\n"
    run = mille("--join", "127.0.0.1:x", "code")
    assert (run.returncode, run.stderr) == (1, "mille: bad port: x\n")


def test_host_option_errors_are_one_line() -> None:
    run = mille("--host", "--cert", "c.pem")
    assert (run.returncode, run.stderr) == (1, "mille: --cert and --key go together\n")
    run = mille("--host", "--rules", "classic", "--players", "4", "--people", "5")
    assert (run.returncode, run.stderr) == (1, "mille: --people must be 1 to 4\n")
    run = mille("--host", "--cert", "/nonexistent.pem", "--key", "/nonexistent.pem")
    assert run.returncode == 1
    assert run.stderr.startswith("mille: cannot use the certificate: ")
    assert run.stderr.count("\n") == 1


def test_a_host_of_another_version_is_one_line() -> None:
    with pytest.raises(ProtocolError) as refused:
        Remote().welcome({"type": "welcome", "protocol": PROTOCOL + 1, "seat": 1})
    assert refused.value.message == (
        "the host speaks mille protocol 2, not 1: play with the same version of mille"
    )


def test_the_protocol_page_lists_every_error_as_the_code_says() -> None:
    page = (ROOT / "docs" / "protocol.md").read_text()
    rows = dict(re.findall(r"^\| `([a-z-]+)` \| `([^`]*)`", page, re.MULTILINE))
    for code, message in MESSAGES.items():
        assert rows.get(code) == message, code
    assert f'"protocol": {PROTOCOL}' in page or f'"protocol":{PROTOCOL}' in page
