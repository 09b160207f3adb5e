"""The package's layers, read from the sources with ``ast``.

``mille.engine`` (the rules) is at the bottom, then ``mille.players`` (who
moves), ``mille.game`` (a game in progress), ``mille.storage`` (games on
disk, and the JSON shapes that files and the protocol share), ``mille.net`` (the game over the network: the protocol,
the server, the client's connection), ``mille.frontends`` (what a person
sees); ``mille.selfplay`` and
``mille.__main__`` are tools on top.  A module imports only from its own
layer or lower ones, imports make no cycle (counting the imports inside
functions and for type checking too), and only front ends import curses.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

import mille

PACKAGE = Path(mille.__file__).parent
LAYERS = ("engine", "players", "game", "storage", "net", "frontends")
TOOLS = ("mille.__main__", "mille.selfplay")
BASE = ("mille.i18n",)  # the translation layer, below the engine: every layer may use it


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(("mille", *parts))


def imports(path: Path) -> set[str]:
    """Every module of mille (or outside it) that ``path`` imports, anywhere."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                where = ".".join(base + ([node.module] if node.module else []))
            else:
                where = node.module or ""
            found.add(where)
            for alias in node.names:  # ``from . import savefile``: a module
                if f"{where}.{alias.name}" in MODULES:
                    found.add(f"{where}.{alias.name}")
    return found


MODULES = {module_name(path): path for path in PACKAGE.rglob("*.py")}


@functools.cache
def graph() -> dict[str, set[str]]:
    """Each module of mille, and the modules of mille it imports (made
    when a test first asks: a worker collecting the tests does not read
    every module)."""
    return {
        name: {other for other in imports(path) if other in MODULES and other != name}
        for name, path in MODULES.items()
    }


def rank(name: str) -> int:
    """The layer of a module: 0 for the engine ... 5 for the front ends; the
    package itself (only ``__version__``) and the translation layer are
    below them all, the tools above."""
    if name in TOOLS:
        return len(LAYERS)
    if name in BASE:
        return -1
    parts = name.split(".")
    if len(parts) == 1 or parts[1] not in LAYERS:
        assert name == "mille", f"{name} is in no layer"
        return -1
    return LAYERS.index(parts[1])


def test_every_module_is_in_a_layer() -> None:
    assert {rank(name) for name in MODULES} == set(range(-1, len(LAYERS) + 1))


def test_imports_point_down() -> None:
    upward = sorted(
        f"{name} imports {other}"
        for name, others in graph().items()
        for other in others
        if rank(other) > rank(name)
    )
    assert upward == []


def test_the_translation_layer_imports_no_mille() -> None:
    """``mille.i18n`` is under every layer (the engine's messages use it):
    it imports nothing of mille, and every layer may import it."""
    assert graph()["mille.i18n"] == set()
    assert any("mille.i18n" in graph()[name] for name in MODULES if name.startswith("mille.engine"))


def test_no_import_cycles() -> None:
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1 on the path, 2 done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for other in sorted(graph()[name]):
            if state.get(other) == 1:
                cycles.append(path[path.index(other) :] + [other])
            elif other not in state:
                visit(other, path + [other])
        state[name] = 2

    for name in sorted(graph()):
        if name not in state:
            visit(name, [name])
    assert cycles == []


def test_only_front_ends_import_curses() -> None:
    users = {name for name, path in MODULES.items() if {"curses", "_curses"} & imports(path)}
    assert users, "the boards import curses"
    assert all(name.startswith("mille.frontends.") for name in users), sorted(users)
    # and each is named for the curses layer, so the file list shows which they are
    named = ("ui", "screen", "curses")
    assert all(any(word in name.rpartition(".")[2] for word in named) for name in users), sorted(
        users
    )


def test_the_line_mode_needs_no_curses() -> None:
    """``mille --plain`` runs where curses cannot be imported: the line mode
    and every module it imports, directly or not, import no curses (the
    boards' modules do: curses_keys, the screens, their dialogues, tui)."""
    seen = {"mille.frontends.plain"}
    todo = ["mille.frontends.plain"]
    while todo:
        for other in graph()[todo.pop()] - seen:
            seen.add(other)
            todo.append(other)
    assert {"mille.frontends.flow", "mille.frontends.process", "mille.frontends.commands"} < seen
    users = sorted(name for name in seen if {"curses", "_curses"} & imports(MODULES[name]))
    assert users == []


def test_the_network_line_mode_needs_no_curses() -> None:
    """``mille --join --plain`` and ``mille --host --plain`` run where curses
    cannot be imported: the remote seat's line mode and all it imports
    import no curses (the board's module of the package, ``board_ui``, does)."""
    seen = {"mille.frontends.remote.lines"}
    todo = list(seen)
    while todo:
        for other in graph()[todo.pop()] - seen:
            seen.add(other)
            todo.append(other)
    assert {"mille.frontends.remote.seat", "mille.frontends.remote.link"} < seen
    assert "mille.frontends.remote.board_ui" not in seen
    users = sorted(name for name in seen if {"curses", "_curses"} & imports(MODULES[name]))
    assert users == []
    # and the package itself imports nothing (importing lines runs it first)
    assert graph()["mille.frontends.remote"] == set()


def imported_names(path: Path) -> set[str]:
    """The names ``path`` imports from modules (``from X import NAME``), anywhere."""
    return {
        alias.name
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def test_one_module_writes_and_reads_the_json_shapes() -> None:
    """The shapes of cards, moves, tableaux, views and events are
    ``mille.storage.shapes``'s: the network layer reads none of the save
    format's module, and outside the engine and the computers only the
    shapes and the checks they read through name cards."""
    net = sorted(name for name in MODULES if name.startswith("mille.net"))
    assert [name for name in net if "mille.storage.current" in graph()[name]] == []
    assert {"mille.net.seats", "mille.net.follow", "mille.net.wire"} <= {
        name for name in net if "mille.storage.shapes" in graph()[name]
    }
    naming = sorted(
        name
        for name, path in MODULES.items()
        if "ALL_NAMES" in imported_names(path) and rank(name) > LAYERS.index("players")
    )
    assert naming == ["mille.storage.checks", "mille.storage.shapes"]


def test_the_checks_see_relative_imports() -> None:
    """The parser resolves ``from ..engine.table import X`` and
    ``from ..storage import savefile`` to the modules they name."""
    assert "mille.engine.table" in graph()["mille.game.session"]
    assert "mille.storage.savefile" in graph()["mille.frontends.cli"]


def packages(root: Path) -> set[str]:
    """The packages under ``root`` (a directory ``mille``), dotted."""
    return {
        ".".join(("mille", *p.relative_to(root).parent.parts)) for p in root.rglob("__init__.py")
    }


def test_every_package_is_installed() -> None:
    """pyproject.toml lists the packages a wheel carries: all of the
    checkout's, and the installed mille has them all (the same directory
    after ``pip install -e``; site-packages after ``pip install .``)."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11 and later
    checkout = Path(__file__).resolve().parent.parent  # the tests' own, not the installed one's
    if not (checkout / "pyproject.toml").is_file():
        pytest.skip("the tests run without the project's pyproject.toml")
    config = tomllib.loads((checkout / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    assert listed == packages(checkout / "mille")
    assert packages(PACKAGE) == listed


def test_only_seats_reads_the_session() -> None:
    """In ``mille.net`` only ``seats`` (the adapter to the session's views
    and per-seat event stream) reads a session: the server hands it over."""
    texts = {
        name: MODULES[name].read_text(encoding="utf-8")
        for name in MODULES
        # (the worker reads its own replica of the game, fed the moves made)
        if name.startswith("mille.net.") and name not in ("mille.net.seats", "mille.net.worker")
    }
    readers = [
        name for name, text in texts.items() if "session." in text.replace("game.session", "")
    ]
    assert readers == []


# what names the game in a front end: a variable, or an attribute of the front end
GAME_NAMES = {"session", "game", "remote"}
# the game's sources, which a front end never tells apart
GAME_CLASSES = {"Session", "RemoteSeat", "LineSeat", "RemoteSession", "LineSession"}


def names_the_game(node: ast.expr) -> bool:
    """``session``, ``game``, ``self.session``, ``ui.remote``...: the game."""
    if isinstance(node, ast.Name):
        return node.id in GAME_NAMES
    return isinstance(node, ast.Attribute) and node.attr in GAME_NAMES


def class_names(node: ast.expr) -> set[str]:
    """The names of the classes an ``isinstance`` tests against."""
    if isinstance(node, ast.Tuple):
        return {name for item in node.elts for name in class_names(item)}
    if isinstance(node, ast.Name):
        return {node.id}
    return {node.attr} if isinstance(node, ast.Attribute) else set()


def questions_to_the_game(path: Path) -> list[str]:
    """Where ``path`` asks the game what it is rather than what it says:
    ``getattr``/``hasattr`` on the game (a name in ``GAME_NAMES``, or an
    attribute so named), and ``isinstance`` of the game, or against one of
    the game's classes (``GAME_CLASSES``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args):
            continue
        call, first = node.func.id, node.args[0]
        asked = call in ("getattr", "hasattr") and names_the_game(first)
        if call == "isinstance" and len(node.args) == 2:
            asked = names_the_game(first) or bool(class_names(node.args[1]) & GAME_CLASSES)
        if asked:
            found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_front_ends_ask_the_game_nothing() -> None:
    """The front ends read the game as declared (``mille.game.protocol.Game``,
    its talk a value): no ``getattr``, ``hasattr`` or ``isinstance`` on it,
    nor an ``isinstance`` against the local game's or the remote seat's class."""
    found = [
        line
        for name, path in sorted(MODULES.items())
        if name.startswith("mille.frontends")
        for line in questions_to_the_game(path)
    ]
    assert found == []


def test_the_check_sees_a_question_to_the_game(tmp_path: Path) -> None:
    """``questions_to_the_game`` finds what it is meant to find."""
    source = PACKAGE / "frontends" / "probe_for_the_test.py"
    text = (
        "a = getattr(session, 'mark', None)\n"
        "b = isinstance(self.session, RemoteSeat)\n"
        "c = isinstance(x, (int, Session))\n"
        "d = hasattr(ui.game, 'news')\n"
        "e = getattr(sys.stdin, 'buffer', None)\n"
    )
    try:
        source.write_text(text, encoding="utf-8")
        found = questions_to_the_game(source)
    finally:
        source.unlink()
    assert [line.split(": ", 1)[0].rsplit(":", 1)[1] for line in found] == ["1", "2", "3", "4"]


def test_no_seat_reads_by_default() -> None:
    """No default viewer: the name ``YOU`` (seat 0 reading when none was
    said) is gone from the package, so every view shown names its seat."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            named = (
                (isinstance(node, ast.Name) and node.id == "YOU")
                or (isinstance(node, ast.Attribute) and node.attr == "YOU")
                or (isinstance(node, ast.alias) and "YOU" in (node.name, node.asname))
            )
            if named:
                found.append(f"{path.relative_to(PACKAGE)}:{getattr(node, 'lineno', '?')}")
    assert found == []
