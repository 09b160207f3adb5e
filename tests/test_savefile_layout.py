"""The save file's text is the same, byte for byte, as the formatter it
replaced wrote it (``dumps`` of a06488d, kept here as ``reference_format``):
for games of every preset and seat count, mid-hand and at a hand's end,
experts' memories, chat lines and names that need escapes, and for any
JSON-like value (hypothesis), errors included."""

from __future__ import annotations

import enum
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_savefile import step

from mille.engine.rules import BSD, TEAM_MODES, Rules, find_rules
from mille.engine.table import OVER
from mille.game.session import Session
from mille.players import beliefs
from mille.players.expert import Budget, Expert
from mille.storage import current, savefile
from mille.storage.savefile import SaveError, dumps, loads, session_to_dict

# ----- the code of a06488d, as it was ----------------------------------------------


def reference_format(value: Any, indent: str) -> str:
    """JSON text: objects one key a line, arrays of plain values on one line."""
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = indent + "  "
        items = [
            f"{inner}{json.dumps(str(k))}: {reference_format(v, inner)}" for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list):
        if any(isinstance(v, (dict, list)) for v in value):
            inner = indent + "  "
            items = [inner + reference_format(v, inner) for v in value]
            return "[\n" + ",\n".join(items) + "\n" + indent + "]"
    if value is None or isinstance(value, (bool, int, float, str, list)):
        try:
            return json.dumps(value, allow_nan=False)
        except ValueError:
            raise SaveError("cannot save a number that is not finite") from None
    raise SaveError(f"cannot save a value of type {type(value).__name__}")


def reference_canonical(value: Any) -> Any:
    """``value`` with every object's keys sorted (for a deterministic file)."""
    if isinstance(value, dict):
        return {str(k): reference_canonical(value[k]) for k in sorted(value, key=str)}
    if isinstance(value, (list, tuple)):
        return [reference_canonical(v) for v in value]
    return value


def reference_dumps(session: Session) -> str:
    """``dumps`` as a06488d wrote it (its formatter, and its copy of a
    computer's memory with the keys sorted)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(current, "_canonical", reference_canonical)
        return reference_format(session_to_dict(session), "") + "\n"


# ----- games --------------------------------------------------------------------

# The experts play legal moves fast, their memories as a save holds them
# (but fewer guesses): what their moves are does not matter here.
QUICK = Budget(moves=1, worlds=2, extra=0, seconds=None)
GUESSES = 24  # beliefs.PARTICLES, shared out between the other seats
SAID = (
    'he said "go" \\ back',
    "Zoë, ça va ? « oui »",
    "中文 и русский",
    "😀 🚗💨 200 km",
    "שלום עולם",
    "e\u0301 combining, \u00a0no-break",
    "𝔸𝔹 astral ☃ </script> /",
)
NAMES = ('Zoë "Z"', "back\\slash", "李小龙", "😀 Smile", "O'Brien", "Ångström")


def milebymile_tables() -> list[Rules]:
    """Every seat count of milebymile, its team modes and options in turn."""
    found = []
    for players in range(2, 10):
        modes = TEAM_MODES[players]
        mode = modes[players % len(modes)]
        sides = players if mode == "individual" else players // int(mode.split("v")[0])
        found.append(
            find_rules(
                "milebymile",
                players=players,
                team_mode=mode,
                karma=sides >= 3 and players % 2 == 1,
                reshuffle=players % 3 != 0,
                stacking=players % 2 == 0,
                perfect_crossing=players != 5,
                always_discard=players != 6,
                rigging=("none", "2x attacks", "2x defenses", "no duplicates")[players % 4],
                distance=(1000, 700, 300)[players % 3],
                winning_score=(5000, 1000)[players % 2],
            )
        )
    return found


# (rules, the people's seats, the computers' level)
TABLES: list[tuple[Rules, tuple[int, ...], str]] = [
    (BSD, (0,), "standard"),
    (BSD, (0,), "expert"),
    (BSD, (), "easy"),
    (BSD, (0, 1), "standard"),
    (find_rules("classic", players=2), (1,), "standard"),
    (find_rules("classic", players=3), (0,), "easy"),
    (find_rules("classic", players=4), (0,), "expert"),
    (find_rules("classic", players=6), (0, 3), "standard"),
    *[
        (rules, (0,), "expert" if rules.players in (3, 9) else "standard")
        for rules in milebymile_tables()
    ],
]


def table_id(table: tuple[Rules, tuple[int, ...], str]) -> str:
    rules, humans, level = table
    return f"{rules.name}-{rules.players}-{rules.team_mode}-{level}-people{len(humans)}"


def new_game(rules: Rules, humans: tuple[int, ...], level: str, seed: int) -> Session:
    """A game whose people have names that need escapes; its experts
    search little (a budget is not saved)."""
    names = {seat: NAMES[(seed + seat) % len(NAMES)] for seat in humans}
    session = Session.new(rules, seed=seed, humans=humans, level=level, names=names)
    for computer in session.computers.values():
        if isinstance(computer, Expert):
            computer.budget = QUICK
    return session


def assert_same(session: Session, reload: bool) -> None:
    text = dumps(session)
    assert text == reference_dumps(session)
    if reload:
        assert dumps(loads(text)) == text


# the quick suite plays seed 1, -m slow seed 2 too
SEEDS = [1, pytest.param(2, marks=pytest.mark.slow)]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_every_preset_saves_as_before(
    table: tuple[Rules, tuple[int, ...], str], seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through two whole hands (every 7th step, each end of a hand, and into
    the next hand), chat said along the way: the same bytes, and the text
    loads back to itself."""
    rules, humans, level = table
    monkeypatch.setattr(beliefs, "PARTICLES", GUESSES)
    session = new_game(rules, humans, level, seed)
    driver = random.Random(seed)
    assert_same(session, reload=True)
    # experts watch slowly: the quick suite sees their memories through
    # bsd's hands and 60 steps of the others', -m slow through all of them
    short = level == "expert" and rules.players > 2 and seed == 1
    hands = steps = 0
    while hands < 2 and steps < (60 if short else 3000):
        if driver.random() < 0.05:
            session.say(driver.randrange(rules.players), driver.choice(SAID))
        kind = step(session, driver)
        steps += 1
        if session.table.phase == OVER:
            assert_same(session, reload=True)
        elif kind == "new hand":
            hands += 1
            assert_same(session, reload=hands == 1)
        elif steps % 7 == 0:
            assert_same(session, reload=steps % 49 == 0)
    assert short or hands == 2, f"{steps} steps did not play two hands"


# ----- any value ----------------------------------------------------------------


class Level(enum.IntEnum):
    """An int of another type (json writes it as its number)."""

    LOW = 1
    HIGH = 10**20


class Word(str):
    """A str of another type."""


class Table(dict[Any, Any]):
    """A dict of another type."""


class Row(list[Any]):
    """A list of another type."""


SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(4298, 4301).map(lambda n: 10**n),  # 4301 digits: more than Python writes
    st.floats(),  # NaN and the infinities too
    st.text(st.characters(blacklist_categories=())),  # lone surrogates too
    st.sampled_from(list(Level)),
    st.builds(Word, st.text(max_size=5)),
    st.just(()),
    st.just(object()),
)
KEYS = st.one_of(
    st.text(st.characters(blacklist_categories=()), max_size=8),
    st.integers(),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=False),
    st.builds(Word, st.text(max_size=3)),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6),
        st.dictionaries(KEYS, inner, max_size=6),
        st.builds(Row, st.lists(inner, max_size=3)),
        st.builds(Table, st.dictionaries(KEYS, inner, max_size=3)),
        st.tuples(inner, inner),
    ),
    max_leaves=40,
)


def outcome(formatter: Callable[[Any, str], str], value: Any) -> tuple[Any, ...]:
    """What the formatter makes of ``value``: its text, or its error."""
    try:
        return ("text", formatter(value, ""))
    except Exception as e:  # compared: the same error, the same words
        return ("error", type(e), str(e))


@given(VALUES)
@settings(max_examples=400, deadline=None)
@example({"a": [1, "\u00e9", None, True, 2.5], "b": {}, "c": [[]], "d": [{}], "": []})
@example({1: {True: {None: [[1, [2]], (3,)]}}})
@example([float("nan")])
@example({"x": float("inf")})
@example({10**5000: 1})
def test_any_value_is_written_as_before(value: Any) -> None:
    assert outcome(savefile._format, value) == outcome(reference_format, value)
    assert outcome(sorted_copy(current._canonical), value) == outcome(
        sorted_copy(reference_canonical), value
    )


def sorted_copy(canonical: Callable[[Any], Any]) -> Callable[[Any, str], str]:
    """The text of what ``canonical`` makes of a value, with the types
    of its items (a computer's memory sorted, as ``dumps`` writes it)."""

    def text(value: Any, _: str) -> str:
        made = canonical(value)
        return reference_format(made, "") + repr(tree_types(made))

    return text


def tree_types(value: Any) -> Any:
    if isinstance(value, dict):
        return [(type(k), tree_types(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [list, [tree_types(v) for v in value]]
    return type(value)
