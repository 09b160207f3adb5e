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
from test_savefile import step

from mille.engine.rules import BSD, Rules, find_rules
from mille.game.session import Session
from mille.storage.savefile import SaveError, dumps, load_session, loads, session_to_dict

PRESETS: list[tuple[Rules, tuple[int, ...]]] = [
    (BSD, (0,)),
    (find_rules("classic", players=4), (0,)),
    (find_rules("classic", players=3), (0, 1)),
    (find_rules("milebymile", players=3, karma=True), (0,)),
    (find_rules("milebymile", players=4, team_mode="2v2", stacking=True), (0, 2)),
]


def _saves() -> list[dict[str, Any]]:
    saves = []
    for n, (rules, humans) in enumerate(PRESETS):
        for seed, steps in ((21, 0), (22, 45), (23, 160), (24, 400)):
            session = Session.new(rules, seed=seed + n, humans=humans)
            driver = random.Random(seed)
            for _ in range(steps):
                step(session, driver)
            saves.append(session_to_dict(session))
    return saves


SAVES = _saves()

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.sampled_from(
        [
            "Go",
            "Stop",
            "25",
            "200",
            "Right of Way",
            "False Virtue",
            "playing",
            "hand over",
            "coup",
            "extension",
            "human",
            "computer",
            "bsd",
            "classic",
            "milebymile",
            "2v2",
        ]
    ),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
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
    session.table.validate(strict=True)
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


CARD_PLACES = (
    "deck",
    "discard",
    "set_aside",
    "battle",
    "speed",
    "miles",
    "safeties",
    "record",
    "problems",
    "saved",
)


@settings(max_examples=200, deadline=None)
@given(which=st.integers(0, len(SAVES) - 1), a=st.integers(0, 10**6), b=st.integers(0, 10**6))
def test_swapping_two_cards_loads_soundly_or_is_refused(which: int, a: int, b: int) -> None:
    """Every card stays in the game, so only the finer checks can object."""
    data = copy.deepcopy(SAVES[which])
    slots = [
        path
        for path in _paths(data["table"], ("table",))
        if isinstance(path[-1], int)
        and (path[-2] in CARD_PLACES or (len(path) > 2 and path[-3] == "hands"))
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


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
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
    deck traded with the cards in a hand, is still a possible game."""
    data = copy.deepcopy(SAVES[which])
    table = data["table"]
    rng = random.Random(seed)
    rng.shuffle(table["deck"])
    loads(json.dumps(data))
    hand = table["hands"][rng.randrange(len(table["hands"]))]
    cards = [i for i, c in enumerate(hand) if c is not None]
    if table["deck"] and cards and table["phase"] != "coup":  # (the offered safety stays)
        i = rng.choice(cards)
        hand[i], table["deck"][0] = table["deck"][0], hand[i]
        loads(json.dumps(data))


@settings(max_examples=25, deadline=None)
@given(
    which=st.integers(0, len(PRESETS) - 1),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 400),
    more=st.integers(1, 200),
)
def test_a_restored_game_goes_on_as_the_original(
    which: int, seed: int, steps: int, more: int
) -> None:
    rules, humans = PRESETS[which]
    session = Session.new(rules, seed=seed, humans=humans)
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
