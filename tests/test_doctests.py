"""The examples in the package's docstrings are run as tests.

Every module of ``mille`` with examples runs here, found by reading the
sources; the boards' modules (``mille.frontends.screen`` and the others that
import curses) only where curses can be imported.
"""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

import mille

PACKAGE = Path(mille.__file__).parent
IMPORTS_CURSES = re.compile(r"^\s*(import curses|from curses\b)", re.MULTILINE)
REQUIRED = {
    "mille.engine.cards",
    "mille.engine.table",
    "mille.engine.rules",
    "mille.game.session",
    "mille.engine.text",
}


def modules_with_examples() -> tuple[list[str], list[str]]:
    """(modules without curses, modules with curses) whose docstrings have examples."""
    plain: list[str] = []
    curses: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if ">>>" not in source or path.stem == "__main__":
            continue
        name = ".".join(("mille", *path.relative_to(PACKAGE).with_suffix("").parts))
        (curses if IMPORTS_CURSES.search(source) else plain).append(name)
    return plain, curses


PLAIN, CURSES = modules_with_examples()


def test_the_modules_found() -> None:
    assert set(PLAIN) >= REQUIRED
    assert "mille.frontends.screen" in CURSES


def run(name: str) -> doctest.TestResults:
    return doctest.testmod(importlib.import_module(name))


@pytest.mark.parametrize("name", PLAIN)
def test_doctests(name: str) -> None:
    result = run(name)
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize("name", CURSES)
def test_doctests_of_the_board(name: str) -> None:
    pytest.importorskip("curses")
    result = run(name)
    assert result.failed == 0 and result.attempted > 0
