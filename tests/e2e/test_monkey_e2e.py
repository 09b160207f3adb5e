"""The monkey (bench/monkey.py), short: random keys, escape sequences, ^C,
saves and resizes; no traceback, no hang, no spin, a whole screen after
every resize burst."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

MONKEY = Path(__file__).resolve().parents[2] / "bench" / "monkey.py"


def run_monkey(keys: int, seed: int, capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("monkey", MONKEY)
    assert spec is not None and spec.loader is not None
    monkey = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(monkey)
    status = monkey.main(["--keys", str(keys), "--seed", str(seed), "--idle", "0.1"])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert '"keys"' in out


def test_a_short_monkey_run(capsys: pytest.CaptureFixture[str]) -> None:
    run_monkey(150, 3, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [4, 5])
def test_a_monkey_run(capsys: pytest.CaptureFixture[str], seed: int) -> None:
    run_monkey(500, seed, capsys)
