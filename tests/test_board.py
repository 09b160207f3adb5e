"""The board of the classic and milebymile presets, on a stand-in window.

``mille.frontends.table_ui.TableUi`` is driven with scripted keys on a fake curses
window (no pty): the layout for every seat count and team mode, the target
prompt, the coup and extension questions, the end-of-hand table, W, the log.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from mille.engine.cards import (
    D50,
    DRIVING_ACE,
    END_OF_LIMIT,
    EXTRA_TANK,
    FLAT_TIRE,
    GO,
    NO_CARD,
    OUT_OF_GAS,
    PUNCTURE_PROOF,
    RIGHT_OF_WAY,
    SPEED_LIMIT,
    STOP,
)
from mille.engine.describe import describe, score_rows, score_table, side_members, side_name
from mille.engine.rules import TEAM_MODES, Rules, find_rules
from mille.engine.table import COUP, EXTENSION, NO, OVER, PICK, PLAYING, Discard, Use
from mille.engine.view import SeatView
from mille.frontends import table_screen as board
from mille.frontends import tui, ui
from mille.frontends.table_ui import TableUi
from mille.game.session import Session
from support import fakewindow
from support.fakewindow import OutOfKeys

PROMPT_Y, ERROR_Y = 22, 23


class FakeWindow(fakewindow.FakeWindow):
    """The fake window, noting the N-seat board's prompt and error rows."""

    def __init__(self, keys: str | bytes = "", rows: int = 24, cols: int = 80) -> None:
        super().__init__(keys, rows, cols, prompt=(PROMPT_Y, 0, cols), error=(ERROR_Y, 0))


def bare(prompt: str) -> str:
    """The prompt row without the status at its right."""
    return prompt[: board.STATUS_X].rstrip()


def drawn(session: Session, rows: int = 24, cols: int = 80) -> FakeWindow:
    window = FakeWindow("", rows, cols)
    TableUi(window, session).render()  # type: ignore[arg-type]
    return window


def run(session: Session, keys: str | bytes) -> tuple[FakeWindow, TableUi]:
    """Play ``keys`` until they run out (the game waits for another)."""
    window = FakeWindow(keys)
    game = TableUi(window, session)  # type: ignore[arg-type]
    with pytest.raises(OutOfKeys):
        game.run()
    return window, game


def configurations() -> Iterator[Rules]:
    """Every seat count and team mode of classic and milebymile (karma where
    it is allowed, as it adds a column)."""
    for players in (2, 3, 4, 6):
        yield find_rules("classic", players=players)
    for players in range(2, 10):
        for mode in TEAM_MODES[players]:
            rules = find_rules("milebymile", players=players, team_mode=mode)
            yield rules
            if rules.sides >= 3:
                yield find_rules("milebymile", players=players, team_mode=mode, karma=True)


CONFIGURATIONS = list(configurations())


def label(rules: Rules) -> str:
    return f"{rules.name}-{rules.players}-{rules.team_mode}{'-karma' if rules.karma else ''}"


def crowded(rules: Rules) -> Session:
    """A session whose board shows the widest of everything: every safety a
    coup fourre, the longest tops, big mileages and totals."""
    session = Session.new(rules, seed=1)
    table = session.table
    for tab in table.tableaux:
        tab.safeties = [EXTRA_TANK, PUNCTURE_PROOF, DRIVING_ACE, RIGHT_OF_WAY]
        tab.coups = [True] * 4
        tab.mileage = 3000 if rules.name == "milebymile" else 1000
        if rules.battle == "stack":
            tab.battle, tab.speed = [GO, OUT_OF_GAS], [SPEED_LIMIT, END_OF_LIMIT]
        else:
            tab.problems = [STOP, OUT_OF_GAS, SPEED_LIMIT]
    table.totals = [16000] * rules.sides
    table.discard = [END_OF_LIMIT]
    return session


# ----- the layout -------------------------------------------------------------


@pytest.mark.parametrize("rules", CONFIGURATIONS, ids=label)
def test_the_board_fits_80x24_with_every_side_on_it(rules: Rules) -> None:
    session = crowded(rules)
    for full in (False, True):
        session.window_full = full
        small = drawn(session)
        wide = drawn(session, cols=130)
        assert wide.lines() == small.lines(), "nothing cut at 80x24"
        assert all(len(line) <= 80 for line in wide.lines()), "nothing right of column 79"
        tall = drawn(session, rows=40).lines()  # (the log is empty)
        foot = 2 if full else 5  # the prompt and error line, the reminders above
        top = 24 - foot
        assert tall[:top] == small.lines()[:top] and not any(tall[top : 40 - foot])
        assert tall[40 - foot :] == small.lines()[top:], "the foot at the foot"
    session.window_full = False
    lines = drawn(session).lines()
    team = rules.sides < rules.players
    y = board.SIDES_Y
    for side in range(1, rules.sides + 1):
        row = lines[y].ljust(80)
        assert row[0:2] == f"{side:2d}"
        assert row[3:9].strip() == side_name(rules, side, 0)
        assert row[10:15].strip() == str(session.table.tableaux[side - 1].mileage)
        assert row[16:26].strip() == "Out of Gas"
        assert row[40:62] == "Tank* Proof* Ace* RoW*"
        total = session.table.total(side)
        assert row[69:74].strip() == str(session.table.hand_score(side).total)
        assert row[74:80].strip() == str(total)
        if rules.karma:
            assert row[63:68].strip() == "yes"
        y += 1
        if team:
            assert lines[y].strip() == side_members(rules, side, 0)
            y += 1
    assert lines[0].startswith(board.game_title(session.view(0)))
    assert "Discard End of Limit" in lines[0]


def test_classic_stack_shows_its_speed_top() -> None:
    lines = drawn(crowded(find_rules("classic", players=6))).lines()
    assert lines[board.SIDES_Y][27:39] == "End of Limit"


@pytest.mark.parametrize(
    "rules",
    [
        find_rules("classic", players=3),
        find_rules("milebymile", players=9, karma=True),
        find_rules("milebymile", players=8, team_mode="2v2v2v2"),
    ],
    ids=label,
)
def test_seeded_hands_always_fit(rules: Rules) -> None:
    """Real positions of a whole hand, every side and question, drawn at
    80x24 and on a bigger window: the same cells."""
    session = Session.new(rules, seed=3)
    rng = random.Random(3)
    table = session.table
    while table.phase != OVER:
        small, wide = drawn(session), drawn(session, cols=120)
        assert wide.lines() == small.lines()
        if session.computer_to_move:
            session.computer_move()
        else:
            session.play(rng.choice(table.legal_moves()))
    session.window_full = True
    assert drawn(session, cols=120).lines() == drawn(session).lines()


def test_the_bsd_preset_keeps_bsds_board() -> None:
    assert tui.board_class(Session.new(seed=1)) is ui.Ui
    assert tui.board_class(Session.new(find_rules("classic"), seed=1)) is TableUi


# ----- the target of a hazard -------------------------------------------------


def three_sides(card: int) -> Session:
    """milebymile, 3 seats: you to move, ``card`` in slot 1."""
    session = Session.new(find_rules("milebymile", players=3), seed=4)
    session.table.hands[0][1] = card
    return session


def test_a_hazard_asks_for_the_side_and_shows_the_engines_refusals() -> None:
    session = three_sides(SPEED_LIMIT)
    window, _ = run(session, "pu1\r4\ru1\r1\ru1\r\ru1\rx3\r")
    prompts = window.prompts
    assert "Speed Limit on side:" in prompts
    assert "Speed Limit on side: 4" in prompts
    at_target = window.errors[prompts.index("Speed Limit on side:")]
    assert at_target == "2 Comp 1  3 Comp 2", "the sides to choose from"
    errors = [e for e in dict.fromkeys(window.errors) if e and e != at_target]
    assert errors == ["no such opponent", "can't attack your own side", "which opponent?"]
    assert "Speed Limit on side: x" in prompts, "a refused key is shown until replaced"
    assert session.table.hands[0][1] != SPEED_LIMIT, "played at last"
    event = next(e for e in session.log if e.outcome.card == SPEED_LIMIT)
    assert event.outcome.move == Use(1, 3)


def test_a_hazard_no_side_can_take_is_refused_at_once() -> None:
    """Issue 28: every car is stopped at the start of Mile by Mile, so a
    Stop can hit nobody: the engine's reason at once, no ``Stop on side:``."""
    session = three_sides(STOP)
    window, _ = run(session, "pu1\r")
    assert "Stop on side:" not in window.prompts
    assert window.errors[-1] == "opponent cannot go"
    assert window.prompts[-1].startswith(">>:Move: ")
    assert session.table.hands[0][1] == STOP, "nothing played"


def test_a_hazard_lists_only_the_sides_it_can_hit() -> None:
    """Issue 28: a protected side is not offered (the engine refuses it if
    typed all the same)."""
    session = three_sides(SPEED_LIMIT)
    session.table.tableaux[1].safeties.append(RIGHT_OF_WAY)
    window, _ = run(session, "pu1\r2\r")
    at_target = window.errors[window.prompts.index("Speed Limit on side:")]
    assert at_target == "3 Comp 2"
    assert window.errors[-1] == "opponent is protected"


def test_the_side_is_played_on_and_the_log_says_so() -> None:
    session = three_sides(SPEED_LIMIT)
    run(session, "pu1\r3\r")
    event = session.log[1]
    assert event.outcome.move == Use(1, 3) and event.outcome.card == SPEED_LIMIT
    assert describe(session.view(0), event) == ["You played Speed Limit on side 3 (Comp 2)"]


def test_erase_at_the_side_abandons_the_command() -> None:
    session = three_sides(SPEED_LIMIT)
    window, _ = run(session, "pu1\r\x7f")
    assert bare(window.prompts[-1]) == ">>:Move:"
    assert session.table.hands[0][1] == SPEED_LIMIT and session.table.to_move == 0


def test_no_side_is_asked_with_one_opposing_side_or_before_picking() -> None:
    session = Session.new(find_rules("milebymile", players=4, team_mode="2v2"), seed=4)
    session.table.hands[0][1] = SPEED_LIMIT
    window, _ = run(session, "u1\rpu1\r")
    assert not any("on side" in prompt for prompt in window.prompts)
    assert "must pick first" in window.errors
    assert session.log[1].outcome.move == Use(1) and session.log[1].outcome.card == SPEED_LIMIT


# ----- questions --------------------------------------------------------------


def coup_offered(team: bool = False) -> Session:
    """Comp 1 plays Flat Tire on your rolling side; you hold Puncture Proof."""
    rules = (
        find_rules("milebymile", players=4, team_mode="2v2")
        if team
        else find_rules("milebymile", players=3)
    )
    session = Session.new(rules, seed=5)
    table = session.table
    table.tableaux[0].problems = []
    table.hands[0][4] = PUNCTURE_PROOF
    for hand in table.hands[1:]:
        if PUNCTURE_PROOF in hand:
            hand[hand.index(PUNCTURE_PROOF)] = D50
    table.to_move = 1
    table.hands[1][0] = FLAT_TIRE  # picked
    session.play(Use(0, 1))
    assert table.phase == COUP and table.asked == 0
    return session


def test_coup_fourre_names_the_hazard_and_the_safety() -> None:
    session = coup_offered()
    window, _ = run(session, "xy")
    assert window.prompts[0] == (
        "Coup Fourre?    Comp 1: Flat Tire on you - you hold Puncture Proof"
    )
    assert window.prompts[1] == window.prompts[0], "x is refused"
    table = session.table
    assert PUNCTURE_PROOF in table.tableaux[0].safeties and table.tableaux[0].coups[1]
    assert table.phase == PLAYING and table.to_move == 0
    assert bare(window.prompts[2]) == ">>:Move:", "your turn comes at once"
    assert any("You: Coup Fourre! Puncture Proof" in line for line in window.lines())
    assert window.lines()[board.SIDES_Y][40:62].strip() == "Proof*"


def test_coup_fourre_declined_and_team_words() -> None:
    session = coup_offered(team=True)
    window, _ = run(session, "n")
    assert window.prompts[0].endswith("Comp 1: Flat Tire on your team - you hold Puncture Proof")
    assert PUNCTURE_PROOF not in session.table.tableaux[0].safeties
    assert PUNCTURE_PROOF in session.table.hands[0]


def extension_asked() -> Session:
    """classic, 2 seats: you at 650, rolling, with a 50 in slot 1."""
    session = Session.new(find_rules("classic", players=2), seed=6)
    table = session.table
    tab = table.tableaux[0]
    tab.battle, tab.mileage = [GO], 650
    table.hands[0][1] = D50
    return session


def test_extension_yes_races_on_to_1000() -> None:
    session = extension_asked()
    window, _ = run(session, "pu1\ry")
    assert "Extension?      700 miles: y races on to 1000, n ends the hand" in window.prompts
    table = session.table
    assert table.target == 1000 and table.extender == 1 and table.phase == PLAYING
    assert "Target 1000 Extension" in window.lines()[0]
    assert any("You went for the extension" in line for line in window.lines())


def test_extension_no_ends_the_hand_with_the_full_table() -> None:
    session = extension_asked()
    window, _ = run(session, "pu1\rn")
    assert window.prompts[-1] == "Another hand?"
    assert session.table.phase == OVER
    lines = window.lines()
    assert lines[2].startswith("Milestones Played")
    assert any("You complete the trip (700 miles)." in line for line in lines)


def test_a_computers_question_is_answered_for_it() -> None:
    session = Session.new(find_rules("classic", players=3), seed=2)
    table = session.table
    table.phase, table.asked, table.to_move = EXTENSION, 1, 2
    window = FakeWindow("")
    game = TableUi(window, session)  # type: ignore[arg-type]
    game.step()
    assert table.phase != EXTENSION and window.prompts == []


# ----- the end of a hand and W ------------------------------------------------


def finished(rules: Rules, seed: int, totals: int = 0) -> Session:
    """A hand played out by simple moves (you and the computers)."""
    session = Session.new(rules, seed=seed)
    table = session.table
    table.totals = [totals * side for side in range(1, rules.sides + 1)]
    while table.phase != OVER:
        if session.computer_to_move:
            session.computer_move()
        elif table.phase != PLAYING:
            session.play(NO)
        else:
            moves = table.legal_moves()
            uses = [m for m in moves if isinstance(m, Use)]
            session.play(PICK if PICK in moves else (uses or moves)[0])
    return session


def at_end_of_hand(session: Session, keys: str) -> FakeWindow:
    """The end-of-hand prompts with ``keys`` (OutOfKeys when they run out)."""
    window = FakeWindow(keys)
    game = TableUi(window, session)  # type: ignore[arg-type]
    try:
        game.end_of_hand()
    except OutOfKeys:
        pass
    return window


def read_table(lines: list[str], sides: int) -> dict[str, list[int]]:
    """The full score table as drawn: label -> one number per side."""
    rows = {}
    for line in lines[2:]:
        if not line.strip() or line.startswith("--HAND--"):
            break  # under the table
        label, numbers = line[: board.LABEL_WIDTH].strip(), line[board.LABEL_WIDTH :].split()
        assert label and len(numbers) == sides, line
        rows[label] = [int(n) for n in numbers]
    return rows


@pytest.mark.parametrize(
    "rules,seed",
    [
        (find_rules("classic", players=4), 5),
        (find_rules("classic", players=3), 7),
        (find_rules("milebymile", players=3), 8),
        (find_rules("milebymile", players=9, team_mode="3v3v3", karma=True), 9),
        (find_rules("milebymile", players=5, perfect_crossing=False), 10),
    ],
    ids=lambda value: label(value) if isinstance(value, Rules) else str(value),
)
def test_the_end_of_hand_table_adds_up(rules: Rules, seed: int) -> None:
    session = finished(rules, seed, totals=100)
    window = at_end_of_hand(session, "")
    assert window.prompts == ["Another hand?"]
    rows = read_table(window.lines(), rules.sides)
    labels = [label for label, _ in score_rows(rules)]
    assert list(rows) == labels + ["Hand Total", "Overall Total", "Games"]
    for index in range(rules.sides):
        hand = sum(rows[label][index] for label in labels)
        assert rows["Hand Total"][index] == hand
        assert rows["Overall Total"][index] == 100 * (index + 1) + hand
    width = min(board.MAX_COLUMN, (80 - board.LABEL_WIDTH) // rules.sides)
    heading = window.lines()[1].ljust(80)
    for index in range(rules.sides):
        x = board.LABEL_WIDTH + index * width
        assert heading[x : x + width].strip() == side_name(rules, index + 1, 0)


def test_another_game_after_a_winning_hand_then_a_new_deal() -> None:
    rules = find_rules("classic", players=4)
    session = finished(rules, 5, totals=0)
    winner = max((1, 2), key=session.table.total)
    session.table.totals[winner - 1] = 5000
    window = at_end_of_hand(session, "y")
    assert window.prompts[:1] == ["Another game?"]
    assert session.table.games[winner - 1] == 1 and session.table.phase == PLAYING


def test_w_toggles_the_full_table() -> None:
    session = Session.new(find_rules("milebymile", players=6, team_mode="3v3"), seed=11)
    window = FakeWindow("ww")
    game = TableUi(window, session)  # type: ignore[arg-type]
    game.render()
    assert window.line(2).startswith(" 1 Team A")
    with pytest.raises(OutOfKeys):
        game.run()
    assert session.window_full is False
    game.session.window_full = True
    game.render()
    assert window.line(2).startswith("Milestones Played")
    assert window.line(1).split() == ["Team", "A", "Team", "B"]
    rows = len(score_table(session.view(0)))
    assert rows == 10 and window.line(2 + rows).strip() == ""
    assert "--HAND--" in window.line(2 + rows + 1), "the hand right under the table"


def test_w_is_one_key_each_way() -> None:
    session = Session.new(find_rules("classic", players=2), seed=11)
    window, _ = run(session, "w")
    assert session.window_full
    assert window.lines()[2].startswith("Milestones Played")


# ----- the log ------------------------------------------------------------------


def test_the_log_starts_at_your_last_move() -> None:
    """What your move caused is shown with it (issue 28: after a Stop the
    board showed the karma clash with no reason)."""
    session = Session.new(find_rules("classic", players=4), seed=12)
    table = session.table
    moves = table.legal_moves()
    session.play(PICK)
    uses = [m for m in table.legal_moves() if isinstance(m, (Use, Discard))]
    session.play(uses[0])
    mine = len(session.log) - 1
    while session.computer_to_move:
        session.computer_move()
    assert moves == [PICK]
    events = board.since_last_turn(session.log, 0)
    assert events == session.log[mine:], "from your move on"
    expected = [line for e in events for line in describe(SeatView(table, 0), e)]
    assert board.log_lines(session, 0) == expected
    lines = drawn(session).lines()
    lower = board.SIDES_Y + board.side_rows(SeatView(table, 0))
    shown = [line[board.LOG_X :] for line in lines[lower + 1 : board.LOG_BOTTOM + 1]]
    assert shown[: len(expected)] == expected
    assert expected[0].startswith("You ")
    assert not any(line.startswith("You ") for line in expected[1:])


def test_a_safety_does_not_end_your_turn_in_the_log() -> None:
    session = Session.new(find_rules("classic", players=2), seed=13)
    table = session.table
    table.hands[0][2] = RIGHT_OF_WAY
    session.play(PICK)
    session.play(Use(2))
    assert board.since_last_turn(session.log, 0) == session.log


def test_long_logs_keep_the_latest_lines() -> None:
    lines = [f"line {n}" for n in range(30)]
    fitted = board.fit_lines(lines, 60, 10)
    assert fitted[0] == "(21 earlier lines not shown)" and fitted[1:] == lines[21:]
    assert board.fit_lines(["x" * 70], 60, 10) == ["x" * 60, "  " + "x" * 10]


def test_restored_note_stays_until_you_move() -> None:
    session = Session.new(find_rules("milebymile", players=3), seed=14)
    session.table.to_move = 1
    window = FakeWindow("p")
    game = TableUi(window, session, "game [Sat Nov 21 22:34:38 2026]")  # type: ignore[arg-type]
    with pytest.raises(OutOfKeys):
        game.run()
    assert window.errors[0] == "game [Sat Nov 21 22:34:38 2026]"
    assert session.table.hands[0][0] != NO_CARD


def all_options() -> Iterator[Rules]:
    """Every configuration, and milebymile's with its options the other way."""
    yield from CONFIGURATIONS
    for players in range(2, 10):
        for mode in TEAM_MODES[players]:
            rules = find_rules("milebymile", players=players, team_mode=mode)
            karma = rules.sides >= 3
            yield find_rules(
                "milebymile",
                players=players,
                team_mode=mode,
                karma=karma,
                distance=2500,
                winning_score=10000,
                perfect_crossing=False,
                stacking=True,
                reshuffle=False,
                always_discard=False,
                rigging="no duplicates",
            )


@pytest.mark.parametrize("rules", list(all_options()), ids=label)
def test_help_fits_the_screen(rules: Rules) -> None:
    for level in ("easy", "standard", "expert"):
        lines = board.table_help(rules, level)
        assert len(lines) <= 24 and all(len(line) < 80 for line in lines)
    window, _ = run(Session.new(rules, seed=1), "?")
    lines = board.table_help(rules)
    assert window.lines()[: len(lines)] == lines


@pytest.mark.parametrize(
    "rules,has,lacks",
    [
        (
            find_rules("classic", players=2),
            [
                "Coup Fourre?, Extension?, Discard a safety?: H, T, L too",
                "Extension? (at 700): y races on to 1000",
            ],
            ["asks which side", "Partners", "Karma"],
        ),
        (
            find_rules("classic", players=3),
            [
                "U n on a hazard then asks which side",
                "Coup Fourre?, Extension?, Discard a safety?: H, T, L too",
            ],
            ["Partners", "Karma"],
        ),
        (
            find_rules("classic", players=4),
            [
                "Coup Fourre?, Discard a safety?: H, T, L too",
                "Partners share a car; hands stay private.",
                "Hit by a hazard whose safety you hold: Coup Fourre? y plays it (+300), you "
                "move next (with other people: called).",
            ],
            ["Extension?", "asks which side"],
        ),
        (
            find_rules("classic", players=6),
            [
                "Partners share a car; hands stay private.",
                "U n on a hazard then asks",
                "Coup Fourre?, Extension?, Discard a safety?: H, T, L too",
            ],
            [],
        ),
        (
            find_rules("milebymile", players=6, team_mode="2v2v2", karma=True, stacking=True),
            [
                "Coup Fourre?, Discard a safety?: H, T, L too",
                "Partners share a car; hands stay private.",
                "Karma: a hazard costs",
                "stacking,",
                "Hazards may hit a stopped side",
            ],
            ["Extension?", "no stacking"],
        ),
        (
            find_rules("milebymile", players=2, perfect_crossing=False),
            ["Race to the target or past it (+200 if exact).", "no perfect crossing"],
            ["Extension?", "Karma", "exactly"],
        ),
    ],
)
def test_help_says_only_what_the_preset_has(rules: Rules, has: list[str], lacks: list[str]) -> None:
    text = " ".join(board.table_help(rules, "expert"))
    for words in has + ["In force: ", "expert computer", "L      the hand so far"]:
        assert words in text
    # the guide to the levels, where played remedies go, partners' hands
    # private (issue 28: the help said partners shared their cards)
    assert (
        "(--level: easy for a first game, standard for most, expert for a challenge)."
        in text.replace("\n", " ")
    )
    discard_go = "Played remedies go on the discard pile (Discard Go)."
    assert (discard_go in text) == (rules.name == "milebymile")  # classic stacks them
    for words in lacks + ["share their side's cards"]:
        assert words not in text


def test_each_computers_move_is_shown_before_the_next_computer_decides(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With many computers (the expert thinks up to 0.9 s a move) the board
    never waits for them all: each move is on the screen, in the log, when
    the next computer starts deciding."""
    session = Session.new(find_rules("milebymile", players=5), seed=3)
    window = FakeWindow("pd1\r")
    game = TableUi(window, session)  # type: ignore[arg-type]
    logged: list[tuple[str, bool]] = []
    move = Session.computer_move

    def computer_move(self: Session) -> object:
        said = describe(SeatView(self.table, 0), self.log[-1]) if self.log else []
        if said and self.log[-1].outcome.seat != 0:
            logged.append((said[0], any(said[0] in row for row in window.lines())))
        return move(self)

    monkeypatch.setattr(Session, "computer_move", computer_move)
    with pytest.raises(OutOfKeys):
        game.run()
    assert len(logged) >= 3, "computers moved one after another"
    assert all(shown for _, shown in logged), logged


def test_a_message_longer_than_the_error_line_is_shown_whole() -> None:
    """Issue 40, item 13: the row board cut its error line at 80 columns
    (a chat line, a long refusal); the message is shown whole, wrapped
    at the foot of the log's place, above the prompt."""
    session = Session.new(find_rules("classic", players=3), seed=3)
    window = FakeWindow("")
    game = TableUi(window, session)  # type: ignore[arg-type]
    text = "Ann says: " + " ".join(f"word{number}" for number in range(30)) + " END"
    game.note(text)
    game.render()
    rows = [window.line(y).rstrip() for y in range(24)]
    shown = [row for row in rows[16:22] if row.startswith(("Ann says", "word"))]
    assert " ".join(shown) == text
    assert all(len(row) <= board.LAST_COL for row in shown)
    assert rows[ERROR_Y] == ""


def test_default_names_stay_apart_in_the_side_column() -> None:
    """Issue 40, item 4: ``Player 1`` and ``Player 2`` were both cut to
    ``Player`` in the 6-column side column (and BSD's header)."""
    session = Session.new(find_rules("classic", players=3), seed=3, humans=(0, 1, 2))
    window = drawn(session)
    names = [window.line(y)[3:9] for y in (2, 3, 4)]
    assert names == ["You   ", "Play 1", "Play 2"]


def test_bsds_header_tells_a_default_name_apart() -> None:
    from mille.frontends.ui import Ui

    session = Session.new(seed=3, humans=(0, 1))
    window = FakeWindow("")
    Ui(window, session).render()  # type: ignore[arg-type]
    assert window.line(0)[62:80].rstrip() == "You   Play 1 Value"
