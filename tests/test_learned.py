"""The learned computer: its features hide nothing, its weights file is
checked, it plays legal moves, and the game never imports numpy."""

from __future__ import annotations

import ast
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import mille
from mille.engine.rules import find_rules
from mille.engine.table import OVER, PICK, PLAYING, Table
from mille.engine.view import SeatView
from mille.players.features import FEATURE_NAMES, Decision, family
from mille.players.learned import (
    DATA,
    FORMAT,
    Learned,
    LearnedError,
    Model,
    load_model,
    model_from_dict,
)
from mille.players.registry import kind_of, make_player
from support.hidden import shuffled_hidden

PACKAGE = Path(mille.__file__).parent
ROOT = PACKAGE.parent

PRESETS = [
    ("classic", 2, None),
    ("classic", 3, None),
    ("classic", 4, None),
    ("milebymile", 2, None),
    ("milebymile", 4, "2v2"),
    ("milebymile", 3, None),
    ("bsd", 2, None),
]


def decisions(
    name: str, seats: int, teams: str | None, seed: int, hands: int = 2
) -> Iterator[tuple[Table, int]]:
    """Tables (copies) at the decisions after a pick of heuristic self-play."""
    rules = find_rules(name, players=seats, team_mode=teams)
    rng = random.Random(seed)
    for _ in range(hands):
        table = Table.new(rules, random.Random(rng.getrandbits(32)))
        players = [make_player(rules, "heuristic", s, random.Random(s)) for s in range(seats)]
        views = [SeatView(table, s) for s in range(seats)]
        for p, v in zip(players, views):
            p.start_hand(v)
        while table.phase != OVER:
            seat = table.current_player
            assert seat is not None
            legal = table.legal_moves()
            if table.phase == PLAYING and PICK not in legal and len(legal) > 1:
                yield table.copy(), seat
            phase = table.phase
            outcome = table.apply(players[seat].choose(views[seat]))
            for p, v in zip(players, views):
                seen = v.seen(outcome, phase)
                if seen is not None:
                    p.observe(v, seen)


@pytest.mark.parametrize("name,seats,teams", PRESETS)
def test_features_see_nothing_hidden(name: str, seats: int, teams: str | None) -> None:
    rng = random.Random(7)
    checked = changed = 0
    for table, seat in decisions(name, seats, teams, seed=11):
        before = Decision(SeatView(table, seat), random.Random(1))
        other = shuffled_hidden(table, seat, rng)
        changed += other.deck != table.deck
        after = Decision(SeatView(other, seat), random.Random(1))
        assert after.moves == before.moves
        assert after.features == before.features
        assert after.heuristic_move == before.heuristic_move
        bot, twin = Learned(random.Random(3), seat), Learned(random.Random(3), seat)
        assert bot.choose(SeatView(table, seat)) == twin.choose(SeatView(other, seat))
        checked += 1
    assert checked > 20 and changed > 10  # the hidden cards did move


def test_features_are_named_and_moves_distinct() -> None:
    for table, seat in decisions("milebymile", 2, None, seed=3, hands=1):
        decision = Decision(SeatView(table, seat), random.Random(1))
        assert len(set(decision.keys)) == len(decision.moves)
        for features in decision.features:
            assert set(features) <= set(FEATURE_NAMES)
        assert decision.heuristic_move in table.legal_moves()


def test_features_never_read_whether_another_seat_was_asked() -> None:
    for module in ("features.py", "learned.py"):
        tree = ast.parse((PACKAGE / "players" / module).read_text(encoding="utf-8"))
        read = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
        assert not read & {"offer", "asked", "_table"}, module


def test_family() -> None:
    assert family(find_rules("classic")) == "stack/2"
    assert family(find_rules("classic", players=3)) == "stack/n"
    assert family(find_rules("milebymile", players=4, team_mode="2v2")) == "problems/2"


@pytest.mark.parametrize("name,seats,teams", PRESETS)
def test_learned_plays_whole_hands(name: str, seats: int, teams: str | None) -> None:
    rules = find_rules(name, players=seats, team_mode=teams)
    table = Table.new(rules, random.Random(5))
    players = [make_player(rules, "learned", s, random.Random(s)) for s in range(seats)]
    views = [SeatView(table, s) for s in range(seats)]
    for p, v in zip(players, views):
        p.start_hand(v)
    while table.phase != OVER:
        seat = table.current_player
        assert seat is not None
        move = players[seat].choose(views[seat])
        assert table.check(move) is None
        phase = table.phase
        outcome = table.apply(move)
        for p, v in zip(players, views):
            seen = v.seen(outcome, phase)
            if seen is not None:
                p.observe(v, seen)


def test_learned_is_not_a_saved_kind() -> None:
    bot = make_player(find_rules("classic"), "learned", 0, random.Random(1))
    assert isinstance(bot, Learned)
    with pytest.raises(ValueError, match="^not a computer a save file can name: Learned$"):
        kind_of(bot)


# ----- the weights file --------------------------------------------------------


def test_the_package_weights_load() -> None:
    model = load_model()
    assert model.version == 1
    assert "*" in model.weights
    assert "seed" in model.trained and "decisions" in model.trained
    with open(DATA, encoding="utf-8") as f:
        assert model_from_dict(json.load(f)) == model


def test_a_model_round_trips() -> None:
    model = Model({"*": {"heuristic:choice": 2.0}, "stack/2": {"dist:value": -0.5}}, 1, {"seed": 4})
    assert model_from_dict(json.loads(json.dumps(model.to_dict()))) == model


def good() -> dict[str, object]:
    return Model({"*": {"heuristic:choice": 1.0}}).to_dict()


def spoiled(**changes: object) -> dict[str, object]:
    data = good()
    data.update(changes)
    return data


n = len(FEATURE_NAMES)


@pytest.mark.parametrize(
    "data,message",
    [
        ([], "learned weights: expected an object"),
        (
            {k: v for k, v in good().items() if k != "weights"},
            "learned weights: missing key 'weights'",
        ),
        (spoiled(extra=1), "learned weights: unknown key 'extra'"),
        (spoiled(format="other"), f"learned weights: format must be {FORMAT!r}"),
        (spoiled(version=2), "learned weights: version 2 is not 1"),
        (spoiled(version=True), "learned weights: version True is not 1"),
        (spoiled(features="x"), "learned weights: features must be a list of names"),
        (
            spoiled(features=list(FEATURE_NAMES[1:])),
            "learned weights: feature 'heuristic:choice' missing",
        ),
        (spoiled(features=[*FEATURE_NAMES, "x"]), "learned weights: unknown feature 'x'"),
        (
            spoiled(features=list(reversed(FEATURE_NAMES))),
            "learned weights: features not in this version's order",
        ),
        (
            spoiled(weights={"stack/2": [0.0] * n}),
            "learned weights: weights must be an object with '*'",
        ),
        (spoiled(weights={"*": [0.0] * (n - 1)}), f"learned weights: '*' must list {n} numbers"),
        (
            spoiled(weights={"*": [0.0] * (n - 1) + ["1"]}),
            "learned weights: '*' holds a non-number",
        ),
        (
            spoiled(weights={"*": [0.0] * (n - 1) + [float("nan")]}),
            "learned weights: '*' holds a non-number",
        ),
        (spoiled(trained=[]), "learned weights: trained must be an object"),
    ],
)
def test_a_bad_weights_file_is_one_clear_error(data: object, message: str) -> None:
    with pytest.raises(LearnedError) as caught:
        model_from_dict(data)
    assert str(caught.value) == message


def test_a_weights_file_that_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(LearnedError, match=r"^learned weights: not JSON \("):
        load_model(str(path))
    with pytest.raises(LearnedError) as caught:
        load_model(str(tmp_path / "none.json"))
    assert str(caught.value) == (
        f"learned weights: cannot read {tmp_path / 'none.json'}: No such file or directory"
    )


def test_the_weights_are_package_data() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"mille.players" = ["data/*.json"]' in text
    assert os.path.dirname(DATA) == str(PACKAGE / "players" / "data")


# ----- no numpy at run time ------------------------------------------------------


def test_the_package_never_imports_numpy() -> None:
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            assert not any(n.split(".")[0] == "numpy" for n in names), path


def test_a_learned_game_loads_no_numpy() -> None:
    code = (
        "import sys; from mille.selfplay import main; "
        "main(['--rules', 'classic', '--players', 'learned,standard', '--hands', '2']); "
        "sys.exit(1 if 'numpy' in sys.modules else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("name,seats", [("classic", 3), ("milebymile", 6)])
def test_a_family_without_weights_plays_as_the_heuristic(name: str, seats: int) -> None:
    # the package's weights have no set for three sides or more: there the
    # learned computer makes the heuristic's moves, one for one
    rules = find_rules(name, players=seats)
    assert family(rules) not in load_model().weights
    moves: dict[str, list[str]] = {}
    for kind in ("learned", "heuristic"):
        table = Table.new(rules, random.Random(8))
        players = [make_player(rules, kind, s, random.Random(s)) for s in range(seats)]
        views = [SeatView(table, s) for s in range(seats)]
        for p, v in zip(players, views):
            p.start_hand(v)
        made = moves.setdefault(kind, [])
        while table.phase != OVER:
            seat = table.current_player
            assert seat is not None
            move = players[seat].choose(views[seat])
            made.append(str(move))
            phase = table.phase
            outcome = table.apply(move)
            for p, v in zip(players, views):
                seen = v.seen(outcome, phase)
                if seen is not None:
                    p.observe(v, seen)
    assert len(moves["learned"]) > 50
    assert moves["learned"] == moves["heuristic"]


def test_a_family_with_weights_is_scored() -> None:
    rules = find_rules("milebymile")
    assert family(rules) in load_model().weights
    differ = 0
    for table, seat in decisions("milebymile", 2, None, seed=5, hands=3):
        view = SeatView(table, seat)
        decision = Decision(view, random.Random(2))
        differ += Learned(random.Random(2), seat).choose(view) != decision.heuristic_move
    assert differ > 0  # the model does not merely copy the heuristic
