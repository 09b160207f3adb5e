"""End to end: a game is never lost when the player is gone.

A hang-up (SIGHUP), SIGTERM, ^\\ (SIGQUIT) or a closed terminal, at the
move prompt and at every other prompt, writes the game in progress to a
recovery file (``$XDG_STATE_HOME/mille/interrupted-*.json``; every Term has
its own state directory) and exits 1 with the terminal restored.  While
the computers move, it is seen between two moves.  The file loads
to the same game, and ``mille FILE`` (or a plain ``mille`` answering its
offer) shows the same board.  A terminal that
goes away with no SIGHUP reaching mille (the session leader ignores it)
ends the game too instead of spinning on failed reads.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from mille.engine.cards import VALUES, is_distance
from mille.engine.table import EXTENSION, NO, OVER, PLAYING, Use

HUMAN = 0
from mille.game.session import Session
from mille.storage.savefile import load_session, save_session
from support.screen import Term, mille_command

Spawn = Callable[..., Term]


def prompt_line(term: Term) -> str:
    return term.lines()[10].ljust(40)[20:40].rstrip()


def board(lines: list[str]) -> list[str]:
    """The screen but the prompt, the computer's last move and the error line."""
    out = [line.ljust(80) for line in lines]
    for y in (10, 11, 12):
        out[y] = out[y][:20] + " " * 20 + out[y][40:]
    out[15] = out[15][:41]
    return out


def totals(line: str) -> tuple[str, str]:
    line = line.ljust(80)
    return line[61:65], line[67:71]


def recovery_file(term: Term) -> Path:
    """The one recovery file the game left (a name of its own)."""
    kept = sorted((Path(term.state_home) / "mille").glob("interrupted-*.json"))
    assert len(kept) == 1, kept
    return kept[0]


def drive(session: Session, dice: random.Random) -> None:
    """One step of a seeded game: random legal moves, uses preferred."""
    state = session.table
    if state.phase == OVER:
        session.next_hand()
    elif state.phase == EXTENSION:
        state.apply(NO)
    elif session.computer_to_move:
        session.computer_move()
    else:
        moves = state.legal_moves()
        uses = [m for m in moves if isinstance(m, Use)]
        session.play(dice.choice(uses if uses and dice.random() < 0.7 else moves))


def one_move_from_700(seed: int = 5) -> tuple[Session, Use]:
    """A game where the human has picked and a distance card makes 700."""
    session, dice = Session.new(seed=seed), random.Random(seed)
    for _ in range(3000):
        state = session.table
        if (
            state.phase == PLAYING
            and state.to_move == HUMAN
            and state.deck
            and state.has_picked(HUMAN)
        ):
            hand, me = state.hands[HUMAN], state.tableaux[HUMAN]
            for move in state.legal_moves():
                if (
                    isinstance(move, Use)
                    and is_distance(hand[move.slot])
                    and me.mileage + VALUES[hand[move.slot]] == 700
                ):
                    return session, move
        drive(session, dice)
    raise AssertionError(f"seed {seed} never came one move from 700")


def reach(spawn: Spawn, tmp_path: Path, where: str) -> tuple[Term, Session]:
    """mille at the prompt ``where``; the game it holds there."""
    if where in ("move", "really", "file", "overwrite"):
        (tmp_path / "g").write_text("someone's file")
        term = spawn("--seed", "1", cwd=tmp_path)
        expected = Session.new(seed=1)
        term.wait_for(">>:Move:", row=10)
        keys, prompt = {
            "move": ("", ">>:Move:"),
            "really": ("q", "Really?"),
            "file": ("sab", "file: ab"),
            "overwrite": ("sg\r", "Overwrite file?"),
        }[where]
    elif where == "same":
        save_session(Session.new(seed=3), str(tmp_path / "g"))
        term = spawn("g", cwd=tmp_path)
        expected = load_session(str(tmp_path / "g"))
        keys, prompt = "s", "Same file?"
    else:
        session, move = one_move_from_700()
        save_session(session, str(tmp_path / "g"))
        term = spawn("g", cwd=tmp_path)
        expected = load_session(str(tmp_path / "g"))
        expected.play(move)
        assert expected.table.phase == EXTENSION
        slot = "P" if move.slot == 0 else str(move.slot)
        keys, prompt = f"u{slot}\r", "Extension?"
        if where != "extension":
            expected.table.apply(NO)
            keys, prompt = keys + "n", "Another hand?"
            if where == "save game":
                keys, prompt = keys + "n", "Save game?"
    term.wait_for(">>:Move:", row=10)
    for key in keys:
        term.send(key)
        term.settle(0.05)
    term.wait(lambda: prompt_line(term) == prompt, what=prompt)
    term.settle()
    return term, expected


def hang_up(term: Term, how: str) -> int:
    """SIGHUP, SIGTERM, ^\\ or the terminal closed under mille; its exit status."""
    if how == "quit":
        term.send("\x1c")  # ^\\: the terminal sends SIGQUIT
        return term.wait_exit()
    if how != "close":
        term.child.kill(signal.SIGHUP if how == "hup" else signal.SIGTERM)
        return term.wait_exit()
    term.child.ptyproc.fileobj.close()  # the window is gone: the kernel hangs up
    deadline = time.monotonic() + 5
    while term.child.ptyproc.isalive():
        assert time.monotonic() < deadline, "mille did not exit"
        time.sleep(0.02)
    status = term.child.ptyproc.exitstatus
    assert status is not None, f"killed by signal {term.child.ptyproc.signalstatus}"
    return int(status)


CASES = [("move", how) for how in ("hup", "term", "close", "quit")] + [
    ("really", "hup"),
    ("file", "term"),
    ("overwrite", "close"),
    ("same", "quit"),
    ("extension", "term"),
    ("another hand", "close"),
    ("save game", "hup"),
]


REASONS = {"hup": "hang-up", "term": "terminated", "quit": "quit signal"}


@pytest.mark.parametrize("where,how", CASES)
def test_a_hang_up_keeps_the_game(spawn: Spawn, tmp_path: Path, where: str, how: str) -> None:
    term, expected = reach(spawn, tmp_path, where)
    before = term.lines()
    assert hang_up(term, how) == 1
    assert b"Traceback" not in term.raw and b"internal error" not in term.raw
    kept = recovery_file(term)
    assert kept.is_file(), f"no recovery file after {how} at {where}"
    game = load_session(str(kept))
    assert game.table == expected.table
    assert game.deal_rng.getstate() == expected.deal_rng.getstate()
    if where == "overwrite":
        assert (tmp_path / "g").read_text() == "someone's file"

    if how in ("hup", "term", "quit"):
        assert f"mille: {REASONS[how]}; the game is kept in ".encode() in term.raw
    if how == "close":  # a plain mille offers the interrupted game
        again = spawn(cwd=tmp_path, state_home=term.state_home)
        again.wait_for("Resume it? (n deletes it) [yn]")
        again.send("y")
    else:
        copy = tmp_path / "kept.json"
        shutil.copy(kept, copy)
        again = spawn(str(copy), cwd=tmp_path)
    if where in ("another hand", "save game"):  # a new hand is dealt, totals carried
        again.wait_for(">>:Move:", row=10)
        again.wait_for("Overall Total", row=8)
        assert totals(again.settle()[8]) == totals(before[13])
    else:
        again.wait(
            lambda: prompt_line(again) == ("Extension?" if where == "extension" else ">>:Move:"),
            what="the prompt",
        )
        assert board(again.settle()) == board(before)
    if how == "close":
        assert not kept.exists(), "resumed: never offered again"


def children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_a_lost_terminal_without_sighup_ends_the_game(spawn: Spawn, tmp_path: Path) -> None:
    """The shell that started mille ignores SIGHUP and stays the session
    leader, so no signal reaches mille when the terminal closes: reads just
    fail.  mille must notice (not spin), keep the game and exit 1."""
    status = tmp_path / "status"
    script = f"trap '' HUP; '{mille_command()}' --seed 1; echo $? > '{status}'"
    term = spawn("-c", script, command="/bin/sh", cwd=tmp_path)
    term.wait_for(">>:Move:", row=10)
    games = children(term.child.pid)
    assert len(games) == 1
    try:
        term.child.ptyproc.fileobj.close()
        deadline = time.monotonic() + 5
        while not status.exists() or not status.read_text():
            assert time.monotonic() < deadline, "mille did not notice its terminal was gone"
            time.sleep(0.02)
    finally:
        for pid in games:
            if Path(f"/proc/{pid}").exists():
                os.kill(pid, signal.SIGKILL)
    assert status.read_text().strip() == "1"
    game = load_session(str(recovery_file(term)))
    assert game.table == Session.new(seed=1).table


def test_sigterm_while_nine_experts_move_is_seen_between_two_moves(
    spawn: Spawn, tmp_path: Path
) -> None:
    """The expert thinks up to about a second a move: mille leaves after
    the move under way, not after all eight, with the game as it stood
    between two moves."""
    term = spawn(
        "--rules", "milebymile", "--players", "9", "--level", "expert", "--seed", "3", cwd=tmp_path
    )
    term.wait_for(">>:Move:", row=22, timeout=20)
    term.send("p")
    term.wait_for("You drew", timeout=20)
    term.send("d1 ")
    term.wait_for("Discard ", row=0, timeout=20)  # yours: the computers move now
    start = time.monotonic()
    term.child.kill(signal.SIGTERM)
    assert term.wait_exit(timeout=10) == 1
    took = time.monotonic() - start
    assert took < 2.5, took  # the move under way: the expert's time cap is 0.9 s
    assert b"mille: terminated; the game is kept in " in term.raw
    game = load_session(str(recovery_file(term)))  # a consistent table: it loads
    assert game.computer_to_move  # some computers had not moved yet
