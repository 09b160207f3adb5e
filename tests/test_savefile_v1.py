"""Version-1 save files kept from mille 1.0 (tests/data/saves-v1) still load,
converted to the version-2 model (saved again as version 3, with an empty
log), and play on; a version-1 file that is not a save is refused with a
version-1 path."""

from __future__ import annotations

import copy
import json
import pathlib
import random
from collections.abc import Callable
from typing import Any

import pytest
from test_savefile import clone_rng, fingerprint, step

from mille.engine.rules import BSD
from mille.players.computer import BsdComputer
from mille.storage.savefile import SaveError, dumps, load_session, loads, session_from_dict

V1 = pathlib.Path(__file__).parent / "data" / "saves-v1"
FILES = sorted(V1.glob("*.json"))
TABLEAU_FROM_PLAYER = {  # version 2's tableau key: version 1's player key
    "battle": "battle_pile",
    "speed": "speed_pile",
    "miles": "miles",
    "safeties": "safeties",
    "coups": "coups",
    "mileage": "mileage",
    "top": "battle",
    "speed_top": "speed",
    "can_go": "can_go",
    "battle_window": "battle_window",
    "speed_window": "speed_window",
}


def v1(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((V1 / f"{name}.json").read_text())
    return data


def test_the_kept_files_are_version_1() -> None:
    assert len(FILES) == 5
    for path in FILES:
        data = json.loads(path.read_text())
        assert (data["format"], data["version"]) == ("bsd-mille-save", 1)


def test_the_phases_kept() -> None:
    phases = {p.stem: json.loads(p.read_text())["phase"] for p in FILES}
    assert phases == {
        "extension": "extension",
        "hand-over": "hand over",
        "mid-hand": "playing",
        "new-game": "playing",
        "second-game": "playing",
    }


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_version_1_file_is_converted(path: pathlib.Path) -> None:
    """bsd rules, seat 0 you, seat 1 the computer (its memory and generator),
    players[i] as hands[i] and tableaux[i], end as the target."""
    old = json.loads(path.read_text())
    session = load_session(str(path))
    table = session.table
    table.validate(strict=True)
    assert table.rules == BSD and list(session.computers) == [1]
    computer = session.computers[1]
    assert isinstance(computer, BsdComputer) and computer.seat == 1
    assert computer.to_dict() == old["computer"]
    assert computer.rng.getstate()[1] == tuple(old["rng"]["computer"]["state"])
    assert session.deal_rng.getstate()[1] == tuple(old["rng"]["deal"]["state"])
    new = json.loads(dumps(session))
    assert (new["format"], new["version"]) == ("bsd-mille-save", 3)
    assert new["log"] == []  # version 1 kept no log
    assert [s["control"] for s in new["seats"]] == ["human", "computer"]
    for i, player in enumerate(old["players"]):
        assert new["table"]["hands"][i] == player["hand"]
        tab = new["table"]["tableaux"][i]
        assert {k: tab[k] for k in TABLEAU_FROM_PLAYER} == {
            k: player[v] for k, v in TABLEAU_FROM_PLAYER.items()
        }
        assert new["table"]["totals"][i] == player["total_before_hand"]
        assert new["table"]["games"][i] == player["games"]
    for key in ("deck", "discard", "to_move", "starter", "phase", "ordering"):
        assert new["table"][key] == old[key]
    assert new["table"]["target"] == old["end"] and new["window_full"] == old["window_full"]
    if old["phase"] == "extension":
        assert new["table"]["asked"] == old["extender"] == 0
    if old["end"] == 1000:
        assert new["table"]["extender"] == 1  # the first side past 700 (not kept by v1)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_version_1_file_plays_on_and_saves_as_version_3(path: pathlib.Path) -> None:
    """300 steps on; at every step the game saved again (as version 3) and
    loaded goes on exactly as the converted one."""
    session = load_session(str(path))
    driver = random.Random(path.stem)
    for n in range(300):
        if n % 10 == 0:
            text = dumps(session)
            again = loads(text)
            assert dumps(again) == text
            twin, copy_driver = again, clone_rng(driver)
            for _ in range(10):
                step(twin, copy_driver)
        step(session, driver)
        session.table.validate(strict=True)
        if n % 10 == 9:
            assert fingerprint(twin) == fingerprint(session)


def test_a_version_1_file_loads_the_same_twice() -> None:
    a, b = (load_session(str(V1 / "second-game.json")) for _ in range(2))
    assert dumps(a) == dumps(b)


# ----- refusals of version-1 input ------------------------------------------------


BASE = v1("mid-hand")  # you to move, 40 steps in; your hand has cards, the discard pile too


def mutated(change: Callable[[dict[str, Any]], Any]) -> str:
    data = copy.deepcopy(BASE)
    change(data)
    return json.dumps(data)


def setitem(*path_and_value: Any) -> Callable[[dict[str, Any]], None]:
    *path, value = path_and_value

    def change(data: dict[str, Any]) -> None:
        node: Any = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return change


def delitem(*path: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        node: Any = data
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]

    return change


def safety_into_discard(data: dict[str, Any]) -> None:
    hand = data["players"][1]["hand"]
    safety = next(
        c
        for c in data["players"][0]["hand"] + hand + data["deck"]
        if c in ("Extra Tank", "Puncture Proof", "Driving Ace", "Right of Way")
    )
    for where in (data["deck"], data["players"][0]["hand"], hand):
        if safety in where:
            i = where.index(safety)
            where[i], data["discard"][-1] = data["discard"][-1], safety


P0 = ("players", 0)
P1 = ("players", 1)
CORPUS: list[tuple[str, Callable[[], str], str]] = [
    ("missing key", lambda: mutated(delitem(*P0, "hand")), "players[0]: missing key 'hand'"),
    ("missing top key", lambda: mutated(delitem("deck")), "missing key 'deck'"),
    ("extra key", lambda: mutated(setitem("cheat", True)), "unknown key 'cheat'"),
    ("a version-2 key", lambda: mutated(setitem("table", {})), "unknown key 'table'"),
    (
        "extra player key",
        lambda: mutated(setitem(*P0, "nummiles", [0] * 5)),
        "players[0]: unknown key 'nummiles'",
    ),
    (
        "three players",
        lambda: mutated(lambda d: d["players"].append(d["players"][0])),
        "players: expected 2 entries, got 3",
    ),
    (
        "unknown card",
        lambda: mutated(setitem(*P0, "hand", 1, "Foo")),
        "players[0].hand[1]: unknown card 'Foo'",
    ),
    (
        "version 2's False Virtue",
        lambda: mutated(setitem(*P0, "hand", 1, "False Virtue")),
        "impossible game: cards are not the 101-card deck",
    ),
    (
        "card as a number",
        lambda: mutated(setitem(*P0, "hand", 1, 13)),
        "players[0].hand[1]: expected a card name or null, got 13",
    ),
    (
        "empty deck slot",
        lambda: mutated(setitem("deck", 0, None)),
        "deck[0]: expected a card name, got null",
    ),
    (
        "hand of six",
        lambda: mutated(lambda d: d["players"][0]["hand"].pop()),
        "players[0].hand: expected 7 entries, got 6",
    ),
    (
        "an extra card",
        lambda: mutated(lambda d: d["deck"].append("Go")),
        "impossible game: cards are not the 101-card deck",
    ),
    (
        "mileage off the pile",
        lambda: mutated(setitem(*P1, "mileage", 375)),
        "impossible game: side 2: mileage does not match the distance pile",
    ),
    (
        "mileage as a float",
        lambda: mutated(setitem(*P1, "mileage", 350.0)),
        "players[1].mileage: expected an integer, got 350.0",
    ),
    (
        "a Go among the miles",
        lambda: mutated(
            lambda d: d["players"][1]["miles"].append(d["deck"].pop(d["deck"].index("Go")))
        ),
        "impossible game: side 2: only distances go on the distance pile",
    ),
    ("end 800", lambda: mutated(setitem("end", 800)), "end: must be 700 or 1000, not 800"),
    ("end true", lambda: mutated(setitem("end", True)), "end: must be 700 or 1000, not true"),
    (
        "1000 without 700",
        lambda: mutated(setitem("end", 1000)),
        "impossible game: side 1 extended before reaching 700",
    ),
    ("to_move 2", lambda: mutated(setitem("to_move", 2)), "to_move: 2 is out of range 0..1"),
    ("unknown phase", lambda: mutated(setitem("phase", "coup")), "phase: unknown phase 'coup'"),
    (
        "extender while playing",
        lambda: mutated(setitem("extender", 0)),
        "extender: must be null outside the extension phase, not 0",
    ),
    (
        "an extension nobody earned",
        lambda: mutated(lambda d: d.update(phase="extension", extender=0, to_move=1)),
        "impossible game: an extension decision for a side not at the target",
    ),
    (
        "the computer's extension pending",
        lambda: mutated(lambda d: d.update(phase="extension", extender=1)),
        "extender: the computer never leaves Extension? pending",
    ),
    (
        "ordering 1",
        lambda: mutated(setitem("ordering", 1)),
        "ordering: expected true or false, got 1",
    ),
    (
        "can_go lies",
        lambda: mutated(setitem(*P1, "can_go", False)),
        "impossible game: side 2: can_go does not match the battle top",
    ),
    (
        "a top off the pile",
        lambda: mutated(setitem(*P1, "battle", "Stop")),
        "impossible game: side 2: the battle top is not the top of the battle pile",
    ),
    (
        "three coups",
        lambda: mutated(lambda d: d["players"][0]["coups"].pop()),
        "players[0].coups: expected 4 entries, got 3",
    ),
    (
        "banked total 5000",
        lambda: mutated(setitem(*P0, "total_before_hand", 5000)),
        "players[0].total_before_hand: 5000 is out of range 0..4999",
    ),
    (
        "banked total 30",
        lambda: mutated(setitem(*P0, "total_before_hand", 30)),
        "impossible game: side 1: a total of 30 is not a score",
    ),
    (
        "negative games",
        lambda: mutated(setitem(*P0, "games", -1)),
        "players[0].games: -1 is out of range 0..1000000000",
    ),
    (
        "a discarded safety",
        lambda: mutated(safety_into_discard),
        "impossible game: a safety in the discard pile (",
    ),
    (
        "computer not an object",
        lambda: mutated(setitem("computer", [])),
        "computer: expected an object, got []",
    ),
    (
        "computer memory off",
        lambda: mutated(setitem("computer", "gos", -1)),
        "computer: gos must be 0 to ",
    ),
    (
        "computer on the wrong side",
        lambda: mutated(setitem("computer", "player", 0)),
        "computer: saved for seat 0, not seat 1",
    ),
    ("rng missing", lambda: mutated(delitem("rng", "deal")), "rng: missing key 'deal'"),
    (
        "rng word too big",
        lambda: mutated(setitem("rng", "computer", "state", 7, 2**32)),
        "rng.computer.state[7]: 4294967296 is out of range 0..4294967295",
    ),
    (
        "rng position 0",
        lambda: mutated(setitem("rng", "deal", "state", 624, 0)),
        "rng.deal.state[624]: 0 is out of range 1..624",
    ),
]


@pytest.mark.parametrize("name,make,message", CORPUS, ids=[c[0] for c in CORPUS])
def test_a_bad_version_1_file_is_refused(name: str, make: Callable[[], str], message: str) -> None:
    with pytest.raises(SaveError) as caught:
        loads(make())
    reason = str(caught.value)
    if message.endswith(("(", " ")):
        assert reason.startswith(message), reason
    else:
        assert reason == message


def test_the_unmutated_base_loads() -> None:
    session = session_from_dict(copy.deepcopy(BASE))
    assert session.rules is BSD and sorted(session.computers) == [1]
