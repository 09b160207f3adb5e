"""Save files (version 3): round trips, exact continuation for every preset, a
corpus of bad files, atomic writes."""

from __future__ import annotations

import ast
import copy
import doctest
import errno
import functools
import importlib
import json
import os
import random
import signal
import stat
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import mille.players.computer
import mille.storage.checks
import mille.storage.savefile
from mille.engine.cards import FALSE_VIRTUE
from mille.engine.rules import BSD, Rules, find_rules
from mille.engine.table import COUP, EXTENSION, OVER, Use
from mille.game.session import Session
from mille.storage.savefile import (
    FORMAT,
    MAX_SIZE,
    VERSION,
    SaveError,
    dumps,
    load_session,
    loads,
    save_session,
    session_from_dict,
    session_to_dict,
)

IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0

CLASSIC4 = find_rules("classic", players=4)
MILEBYMILE = find_rules("milebymile", players=3, reshuffle=True)
GAMES = {"bsd": BSD, "classic-4": CLASSIC4, "milebymile-reshuffle": MILEBYMILE}
HANDS = {"bsd": 4, "classic-4": 3, "milebymile-reshuffle": 2}  # about 450 steps each


# ----- driving a game -----------------------------------------------------


def step(session: Session, driver: random.Random) -> str:
    """Advance the game by one action; returns what kind of action it was.

    People play random legal moves (uses preferred, so hands get
    somewhere) and answer their questions at random, computers play
    themselves, and a finished hand is followed by the next one.
    """
    table = session.table
    if table.phase == OVER:
        session.next_hand()
        return "new hand"
    if session.computer_to_move:
        session.computer_move()
        return "computer"
    moves = table.legal_moves()
    assert moves, "a person has no legal move"
    # (a person's discard of a safety, asked first on the boards, has its own tests)
    moves = [m for m in moves if not table.discards_safety(m)]
    if table.phase in (EXTENSION, COUP):
        phase = table.phase
        session.play(driver.choice(moves))
        return phase
    uses = [m for m in moves if isinstance(m, Use)]
    session.play(driver.choice(uses if uses and driver.random() < 0.7 else moves))
    return "human"


def clone_rng(rng: random.Random) -> random.Random:
    twin = random.Random()
    twin.setstate(rng.getstate())
    return twin


def new_session(rules: Rules, seed: int, humans: tuple[int, ...] = (0,)) -> Session:
    return Session.new(rules, seed=seed, humans=humans)


def play_steps(
    seed: int, steps: int, rules: Rules = BSD, humans: tuple[int, ...] = (0,)
) -> Session:
    session = new_session(rules, seed, humans)
    driver = random.Random(seed)
    for _ in range(steps):
        step(session, driver)
    return session


def fingerprint(session: Session) -> tuple[Any, ...]:
    """Everything a save holds, cheaply comparable."""
    return (
        session.table.copy(),
        [
            (seat, c.to_dict(), c.rng.getstate())  # type: ignore[attr-defined]
            for seat, c in sorted(session.computers.items())
        ],
        session.deal_rng.getstate(),
        session.window_full,
    )


@functools.cache
def recorded(
    game: str, seed: int
) -> tuple[list[str], list[tuple[Any, ...]], list[random.Random], list[str]]:
    """Play the game's ``HANDS``: the save text, fingerprint, driver and
    action kind at every step."""
    session = new_session(GAMES[game], seed)
    hands = HANDS[game]
    driver = random.Random(seed ^ 0x5EED)
    texts, prints, drivers, kinds = [], [], [], []
    done = 0
    while done < hands:
        texts.append(dumps(session))
        prints.append(fingerprint(session))
        drivers.append(clone_rng(driver))
        kind = step(session, driver)
        kinds.append(kind)
        if kind == "new hand":
            done += 1
    texts.append(dumps(session))
    prints.append(fingerprint(session))
    drivers.append(clone_rng(driver))
    return texts, prints, drivers, kinds


SEEDS = (1, 2, 3)
# the heavy checks run one seed of each game in the quick suite, all three with -m slow
HEAVY = [
    pytest.param(game, seed, id=f"{game}-{seed}", marks=[pytest.mark.slow] if seed > 1 else [])
    for game in GAMES
    for seed in SEEDS
]


STORAGE = Path(mille.storage.savefile.__file__).parent  # the save file's modules beside it


@pytest.mark.parametrize("name", ["savefile", "checks", "current"])
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(f"mille.storage.{name}"))
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize("game,seed", HEAVY)
def test_round_trip_is_byte_identical_at_every_step(game: str, seed: int) -> None:
    texts, prints, _, _ = recorded(game, seed)
    for text, seen in zip(texts, prints):
        restored = loads(text)
        assert dumps(restored) == text
        assert fingerprint(restored) == seen
    assert session_to_dict(restored) == json.loads(text)


@pytest.mark.parametrize("game,seed", HEAVY)
def test_restored_game_plays_on_exactly_as_the_original(game: str, seed: int) -> None:
    """From every step (every other one in the quick suite), 25 steps on;
    from a few steps, to the end of the record: the same deals, the same
    computer moves, the same files."""
    texts, prints, drivers, _ = recorded(game, seed)
    last = len(texts) - 1
    far = {0, last // 3, last // 2, last - 40}
    for i in range(0, last, 2 if seed == 1 else 1):
        horizon = last if i in far else min(last, i + 25)
        restored = loads(texts[i])
        driver = clone_rng(drivers[i])
        for j in range(i + 1, horizon + 1):
            step(restored, driver)
            assert fingerprint(restored) == prints[j], f"step {j} differs after loading step {i}"
        assert dumps(restored) == texts[horizon]


def test_the_games_cover_every_phase() -> None:
    """The round-trip games, played to their fourth hand, reach hand ends,
    an empty deck, questions to people and a reshuffle."""
    seen: set[str] = set()
    for game in GAMES:
        for seed in SEEDS:
            session = new_session(GAMES[game], seed)
            driver = random.Random(seed ^ 0x5EED)
            hands = 0
            while hands < 4:
                table = session.table
                seen.add(f"{game} phase {table.phase}")
                if not table.deck:
                    seen.add(f"{game} deck empty")
                if table.refills:
                    seen.add(f"{game} reshuffled")
                kind = step(session, driver)
                seen.add(f"{game} {kind}")
                hands += kind == "new hand"
    wanted = {
        f"{game} {what}"
        for game in GAMES
        for what in ("human", "computer", "new hand", "phase hand over", "deck empty")
    }
    wanted |= {"bsd extension", "classic-4 coup", "milebymile-reshuffle reshuffled"}
    assert wanted <= seen, sorted(wanted - seen)


def test_a_false_virtue_in_the_log_round_trips() -> None:
    """Karma's False Virtue is played with no extra turn, and is not a
    safety: a save whose log holds one loads (it was refused)."""
    session = Session.new(find_rules("milebymile", players=3, karma=True), seed=307, humans=(0,))
    driver = random.Random(307)
    for _ in range(2000):
        step(session, driver)
        if any(
            e.outcome.card == FALSE_VIRTUE and isinstance(e.outcome.move, Use) for e in session.log
        ):
            break
    else:
        pytest.fail("no False Virtue was played")
    text = dumps(session)
    assert dumps(loads(text)) == text


def question_pending(rules: Rules, phase: str) -> Session:
    for seed in range(300):
        session = new_session(rules, seed)
        driver = random.Random(seed)
        for _ in range(2000):
            if session.table.phase == phase:
                return session
            step(session, driver)
    raise AssertionError(f"no {phase} question reached")  # pragma: no cover


@pytest.mark.parametrize(
    "rules,phase",
    [(BSD, EXTENSION), (CLASSIC4, COUP), (find_rules("classic", players=3), EXTENSION)],
    ids=["bsd extension", "classic coup", "classic extension"],
)
def test_a_question_to_a_person_round_trips(rules: Rules, phase: str) -> None:
    session = question_pending(rules, phase)
    text = dumps(session)
    restored = loads(text)
    assert restored.table.phase == phase and restored.table.asked == session.table.asked
    assert restored.table.asked not in restored.computers and restored.human_to_move
    assert dumps(restored) == text


@pytest.mark.parametrize(
    "rules,humans",
    [
        (BSD, ()),
        (BSD, (0, 1)),
        (BSD, (1,)),
        (find_rules("classic", players=6), (0, 3)),
        (find_rules("milebymile", players=9, team_mode="3v3v3", karma=True), ()),
        (
            find_rules(
                "milebymile",
                players=5,
                distance=300,
                winning_score=1000,
                stacking=True,
                perfect_crossing=False,
                always_discard=False,
                rigging="no duplicates",
                reshuffle=False,
            ),
            (0, 1, 2, 3, 4),
        ),
    ],
    ids=[
        "bsd computers only",
        "bsd people only",
        "bsd you at seat 1",
        "classic 6",
        "milebymile 9 karma",
        "milebymile 5 options",
    ],
)
def test_any_seats_and_options_round_trip(rules: Rules, humans: tuple[int, ...]) -> None:
    session = play_steps(4, 300, rules, humans)
    text = dumps(session)
    restored = loads(text)
    assert dumps(restored) == text and restored.rules == rules
    assert sorted(restored.computers) == [s for s in range(rules.players) if s not in humans]
    twin = random.Random(9)
    driver = random.Random(9)
    for _ in range(200):
        step(session, driver)
        step(restored, twin)
    assert dumps(restored) == dumps(session)


def test_loaded_session_knows_its_file(tmp_path: Path) -> None:
    path = tmp_path / "game"
    session = play_steps(4, 30)
    save_session(session, str(path))
    restored = load_session(str(path))
    assert restored.source == str(path)
    assert dumps(restored) == dumps(session) == path.read_text()


def test_window_setting_and_ordering_are_kept() -> None:
    session = play_steps(5, 10)
    session.window_full = True
    session.table.set_ordering(True)
    restored = loads(dumps(session))
    assert restored.window_full is True and restored.table.ordering is True


def test_the_file_says_what_it_is() -> None:
    data = json.loads(dumps(play_steps(6, 26, CLASSIC4)))
    assert list(data) == [
        "format",
        "version",
        "rules",
        "seats",
        "table",
        "window_full",
        "deal_rng",
        "log",
    ]
    assert data["format"] == FORMAT == "bsd-mille-save" and data["version"] == VERSION == 3
    assert data["rules"]["name"] == "classic" and data["rules"]["team_mode"] == "2v2"
    assert [s["control"] for s in data["seats"]] == ["human"] + ["computer"] * 3
    assert data["deal_rng"]["version"] == 3 and len(data["deal_rng"]["state"]) == 625
    assert len(data["table"]["hands"]) == 4 and len(data["table"]["tableaux"]) == 2
    assert [(e["seat"], e["move"]) for e in data["log"]][-8:] == [
        (0, "P"),
        (0, "D6"),
        (1, "P"),
        (1, "U4"),
        (2, "P"),
        (2, "DP"),
        (3, "P"),
        (3, "U1"),
    ]
    assert all(list(e) == list(EVENT_KEYS) for e in data["log"])


EVENT_KEYS = (
    "seat",
    "move",
    "card",
    "drawn",
    "coup_fourre",
    "extra_turn",
    "notices",
    "phase",
    "mileage",
)


def test_the_log_is_the_whole_hand() -> None:
    """At every step, the file keeps the whole of ``session.log`` (not cut
    at seat 0's last turn, as before 2.1), and a loaded game has exactly
    that log."""
    session = new_session(CLASSIC4, 6)
    driver = random.Random(6)
    lengths = set()
    for _ in range(150):
        text = dumps(session)
        kept = session.log
        data = json.loads(text)["log"]
        assert [(e["seat"], e["move"]) for e in data] == [
            (event.outcome.seat, str(event.outcome.move)) for event in kept
        ]
        assert loads(text).log == kept
        lengths.add(len(kept))
        step(session, driver)
    assert {0, 1, 6} <= lengths


def test_the_text_is_canonical_ascii() -> None:
    text = dumps(play_steps(7, 90, MILEBYMILE))
    assert text.isascii() and text.endswith("}\n")
    assert dumps(loads(text)) == text
    assert json.loads(text) == session_to_dict(loads(text))


def test_a_computer_of_another_kind_is_not_saved() -> None:
    session = play_steps(1, 3)
    session.computers[1] = mille.players.computer.BsdComputer(random.Random(1), 0)
    with pytest.raises(SaveError, match=r"^cannot save seat 1's computer: it plays seat 0$"):
        dumps(session)
    session.computers[1] = object()  # type: ignore[assignment]
    with pytest.raises(SaveError, match=r"^cannot save a computer of type object under bsd$"):
        dumps(session)


# ----- the corpus of bad files ------------------------------------------------


def as_written_by_2_0(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with its log cut after seat 0's last turn, as mille 2.0
    wrote it (a file every later mille reads)."""
    log = data["log"]
    ends = [
        i
        for i, e in enumerate(log)
        if e["seat"] == 0 and e["move"] not in ("P", "y", "n") and not e["extra_turn"]
    ]
    data["log"] = log[ends[-1] + 1 :] if ends else log
    return data


def find_save(rules: Rules, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    for seed in range(11, 100):
        session = new_session(rules, seed)
        driver = random.Random(seed)
        for n in range(600):
            data = session_to_dict(session)
            if n >= 40 and wanted(data):
                return as_written_by_2_0(data)
            step(session, driver)
    raise AssertionError("no seed gives a base save")  # pragma: no cover


SAFETIES = ("Extra Tank", "Puncture Proof", "Driving Ace", "Right of Way")


def unplayed(table: dict[str, Any]) -> set[str]:
    return set(table["deck"]).union(*table["hands"])


def bsd_wanted(data: dict[str, Any]) -> bool:
    """Some way into a hand: cards discarded, your miles on the table, a
    safety still unplayed, nobody near 700, you to move."""
    t = data["table"]
    return bool(
        t["discard"]
        and t["tableaux"][0]["miles"]
        and t["phase"] == "playing"
        and t["to_move"] == 0
        and max(tab["mileage"] for tab in t["tableaux"]) < 600
        and any(t["hands"][0])
        and unplayed(t) & set(SAFETIES)
        and t["tableaux"][0]["top"] == "Go"
    )


def classic_wanted(data: dict[str, Any]) -> bool:
    t = data["table"]
    return bool(
        t["discard"]
        and t["tableaux"][1]["miles"]
        and t["phase"] == "playing"
        and t["to_move"] == 0
        and max(tab["mileage"] for tab in t["tableaux"]) < 800
        and unplayed(t) & set(SAFETIES)
        and all(h[3] for h in t["hands"])
    )


def milebymile_wanted(data: dict[str, Any]) -> bool:
    t = data["table"]
    return bool(t["refills"] and t["phase"] == "playing" and t["to_move"] == 0 and any(t["marks"]))


BASES = {
    "bsd": find_save(BSD, bsd_wanted),
    "classic": find_save(CLASSIC4, classic_wanted),
    "milebymile": find_save(MILEBYMILE, milebymile_wanted),
}
BASE = BASES["bsd"]


def mutated(change: Callable[[dict[str, Any]], Any], base: str = "bsd") -> bytes:
    data = copy.deepcopy(BASES[base])
    change(data)
    return json.dumps(data, indent=1).encode()


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


def both(*changes: Callable[[dict[str, Any]], Any]) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        for c in changes:
            c(data)

    return change


def safety_into_discard(data: dict[str, Any]) -> None:
    """Put a safety still in the deck or a hand on top of the discard pile."""
    t = data["table"]
    for where in (t["deck"], *t["hands"]):
        for i, card in enumerate(where):
            if card in SAFETIES:
                where[i], t["discard"][-1] = t["discard"][-1], card
                return
    raise AssertionError("no safety to move")  # pragma: no cover


def discarded_safety() -> str:
    data = copy.deepcopy(BASE)
    safety_into_discard(data)
    return f"impossible game: a safety in the discard pile ({data['table']['discard'][-1]})"


def rename_card(name: Any, seat: int = 2, slot: int = 3) -> Callable[[dict[str, Any]], None]:
    return setitem("table", "hands", seat, slot, name)


def extra_card(data: dict[str, Any]) -> None:
    data["table"]["deck"].append("Go")


def lost_card(data: dict[str, Any]) -> None:
    data["table"]["deck"].pop()


def traded_card(data: dict[str, Any]) -> None:
    deck = data["table"]["deck"]
    deck[deck.index("Stop")] = "Go"


def wrong_mileage(data: dict[str, Any]) -> None:
    data["table"]["tableaux"][0]["mileage"] += 25


def lying_can_go(data: dict[str, Any]) -> None:
    tab = data["table"]["tableaux"][0]
    tab["can_go"] = not tab["can_go"]


def top_off_the_pile(data: dict[str, Any]) -> None:
    data["table"]["tableaux"][0]["top"] = "Repairs"


def finished_while_playing(data: dict[str, Any]) -> None:
    tab = data["table"]["tableaux"][1]
    t = data["table"]
    while tab["mileage"] < 700:
        i = t["deck"].index("100") if "100" in t["deck"] else t["deck"].index("25")
        card = t["deck"].pop(i)
        tab["miles"].append(card)
        tab["mileage"] += int(card)
        if tab["mileage"] > 700:
            raise AssertionError("overshot")  # pragma: no cover


def slot_p_filled(data: dict[str, Any]) -> None:
    hand = data["table"]["hands"][1]
    hand[0], hand[1] = hand[1], None


def coup_without_offer(data: dict[str, Any]) -> None:
    data["table"].update(phase="coup", asked=1)


def wrong_seat_offer(data: dict[str, Any]) -> None:
    t = data["table"]
    t.update(
        phase="coup", asked=0, offer={"side": 2, "safety": "Extra Tank", "hazard": "Out of Gas"}
    )


def bad_json_text() -> bytes:
    text = json.dumps(BASE)
    return text[: len(text) // 2].encode()


def dup_key_text() -> bytes:
    text = json.dumps(BASE)
    return text.replace('"target": ', '"target": 700, "target": ', 1).encode()


def nan_text() -> bytes:
    data = copy.deepcopy(BASE)
    data["deal_rng"]["gauss_next"] = 0.5
    return json.dumps(data).replace("0.5", "NaN").encode()


def non_utf8() -> bytes:
    return json.dumps(BASE).encode().replace(b'"Go"', b'"G\xf6"', 1)


def huge() -> bytes:
    text = json.dumps(BASE)
    return (text[:-1] + ', "pad": "' + "x" * MAX_SIZE + '"}').encode()


TAB0 = ("table", "tableaux", 0)
SEAT1 = ("seats", 1)
C = "classic"
M = "milebymile"
CORPUS: list[tuple[str, Callable[[], bytes], str]] = [
    # the file as a whole
    ("empty", lambda: b"", "not a mille save file (empty)"),
    ("blank", lambda: b"  \n\n", "not a mille save file (empty)"),
    ("over 4 MiB", huge, "not a mille save file (over 4 MiB)"),
    ("not UTF-8", non_utf8, "not a mille save file (not UTF-8 text at byte "),
    ("truncated", bad_json_text, "not a mille save file (bad JSON at line 1 column "),
    (
        "plain text",
        lambda: b"hello, world\n",
        "not a mille save file (bad JSON at line 1 column 1: expecting value)",
    ),
    (
        "a BSD memory dump",
        lambda: bytes(range(256)) * 4,
        "not a mille save file (not UTF-8 text at byte 128)",
    ),
    ("JSON array", lambda: b"[1, 2, 3]", "not a mille save file (not a JSON object)"),
    ("duplicate key", dup_key_text, "not a mille save file (duplicate key 'target')"),
    ("NaN", nan_text, "not a mille save file (NaN is not JSON)"),
    (
        "a number of 5000 digits",
        lambda: b'{"version": ' + b"9" * 5000 + b"}",
        "not a mille save file (a number of more than 4300 digits)",
    ),
    (
        "no format name",
        lambda: mutated(delitem("format")),
        "not a mille save file (no format name)",
    ),
    (
        "wrong format name",
        lambda: mutated(setitem("format", "bsd-rogue-save")),
        "format: not a mille save file ('bsd-rogue-save')",
    ),
    (
        "newer version",
        lambda: mutated(setitem("version", 4)),
        "version: unsupported save version 4 (this mille reads versions 1, 2 and 3)",
    ),
    (
        "version as text",
        lambda: mutated(setitem("version", "3")),
        "version: unsupported save version '3' (this mille reads versions 1, 2 and 3)",
    ),
    (
        "version as bool",
        lambda: mutated(setitem("version", True)),
        "version: unsupported save version true (this mille reads versions 1, 2 and 3)",
    ),
    ("a version-2 file called 1", lambda: mutated(setitem("version", 1)), "missing key 'players'"),
    ("missing top key", lambda: mutated(delitem("table")), "missing key 'table'"),
    ("extra key", lambda: mutated(setitem("cheat", True)), "unknown key 'cheat'"),
    # rules
    (
        "unknown preset",
        lambda: mutated(setitem("rules", "name", "uno")),
        "rules.name: unknown rules 'uno' (choose bsd, classic, milebymile)",
    ),
    (
        "preset as a number",
        lambda: mutated(setitem("rules", "name", 1)),
        "rules.name: expected a string, got 1",
    ),
    (
        "ten players",
        lambda: mutated(setitem("rules", "players", 10), C),
        "rules.players: 10 is out of range 2..9",
    ),
    (
        "classic for five",
        lambda: mutated(setitem("rules", "players", 5), C),
        "rules: classic needs 2, 3, 4 or 6 players",
    ),
    (
        "bsd for three",
        lambda: mutated(setitem("rules", "players", 3)),
        "rules: bsd needs 2 players",
    ),
    (
        "bsd to 800",
        lambda: mutated(setitem("rules", "distance", 800)),
        "rules.distance: bsd with 2 players has 700, not 800",
    ),
    (
        "classic reshuffled",
        lambda: mutated(setitem("rules", "reshuffle", True), C),
        "rules.reshuffle: classic with 4 players has false, not true",
    ),
    (
        "classic teams split",
        lambda: mutated(setitem("rules", "team_mode", "individual"), C),
        "rules.team_mode: classic with 4 players has '2v2', not 'individual'",
    ),
    (
        "a race of 310",
        lambda: mutated(setitem("rules", "distance", 310), M),
        "rules: perfect crossing needs a race distance in 25s",
    ),
    (
        "a race of 3100",
        lambda: mutated(setitem("rules", "distance", 3100), M),
        "rules: race distance must be 300 to 3000",
    ),
    (
        "karma for two sides",
        lambda: mutated(both(setitem("rules", "players", 2), setitem("rules", "karma", True)), M),
        "rules: karma rule needs 3 or more sides",
    ),
    (
        "karma 1",
        lambda: mutated(setitem("rules", "karma", 1), M),
        "rules.karma: expected true or false, got 1",
    ),
    (
        "unknown rigging",
        lambda: mutated(setitem("rules", "rigging", "loaded"), M),
        "rules.rigging: unknown deck rigging 'loaded' (choose none, no duplicates, 2x attacks, 2x defenses)",
    ),
    (
        "rules for 4, a table for 3",
        lambda: mutated(setitem("rules", "players", 4), M),
        "seats: expected 4 entries, got 3",  # (read before the table, in the file's order)
    ),
    # the table's shape
    (
        "missing tableau key",
        lambda: mutated(delitem(*TAB0, "top")),
        "table.tableaux[0]: missing key 'top'",
    ),
    (
        "extra tableau key",
        lambda: mutated(setitem(*TAB0, "nummiles", [0] * 5)),
        "table.tableaux[0]: unknown key 'nummiles'",
    ),
    (
        "three tableaux",
        lambda: mutated(lambda d: d["table"]["tableaux"].append(d["table"]["tableaux"][0]), C),
        "table.tableaux: expected 2 entries, got 3",
    ),
    (
        "unknown card",
        lambda: mutated(rename_card("Foo"), C),
        "table.hands[2][3]: unknown card 'Foo'",
    ),
    (
        "card name in the wrong case",
        lambda: mutated(rename_card("go"), C),
        "table.hands[2][3]: unknown card 'go'",
    ),
    (
        "card as a number",
        lambda: mutated(rename_card(13), C),
        "table.hands[2][3]: expected a card name or null, got 13",
    ),
    (
        "empty deck slot",
        lambda: mutated(setitem("table", "deck", 0, None)),
        "table.deck[0]: expected a card name, got null",
    ),
    (
        "hand of six",
        lambda: mutated(lambda d: d["table"]["hands"][3].pop(), C),
        "table.hands[3]: expected 7 entries, got 6",
    ),
    (
        "mileage as a float",
        lambda: mutated(setitem(*TAB0, "mileage", 25.0)),
        "table.tableaux[0].mileage: expected an integer, got 25.0",
    ),
    (
        "three coups",
        lambda: mutated(lambda d: d["table"]["tableaux"][0]["coups"].pop()),
        "table.tableaux[0].coups: expected 4 entries, got 3",
    ),
    (
        "to_move 4 of 4",
        lambda: mutated(setitem("table", "to_move", 4), C),
        "table.to_move: 4 is out of range 0..3",
    ),
    (
        "to_move false",
        lambda: mutated(setitem("table", "to_move", False)),
        "table.to_move: expected an integer, got false",
    ),
    (
        "unknown phase",
        lambda: mutated(setitem("table", "phase", "paused")),
        "table.phase: unknown phase 'paused'",
    ),
    (
        "extender side 0",
        lambda: mutated(setitem("table", "extender", 0)),
        "table.extender: 0 is out of range 1..2",
    ),
    (
        "an offer as a list",
        lambda: mutated(setitem("table", "offer", [2, "Extra Tank", "Out of Gas"]), C),
        'table.offer: expected an object, got [2, "Extra Tank", "Out of Gas"]',
    ),
    (
        "three totals",
        lambda: mutated(lambda d: d["table"]["totals"].append(0), C),
        "table.totals: expected 2 entries, got 3",
    ),
    (
        "negative games",
        lambda: mutated(setitem("table", "games", 1, -1)),
        "table.games[1]: -1 is out of range 0..1000000000",
    ),
    (
        "seed too big",
        lambda: mutated(setitem("table", "seed", 2**32), M),
        "table.seed: 4294967296 is out of range 0..4294967295",
    ),
    (
        "ordering 1",
        lambda: mutated(setitem("table", "ordering", 1)),
        "table.ordering: expected true or false, got 1",
    ),
    # a table no game can reach (Table.validate's word)
    (
        "an extra card",
        lambda: mutated(extra_card),
        "impossible game: cards are not the 101-card deck",
    ),
    (
        "a lost card",
        lambda: mutated(lost_card, C),
        "impossible game: cards are not the 106-card deck",
    ),
    (
        "a Stop made a Go",
        lambda: mutated(traded_card, M),
        "impossible game: cards are not the 106-card deck",
    ),
    (
        "mileage off the pile",
        lambda: mutated(wrong_mileage),
        "impossible game: side 1: mileage does not match the distance pile",
    ),
    (
        "a Go among the miles",
        lambda: mutated(
            lambda d: d["table"]["tableaux"][0]["miles"].append(
                d["table"]["deck"].pop(d["table"]["deck"].index("Go"))
            )
        ),
        "impossible game: side 1: only distances go on the distance pile",
    ),
    (
        "target 800",
        lambda: mutated(setitem("table", "target", 800)),
        "impossible game: target must be one of [700, 1000], not 800",
    ),
    ("a discarded safety", lambda: mutated(safety_into_discard), discarded_safety()),
    (
        "can_go lies",
        lambda: mutated(lying_can_go),
        "impossible game: side 1: can_go does not match the battle top",
    ),
    (
        "a top off the pile",
        lambda: mutated(top_off_the_pile),
        "impossible game: side 1: the battle top is not the top of the battle pile",
    ),
    (
        "bsd tops under classic",
        lambda: mutated(setitem(*TAB0, "top", "Go"), C),
        "impossible game: side 1: bsd's top-card fields set under classic",
    ),
    (
        "problems under classic",
        lambda: mutated(setitem(*TAB0, "record", ["25"]), C),
        "impossible game: side 1: milebymile's problems under classic",
    ),
    (
        "karma without the rule",
        lambda: mutated(setitem(*TAB0, "karma", True), M),
        "impossible game: side 1: karma without the karma rule",
    ),
    (
        "an extension nobody earned",
        lambda: mutated(lambda d: d["table"].update(phase="extension", asked=0, to_move=1)),
        "impossible game: an extension decision for a side not at the target",
    ),
    (
        "an extender while playing to 700",
        lambda: mutated(setitem("table", "extender", 1)),
        "impossible game: an extender without an extension",
    ),
    (
        "1000 without 700",
        lambda: mutated(lambda d: d["table"].update(target=1000, extender=1)),
        "impossible game: side 1 extended before reaching 700",
    ),
    (
        "still playing at 700",
        lambda: mutated(finished_while_playing),
        "impossible game: the hand goes on, but side 2 has reached 700",
    ),
    (
        "over with cards to play",
        lambda: mutated(setitem("table", "phase", "hand over")),
        "impossible game: the hand is over, but nobody finished and the deck is not empty",
    ),
    (
        "slot P outside its turn",
        lambda: mutated(slot_p_filled, C),
        "impossible game: seat 1: slot P filled outside its turn",
    ),
    (
        "a coup question without an offer",
        lambda: mutated(coup_without_offer, C),
        "impossible game: a coup fourre question without an offer",
    ),
    (
        "an offer to the wrong side",
        lambda: mutated(wrong_seat_offer, C),
        "impossible game: a coup fourre offer to a seat without the safety",
    ),
    (
        "a coup question under bsd",
        lambda: mutated(coup_without_offer),
        "impossible game: a coup fourre question under bsd",
    ),
    (
        "refills without reshuffle",
        lambda: mutated(setitem("table", "refills", 1), C),
        "impossible game: reshuffle counters without the reshuffle rule",
    ),
    (
        "a mark past the mileage",
        lambda: mutated(setitem("table", "marks", 0, 3000), M),
        "impossible game: side 1: a mark of 3000 at ",
    ),
    (
        "a won game left in the totals",
        lambda: mutated(setitem("table", "totals", 0, 5000)),
        "impossible game: a total of 5000 ended the game, but was not settled",
    ),
    (
        "a total of 30",
        lambda: mutated(setitem("table", "totals", 1, 30), C),
        "impossible game: side 2: a total of 30 is not a score",
    ),
    # seats
    (
        "three seats for four",
        lambda: mutated(lambda d: d["seats"].pop(), C),
        "seats: expected 4 entries, got 3",
    ),
    (
        "seat not an object",
        lambda: mutated(setitem("seats", 0, "human")),
        "seats[0]: expected an object, got 'human'",
    ),
    (
        "seat without control",
        lambda: mutated(setitem("seats", 0, {})),
        "seats[0]: missing key 'control'",
    ),
    (
        "seat played by a dog",
        lambda: mutated(setitem("seats", 0, "control", "dog")),
        "seats[0].control: must be 'human' or 'computer', not 'dog'",
    ),
    (
        "a person with a memory",
        lambda: mutated(setitem("seats", 0, "memory", {})),
        "seats[0]: unknown key 'memory'",
    ),
    (
        "a computer without its rng",
        lambda: mutated(delitem(*SEAT1, "rng")),
        "seats[1]: missing key 'rng'",
    ),
    (
        "a heuristic under bsd",
        lambda: mutated(setitem(*SEAT1, "kind", "heuristic")),
        "seats[1].kind: must be one of 'bsd', 'easy', 'expert' under bsd, not 'heuristic'",
    ),
    (
        "a bsd computer under classic",
        lambda: mutated(setitem(*SEAT1, "kind", "bsd"), C),
        "seats[1].kind: must be one of 'heuristic', 'easy', 'expert' under classic, not 'bsd'",
    ),
    (
        "computer memory not an object",
        lambda: mutated(setitem(*SEAT1, "memory", [])),
        "seats[1].memory: expected an object, got []",
    ),
    (
        "computer memory off",
        lambda: mutated(setitem(*SEAT1, "memory", "gos", -1)),
        "seats[1].memory: gos must be 0 to ",
    ),
    (
        "computer memory extra key",
        lambda: mutated(setitem(*SEAT1, "memory", "hand", [])),
        "seats[1].memory: unknown key 'hand'",
    ),
    (
        "another seat's memory",
        lambda: mutated(setitem(*SEAT1, "memory", "player", 0)),
        "seats[1].memory: saved for seat 0, not seat 1",
    ),
    (
        "another seat's heuristic",
        lambda: mutated(setitem(*SEAT1, "memory", "seat", 2), C),
        "seats[1].memory: saved for seat 2, not seat 1",
    ),
    # the log (the hand's moves)
    ("no log", lambda: mutated(delitem("log")), "missing key 'log'"),
    ("a log in a version-2 file", lambda: mutated(setitem("version", 2)), "unknown key 'log'"),
    ("log not an array", lambda: mutated(setitem("log", {})), "log: expected an array, got {}"),
    (
        "an event as text",
        lambda: mutated(setitem("log", 1, "D3")),
        "log[1]: expected an object, got 'D3'",
    ),
    (
        "missing event key",
        lambda: mutated(delitem("log", 1, "phase")),
        "log[1]: missing key 'phase'",
    ),
    (
        "unknown event key",
        lambda: mutated(setitem("log", 1, "target", 2)),
        "log[1]: unknown key 'target'",
    ),
    (
        "a move in lower case",
        lambda: mutated(setitem("log", 1, "move", "d3")),
        "log[1].move: expected a move (P, U3, U4>2, DP, y, n), got 'd3'",
    ),
    (
        "slot 7",
        lambda: mutated(setitem("log", 1, "move", "U7")),
        "log[1].move: expected a move (P, U3, U4>2, DP, y, n), got 'U7'",
    ),
    (
        "a discard with a target",
        lambda: mutated(setitem("log", 1, "move", "D3>2")),
        "log[1].move: expected a move (P, U3, U4>2, DP, y, n), got 'D3>2'",
    ),
    (
        "target side 0",
        lambda: mutated(setitem("log", 1, "move", "U3>0")),
        "log[1].move: expected a move (P, U3, U4>2, DP, y, n), got 'U3>0'",
    ),
    (
        "a move as a number",
        lambda: mutated(setitem("log", 1, "move", 3)),
        "log[1].move: expected a move (P, U3, U4>2, DP, y, n), got 3",
    ),
    (
        "a yes as true",
        lambda: mutated(setitem("log", 1, "move", True)),
        "log[1].move: expected a move (P, U3, U4>2, DP, y, n), got true",
    ),
    (
        "a target beyond the sides",
        lambda: mutated(setitem("log", 1, "move", "U3>3")),
        "log[1].move: no side 3 under these rules",
    ),
    (
        "a target beyond two teams",
        lambda: mutated(setitem("log", 3, "move", "UP>3"), C),
        "log[3].move: no side 3 under these rules",
    ),
    (
        "a seat out of range",
        lambda: mutated(setitem("log", 0, "seat", 2)),
        "log[0].seat: 2 is out of range 0..1",
    ),
    (
        "seat 4 of 4",
        lambda: mutated(setitem("log", 5, "seat", 4), C),
        "log[5].seat: 4 is out of range 0..3",
    ),
    (
        "seat negative",
        lambda: mutated(setitem("log", 0, "seat", -1)),
        "log[0].seat: -1 is out of range 0..1",
    ),
    (
        "seat as text",
        lambda: mutated(setitem("log", 0, "seat", "1")),
        "log[0].seat: expected an integer, got '1'",
    ),
    (
        "three cards drawn",
        lambda: mutated(setitem("log", 0, "drawn", ["25", "50", "75"])),
        "log[0].drawn: a pick draws at most 2 cards",
    ),
    (
        "an unknown card drawn",
        lambda: mutated(setitem("log", 0, "drawn", ["Foo"])),
        "log[0].drawn[0]: unknown card 'Foo'",
    ),
    (
        "an empty card drawn",
        lambda: mutated(setitem("log", 0, "drawn", [None])),
        "log[0].drawn[0]: expected a card name, got null",
    ),
    (
        "drawn as a card",
        lambda: mutated(setitem("log", 0, "drawn", "25")),
        "log[0].drawn: expected an array, got '25'",
    ),
    (
        "an unknown card played",
        lambda: mutated(setitem("log", 1, "card", "Foo")),
        "log[1].card: unknown card 'Foo'",
    ),
    (
        "a card as a number",
        lambda: mutated(setitem("log", 1, "card", 50)),
        "log[1].card: expected a card name or null, got 50",
    ),
    (
        "an unknown notice",
        lambda: mutated(setitem("log", 0, "notices", ["you win"])),
        "log[0].notices[0]: not a notice mille gives: 'you win'",
    ),
    (
        "a notice for side 0",
        lambda: mutated(setitem("log", 0, "notices", ["side 0 loses karma"]), M),
        "log[0].notices[0]: not a notice mille gives: 'side 0 loses karma'",
    ),
    (
        "a notice with a newline",
        lambda: mutated(setitem("log", 0, "notices", 0, "discard pile reshuffled\n"), M),
        "log[0].notices[0]: not a notice mille gives: 'discard pile reshuffled\\n'",
    ),
    (
        "a notice as a number",
        lambda: mutated(setitem("log", 2, "notices", [1]), M),
        "log[2].notices[0]: not a notice mille gives: 1",
    ),
    (
        "notices as text",
        lambda: mutated(setitem("log", 0, "notices", "discard pile reshuffled"), M),
        "log[0].notices: expected an array, got 'discard pile reshuffled'",
    ),
    (
        "a bad phase",
        lambda: mutated(setitem("log", 0, "phase", "hand over")),
        "log[0].phase: expected one of 'playing', 'extension', 'coup', got 'hand over'",
    ),
    (
        "a phase as a number",
        lambda: mutated(setitem("log", 0, "phase", 0)),
        "log[0].phase: expected one of 'playing', 'extension', 'coup', got 0",
    ),
    (
        "coup_fourre as 1",
        lambda: mutated(setitem("log", 1, "coup_fourre", 1)),
        "log[1].coup_fourre: expected true or false, got 1",
    ),
    (
        "extra_turn null",
        lambda: mutated(setitem("log", 1, "extra_turn", None)),
        "log[1].extra_turn: expected true or false, got null",
    ),
    (
        "mileage negative",
        lambda: mutated(setitem("log", 1, "mileage", -25)),
        "log[1].mileage: -25 is out of range 0..1000000000",
    ),
    (
        "mileage as a float",
        lambda: mutated(setitem("log", 1, "mileage", 25.0)),
        "log[1].mileage: expected an integer, got 25.0",
    ),
    (
        "a pick that plays a card",
        lambda: mutated(setitem("log", 0, "card", "25")),
        "log[0]: a pick draws 1 or 2 cards and plays none",
    ),
    (
        "a discard that draws",
        lambda: mutated(setitem("log", 1, "drawn", ["25"])),
        "log[1]: D3 plays a card and draws none",
    ),
    (
        "a discard of no card",
        lambda: mutated(setitem("log", 1, "card", None)),
        "log[1]: D3 plays a card and draws none",
    ),
    (
        "an answer while playing",
        lambda: mutated(setitem("log", 1, "move", "y")),
        "log[1]: an answer is made only to a question",
    ),
    (
        "a move at a question",
        lambda: mutated(setitem("log", 1, "phase", "coup")),
        "log[1]: a question must be answered y or n, not D3",
    ),
    (
        "a discard with another turn",
        lambda: mutated(setitem("log", 1, "extra_turn", True)),
        "log[1]: only a safety gives another turn or a coup fourre",
    ),
    (
        "a discard as a coup fourre",
        lambda: mutated(setitem("log", 1, "coup_fourre", True)),
        "log[1]: only a safety gives another turn or a coup fourre",
    ),
    (
        "an answer that draws",
        lambda: mutated(
            both(
                setitem("log", 1, "move", "n"),
                setitem("log", 1, "phase", "extension"),
                setitem("log", 1, "card", None),
                setitem("log", 1, "drawn", ["25"]),
            )
        ),
        "log[1]: only a pick draws cards",
    ),
    (
        "a coup fourre answered no",
        lambda: mutated(
            both(
                setitem("log", 1, "move", "n"),
                setitem("log", 1, "phase", "coup"),
                setitem("log", 1, "card", "Extra Tank"),
                setitem("log", 1, "coup_fourre", True),
            )
        ),
        "log[1]: only a yes to Coup Fourre? plays a card (its safety)",
    ),
    (
        "a hazard on the mover's side",
        lambda: mutated(both(setitem("log", 1, "move", "U3>2"), setitem("log", 1, "card", "Stop"))),
        "log[1]: a hazard on the mover's own side",
    ),
    (
        "a karma notice without karma",
        lambda: mutated(setitem("log", 0, "notices", ["side 1 loses karma"])),
        "log[0].notices[0]: not a notice of these rules: 'side 1 loses karma'",
    ),
    (
        "a reshuffle without the option",
        lambda: mutated(setitem("log", 0, "notices", ["discard pile reshuffled"])),
        "log[0].notices[0]: not a notice of these rules: 'discard pile reshuffled'",
    ),
    # generators
    ("rng missing", lambda: mutated(delitem("deal_rng")), "missing key 'deal_rng'"),
    (
        "rng version 2",
        lambda: mutated(setitem("deal_rng", "version", 2)),
        "deal_rng.version: unsupported generator version 2",
    ),
    (
        "rng too short",
        lambda: mutated(lambda d: d["deal_rng"]["state"].pop()),
        "deal_rng.state: expected 625 entries, got 624",
    ),
    (
        "rng word too big",
        lambda: mutated(setitem(*SEAT1, "rng", "state", 7, 2**32)),
        "seats[1].rng.state[7]: 4294967296 is out of range 0..4294967295",
    ),
    (
        "rng word negative",
        lambda: mutated(setitem("deal_rng", "state", 0, -1)),
        "deal_rng.state[0]: -1 is out of range 0..4294967295",
    ),
    (
        "rng position 0",
        lambda: mutated(setitem("deal_rng", "state", 624, 0)),
        "deal_rng.state[624]: 0 is out of range 1..624",
    ),
    (
        "rng position 625",
        lambda: mutated(setitem("deal_rng", "state", 624, 625)),
        "deal_rng.state[624]: 625 is out of range 1..624",
    ),
    (
        "rng all zero",
        lambda: mutated(lambda d: d["deal_rng"].update(state=[0] * 624 + [624])),
        "deal_rng.state: all zero: not a generator state",
    ),
    (
        "rng gauss as text",
        lambda: mutated(setitem("deal_rng", "gauss_next", "0.5")),
        "deal_rng.gauss_next: expected a number or null, got '0.5'",
    ),
]


def write_aged(path: Path, data: bytes) -> tuple[bytes, int]:
    path.write_bytes(data)
    os.utime(path, ns=(1_000_000_000_000_000_000, 1_000_000_000_000_000_000))
    return data, path.stat().st_mtime_ns


@pytest.mark.parametrize("name,make,message", CORPUS, ids=[c[0] for c in CORPUS])
def test_bad_file_is_refused_and_left_alone(
    tmp_path: Path, name: str, make: Callable[[], bytes], message: str
) -> None:
    path = tmp_path / "bad.save"
    data, mtime = write_aged(path, make())
    with pytest.raises(SaveError) as caught:
        load_session(str(path))
    reason = str(caught.value)
    assert "\n" not in reason
    if message.endswith(("(", " ", "at byte ", "column ")):
        assert reason.startswith(message)
    else:
        assert reason == message
    assert path.read_bytes() == data
    assert path.stat().st_mtime_ns == mtime
    assert os.listdir(tmp_path) == ["bad.save"]


def test_corpus_is_big_enough() -> None:
    assert len(CORPUS) >= 59


@pytest.mark.parametrize("base", BASES)
def test_the_unmutated_bases_load(base: str) -> None:
    """The corpus's refusals come from the mutations, not from the bases."""
    assert session_to_dict(session_from_dict(copy.deepcopy(BASES[base]))) == BASES[base]


@pytest.mark.parametrize("word", [1, 2**32 - 1])
@pytest.mark.parametrize("position", [1, 624])
@pytest.mark.parametrize("gauss", [None, -1e300, 0.5])
def test_every_generator_state_the_checks_let_through_loads(
    word: int, position: int, gauss: float | None
) -> None:
    """The checks of a generator are those of ``setstate``: a state at
    their bounds is restored as written."""
    data = copy.deepcopy(BASE)
    data["deal_rng"] = {"version": 3, "state": [word] * 624 + [position], "gauss_next": gauss}
    session = loads(json.dumps(data))
    assert session.deal_rng.getstate() == (3, (word,) * 624 + (position,), gauss)


def test_a_computers_question_is_never_pending() -> None:
    """A computer answers the moment it is asked (Session.play): a file
    with its question pending is refused."""
    session = question_pending(CLASSIC4, COUP)
    data = session_to_dict(session)
    asked = data["table"]["asked"]
    data["seats"][asked] = session_to_dict(play_steps(1, 0, CLASSIC4))["seats"][1]
    data["seats"][asked]["memory"]["seat"] = asked
    with pytest.raises(
        SaveError, match=r"^table.asked: a computer never leaves a question pending$"
    ):
        session_from_dict(data)


def test_the_table_is_checked_strictly() -> None:
    """What validate() lets a hand-built test table keep, a file may not."""
    data = copy.deepcopy(BASE)
    safety_into_discard(data)
    with pytest.raises(SaveError, match="^impossible game: a safety in the discard pile"):
        session_from_dict(data)
    table = session_from_dict(copy.deepcopy(BASE)).table
    table.validate(strict=True)
    table.discard.append(table.hands[0].pop())
    table.hands[0].append(-1)
    table.validate()


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match=r"^No such file or directory$") as caught:
        load_session(str(tmp_path / "nothing"))
    assert caught.value.errno == errno.ENOENT


def test_directory(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match=r"^Is a directory$"):
        load_session(str(tmp_path))


def test_fifo_is_not_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(SaveError, match=r"^not a regular file$"):
        load_session(str(fifo))


@pytest.mark.skipif(IS_ROOT, reason="root reads any file")
def test_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "secret"
    save_session(play_steps(1, 5), str(path))
    path.chmod(0)
    with pytest.raises(SaveError, match=r"^Permission denied$"):
        load_session(str(path))


def test_a_broken_computer_memory_is_a_save_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(data: dict[str, Any], rng: random.Random, seat: int = 1) -> Any:
        raise ValueError("bad memory: seen[3] is -1")

    monkeypatch.setattr(mille.players.computer.BsdComputer, "from_dict", staticmethod(refuse))
    with pytest.raises(SaveError, match=r"^seats\[1\].memory: bad memory: seen\[3\] is -1$"):
        loads(json.dumps(BASE))


# ----- writing ----------------------------------------------------------------


def test_save_and_load(tmp_path: Path) -> None:
    session = play_steps(8, 50)
    path = tmp_path / "game.mille"
    save_session(session, str(path))
    assert path.read_text() == dumps(session)
    assert os.listdir(tmp_path) == ["game.mille"]
    assert dumps(load_session(str(path))) == dumps(session)


def test_new_file_mode_follows_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        save_session(play_steps(1, 3), str(tmp_path / "a"))
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a").stat().st_mode) == 0o640


def test_overwrite_keeps_the_mode(tmp_path: Path) -> None:
    path = tmp_path / "a"
    save_session(play_steps(1, 3), str(path))
    path.chmod(0o600)
    save_session(play_steps(2, 3), str(path))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_text() == dumps(play_steps(2, 3))


def test_a_symlink_is_followed(tmp_path: Path) -> None:
    real = tmp_path / "real"
    link = tmp_path / "link"
    save_session(play_steps(1, 3), str(real))
    link.symlink_to(real)
    save_session(play_steps(2, 3), str(link))
    assert link.is_symlink()
    assert real.read_text() == dumps(play_steps(2, 3))


def fail_with(err: int) -> Callable[..., Any]:
    def fail(*args: Any, **kwargs: Any) -> Any:
        raise OSError(err, os.strerror(err))

    return fail


@pytest.mark.parametrize("where", ["fsync", "replace", "fchmod"])
def test_a_failed_save_leaves_the_old_file_and_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    path = tmp_path / "game"
    save_session(play_steps(1, 10), str(path))
    before = path.read_bytes()
    monkeypatch.setattr(os, where, fail_with(errno.ENOSPC))
    with pytest.raises(OSError) as caught:
        save_session(play_steps(1, 20), str(path))
    monkeypatch.undo()
    assert caught.value.errno == errno.ENOSPC
    assert caught.value.strerror == "No space left on device"
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["game"]


class ShortDisk:
    """A file whose writes fail after ``room`` bytes, like a full disk."""

    def __init__(self, real: Any, room: int, error: BaseException) -> None:
        self.real, self.room, self.error = real, room, error

    def write(self, data: bytes) -> int:
        self.real.write(data[: self.room])
        raise self.error

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def __enter__(self) -> ShortDisk:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.real.close()


@pytest.mark.parametrize(
    "error", [OSError(errno.ENOSPC, "No space left on device"), KeyboardInterrupt()]
)
def test_a_write_failing_midway_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: BaseException
) -> None:
    path = tmp_path / "game"
    save_session(play_steps(3, 10), str(path))
    before = path.read_bytes()
    real_fdopen = os.fdopen
    monkeypatch.setattr(
        os, "fdopen", lambda fd, mode: ShortDisk(real_fdopen(fd, mode), 1000, error)
    )
    with pytest.raises(type(error)):
        save_session(play_steps(3, 30), str(path))
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["game"]
    load_session(str(path))


def test_a_failed_first_save_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "fsync", fail_with(errno.EIO))
    with pytest.raises(OSError, match="Input/output error"):
        save_session(play_steps(1, 3), str(tmp_path / "new"))
    assert os.listdir(tmp_path) == []


def test_no_such_directory(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError) as caught:
        save_session(play_steps(1, 3), str(tmp_path / "no" / "game"))
    assert caught.value.strerror == "No such file or directory"


def test_saving_over_a_directory(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    with pytest.raises(IsADirectoryError) as caught:
        save_session(play_steps(1, 3), str(tmp_path / "d"))
    assert caught.value.strerror == "Is a directory"
    assert os.listdir(tmp_path) == ["d"]


def test_a_name_ending_in_a_slash_is_a_directory(tmp_path: Path) -> None:
    with pytest.raises(IsADirectoryError):
        save_session(play_steps(1, 3), str(tmp_path / "game") + "/")
    assert os.listdir(tmp_path) == []


def test_a_long_name_is_fine(tmp_path: Path) -> None:
    path = tmp_path / ("g" * 250)
    save_session(play_steps(1, 3), str(path))
    assert os.listdir(tmp_path) == [path.name]


def test_a_long_name_in_bytes_is_fine(tmp_path: Path) -> None:
    """84 euro signs: 84 characters, 252 bytes, a legal name; the temporary
    file's name must stay within 255 bytes too."""
    path = tmp_path / ("\u20ac" * 84)
    assert len(os.fsencode(path.name)) == 252
    session = play_steps(2, 7)
    save_session(session, str(path))
    assert os.listdir(tmp_path) == [path.name]
    assert dumps(load_session(str(path))) == dumps(session)


@pytest.mark.parametrize(
    "name",
    ["\u20ac" * 84, "\U0001f697" * 63 + "abc", "x" * 255, os.fsdecode(b"\xe9" * 255)],
    ids=["84 euro signs", "63 cars", "255 ASCII", "255 undecodable bytes"],
)
def test_the_temporary_name_fits_in_255_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    import tempfile

    seen: list[str] = []
    real = tempfile.mkstemp

    def spy(*args: Any, **kwargs: Any) -> tuple[int, str]:
        fd, tmp = real(*args, **kwargs)
        seen.append(tmp)
        return fd, tmp

    monkeypatch.setattr(tempfile, "mkstemp", spy)
    save_session(play_steps(1, 3), str(tmp_path / name))
    (tmp,) = seen
    assert len(os.fsencode(os.path.basename(tmp))) <= 255
    assert os.path.basename(tmp).startswith("." + name[:10])
    assert os.listdir(tmp_path) == [name]


class Interrupted(Exception):
    """What a signal handler raised (as the UI's SIGTERM handler raises SystemExit)."""


EXIT_SIGNALS = [
    getattr(signal, name) for name in ("SIGTERM", "SIGINT", "SIGHUP") if hasattr(signal, name)
]


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signals")
@pytest.mark.parametrize("signum", EXIT_SIGNALS, ids=lambda s: signal.Signals(s).name)
@pytest.mark.parametrize("first", [True, False], ids=["new file", "overwrite"])
def test_a_signal_as_the_temporary_file_is_made_leaves_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, signum: int, first: bool
) -> None:
    """The signal arrives the moment mkstemp has made the file, before the
    save code holds its name: the handler's exception must still find it."""
    import tempfile

    path = tmp_path / "game"
    if not first:
        save_session(play_steps(1, 10), str(path))
    before = sorted(os.listdir(tmp_path))
    real = tempfile.mkstemp

    def mkstemp_then_signal(*args: Any, **kwargs: Any) -> tuple[int, str]:
        made = real(*args, **kwargs)
        # to the main thread, as in a process of one thread (a test runner's
        # worker has others, to which os.kill could hand it unblocked)
        signal.pthread_kill(threading.main_thread().ident or 0, signum)
        return made

    def handler(signum: int, frame: object) -> None:
        raise Interrupted(signum)

    mask = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    old_handler = signal.signal(signum, handler)
    try:
        monkeypatch.setattr(tempfile, "mkstemp", mkstemp_then_signal)
        with pytest.raises(Interrupted):
            save_session(play_steps(1, 20), str(path))
        monkeypatch.undo()
    finally:
        signal.signal(signum, old_handler)
    assert sorted(os.listdir(tmp_path)) == before
    assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == mask  # nothing left blocked
    if not first:
        assert dumps(load_session(str(path))) == dumps(play_steps(1, 10))


def test_the_signals_are_unblocked_after_a_save(tmp_path: Path) -> None:
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - Windows
        pytest.skip("POSIX signals")
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    save_session(play_steps(1, 3), str(tmp_path / "g"))
    assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == mask
    with pytest.raises(FileNotFoundError):
        save_session(play_steps(1, 3), str(tmp_path / "no" / "g"))
    assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == mask


def test_saving_over_a_fifo_is_refused(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "p")
    with pytest.raises(OSError, match="not a regular file"):
        save_session(play_steps(1, 3), str(tmp_path / "p"))
    assert stat.S_ISFIFO((tmp_path / "p").stat().st_mode)


@pytest.mark.skipif(IS_ROOT, reason="root may write anywhere")
def test_permission_denied_directory(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(PermissionError) as caught:
            save_session(play_steps(1, 3), str(locked / "game"))
        assert caught.value.strerror == "Permission denied"
        assert os.listdir(locked) == []
    finally:
        locked.chmod(0o700)


@pytest.mark.skipif(IS_ROOT, reason="root may write anywhere")
def test_permission_denied_read_only_file(tmp_path: Path) -> None:
    path = tmp_path / "game"
    save_session(play_steps(1, 3), str(path))
    before = path.read_bytes()
    path.chmod(0o444)
    with pytest.raises(PermissionError, match="Permission denied"):
        save_session(play_steps(1, 9), str(path))
    assert path.read_bytes() == before


@pytest.mark.skipif(not IS_ROOT, reason="the non-root case is tested above")
def test_permission_denied_as_root_uses_an_unwritable_place(tmp_path: Path) -> None:
    """Root ignores permissions; a path under a regular file fails instead."""
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(NotADirectoryError) as caught:
        save_session(play_steps(1, 3), str(blocker / "game"))
    assert caught.value.strerror == "Not a directory"
    assert os.listdir(tmp_path) == ["file"]


def test_a_session_that_would_not_load_back_is_not_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = play_steps(1, 3)
    session.table.tableaux[0].mileage = 25  # corrupted in memory
    with pytest.raises(OSError) as caught:
        save_session(session, str(tmp_path / "game"))
    assert caught.value.errno == errno.EINVAL
    assert caught.value.strerror is not None
    assert caught.value.strerror.startswith("cannot save: impossible game: side 1: mileage")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("path", sorted(STORAGE.glob("*.py")), ids=lambda p: p.name)
def test_never_pickle_marshal_eval_or_exec(path: Path) -> None:
    tree = ast.parse(path.read_text())
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in (
            node.names if isinstance(node, ast.Import) else [ast.alias(node.module or "")]
        )
    }
    assert not imported & {"pickle", "marshal", "shelve", "dill", "ast", "builtins"}
    called = {
        node.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }
    assert not called & {"eval", "exec", "compile", "__import__"}


# ----- hostile values: always one short line, never another exception -------


MESSAGE_LIMIT = mille.storage.savefile.MESSAGE_LIMIT  # a SaveError's text; quoted values about 60


def deep(levels: int) -> Any:
    """``[[...[0]...]]``, ``levels`` deep, built without recursion."""
    value: Any = 0
    for _ in range(levels):
        value = [value]
    return value


# every place whose bad value the loader quotes in its message
QUOTED: list[tuple[Any, ...]] = [
    ("format",),
    ("version",),
    ("rules",),
    ("rules", "name"),
    ("rules", "players"),
    ("rules", "distance"),
    ("rules", "rigging"),
    ("rules", "team_mode"),
    ("seats",),
    ("seats", 0),
    ("seats", 0, "control"),
    ("seats", 1, "kind"),
    ("table",),
    ("table", "target"),
    ("table", "phase"),
    ("table", "extender"),
    ("table", "to_move"),
    ("table", "offer"),
    ("table", "ordering"),
    ("table", "deck", 0),
    ("table", "hands", 0, 1),
    ("table", "tableaux", 0, "mileage"),
    ("table", "tableaux", 0, "coups", 0),
    ("table", "totals", 1),
    ("seats", 1, "memory"),
    ("deal_rng",),
    ("deal_rng", "version"),
    ("deal_rng", "gauss_next"),
    ("seats", 1, "rng", "state", 3),
    ("seats", 1, "memory", "safeties", "Extra Tank"),
    ("seats", 1, "memory", "seen", "Go"),
    ("log",),
    ("log", 1),
    ("log", 0, "seat"),
    ("log", 1, "move"),
    ("log", 1, "card"),
    ("log", 0, "drawn", 0),
    ("log", 0, "notices"),
    ("log", 0, "phase"),
    ("log", 1, "mileage"),
]


def replaced(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    node: Any = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data


def assert_one_safe_line(message: str, limit: int = MESSAGE_LIMIT) -> None:
    assert message and len(message) <= limit, (len(message), message[:300])
    assert message.isprintable(), repr(message[:300])


@pytest.mark.parametrize("path", QUOTED, ids=[".".join(map(str, p)) for p in QUOTED])
def test_a_deeply_nested_value_is_one_line(path: tuple[Any, ...]) -> None:
    """Deeper than the interpreter's recursion limit: still a SaveError."""
    with pytest.raises(SaveError) as caught:
        session_from_dict(replaced(path, deep(5000)))
    assert_one_safe_line(str(caught.value))


@pytest.mark.parametrize("path", QUOTED, ids=[".".join(map(str, p)) for p in QUOTED])
def test_a_deeply_nested_json_value_is_one_line(path: tuple[Any, ...]) -> None:
    """As deep as json.loads accepts, whatever the caller's stack depth."""
    text = json.dumps(replaced(path, "@@deep@@"))
    for levels in range(1000, 930, -1):
        with pytest.raises(SaveError) as caught:
            loads(text.replace('"@@deep@@"', "[" * levels + "0" + "]" * levels))
        assert_one_safe_line(str(caught.value))


@pytest.mark.parametrize("path", QUOTED, ids=[".".join(map(str, p)) for p in QUOTED])
@pytest.mark.parametrize(
    "number", [10**4000, -(10**5000), 10**100000], ids=["4001", "-5001", "100001"]
)
def test_a_huge_number_is_one_short_line(path: tuple[Any, ...], number: int) -> None:
    """Even beyond the int-to-text digit limit (only a dict can hold those)."""
    with pytest.raises(SaveError) as caught:
        session_from_dict(replaced(path, number))
    assert_one_safe_line(str(caught.value))


def test_a_4000_digit_number_is_quoted_short() -> None:
    text = json.dumps(replaced(("table", "to_move"), "@@n@@")).replace('"@@n@@"', "7" * 4000)
    with pytest.raises(SaveError) as caught:
        loads(text)
    message = str(caught.value)
    assert_one_safe_line(message, 100)
    assert message.startswith("table.to_move: 7777") and "..." in message


@pytest.mark.parametrize(
    "key",
    ["k" * 900_000, "bad\x1b[2Jkey", "line\nbreak", "\u202egnp.exe", "x\x00y"],
    ids=["900000 characters", "ESC", "newline", "RTL override", "NUL"],
)
def test_an_unknown_key_is_quoted_short_and_safe(key: str) -> None:
    for where in (
        (),
        ("rules",),
        ("table",),
        ("table", "tableaux", 0),
        ("table", "offer"),
        ("seats", 0),
        ("deal_rng",),
        ("seats", 1, "memory"),
        ("seats", 1, "memory", "seen"),
        ("log", 0),
    ):
        data = copy.deepcopy(BASE)
        node: Any = data
        for part in where:
            node = node[part]
        if node is None:  # no offer: make one with a bad key
            node = data["table"]["offer"] = {"side": 1, "safety": "Go", "hazard": "Go"}
        node[key] = 1
        with pytest.raises(SaveError) as caught:
            loads(json.dumps(data))
        # the computer's own check quotes in full: only the line is capped
        assert_one_safe_line(str(caught.value), MESSAGE_LIMIT if "memory" in where else 100)
        assert "unknown" in str(caught.value)


def test_a_duplicate_long_key_is_quoted_short() -> None:
    text = '{"' + "d" * 100_000 + '": 1, "' + "d" * 100_000 + '": 2}'
    with pytest.raises(SaveError) as caught:
        loads(text)
    assert_one_safe_line(str(caught.value), 100)
    assert str(caught.value).startswith("not a mille save file (duplicate key 'ddd")


@pytest.mark.parametrize(
    "path,value",
    [
        (("table", "phase"), "paused\x1b[2J" + "p" * 1000),
        (("seats", 1, "memory", "safeties", "Extra Tank"), "x" * 10_000),
        (("seats", 1, "memory", "safeties", "Extra Tank"), ["y" * 500] * 50),
        (("format",), {"k" * 500: "v" * 500}),
        (("table", "deck", 0), "Go\x07\x1b]0;title\x07"),
        (("log", 0, "notices"), ["side 1 loses karma\x1b]0;title\x07" + "k" * 1000]),
    ],
    ids=[
        "phase",
        "computer text",
        "computer list",
        "format object",
        "card with bell",
        "notice with escapes",
    ],
)
def test_a_long_or_hostile_value_is_quoted_short_and_safe(
    path: tuple[Any, ...], value: Any
) -> None:
    with pytest.raises(SaveError) as caught:
        loads(json.dumps(replaced(path, value)))
    assert_one_safe_line(str(caught.value), MESSAGE_LIMIT if "memory" in path else 120)


def test_a_save_error_is_always_one_safe_line() -> None:
    error = SaveError("a\nb\x1b[2J" + "c" * 1000)
    assert_one_safe_line(str(error))
    assert str(error).startswith("a\\nb\\x1b[2Jccc")


@pytest.mark.parametrize(
    "value,shown",
    [
        ("Foo", "'Foo'"),
        (13, "13"),
        (25.0, "25.0"),
        (None, "null"),
        (True, "true"),
        ([], "[]"),
        ({}, "{}"),
        (["Go", 1, None], '["Go", 1, null]'),
        ({"a": [1]}, '{"a": [1]}'),
        (float("inf"), "inf"),
        ("x" * 100, "'" + "x" * 56 + "..."),
        (10**70, "1" + "0" * 56 + "..."),
        (-(10**5000), "-1" + "0" * 55 + "..."),
        (deep(5000), "[" * 57 + "..."),
        ("\x1b", "'\\x1b'"),
    ],
    ids=lambda v: type(v).__name__,
)
def test_show(value: Any, shown: str) -> None:
    assert mille.storage.checks.show(value) == shown


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signals")
def test_a_thread_of_mille_leaves_the_exit_signals_to_the_main_thread() -> None:
    """A save holds the exit signals back in the thread that writes; the
    system gives a process's signal to any thread not blocking it, so every
    thread mille starts blocks them (and those it starts inherit that)."""
    from mille.storage import atomic

    masks: list[set[int]] = []

    def child() -> None:
        masks.append(set(signal.pthread_sigmask(signal.SIG_BLOCK, [])))

    def parent() -> None:
        masks.append(set(signal.pthread_sigmask(signal.SIG_BLOCK, [])))
        grandchild = threading.Thread(target=child)
        grandchild.start()
        grandchild.join()

    started = atomic.thread(parent, name="test")
    assert started.daemon and started.name == "test"
    started.start()
    started.join(10)
    exits = {getattr(signal, s) for s in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT")}
    assert len(masks) == 2 and all(exits <= mask for mask in masks)
    assert not exits & set(signal.pthread_sigmask(signal.SIG_BLOCK, []))  # not this thread's


def test_every_thread_mille_starts_is_made_by_atomic_thread() -> None:
    """No ``threading.Thread(...)`` in mille/ but atomic.thread's own, and
    each ``ThreadPoolExecutor`` blocks the exit signals in its threads."""
    import ast

    import mille

    root = Path(mille.__file__).parent
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            called = ast.unparse(node.func)
            if called in ("threading.Thread", "Thread"):
                assert path.name == "atomic.py", f"{path}:{node.lineno}: use atomic.thread"
            if called.endswith("ThreadPoolExecutor"):
                keys = {k.arg for k in node.keywords}
                assert "initializer" in keys, f"{path}:{node.lineno}: no initializer"
