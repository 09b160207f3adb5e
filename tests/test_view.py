"""A seat's view: what one seat may know, and nothing more.

The players, the hint and the session read a table only through a
:class:`SeatView`; these tests pin what a view shows, what it hides, and
that every computer decides the same whatever the hidden cards are.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from mille.engine.cards import FALSE_VIRTUE, NO_CARD
from mille.engine.rules import BSD, find_rules
from mille.engine.table import OVER, PICK, Pick, Table
from mille.engine.view import SeatView
from mille.players.registry import make_player

PRESETS = [
    BSD,
    find_rules("classic", players=2),
    find_rules("classic", players=4),
    find_rules("milebymile", players=3),
    find_rules("milebymile", players=5, karma=True),
]


def random_position(rules: object, seed: int, moves: int) -> Table:
    rng = random.Random(seed)
    table = Table.new(rules, rng)  # type: ignore[arg-type]
    for _ in range(moves):
        if table.phase == OVER:
            break
        table.apply(rng.choice(table.legal_moves()))
    return table


def hidden_cards(table: Table, seat: int) -> Counter[int]:
    cards = Counter(table.deck)
    for other, hand in enumerate(table.hands):
        if other != seat:
            cards.update(c for c in hand if c != NO_CARD)
    return cards


def test_a_view_offers_no_hidden_state() -> None:
    view = SeatView(Table.new(BSD, random.Random(1)), 0)
    for name in ("hands", "deck", "seed", "drawn", "apply", "apply_unchecked", "copy"):
        assert not hasattr(view, name), name
    with pytest.raises(AttributeError):
        view.hidden = 1  # type: ignore[attr-defined]


def test_a_view_shows_its_hand_and_the_counts() -> None:
    table = Table.new(find_rules("classic", players=3), random.Random(2))
    view = SeatView(table, 1)
    assert view.hand == table.hands[1]
    assert view.deck_size == len(table.deck)
    assert view.hand_sizes == (6, 6, 6)
    table.apply(PICK)
    assert view.hand_sizes == (7, 6, 6) and view.hand_size(0) == 7  # live
    assert view.deck_size == len(table.deck)


def test_no_view_of_a_seat_that_is_not_at_the_table() -> None:
    with pytest.raises(ValueError, match="^no seat 2 at a table of 2$"):
        SeatView(Table.new(BSD, random.Random(1)), 2)


def test_another_seats_draw_is_seen_as_a_count() -> None:
    table = Table.new(BSD, random.Random(3))
    outcome = table.apply(Pick())
    assert outcome.drawn[0] != NO_CARD
    assert SeatView(table, 0).seen(outcome) == outcome
    hidden = SeatView(table, 1).seen(outcome)
    assert hidden is not None
    assert hidden.drawn == (NO_CARD,) and hidden.seat == 0 and hidden.move == Pick()


def test_only_the_seat_to_decide_has_moves() -> None:
    table = Table.new(BSD, random.Random(4))
    assert SeatView(table, 0).legal_moves() == table.legal_moves()
    assert SeatView(table, 1).legal_moves() == []
    assert SeatView(table, 1).check(PICK) == "not your turn"
    assert SeatView(table, 0).check(PICK) is None


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: f"{r.name}{r.players}")
@pytest.mark.parametrize("seed", range(6))
def test_unseen_is_the_other_hands_and_the_deck(rules: object, seed: int) -> None:
    table = random_position(rules, seed, 12 * seed)
    for seat in range(table.rules.players):
        unseen = SeatView(table, seat).unseen()
        assert Counter({c: n for c, n in enumerate(unseen) if n}) == hidden_cards(table, seat)


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: f"{r.name}{r.players}")
def test_in_view_and_unseen_make_the_whole_deck(rules: object) -> None:
    for seed in range(4):
        table = random_position(rules, seed, 15 * seed)
        public = SeatView(table, 0).public_counts()
        for seat in range(table.rules.players):
            view = SeatView(table, seat)
            assert view.public_counts() == public  # the same for every seat
            seen = view.in_view()
            assert seen == view.in_view(public) and len(seen) == FALSE_VIRTUE + 1
            held = Counter(c for c in table.hands[seat] if c != NO_CARD)
            assert [n - held[c] for c, n in enumerate(seen)] == public
            whole = list(table.rules.deck) + [table.rules.false_virtues]
            assert [a + b for a, b in zip(seen, view.unseen())] == whole


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: f"{r.name}{r.players}")
def test_a_world_keeps_what_the_seat_sees(rules: object) -> None:
    table = random_position(rules, 5, 30)
    view = SeatView(table, 0)
    world = view.world()
    assert world.hands[0] == table.hands[0]
    assert world.tableaux == table.tableaux and world.discard == table.discard
    assert [len(h) for h in world.hands] == [len(h) for h in table.hands]
    assert len(world.deck) == len(table.deck)
    assert hidden_cards(world, 0) == hidden_cards(table, 0)
    assert world.seed == 0
    world.validate()


def test_a_world_takes_guesses_that_are_the_unseen_cards() -> None:
    table = Table.new(BSD, random.Random(6))
    view = SeatView(table, 0)
    pool = [c for c, n in enumerate(view.unseen()) for _ in range(n)]
    random.Random(1).shuffle(pool)
    guess, deck = pool[:6], pool[6:]
    world = view.world([[], guess], deck)
    assert world.hands[1][1:] == guess and world.deck == deck
    with pytest.raises(ValueError, match="^seat 1 holds 6 cards, not 5$"):
        view.world([[], guess[:5]], deck + guess[5:])
    with pytest.raises(ValueError, match="^the deck holds 89 cards, not 88$"):
        view.world([[], guess], deck[1:])
    wrong = deck[:]
    wrong[0] = table.hands[0][1]  # a card the seat holds itself
    if wrong != deck:
        with pytest.raises(ValueError, match="^the guessed cards are not the unseen cards$"):
            view.world([[], guess], wrong)


KINDS = ("bsd", "heuristic", "easy", "greedy", "random")


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: f"{r.name}{r.players}")
@pytest.mark.parametrize("kind", KINDS)
def test_the_hidden_cards_do_not_change_a_computers_move(rules: object, kind: str) -> None:
    """The same position with the other hands and the deck dealt again:
    every computer, given only its view, chooses the same."""
    if kind == "bsd" and rules is not BSD:
        pytest.skip("BSD's computer plays the bsd preset")
    for seed in range(8):
        table = random_position(rules, seed, 10 + 7 * seed)
        if table.phase == OVER:
            continue
        seat = table.current_player
        assert seat is not None
        other = SeatView(table, seat).world()  # the hidden cards in card order
        choices = []
        for t in (table, other):
            player = make_player(t.rules, kind, seat, random.Random(seed))
            player.start_hand(SeatView(t, seat))
            choices.append(player.choose(SeatView(t, seat)))
        assert choices[0] == choices[1], (seed, choices)


def test_the_front_ends_read_no_hidden_card() -> None:
    """The boards and the line mode draw from the person's view: no module
    of theirs reads a table's hands, deck or draws (``X.hands`` where X is
    a table: ``table``, ``self.table``, ``session.table``, ``t``; a game's
    history and a replay have hands of their own: a number, the deals)."""
    import ast
    from pathlib import Path

    import mille.frontends

    def a_table(node: ast.expr) -> bool:
        name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
        return name in ("t", "tab") or name.endswith("table")

    folder = Path(mille.frontends.__file__).parent
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found = [
            f"{ast.unparse(node)} (line {node.lineno})"
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)
            and node.attr in ("hands", "deck", "drawn")
            and a_table(node.value)
        ]
        assert not found, f"{path.name} reads {found}"


def test_the_check_of_the_front_ends_sees_a_tables_hands() -> None:
    """The check above finds what it looks for."""
    import ast

    tree = ast.parse("x = session.table.hands[0] + len(self.table.deck)")
    found = [
        n.attr
        for n in ast.walk(tree)
        if isinstance(n, ast.Attribute) and n.attr in ("hands", "deck", "drawn")
    ]
    assert found == ["hands", "deck"]


def _coup_asked() -> Table:
    """A classic table of 3: seat 0 has just put a Flat Tire on seat 1,
    who holds Puncture Proof and is asked ``Coup Fourre?``."""
    from test_table_classic import build

    from mille.engine.cards import FLAT_TIRE, GO, PUNCTURE_PROOF
    from mille.engine.table import Use

    t = build(3, hands={1: [PUNCTURE_PROOF]}, picked={0: FLAT_TIRE}, sides={2: {"battle": [GO]}})
    t.apply(Use(0, 2))
    return t


def test_a_coup_question_is_seen_by_the_seat_asked_alone() -> None:
    from mille.engine.table import COUP, PLAYING

    t = _coup_asked()
    assert (t.phase, t.asked, t.current_player) == (COUP, 1, 1)
    asked = SeatView(t, 1)
    assert (asked.phase, asked.asked, asked.current_player) == (COUP, 1, 1)
    assert asked.offer is not None and asked.legal_moves()
    for seat in (0, 2):
        view = SeatView(t, seat)
        assert (view.phase, view.asked, view.offer) == (PLAYING, None, None)
        assert view.current_player == t.to_move == 1 and view.question_hidden()
        world = view.world()
        assert (world.phase, world.asked, world.offer) == (PLAYING, None, None)
        world.validate()


def test_a_coup_let_go_is_not_seen_by_the_others() -> None:
    from mille.engine.table import COUP, EXTENSION, NO, Answer, Outcome

    t = _coup_asked()
    outcome = t.apply(NO)
    assert SeatView(t, 1).seen(outcome, COUP) == outcome
    assert SeatView(t, 0).seen(outcome, COUP) is None
    assert SeatView(t, 2).seen(outcome, COUP) is None
    # a coup made, and an answer to Extension?, are seen by all
    made = Outcome(1, Answer(True), card=16, coup_fourre=True)
    assert SeatView(t, 0).seen(made, COUP) == made
    assert SeatView(t, 0).seen(outcome, EXTENSION) == outcome
