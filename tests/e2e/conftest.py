"""Fixtures for the end-to-end tests: ``mille`` in a pty, read through pyte."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from support.screen import Term  # noqa: E402


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
