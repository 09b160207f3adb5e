"""The monkey (bench/monkey.py), short: random keys, escape sequences, ^C,
saves and resizes; no traceback, no hang, no spin, a whole screen after
every resize burst."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

MONKEY = Path(__file__).resolve().parents[2] / "bench" / "monkey.py"


def run_monkey(keys: int, seed: int, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    """Run the monkey; its report (it fails on a traceback, hang, spin or bad screen)."""
    spec = importlib.util.spec_from_file_location("monkey", MONKEY)
    assert spec is not None and spec.loader is not None
    monkey = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(monkey)
    status = monkey.main(["--keys", str(keys), "--seed", str(seed), "--idle", "0.1"])
    out, err = capsys.readouterr()
    assert status == 0, err
    report: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return report


def test_a_short_monkey_run(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_monkey(150, 3, capsys)
    assert isinstance(report["keys"], int) and report["keys"] >= 150


@pytest.mark.slow
@pytest.mark.parametrize("seed", [4, 5])
def test_a_monkey_run(capsys: pytest.CaptureFixture[str], seed: int) -> None:
    report = run_monkey(500, seed, capsys)
    assert isinstance(report["keys"], int) and report["keys"] >= 500
