"""End to end: the installed ``mille`` in a pty, compared with BSD's screens.

The reference screens in ``reference/`` were captured from BSD mille in an
80x24 terminal.  Cards dealt differ (other shuffles), so the hand's card
names are masked; every other cell must be equal.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from support.screen import Term

REFERENCE = Path(__file__).parent / "reference"

HAND_ROWS = range(6, 13)
HAND_COLS = range(2, 20)


def reference(name: str) -> list[str]:
    lines = (REFERENCE / name).read_text().split("\n")[:24]
    return [line.ljust(80) for line in lines]


def masked(lines: list[str], hand: bool = True) -> list[str]:
    """The screen with the hand's card names blanked out."""
    out = []
    for y, line in enumerate(lines):
        line = line.ljust(80)
        if hand and y in HAND_ROWS:
            line = line[:2] + " " * 18 + line[20:]
        out.append(line)
    return out


def assert_same_screen(actual: list[str], name: str) -> None:
    expected = masked(reference(name))
    got = masked(actual)
    for y, (a, e) in enumerate(zip(got, expected)):
        diff = [x for x in range(80) if a[x] != e[x]]
        assert not diff, f"row {y} differs from {name} at columns {diff}:\n{a!r}\n{e!r}"


def start(spawn: Callable[..., Term], *args: str, ordered: bool = False) -> Term:
    """mille --seed 1 at its first board; ``ordered``: after an O, as the
    later BSD captures were taken."""
    term = spawn("--seed", "1", *args)
    term.wait_for(">>:Move:", row=10)
    term.wait_for("--MILEAGE--", row=17)
    if ordered:
        term.send("o")
        term.wait_for("o: stop ordering", row=12)
    return term


def hand(term: Term) -> list[str]:
    return [line.ljust(20)[2:20].rstrip() for line in term.lines()[6:13]]


def prompt_line(term: Term) -> str:
    """Row 10 of the board: the prompt and what was typed."""
    return term.lines()[10].ljust(40)[20:40].rstrip()


def error_line(term: Term) -> str:
    return term.lines()[15].ljust(80)[45:].rstrip()


def test_first_screen_matches_bsd(spawn: Callable[..., Term]) -> None:
    term = start(spawn)
    lines = term.settle()
    assert_same_screen(lines, "bsd-start.txt")
    assert term.screen.cursor.y == 10 and term.screen.cursor.x == 29
    assert all(name for name in hand(term)[1:]), "six cards dealt"
    assert hand(term)[0] == ""


def test_move_prompt_is_standout(spawn: Callable[..., Term]) -> None:
    term = start(spawn)
    term.settle()
    prompt = [term.screen.buffer[10][x] for x in range(20, 28)]
    assert "".join(ch.data for ch in prompt) == ">>:Move:"
    assert all(ch.reverse or ch.italics or ch.bold for ch in prompt)
    assert not term.screen.buffer[10][28].reverse


def test_w_toggles_the_full_window(spawn: Callable[..., Term]) -> None:
    term = start(spawn)
    term.send("w")
    term.wait_for("Trip Completed", row=5)
    assert_same_screen(term.settle(), "bsd-full-window.txt")
    term.send("W")
    term.wait_for("p: pick", row=11)
    assert_same_screen(term.settle(), "bsd-start.txt")


def test_o_relabels_and_sorts(spawn: Callable[..., Term]) -> None:
    from mille.engine.cards import CARD_NAMES

    term = start(spawn)
    before = hand(term)
    term.send("o")
    term.wait_for("o: stop ordering", row=12)
    lines = term.settle()
    assert_same_screen(lines, "bsd-order-on.txt")
    after = hand(term)
    assert sorted(after) == sorted(before)
    order = [CARD_NAMES.index(name) for name in after if name]
    assert order == sorted(order)
    term.send("o")
    term.wait_for("o: order hand", row=12)
    assert "stop ordering" not in term.settle()[12]


def test_must_pick_first_shows_at_once(spawn: Callable[..., Term]) -> None:
    term = start(spawn, ordered=True)
    bells = term.bells()
    term.send("u1\r")
    term.wait_for("must pick first", row=15)
    lines = term.settle()
    assert lines[15].index("must pick first") == 45
    assert term.bells() > bells
    assert_same_screen(lines, "bsd-error-must-pick.txt")


def test_already_picked_and_quit_prompt(spawn: Callable[..., Term]) -> None:
    term = start(spawn, ordered=True)
    term.send("p")
    term.wait(lambda: hand(term)[0] != "", what="a card in slot P")
    assert "88" in term.lines()[6][20:24]
    term.send("p")
    term.wait_for("already picked", row=15)
    assert_same_screen(term.settle(), "bsd-already-picked.txt")


def test_unknown_command_and_e(spawn: Callable[..., Term]) -> None:
    term = start(spawn)
    term.send("x")
    term.wait_for("unknown command: X", row=15)
    assert term.lines()[15][45:].rstrip() == "unknown command: X"
    term.send("\x18")
    term.wait_for("unknown command: ^X", row=15)
    term.send("e")
    term.wait_for("E: command not implemented", row=15)
    # a longer message is replaced, not overlaid: cleared to the edge
    term.send("z")
    term.wait_for("unknown command: Z", row=15)
    assert error_line(term) == "unknown command: Z"
    # erase and kill are ignored at the move prompt; RETURN and SPACE too
    bells = term.bells()
    term.send("\x7f\x08\x15\r \x00")
    term.send("x")
    term.wait_for("unknown command: X", row=15)
    # the bell comes with the screen update: it may be read just after the text
    term.wait(lambda: term.bells() > bells, what="the bell for X")
    term.settle()
    assert term.bells() == bells + 1


def test_u_echo_erase_and_kill(spawn: Callable[..., Term]) -> None:
    term = start(spawn)
    term.send("u")
    term.wait_for(">>:Move: U", row=10)
    term.send("3")
    term.wait_for(">>:Move: U3", row=10)
    term.send("\x7f")  # erase takes the slot back
    term.wait(lambda: prompt_line(term) == ">>:Move: U", what="U")
    bells = term.bells()
    term.send("9")  # not a slot: beeps
    term.wait(lambda: term.bells() > bells, what="a beep")
    term.send("\x15")  # kill abandons the command
    term.wait(lambda: prompt_line(term) == ">>:Move:", what="bare prompt")
    assert error_line(term) == ""


def test_quit_prompt_no_resumes_yes_exits(spawn: Callable[..., Term]) -> None:
    term = start(spawn, ordered=True)
    term.send("u1\r")
    term.wait_for("must pick first", row=15)
    term.send("q")
    term.wait_for("Really?", row=10)
    assert_same_screen(term.settle(), "bsd-quit-prompt.txt")
    bells = term.bells()
    term.send("x")
    term.wait(lambda: term.bells() > bells, what="a beep")
    term.send("n")
    term.wait_for(">>:Move:", row=10)
    term.send("Q")
    term.wait_for("Really?", row=10)
    term.send("y")
    assert term.wait_exit() == 0
    assert b"Traceback" not in term.raw


def test_ctrl_c_asks_really(spawn: Callable[..., Term]) -> None:
    term = start(spawn)
    term.send("\x03")
    term.wait_for("Really?", row=10)
    term.send("n")
    term.wait_for(">>:Move:", row=10)
    term.send("\x03")
    term.wait_for("Really?", row=10)
    term.send("Y")
    assert term.wait_exit() == 0
    assert b"Traceback" not in term.raw


def test_save_prompt_and_cancel(spawn: Callable[..., Term]) -> None:
    term = start(spawn, ordered=True)
    term.send("p")
    term.wait(lambda: hand(term)[0] != "", what="a card in slot P")
    term.send("p")
    term.wait_for("already picked", row=15)
    term.send("s")
    term.wait_for("file:", row=10)
    assert_same_screen(term.settle(), "bsd-save-prompt.txt")
    term.send("ab")
    term.wait_for("file: ab", row=10)
    term.send("\x7f")
    term.wait(lambda: prompt_line(term) == "file: a", what="file: a")
    term.send("\x15")
    term.wait(lambda: prompt_line(term) == "file:", what="file:")
    term.send("\r")  # an empty name cancels
    term.wait_for(">>:Move:", row=10)
    assert error_line(term) == "already picked"


def test_redraw_keeps_the_screen(spawn: Callable[..., Term]) -> None:
    term = start(spawn)
    before = term.settle()
    term.send("r")
    after = term.settle()
    term.send("\x0c")
    assert term.settle() == before == after


def test_too_small_terminal(spawn: Callable[..., Term]) -> None:
    term = spawn("--seed", "1", cols=79)
    status = term.wait_exit()
    assert status == 1
    assert b"Screen must be at least 24x80" in term.raw


@pytest.mark.parametrize("rows,cols", [(23, 80)])
def test_too_few_lines(spawn: Callable[..., Term], rows: int, cols: int) -> None:
    term = spawn("--seed", "1", rows=rows, cols=cols)
    assert term.wait_exit() == 1
    assert b"Screen must be at least 24x80" in term.raw


def test_resize_shows_notice_then_redraws(spawn: Callable[..., Term]) -> None:
    term = start(spawn)
    before = term.settle()
    term.child.setwinsize(20, 60)
    term.screen.resize(20, 60)
    term.wait_for("Screen must be at least 24x80")
    term.send("p")  # ignored while too small
    term.settle()
    term.child.setwinsize(24, 80)
    term.screen.resize(24, 80)
    term.wait_for("--MILEAGE--", row=17)
    assert term.settle() == before
