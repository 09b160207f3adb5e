"""Save files under fuzzing: whatever the file holds, loading either gives a
sound game or refuses with a SaveError, never another exception."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mille.savefile import SaveError, dumps, load_session, loads, session_to_dict
from mille.session import Session

from test_savefile import step


def _saves() -> list[dict[str, Any]]:
    saves = []
    for seed, steps in ((21, 0), (22, 45), (23, 160), (24, 400)):
        session = Session.new(seed)
        driver = random.Random(seed)
        for _ in range(steps):
            step(session, driver)
        saves.append(session_to_dict(session))
    return saves


SAVES = _saves()

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**40, 2**40)
    | st.floats(allow_nan=False) | st.text(max_size=12)
    | st.sampled_from(["Go", "Stop", "25", "200", "Right of Way", "playing", "hand over"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8,
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, prefix + (key,))
    elif isinstance(node, list) and len(node) < 100:  # not every rng word
        for i, value in enumerate(node):
            found += _paths(value, prefix + (i,))
    return found


def _check_loads_soundly(text: str) -> None:
    try:
        session = loads(text)
    except SaveError as e:
        assert str(e) and "\n" not in str(e)
        return
    session.state.validate()
    again = dumps(session)
    assert dumps(loads(again)) == again


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    which=st.integers(0, len(SAVES) - 1),
    pick=st.integers(0, 10**6),
    action=st.sampled_from(["replace", "delete", "add"]),
    value=json_values,
)
def test_a_mutated_save_loads_soundly_or_is_refused(
    which: int, pick: int, action: str, value: Any
) -> None:
    data = copy.deepcopy(SAVES[which])
    paths = _paths(data)[1:]
    path = paths[pick % len(paths)]
    parent: Any = data
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if action == "replace":
        parent[last] = value
    elif action == "delete":
        del parent[last]
    elif isinstance(parent, dict):
        parent[f"x{pick}"] = value
    else:
        parent.insert(last, value)
    _check_loads_soundly(json.dumps(data))


@settings(max_examples=200, deadline=None)
@given(which=st.integers(0, len(SAVES) - 1), a=st.integers(0, 10**6), b=st.integers(0, 10**6))
def test_swapping_two_cards_loads_soundly_or_is_refused(which: int, a: int, b: int) -> None:
    """Every card stays in the game, so only the finer checks can object."""
    data = copy.deepcopy(SAVES[which])
    slots = [
        path for path in _paths(data)
        if len(path) >= 2 and isinstance(path[-1], int) and path[-2] in (
            "hand", "deck", "discard", "battle_pile", "speed_pile", "miles", "safeties")
    ]
    pa, pb = slots[a % len(slots)], slots[b % len(slots)]

    def at(path: tuple[Any, ...]) -> Any:
        node: Any = data
        for key in path[:-1]:
            node = node[key]
        return node

    at(pa)[pa[-1]], at(pb)[pb[-1]] = at(pb)[pb[-1]], at(pa)[pa[-1]]
    _check_loads_soundly(json.dumps(data))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200) | st.sampled_from(["{}", "[]", "null", "1", '"x"', '{"format": 1}']))
def test_any_text_loads_soundly_or_is_refused(text: str) -> None:
    _check_loads_soundly(text)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=300))
def test_any_file_is_refused_and_untouched(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "fuzz"
    path.write_bytes(data)
    try:
        load_session(str(path))
    except SaveError:
        pass
    assert path.read_bytes() == data


@settings(max_examples=50, deadline=None)
@given(which=st.integers(0, len(SAVES) - 1), seed=st.integers(0, 2**32))
def test_any_deck_order_and_hand_order_is_accepted(which: int, seed: int) -> None:
    """The checks are not stricter than the game: a reshuffled deck, or the
    deck traded with the cards in hand, is still a possible game."""
    data = copy.deepcopy(SAVES[which])
    rng = random.Random(seed)
    rng.shuffle(data["deck"])
    loads(json.dumps(data))
    hand = data["players"][1]["hand"]
    cards = [i for i, c in enumerate(hand) if c is not None]
    if data["deck"] and cards:
        i = rng.choice(cards)
        hand[i], data["deck"][0] = data["deck"][0], hand[i]
        loads(json.dumps(data))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 400), more=st.integers(1, 200))
def test_a_restored_game_goes_on_as_the_original(seed: int, steps: int, more: int) -> None:
    session = Session.new(seed)
    driver = random.Random(seed)
    for _ in range(steps):
        step(session, driver)
    text = dumps(session)
    restored = loads(text)
    assert dumps(restored) == text
    twin = random.Random()
    twin.setstate(driver.getstate())
    for _ in range(more):
        step(session, driver)
        step(restored, twin)
    assert dumps(restored) == dumps(session)
