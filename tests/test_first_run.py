"""A user's first run: BSD's board names the keys it never shows (issue 28).

BSD's board never mentions ``?``, ``H``, ``T`` or ``L``.  On mille's first
run for a user, a new game on that board says them on the error line until
the first key; later runs draw BSD's first screen exactly (the reference
screens of tests/e2e/test_board_e2e.py are later runs: every test is, but
these).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from mille.engine.rules import find_rules
from mille.frontends import ui
from mille.frontends.table_ui import TableUi
from mille.game.session import Session
from mille.storage import firstrun, recovery
from support.fakewindow import FakeWindow, OutOfKeys
from support.screen import Term

WELCOME = "? help  H hint  T tracker  L log"


REAL_FIRST_RUN = firstrun.first_run  # before conftest replaces it for each test


@pytest.fixture
def first_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The real first_run (conftest makes every other test a later run),
    in the test's private state directory."""
    assert os.environ["XDG_STATE_HOME"] == str(tmp_path / "state")
    monkeypatch.setattr(firstrun, "first_run", REAL_FIRST_RUN)


def run(game: ui.Ui) -> None:
    with pytest.raises(OutOfKeys):
        game.run()


def test_the_line_names_the_keys_and_fits_bsds_error_line() -> None:
    assert ui.WELCOME == WELCOME
    assert len(WELCOME) <= 80 - 45  # row 15 from column 45


@pytest.mark.usefixtures("first_run")
def test_the_first_new_game_names_the_keys_until_the_first_key() -> None:
    assert firstrun.first_run()
    window = FakeWindow("xp")
    run(ui.Ui(window, Session.new(seed=1)))  # type: ignore[arg-type]
    assert window.errors[0] == WELCOME, "the first screen"
    assert window.errors[1] == "unknown command: X", "the first key took it away"
    assert not firstrun.first_run()
    assert os.listdir(recovery.directory()) == [firstrun.MARK]
    assert recovery.kept_games() == []

    again = FakeWindow("p")
    run(ui.Ui(again, Session.new(seed=1)))  # type: ignore[arg-type]
    assert again.errors[0] == "", "a later run: BSD's first screen"


@pytest.mark.usefixtures("first_run")
def test_any_first_key_takes_it_away() -> None:
    window = FakeWindow("p")
    run(ui.Ui(window, Session.new(seed=1)))  # type: ignore[arg-type]
    assert window.errors == [WELCOME, ""]


@pytest.mark.usefixtures("first_run")
def test_a_restored_game_keeps_its_note_and_the_other_board_has_its_reminders() -> None:
    window = FakeWindow("p")
    run(ui.Ui(window, Session.new(seed=1), "game.sav [Nov 26 14:00]"))  # type: ignore[arg-type]
    assert window.errors[0] == "game.sav [Nov 26 14:00]"
    table = FakeWindow("p", prompt=(22, 0, 80), error=(23, 0))
    run(TableUi(table, Session.new(find_rules("classic", players=3), seed=1)))  # type: ignore[arg-type]
    assert table.errors[0] == ""
    assert firstrun.first_run(), "neither counts as having shown the keys"


@pytest.mark.usefixtures("first_run")
def test_a_state_directory_that_cannot_be_written_shows_it_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "file"))
    (tmp_path / "file").write_text("")  # not a directory
    firstrun.mark()  # says nothing
    assert firstrun.first_run()


def test_the_e2e_first_screen(spawn: Callable[..., Term]) -> None:
    term = spawn("--seed", "1", first_run=True)
    term.wait_for(WELCOME, row=15)
    assert term.lines()[15][45:].rstrip() == WELCOME
    term.send("w")
    term.drawn("Trip Completed", row=5)
    assert term.lines()[15][40:].strip() == "|"
    assert (Path(term.state_home) / "mille" / "welcomed").exists()
