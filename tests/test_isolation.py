"""The tests keep their games to themselves: a game kept by a test (the end
of a scripted input, a hang-up) goes to a directory of its own, never to
the recovery directory of the person running the tests, where the next
``mille`` would offer it."""

from __future__ import annotations

from pathlib import Path

import pytest

from mille.storage import recovery


def test_kept_games_go_to_a_private_directory(tmp_path_factory: pytest.TempPathFactory) -> None:
    base = tmp_path_factory.getbasetemp().resolve()
    assert base in Path(recovery.directory()).resolve().parents
