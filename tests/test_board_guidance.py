"""What the boards tell a newcomer (issue 22), on a stand-in window: the
options in force and who is thinking on the N-seat board's status, the key
reminders, L (the whole hand so far, full screen), a hint too long for the
error line shown whole, the log on a taller terminal, the Games row."""

from __future__ import annotations

import random

import pytest

from mille.engine.describe import hand_lines, seat_name
from mille.engine.rules import find_rules
from mille.engine.table import OVER, PICK, PLAYING
from mille.engine.view import SeatView
from mille.frontends import screen, ui
from mille.frontends import table_screen as board
from mille.frontends.table_ui import TableUi
from mille.game.session import Session
from support.fakewindow import FakeWindow, OutOfKeys

PROMPT_Y, ERROR_Y = 22, 23


def table_window(keys: str | bytes = "", rows: int = 24) -> FakeWindow:
    return FakeWindow(keys, rows, 80, prompt=(rows - 2, 0, 80), error=(rows - 1, 0))


def play(game: ui.Ui) -> None:
    with pytest.raises(OutOfKeys):
        game.run()


def your_move(session: Session) -> Session:
    """The computers have moved; you have picked."""
    while session.computer_to_move:
        session.computer_move()
    session.play(PICK)
    return session


def rounds(session: Session, count: int) -> Session:
    """``count`` turns of yours (pick, discard slot 1), every computer's between."""
    for _ in range(count):
        while session.computer_to_move:
            session.computer_move()
        session.play(PICK)
        moves = [m for m in session.table.legal_moves() if m != PICK]
        session.play(random.Random(len(session.log)).choice(moves))
    while session.computer_to_move and session.table.phase == PLAYING:
        session.computer_move()
    return session


# ----- the N-seat board's status and reminders ------------------------------------


@pytest.mark.parametrize(
    "rules,level,status",
    [
        (find_rules("classic", players=3), "standard", "standard computers"),
        (find_rules("classic", players=2), "easy", "easy computer"),
        (
            find_rules("milebymile", players=6, team_mode="2v2v2", karma=True),
            "expert",
            "karma; expert computers",
        ),
        (
            find_rules(
                "milebymile",
                players=4,
                stacking=True,
                reshuffle=False,
                perfect_crossing=False,
                rigging="2x attacks",
                winning_score=3000,
            ),
            "standard",
            "game 3000, no perfect crossing, stacking, no re...",
        ),  # cut: ? has them all
    ],
)
def test_the_status_shows_the_options_that_differ_and_the_level(
    rules: object, level: str, status: str
) -> None:
    session = your_move(Session.new(rules, seed=1, level=level))  # type: ignore[arg-type]
    window = table_window()
    game = TableUi(window, session)  # type: ignore[arg-type]
    game.render()
    row = window.lines()[PROMPT_Y]
    assert row.startswith(">>:Move:") and row.endswith(status) and len(row) == 80


def test_the_status_in_french_puts_its_space_before_the_semicolon() -> None:
    """``karma ; ordinateurs : expert``: French puts a no-break space before
    ``;`` (the status line joined its parts with an English ``; ``)."""
    from mille import i18n

    assert i18n.choose("fr") == "fr"
    rules = find_rules("milebymile", players=6, team_mode="2v2v2", karma=True)
    session = your_move(Session.new(rules, seed=1, level="expert"))
    window = table_window()
    game = TableUi(window, session)  # type: ignore[arg-type]
    game.render()
    assert window.lines()[PROMPT_Y].rstrip().endswith("karma\u00a0; ordinateurs\u00a0: expert")


@pytest.mark.parametrize(
    "rules,humans,status",
    [
        (find_rules("classic", players=2), (0, 1), ">>:Move:"),  # a hot seat: no computer
        (find_rules("classic", players=4), (0, 1, 2), "standard computer"),
        (find_rules("milebymile", players=2, winning_score=3000), (0, 1), "game 3000"),
    ],
)
def test_the_status_names_a_computer_only_where_one_plays(
    rules: object, humans: tuple[int, ...], status: str
) -> None:
    """d7d4653 said 'standard computer' at a hot seat of two people."""
    session = your_move(Session.new(rules, seed=1, humans=humans))  # type: ignore[arg-type]
    window = table_window()
    TableUi(window, session).render()  # type: ignore[arg-type]
    row = window.lines()[PROMPT_Y].rstrip()
    assert row.startswith(">>:Move:") and row.endswith(status), row
    assert "computer" not in row or status.endswith("computer")


def test_the_reminders_mention_hint_tracker_help_and_the_whole_hand() -> None:
    session = your_move(Session.new(find_rules("milebymile", players=9), seed=1))
    window = table_window()
    TableUi(window, session).render()  # type: ignore[arg-type]
    lines = window.lines()
    assert lines[19].startswith("h: hint  t: tracker")
    assert lines[20].startswith("w: scores  ?: help")
    assert lines[21].startswith("o: order hand")
    assert "--SINCE YOUR LAST TURN--  (l: the whole hand)" in lines[11]
    assert lines[18].startswith("6 "), "the hand's last slot is above the reminders"


def test_each_computer_is_shown_thinking_before_it_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    session = Session.new(find_rules("milebymile", players=6), seed=3)
    window = table_window("pd1\r")
    game = TableUi(window, session)  # type: ignore[arg-type]
    seen: list[tuple[str, str]] = []
    move = Session.computer_move

    def computer_move(self: Session) -> object:
        seat = self.table.current_player
        assert seat is not None
        seen.append((seat_name(self.rules, seat, 0), window.lines()[PROMPT_Y]))
        return move(self)

    monkeypatch.setattr(Session, "computer_move", computer_move)
    play(game)
    assert len(seen) >= 5
    for name, row in seen:
        assert row.endswith(f"{name} is thinking..."), row
    assert window.lines()[PROMPT_Y].endswith("standard computers"), "your turn: the options"
    assert not game.screen.thinking


# ----- L: the whole hand -------------------------------------------------------------


def test_l_shows_the_whole_hand_and_scrolls_on_the_n_seat_board() -> None:
    session = rounds(Session.new(find_rules("milebymile", players=9), seed=4), 4)
    session.play(PICK)
    keys = b"L" + b"\x1b[A" + b"\x1b[5~" + b"g" + b" " + b"G" + b"x" + b"q"
    window = table_window(keys)
    game = TableUi(window, session)  # type: ignore[arg-type]
    play(game)
    wanted = hand_lines(session.view(0), session.log)
    assert len(wanted) > 30, "more than one screen"
    board_before, view, up, page_up, home, down, end, refused, back = window.screens
    n = len(wanted)

    def title(top: int) -> str:
        return f"The hand so far (lines {top + 1}-{top + 22} of {n})"

    assert view[0].rstrip() == title(n - 22), "from the end"
    assert [row.rstrip() for row in view[1:23]] == wanted[-22:]
    assert view[23].startswith("up/down, PgUp/PgDn, space, Home/End: scroll")
    assert up[0].rstrip() == title(n - 23)
    assert page_up[0].rstrip() == title(max(n - 45, 0))
    assert home[0].rstrip() == title(0)
    assert [row.rstrip() for row in home[1:23]] == wanted[:22]
    assert down[0].rstrip() == title(min(22, n - 22))
    assert end == view and refused == view
    assert back == board_before, "q: the board again"
    assert game.screen.viewing is None and session.table.phase == PLAYING
    short = board.log_lines(session, 0)
    assert len(short) < n and wanted[-len(short) :] == short, "the short log: the end of it"


def test_l_on_bsds_board_tells_both_players_moves_and_escape_leaves() -> None:
    session = Session.new(seed=4)
    window = FakeWindow(b"pd3\rL\x1bx")
    game = ui.Ui(window, session)  # type: ignore[arg-type]
    play(game)
    view = window.screens[-2]
    lines = [row.rstrip() for row in view]
    wanted = hand_lines(session.view(0), session.log)
    assert lines[0] == f"The hand so far (lines 1-{len(wanted)} of {len(wanted)})"
    assert lines[1 : 1 + len(wanted)] == wanted
    assert any(line.startswith("You drew ") for line in wanted)
    assert any(line.startswith("You discarded ") for line in wanted)
    assert any(line.startswith("Comp 1 ") for line in wanted)
    assert window.screens[-1][17].startswith("--MILEAGE--"), "ESC: BSD's board again"
    assert window.errors[-1] == "unknown command: X", "the key after ESC is a command"


def test_a_taller_terminal_gives_the_log_more_rows() -> None:
    session = rounds(Session.new(find_rules("milebymile", players=9), seed=1), 3)
    lines = board.log_lines(session, 0)
    short, tall = table_window(), table_window(rows=40)
    TableUi(short, session).render()  # type: ignore[arg-type]
    TableUi(tall, session).render()  # type: ignore[arg-type]
    lower = board.SIDES_Y + board.side_rows(session.view(0))
    assert short.lines()[lower + 1].startswith("P")
    assert "earlier lines not shown" in short.lines()[lower + 1]
    logged = [row[board.LOG_X :] for row in tall.lines()[lower + 1 : 38] if row[board.LOG_X :]]
    assert logged == lines, "every line of the log"
    assert tall.lines()[38].startswith(">>:Move:") and tall.lines()[35].startswith("h: hint")


# ----- a hint shown whole --------------------------------------------------------------


LONG = "hint: U4 Right of Way - safe for good, another turn, and more words to wrap them"


def test_a_long_hint_is_shown_whole_on_bsds_board_until_the_next_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("mille.players.advice.hint", lambda table: LONG)
    session = your_move(Session.new(seed=10))
    window = FakeWindow(b"r")
    game = ui.Ui(window, session)  # type: ignore[arg-type]
    game.render()
    before = window.full_lines()
    window.keys = list(b"hr")
    play(game)
    shown, after = window.screens[-2:]
    rows = [row[45:].rstrip() for row in shown[13:16]]
    assert rows == [
        "hint: U4 Right of Way - safe for",
        "good, another turn, and more words",
        "to wrap them",
    ]
    assert all(row[41:45] == "    " for row in shown[13:16]), "the rows under it blanked"
    assert shown[:13] == before[:13] and shown[16:] == before[16:], "the rest is BSD's"
    assert after[:15] == before[:15], "the next key gives the score window back"
    assert after[15][45:].rstrip() == screen.fit_line(LONG, 35)


def test_a_hint_that_fits_changes_only_bsds_error_line() -> None:
    session = your_move(Session.new(seed=4))
    window = FakeWindow(b"r")
    game = ui.Ui(window, session)  # type: ignore[arg-type]
    game.render()
    before = window.full_lines()
    window.keys = list(b"h")
    play(game)
    shown = window.screens[-1]
    assert shown[:15] == before[:15] and shown[16:] == before[16:]
    assert shown[15][45:].startswith("hint: U2 Go - stopped; you hold 75")


def test_a_long_hint_is_shown_whole_on_the_n_seat_board(monkeypatch: pytest.MonkeyPatch) -> None:
    text = LONG + " " + "x" * 30
    monkeypatch.setattr("mille.players.advice.hint", lambda table: text)
    session = your_move(Session.new(find_rules("classic", players=3), seed=1))
    window = table_window(b"hr")
    play(TableUi(window, session))  # type: ignore[arg-type]
    shown, after = window.screens[-2:]
    assert [row[board.LOG_X :].rstrip() for row in shown[20:22]] == [
        "hint: U4 Right of Way - safe for good, another turn, and",
        "more words to wrap them " + "x" * 30,
    ]
    assert shown[ERROR_Y].rstrip() == screen.fit_line(text, 79)
    assert after[20][board.LOG_X :].strip() == "", "the next key: the log again"


# ----- the Games row --------------------------------------------------------------------


def game_won(rules: object) -> Session:
    """The first hand is over and side 2's total has reached 5000."""
    session = Session.new(rules, seed=2)  # type: ignore[arg-type]
    table = session.table
    table.phase = OVER
    table.totals = [1000] + [5000] + [0] * (table.rules.sides - 2)
    assert table.game_over
    return session


def test_the_full_table_counts_the_game_just_won() -> None:
    """It read 0 under ``Comp 1 wins the game``: the table counts a game
    only when the next hand is dealt."""
    session = game_won(find_rules("classic", players=3))
    window = table_window()
    TableUi(window, session).render()  # type: ignore[arg-type]
    games = next(row for row in window.lines() if row.startswith("Games"))
    assert games[board.LABEL_WIDTH :].split() == ["0", "1", "0"]
    assert any("Comp 1 wins the game" in row for row in window.lines())
    session.next_hand()
    assert session.table.games == [0, 1, 0], "counted once"


def test_bsds_board_counts_a_game_when_the_next_starts_as_bsd() -> None:
    """BSD's mille adds the game to Games when the next game starts (or
    when you decline another): at ``Another game?`` its board still shows
    the old count, and so does this one."""
    session = game_won(find_rules("bsd"))
    window = FakeWindow()
    game = ui.Ui(window, session)  # type: ignore[arg-type]
    game.render()
    assert window.lines()[14][41:].split() == ["Games", "0", "0"]


@pytest.mark.parametrize("which", ["bsd", "table"])
def test_l_at_another_hand_shows_how_the_hand_went(which: str) -> None:
    rules = find_rules("bsd") if which == "bsd" else find_rules("classic", players=3)
    session = Session.new(rules, seed=6)
    table = session.table
    while table.phase != OVER:
        if session.computer_to_move:
            session.computer_move()
        else:
            session.play(random.Random(len(session.log)).choice(table.legal_moves()))
    window = FakeWindow(b"Lq") if which == "bsd" else table_window(b"Lq")
    game = (
        ui.Ui(window, session)  # type: ignore[arg-type]
        if which == "bsd"
        else TableUi(window, session)  # type: ignore[arg-type]
    )
    with pytest.raises(OutOfKeys):
        game.end_of_hand()  # (run() would deal the next hand of a game saved at its end)
    asked, view, back = window.screens
    wanted = hand_lines(SeatView(table, 0), session.log)
    assert wanted[-1].endswith(
        (
            "completes the trip (700 miles).",
            "complete the trip (700 miles).",
            "nobody completed the trip.",
        )
    )
    assert "Another hand?" in asked[10 if which == "bsd" else PROMPT_Y]
    assert view[0].startswith("The hand so far (lines ")
    shown = [row.rstrip() for row in view[1:23] if row.strip()]
    assert shown == wanted[-len(shown) :]
    assert back == asked and session.table.phase == OVER


def test_j_and_c_at_one_keyboard_say_they_are_for_a_network_game() -> None:
    """J (the table) and C (a chat line) are a network game's keys: at one
    keyboard each says so, on both boards, and ? lists them only over the
    network."""
    for make, session, error_at in (
        (ui.Ui, Session.new(seed=4), (15, 45)),
        (TableUi, Session.new(find_rules("classic", players=3), seed=4), (23, 0)),
    ):
        while session.computer_to_move:
            session.computer_move()
        window = FakeWindow(b"jc", prompt=(22, 0, 80), error=error_at)
        play(make(window, session))  # type: ignore[arg-type]
        assert window.errors[1:] == [ui.NO_TABLE, ui.NO_CHAT]
        assert ui.NO_TABLE == "J: the table of a network game"
        assert ui.NO_CHAT == "C: chat is for a network game"
        help_text = "\n".join(make(FakeWindow(), session).screen.help_lines())  # type: ignore[arg-type]
        assert "J " not in help_text and "a line to the table" not in help_text
