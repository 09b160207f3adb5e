"""A preset's traits are asked of ``Rules`` by name, never "is this BSD?".

The code reads a trait (``rules.coup_window``, ``rules.deck_out``,
``rules.game_tie``, ...), not the preset's name, and there is no flag that
stands for several of BSD's ways at once; read from the sources with
``ast``.  (``describe`` names a preset's options by its name: words, not
rules.)
"""

from __future__ import annotations

import ast
from pathlib import Path

import mille
from mille.engine.table import Table

PACKAGE = Path(mille.__file__).parent
RULES = PACKAGE / "engine" / "rules.py"


def bsd_questions(source: str, name: str) -> list[str]:
    """Where the module ``name`` asks whether the rules are BSD's under
    another name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        where = f"{name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Attribute) and node.attr in ("is_bsd", "_bsd"):
            found.append(f"{where}: .{node.attr}")
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        names = [o.attr for o in operands if isinstance(o, ast.Attribute)]
        constants = [o.value for o in operands if isinstance(o, ast.Constant)]
        if "name" in names and "bsd" in constants:
            found.append(f"{where}: the preset's name")
        window = [o for o in operands if isinstance(o, ast.Name) and o.id == "WINDOW"]
        if window or "window" in constants:
            found.append(f"{where}: the coup rule's value (ask rules.coup_window)")
    return found


def test_no_module_asks_whether_the_rules_are_bsds() -> None:
    found = [
        line
        for path in sorted(PACKAGE.rglob("*.py"))
        if path != RULES
        for line in bsd_questions(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE)))
    ]
    assert found == []


def test_the_scan_sees_each_way_of_asking() -> None:
    source = (
        "if table.is_bsd or t._bsd: pass\n"
        "if rules.name == 'bsd': pass\n"
        "if rules.coup == WINDOW or rules.coup != 'window': pass\n"
        "if rules.coup == OFFER or rules.name == 'milebymile': pass\n"
    )
    assert sorted(bsd_questions(source, "asks.py")) == [
        "asks.py:1: ._bsd",
        "asks.py:1: .is_bsd",
        "asks.py:2: the preset's name",
        "asks.py:3: the coup rule's value (ask rules.coup_window)",
        "asks.py:3: the coup rule's value (ask rules.coup_window)",
    ]


def test_table_has_no_is_bsd() -> None:
    assert not hasattr(Table, "is_bsd")
