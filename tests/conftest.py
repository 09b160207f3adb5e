"""Shared by every test: a private state directory, and ``spawn`` for the
end-to-end tests (``mille`` in a pty, read through pyte)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from support.screen import Term


@pytest.fixture(autouse=True)
def _private_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Games kept by a test (the end of a scripted input in the line mode,
    a hang-up) go to the test's own directory, not to the recovery directory
    of whoever runs the tests (the next mille there would offer them); the
    games finished by a test are recorded in its own data directory."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "state"))


@pytest.fixture(autouse=True)
def _in_english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The tests read English, whatever the language of whoever runs them:
    LANGUAGE comes first in the order mille reads (the ``mille`` the
    end-to-end tests start inherits it); the tests of another language
    choose it themselves, and the language in-process is English again
    after each test."""
    monkeypatch.setenv("LANGUAGE", "en")
    yield
    from mille import i18n

    i18n.use(None)


@pytest.fixture(autouse=True)
def _not_a_first_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """The boards in a test start as on a user's later runs (BSD's first
    screen exactly, no ``welcomed`` file written); the tests of the first
    run undo this (``first_run`` in tests/test_first_run.py)."""
    from mille.storage import firstrun

    monkeypatch.setattr(firstrun, "first_run", lambda: False)


@pytest.fixture
def spawn() -> Iterator[Callable[..., Term]]:
    """``spawn(*args, rows=24, cols=80, cwd=None)``: start mille; killed after the test."""
    started: list[Term] = []

    def start(*args: str, **kwargs: object) -> Term:
        term = Term(*args, **kwargs)  # type: ignore[arg-type]
        started.append(term)
        return term

    yield start
    for term in reversed(started):  # a Term sharing another's state directory goes first
        term.close()
