"""The command loop with a scripted keyboard and a fake window (no pty).

Flows that are slow to reach by playing (the end of a game, saving at an
end-of-hand prompt, a failed save) are driven here through ``mille.ui.Ui``
with a stand-in for the curses window that records every prompt shown.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mille import ui
from mille.engine import HUMAN, PICK, Phase, Use
from mille.session import Session


class OutOfKeys(Exception):
    pass


class FakeWindow:
    """Just enough of a curses window: a grid of cells and a key queue."""

    def __init__(self, keys: str, rows: int = 24, cols: int = 80) -> None:
        self.keys = [ord(k) for k in keys]
        self.rows, self.cols = rows, cols
        self.cells = [[" "] * cols for _ in range(rows)]
        self.prompts: list[str] = []  # row 10 of the board at every key read
        self.cursor = (0, 0)

    def getmaxyx(self) -> tuple[int, int]:
        return self.rows, self.cols

    def erase(self) -> None:
        self.cells = [[" "] * self.cols for _ in range(self.rows)]

    clear = erase

    def addstr(self, y: int, x: int, text: str, attr: int = 0) -> None:
        for i, ch in enumerate(text):
            self.cells[y][x + i] = ch

    def refresh(self) -> None:
        pass

    def move(self, y: int, x: int) -> None:
        self.cursor = (y, x)

    def getch(self) -> int:
        self.prompts.append(self.line(10)[20:40].rstrip())
        if not self.keys:
            raise OutOfKeys(self.text())
        return self.keys.pop(0)

    def line(self, y: int) -> str:
        return "".join(self.cells[y])

    def text(self) -> str:
        return "\n".join(self.line(y).rstrip() for y in range(self.rows))


def run(session: Session, keys: str, message: str = "") -> FakeWindow:
    window = FakeWindow(keys)
    game = ui.Ui(window, session, message)  # type: ignore[arg-type]
    game.run()
    return window


def finish_hand(session: Session) -> Session:
    """Play the hand out headlessly (simple greedy moves for both sides)."""
    state = session.state
    while state.phase is not Phase.HAND_OVER:
        if state.phase is Phase.EXTENSION:
            state.decide_extension(False)
            continue
        moves = state.legal_moves()
        uses = [m for m in moves if isinstance(m, Use)]
        move = PICK if PICK in moves else (uses or moves)[0]
        session.play(move)
    return session


def hand_over(session: Session, total: int = 0) -> Session:
    finish_hand(session)
    session.state.players[HUMAN].total_before_hand = total
    return session


def test_another_game_no_then_save_game_no_exits() -> None:
    session = hand_over(Session.new(1), total=5000)
    window = FakeWindow("nn")
    game = ui.Ui(window, session)  # type: ignore[arg-type]
    with pytest.raises(ui.Quit):
        game.end_of_hand()
    assert window.prompts == ["Another game?", "Save game?"]
    assert "Trip Completed" in window.line(5), "the full window at the end of a hand"


def test_another_hand_yes_deals_the_next_hand() -> None:
    session = hand_over(Session.new(1))
    window = FakeWindow("y")
    game = ui.Ui(window, session)  # type: ignore[arg-type]
    game.end_of_hand()
    assert window.prompts == ["Another hand?"]
    assert session.state.phase is Phase.PLAYING
    assert session.state.starter != HUMAN, "the computer starts the second hand"


def test_a_game_loaded_at_an_end_of_hand_prompt_starts_a_new_hand() -> None:
    session = hand_over(Session.new(2))
    total = session.state.total(HUMAN)
    with pytest.raises(OutOfKeys):
        run(session, "")
    assert session.state.phase is Phase.PLAYING
    assert session.state.players[HUMAN].total_before_hand == total


def test_saving_at_another_hand_skips_save_game(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    session = hand_over(Session.new(3))
    window = FakeWindow("sg1\rn")
    game = ui.Ui(window, session)  # type: ignore[arg-type]
    with pytest.raises(ui.Quit):
        game.end_of_hand()
    assert window.prompts == ["Another hand?", "file:", "file: g", "file: g1", "Another hand?"]
    assert (tmp_path / "g1").exists()
    assert session.source is None  # only a restored game asks "Same file?"
    assert window.line(15)[45:].startswith("g1 [")


def test_save_game_yes_that_fails_plays_on(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    session = hand_over(Session.new(4))
    window = FakeWindow("nyx/y\r")
    game = ui.Ui(window, session)  # type: ignore[arg-type]
    game.end_of_hand()  # no Quit: the save failed, so another hand
    assert window.prompts[:3] == ["Another hand?", "Save game?", "file:"]
    assert session.state.phase is Phase.PLAYING
    assert game.message == "No such file or directory"


def test_save_game_yes_that_works_exits(tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    session = hand_over(Session.new(4))
    window = FakeWindow("nyg\r")
    game = ui.Ui(window, session)  # type: ignore[arg-type]
    with pytest.raises(ui.Quit):
        game.end_of_hand()
    assert (tmp_path / "g").exists()


def test_human_extension_prompt_and_standout() -> None:
    session = Session.new(5)
    state = session.state
    state.phase = Phase.EXTENSION
    state.extender = HUMAN
    with pytest.raises(OutOfKeys):
        run(session, "xy")
    assert state.end == 1000
    assert state.phase is Phase.PLAYING


def test_extension_shown_at_row_4_col_9() -> None:
    session = Session.new(5)
    session.state.end = 1000
    window = FakeWindow("")
    game = ui.Ui(window, session)  # type: ignore[arg-type]
    game.render()
    assert window.line(4)[9:18] == "Extension"
    assert window.line(4)[:9].strip() == "" and window.line(4)[18:40].strip() == ""


def test_yes_no_answers_echo_and_other_keys_are_refused() -> None:
    session = Session.new(6)
    window = FakeWindow("q?n")
    game = ui.Ui(window, session)  # type: ignore[arg-type]
    with pytest.raises(OutOfKeys):
        game.run()
    assert window.prompts[:4] == [">>:Move:", "Really?", "Really?", ">>:Move:"]


def test_loaded_message_on_the_error_line() -> None:
    session = Session.new(7)
    window = FakeWindow("")
    game = ui.Ui(window, session, "game [Sat Nov 21 22:34:38 2026]")  # type: ignore[arg-type]
    game.render()
    assert window.line(15)[40:] == "|    game [Sat Nov 21 22:34:38 2026]".ljust(40)


def test_long_messages_are_cut_at_the_window_edge() -> None:
    session = Session.new(7)
    window = FakeWindow("")
    game = ui.Ui(window, session, "x" * 60)  # type: ignore[arg-type]
    game.render()
    assert window.line(15)[45:] == "x" * 35


def test_safeties_coups_tops_and_mileage_columns() -> None:
    from mille.cards import (D25, D100, DRIVING_ACE, END_OF_LIMIT, FLAT_TIRE, GO,
                             RIGHT_OF_WAY, SPEED_LIMIT)

    session = Session.new(8)
    you, comp = session.state.players
    you.safeties, you.coups = [RIGHT_OF_WAY], [False, False, False, True]
    comp.safeties, comp.coups = [DRIVING_ACE], [False, False, False, False]
    you.battle, you.speed, comp.battle, comp.speed = GO, END_OF_LIMIT, FLAT_TIRE, SPEED_LIMIT
    you.miles = [D25, D100, D25]
    comp.miles = [D100, D100]
    window = FakeWindow("")
    ui.Ui(window, session).render()  # type: ignore[arg-type]
    assert window.line(3)[:16] == "* Right of Way  "
    assert window.line(2)[18:40] == "    Driving Ace       "
    assert window.line(14)[:40] == "  Go                  Flat Tire         "
    assert window.line(16)[:40] == "  End of Limit        Speed Limit       "
    assert window.line(18).rstrip() == "25  25"
    assert window.line(21).rstrip() == "100" + " " * 37 + "100 100"
