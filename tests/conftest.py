"""Shared by every test."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Games kept by a test (the end of a scripted input in the line mode,
    a hang-up) go to the test's own directory, not to the recovery directory
    of whoever runs the tests (the next mille there would offer them)."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "state"))
