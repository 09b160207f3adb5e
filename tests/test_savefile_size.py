"""Every save mille writes loads back: the largest one is under the load
limit, a save over it is refused when written (not when read), and the
saves of eight experts written before they kept their guesses as card
letters (over 1 MiB) load too."""

from __future__ import annotations

import errno
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from mille import i18n
from mille.engine.cards import HAND_SLOTS
from mille.engine.rules import find_rules
from mille.engine.table import OVER, Use
from mille.game.session import Session
from mille.players.base import start_hand
from mille.players.beliefs import LETTERS, MAX_PARTICLES, PARTICLES
from mille.players.expert import Expert
from mille.players.heuristic import NAMES
from mille.storage.savefile import MAX_SIZE, dumps, load_session, loads, save_session

# the largest deck and the longest hands: nine seats, every card doubled
# that can be, karma, the discard pile reshuffled, a 3000-mile race
LARGEST = find_rules(
    "milebymile", players=9, rigging="2x defenses", karma=True, reshuffle=True, distance=3000
)
# the most events between two of your turns: each of the eight others picks
# (one event) and plays (one), a safety or False Virtue (five in the deck)
# gives another turn, a hazard may ask Coup Fourre? (an answer) and a side
# Extension?; with your hand empty late in a hand the others play out
# their seven cards each.  Far fewer than this.
MOST_EVENTS = 300


def late_in_a_hand() -> Session:
    """The largest game, late in a hand (the standard computers are quick),
    its computers then made experts that know the table."""
    session = Session.new(LARGEST, seed=5)
    driver = random.Random(5)
    moves = 0
    while session.table.phase != OVER and moves < 400:
        if session.computer_to_move:
            session.computer_move()
        else:
            legal = session.table.legal_moves()
            uses = [m for m in legal if isinstance(m, Use)]
            session.play(driver.choice(uses or legal))
        moves += 1
    assert session.table.phase != OVER
    for seat in list(session.computers):
        expert = Expert(random.Random(seat), seat)
        start_hand(expert, session.table)
        session.computers[seat] = expert
    return session


def largest(session: Session) -> Session:
    """``session`` as large as a save can get: every expert's guesses as
    many and as long as they may be, a foreseen move for each about every
    seat, and the log as long as it can be (computers' longest events)."""
    for seat, player in session.computers.items():
        assert isinstance(player, Expert)
        others = [other for other in range(LARGEST.players) if other != seat]
        each = min(MAX_PARTICLES, PARTICLES // len(others))
        player.beliefs = {other: [[19] * HAND_SLOTS for _ in range(each)] for other in others}
        player.predictions = {other: ["U:Speed Limit>9"] * each for other in others}
    longest = max(
        (event for event in session.log if event.outcome.seat != 0),
        key=lambda event: len(json.dumps(str(event))),
    )
    session.log = [longest] * MOST_EVENTS
    return session


def test_the_largest_save_is_well_under_the_limit(tmp_path: Path) -> None:
    session = largest(late_in_a_hand())
    text = dumps(session)
    assert len(text) < MAX_SIZE // 2, len(text)
    path = tmp_path / "big.json"
    save_session(session, str(path))
    assert dumps(load_session(str(path))) == text


def test_the_issues_nine_seat_expert_save_loads(tmp_path: Path) -> None:
    # mille --plain --rules milebymile --players 9 --level expert --seed 3, s
    session = Session.new(find_rules("milebymile", players=9), seed=3, level="expert")
    path = tmp_path / "g.json"
    save_session(session, str(path))
    assert os.path.getsize(path) < 400_000
    back = load_session(str(path))
    assert dumps(back) == dumps(session)


def old_memory(memory: dict[str, Any]) -> dict[str, Any]:
    """An expert's memory as mille wrote it before card letters: guesses as
    lists of card names, foreseen moves naming their card."""

    def name(key: str) -> str:
        kind, colon, rest = key.partition(":")
        if not colon:
            return key
        return f"{kind}:{NAMES[LETTERS.index(rest[0])]}{rest[1:]}"

    memory = dict(memory)
    memory["beliefs"] = {
        seat: [[NAMES[LETTERS.index(c)] for c in hand] for hand in hands]
        for seat, hands in memory["beliefs"].items()
    }
    memory["predictions"] = {
        seat: [name(key) for key in keys] for seat, keys in memory["predictions"].items()
    }
    return memory


def test_an_older_save_over_1_mib_loads_and_plays_on_the_same(tmp_path: Path) -> None:
    session = Session.new(find_rules("milebymile", players=9), seed=3, level="expert")
    data = json.loads(dumps(session))
    for seat in data["seats"]:
        if seat["control"] == "computer":
            seat["memory"] = old_memory(seat["memory"])
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data, indent=2))
    assert (1 << 20) < os.path.getsize(path) < MAX_SIZE
    back = load_session(str(path))
    assert dumps(back) == dumps(session)


def test_a_save_that_would_not_load_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import mille.storage.savefile

    session = Session.new(find_rules("milebymile", players=9), seed=3, level="expert")
    size = len(dumps(session))
    monkeypatch.setattr(mille.storage.savefile, "MAX_SIZE", size - 1)
    path = tmp_path / "g.json"
    with pytest.raises(OSError) as info:
        save_session(session, str(path))
    assert info.value.errno == errno.EFBIG
    assert info.value.strerror == (
        f"cannot save: the game takes {size} bytes, over the 4 MiB a save file may hold"
    )
    assert i18n.oserror(info.value) == info.value.strerror  # in English, as it is
    assert not path.exists() and os.listdir(tmp_path) == []


def test_letters_name_every_card_once() -> None:
    assert len(LETTERS) == len(set(LETTERS)) == len(NAMES)
    session = Session.new(find_rules("classic", players=3), seed=2, level="expert")
    text = dumps(session)
    memory = json.loads(text)["seats"][1]["memory"]
    assert all(
        isinstance(hand, str) and set(hand) <= set(LETTERS)
        for hands in memory["beliefs"].values()
        for hand in hands
    )
    assert dumps(loads(text)) == text
