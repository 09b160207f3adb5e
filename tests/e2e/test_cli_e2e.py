"""End to end: the ``mille`` command's arguments, exits and restore message."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from pathlib import Path

from mille.frontends.cli import USAGE
from support.screen import Term


def test_two_files_usage(spawn: Callable[..., Term]) -> None:
    term = spawn("a", "b")
    assert term.wait_exit() == 1
    assert term.raw.decode().strip() == "usage: mille [file]"


def test_help_and_version(spawn: Callable[..., Term]) -> None:
    term = spawn("--version")
    assert term.wait_exit() == 0
    assert term.raw.decode().strip() == "mille 2.0.0"
    term = spawn("--help")
    assert term.wait_exit() == 0
    assert term.raw.decode().startswith(USAGE + "\r\n")


def test_unreadable_file(spawn: Callable[..., Term], tmp_path: Path) -> None:
    term = spawn(str(tmp_path / "missing"))
    assert term.wait_exit() == 1
    text = term.raw.decode()
    assert text.strip() == f"mille: {tmp_path / 'missing'}: No such file or directory"


def test_save_then_restore_shows_name_and_date(spawn: Callable[..., Term], tmp_path: Path) -> None:
    term = spawn("--seed", "4", cwd=tmp_path)
    term.wait_for(">>:Move:", row=10)
    term.send("p")
    term.wait(lambda: term.lines()[6][2:20].strip() != "", what="a pick")
    board = term.settle()[:15]
    term.send("s")
    term.wait_for("file:", row=10)
    term.send("game1\r")
    term.wait_for("game1 [", row=15)
    line = term.lines()[15][45:]
    assert re.fullmatch(r"game1 \[\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}\]", line.rstrip())
    term.send("s")  # as in BSD, only a restored game asks "Same file?"
    term.wait_for("file:", row=10)
    term.send("game1\r")
    term.wait_for("Overwrite file?", row=10)
    term.send("y")
    term.wait_for(">>:Move:", row=10)
    term.send("q")
    term.wait_for("Really?", row=10)
    term.send("y")
    assert term.wait_exit() == 0

    path = tmp_path / "game1"
    os.utime(path, (1_700_000_000, 1_700_000_000))
    term = spawn("game1", cwd=tmp_path)
    term.wait_for("game1 [", row=15)
    lines = term.settle()
    assert lines[15][45:] == f"game1 [{time.ctime(1_700_000_000)}]"
    assert lines[:15] == board  # the game resumes exactly where it was saved
    term.send("s")
    term.wait_for("Same file?", row=10)
    term.send("n")
    term.wait_for("file:", row=10)
    (tmp_path / "other").write_text("keep me")
    term.send("other\r")
    term.wait_for("Overwrite file?", row=10)
    term.send("n")
    term.wait_for(">>:Move:", row=10)
    assert (tmp_path / "other").read_text() == "keep me"


def test_save_failure_shows_the_reason(spawn: Callable[..., Term], tmp_path: Path) -> None:
    term = spawn("--seed", "4", cwd=tmp_path)
    term.wait_for(">>:Move:", row=10)
    term.send("s")
    term.wait_for("file:", row=10)
    term.send("no/such/dir/g\r")
    term.wait_for("No such file or directory", row=15)
    assert term.lines()[15][45:].rstrip() == "No such file or directory"


FAULT = """
import sys, termios
from mille.frontends import cli, ui

def boom(self):
    raise RuntimeError("injected fault")

ui.Ui.human_turn = boom
status = cli.main(["--seed", "1"])
lflag = termios.tcgetattr(0)[3]
print("restored" if lflag & termios.ICANON and lflag & termios.ECHO else "raw")
sys.exit(status)
"""


def test_internal_error_restores_the_terminal(spawn: Callable[..., Term], tmp_path: Path) -> None:
    import sys

    script = tmp_path / "fault.py"
    script.write_text(FAULT)
    term = spawn(str(script), command=sys.executable)
    assert term.wait_exit() == 1
    text = term.raw.decode(errors="replace")
    assert "mille: internal error: RuntimeError: injected fault" in text
    assert "restored" in text and "Traceback" not in text


def test_sigterm_restores_the_terminal(spawn: Callable[..., Term]) -> None:
    import signal

    term = spawn("--seed", "1")
    term.wait_for(">>:Move:", row=10)
    term.child.kill(signal.SIGTERM)
    assert term.wait_exit() == 1
    assert b"Traceback" not in term.raw
    restored, _, told = term.raw.rpartition(b"\x1b[?1049l")
    assert restored, "the terminal is restored"
    assert b"\x1b[" not in told.replace(b"\x1b[?1l\x1b>", b""), "nothing drawn after that"
    assert told.strip().startswith(b"\x1b[?1l\x1b>mille: terminated; ")
