"""Save files: round trips, exact continuation, a corpus of bad files, atomic writes."""

from __future__ import annotations

import ast
import copy
import doctest
import errno
import functools
import json
import os
import random
import signal
import stat
from pathlib import Path
from typing import Any, Callable

import pytest

import mille.computer
import mille.savefile
from mille.engine import HUMAN, Phase, Use
from mille.savefile import (
    FORMAT,
    VERSION,
    SaveError,
    dumps,
    load_session,
    loads,
    save_session,
    session_from_dict,
    session_to_dict,
)
from mille.session import Session

IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


# ----- driving a game -----------------------------------------------------


def step(session: Session, driver: random.Random) -> str:
    """Advance the game by one action; returns what kind of action it was.

    The human side plays random legal moves (uses preferred, so hands get
    somewhere), the computer side plays itself, extensions are answered at
    random and a finished hand is followed by the next one.
    """
    state = session.state
    if state.phase is Phase.HAND_OVER:
        session.next_hand()
        return "new hand"
    if state.phase is Phase.EXTENSION:
        assert state.extender == HUMAN
        state.decide_extension(driver.random() < 0.5)
        return "extension"
    if session.computer_to_move:
        session.computer_move()
        return "computer"
    moves = state.legal_moves()
    assert moves, "the human has no legal move"
    uses = [m for m in moves if isinstance(m, Use)]
    session.play(driver.choice(uses if uses and driver.random() < 0.7 else moves))
    return "human"


def clone_rng(rng: random.Random) -> random.Random:
    twin = random.Random()
    twin.setstate(rng.getstate())
    return twin


def play_steps(seed: int, steps: int) -> Session:
    session = Session.new(seed)
    driver = random.Random(seed)
    for _ in range(steps):
        step(session, driver)
    return session


def record_game(seed: int, hands: int) -> tuple[list[str], list[random.Random], list[str]]:
    """Play ``hands`` hands: the save text, driver and action kind at every step."""
    session = Session.new(seed)
    driver = random.Random(seed ^ 0x5EED)
    texts, drivers, kinds = [], [], []
    done = 0
    while done < hands:
        texts.append(dumps(session))
        drivers.append(clone_rng(driver))
        kind = step(session, driver)
        kinds.append(kind)
        if kind == "new hand":
            done += 1
    texts.append(dumps(session))
    drivers.append(clone_rng(driver))
    return texts, drivers, kinds


SEEDS = (1, 2, 3)
# the heavy checks run one seed in the quick suite, all three with -m slow
HEAVY_SEEDS = (1, *(pytest.param(seed, marks=pytest.mark.slow) for seed in SEEDS[1:]))


@functools.cache
def recorded(seed: int) -> tuple[list[str], list[random.Random], list[str]]:
    return record_game(seed, hands=4)


def test_doctests() -> None:
    result = doctest.testmod(mille.savefile)
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize("seed", HEAVY_SEEDS)
def test_round_trip_is_byte_identical_at_every_step(seed: int) -> None:
    texts, _, _ = recorded(seed)
    for text in texts:
        restored = loads(text)
        assert dumps(restored) == text
        assert session_to_dict(restored) == json.loads(text)
        assert session_from_dict(json.loads(text)).state == restored.state


@pytest.mark.parametrize("seed", HEAVY_SEEDS)
def test_restored_game_plays_on_exactly_as_the_original(seed: int) -> None:
    """From every step, 25 steps on; from a few steps, to the end of the record."""
    texts, drivers, _ = recorded(seed)
    dicts = [json.loads(text) for text in texts]
    last = len(texts) - 1
    far = {0, last // 3, last // 2, last - 40}
    for i in range(last):
        horizon = last if i in far else min(last, i + 25)
        restored = loads(texts[i])
        driver = clone_rng(drivers[i])
        for j in range(i + 1, horizon + 1):
            step(restored, driver)
            assert session_to_dict(restored) == dicts[j], f"step {j} differs after loading step {i}"
        assert dumps(restored) == texts[horizon]


def test_the_games_cover_every_phase() -> None:
    """The round-trip games reach extensions, hand ends and an empty deck."""
    seen: set[str] = set()
    for texts, _, kinds in map(recorded, SEEDS):
        seen.update(kinds)
        for text in texts:
            data = json.loads(text)
            seen.add("phase " + data["phase"])
            if not data["deck"]:
                seen.add("deck empty")
            if data["end"] == 1000:
                seen.add("extended")
    assert {"human", "computer", "new hand", "phase hand over", "deck empty"} <= seen


def test_an_extension_decision_round_trips() -> None:
    for seed in range(200):
        session = Session.new(seed)
        driver = random.Random(seed)
        for _ in range(2000):
            if session.state.phase is Phase.EXTENSION:
                text = dumps(session)
                restored = loads(text)
                assert restored.state.phase is Phase.EXTENSION
                assert restored.state.extender == HUMAN
                assert dumps(restored) == text
                return
            step(session, driver)
    pytest.skip("no extension reached")  # pragma: no cover


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
    session.state.set_ordering(True)
    restored = loads(dumps(session))
    assert restored.window_full is True and restored.state.ordering is True


def test_the_file_says_what_it_is() -> None:
    data = json.loads(dumps(play_steps(6, 20)))
    assert list(data)[:2] == ["format", "version"]
    assert data["format"] == FORMAT == "bsd-mille-save" and data["version"] == VERSION == 1
    assert data["rng"]["deal"]["version"] == 3 and len(data["rng"]["deal"]["state"]) == 625


# ----- the corpus of bad files ------------------------------------------------


def base_save() -> dict[str, Any]:
    """A save some way into a hand: cards discarded, your miles on the table,
    a safety still unplayed, nobody near 700, you to move."""
    safeties = {"Extra Tank", "Puncture Proof", "Driving Ace", "Right of Way"}
    for seed in range(11, 100):
        session = Session.new(seed)
        driver = random.Random(seed)
        for n in range(300):
            data = session_to_dict(session)
            unplayed = set(data["deck"]) | set(data["players"][0]["hand"]) | set(data["players"][1]["hand"])
            if (
                n >= 40 and data["discard"] and data["players"][0]["miles"]
                and data["phase"] == "playing" and data["to_move"] == HUMAN
                and max(p["mileage"] for p in data["players"]) < 700
                and any(data["players"][0]["hand"]) and unplayed & safeties
            ):
                return data
            step(session, driver)
    raise AssertionError("no seed gives a base save")  # pragma: no cover


BASE = base_save()


def mutated(change: Callable[[dict[str, Any]], Any]) -> bytes:
    data = copy.deepcopy(BASE)
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


def safety_into_discard(data: dict[str, Any]) -> None:
    """Put a safety still in the deck or a hand on top of the discard pile."""
    safeties = ("Extra Tank", "Puncture Proof", "Driving Ace", "Right of Way")
    for where in (data["deck"], data["players"][0]["hand"], data["players"][1]["hand"]):
        for i, card in enumerate(where):
            if card in safeties:
                where[i], data["discard"][-1] = data["discard"][-1], card
                return
    raise AssertionError("no safety to move")  # pragma: no cover


def discarded_safety() -> str:
    data = copy.deepcopy(BASE)
    safety_into_discard(data)
    return f"discard: a safety cannot be discarded ({data['discard'][-1]!r})"


def first_hand_card(data: dict[str, Any]) -> int:
    return next(i for i, c in enumerate(data["players"][0]["hand"]) if c is not None)


def rename_hand_card(name: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data["players"][0]["hand"][first_hand_card(data)] = name
    return change


def extra_card(data: dict[str, Any]) -> None:
    data["deck"].append("Go")


def lost_card(data: dict[str, Any]) -> None:
    data["deck"].pop()


def traded_card(data: dict[str, Any]) -> None:
    data["deck"][data["deck"].index("Stop")] = "Go"


def wrong_mileage(data: dict[str, Any]) -> None:
    data["players"][0]["mileage"] += 25


def bad_json_text() -> bytes:
    text = json.dumps(BASE)
    return text[: len(text) // 2].encode()


def dup_key_text() -> bytes:
    text = json.dumps(BASE)
    return text.replace('"end": ', '"end": 700, "end": ', 1).encode()


def nan_text() -> bytes:
    data = copy.deepcopy(BASE)
    data["rng"]["deal"]["gauss_next"] = 0.5
    return json.dumps(data).replace("0.5", "NaN").encode()


def non_utf8() -> bytes:
    return json.dumps(BASE).encode().replace(b'"Go"', b'"G\xf6"', 1)


def huge() -> bytes:
    text = json.dumps(BASE)
    return (text[:-1] + ', "pad": "' + "x" * (1 << 20) + '"}').encode()


PLAYER0 = ("players", 0)
CORPUS: list[tuple[str, Callable[[], bytes], str]] = [
    ("empty", lambda: b"", "not a mille save file (empty)"),
    ("blank", lambda: b"  \n\n", "not a mille save file (empty)"),
    ("over 1 MiB", huge, "not a mille save file (over 1 MiB)"),
    ("not UTF-8", non_utf8, "not a mille save file (not UTF-8 text at byte "),
    ("truncated", bad_json_text, "not a mille save file (bad JSON at line 1 column "),
    ("plain text", lambda: b"hello, world\n", "not a mille save file (bad JSON at line 1 column 1: expecting value)"),
    ("a BSD memory dump", lambda: bytes(range(256)) * 4, "not a mille save file (not UTF-8 text at byte 128)"),
    ("JSON array", lambda: b"[1, 2, 3]", "not a mille save file (not a JSON object)"),
    ("duplicate key", dup_key_text, "not a mille save file (duplicate key 'end')"),
    ("NaN", nan_text, "not a mille save file (NaN is not JSON)"),
    ("no format name", lambda: mutated(delitem("format")), "not a mille save file (no format name)"),
    ("wrong format name", lambda: mutated(setitem("format", "bsd-rogue-save")), "format: not a mille save file ('bsd-rogue-save')"),
    ("newer version", lambda: mutated(setitem("version", 2)), "version: unsupported save version 2 (this mille reads version 1)"),
    ("version as text", lambda: mutated(setitem("version", "1")), "version: unsupported save version '1' (this mille reads version 1)"),
    ("version as bool", lambda: mutated(setitem("version", True)), "version: unsupported save version true (this mille reads version 1)"),
    ("missing key", lambda: mutated(delitem(*PLAYER0, "hand")), "players[0]: missing key 'hand'"),
    ("missing top key", lambda: mutated(delitem("deck")), "missing key 'deck'"),
    ("extra key", lambda: mutated(setitem("cheat", True)), "unknown key 'cheat'"),
    ("extra player key", lambda: mutated(setitem(*PLAYER0, "nummiles", [0, 0, 0, 0, 0])), "players[0]: unknown key 'nummiles'"),
    ("three players", lambda: mutated(lambda d: d["players"].append(d["players"][0])), "players: expected 2 entries, got 3"),
    ("unknown card", lambda: mutated(rename_hand_card("Foo")), "players[0].hand[{slot}]: unknown card 'Foo'"),
    ("card name in the wrong case", lambda: mutated(rename_hand_card("go")), "players[0].hand[{slot}]: unknown card 'go'"),
    ("card as a number", lambda: mutated(rename_hand_card(13)), "players[0].hand[{slot}]: expected a card name or null, got 13"),
    ("empty deck slot", lambda: mutated(setitem("deck", 0, None)), "deck[0]: expected a card name, got null"),
    ("hand of six", lambda: mutated(lambda d: d["players"][0]["hand"].pop()), "players[0].hand: expected 7 entries, got 6"),
    ("an extra card", lambda: mutated(extra_card), "impossible game: cards are not the 101-card deck"),
    ("a lost card", lambda: mutated(lost_card), "impossible game: cards are not the 101-card deck"),
    ("a Stop made a Go", lambda: mutated(traded_card), "impossible game: cards are not the 101-card deck"),
    ("mileage off the pile", lambda: mutated(wrong_mileage), "impossible game: player 0: mileage does not match the mileage pile"),
    ("mileage as a float", lambda: mutated(setitem(*PLAYER0, "mileage", 25.0)), "players[0].mileage: expected an integer, got 25.0"),
    ("distance among safeties", lambda: mutated(setitem(*PLAYER0, "miles", ["Go"])), "players[0].miles[0]: 'Go' is not a distance card"),
    ("end 800", lambda: mutated(setitem("end", 800)), "end: must be 700 or 1000, not 800"),
    ("end true", lambda: mutated(setitem("end", True)), "end: must be 700 or 1000, not true"),
    ("to_move 2", lambda: mutated(setitem("to_move", 2)), "to_move: 2 is out of range 0..1"),
    ("to_move false", lambda: mutated(setitem("to_move", False)), "to_move: expected an integer, got false"),
    ("unknown phase", lambda: mutated(setitem("phase", "paused")), "phase: unknown phase 'paused'"),
    ("extender while playing", lambda: mutated(setitem("extender", 0)), "extender: must be null outside the extension phase, not 0"),
    ("an extension nobody earned", lambda: mutated(lambda d: d.update(phase="extension", extender=0)), "impossible game: an extension decision for a player not at 700"),
    ("the computer's extension pending", lambda: mutated(lambda d: d.update(phase="extension", extender=1)), "extender: the computer never leaves Extension? pending"),
    ("ordering 1", lambda: mutated(setitem("ordering", 1)), "ordering: expected true or false, got 1"),
    ("can_go lies", lambda: mutated(lambda d: d["players"][0].update(can_go=not d["players"][0]["can_go"])), "players[0].can_go: "),
    ("three coups", lambda: mutated(lambda d: d["players"][0]["coups"].pop()), "players[0].coups: expected 4 entries, got 3"),
    ("banked total 5000", lambda: mutated(setitem(*PLAYER0, "total_before_hand", 5000)), "players[0].total_before_hand: 5000 is out of range 0..4999"),
    ("negative games", lambda: mutated(setitem(*PLAYER0, "games", -1)), "players[0].games: -1 is out of range 0..1000000000"),
    ("a discarded safety", lambda: mutated(safety_into_discard), discarded_safety()),
    ("1000 without 700", lambda: mutated(setitem("end", 1000)), "end: 1000, but nobody reached 700"),
    ("computer not an object", lambda: mutated(setitem("computer", [])), "computer: expected an object, got []"),
    ("computer memory off", lambda: mutated(setitem("computer", "gos", -1)), "computer: gos must be 0 to "),
    ("computer memory extra key", lambda: mutated(setitem("computer", "hand", [])), "computer: unknown key 'hand'"),
    ("computer on the wrong side", lambda: mutated(setitem("computer", "player", 0)), "computer.player: must be 1 (the computer's side)"),
    ("rng missing", lambda: mutated(delitem("rng", "deal")), "rng: missing key 'deal'"),
    ("rng version 2", lambda: mutated(setitem("rng", "deal", "version", 2)), "rng.deal.version: unsupported generator version 2"),
    ("rng too short", lambda: mutated(lambda d: d["rng"]["deal"]["state"].pop()), "rng.deal.state: expected 625 entries, got 624"),
    ("rng word too big", lambda: mutated(setitem("rng", "computer", "state", 7, 2**32)), "rng.computer.state[7]: 4294967296 is out of range 0..4294967295"),
    ("rng word negative", lambda: mutated(setitem("rng", "deal", "state", 0, -1)), "rng.deal.state[0]: -1 is out of range 0..4294967295"),
    ("rng position 0", lambda: mutated(setitem("rng", "deal", "state", 624, 0)), "rng.deal.state[624]: 0 is out of range 1..624"),
    ("rng position 625", lambda: mutated(setitem("rng", "deal", "state", 624, 625)), "rng.deal.state[624]: 625 is out of range 1..624"),
    ("rng all zero", lambda: mutated(lambda d: d["rng"]["deal"].update(state=[0] * 624 + [624])), "rng.deal.state: all zero: not a generator state"),
    ("rng gauss as text", lambda: mutated(setitem("rng", "deal", "gauss_next", "0.5")), "rng.deal.gauss_next: expected a number or null, got '0.5'"),
]


def write_aged(path: Path, data: bytes) -> tuple[bytes, int]:
    path.write_bytes(data)
    os.utime(path, ns=(1_000_000_000_000_000_000, 1_000_000_000_000_000_000))
    return data, path.stat().st_mtime_ns


@pytest.mark.parametrize("name,make,message", CORPUS, ids=[c[0] for c in CORPUS])
def test_bad_file_is_refused_and_left_alone(
    tmp_path: Path, name: str, make: Callable[[], bytes], message: str
) -> None:
    message = message.format(slot=first_hand_card(BASE))
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
    assert len(CORPUS) >= 20


def test_the_unmutated_base_loads() -> None:
    """The corpus's refusals come from the mutations, not from the base."""
    assert session_to_dict(session_from_dict(copy.deepcopy(BASE))) == BASE


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
    def refuse(data: dict[str, Any], rng: random.Random) -> Any:
        raise ValueError("bad memory: seen[3] is -1")

    monkeypatch.setattr(mille.computer.BsdComputer, "from_dict", staticmethod(refuse))
    with pytest.raises(SaveError, match=r"^computer: bad memory: seen\[3\] is -1$"):
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


@pytest.mark.parametrize("error", [OSError(errno.ENOSPC, "No space left on device"), KeyboardInterrupt()])
def test_a_write_failing_midway_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: BaseException
) -> None:
    path = tmp_path / "game"
    save_session(play_steps(3, 10), str(path))
    before = path.read_bytes()
    real_fdopen = os.fdopen
    monkeypatch.setattr(os, "fdopen", lambda fd, mode: ShortDisk(real_fdopen(fd, mode), 1000, error))
    with pytest.raises(type(error)):
        save_session(play_steps(3, 30), str(path))
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["game"]
    load_session(str(path))


def test_a_failed_first_save_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
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
    "name", ["\u20ac" * 84, "\U0001f697" * 63 + "abc", "x" * 255, os.fsdecode(b"\xe9" * 255)],
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
        os.kill(os.getpid(), signum)  # the handler runs at the first chance it gets
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
    session.state.players[0].mileage = 25  # corrupted in memory
    with pytest.raises(OSError) as caught:
        save_session(session, str(tmp_path / "game"))
    assert caught.value.errno == errno.EINVAL
    assert caught.value.strerror is not None
    assert caught.value.strerror.startswith("cannot save: impossible game: player 0: mileage")
    assert os.listdir(tmp_path) == []


def test_never_pickle_marshal_eval_or_exec() -> None:
    tree = ast.parse(Path(mille.savefile.__file__).read_text())
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in (node.names if isinstance(node, ast.Import) else [ast.alias(node.module or "")])
    }
    assert not imported & {"pickle", "marshal", "shelve", "dill", "ast", "builtins"}
    called = {
        node.func.id for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }
    assert not called & {"eval", "exec", "compile", "__import__"}


# ----- hostile values: always one short line, never another exception -------


MESSAGE_LIMIT = mille.savefile.MESSAGE_LIMIT  # a SaveError's text; quoted values about 60


def deep(levels: int) -> Any:
    """``[[...[0]...]]``, ``levels`` deep, built without recursion."""
    value: Any = 0
    for _ in range(levels):
        value = [value]
    return value


# every place whose bad value the loader quotes in its message
QUOTED: list[tuple[Any, ...]] = [
    ("format",), ("version",), ("end",), ("phase",), ("extender",), ("to_move",),
    ("ordering",), ("deck", 0), ("players", 0, "hand", 1), ("players", 0, "mileage"),
    ("players", 0, "coups", 0), ("computer",), ("rng",), ("rng", "deal"),
    ("rng", "deal", "version"), ("rng", "deal", "gauss_next"), ("rng", "computer", "state", 3),
    ("computer", "safeties", "Extra Tank"), ("computer", "seen", "Go"), ("players",),
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
@pytest.mark.parametrize("number", [10**4000, -(10**5000), 10**100000], ids=["4001", "-5001", "100001"])
def test_a_huge_number_is_one_short_line(path: tuple[Any, ...], number: int) -> None:
    """Even beyond the int-to-text digit limit (only a dict can hold those)."""
    with pytest.raises(SaveError) as caught:
        session_from_dict(replaced(path, number))
    assert_one_safe_line(str(caught.value))


def test_a_4000_digit_number_is_quoted_short() -> None:
    text = json.dumps(replaced(("to_move",), "@@n@@")).replace('"@@n@@"', "7" * 4000)
    with pytest.raises(SaveError) as caught:
        loads(text)
    message = str(caught.value)
    assert_one_safe_line(message, 100)
    assert message.startswith("to_move: 7777") and "..." in message


@pytest.mark.parametrize(
    "key", ["k" * 900_000, "bad\x1b[2Jkey", "line\nbreak", "\u202egnp.exe", "x\x00y"],
    ids=["900000 characters", "ESC", "newline", "RTL override", "NUL"],
)
def test_an_unknown_key_is_quoted_short_and_safe(key: str) -> None:
    for where in ((), ("players", 0), ("rng", "deal"), ("computer",), ("computer", "seen")):
        data = copy.deepcopy(BASE)
        node: Any = data
        for part in where:
            node = node[part]
        node[key] = 1
        with pytest.raises(SaveError) as caught:
            loads(json.dumps(data))
        # the computer's own check quotes in full: only the line is capped
        assert_one_safe_line(str(caught.value), MESSAGE_LIMIT if "computer" in where else 100)
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
        (("phase",), "paused\x1b[2J" + "p" * 1000),
        (("computer", "safeties", "Extra Tank"), "x" * 10_000),
        (("computer", "safeties", "Extra Tank"), ["y" * 500] * 50),
        (("format",), {"k" * 500: "v" * 500}),
        (("deck", 0), "Go\x07\x1b]0;title\x07"),
    ],
    ids=["phase", "computer text", "computer list", "format object", "card with bell"],
)
def test_a_long_or_hostile_value_is_quoted_short_and_safe(path: tuple[Any, ...], value: Any) -> None:
    with pytest.raises(SaveError) as caught:
        loads(json.dumps(replaced(path, value)))
    assert_one_safe_line(str(caught.value), MESSAGE_LIMIT if "computer" in path else 120)


def test_a_save_error_is_always_one_safe_line() -> None:
    error = SaveError("a\nb\x1b[2J" + "c" * 1000)
    assert_one_safe_line(str(error))
    assert str(error).startswith("a\\nb\\x1b[2Jccc")


@pytest.mark.parametrize(
    "value,shown",
    [
        ("Foo", "'Foo'"), (13, "13"), (25.0, "25.0"), (None, "null"), (True, "true"),
        ([], "[]"), ({}, "{}"), (["Go", 1, None], '["Go", 1, null]'), ({"a": [1]}, '{"a": [1]}'),
        (float("inf"), "inf"), ("x" * 100, "'" + "x" * 56 + "..."),
        (10**70, "1" + "0" * 56 + "..."), (-(10**5000), "-1" + "0" * 55 + "..."),
        (deep(5000), "[" * 57 + "..."), ("\x1b", "'\\x1b'"),
    ],
    ids=lambda v: type(v).__name__,
)
def test_show(value: Any, shown: str) -> None:
    assert mille.savefile._show(value) == shown
