"""``mille --replay`` (issue 47): a finished game shown again on the board
it was played on, at 80x24 (BSD's board as it was during play at a chosen
move; the row board), in lines (``--plain``), its keys on ``?``, and the
command line's refusals in one line each."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from mille.engine.describe import short_card_name
from mille.engine.rules import find_rules
from mille.frontends import cli
from mille.frontends.replay_lines import play as play_lines
from mille.frontends.replay_ui import BsdReplay, board_for
from mille.frontends.ui import Ui
from mille.game.history import History, hand_of
from mille.game.replay import Replay
from mille.game.session import Session
from mille.storage import gamefile
from support.fakewindow import FakeWindow, OutOfKeys


def whole_game(rules_name: str = "bsd", players: int = 2, seed: int = 4) -> History:
    """A game of computers alone, seeded, to its end."""
    rules = (
        find_rules(rules_name) if rules_name == "bsd" else find_rules(rules_name, players=players)
    )
    game = Session.new(rules, seed=seed, humans=(), level="easy")
    hands = []
    while True:
        if game.table.hand_over:
            hands.append(hand_of(game.cards_dealt, game.log, game.orders))
            if game.table.game_over:
                kept = tuple(hand for hand in hands if hand is not None)
                return History(rules, {}, {seat: "easy" for seat in game.computers}, kept)
            game.next_hand()
        else:
            game.computer_move()


def played_to(rules_name: str, seed: int, moves: int) -> Session:
    """The same game as :func:`whole_game`, its first hand played to at
    least ``moves`` moves (a computer's answer comes with its question)."""
    game = Session.new(find_rules(rules_name), seed=seed, humans=(), level="easy")
    while len(game.log) < moves:
        game.computer_move()
    return game


def shown(game: Replay, keys: str, rows: int = 24, cols: int = 80) -> FakeWindow:
    """The board's replay of ``game`` after ``keys``."""
    kind = board_for(game)
    prompt, error = ((10, 20, 40), (15, 45)) if kind is BsdReplay else ((22, 0, 80), (23, 0))
    window = FakeWindow(keys, rows, cols, prompt=prompt, error=error)
    with pytest.raises(OutOfKeys):
        kind(window, game).run()  # type: ignore[arg-type]
    return window


def test_bsds_board_replays_a_move_as_it_was_drawn_during_play() -> None:
    """At a chosen move, the replay draws BSD's board as the game did
    then (the hand, the piles, the sides, the score window), the prompt
    line saying the move and the error line where the replay is."""
    history = whole_game()
    during = played_to("bsd", 4, 25)
    moves = len(during.log)
    window = shown(Replay(history), "l" * moves)
    during.window_full = True  # the replay shows the whole score window
    board = FakeWindow()
    Ui(board, during).render()  # type: ignore[arg-type]
    then, now = board.full_lines(), window.screens[-1]
    for y in range(24):
        if y in (10, 11, 12):  # the prompt and the move under it: the replay's
            assert now[y][:20] == then[y][:20] and now[y][40:] == then[y][40:]
        elif y == 15:  # the error line: where the replay is
            assert now[y][:45] == then[y][:45]
        else:
            assert now[y] == then[y]
    assert window.errors[-1] == f"hand 1 of {len(history.hands)}, move {moves} of " + str(
        len(history.hands[0].moves)
    )
    # a game of computers: the seat shown is named, never "You" (seen by Comp 0)
    assert window.prompts[-1] == "Comp 1 drew a card" or window.prompts[-1].startswith(
        ("Comp 0 ", "Comp 1 ")
    )


def test_every_hand_open_bsds_board_shows_the_hand_that_moved_its_sides_kept() -> None:
    """With ``v``, the hand shown is the seat's that moved (the other
    seat's: its hand, hidden before), the viewer's side still on the left."""
    history = whole_game()
    game = Replay(history)
    game.end()
    moves = next(n for n, event in enumerate(game.log, 1) if event.outcome.seat == 1)
    game.go(0, moves)
    theirs = [short_card_name(card) if card >= 0 else "" for card in game.view(1).hand]
    game.go(0, 0)
    window = shown(game, "l" * moves + "v")
    one, opened = window.screens[-2], window.screens[-1]
    assert one[13:17] == opened[13:17]  # the battle and speed piles: where they were
    assert [opened[6 + slot][2:19].rstrip() for slot in range(7)] == theirs
    assert [one[6 + slot][2:19].rstrip() for slot in range(7)] != theirs


def test_the_board_steps_back_and_between_hands() -> None:
    history = whole_game()
    window = shown(Replay(history), "lllh]n\x1b[C" + "\x1b[Dp")
    errors = window.errors
    first, second = len(history.hands[0].moves), len(history.hands[1].moves)
    hands = len(history.hands)
    assert errors[1:8] == [
        f"hand 1 of {hands}, move 1 of {first}",
        f"hand 1 of {hands}, move 2 of {first}",
        f"hand 1 of {hands}, move 3 of {first}",
        f"hand 1 of {hands}, move 2 of {first}",
        f"hand 1 of {hands}, move {first} of {first}",
        f"hand 2 of {hands}, move 0 of {second}",
        f"hand 2 of {hands}, move 1 of {second}",
    ]
    assert errors[-1] == f"hand 1 of {hands}, move 0 of {first}"


def test_the_row_board_replays_at_80x24_with_its_keys() -> None:
    history = whole_game("classic", 4, seed=2)
    game = Replay(history)
    window = shown(game, "ll")
    moves = len(history.hands[0].moves)
    assert window.prompts[-1].startswith(f"hand 1 of {len(history.hands)}, move 2 of {moves}")
    assert window.errors[-1].endswith("(seen by Comp 0)")
    screen = window.screens[-1]
    assert [line[:19].rstrip() for line in screen[19:22]] == [
        "l, h: moves",
        "n, p: hands",
        "v s: view  ?: keys",
    ]
    window = shown(Replay(history), "lsvs")
    assert window.errors[2].endswith("(seen by Comp 1)")
    assert window.errors[-1].endswith("(every hand open)")


def test_the_keys_are_on_the_question_mark() -> None:
    for game in (Replay(whole_game()), Replay(whole_game("classic", 3, seed=1))):
        window = shown(game, "?")
        page = [line.rstrip() for line in window.screens[-1]]
        assert page[:3] == ["The replay's keys:", "", "  ->, l, SPACE   the next move"]
        assert "  v              one seat's view, or every hand open" in page
        assert "  q              leave the replay" in page
        assert page[-1] == "" and "Press a key to go back to the replay." in page


def lines_of(game: Replay, typed: str) -> list[str]:
    out = io.StringIO()
    assert play_lines(game, io.BytesIO(typed.encode()), out) == 0
    return out.getvalue().split("\n")


def test_the_line_mode_replays_with_the_same_keys_as_words() -> None:
    history = whole_game()
    game = Replay(history)
    first = len(history.hands[0].moves)
    said = lines_of(game, "\nnext\nback\nend\nv\nhand\ngo 2\nnonsense\nq\n")
    where = f"hand 1 of {len(history.hands)}, move"
    assert said[0] == f"A replay of a game of {len(history.hands)} hands: ? for the commands."
    assert said[1] == f"{where} 0 of {first} (seen by Comp 0)."
    assert said[2].startswith("Side 1, Comp 0: 0 of 700 miles")  # a computer's view, named
    steps = [line.removeprefix("replay> ") for line in said if line.startswith("replay> ")]
    assert steps[:4] == [
        f"{where} 1 of {first} (seen by Comp 0).",
        f"{where} 2 of {first} (seen by Comp 0).",
        f"{where} 1 of {first} (seen by Comp 0).",
        f"{where} {first} of {first} (seen by Comp 0).",
    ]
    assert steps[4] == f"{where} {first} of {first} (every hand open)."
    assert steps[5].startswith(f"hand 2 of {len(history.hands)}, move 0 of ")
    assert steps[6].startswith(f"hand 2 of {len(history.hands)}, move 2 of ")
    assert steps[7] == "unknown command: nonsense (? for the commands)"
    assert said[-1] == "replay> "
    help_said = lines_of(Replay(history), "?\n")
    assert "  l, next       the next move (RETURN alone too)" in help_said
    assert "  v, view       one seat's view, or every hand open" in help_said


def test_the_end_of_the_input_ends_the_line_mode_replay() -> None:
    assert lines_of(Replay(whole_game()), "")[-2:] == ["replay> ", ""]


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    status = cli.main(["--replay", *args])
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    return status, err.rstrip("\n")


def test_the_refusals_of_replay_are_one_line_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert refused(capsys) == (1, "mille: --replay: no game in the record yet")
    assert refused(capsys, "4") == (
        1,
        "mille: --replay: no game 4 in the record (mille --stats numbers them)",
    )
    save = tmp_path / "save.json"
    save.write_text('{"format": "mille-save", "version": 3}')
    assert refused(capsys, str(save)) == (
        1,
        f"mille: {save}: format: not a mille game file ('mille-save')",
    )
    later = tmp_path / "later.json"
    later.write_text('{"format": "mille-game", "version": 2}')
    assert refused(capsys, str(later)) == (
        1,
        f"mille: {later}: version: unsupported game file version 2 (this mille reads version 1)",
    )
    assert refused(capsys, str(tmp_path / "none.json")) == (
        1,
        f"mille: {tmp_path / 'none.json'}: No such file or directory",
    )
    file = tmp_path / "game.json"
    file.write_text(gamefile.dumps(whole_game()))
    assert refused(capsys, str(file)) == (  # (pytest's input is no terminal)
        1,
        "mille: standard input and output must be a terminal"
        " (for plain lines on pipes: mille --replay --plain)",
    )
    assert refused(capsys, "1", "--seed", "3") == (
        1,
        "mille: --replay takes no other option but --plain and --no-color"
        " (mille --help lists the options)",
    )


def test_a_game_recorded_without_its_moves_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import test_record_export

    test_record_export.schema_2_record()
    assert refused(capsys, "1") == (
        1,
        "mille: --replay: game 1 was recorded without its moves"
        " (by an older mille, or resumed from a save)",
    )


def test_replay_plays_a_game_file_and_the_last_recorded_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import test_record_export

    monkeypatch.setenv("LOGNAME", "ann-login")
    test_record_export.finished("classic", 3, 2)
    file = tmp_path / "game.json"
    file.write_text(gamefile.dumps(whole_game()))
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"q\n")))
    assert cli.main(["--replay", str(file), "--plain"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"A replay of a game of {len(whole_game().hands)} hands")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"q\n")))
    assert cli.main(["--plain", "--replay"]) == 0
    out = capsys.readouterr().out
    assert "Side 3, Comp 2: 0 of 700 miles" in out
    assert os.path.exists(file)


def test_a_joiners_replay_starts_from_its_own_seat_and_calls_no_other_you() -> None:
    """A network game replayed at a joiner's machine (the record says the
    joiner's seat is here): the view shown first is the joiner's, and its
    words call that seat alone ``You`` (Hal's seat, viewed, is named);
    a game of one hand says ``1 hand``."""
    from dataclasses import replace

    history = replace(whole_game(), people={0: "Hal", 1: "Cy"}, computers={})
    history = replace(history, hands=history.hands[:1])
    game = Replay(history, finished=False, here=(1,))
    assert game.viewer == 1 and game.view(1).reader == 1 and game.view(0).reader is None
    said = lines_of(game, "s\nq\n")
    assert said[0] == "A replay of a game of 1 hand: ? for the commands."
    assert said[1].endswith("(seen by Cy).") and said[2].startswith("Side 1, Hal: ")
    assert said[3].startswith("Side 2, You: ")
    seen = [line for line in said if line.startswith("replay> ")][0]
    assert seen.endswith("(seen by Hal).")
    unknown = Replay(history, finished=False)  # here unknown: every person is "You"
    assert unknown.viewer == 0 and unknown.view(1).reader == 1
