"""The command loop with a scripted keyboard and a fake window (no pty).

Flows that are slow to reach by playing (the end of a game, saving at an
end-of-hand prompt, a failed save) are driven here through ``mille.frontends.ui.Ui``
with a stand-in for the curses window that records every prompt shown.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mille.engine.table import EXTENSION, NO, OVER, PICK, PLAYING, Use
from mille.frontends import bsd_screen, curses_keys, tui, ui
from mille.game.session import Session
from support.fakewindow import FakeWindow, OutOfKeys

HUMAN = 0


def run(session: Session, keys: str | bytes, message: str = "") -> FakeWindow:
    window = FakeWindow(keys)
    game = ui.Ui(window, session, message)  # type: ignore[arg-type]
    game.run()
    return window


def finish_hand(session: Session) -> Session:
    """Play the hand out headlessly (simple greedy moves for both sides)."""
    state = session.table
    while state.phase != OVER:
        if state.phase == EXTENSION:
            state.apply(NO)
            continue
        moves = state.legal_moves()
        uses = [m for m in moves if isinstance(m, Use)]
        move = PICK if PICK in moves else (uses or moves)[0]
        session.play(move)
    return session


def hand_over(session: Session, total: int = 0) -> Session:
    finish_hand(session)
    session.table.totals[HUMAN] = total
    return session


def test_another_game_no_then_save_game_no_exits() -> None:
    session = hand_over(Session.new(seed=1), total=5000)
    window = FakeWindow("nn")
    game = ui.Ui(window, session)  # type: ignore[arg-type]
    with pytest.raises(ui.Quit):
        game.end_of_hand()
    assert window.prompts == ["Another game?", "Save game?"]
    assert "Trip Completed" in window.line(5), "the full window at the end of a hand"


def test_another_hand_yes_deals_the_next_hand() -> None:
    session = hand_over(Session.new(seed=1))
    window = FakeWindow("y")
    game = ui.Ui(window, session)  # type: ignore[arg-type]
    game.end_of_hand()
    assert window.prompts == ["Another hand?"]
    assert session.table.phase == PLAYING
    assert session.table.starter != HUMAN, "the computer starts the second hand"


def test_a_game_loaded_at_an_end_of_hand_prompt_starts_a_new_hand() -> None:
    session = hand_over(Session.new(seed=2))
    total = session.table.total(HUMAN + 1)
    with pytest.raises(OutOfKeys):
        run(session, "")
    assert session.table.phase == PLAYING
    assert session.table.totals[HUMAN] == total


def test_saving_at_another_hand_skips_save_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    session = hand_over(Session.new(seed=3))
    window = FakeWindow("sg1\rn")
    game = ui.Ui(window, session)  # type: ignore[arg-type]
    with pytest.raises(ui.Quit):
        game.end_of_hand()
    assert window.prompts == ["Another hand?", "file:", "file: g", "file: g1", "Another hand?"]
    assert (tmp_path / "g1").exists()
    assert session.source is None  # only a restored game asks "Same file?"
    assert window.line(15)[45:].startswith("g1 [")


def test_save_game_yes_that_fails_plays_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    session = hand_over(Session.new(seed=4))
    window = FakeWindow("nyx/y\r")
    game = ui.Ui(window, session)  # type: ignore[arg-type]
    game.end_of_hand()  # no Quit: the save failed, so another hand
    assert window.prompts[:3] == ["Another hand?", "Save game?", "file:"]
    assert session.table.phase == PLAYING
    assert game.screen.message == "No such file or directory"


def test_save_game_yes_that_works_exits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    session = hand_over(Session.new(seed=4))
    window = FakeWindow("nyg\r")
    game = ui.Ui(window, session)  # type: ignore[arg-type]
    with pytest.raises(ui.Quit):
        game.end_of_hand()
    assert (tmp_path / "g").exists()


def test_human_extension_prompt_and_standout() -> None:
    session = Session.new(seed=5)
    state = session.table
    state.phase = EXTENSION
    state.asked = HUMAN
    with pytest.raises(OutOfKeys):
        run(session, "xy")
    assert state.target == 1000
    assert state.phase == PLAYING


def test_extension_shown_at_row_4_col_9() -> None:
    session = Session.new(seed=5)
    session.table.target = 1000
    window = FakeWindow("")
    game = ui.Ui(window, session)  # type: ignore[arg-type]
    game.render()
    assert window.line(4)[9:18] == "Extension"
    assert window.line(4)[:9].strip() == "" and window.line(4)[18:40].strip() == ""


def test_yes_no_answers_echo_and_other_keys_are_refused() -> None:
    session = Session.new(seed=6)
    window = FakeWindow("q?n")
    game = ui.Ui(window, session)  # type: ignore[arg-type]
    with pytest.raises(OutOfKeys):
        game.run()
    assert window.prompts[:4] == [">>:Move:", "Really?", "Really?", ">>:Move:"]


def test_loaded_message_on_the_error_line() -> None:
    session = Session.new(seed=7)
    window = FakeWindow("")
    game = ui.Ui(window, session, "game [Sat Nov 21 22:34:38 2026]")  # type: ignore[arg-type]
    game.render()
    assert window.line(15)[40:] == "|    game [Sat Nov 21 22:34:38 2026]".ljust(40)


def test_long_messages_are_cut_at_the_window_edge() -> None:
    session = Session.new(seed=7)
    window = FakeWindow("")
    game = ui.Ui(window, session, "x" * 60)  # type: ignore[arg-type]
    game.render()
    assert window.line(15)[45:] == "x" * 35


def test_safeties_coups_tops_and_mileage_columns() -> None:
    from mille.engine.cards import (
        D25,
        D100,
        DRIVING_ACE,
        END_OF_LIMIT,
        FLAT_TIRE,
        GO,
        RIGHT_OF_WAY,
        SPEED_LIMIT,
    )

    session = Session.new(seed=8)
    you, comp = session.table.tableaux
    you.safeties, you.coups = [RIGHT_OF_WAY], [False, False, False, True]
    comp.safeties, comp.coups = [DRIVING_ACE], [False, False, False, False]
    you.top, you.speed_top, comp.top, comp.speed_top = GO, END_OF_LIMIT, FLAT_TIRE, SPEED_LIMIT
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


# ----- a game is never lost ---------------------------------------------------


def restored(session: Session, path: Path) -> Session:
    """``session`` as if restored from ``path`` (so S asks ``Same file?``)."""
    session.source = str(path)
    return session


@pytest.mark.parametrize("where", ["Really?", "Save game?", "Another hand?", "Extension?"])
def test_holding_s_at_a_prompt_never_recurses(tmp_path: Path, where: str) -> None:
    """5,000 S at a yes/no prompt of a restored game: S saves then asks
    again (Same file?, where S only beeps), and the game plays on."""
    session = Session.new(seed=9)
    keys = "s" * 5000 + "n\r"  # the 4,999 others beep at Same file?; n, then cancel
    if where == "Really?":
        keys = "q" + keys + "n"
    elif where == "Extension?":
        session.table.phase, session.table.asked = EXTENSION, HUMAN
        keys += "n"
    else:
        hand_over(session)
        keys = "n" + keys + "n" if where == "Save game?" else keys + "y"
    restored(session, tmp_path / "game")
    window = FakeWindow(keys)
    game = ui.Ui(window, session)  # type: ignore[arg-type]
    if where == "Save game?":
        with pytest.raises(ui.Quit):
            game.end_of_hand()
    elif where == "Another hand?":
        game.end_of_hand()
    with pytest.raises(OutOfKeys):
        game.run()
    assert window.prompts.count("Same file?") == 5000 and not window.keys
    after = window.prompts.index("file:") + 1
    assert window.prompts[after - 5002 : after + 1] == (
        [where] + ["Same file?"] * 5000 + ["file:", where]
    ), "S saved (cancelled), then the same question again"


def test_s_at_overwrite_file_beeps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "g").write_text("keep me")
    session = Session.new(seed=9)
    window = FakeWindow("sg\r" + "s" * 3000 + "n")
    game = ui.Ui(window, session)  # type: ignore[arg-type]
    with pytest.raises(OutOfKeys):
        game.run()
    assert window.prompts.count("Overwrite file?") == 3001
    assert window.prompts[-1] == ">>:Move:"
    assert (tmp_path / "g").read_text() == "keep me"


def test_set_up_without_posix_signals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows has no SIGHUP (nor SIGWINCH): the set-up uses what there is."""
    import signal
    import types

    lacking = types.ModuleType("signal")
    for name in dir(signal):
        if name not in ("SIGHUP", "SIGWINCH"):
            setattr(lacking, name, getattr(signal, name))
    monkeypatch.setattr(tui, "signal", lacking)
    before = signal.getsignal(signal.SIGTERM)
    game = ui.Ui(FakeWindow(""), Session.new(seed=1))  # type: ignore[arg-type]
    undo = tui.install(game)
    try:
        assert signal.getsignal(signal.SIGTERM) == game.on_stop
        assert signal.getsignal(signal.SIGINT) == game.on_interrupt
        assert isinstance(game.keys.keyboard, curses_keys.WindowKeyboard)  # curses polls
    finally:
        for step in reversed(undo):
            step()
    assert signal.getsignal(signal.SIGTERM) == before


def test_signals_only_set_flags() -> None:
    import signal

    game = ui.Ui(FakeWindow("p"), Session.new(seed=1))  # type: ignore[arg-type]
    game.on_stop(signal.SIGTERM, None)
    with pytest.raises(ui.Hangup, match="terminated"):
        game.read_key()
    game = ui.Ui(FakeWindow("p"), Session.new(seed=1))  # type: ignore[arg-type]
    game.on_stop(signal.SIGHUP, None)
    with pytest.raises(ui.Hangup, match="hang-up"):
        game.read_key()


# ----- the file: prompt ------------------------------------------------------


def test_a_long_name_is_capped_and_extra_keys_beep(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    window = FakeWindow("s" + "a" * 250 + "bcdefg" + "x" * 1000 + "\r")
    game = ui.Ui(window, Session.new(seed=3))  # type: ignore[arg-type]
    with pytest.raises(OutOfKeys):
        game.run()
    name = "a" * 250 + "bcdef"
    assert len(name) == ui.NAME_MAX
    assert os.listdir(tmp_path) == [name]
    assert window.prompts[-2].endswith("abcdef")  # the end of the name in view


def test_shown_name_escapes_what_the_terminal_cannot_show() -> None:
    assert (
        curses_keys.shown_name("été2.sav".encode(), "ANSI_X3.4-1968")
        == "\\xc3\\xa9t\\xc3\\xa92.sav"
    )
    assert curses_keys.shown_name("été2.sav".encode(), "UTF-8") == "été2.sav"
    assert curses_keys.shown_name(b"a\x1bb\xff", "UTF-8") == "a^[b\\xff"


def test_the_error_line_escapes_control_characters() -> None:
    window = FakeWindow("")
    game = ui.Ui(window, Session.new(seed=7), "bad\nna\x1bme [Sat Nov 21 22:34:38 2026]")  # type: ignore[arg-type]
    game.render()
    assert window.line(15)[45:] == "bad\\nna\\x1bme [Sat Nov 21 22:34:38 2026]"[:35]


# ----- the screen ---------------------------------------------------------------


def test_a_restore_note_stays_when_the_computer_moves_first() -> None:
    session = hand_over(Session.new(seed=10))
    session.next_hand()
    assert session.computer_to_move
    window = run_until_out(session, "p", "game [Sat Nov 21 22:34:38 2026]")
    assert window.errors[0] == "game [Sat Nov 21 22:34:38 2026]"  # after the computer's move
    assert window.errors[1] == "game [Sat Nov 21 22:34:38 2026]"  # after the pick


def run_until_out(session: Session, keys: str | bytes, message: str = "") -> FakeWindow:
    window = FakeWindow(keys)
    with pytest.raises(OutOfKeys):
        ui.Ui(window, session, message).run()  # type: ignore[arg-type]
    return window


@pytest.mark.parametrize(
    "keys,name",
    [
        (b"\x1b[D", "^[[D"),  # Left arrow
        (b"\x1bOP", "^[OP"),  # F1
        (b"\x1b[15~", "^[[15~"),  # F5
        (b"\x1b[1;5C", "^[[1;5C"),  # ^Right
    ],
)
def test_an_escape_sequence_is_one_unknown_key(keys: bytes, name: str) -> None:
    session = Session.new(seed=11)
    window = run_until_out(session, keys + b"x")
    assert window.prompts == [">>:Move:"] * 3, "no D or O or P started"
    assert window.errors[1:] == [f"unknown command: {name}", "unknown command: X"]
    assert session.table.hands[HUMAN][0] == -1 and not session.table.ordering


def test_a_lone_escape_is_unknown() -> None:
    window = run_until_out(Session.new(seed=11), b"\x1b")
    assert window.errors[-1] == "unknown command: ^["
    session = Session.new(seed=11)
    window = run_until_out(session, b"\x1bp")  # Alt-p: ESC, then p
    assert window.errors[1] == "unknown command: ^["
    assert session.table.hands[HUMAN][0] != -1, "then p picked"


def test_escape_sequences_at_slot_entry_and_prompts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    session = Session.new(seed=12)
    window = run_until_out(session, b"pu\x1b[A\x15" + b"q\x1b[Cn" + b"s\x1b[Dab\r")
    assert window.prompts[:4] == [">>:Move:", ">>:Move:", ">>:Move: U", ">>:Move: U^[[A"]
    assert window.prompts[4:7] == [">>:Move:", "Really?", "Really?"]
    assert window.prompts[7:] == [">>:Move:", "file:", "file:", "file: a", "file: ab", ">>:Move:"]
    assert os.listdir(tmp_path) == ["ab"]


def test_question_mark_shows_help_until_a_key() -> None:
    session = Session.new(seed=13)
    window = FakeWindow("?xp")
    game = ui.Ui(window, session)  # type: ignore[arg-type]
    seen: list[str] = []
    getch = window.getch

    def spy() -> int:
        seen.append(window.text())
        return getch()

    window.getch = spy  # type: ignore[method-assign]
    with pytest.raises(OutOfKeys):
        game.run()
    assert "--HAND--" in seen[0] and "unknown" not in seen[1]
    help_screen = seen[1].split("\n")
    assert help_screen[0].startswith("MILLE BORNES")
    assert "Press any key" in seen[1] and "--HAND--" not in seen[1]
    assert "--HAND--" in seen[2] and window.errors[2] == "", "x only left the help"
    lines = bsd_screen.help_lines(session.level)
    assert len(lines) <= 24 and all(len(line) < 80 for line in lines)
    assert session.table.hands[HUMAN][0] != -1  # p picked
