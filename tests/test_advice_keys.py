"""H (a hint) and T (the card tracker) on both curses boards, on a stand-in
window (no pty): BSD's board (``mille.frontends.ui.Ui``) and the N-seat board
(``mille.frontends.table_ui.TableUi``).

H shows the expert's move and why on the error line, without a beep and
without touching the table; T shows how many of each card you have not
seen (:func:`mille.engine.describe.unseen`) and T again gives the screen back.
"""

from __future__ import annotations

import curses
import textwrap

import pytest

from mille.engine.cards import D50, FLAT_TIRE, PUNCTURE_PROOF
from mille.engine.describe import card_name, unseen
from mille.engine.rules import Rules, find_rules
from mille.engine.table import COUP, EXTENSION, NO, OVER, PICK, Table, Use
from mille.engine.view import SeatView
from mille.frontends import bsd_screen, screen, ui
from mille.frontends import table_screen as board
from mille.frontends.table_ui import TableUi
from mille.game.session import Session
from mille.players import advice
from support.fakewindow import FakeWindow, OutOfKeys

# a hint compared with another: the same on a loaded machine (conftest.py)
pytestmark = pytest.mark.usefixtures("steady_search_clock")

BSD_ERROR = (15, 45)  # BSD's error line: row 15 from column 45 to 79
TABLE_ERROR = 23  # the N-seat board's error line: all of row 23


@pytest.fixture
def beeps(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every curses.beep() the boards ring."""
    rung: list[int] = []
    monkeypatch.setattr(curses, "beep", lambda: rung.append(1))
    return rung


def play(game: ui.Ui, window: FakeWindow) -> None:
    with pytest.raises(OutOfKeys):
        game.run()


def bsd(keys: str, session: Session) -> tuple[FakeWindow, ui.Ui]:
    window = FakeWindow(keys)
    game = ui.Ui(window, session)  # type: ignore[arg-type]
    play(game, window)
    return window, game


def table_screen(keys: str, session: Session) -> tuple[FakeWindow, TableUi]:
    window = FakeWindow(keys)
    game = TableUi(window, session)  # type: ignore[arg-type]
    play(game, window)
    return window, game


def your_move(session: Session) -> Session:
    """The computers have moved; you have picked: a move with a choice."""
    while session.computer_to_move:
        session.computer_move()
    session.play(PICK)
    return session


def bsd_error(screen: list[str]) -> str:
    y, x = BSD_ERROR
    return screen[y][x:].rstrip()


# ----- H on BSD's board ---------------------------------------------------------


@pytest.mark.parametrize("key", ["h", "H"])
def test_h_shows_the_hint_on_bsds_error_line_and_plays_nothing(key: str, beeps: list[int]) -> None:
    session = your_move(Session.new(seed=4))
    before = session.table.copy()
    window, _ = bsd(key, session)
    assert session.table == before, "a hint never plays"
    wanted = advice.hint(SeatView(before, 0))
    assert wanted.startswith("hint: ")
    shown = bsd_error(window.screens[-1])
    assert shown == screen.fit_line(wanted, 35)
    assert shown.startswith("hint: U") or shown.startswith("hint: D")
    assert window.screens[-1][15][40:45] == "|    ", "the border and the gap stay"
    assert beeps == [], "a hint is a note, not an error"
    assert "unknown command" not in shown


def test_a_long_hint_is_cut_at_a_word_inside_bsds_error_line() -> None:
    assert (
        screen.fit_line("hint: U2 Go - you are stopped and hold 75", 35)
        == "hint: U2 Go - you are stopped..."
    )
    for text in (
        "hint: U2 Go - you are stopped and hold 75 and 100",
        "hint: D3 Puncture Proof - the card you need least",
        "hint: U4 Speed Limit - slows Comp (125 miles)",
        "x" * 60,
    ):
        fitted = screen.fit_line(text, 35)
        assert len(fitted) <= 35
        assert text.startswith(fitted.removesuffix("..."))
    assert (
        screen.fit_line("hint: D3 Puncture Proof - the card you need least", 24)
        == "hint: D3 Puncture Proof"
    )


def test_the_hint_leaves_when_the_position_changes() -> None:
    session = Session.new(seed=4)
    while session.computer_to_move:
        session.computer_move()
    window, _ = bsd("hp", session)
    assert bsd_error(window.screens[1]) == "hint: P - pick first"
    assert bsd_error(window.screens[2]) == "", "stale once you have picked"
    assert session.table.hands[0][0] != -1


def test_a_held_h_asks_the_expert_once(monkeypatch: pytest.MonkeyPatch) -> None:
    session = your_move(Session.new(seed=4))
    calls: list[SeatView] = []
    real = advice.hint

    def counted(view: SeatView) -> str:
        calls.append(view)
        return real(view)

    monkeypatch.setattr(advice, "hint", counted)
    window, _ = bsd("hhhhh", session)
    assert len(calls) == 1
    assert bsd_error(window.screens[-1]).startswith("hint: ")


def test_h_at_bsds_extension_question(beeps: list[int]) -> None:
    session = Session.new(seed=5)
    table = session.table
    table.phase, table.asked = EXTENSION, 0
    before = table.copy()
    window, _ = bsd("h", session)
    assert table == before and table.phase == EXTENSION
    assert window.screens[-1][10][20:40].rstrip() == "Extension?"
    hint = advice.hint(SeatView(before, 0))
    rows = textwrap.wrap(hint, 35)  # a hint too long for the error line: whole, above it
    shown = [row[45:].rstrip() for row in window.screens[-1][16 - len(rows) : 16]]
    assert shown == rows
    assert shown[0][:8] in ("hint: y ", "hint: n ")
    assert beeps == []


# ----- T on BSD's board ---------------------------------------------------------


def read_bsd_tracker(screen: list[str]) -> list[tuple[str, int]]:
    """The tracker's cells, column by column (names 14 wide, counts 3)."""
    rows: list[tuple[str, int]] = []
    for x in (bsd_screen.TRACK_X, bsd_screen.TRACK_X + bsd_screen.TRACK_COLUMN):
        for y in range(bsd_screen.TRACK_Y, bsd_screen.TRACK_Y + 10):
            cell = screen[y][x : x + 17]
            if cell.strip():
                rows.append((cell[:14].strip(), int(cell[14:17])))
    return rows


def test_t_shows_the_tracker_in_bsds_score_window_and_t_gives_it_back() -> None:
    session = your_move(Session.new(seed=4))
    before = session.table.copy()
    window, game = bsd("tt", session)
    scores, tracked, back = window.screens
    assert session.table == before
    counts = unseen(SeatView(before, 0))
    assert read_bsd_tracker(tracked) == [(card_name(card), n) for card, n in enumerate(counts)]
    assert len(counts) == 19
    assert "Not seen yet" in tracked[0]
    assert f"{sum(counts)} cards, {len(before.deck)} of them in the deck" in tracked[13]
    assert "Milestones Played" not in "".join(tracked)
    for y in range(17):  # the border, the error line row and the board are intact
        assert tracked[y][:41] == scores[y][:41]
    assert tracked[15] == scores[15] and tracked[16] == scores[16]
    assert all(row[41:44].strip() == "" for row in tracked[15:17] if row[41] != "_")
    assert tracked[17:] == scores[17:], "the mileage area stays"
    assert back == scores, "T again: exactly the score window as before"
    assert game.screen.tracking is False


def test_t_is_case_insensitive_and_w_also_goes_back_to_the_scores() -> None:
    session = your_move(Session.new(seed=4))
    window, _ = bsd("Tw", session)
    scores, tracked, back = window.screens
    assert "Not seen yet" in tracked[0] and back == scores
    assert session.window_full is False, "W left the tracker, it did not widen the window"


def test_the_tracker_and_a_hint_share_the_score_window() -> None:
    session = your_move(Session.new(seed=4))
    window, _ = bsd("th", session)
    screen = window.screens[-1]
    assert "Not seen yet" in screen[0]
    assert bsd_error(screen).startswith("hint: ")
    assert len(screen[15].rstrip()) <= 80


def test_the_end_of_a_hand_shows_the_scores_even_with_the_tracker_on() -> None:
    session = Session.new(seed=1)
    table = session.table
    while table.phase != OVER:
        if table.phase == EXTENSION:
            session.play(NO)
            continue
        moves = table.legal_moves()
        uses = [m for m in moves if isinstance(m, Use)]
        session.play(PICK if PICK in moves else (uses or moves)[0])
    window = FakeWindow()
    game = ui.Ui(window, session)  # type: ignore[arg-type]
    game.screen.tracking = True
    game.render()
    assert "Trip Completed" in window.full_lines()[5]
    assert "Not seen yet" not in window.full_lines()[0]


# ----- the N-seat board -----------------------------------------------------------


def coup_offered() -> Session:
    """milebymile, 3 seats: Comp 1 plays Flat Tire on you; you hold Puncture Proof."""
    session = Session.new(find_rules("milebymile", players=3), seed=5)
    table = session.table
    table.tableaux[0].problems = []
    table.hands[0][4] = PUNCTURE_PROOF
    for hand in table.hands[1:]:
        if PUNCTURE_PROOF in hand:
            hand[hand.index(PUNCTURE_PROOF)] = D50
    table.to_move = 1
    table.hands[1][0] = FLAT_TIRE
    session.play(Use(0, 1))
    assert table.phase == COUP and table.asked == 0
    return session


@pytest.mark.parametrize(
    "rules",
    [find_rules("classic", players=3), find_rules("milebymile", players=9, karma=True)],
    ids=lambda r: f"{r.name}-{r.players}",
)
def test_h_on_the_n_seat_board(rules: Rules, beeps: list[int]) -> None:
    session = your_move(Session.new(rules, seed=4))
    before = session.table.copy()
    window, _ = table_screen("H", session)
    assert session.table == before
    hint = advice.hint(SeatView(before, 0))
    assert window.screens[-1][TABLE_ERROR].rstrip() == screen.fit_line(hint, board.LAST_COL)
    assert beeps == []


def test_h_at_the_coup_fourre_question() -> None:
    session = coup_offered()
    before = session.table.copy()
    window, _ = table_screen("h", session)
    screen = window.screens[-1]
    assert screen[board.PROMPT_Y].startswith("Coup Fourre?")
    assert session.table == before
    assert screen[TABLE_ERROR].rstrip() == advice.hint(SeatView(before, 0))
    assert screen[TABLE_ERROR].startswith("hint: y - 300 more and the next turn")


def read_table_tracker(screen: list[str]) -> tuple[int, list[tuple[str, int]]]:
    """The row of the tracker's heading and its cells, column by column."""
    top = next(y for y, row in enumerate(screen) if "--NOT SEEN YET--" in row)
    rows: list[tuple[str, int]] = []
    for index in range(board.TRACKER_COLUMNS):
        x = board.LOG_X + index * board.TRACKER_COLUMN
        for y in range(top + 1, board.LOG_BOTTOM + 1):
            cell = screen[y][x : x + 17]
            if cell.strip():
                rows.append((cell[:14].strip(), int(cell[14:17])))
    return top, rows


@pytest.mark.parametrize(
    "rules",
    [
        find_rules("classic", players=2),
        find_rules("classic", players=6),
        find_rules("milebymile", players=6, team_mode="3v3"),
        find_rules("milebymile", players=8, team_mode="2v2v2v2", karma=True),
        find_rules("milebymile", players=9, karma=True),
    ],
    ids=lambda r: f"{r.name}-{r.players}-{r.team_mode}",
)
@pytest.mark.parametrize("full", [False, True])
def test_t_on_the_n_seat_board_fits_and_keeps_your_hand(rules: Rules, full: bool) -> None:
    session = your_move(Session.new(rules, seed=4))
    session.window_full = full
    before = session.table.copy()
    window, _ = table_screen("tt", session)
    logged, tracked, back = window.screens
    assert session.table == before
    top, cells = read_table_tracker(tracked)
    counts = unseen(SeatView(before, 0))
    assert cells == [(card_name(card), n) for card, n in enumerate(counts)]
    assert len(counts) == (20 if rules.karma else 19)
    assert f"{sum(counts)} cards, {len(before.deck)} in the deck" in tracked[top]
    assert tracked[top].startswith("--HAND--")
    for slot, card in enumerate(before.hands[0]):  # your hand stays in view
        assert tracked[top + 1 + slot][:20].rstrip() == (
            ("P" if slot == 0 else str(slot)) + (" " + card_name(card) if card_name(card) else "")
        )
    assert tracked[:top] == logged[:top], "the side rows (or the full table) stay"
    assert tracked[board.PROMPT_Y :] == logged[board.PROMPT_Y :]
    assert all(row[: board.LOG_X] == old[: board.LOG_X] for row, old in zip(tracked, logged))
    assert back == logged, "T again: the log as before"
    big = FakeWindow(rows=24, cols=120)
    game = TableUi(big, session)  # type: ignore[arg-type]
    game.screen.tracking = True
    game.render()
    assert [row[:80] for row in big.full_lines()] == tracked, "nothing cut at 80x24"
    assert not any(row[80:].strip() for row in big.full_lines())


def test_w_keeps_its_meaning_with_the_tracker_on_the_n_seat_board() -> None:
    session = your_move(Session.new(find_rules("classic", players=4), seed=4))
    window, game = table_screen("tw", session)
    assert session.window_full and game.screen.tracking
    assert window.screens[-1][2].startswith("Milestones Played")
    assert any("--NOT SEEN YET--" in row for row in window.screens[-1])


# ----- help ---------------------------------------------------------------------


@pytest.mark.parametrize("which", ["bsd", "classic"])
def test_the_help_lists_h_and_t(which: str) -> None:
    if which == "bsd":
        window, _ = bsd("?", Session.new(seed=1))
        lines = bsd_screen.help_lines("standard")
        assert lines[-2:] == [  # who each level is for (issue 28)
            "Computer: standard (--level: easy for a first game, standard for most, expert",
            "for a challenge).  Press any key to go back to the game.",
        ]
    else:
        window, _ = table_screen("?", Session.new(find_rules("classic", players=3), seed=1))
        lines = board.table_help(find_rules("classic", players=3))
    shown = window.screens[-1]
    assert len(lines) <= 24 and all(len(line) < 80 for line in lines)
    keys = next(row for row in shown if row.startswith("  H "))
    assert "hint" in keys and "  T  " in keys and "not seen" in keys
    assert shown[: len(lines)] == [line.ljust(80) for line in lines]


def test_a_failed_hint_is_an_error_and_the_game_goes_on(
    monkeypatch: pytest.MonkeyPatch, beeps: list[int]
) -> None:
    def broken(table: Table) -> str:
        raise RuntimeError("out of ideas")

    monkeypatch.setattr(advice, "hint", broken)
    session = your_move(Session.new(seed=4))
    before = session.table.copy()
    window, _ = bsd("h", session)
    assert bsd_error(window.screens[-1]) == "no hint: out of ideas"
    assert beeps and session.table == before


# ----- a refused slot (issue 45, item 7) ---------------------------------------------


@pytest.mark.parametrize("preset", ["classic", "milebymile"])
@pytest.mark.parametrize("front", [bsd, table_screen])
def test_a_refused_slot_says_so_on_the_error_line(preset: str, front: object) -> None:
    """d7d4653 showed nothing for D9 RETURN; the line mode says it."""
    session = your_move(Session.new(find_rules(preset), seed=1))
    window, _ = front("d9\r", session)  # type: ignore[operator]
    said = [line for line in window.lines() if "no such slot" in line]
    assert [line.split("|")[-1].strip() for line in said] == ["no such slot: 9 (P or 0, 1-6)"]


def test_a_refused_slot_in_the_bsd_preset_beeps_as_bsd_does() -> None:
    session = your_move(Session.new(find_rules("bsd"), seed=1))
    window, _ = bsd("d9\r", session)
    assert not any("slot" in line for line in window.lines())


@pytest.mark.parametrize(
    "preset,said",
    [
        ("classic", "The game was not saved to /none/x.sav: No such file or directory."),
        ("bsd", "No such file or directory"),  # BSD's own: strerror alone
    ],
)
def test_a_failed_save_on_a_board_names_the_file_but_in_the_bsd_preset(
    preset: str, said: str
) -> None:
    """d7d4653 said only 'No such file or directory' in every preset."""
    front = bsd if preset == "bsd" else table_screen
    session = your_move(Session.new(find_rules(preset), seed=1))
    window, _ = front("s/none/x.sav\r", session)
    assert any(line.split("|")[-1].strip() == said for line in window.lines())
