"""The line mode (``mille --plain``): commands, messages, pipes, the end of input."""

from __future__ import annotations

import io
import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mille.engine.rules import find_rules
from mille.engine.table import OVER, Answer, Discard, Move, Pick, Use
from mille.engine.view import SeatView
from mille.frontends import plain
from mille.game.session import Session

MILLE = [sys.executable, "-m", "mille"]


@pytest.fixture(autouse=True)
def private_state_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(home))
    return home


def run(session: Session, script: str, **kwargs: object) -> tuple[int, str]:
    out = io.StringIO()
    status = plain.play(session, stdin=io.BytesIO(script.encode()), stdout=out, **kwargs)  # type: ignore[arg-type]
    return status, out.getvalue()


def row_values(line: str) -> list[str]:
    """A score row's values: ``  Games: You: 0, Comp 1: 1`` gives 0, 1."""
    return [part.rsplit(": ", 1)[1] for part in line.split(": ", 1)[1].strip().split(", ")]


def command(move: Move) -> str:
    """What a person types for ``move``."""
    if isinstance(move, Pick):
        return "p"
    if isinstance(move, Answer):
        return "y" if move.yes else "n"
    slot = "p" if move.slot == 0 else str(move.slot)
    if isinstance(move, Discard):
        return f"d {slot}"
    return f"u {slot}" + ("" if move.target is None else f" {move.target}")


def whole_game(rules_name: str, players: int, seed: int, **options: Any) -> list[str]:
    """The commands of a whole game to its winning score, made by playing
    the same seeded game in this process (random legal moves for you)."""
    session = Session.new(find_rules(rules_name, players=players, **options), seed=seed)
    rng = random.Random(seed)
    commands: list[str] = []
    while True:
        table = session.table
        if table.phase == OVER:
            if table.game_over:
                return commands + ["n"]  # Another game? (no Save game? after a game won)
            commands.append("y")
            session.next_hand()
        elif session.computer_to_move:
            session.computer_move()
        else:
            move = rng.choice(table.legal_moves())
            commands.append(command(move))
            if table.discards_safety(move):
                commands.append("y")  # Discard a safety?
            session.play(move)


# ----- commands and messages --------------------------------------------------


def classic3() -> Session:
    return Session.new(find_rules("classic", players=3), seed=3)


@pytest.mark.parametrize(
    "typed,said",
    [
        ("x", "unknown command: X"),  # one letter: the board's words
        ("hello", "unknown command: hello"),  # more: the whole line, as typed
        ("play 2", "unknown command: play 2"),
        ("p 2", "unknown command: p 2"),
        ("o  x", "unknown command: o x"),
        ("z" * 60, "unknown command: " + "z" * 37 + "..."),
        ("u 1", "must pick first"),
        ("d 9", "no such slot: 9 (P or 0, 1-6)"),
        ("u", "which card? (u N or d N, N is P or 1-6)"),
        ("e", "E: command not implemented"),
        ("p\np", "already picked"),
        # the words work as their letters
        ("pick\npick", "already picked"),
        ("Use 9", "no such slot: 9 (P or 0, 1-6)"),
        ("discard", "which card? (u N or d N, N is P or 1-6)"),
        ("help", "Commands (then RETURN; case does not matter):"),
        ("tracker\ntracker", "The card tracker is off."),
        (
            "t",
            "The card tracker is on: shown with the table at each of your turns until t again.",
        ),
        ("hints", "unknown command: hints"),
        ("log", "The hand so far: nothing yet."),
        ("l", "The hand so far: nothing yet."),
        # a number is ASCII digits: a superscript two is no side (it was an internal error)
        ("p\nu 1 \u00b2", "no such opponent"),
        ("p\nu 1 \u0663", "no such opponent"),
    ],
)
def test_commands_get_the_boards_messages(typed: str, said: str) -> None:
    status, out = run(classic3(), typed + "\n")
    assert said in out.splitlines() and status == 0


def test_a_word_plays_like_its_letter() -> None:
    by_letter = run(classic3(), "p\nd 1\nh\n")[1]
    by_word = run(classic3(), "pick\ndiscard 1\nhint\n")[1]
    for word, letter in (("pick", "p"), ("discard", "d"), ("hint", "h")):
        by_word = by_word.replace(f"move: {word}", f"move: {letter}")  # the echo
    assert by_word == by_letter and "hint: " in by_word


def test_a_hazard_asks_its_target_by_side_number() -> None:
    session = classic3()
    hand = session.table.hands[0]
    slot = next(i for i, card in enumerate(hand) if 5 <= card <= 9)  # seed 3: Out of Gas
    _, out = run(session, f"p\nu {slot}\nu {slot} 1\nu {slot} 7\nu {slot} x\nu {slot} 2\n")
    lines = out.splitlines()
    for message in (
        "can't attack your own side",
        "no such opponent",
        "opponent has not started",
    ):
        assert message in lines
    # no side can take it (nobody has started): the reason at once, not a
    # question whose every answer is refused (issue 28)
    asked = lines.index(f"Your move: u {slot}")
    assert lines[asked + 1] == "opponent has not started"
    assert "which opponent?" not in lines


def test_a_hazard_lists_only_the_sides_it_can_hit() -> None:
    """Issue 28: ``u N`` with a hazard names the sides the engine lets it
    hit; a protected side is left out."""
    from mille.engine.cards import RIGHT_OF_WAY, SPEED_LIMIT

    session = classic3()
    session.table.hands[0][1] = SPEED_LIMIT
    _, out = run(session, "p\nu 1\n")
    lines = out.splitlines()
    asked = lines.index("Your move: u 1")
    assert lines[asked + 1 : asked + 3] == [
        "which opponent?",
        "It can hit sides 2 Comp 1, 3 Comp 2 (u 1 S).",
    ]
    session = classic3()
    session.table.hands[0][1] = SPEED_LIMIT
    session.table.tableaux[1].safeties.append(RIGHT_OF_WAY)
    _, out = run(session, "p\nu 1\nu 1 2\n")
    lines = out.splitlines()
    asked = lines.index("Your move: u 1")
    assert lines[asked + 2] == "It can hit side 3 Comp 2 (u 1 S)."
    assert "opponent is protected" in lines


def test_a_hazard_no_side_can_take_gives_each_reason_with_its_sides() -> None:
    from mille.engine.cards import GO, RIGHT_OF_WAY, STOP

    session = classic3()
    session.table.hands[0][1] = STOP
    session.table.tableaux[1].battle.append(GO)
    session.table.tableaux[1].safeties.append(RIGHT_OF_WAY)
    _, out = run(session, "p\nu 1\n")
    lines = out.splitlines()
    asked = lines.index("Your move: u 1")
    assert lines[asked + 1] == "opponent is protected (side 2); opponent has not started (side 3)"


def test_your_turn_shows_every_side_your_hand_and_the_piles() -> None:
    _, out = run(Session.new(find_rules("classic", players=4), seed=5), "")
    lines = out.splitlines()
    assert lines[0].startswith("mille: classic, 4 players: side 1 Team A (You, Partner);")
    assert lines[1] == "In force: 1000 miles, game 5000 points, standard computers."
    assert lines[2].startswith("Side 1, Team A (You, Partner): 0 of 1000 miles; not started;")
    assert lines[3].startswith("Side 2, Team B (Comp 1, Comp 3): 0 of 1000 miles")
    assert lines[4] == "Deck: 82 cards. Discard pile: empty."
    assert lines[5].startswith("Your hand: P: empty, 1: ")


def test_the_pick_is_told_and_the_hand_shown_again() -> None:
    session = classic3()
    _, out = run(session, "p\n")
    drawn = session.table.hands[0][0]
    from mille.engine.describe import card_name

    assert f"You drew {card_name(drawn)}" in out
    assert out.count("Your hand: P: empty") == 1 and f"Your hand: P: {card_name(drawn)}," in out


def test_o_w_r_and_help() -> None:
    _, out = run(classic3(), "o\nw\nr\n?\n")
    assert "Your hand is kept in order." in out
    assert "  Milestones Played: You: 0, Comp 1: 0, Comp 2: 0" in out and "  Extension:" in out
    assert out.count("Deck: ") == 2 and "u N S      use a hazard on side S" in out


def test_quit_asks_really() -> None:
    status, out = run(classic3(), "q\nn\nq\ny\n")
    assert out.count("Really? ") == 2 and status == 0


def test_a_question_wants_y_or_n() -> None:
    status, out = run(classic3(), "q\nmaybe\ny\n")
    assert "Answer y or n." in out and status == 0


# ----- the end of input ------------------------------------------------------------


def test_end_of_input_keeps_the_game(private_state_home: Path) -> None:
    session = classic3()
    status, _ = run(session, "p\nd 1\n", fresh=True)
    (kept,) = (private_state_home / "mille").glob("interrupted-*.json")
    assert status == 0 and str(kept) == session.kept
    data = json.loads(kept.read_text())
    assert data["rules"]["name"] == "classic" and data["rules"]["players"] == 3


def test_end_of_input_with_a_game_that_cannot_be_kept_fails(
    monkeypatch: pytest.MonkeyPatch, private_state_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The exit status says the game is lost: 1, with the reason on stderr."""
    import mille.storage.recovery

    def refuse(session: Session) -> str:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(mille.storage.recovery, "write", refuse)
    status, _ = run(classic3(), "p\nd 1\n", fresh=True)
    err = capsys.readouterr().err
    assert status == 1
    assert err == (
        "mille: end of input; the game could not be kept: [Errno 28] No space left on device\n"
    )


def test_a_new_game_nobody_played_is_not_kept(private_state_home: Path) -> None:
    status, _ = run(classic3(), "r\n", fresh=True)
    assert status == 0 and not (private_state_home / "mille").exists()


def test_save_and_restore(tmp_path: Path) -> None:
    name = tmp_path / "g.sav"
    session = Session.new(find_rules("milebymile", players=3), seed=2)
    status, out = run(session, f"p\nd 1\ns\n{name}\nq\ny\n")
    assert status == 0 and name.exists() and f"{name} [" in out
    from mille.storage.savefile import load_session

    restored = load_session(str(name))
    assert restored.table == session.table
    assert restored.log == session.log  # the whole hand (2.0 kept it from your last turn)


# ----- through pipes, the real program ---------------------------------------------------


def mille(*args: str, script: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        MILLE + list(args), input=script, capture_output=True, text=True, env=env, timeout=120
    )


@pytest.fixture
def env(private_state_home: Path) -> dict[str, str]:
    return dict(os.environ, XDG_STATE_HOME=str(private_state_home), TERM="dumb")


def test_a_non_ascii_name_saves_whatever_the_locale(env: dict[str, str], tmp_path: Path) -> None:
    """Under ``LC_ALL=C PYTHONUTF8=0`` Python's file names are ASCII: the
    bytes typed are the name (os.fsdecode, as the boards), not a codec's
    complaint."""
    c_locale = dict(env, LC_ALL="C", PYTHONUTF8="0")
    c_locale.pop("PYTHONIOENCODING", None)
    name = os.path.join(os.fsencode(tmp_path), "\u00e9t\u00e9.sav".encode())
    done = subprocess.run(
        [*MILLE, "--plain", "--seed", "1"],
        input=b"s\n" + name + b"\nq\ny\n",
        capture_output=True,
        env=c_locale,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert os.path.exists(name) and b"codec" not in done.stdout + done.stderr
    # the name shown as the boards show it there: its bytes escaped
    assert b"/\\xc3\\xa9t\\xc3\\xa9.sav [" in done.stdout


@pytest.mark.parametrize(
    "args,players,options",
    [
        (("--rules", "classic", "--players", "4"), 4, {}),
        (("--rules", "milebymile", "--players", "5", "--distance", "700"), 5, {"distance": 700}),
    ],
)
def test_a_whole_seeded_game_from_a_script(
    args: tuple[str, ...], players: int, options: dict[str, object], env: dict[str, str]
) -> None:
    name = args[1]
    script = whole_game(name, players, 11, **options)
    done = mille("--plain", "--seed", "11", *args, script="\n".join(script) + "\n", env=env)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert "the game with" in done.stdout and "Another game? n" in done.stdout
    assert "Save game?" not in done.stdout  # a game won: nothing to save (issue 40, item 9)
    games = [line for line in done.stdout.splitlines() if line.startswith("  Games:")]
    counts = row_values(games[-1])
    assert sorted(counts) == ["0"] * (len(counts) - 1) + ["1"], "the game just won is counted"
    assert not (Path(env["XDG_STATE_HOME"]) / "mille").exists()


def test_end_of_input_then_the_next_mille_says_a_game_is_waiting(env: dict[str, str]) -> None:
    """A script is never asked Resume it? (it would answer with its moves):
    the next game starts and the kept one waits for a mille on a terminal."""
    first = mille(
        "--plain", "--rules", "classic", "--players", "3", "--seed", "4", script="p\nd 1\n", env=env
    )
    assert first.returncode == 0
    assert first.stderr.startswith("mille: end of input; the game is kept in ")
    second = mille("--plain", "--seed", "3", script="n\nq\ny\n", env=env)
    assert second.returncode == 0
    assert "Resume it?" not in second.stdout
    assert "mille: bsd, 2 players" in second.stdout and "Your move: n" in second.stdout
    assert second.stderr.startswith(
        "mille: a kept game is waiting (classic, 3 players, scores 0, 0, 0; "
    )
    assert second.stderr.endswith("): run mille alone to resume it\n")
    kept = list((Path(env["XDG_STATE_HOME"]) / "mille").glob("interrupted-*.json"))
    assert len(kept) == 1


def test_a_dumb_terminal_is_told_about_plain(env: dict[str, str]) -> None:
    done = mille(script="", env=env)
    assert done.returncode == 1 and "mille --plain" in done.stderr


@pytest.mark.parametrize(
    "args,message",
    [
        (("--rules", "classic", "--players", "5"), "mille: classic needs 2, 3, 4 or 6 players"),
        (("--rules", "milebymile", "--players", "10"), "mille: milebymile needs 2 to 9 players"),
        (
            ("--rules", "milebymile", "--distance", "310"),
            "mille: perfect crossing needs a race distance in 25s",
        ),
        (
            ("--rules", "milebymile", "--distance", "3010", "--no-perfect-crossing"),
            "mille: race distance must be 300 to 3000",
        ),
        (
            ("--rules", "milebymile", "--winning-score", "500"),
            "mille: winning score must be 1000 to 10000",
        ),
        (
            ("--rules", "milebymile", "--players", "5", "--teams", "2v2"),
            "mille: team mode not available for 5 players",
        ),
        (("--rules", "milebymile", "--karma"), "mille: karma rule needs 3 or more sides"),
        (
            ("--rules", "milebymile", "--players", "4", "--teams", "4v"),
            "mille: unknown team mode: '4v' (choose individual, 2v2, 2v2v2, 3v3, 2v2v2v2, 4v4, 3v3v3)",
        ),
        (("--rules", "", "--plain"), "mille: unknown rules: '' (choose bsd, classic, milebymile)"),
        (
            ("--rules", "classic", "--distance", "700"),
            "mille: --distance is an option of --rules milebymile",
        ),
        (
            ("--players", "3"),
            "mille: bsd needs 2 players; "
            "for more players: --rules classic (3, 4 or 6) or --rules milebymile (up to 9)",
        ),
        (("--rules", "bsd", "--players", "1"), "mille: bsd needs 2 players"),
        (
            ("--seed", "1", "game.sav"),
            "mille: --seed cannot be used with a file: "
            "a saved game keeps its own rules, people, level and deal",
        ),
        (
            ("--rules", "classic", "game.sav"),
            "mille: --rules cannot be used with a file: "
            "a saved game keeps its own rules, people, level and deal",
        ),
    ],
)
def test_options_are_checked_with_the_specs_messages(
    args: tuple[str, ...], message: str, env: dict[str, str]
) -> None:
    done = mille("--plain", *args, script="", env=env)
    assert (done.returncode, done.stdout, done.stderr) == (1, "", message + "\n")


# ----- advice: the hint and the card tracker -----------------------------------------


def test_the_hint_names_a_legal_move_and_plays_nothing() -> None:
    session = Session.new(seed=4)
    session.play(Pick())
    before = session.table.copy()
    _, out = run(session, "h\n")
    line = next(x for x in out.splitlines() if x.startswith("hint: "))
    assert line == "hint: U2 Go - stopped; you hold 75"
    assert session.table == before


def test_the_tracker_counts_what_you_have_not_seen() -> None:
    session = Session.new(find_rules("classic", players=3), seed=3)
    _, out = run(session, "t\nt\n")
    lines = out.splitlines()
    tracked = next(x for x in lines if x.startswith("Not seen yet: "))
    counts = dict(item.removesuffix(" left").rsplit(": ", 1) for item in tracked[14:-1].split(", "))
    table = session.table
    assert sum(map(int, counts.values())) == len(table.deck) + 12  # the deck, two hands
    mine = [c for c in table.hands[0] if c >= 0]
    from mille.engine.describe import card_name
    from mille.engine.rules import find_rules as rules_of

    deck = rules_of("classic").deck
    for card, total in enumerate(deck):
        assert int(counts[card_name(card)]) == total - mine.count(card)
    assert "The card tracker is off." in lines


def test_rigging_takes_the_hyphenated_names() -> None:
    from mille.frontends.cli import parse_args

    rules = parse_args(["--rules", "milebymile", "--rigging", "no-duplicates"]).rules
    assert rules is not None and rules.rigging == "no duplicates"
    from mille.frontends.cli import UsageError

    with pytest.raises(UsageError, match="invalid choice: 'bad'"):
        parse_args(["--rules", "milebymile", "--rigging", "bad"])


class InterruptOnce(io.BytesIO):
    """Input whose first read is a ^C."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.interrupted = False

    def readline(self, size: int | None = -1) -> bytes:
        if not self.interrupted:
            self.interrupted = True
            raise KeyboardInterrupt
        return super().readline(size)


@pytest.mark.parametrize("answer,status,asked_again", [("y", 0, False), ("n", 0, True)])
def test_control_c_asks_really(answer: str, status: int, asked_again: bool) -> None:
    out = io.StringIO()
    done = plain.play(classic3(), stdin=InterruptOnce(f"{answer}\nq\ny\n".encode()), stdout=out)
    assert done == status and "Really? " in out.getvalue()
    assert (out.getvalue().count("Your move: ") == 2) == asked_again


def commands_until(rules_name: str, players: int, phase: str) -> tuple[int, list[str]]:
    """A seed and your commands that bring a seeded game to ``phase``
    (``coup`` or ``extension``) asked of you, within the first hand."""
    for seed in range(200):
        session = Session.new(find_rules(rules_name, players=players), seed=seed)
        rng = random.Random(seed)
        commands: list[str] = []
        while session.table.phase != OVER:
            table = session.table
            if table.phase == phase and table.asked == 0:
                return seed, commands
            if session.computer_to_move:
                session.computer_move()
                continue
            legal = table.legal_moves()
            distances = [m for m in legal if isinstance(m, Use) and table.hands[0][m.slot] <= 4]
            move = rng.choice(distances or legal)  # run, to reach 700
            commands.append(command(move))
            session.play(move)
    raise AssertionError("no seed found")


def test_coup_fourre_is_offered_with_the_hazard_and_the_safety() -> None:
    seed, commands = commands_until("classic", 3, "coup")
    session = Session.new(find_rules("classic", players=3), seed=seed)
    _, out = run(session, "\n".join(commands + ["y"]) + "\n")
    lines = out.splitlines()
    ask = lines.index("Coup Fourre? y")
    offer = lines[ask - 1]
    assert offer.startswith("Comp ") and "on side 1; you hold " in offer
    safety = offer.split("you hold ")[1].rstrip(".")
    assert lines[ask + 1] == f"You: Coup Fourre! {safety}, another turn"
    assert "(coup fourre)" in out.split("Coup Fourre? y")[1]


def test_extension_is_asked() -> None:
    seed, commands = commands_until("classic", 2, "extension")
    session = Session.new(find_rules("classic", players=2), seed=seed)
    _, out = run(session, "\n".join(commands + ["y"]) + "\n")
    assert "Extension? y" in out.splitlines()
    assert "You went for the extension" in out.splitlines()
    assert session.table.target == 1000


def test_each_computers_move_is_told_before_the_next_computer_decides(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A screen reader hears each move as it is made, not when all the
    computers (the expert thinks up to 0.9 s a move) have moved."""
    from mille.engine.describe import describe

    session = Session.new(find_rules("milebymile", players=5), seed=3)
    out = io.StringIO()
    told: list[tuple[str, bool]] = []
    move = Session.computer_move

    def computer_move(self: Session) -> object:
        said = describe(SeatView(self.table, 0), self.log[-1]) if self.log else []
        if said and self.log[-1].outcome.seat != 0:
            told.append((said[0], said[0] in out.getvalue()))
        return move(self)

    monkeypatch.setattr(Session, "computer_move", computer_move)
    plain.play(session, stdin=io.BytesIO(b"p\nd 1\n"), stdout=out)
    assert len(told) >= 3, "computers moved one after another"
    assert all(shown for _, shown in told), told


# ----- issue 22: help per preset, options, the whole hand, advice at questions ------------


@pytest.mark.parametrize(
    "rules,has,lacks",
    [
        (
            find_rules("bsd"),
            ["answer a question (Extension?, Another hand?)"],
            ["u N S", "Coup Fourre?", "is called for you"],
        ),
        (
            find_rules("classic", players=3),
            [
                "u N S      use a hazard on side S",
                "answer a question (Coup Fourre?, Extension?, Discard a safety?, Another hand?)",
            ],
            [],
        ),
        (
            find_rules("classic", players=4),
            [
                "answer a question (Coup Fourre?, Discard a safety?, Another hand?)",
                "\nWith other people, here or over the network, Coup Fourre? is called for you.\n",
            ],
            ["u N S", "Extension?"],
        ),
        (
            find_rules("milebymile", players=6, team_mode="2v2v2", karma=True),
            [
                "u N S      use a hazard on side S",
                "answer a question (Coup Fourre?, Discard a safety?, Another hand?)",
                "In force: 1000 miles, game 5000 points, perfect crossing, no stacking, reshuffle, "
                "always discard, rigging none, karma, standard computers.",
            ],
            ["Extension?"],
        ),
    ],
)
def test_help_lists_only_what_the_preset_has(
    rules: object, has: list[str], lacks: list[str]
) -> None:
    _, out = run(Session.new(rules, seed=1), "?\n")  # type: ignore[arg-type]
    summary = out.split("Your move: ?\n")[1]
    for text in has:
        assert text in summary
    for text in lacks:
        assert text not in summary
    assert "  l          the whole hand so far" in summary


def test_the_options_in_force_at_the_start_and_with_r() -> None:
    session = Session.new(
        find_rules(
            "milebymile",
            players=3,
            stacking=True,
            reshuffle=False,
            rigging="2x attacks",
            distance=700,
        ),
        seed=1,
        level="easy",
    )
    _, out = run(session, "r\n")
    line = (
        "In force: 700 miles, game 5000 points, perfect crossing, stacking, no reshuffle, "
        "always discard, rigging 2x attacks, no karma, easy computers."
    )
    assert out.splitlines()[1] == line
    assert out.split("Your move: r\n")[1].splitlines()[0] == line


def test_l_tells_the_whole_hand_since_the_deal() -> None:
    session = Session.new(find_rules("milebymile", players=4), seed=2)
    _, out = run(session, "p\nd 1\np\nd 1\nl\n")
    told = out.split("Your move: l\n")[1].splitlines()
    assert told[0] == "The hand so far:"
    from mille.engine.describe import describe

    wanted = ["  " + line for event in session.log for line in describe(session.view(0), event)]
    assert told[1 : 1 + len(wanted)] == wanted
    assert sum(line.startswith("  You drew ") for line in wanted) == 2
    assert any(line.startswith("  Comp 3 ") for line in wanted), "before your last turn too"


def test_an_unknown_word_at_a_question_is_not_a_command() -> None:
    status, out = run(classic3(), "q\n?\nh\nt\nn\n")
    lines = out.splitlines()
    assert lines.count("Answer y or n (s saves the game first).") == 1  # Really? takes no h, t
    assert lines.count("Answer y or n.") == 2 and status == 0


def test_h_and_t_at_coup_fourre() -> None:
    seed, commands = commands_until("classic", 3, "coup")
    session = Session.new(find_rules("classic", players=3), seed=seed)
    _, out = run(session, "\n".join(commands + ["?", "h", "t", "t", "y"]) + "\n")
    lines = out.splitlines()
    ask = lines.index("Coup Fourre? ?")
    assert lines[ask + 1] == (
        "Answer y or n (s saves the game first; h: a hint, t: the card tracker, l: the hand)."
    )
    assert lines[ask + 2] == "Coup Fourre? h"
    assert lines[ask + 3] in ("hint: y - 300 more and the next turn", "hint: n - keep it for later")
    assert lines[ask + 4] == "Coup Fourre? t" and lines[ask + 6].startswith("Not seen yet: ")
    assert lines[ask + 5].startswith("The card tracker is on: ")
    assert lines[ask + 8] == "The card tracker is off."
    assert "Coup Fourre? y" in lines


def test_h_at_extension() -> None:
    seed, commands = commands_until("classic", 2, "extension")
    session = Session.new(find_rules("classic", players=2), seed=seed)
    _, out = run(session, "\n".join(commands + ["h", "y"]) + "\n")
    lines = out.splitlines()
    ask = lines.index("Extension? h")
    assert lines[ask + 1] in ("hint: y - you can make 1000", "hint: n - bank the trip now")
    assert session.table.target == 1000


def test_h_at_another_hand_and_the_games_row_counts_the_won_game() -> None:
    """The score table after the winning hand counted the game only once
    the next hand was dealt: ``Games: 0, 0`` under ``... wins the game``."""
    script = whole_game("classic", 2, 11)
    session = Session.new(find_rules("classic", players=2), seed=11)
    _, out = run(session, "\n".join(script[:-1] + ["h", "l", "n"]) + "\n")
    lines = out.splitlines()
    assert "Another game? h" in lines
    assert lines[lines.index("Another game? h") + 1] == "hint: y starts a new game"
    told = lines.index("Another game? l")
    assert lines[told + 1] == "The hand so far:"
    end = lines.index("Another game? n")
    assert lines[end - 1] == "  " + next(line for line in lines if "the game with" in line)
    won = next(line for line in lines if "the game with" in line)
    winner = 0 if won.startswith("You ") else 1
    games = [line for line in lines if line.startswith("  Games:")]
    hands = lines.count("Another hand? y")
    assert len(games) == hands + 1
    assert all(row_values(line) == ["0", "0"] for line in games[:-1])
    wanted = ["1", "0"] if winner == 0 else ["0", "1"]
    assert row_values(games[-1]) == wanted
    assert "Another hand? h" not in lines  # (the other questions: the test above)


def test_each_computers_move_is_flushed_before_the_next_decides(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Through a pipe, the line of each computer's move goes out before the
    next computer thinks (not when the person is asked again)."""

    class Out(io.StringIO):
        unflushed = False

        def write(self, text: str) -> int:
            self.unflushed = True
            return super().write(text)

        def flush(self) -> None:
            self.unflushed = False

    out = Out()
    waiting: list[bool] = []
    move = Session.computer_move

    def computer_move(self: Session) -> object:
        waiting.append(out.unflushed)
        return move(self)

    monkeypatch.setattr(Session, "computer_move", computer_move)
    plain.play(
        Session.new(find_rules("milebymile", players=5), seed=3),
        stdin=io.BytesIO(b"p\nd 1\n"),
        stdout=out,
    )
    assert len(waiting) >= 4 and not any(waiting)


def test_l_after_a_restore_shows_the_whole_hand(tmp_path: Path) -> None:
    from mille.storage.savefile import load_session

    name = tmp_path / "g.sav"
    session = Session.new(find_rules("milebymile", players=3), seed=2)
    run(session, f"p\nd 1\np\nd p\nl\ns\n{name}\nq\ny\n")
    whole = (
        run(Session.new(find_rules("milebymile", players=3), seed=2), "p\nd 1\np\nd p\nl\n")[1]
        .split("Your move: l\n")[1]
        .splitlines()
    )
    assert whole[0] == "The hand so far:" and whole[1].startswith("  You drew ")
    _, out = run(load_session(str(name)), "l\n")
    told = out.split("Your move: l\n")[1].splitlines()
    assert told[: len(whole) - 1] == whole[:-1] and told[1].startswith("  You drew ")


# ----- signals: flags between moves, never a move cut in half ----------------------


def kill_during(
    monkeypatch: pytest.MonkeyPatch, owner: object, name: str, signum: int, times: int = 1
) -> list[int]:
    """Send ``signum`` to this process during the first ``times`` calls of
    ``owner.name`` (the call then goes on); the list counts the calls."""
    calls: list[int] = []
    original = getattr(owner, name)

    def wrapped(*args: object, **kwargs: object) -> object:
        calls.append(len(calls))
        if len(calls) <= times:
            os.kill(os.getpid(), signum)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, wrapped)
    return calls


def five_seats() -> Session:
    return Session.new(find_rules("milebymile", players=5), seed=3)


def test_control_c_while_the_computers_move_asks_really_after_the_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    told: list[int] = []
    move = Session.computer_move

    def computer_move(self: Session) -> object:
        told.append(len(self.log))
        if len(told) == 1:
            os.kill(os.getpid(), signal.SIGINT)
        return move(self)

    monkeypatch.setattr(Session, "computer_move", computer_move)
    status, out = run(five_seats(), "p\nd 1\nn\nq\ny\n")
    assert status == 0
    lines = out.splitlines()
    assert "Really? n" in lines  # asked, answered no: the game went on
    assert lines.index("Really? n") > lines.index("Your move: d 1")
    assert len(told) > 2  # the other computers moved after it


def test_control_c_during_a_save_or_a_hint_asks_really_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import mille.players.advice
    import mille.storage.savefile

    kill_during(monkeypatch, mille.storage.savefile, "save_session", signal.SIGINT)
    kill_during(monkeypatch, mille.players.advice, "hint", signal.SIGINT)
    name = tmp_path / "g.json"
    status, out = run(classic3(), f"s\n{name}\nn\nh\ny\n")
    lines = out.splitlines()
    assert status == 0 and name.exists()
    saved = next(i for i, line in enumerate(lines) if line.startswith(f"{name} ["))
    assert lines[saved + 1 : saved + 3] == ["", "Really? n"]
    assert lines[-1] == "Really? y" and lines[-3].startswith("hint: ")


def test_sigterm_during_a_save_saves_then_keeps_the_game(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    private_state_home: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import mille.storage.savefile

    kill_during(monkeypatch, mille.storage.savefile, "save_session", signal.SIGTERM)
    name = tmp_path / "g.json"
    status, out = run(classic3(), f"p\ns\n{name}\nd 1\n")
    assert status == 1 and name.exists()
    assert "Your move: d 1" not in out  # it stopped there
    kept = private_state_home / "mille"
    assert len(os.listdir(kept)) == 1
    err = capsys.readouterr().err
    assert err.startswith("mille: terminated; the game is kept in ") and err.count("\n") == 1


@pytest.mark.parametrize("second", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_second_signal_while_the_game_is_kept_changes_nothing(
    second: int,
    monkeypatch: pytest.MonkeyPatch,
    private_state_home: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import mille.storage.recovery

    kill_during(monkeypatch, Session, "computer_move", signal.SIGHUP)
    kill_during(monkeypatch, mille.storage.recovery, "write", second)
    session = five_seats()
    status, _ = run(session, "p\nd 1\n")
    err = capsys.readouterr().err
    assert status == 1
    assert err.startswith("mille: hang-up; the game is kept in "), err
    from mille.storage import savefile

    (kept,) = (private_state_home / "mille").iterdir()
    assert savefile.dumps(savefile.load_session(str(kept))) == savefile.dumps(session)


def test_the_hang_up_keeps_the_game_between_two_computer_moves(
    monkeypatch: pytest.MonkeyPatch, private_state_home: Path
) -> None:
    calls = kill_during(monkeypatch, Session, "computer_move", signal.SIGTERM)
    session = five_seats()
    status, _ = run(session, "p\nd 1\n")
    assert status == 1 and len(calls) == 1  # the move under way, no other


class Popen:
    """``mille --plain`` in a subprocess, its output read as it comes."""

    def __init__(self, *args: str, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            MILLE + ["--plain", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        self.out = b""

    def expect(self, text: str, timeout: float = 60) -> None:
        import select
        import time

        assert self.proc.stdout is not None
        end = time.monotonic() + timeout
        while text.encode() not in self.out:
            left = end - time.monotonic()
            assert left > 0, f"{text!r} not seen in {self.out[-300:]!r}"
            if select.select([self.proc.stdout], [], [], left)[0]:
                chunk = os.read(self.proc.stdout.fileno(), 65536)
                assert chunk, f"output ended without {text!r}: {self.out[-300:]!r}"
                self.out += chunk

    def send(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text.encode())
        self.proc.stdin.flush()

    def finish(self) -> tuple[int, str]:
        assert self.proc.stderr is not None
        status = self.proc.wait(timeout=60)
        return status, self.proc.stderr.read().decode()


@pytest.mark.skipif(not hasattr(signal, "SIGQUIT"), reason="POSIX only")
def test_control_backslash_keeps_the_game(env: dict[str, str]) -> None:
    game = Popen("--rules", "classic", "--players", "3", "--seed", "4", env=env)
    game.expect("Your move: ")
    game.send("p\n")
    game.expect("Your hand: ")
    game.expect("Your move: ")
    game.proc.send_signal(signal.SIGQUIT)
    status, err = game.finish()
    assert status == 1
    assert err.startswith("mille: quit signal; the game is kept in ") and err.count("\n") == 1
    assert len(os.listdir(Path(env["XDG_STATE_HOME"]) / "mille")) == 1


def test_output_going_away_keeps_the_game(env: dict[str, str]) -> None:
    game = Popen("--rules", "classic", "--players", "3", "--seed", "4", env=env)
    game.expect("Your move: ")
    assert game.proc.stdout is not None
    game.proc.stdout.close()  # as | head -1 does
    game.send("p\nd 1\n" * 3)
    status, err = game.finish()
    assert status == 1
    assert err.startswith("mille: output lost; the game is kept in ") and err.count("\n") == 1
    assert len(os.listdir(Path(env["XDG_STATE_HOME"]) / "mille")) == 1


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_a_full_disk_keeps_the_game(env: dict[str, str]) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            MILLE + ["--plain", "--seed", "4"],
            input="p\nd 1\n",
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            timeout=120,
        )
    assert done.returncode == 1
    assert done.stderr.startswith("mille: output lost; the game is kept in ")
    assert done.stderr.count("\n") == 1


@pytest.mark.parametrize(
    "encoding,typed,shown",
    [
        ("ascii", "\u00e9", "\\xe9"),
        ("latin-1", "\u20ac", "\\u20ac"),
    ],
)
def test_what_the_output_cannot_encode_is_escaped(
    encoding: str, typed: str, shown: str, env: dict[str, str]
) -> None:
    done = subprocess.run(
        MILLE + ["--plain", "--seed", "4"],
        input=f"{typed}\nq\ny\n".encode(),
        capture_output=True,
        env=dict(env, PYTHONIOENCODING=encoding),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    assert f"Your move: {shown}\n".encode() in done.stdout


def test_a_line_that_never_ends_still_stops_at_sigterm(env: dict[str, str]) -> None:
    """``(printf 'p\\n'; cat /dev/zero) | mille --plain``: the rest of an
    over-long line is read to be dropped, and a SIGTERM meanwhile keeps the
    game and stops (it was only noted, and the reading went on for ever)."""
    import threading
    import time

    game = Popen("--rules", "classic", "--players", "3", "--seed", "4", env=env)
    game.expect("Your move: ")
    game.send("p\n")
    game.expect("Your move: ")
    assert game.proc.stdin is not None
    stdin = game.proc.stdin

    written = [0]

    def endless() -> None:
        try:
            while True:
                stdin.write(b"\0" * 65536)
                written[0] += 65536
        except (OSError, ValueError):  # mille has gone
            pass

    threading.Thread(target=endless, daemon=True).start()
    end = time.monotonic() + 30
    while written[0] < 1 << 20:  # mille has read far past the pipe's buffer
        assert time.monotonic() < end, "mille does not read its input"
        time.sleep(0.01)
    game.proc.send_signal(signal.SIGTERM)
    try:
        status = game.proc.wait(timeout=20)
    finally:
        game.proc.kill()
    assert game.proc.stderr is not None
    err = game.proc.stderr.read().decode()
    assert status == 1
    assert err.startswith("mille: terminated; the game is kept in "), err
    assert len(os.listdir(Path(env["XDG_STATE_HOME"]) / "mille")) == 1


def test_a_failed_hint_says_why_and_the_game_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    from mille.players import advice

    def broken(table: object) -> str:
        raise RuntimeError("out of ideas")

    monkeypatch.setattr(advice, "hint", broken)
    status, out = run(classic3(), "h\np\n", fresh=True)
    assert "Your move: h\nno hint: out of ideas\nYour move: p\n" in out and status == 0
