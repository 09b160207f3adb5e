"""End to end: the board of the classic and milebymile presets in a pty.

The game is deterministic given the seed and the keys, so each test plays
the same game in this process (a :class:`Mirror`: the same session, drawn
by the same board on a stand-in window) to know what to type next and what
the screen must show: after every move the whole pty screen is compared
with the mirror's.  The human's moves come from a simple policy (pick,
then the longest distance, a safety, a remedy, a hazard, else a discard).

The seeds were searched for with that policy: classic 4 players seed 252
offers you a coup fourre; milebymile 3 players seed 105 one too; seed 124
gives you a hazard to aim at once; classic 3 players seed 124 has a
target, a coup fourre and Extension?.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from mille.engine.describe import score_rows
from mille.engine.rules import Rules, find_rules
from mille.engine.table import (
    COUP,
    EXTENSION,
    NO,
    OVER,
    PICK,
    PLAYING,
    YES,
    Answer,
    Discard,
    Move,
    Pick,
    Table,
    Use,
)
from mille.frontends.screen import MOVE_PROMPT
from mille.frontends.table_screen import (
    LABEL_WIDTH,
    LOG_BOTTOM,
    LOG_X,
    SIDES_Y,
    question_context,
)
from mille.frontends.table_ui import TableUi
from mille.game.session import Session
from support.fakewindow import Grid
from support.screen import Term

Spawn = Callable[..., Term]
PROMPT_Y, ERROR_Y = 22, 23


class Mirror:
    """The game the pty plays, played here too: what to type, what to see."""

    def __init__(self, rules: Rules, seed: int) -> None:
        self.session = Session.new(rules, seed=seed)
        self.grid = Grid()
        self.ui = TableUi(self.grid, self.session)  # type: ignore[arg-type]
        self.settle()

    @property
    def table(self) -> Table:
        return self.session.table

    def settle(self) -> None:
        """The computers' moves up to your next decision (as the program)."""
        session = self.session
        while session.table.phase != OVER and session.computer_to_move:
            session.computer_move()

    def play(self, move: Move) -> None:
        self.session.play(move)
        self.settle()

    def screen(self) -> list[str]:
        """Rows 0-22 (all but the error line) at your next decision."""
        table = self.table
        if table.phase == OVER:
            prompt = "Another game?" if table.game_over else "Another hand?"
        elif table.phase == COUP:
            prompt = "Coup Fourre?"
        elif table.phase == EXTENSION:
            prompt = "Extension?"
        else:
            prompt = MOVE_PROMPT
        self.ui.set_prompt(prompt)
        self.ui.screen.message = ""
        self.ui.render()
        return self.grid.lines()[:ERROR_Y]


def choose(table: Table) -> Move:
    """The policy of the human seat: pick, then distance (longest first),
    a safety, a remedy, a hazard (the first target), else a discard."""
    moves = table.legal_moves()
    if PICK in moves:
        return PICK
    hand = table.hands[0]
    uses = [move for move in moves if isinstance(move, Use)]

    def rank(move: Use) -> tuple[int, int]:
        card = hand[move.slot]
        kind = 0 if card <= 4 else 1 if card >= 15 else 2 if card >= 10 else 3
        return kind, -card if kind == 0 else card

    if uses:
        return min(uses, key=rank)
    return next(move for move in moves if isinstance(move, Discard))


def keys_for(table: Table, move: Move) -> str:
    """What to type for ``move`` (the board asks for a side only when the
    engine needs one)."""
    if isinstance(move, Pick):
        return "p"
    if isinstance(move, Answer):
        return "y" if move.yes else "n"
    slot = "p" if move.slot == 0 else str(move.slot)
    if isinstance(move, Discard):
        return f"d{slot}\r"
    text = f"u{slot}\r"
    if move.target is not None and table.check(Use(move.slot)) == "which opponent?":
        text += f"{move.target}\r"
    return text


def start(spawn: Spawn, name: str, players: int, seed: int, **kwargs: object) -> Term:
    """``mille --rules NAME --players N --seed SEED``."""
    return spawn("--rules", name, "--players", str(players), "--seed", str(seed), **kwargs)


def same_screen(term: Term, expected: list[str], what: str = "", timeout: float = 5.0) -> None:
    """Wait until rows 0-22 of the pty are ``expected``."""
    try:
        term.wait(lambda: term.lines()[:ERROR_Y] == expected, timeout, what)
    except AssertionError:
        diff = [
            f"{y:2d} got  {a!r}\n   want {b!r}"
            for y, (a, b) in enumerate(zip(term.lines(), expected))
            if a != b
        ]
        raise AssertionError(f"screen differs ({what}):\n" + "\n".join(diff)) from None


def play(
    term: Term,
    mirror: Mirror,
    *,
    until: Callable[[Mirror], bool] | None = None,
    answer: Callable[[Mirror], bool] = lambda mirror: True,
) -> list[str]:
    """Play your moves by the policy, checking every screen, to the end of
    the hand (or until ``until`` holds at one of your decisions); questions
    get ``answer``.  The prompt lines of the questions met."""
    questions: list[str] = []
    while True:
        same_screen(term, mirror.screen(), f"decision {len(mirror.session.log)}")
        table = mirror.table
        if table.phase == OVER or (until is not None and until(mirror)):
            return questions
        if table.phase in (COUP, EXTENSION):
            questions.append(term.lines()[PROMPT_Y])
            move: Move = YES if answer(mirror) else NO
        else:
            move = choose(table)
        term.send(keys_for(table, move))
        mirror.play(move)


def table_on_screen(lines: list[str], sides: int) -> dict[str, list[int]]:
    """The end-of-hand table read off the screen: label -> a number per side."""
    rows = {}
    for line in lines[2:]:
        if not line.strip() or line.startswith("--HAND--"):
            break  # under the table
        label, numbers = line[:LABEL_WIDTH].strip(), line[LABEL_WIDTH:].split()
        assert label and len(numbers) == sides, line
        rows[label] = [int(number) for number in numbers]
    return rows


def check_totals(term: Term, rules: Rules) -> None:
    rows = table_on_screen(term.lines(), rules.sides)
    labels = [label for label, _ in score_rows(rules)]
    assert list(rows) == labels + ["Hand Total", "Overall Total", "Games"]
    for side in range(rules.sides):
        assert rows["Hand Total"][side] == sum(rows[label][side] for label in labels)
        assert rows["Overall Total"][side] == rows["Hand Total"][side], "the first hand"


def leave(term: Term) -> None:
    """At Another hand?: no, and no save; the program ends normally."""
    term.send("n")
    term.wait_for("Save game?", row=PROMPT_Y)
    term.send("n")
    assert term.wait_exit() == 0


# ----- whole hands ------------------------------------------------------------------


def test_classic_four_players_a_team_hand_to_the_table(spawn: Spawn) -> None:
    rules = find_rules("classic", players=4)
    mirror = Mirror(rules, 252)
    term = start(spawn, "classic", 4, 252)
    assert term.drawn("You, Partner", row=3)[2].startswith(" 1 Team A")
    questions = play(term, mirror)
    assert questions and questions[0].startswith("Coup Fourre?    Comp ")
    assert " on your team - you hold " in questions[0]
    assert term.lines()[PROMPT_Y] in ("Another hand?", "Another game?")
    check_totals(term, rules)
    leave(term)


def test_milebymile_three_players_a_race_to_the_table(spawn: Spawn) -> None:
    rules = find_rules("milebymile", players=3)
    mirror = Mirror(rules, 105)
    term = start(spawn, "milebymile", 3, 105)
    questions = play(term, mirror)
    assert any(
        event.outcome.seat == 0
        and isinstance(event.outcome.move, Use)
        and event.outcome.move.target is not None
        for event in mirror.session.log
    ), "a hazard aimed at a side through the keyboard"
    assert questions and " on you - you hold " in questions[0]
    check_totals(term, rules)
    leave(term)


def test_classic_three_players_target_coup_and_extension(spawn: Spawn) -> None:
    mirror = Mirror(find_rules("classic", players=3), 124)
    term = start(spawn, "classic", 3, 124)
    questions = play(term, mirror, until=lambda m: m.table.phase == EXTENSION)
    assert questions and questions[0].startswith("Coup Fourre?")
    context = question_context(mirror.session, 0)
    assert term.lines()[PROMPT_Y] == f"Extension?      {context}"
    assert context == "700 miles: y races on to 1000, n ends the hand"
    assert "Extension" not in term.lines()[0]
    term.send("y")
    mirror.play(YES)
    same_screen(term, mirror.screen(), "after y")
    assert "Target 1000 Extension" in term.lines()[0]
    term.send("q")
    term.wait_for("Really?", row=PROMPT_Y)
    term.send("y")
    assert term.wait_exit() == 0


# ----- the target prompt, save and restore --------------------------------------


def aiming(mirror: Mirror) -> bool:
    table = mirror.table
    if table.phase in (COUP, EXTENSION, OVER):
        return False
    move = choose(table)
    return isinstance(move, Use) and move.target is not None


def test_the_target_prompt_and_the_engines_refusals(spawn: Spawn) -> None:
    mirror = Mirror(find_rules("milebymile", players=3), 124)
    term = start(spawn, "milebymile", 3, 124)
    play(term, mirror, until=aiming)
    table = mirror.table
    move = choose(table)
    assert isinstance(move, Use)
    slot = "p" if move.slot == 0 else str(move.slot)
    term.send(f"u{slot}\r")
    term.wait_for("on side:", row=PROMPT_Y)
    hittable = [side for side in (2, 3) if table.check(Use(move.slot, side)) is None]
    assert term.lines()[ERROR_Y].rstrip() == "  ".join(
        f"{side} Comp {side - 1}" for side in hittable
    )
    for keys, message in (
        ("9\r", "no such opponent"),
        (f"u{slot}\r1\r", "can't attack your own side"),
        (f"u{slot}\r\r", "which opponent?"),
    ):
        term.send(keys)
        term.wait_for(message, row=ERROR_Y)
        same_screen(term, mirror.screen(), message)  # nothing played
    refused = [(target, table.check(Use(move.slot, target))) for target in (2, 3)]
    for target, refusal in refused:
        if refusal is not None:  # the model's own refusal, e.g. opponent cannot go
            term.send(f"u{slot}\r{target}\r")
            term.wait_for(refusal, row=ERROR_Y)
    term.send(keys_for(table, move))
    mirror.play(move)
    same_screen(term, mirror.screen(), "the hazard played")


def test_save_and_restore_show_the_same_screen(spawn: Spawn, tmp_path: Path) -> None:
    mirror = Mirror(find_rules("milebymile", players=3), 124)
    term = start(spawn, "milebymile", 3, 124, cwd=tmp_path)
    play(
        term,
        mirror,
        until=lambda m: (
            len(m.session.log) > 12 and m.table.phase == PLAYING and m.table.hands[0][0] < 0
        ),
    )
    log = [line[LOG_X:].strip() for line in term.lines()[SIDES_Y + 3 + 1 : LOG_BOTTOM + 1]]
    assert any(log), "a log to keep"
    term.send("s")
    term.wait_for("file:", row=PROMPT_Y)
    term.send("game.sav\r")
    term.drawn("game.sav [", row=ERROR_Y)
    saved = term.lines()
    term.send("q")
    term.wait_for("Really?", row=PROMPT_Y)
    term.send("y")
    assert term.wait_exit() == 0
    again = spawn("game.sav", cwd=tmp_path)  # (a longer note is shown whole, over the log)
    again.wait_for(MOVE_PROMPT, row=PROMPT_Y)
    restored = again.settle()
    assert restored[:ERROR_Y] == saved[:ERROR_Y], "the board, the log and the prompt"
    assert restored[ERROR_Y].startswith("game.sav [")
    for _ in range(6):  # the same deals and computer moves to come
        move = choose(mirror.table) if mirror.table.phase not in (COUP, EXTENSION) else YES
        again.send(keys_for(mirror.table, move))
        mirror.play(move)
        same_screen(again, mirror.screen(), "after the restore")
        if mirror.table.phase == OVER:
            break


# ----- the terminal ---------------------------------------------------------------------


def test_a_dumb_or_unknown_terminal_is_refused_before_curses(spawn: Spawn) -> None:
    for term_name, reason in (
        ("dumb", "it cannot move the cursor"),
        ("no-such-terminal", "setupterm: could not find terminal"),
    ):
        term = start(spawn, "classic", 2, 1, env={"TERM": term_name})
        assert term.wait_exit() == 1
        assert term.raw.decode() == (
            f"mille: cannot use the terminal (TERM={term_name!r}): {reason}; try mille --plain\r\n"
        ), "one line, nothing drawn"


def test_too_small_then_back(spawn: Spawn) -> None:
    mirror = Mirror(find_rules("milebymile", players=9), 3)
    term = start(spawn, "milebymile", 9, 3)
    same_screen(term, mirror.screen(), "the first screen")
    term.resize(20, 70)
    small = term.drawn("Screen must be at least 24x80", row=0)
    assert not any(line.strip() for line in small[1:]), "only the notice"
    term.resize(24, 80)
    same_screen(term, mirror.screen(), "back at 80x24")
