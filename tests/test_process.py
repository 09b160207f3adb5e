"""Keeping a game at the level of the process, written once
(``mille.frontends.process.keep``) for both runners, each with its own line:
the board's (``tui.keep``) and the line mode's (``plain.keep``)."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

import mille.storage.recovery
from mille.engine.rules import find_rules
from mille.frontends import plain, process, tui
from mille.game.session import Session
from mille.storage.savefile import load_session


def session() -> Session:
    return Session.new(find_rules("classic", players=3), seed=4)


def refuse_with(monkeypatch: pytest.MonkeyPatch, exc: Exception) -> None:
    def refuse(session: Session) -> str:
        raise exc

    monkeypatch.setattr(mille.storage.recovery, "write", refuse)


def test_the_board_and_the_line_mode_keep_the_game_in_the_recovery_file() -> None:
    game = session()
    board_line = tui.keep(game, "hang-up")
    assert board_line.startswith("mille: hang-up; the game is kept in ")
    path = board_line.removeprefix("mille: hang-up; the game is kept in ")
    assert load_session(path).table == game.table
    line, kept = plain.keep(game, "end of input")
    assert kept and line.startswith("mille: end of input; the game is kept in ")
    assert line.endswith(" (mille offers it next time)"), "the line mode says what comes next"
    path = line.removeprefix("mille: end of input; the game is kept in ")
    assert Path(path.removesuffix(" (mille offers it next time)")).is_file()


def test_a_system_error_is_told_in_each_front_ends_words(monkeypatch: pytest.MonkeyPatch) -> None:
    refuse_with(monkeypatch, OSError(28, "No space left on device"))
    assert tui.keep(session(), "terminated") == (
        "mille: terminated; the game could not be kept: No space left on device"
    )
    assert plain.keep(session(), "terminated") == (
        "mille: terminated; the game could not be kept: [Errno 28] No space left on device",
        False,
    )


def test_any_other_error_is_told_on_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    refuse_with(monkeypatch, ValueError("bad\nname\x1b"))
    assert tui.keep(session(), "hang-up") == (
        "mille: hang-up; the game could not be kept: ValueError: bad\\nname\\x1b"
    )
    assert plain.keep(session(), "hang-up") == (
        "mille: hang-up; the game could not be kept: bad\\nname\\x1b",
        False,
    )


def test_why_not_kept_has_the_board_name_the_error() -> None:
    assert tui.why_not_kept(PermissionError(13, "Permission denied")) == "Permission denied"
    assert tui.why_not_kept(OSError("no strerror")) == "no strerror"
    assert tui.why_not_kept(RuntimeError("x")) == "RuntimeError: x"


def test_route_puts_the_previous_handler_back() -> None:
    def handler(signum: int, frame: object) -> None:
        pass

    before = signal.getsignal(signal.SIGTERM)
    restore = process.route(signal.SIGTERM, handler)
    try:
        assert signal.getsignal(signal.SIGTERM) == handler
    finally:
        restore()
    assert signal.getsignal(signal.SIGTERM) == before
