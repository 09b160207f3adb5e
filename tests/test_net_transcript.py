"""One way through the code for a remote seat: the same seed and the same
typed lines, played at home (``mille --plain``) and over loopback
(``mille --host --plain``, computers in the other seats), give the same
transcript but for the network's own lines (the hosting, the seat, the
seats, the network's commands on the ``?`` page, the host's ``Save game?``).
Both run ``flow.run`` with the line mode's front end: ``which opponent?``
with its sides, the tracker's counts, ``Discard a safety?``, the same
``?`` page."""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys

import pytest

from mille.frontends.remote.lines import NETWORK_HELP

THREE = (  # a hazard's sides, the tracker, the hand so far, a hint, the scores, ?
    ("--seed", "3", "--rules", "classic", "--players", "3", "--people", "0"),
    "p\nu 1\nu 3\nt\np\nd 1\nl\nh\np\nd 2\np\nu 3\nu 3 2\nw\nr\n?\nq\ny\nn\n",
)
FOUR = (  # Discard a safety? (n: nothing changed)
    ("--seed", "3", "--rules", "classic", "--players", "4", "--people", "0"),
    "p\nd 1\np\nd 1\np\nd P\nn\nd 2\nq\ny\nn\n",
)
SEAT_ROW = re.compile(r"^ +\d+ \S.* +(you, the host|a computer)$")
NETWORK = (
    "mille: hosting ",
    "You sit at seat 0 (you host this table",
    "To join this table: ",
    "To watch the table: ",  # (as the host starts)
    "To watch this table: ",  # (who)
    "Seats:",
    "Save game? n",  # the host ends the game for everyone: asked as on its board
)


def transcript(tmp_path: pathlib.Path, game: tuple[tuple[str, ...], str], *args: str) -> list[str]:
    home = tmp_path / args[0].strip("-")
    env = {
        "PATH": "/usr/bin:/bin",
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_DATA_HOME": str(home / "data"),
        "HOME": str(home),
        "LANG": "C.UTF-8",
    }
    run = subprocess.run(
        [sys.executable, "-m", "mille", *args, *game[0]],
        input=game[1],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert run.returncode == 0, (run.stdout, run.stderr)
    assert run.stderr == ""
    return run.stdout.splitlines()


@pytest.mark.parametrize("game", [THREE, FOUR], ids=["three", "four"])
def test_the_line_mode_at_home_and_over_loopback(
    tmp_path: pathlib.Path, game: tuple[tuple[str, ...], str]
) -> None:
    local = transcript(tmp_path, game, "--plain")
    hosted = transcript(tmp_path, game, "--host", "--plain", "--port", "0")
    help_lines = NETWORK_HELP.splitlines()  # ? adds the network's commands
    own = [
        line
        for line in hosted
        if line.startswith(NETWORK) or SEAT_ROW.match(line) or line in help_lines
    ]
    assert own[:3] == [
        hosted[0],
        "To watch the table: " + hosted[1].split(": ", 1)[1],
        "You sit at seat 0 (you host this table: only you may deal, save or end).",
    ]
    assert hosted[1].startswith("To watch the table: mille --watch 127.0.0.1:")
    assert own[-1] == "Save game? n"
    assert [line for line in hosted if line not in own] == local
    # what only the shared flow said before, over the network too
    if game is THREE:
        assert [line for line in own if line in help_lines] == help_lines
        assert "which opponent?" in local
        assert "It can hit sides 2 Comp 1, 3 Comp 2 (u 3 S)." in local
        assert any(line.startswith("Not seen yet: 25: ") for line in local)
        assert "Words work too: pick, use N, discard N, order, window, reprint, hint," in local
    else:
        assert "Discard a safety? n" in local
