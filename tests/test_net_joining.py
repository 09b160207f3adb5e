"""Joining that holds: refusals in one line, fast, with an exit status that
says what happened; a quick rejoin takes its seat over; errors that name
their cause and the way out; a joiner that starts before the host waits
for it; the join command names an address a friend can reach; a host whose
input is not a terminal names the command that resumes its kept game.
Real ``mille`` processes over loopback."""

from __future__ import annotations

import asyncio
import io
import os
import pathlib
import select
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from mille.engine.rules import find_rules
from mille.frontends.remote.hosting import join_command
from mille.frontends.remote.lines import play_lines
from mille.frontends.remote.link import Join
from mille.frontends.remote.seat import ENDED_STATUS, FAILED_STATUS, REFUSED_STATUS
from mille.frontends.remote.tls import client_tls, server_tls
from mille.game.session import Session
from mille.net.client import address_text
from mille.net.server import Host, Limits, Server
from mille.net.wire import PROTOCOL
from mille.storage import recovery
from mille.storage.seatfile import name_for

WRONG_CODE_LINE = (  # with a word of the new command a resumed table has (issue 40, item 12)
    "mille: wrong join code (a host that resumed a kept game, or started again,"
    " has a new join command: ask for it)"
)


class Table:
    """A server in a thread of its own (on ``port``, or any), with one
    classic table whose only person seat is seat 1."""

    def __init__(self, port: int = 0, context: Any = None) -> None:
        self.wanted = (port, context)
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.ready.wait(30)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._main())
        self.loop.close()

    async def _main(self) -> None:
        self.stop = asyncio.Event()
        self.server = Server(Limits(grace=600))
        session = Session.new(find_rules("classic", players=4), seed=3, humans=(1,))
        self.host = self.server.add(Host(session))
        _, self.port = await self.server.start("127.0.0.1", *self.wanted)
        self.ready.set()
        await self.stop.wait()
        await self.server.close()

    def call(self, work: Callable[[], Any]) -> Any:
        async def run() -> Any:
            return work()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(10)

    def wait_for(self, test: Callable[[], bool], what: str, timeout: float = 30) -> None:
        end = time.monotonic() + timeout
        while not self.call(test):
            assert time.monotonic() < end, what
            time.sleep(0.05)

    def shut(self) -> None:
        self.loop.call_soon_threadsafe(self.stop.set)
        self.thread.join(10)


@pytest.fixture
def table() -> Iterator[Table]:
    table = Table()
    yield table
    table.shut()


class Joiner:
    """``mille --join 127.0.0.1:PORT CODE --plain ...``, its standard input
    held open (its end would be a goodbye)."""

    def __init__(self, port: int, code: str, *more: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "mille", "--join", f"127.0.0.1:{port}", code, "--plain", *more],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.out: list[str] = []
        self.err: list[str] = []
        self.readers = [
            threading.Thread(target=self._read, args=(stream, lines), daemon=True)
            for stream, lines in ((self.proc.stdout, self.out), (self.proc.stderr, self.err))
        ]
        for reader in self.readers:
            reader.start()

    @staticmethod
    def _read(stream: Any, lines: list[str]) -> None:
        for line in stream:
            lines.append(line.rstrip("\n"))

    def wait_for(self, line: str, timeout: float = 30) -> None:
        end = time.monotonic() + timeout
        while line not in self.out:
            assert self.proc.poll() is None or line in self.out, (line, self.out, self.err)
            assert time.monotonic() < end, (line, self.out, self.err)
            time.sleep(0.05)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def exit_status(self) -> int:
        status = self.proc.wait(30)
        for reader in self.readers:
            reader.join(5)
        return status


def piped_join(port: int, code: str, *more: str) -> tuple[int, str, str, float]:
    """``mille --join ... --plain`` with a script on its standard input
    (whose end comes at once): status, stdout, stderr, seconds taken."""
    start = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-m", "mille", "--join", f"127.0.0.1:{port}", code, "--plain", *more],
        input="p\nw\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    return run.returncode, run.stdout, run.stderr, time.monotonic() - start


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


# ----- refusals: one line, fast, an exit status -------------------------------------------


def test_a_wrong_code_is_one_line_at_once_with_its_status(table: Table) -> None:
    for _ in range(3):  # the first few from an address are answered at once
        status, out, err, took = piped_join(table.port, "wrongwrongxx")
        assert (status, out, err) == (REFUSED_STATUS, WRONG_CODE_LINE + "\n", "")
        assert took < 5, took  # (a process's start under load; the answer itself is at once)


def test_a_full_table_is_one_line_with_its_status(table: Table) -> None:
    first = Joiner(table.port, table.host.code)
    try:
        first.wait_for("You sit at seat 1.")
        status, out, err, _ = piped_join(table.port, table.host.code)
        assert (status, out, err) == (REFUSED_STATUS, "mille: every person seat is taken\n", "")
    finally:
        first.kill()


NO_CURSES = (  # mille's command line, where curses cannot be imported
    "import sys; sys.modules['curses'] = sys.modules['_curses'] = None; "
    "from mille.frontends.cli import main; sys.exit(main(sys.argv[1:]))"
)


def test_the_line_mode_joins_and_plays_where_curses_cannot_be_imported(table: Table) -> None:
    """``mille --join --plain`` runs with curses unimportable: it takes
    its seat, plays what is typed and leaves the table (before, the line
    mode's network module imported the boards' and so curses)."""
    run = subprocess.run(
        [sys.executable, "-c", NO_CURSES, "--join", f"127.0.0.1:{table.port}", table.host.code,
         "--plain"],
        input="who\n",
        capture_output=True,
        text=True,
        timeout=60,
    )  # fmt: skip
    lines = run.stdout.splitlines()
    assert (run.returncode, run.stderr) == (ENDED_STATUS, "")
    assert lines[:2] == ["You sit at seat 1.", "Seats:"]
    assert lines[-2:] == [
        "You leave the table; your seat waits for you.",
        f"To come back: mille --join 127.0.0.1:{table.port} {table.host.code}",
    ]


def board_join(port: int, code: str) -> tuple[int, bytes, bytes]:
    """``mille --join`` on a terminal (a pty), its standard error apart:
    status, what the terminal showed, standard error."""
    import pty

    main, child = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "mille", "--join", f"127.0.0.1:{port}", code],
        stdin=child,
        stdout=child,
        stderr=subprocess.PIPE,
    )
    os.close(child)
    shown = b""
    end = time.monotonic() + 30
    while time.monotonic() < end:
        if not select.select([main], [], [], 1)[0]:
            continue
        try:
            chunk = os.read(main, 4096)
        except OSError:  # the terminal's other end is closed
            break
        if not chunk:
            break
        shown += chunk
    os.close(main)
    assert proc.stderr is not None
    said = proc.stderr.read()
    return proc.wait(30), shown, said


def test_a_refused_board_join_is_one_line_and_nothing_else(table: Table) -> None:
    """Before the board starts: the one line, status 2, and nothing on
    standard error (asyncio's 'coroutine ... was never awaited' came after
    some refusals), the slowed answers too."""
    for _ in range(5):
        status, shown, said = board_join(table.port, "wrongwrongxx")
        assert (status, shown, said) == (REFUSED_STATUS, WRONG_CODE_LINE.encode() + b"\r\n", b"")


def test_the_first_wrong_codes_are_not_slowed_then_they_are() -> None:
    async def main() -> list[float]:
        server = Server(Limits(fail_delay=1.0, max_fail_delay=1.0))
        server.add(Host(Session.new(find_rules("classic", players=4), seed=1, humans=(0, 1))))
        _, port = await server.start()
        times = []
        try:
            for _ in range(4):
                start = time.monotonic()
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(b'{"type":"hello","protocol":3,"code":"wrongwrongxx"}\n')
                assert b"wrong-code" in await asyncio.wait_for(reader.readline(), 10)
                times.append(time.monotonic() - start)
                writer.close()
        finally:
            await server.close()
        return times

    times = asyncio.run(main())
    assert max(times[:3]) < 0.9 and times[3] >= 1.0, times  # (0.9: room for a loaded machine)


def test_a_piped_join_that_plays_and_leaves_exits_0(table: Table) -> None:
    status, out, err, _ = piped_join(table.port, table.host.code)
    assert (status, err) == (ENDED_STATUS, "")
    assert out.startswith("You sit at seat 1.\n")


# ----- a quick rejoin takes the seat over ----------------------------------------------------


def asleep(proc: subprocess.Popen[str]) -> bool:
    """Whether ``proc`` sleeps now (Linux's ``/proc``: a program that
    waits for a seat file another holds looks again every 50 ms, and
    sleeps between two looks: in clock_nanosleep, or on Python 3.10 in
    select, where ``time.sleep`` waits)."""
    sleep = "nanosleep" if sys.version_info >= (3, 11) else "poll_schedule_timeout"
    try:
        return sleep in pathlib.Path(f"/proc/{proc.pid}/wchan").read_text()
    except OSError:
        return False


@pytest.mark.skipif(
    not os.path.exists(f"/proc/{os.getpid()}/wchan"), reason="no /proc/PID/wchan to watch"
)
def test_a_rejoin_while_the_old_program_still_ends_takes_the_seat_over(table: Table) -> None:
    """The old ``mille --join`` still holds its seat file and its connection
    (its terminal just closed: here it is stopped), then ends a moment
    later: the new one waits for the file and takes the seat, not a new one."""
    first = Joiner(table.port, table.host.code)
    second = None
    try:
        first.wait_for("You sit at seat 1.")
        path = pathlib.Path(recovery.directory()) / name_for(
            "127.0.0.1", table.port, table.host.code, 1
        )
        table.wait_for(lambda: path.exists(), "the seat file")
        first.proc.send_signal(signal.SIGSTOP)
        second = Joiner(table.port, table.host.code)
        table.wait_for(lambda: asleep(second.proc), "the new program waiting for the seat file")
        first.kill()  # the old program ends a moment later
        second.wait_for("You sit at seat 1.")
        assert "mille: every person seat is taken" not in second.out
        table.wait_for(lambda: table.host.seats[1].conn is not None, "seat 1 taken back")
        assert second.err == []
    finally:
        first.kill()
        if second is not None:
            second.kill()


def test_a_board_joiner_whose_terminal_closes_lets_its_seat_go_at_once(table: Table) -> None:
    """A board joiner's terminal closes: the program ends within a moment
    (it waited 5 s for a hang-up the host's answer to its bye had made
    moot, holding the seat file), and the same mille --join run at once
    takes the seat back."""
    import fcntl
    import pty
    import struct
    import termios

    main, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    board = subprocess.Popen(
        [sys.executable, "-m", "mille", "--join", f"127.0.0.1:{table.port}", table.host.code],
        stdin=child,
        stdout=child,
        stderr=child,
        env=dict(os.environ, TERM="xterm"),
        start_new_session=True,  # the terminal is its own: closing it hangs up on it
    )
    os.close(child)
    try:
        path = pathlib.Path(recovery.directory()) / name_for(
            "127.0.0.1", table.port, table.host.code, 1
        )
        table.wait_for(lambda: table.host.seats[1].conn is not None and path.exists(), "seated")
        shown, end = b"", time.monotonic() + 30
        while len(shown) < 500 and time.monotonic() < end:  # the board is up
            if select.select([main], [], [], 0.2)[0]:
                shown += os.read(main, 65536)
        os.close(main)  # the terminal closes
        closed = time.monotonic()
        status, out, err, _ = piped_join(table.port, table.host.code)
        assert (status, err) == (ENDED_STATUS, "")
        assert out.startswith("You sit at seat 1.\n"), out
        board.wait(30)
        assert time.monotonic() - closed < 5
    finally:
        if board.poll() is None:
            board.kill()
            board.wait(10)


def test_a_token_takes_its_seat_over_from_a_live_connection(table: Table) -> None:
    async def main() -> list[dict[str, Any]]:
        import json

        old_reader, old_writer = await asyncio.open_connection("127.0.0.1", table.port)
        hello = {"type": "hello", "protocol": PROTOCOL, "code": table.host.code, "name": "x"}
        old_writer.write(json.dumps(hello).encode() + b"\n")
        welcome = json.loads(await old_reader.readline())
        reader, writer = await asyncio.open_connection("127.0.0.1", table.port)
        again = {"type": "hello", "protocol": PROTOCOL, "code": table.host.code}
        writer.write(json.dumps(again | {"token": welcome["token"]}).encode() + b"\n")
        answer = json.loads(await reader.readline())
        told = []
        while line := await asyncio.wait_for(old_reader.readline(), 10):
            told.append(json.loads(line))
        writer.close()
        old_writer.close()
        return [answer, told[-1]]

    welcome, last = asyncio.run(main())
    assert (welcome["type"], welcome["seat"]) == ("welcome", 1)
    assert last == {"type": "error", "code": "taken-over", "values": {}}


# ----- errors that name their cause and the way out --------------------------------------------


def mille(*args: str, wait: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mille", *args],
        capture_output=True,
        text=True,
        timeout=wait,
        stdin=subprocess.DEVNULL,
    )


def test_a_busy_port_says_so_whole_with_the_way_out() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = mille("--host", "--plain", "--port", str(port))
    assert (run.returncode, run.stdout) == (1, "")
    assert run.stderr == (
        f"mille: cannot listen on 127.0.0.1:{port}: the port is in use "
        "(another mille --host?): --port 0 takes a free one\n"
    )


def test_a_missing_certificate_or_key_is_named(tmp_path: pathlib.Path) -> None:
    missing = tmp_path / "nothing.pem"
    run = mille("--host", "--plain", "--cert", str(missing), "--key", str(missing))
    assert (run.returncode, run.stderr) == (
        1,
        f"mille: cannot read the certificate {missing}: No such file or directory\n",
    )
    cert, key = certificate(tmp_path, "a")
    run = mille("--host", "--plain", "--cert", str(cert), "--key", str(missing))
    assert (run.returncode, run.stderr) == (
        1,
        f"mille: cannot read the key {missing}: No such file or directory\n",
    )
    run = mille("--join", "127.0.0.1:9", "code", "--plain", "--cert", str(missing))
    assert (run.returncode, run.stderr) == (
        FAILED_STATUS,
        f"mille: cannot read the certificate {missing}: No such file or directory\n",
    )


def test_a_certificate_or_key_that_cannot_be_used_says_why(tmp_path: pathlib.Path) -> None:
    garbage = tmp_path / "garbage.pem"
    garbage.write_text("not a certificate\n")
    cert, _ = certificate(tmp_path, "a")
    _, key = certificate(tmp_path, "b")
    cases = [
        (
            ("--host", "--cert", str(garbage), "--key", str(garbage)),
            f"cannot use the certificate {garbage} with the key {garbage}: "
            "not a certificate and its key in PEM form",
        ),
        (
            ("--host", "--cert", str(cert), "--key", str(key)),
            f"cannot use the certificate {cert} with the key {key}: "
            "the key is not the certificate's",
        ),
        (
            ("--join", "127.0.0.1:9", "code", "--cert", str(garbage)),
            f"cannot use the certificate {garbage}: no certificate in it (PEM form)",
        ),
    ]
    for args, line in cases:
        run = mille(*args, "--plain")
        assert (run.returncode, run.stdout, run.stderr) == (1, "", f"mille: {line}\n")


def test_an_address_not_of_this_machine_says_so() -> None:
    run = mille("--host", "--plain", "--listen", "203.0.113.99", "--port", "0")  # binds only
    assert (run.returncode, run.stderr) == (
        1,
        "mille: cannot listen on 203.0.113.99:0: no such address on this machine "
        "(--listen 0.0.0.0 listens on every one)\n",
    )


def certificate(folder: pathlib.Path, name: str) -> tuple[pathlib.Path, pathlib.Path]:
    if shutil.which("openssl") is None:
        pytest.skip("no openssl to make a certificate")
    cert, key = folder / f"{name}-cert.pem", folder / f"{name}-key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
         "-out", str(cert), "-days", "1", "-subj", "/CN=mille"],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return cert, key


def test_a_certificate_that_does_not_verify_says_so(tmp_path: pathlib.Path) -> None:
    cert, key = certificate(tmp_path, "host")
    other, _ = certificate(tmp_path, "other")

    class Out:
        text = ""

        def write(self, text: str) -> None:
            Out.text += text

        def flush(self) -> None:
            pass

    async def main() -> int:
        server = Server()
        session = Session.new(find_rules("classic", players=4), seed=1, humans=(0, 1))
        host = server.add(Host(session, host_seat=0))
        _, port = await server.start("127.0.0.1", 0, server_tls(str(cert), str(key)))
        Out.port = port  # type: ignore[attr-defined]
        join = Join("127.0.0.1", port, host.code, name="x", context=client_tls(str(other)))
        try:
            return await asyncio.wait_for(
                asyncio.to_thread(
                    play_lines,
                    join,
                    stdin=io.BytesIO(),
                    stdout=Out(),  # type: ignore[arg-type]
                ),
                30,
            )
        finally:
            await server.close()

    status = asyncio.run(main())
    port = Out.port  # type: ignore[attr-defined]
    assert (status, Out.text) == (
        FAILED_STATUS,
        f"mille: cannot reach 127.0.0.1:{port}: the host's certificate did not verify "
        "(is --cert a copy of the host's own?)\n",
    )


# ----- a joiner before the host ---------------------------------------------------------------


def test_a_joiner_before_the_host_takes_its_seat_when_the_host_comes() -> None:
    port = free_port()
    code = "abcdefghjkmn"

    class CodedTable(Table):
        async def _main(self) -> None:
            self.stop = asyncio.Event()
            self.server = Server(Limits(grace=600))
            session = Session.new(find_rules("classic", players=4), seed=3, humans=(1,))
            self.host = self.server.add(Host(session, code=code))
            _, self.port = await self.server.start("127.0.0.1", port)
            self.ready.set()
            await self.stop.wait()
            await self.server.close()

    joiner = Joiner(port, code, "--wait", "60")
    table = None
    try:
        joiner.wait_for(f"mille: waiting for the host at 127.0.0.1:{port}... (^C to stop)")
        table = CodedTable()
        joiner.wait_for("You sit at seat 1.")
        assert (
            joiner.out.count(f"mille: waiting for the host at 127.0.0.1:{port}... (^C to stop)")
            == 1
        )
    finally:
        joiner.kill()
        if table is not None:
            table.shut()


def test_the_wait_for_a_host_is_bounded() -> None:
    port = free_port()
    start = time.monotonic()
    run = mille("--join", f"127.0.0.1:{port}", "code", "--plain", "--wait", "1")
    assert time.monotonic() - start < 30
    assert (run.returncode, run.stderr) == (FAILED_STATUS, "")
    assert run.stdout == (
        f"mille: waiting for the host at 127.0.0.1:{port}... (^C to stop)\n"
        f"mille: cannot reach 127.0.0.1:{port}: Connection refused\n"
    )


# ----- the join command ------------------------------------------------------------------------


def test_the_join_command_names_an_address_a_friend_can_reach(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A host on every address (``0.0.0.0``, ``::``) names this machine's
    address of that family, found by the outward probe (patched here: no
    socket is made to any address but loopback), else the host name's
    addresses that are not loopback, else the host name."""
    from mille.frontends.remote import hosting as remote

    assert (
        join_command("127.0.0.1", 7477, "k4mxq7hzp2wd")
        == "mille --join 127.0.0.1:7477 k4mxq7hzp2wd"
    )
    assert join_command("::1", 80, "abc", "c.pem") == "mille --join [::1]:80 abc --cert c.pem"
    assert join_command("192.0.2.7", 80, "abc") == "mille --join 192.0.2.7:80 abc"
    # The addresses below are strings only (IPv4 and IPv6 documentation
    # ranges, never reached): outward_address and getaddrinfo are patched,
    # no socket is opened.  A choice of an address that is not loopback
    # cannot be tested with loopback ones, which it passes over.
    probed: list[int] = []

    def outward(family: int, probe_address: str) -> str | None:
        probed.append(family)
        return "2001:db8::7" if family == socket.AF_INET6 else "192.0.2.7"

    monkeypatch.setattr(remote, "outward_address", outward)
    monkeypatch.setattr(socket, "getaddrinfo", lambda *args, **kwargs: [])
    assert join_command("0.0.0.0", 7477, "abc") == "mille --join 192.0.2.7:7477 abc"
    # (asyncio's :: is IPv6 alone: an address of that kind)
    assert join_command("::", 7477, "abc") == "mille --join [2001:db8::7]:7477 abc"
    assert probed == [socket.AF_INET, socket.AF_INET6]
    monkeypatch.setattr(remote, "outward_address", lambda family, probe_address: "127.0.0.1")
    infos = [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("198.51.100.4", 0))]
    monkeypatch.setattr(socket, "getaddrinfo", lambda *args, **kwargs: infos)
    assert join_command("0.0.0.0", 1, "abc") == "mille --join 198.51.100.4:1 abc"
    monkeypatch.setattr(socket, "getaddrinfo", lambda *args, **kwargs: [])
    assert join_command("0.0.0.0", 1, "abc") == f"mille --join {socket.gethostname()}:1 abc"
    assert address_text("::1", 7) == "[::1]:7"


def test_a_host_shows_the_join_command_for_its_address() -> None:
    """The command the host prints is ``join_command``'s for the address it
    listens on (a loopback one here: the tests open no other)."""
    env = os.environ.copy()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mille",
            "--host",
            "--plain",
            "--listen",
            "127.0.0.1",
            "--port",
            "0",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(3)]
        command = lines[2].strip()
        port = int(lines[0].rstrip(".\n").rpartition(":")[2])
        assert command.startswith("mille --join 127.0.0.1:"), lines
        assert command == join_command("127.0.0.1", port, command.split()[3])
    finally:
        proc.kill()
        proc.wait(10)


def test_the_man_page_names_the_join_command_as_it_is_typed() -> None:
    page = (pathlib.Path(__file__).resolve().parent.parent / "mille.6").read_text()
    assert ".Fl -join Ar address : Ns Ar port code\n" in page
    assert "Op : Ns Ar port" not in page and "Oo : Ns Ar port Oc" not in page


# ----- a host whose input is not a terminal ------------------------------------------------------


def test_a_host_off_a_terminal_names_the_command_that_resumes_a_kept_game() -> None:
    from mille.storage import recovery

    session = Session.new(find_rules("classic", players=4), seed=1, humans=(0, 1))
    path = recovery.write(session)
    try:
        run = subprocess.run(
            [sys.executable, "-m", "mille", "--host", "--plain", "--port", "0"],
            input="",
            capture_output=True,
            text=True,
            timeout=60,
        )
        first = run.stderr.splitlines()[0]
        assert first.startswith("mille: a kept game is waiting (classic, 4 ")
        assert first.endswith(f"): run mille --host {path} to resume it")
    finally:
        os.unlink(path)
