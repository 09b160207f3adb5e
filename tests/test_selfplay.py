"""Headless self-play: the library functions and the command line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from mille.engine.rules import find_rules
from mille.selfplay import main, play_games, play_hands

KEYS = [
    "rules",
    "team_mode",
    "players",
    "seats",
    "hands",
    "games",
    "points",
    "hand_wins",
    "game_wins",
    "hands_per_second",
    "seconds",
]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mille.selfplay", *args], capture_output=True, text=True, timeout=120
    )


def test_play_hands_summary() -> None:
    summary = play_hands(20, 4, ["standard", "greedy"])
    assert list(summary) == KEYS
    assert summary["rules"] == "bsd" and summary["seats"] == [[0], [1]]
    assert summary["hands"] == 20 and summary["players"] == ["standard", "greedy"]
    assert sum(summary["hand_wins"]) <= 20
    assert all(p > 0 for p in summary["points"])
    assert summary["hands_per_second"] > 0 and summary["seconds"] >= 0


def test_play_hands_by_side_with_teams() -> None:
    rules = find_rules("classic", players=6)
    names = ["standard", "random", "greedy", "standard", "random", "greedy"]
    summary = play_hands(12, 2, names, rules)
    assert summary["team_mode"] == "2v2v2"
    assert summary["seats"] == [[0, 3], [1, 4], [2, 5]]
    assert len(summary["points"]) == len(summary["hand_wins"]) == 3
    assert sum(summary["hand_wins"]) <= 12


def test_play_hands_is_reproducible() -> None:
    rules = find_rules("milebymile", players=3, karma=True)
    a = play_hands(15, 9, ["standard", "random", "greedy"], rules)
    b = play_hands(15, 9, ["standard", "random", "greedy"], rules)
    assert (a["points"], a["hand_wins"]) == (b["points"], b["hand_wins"])
    c = play_hands(15, 10, ["standard", "random", "greedy"], rules)
    assert c["points"] != a["points"]


def test_play_games_to_the_winning_score() -> None:
    rules = find_rules("milebymile", winning_score=1000, distance=500)
    summary = play_games(3, 1, ["standard", "greedy"], rules)
    assert summary["games"] == 3 and sum(summary["game_wins"]) == 3
    assert summary["hands"] >= 3


def test_mirror_match_is_even_over_many_hands() -> None:
    summary = play_hands(300, 2, ["heuristic", "heuristic"], find_rules("classic"))
    wins = summary["hand_wins"]
    assert abs(wins[0] - wins[1]) < 0.2 * sum(wins)


def test_play_hands_rejects_bad_players() -> None:
    with pytest.raises(ValueError, match="unknown player"):
        play_hands(1, 0, ["standard", "nobody"])
    with pytest.raises(ValueError, match="3 players for 2 seats"):
        play_hands(1, 0, ["standard", "random", "random"])


def test_cli_prints_one_json_line_last() -> None:
    proc = run("--hands", "15", "--seed", "3", "--players", "bsd,random")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout.splitlines()[-1])
    assert list(summary) == KEYS
    assert summary["players"] == ["bsd", "random"] and summary["hands"] == 15
    assert proc.stderr == ""


def test_cli_matches_library(capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "--hands",
        "12",
        "--seed",
        "8",
        "--players",
        "greedy,standard,random,standard",
        "--rules",
        "milebymile",
        "--teams",
        "2v2",
        "--stacking",
        "--no-reshuffle",
        "--rigging",
        "2x-defenses",
        "--distance",
        "700",
    ]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    rules = find_rules(
        "milebymile",
        players=4,
        team_mode="2v2",
        stacking=True,
        reshuffle=False,
        rigging="2x defenses",
        distance=700,
    )
    lib = play_hands(12, 8, ["greedy", "standard", "random", "standard"], rules)
    assert (out["points"], out["hand_wins"]) == (lib["points"], lib["hand_wins"])
    assert out["seats"] == [[0, 2], [1, 3]]


def test_cli_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "--games",
        "1",
        "--players",
        "standard,random,random",
        "--rules",
        "milebymile",
        "--winning-score",
        "1000",
        "--no-perfect-crossing",
        "--karma",
        "--no-always-discard",
        "--rigging",
        "no duplicates",
    ]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["games"] == 1 and out["hands"] >= 1


def test_cli_progress_goes_to_stderr() -> None:
    proc = run("--hands", "10", "--seed", "1", "--players", "random,greedy", "--progress")
    assert proc.returncode == 0
    assert "10/10" in proc.stderr
    json.loads(proc.stdout.splitlines()[-1])


def test_cli_workers() -> None:
    proc = run(
        "--hands",
        "20",
        "--seed",
        "1",
        "--players",
        "standard,greedy,random",
        "--rules",
        "classic",
        "--workers",
        "2",
    )
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout.splitlines()[-1])
    assert summary["hands"] == 20 and sum(summary["hand_wins"]) <= 20
    assert len(summary["points"]) == 3


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--hands", "0"], "must be at least 1"),
        (["--hands", "x"], "not a whole number"),
        ([], "one of the arguments --hands --games is required"),
        (["--hands", "2", "--games", "2"], "not allowed with argument"),
        (["--hands", "2", "--players", "bsd,chess"], "unknown player 'chess'"),
        (["--hands", "2", "--seed", "1.5"], "not a whole number"),
        (["--hands", "2", "--bogus"], "unrecognized arguments"),
        (["--hands", "2", "--rules", "poker"], "invalid choice: 'poker'"),
        (["--hands", "2", "--rigging", "3x"], "unknown deck rigging '3x'"),
    ],
)
def test_cli_bad_arguments(args: list[str], fragment: str) -> None:
    proc = run(*args)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("selfplay: ")
    assert fragment in proc.stderr
    assert proc.stdout == ""


@pytest.mark.parametrize(
    "args, message",
    [
        (["--players", "standard"], "bsd needs 2 players"),
        (
            ["--rules", "classic", "--players", "random,random,random,random,random"],
            "classic needs 2, 3, 4 or 6 players",
        ),
        (["--rules", "classic", "--teams", "2v2"], "classic has no team mode option"),
        (["--rules", "milebymile", "--karma"], "karma rule needs 3 or more sides"),
        (
            [
                "--rules",
                "milebymile",
                "--players",
                "random,random,random,random,random",
                "--teams",
                "2v2",
            ],
            "team mode not available for 5 players",
        ),
        (
            ["--rules", "milebymile", "--distance", "310"],
            "perfect crossing needs a race distance in 25s",
        ),
        (["--rules", "milebymile", "--distance", "250"], "race distance must be 300 to 3000"),
        (["--stacking"], "bsd has no stacking attacks option"),
    ],
)
def test_cli_rules_errors(args: list[str], message: str) -> None:
    proc = run("--hands", "2", *args)
    assert proc.returncode == 1
    assert proc.stderr == f"selfplay: {message}\n"
    assert proc.stdout == ""
