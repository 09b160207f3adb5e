"""Rules as data: the presets, their decks, seats, sides and option checks
(spec variants.md sections 1.1, 2.1, 2.2, 3.1, 3.4 and scenarios 12, 35,
36, 41, 42)."""

from __future__ import annotations

import dataclasses

import pytest

from mille.engine.cards import COUNTS, GO, NUM_KINDS, STOP
from mille.engine.rules import (
    BSD,
    CLASSIC_DECK,
    PRESETS,
    TEAM_MODES,
    Rules,
    RulesError,
    find_rules,
)


def test_presets_are_found_by_name_and_bsd_is_the_default() -> None:
    assert PRESETS == ("bsd", "classic", "milebymile")
    assert find_rules() is BSD and find_rules("bsd", players=2) is BSD
    assert BSD.deck == COUNTS and BSD.deck_size == 101
    assert (BSD.target, BSD.extension, BSD.winning_score, BSD.max_200s) == (700, 1000, 5000, 2)
    assert (BSD.players, BSD.sides, BSD.coup, BSD.battle) == (2, 2, "window", "top")


def test_rules_are_frozen_values() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        BSD.target = 1000  # type: ignore[misc]
    assert find_rules("classic", players=3) == find_rules("classic", players=3)
    assert hash(find_rules("classic", players=3)) == hash(find_rules("classic", players=3))


def test_unknown_preset() -> None:
    with pytest.raises(
        RulesError, match=r"^unknown rules: 'chess' \(choose bsd, classic, milebymile\)$"
    ):
        find_rules("chess")


def test_rules_error_is_a_value_error() -> None:
    assert issubclass(RulesError, ValueError)


def test_classic_deck_has_106_cards() -> None:
    assert len(CLASSIC_DECK) == NUM_KINDS
    assert CLASSIC_DECK[5:10] == (3, 3, 3, 5, 4)
    assert CLASSIC_DECK[:5] == COUNTS[:5] and CLASSIC_DECK[10:] == COUNTS[10:]
    assert sum(CLASSIC_DECK) == 106 and find_rules("classic").deck_size == 106


@pytest.mark.parametrize(
    "players, sides, members, target, extension",
    [
        (2, 2, [(0,), (1,)], 700, 1000),
        (3, 3, [(0,), (1,), (2,)], 700, 1000),
        (4, 2, [(0, 2), (1, 3)], 1000, None),
        (6, 3, [(0, 3), (1, 4), (2, 5)], 700, 1000),  # three teams: the extension too
    ],
)
def test_classic_seats_sides_and_target(
    players: int, sides: int, members: list[tuple[int, ...]], target: int, extension: int | None
) -> None:
    rules = find_rules("classic", players=players)
    assert rules.sides == sides
    assert [rules.members(side) for side in range(1, sides + 1)] == members
    assert (rules.target, rules.extension) == (target, extension)
    assert rules.side_of(0) == 1  # the human is always side 1


@pytest.mark.parametrize("players", [1, 5, 7, 9])
def test_scenario_12_classic_refuses_other_player_counts(players: int) -> None:
    with pytest.raises(RulesError, match=r"^classic needs 2, 3, 4 or 6 players$"):
        find_rules("classic", players=players)


def test_bsd_is_two_players_only() -> None:
    with pytest.raises(RulesError, match=r"^bsd needs 2 players$"):
        find_rules("bsd", players=3)


@pytest.mark.parametrize("preset", ["bsd", "classic"])
@pytest.mark.parametrize(
    "option, value, label",
    [
        ("team_mode", "2v2", "team mode"),
        ("distance", 1000, "race distance"),
        ("winning_score", 5000, "winning score"),
        ("perfect_crossing", False, "perfect crossing"),
        ("stacking", True, "stacking attacks"),
        ("reshuffle", True, "reshuffle"),
        ("always_discard", False, "always allow discarding"),
        ("rigging", "none", "deck rigging"),
        ("karma", False, "karma rule"),
    ],
)
def test_options_a_preset_does_not_have_are_refused(
    preset: str, option: str, value: object, label: str
) -> None:
    with pytest.raises(RulesError, match=f"^{preset} has no {label} option$"):
        find_rules(preset, **{option: value})  # type: ignore[arg-type]


def test_milebymile_defaults() -> None:
    rules = find_rules("milebymile")
    assert (rules.players, rules.sides, rules.team_mode) == (2, 2, "individual")
    assert (rules.target, rules.extension, rules.winning_score) == (1000, None, 5000)
    assert rules.perfect_crossing and rules.reshuffle and rules.always_discard
    assert not rules.stacking and not rules.karma and rules.rigging == "none"
    assert rules.deck == CLASSIC_DECK and rules.deck_size == 106
    assert rules.max_200s is None and rules.battle == "problems" and rules.coup == "offer"
    assert rules.scoring.delayed_action is None and rules.scoring.extension is None
    assert rules.scoring.perfect_crossing is None  # the row exists only with crossing off
    assert find_rules("milebymile", perfect_crossing=False).scoring.perfect_crossing == 200


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"players": 1}, "milebymile needs 2 to 9 players"),
        ({"players": 10}, "milebymile needs 2 to 9 players"),
        ({"distance": 275}, "race distance must be 300 to 3000"),
        ({"distance": 3025}, "race distance must be 300 to 3000"),
        ({"distance": 3001, "perfect_crossing": False}, "race distance must be 300 to 3000"),
        ({"distance": 299, "perfect_crossing": False}, "race distance must be 300 to 3000"),
        ({"distance": 1010}, "perfect crossing needs a race distance in 25s"),
        (
            {"distance": 1010, "perfect_crossing": True},
            "perfect crossing needs a race distance in 25s",
        ),
        ({"winning_score": 999}, "winning score must be 1000 to 10000"),
        ({"winning_score": 10001}, "winning score must be 1000 to 10000"),
        ({"players": 5, "team_mode": "2v2"}, "team mode not available for 5 players"),
        ({"players": 4, "team_mode": "3v3"}, "team mode not available for 4 players"),
        (
            {"players": 4, "team_mode": "foo"},
            "unknown team mode: 'foo' (choose individual, 2v2, 2v2v2, 3v3, 2v2v2v2, 4v4, 3v3v3)",
        ),
        (
            {"players": 4, "team_mode": ""},
            "unknown team mode: '' (choose individual, 2v2, 2v2v2, 3v3, 2v2v2v2, 4v4, 3v3v3)",
        ),
        ({"players": 10, "team_mode": "5v5"}, "milebymile needs 2 to 9 players"),
        ({"karma": True}, "karma rule needs 3 or more sides"),
        ({"players": 4, "team_mode": "2v2", "karma": True}, "karma rule needs 3 or more sides"),
    ],
)
def test_milebymile_option_messages(kwargs: dict[str, object], message: str) -> None:
    """Section 3.1's refusals, and scenario 36."""
    with pytest.raises(RulesError) as caught:
        find_rules("milebymile", **kwargs)  # type: ignore[arg-type]
    assert str(caught.value) == message


def test_team_modes_by_player_count() -> None:
    """Section 3.4.3's table."""
    assert TEAM_MODES == {
        2: ("individual",),
        3: ("individual",),
        4: ("individual", "2v2"),
        5: ("individual",),
        6: ("individual", "2v2v2", "3v3"),
        7: ("individual",),
        8: ("individual", "2v2v2v2", "4v4"),
        9: ("individual", "3v3v3"),
    }


def test_scenario_41_three_a_side_teams_alternate_round_the_table() -> None:
    rules = find_rules("milebymile", players=6, team_mode="3v3")
    assert rules.sides == 2 and rules.members(1) == (0, 2, 4) and rules.members(2) == (1, 3, 5)


def test_scenario_35_rigged_decks() -> None:
    attacks = find_rules("milebymile", players=3, rigging="2x attacks", karma=True)
    assert attacks.deck_size == 126 and attacks.deck[STOP] == 10 and attacks.false_virtues == 2
    defenses = find_rules("milebymile", rigging="2x defenses")
    assert defenses.deck_size == 144 and defenses.deck[GO] == 28
    assert find_rules("milebymile", rigging="no duplicates").deck_size == 106
    assert find_rules("milebymile", players=3, karma=True).deck_size == 108


def test_scenario_42_nine_seats_three_teams_with_karma() -> None:
    rules = find_rules("milebymile", players=9, team_mode="3v3v3", karma=True)
    assert rules.sides == 3 and rules.deck_size - 9 * rules.hand_size == 54


def test_unknown_rigging() -> None:
    with pytest.raises(RulesError, match=r"^unknown deck rigging: 'lots'"):
        find_rules("milebymile", rigging="lots")
    with pytest.raises(RulesError, match=r"^unknown deck rigging: ''"):
        find_rules("milebymile", rigging="")


def test_an_empty_preset_name_is_unknown() -> None:
    with pytest.raises(RulesError, match=r"^unknown rules: '' \(choose"):
        find_rules("")


def test_scoring_tables() -> None:
    assert BSD.scoring.shut_out_rule == "opponent"
    assert find_rules("classic", players=3).scoring.shut_out_rule == "each"
    assert find_rules("milebymile", players=3).scoring.shut_out_rule == "all"
    assert isinstance(BSD, Rules)


def test_bsds_own_ways_are_named_fields() -> None:
    """Ties at the winning score, the Extension row and the deck-empty end:
    BSD's ways, and the other presets'."""
    assert (BSD.game_tie, BSD.deck_out, BSD.scoring.extension_to) == (
        "no game",
        "canplay",
        "completer",
    )
    classic = find_rules("classic", players=3)
    assert (classic.game_tie, classic.deck_out, classic.scoring.extension_to) == (
        "play on",
        "run out",
        "extender",
    )
    mbm = find_rules("milebymile", players=5)
    assert (mbm.game_tie, mbm.deck_out) == ("play on", "run out")


def test_the_coup_window_is_bsds_coup_rule() -> None:
    """``Rules.coup_window``: a safety may answer a hazard until the side's
    next pick (BSD's), or ``Coup Fourre?`` is asked as it lands."""
    assert BSD.coup_window
    for players in (2, 3, 4, 6):
        assert not find_rules("classic", players=players).coup_window
    for players in (2, 5, 9):
        assert not find_rules("milebymile", players=players).coup_window
