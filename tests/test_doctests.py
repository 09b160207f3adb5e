"""The examples in the engine's docstrings are run as tests."""

import doctest
import importlib

import pytest

MODULES = ["mille.cards", "mille.engine", "mille.computer", "mille.text", "mille.rules", "mille.ui"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
    assert result.attempted > 0
