"""Headless self-play: the library function and the command line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from mille.selfplay import main, play_hands

KEYS = ["hands", "players", "points", "hand_wins", "hands_per_second", "seconds"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mille.selfplay", *args],
                          capture_output=True, text=True, timeout=120)


def test_play_hands_summary() -> None:
    summary = play_hands(20, 4, ["bsd", "greedy"])
    assert list(summary) == KEYS
    assert summary["hands"] == 20 and summary["players"] == ["bsd", "greedy"]
    assert sum(summary["hand_wins"]) <= 20
    assert all(p > 0 for p in summary["points"])
    assert summary["hands_per_second"] > 0 and summary["seconds"] >= 0


def test_play_hands_is_reproducible() -> None:
    a = play_hands(30, 9, ["bsd", "random"])
    b = play_hands(30, 9, ["bsd", "random"])
    assert (a["points"], a["hand_wins"]) == (b["points"], b["hand_wins"])
    c = play_hands(30, 10, ["bsd", "random"])
    assert c["points"] != a["points"]


def test_mirror_match_is_even_over_many_hands() -> None:
    summary = play_hands(300, 2, ["bsd", "bsd"])
    wins = summary["hand_wins"]
    assert abs(wins[0] - wins[1]) < 0.2 * sum(wins)


def test_play_hands_rejects_bad_names() -> None:
    with pytest.raises(ValueError, match="unknown player"):
        play_hands(1, 0, ["bsd", "nobody"])


def test_cli_prints_one_json_line_last() -> None:
    proc = run("--hands", "15", "--seed", "3", "--players", "bsd,random")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout.splitlines()[-1])
    assert list(summary) == KEYS
    assert summary["players"] == ["bsd", "random"] and summary["hands"] == 15
    assert proc.stderr == ""


def test_cli_matches_library(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--hands", "12", "--seed", "8", "--players", "greedy,bsd"]) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    lib = play_hands(12, 8, ["greedy", "bsd"])
    assert (out["points"], out["hand_wins"]) == (lib["points"], lib["hand_wins"])


def test_cli_progress_goes_to_stderr() -> None:
    proc = run("--hands", "10", "--seed", "1", "--players", "random,greedy", "--progress")
    assert proc.returncode == 0
    assert "10/10" in proc.stderr
    json.loads(proc.stdout.splitlines()[-1])


def test_cli_workers() -> None:
    proc = run("--hands", "20", "--seed", "1", "--players", "bsd,bsd", "--workers", "2")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout.splitlines()[-1])
    assert summary["hands"] == 20 and sum(summary["hand_wins"]) <= 20


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--hands", "0"], "must be at least 1"),
        (["--hands", "x"], "not a whole number"),
        ([], "required: --hands"),
        (["--hands", "2", "--players", "bsd"], "give two players"),
        (["--hands", "2", "--players", "bsd,chess"], "unknown player 'chess'"),
        (["--hands", "2", "--seed", "1.5"], "not a whole number"),
        (["--hands", "2", "--bogus"], "unrecognized arguments"),
    ],
)
def test_cli_bad_arguments(args: list[str], fragment: str) -> None:
    proc = run(*args)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert fragment in proc.stderr
    assert proc.stderr.strip().splitlines()[-1].startswith("python -m mille.selfplay: error:")
    assert proc.stdout == ""
