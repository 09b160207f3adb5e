"""The review (issue 47): a game judged for one seat from what it saw then
(``mille.game.review``), and ``mille --review`` (``frontends.review_words``):
a card the seat could not see changes nothing; a blunder is called a
mistake and the expert's own move is not; a call needs the second
analysis; the text, the JSON and the refusals word for word; the record
keeps a review, so asking again analyses nothing."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from test_record_export import finished

from mille.engine.cards import GO, NO_CARD
from mille.engine.moves import NO, YES, Discard, Use
from mille.engine.rules import find_rules
from mille.frontends import cli, review_words
from mille.frontends.record_words import ASCII_SPARKS
from mille.game import review as rv
from mille.game.history import History
from mille.players.search import Budget
from mille.selfplay import played_game
from mille.storage import gamefile

# a quick analysis for the tests (the review's own is far larger)
QUICK = rv.Analysis(
    budget=Budget(moves=300, worlds=2, extra=0, seconds=None, horizon=8, setup=6),
    step=8,
    least=8,
    most=16,
)


def self_play(seed: int, hands: int | None = None) -> History:
    """A classic game (or its first ``hands``) of the standard computer in
    both seats, seat 0 recorded as the person Ann."""
    return played_game(find_rules("classic"), seed, people={0: "Ann"}, hands=hands)


def cut(history: History, hand: int, moves: int) -> History:
    """``history`` up to move ``moves`` of ``hand`` (the review judges a
    game not played out as well)."""
    hands = history.hands[:hand] + (
        replace(history.hands[hand], moves=history.hands[hand].moves[:moves]),
    )
    return replace(history, hands=hands)


@pytest.mark.parametrize("seed", [3, 4])
def test_a_card_the_seat_could_not_see_changes_nothing(seed: int) -> None:
    """Two games alike in all that seat 0 saw, two cards never drawn
    swapped in the deck: the same decisions, calls and chances."""
    history = cut(self_play(seed, hands=1), 0, 40)
    hand = history.hands[0]
    moves = len(hand.moves)
    drawn = 2 * 6 + sum(1 for move in hand.moves if str(move) == "P")
    left = len(hand.deal.deck) - drawn  # the deck's first cards were never drawn
    deck = list(hand.deal.deck)
    i = 0
    j = next(k for k in range(1, left) if deck[k] != deck[i])
    deck[i], deck[j] = deck[j], deck[i]
    other = replace(history, hands=(replace(hand, deal=replace(hand.deal, deck=tuple(deck))),))
    assert other != history and len(other.hands[0].moves) == moves
    first = list(rv.decisions(history, 0, 7, QUICK))
    second = list(rv.decisions(other, 0, 7, QUICK))
    assert first and first == second
    assert rv.chances(history, 0) == rv.chances(other, 0)


BLUNDER = (2, 82)  # self-play seed 1: seat 0 answers y to Extension?, the expert n


def test_a_blunder_is_a_mistake_and_the_experts_move_is_not() -> None:
    """A known blunder (an extension that loses the hand, about 7 hands in
    100) is called a mistake by the review's own analysis; the expert's
    answer there is not."""
    hand, number = BLUNDER
    history = cut(self_play(1, hands=hand + 1), hand, number + 1)
    assert history.hands[hand].moves[number] == YES
    (called,) = rv.decisions(history, 0, 5, at={BLUNDER})
    assert (called.made, called.best, called.mistake) == (YES, NO, True)
    assert called.cost > 0.03 and called.second is not None
    moves = history.hands[hand].moves[:number] + (NO,)
    agreed = replace(
        history, hands=history.hands[:hand] + (replace(history.hands[hand], moves=moves),)
    )
    (same,) = rv.decisions(agreed, 0, 5, at={BLUNDER})
    assert same.agrees and not same.mistake and same.cost == 0.0


def test_a_call_needs_the_second_analysis(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first analysis finds the move made worse, the second does not:
    no mistake; when both do: a mistake, its cost their mean."""
    history = cut(self_play(2, hands=1), 0, 30)
    monkeypatch.setattr(rv, "_same", lambda view, a, b: False)
    worse, fine = rv.Judged(0.1, 4.0, 32), rv.Judged(0.0, 0.1, 32)
    answers = iter([worse, fine])
    monkeypatch.setattr(rv, "_compare", lambda *args: next(answers))
    decision = next(rv.decisions(history, 0, 1, QUICK))
    assert (decision.first, decision.second, decision.mistake) == (worse, fine, False)
    answers = iter([worse, rv.Judged(0.06, 3.0, 48)])
    decision = next(rv.decisions(history, 0, 1, QUICK))
    assert decision.mistake and decision.cost == pytest.approx(0.08)


def test_the_second_analysis_has_guesses_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """The guesses at the hidden cards are a sample too: the second
    analysis is by an expert that watched the hand with guesses of its
    own (two analyses of one expert's guesses agree on their error: too
    few calls held, ``bench/bench_review.py``), the same two moves."""
    history = cut(self_play(2, hands=1), 0, 30)
    monkeypatch.setattr(rv, "_same", lambda view, a, b: False)
    seen: list[tuple[object, object, object]] = []

    def compare(sampler: object, made: object, best: object, *args: object) -> rv.Judged:
        seen.append((made, best, sampler.beliefs))  # type: ignore[attr-defined]
        return rv.Judged(0.1, 4.0, 32)

    monkeypatch.setattr(rv, "_compare", compare)
    decision = next(rv.decisions(history, 0, 1, QUICK))
    assert decision.mistake and len(seen) == 2
    (made, best, guesses), (made_again, best_again, other_guesses) = seen
    assert (made, best) == (made_again, best_again) == (decision.made, decision.best)
    assert guesses and other_guesses and guesses != other_guesses


# ----- mille --review ------------------------------------------------------------

RULES = find_rules("classic")
MADE = rv.Decision(
    0, 11, Discard(3), Use(2), 0, GO, rv.Judged(0.05, 3.1, 32), rv.Judged(0.05, 2.9, 48), True
)
SAME = rv.Decision(0, 13, Use(1), Use(1), GO, GO)
UNSURE = rv.Decision(1, 4, Discard(2), Discard(5), 0, 1, rv.Judged(0.004, 0.5, 192))
POINTS = (
    rv.Point(0, -1, 0.5),
    rv.Point(0, 11, 0.4),
    rv.Point(0, 12, 0.6),
    rv.Point(0, 13, 1.0),
    rv.Point(1, -1, 0.5),
    rv.Point(1, 4, 0.0),
)
REVIEW = rv.Review(0, review_words.SEED, (MADE, SAME, UNSURE), POINTS)


def test_the_text_says_each_decision_the_chart_and_the_summary() -> None:
    history = replace(self_play(1, hands=2), people={0: "Ann"})
    lines = review_words.review_lines(history, REVIEW, "Ann", "game 3", ASCII_SPARKS)
    assert lines == [
        "Review of game 3: Ann's decisions, judged from what they could see then",
        "hand 1",
        "  move 12: D3 25; the expert: U2 Go; a mistake: about 5 more hands won in 100",
        "  move 14: U1 Go, as the expert",
        "hand 2",
        "  move 5: D2 25; the expert: D5 50; not surely worse (under 1 more hand won in 100)",
        "The chance to win each hand after every move (a mistake: !):",
        "hand 1 =~=#",
        "        !",
        "hand 2 =_",
        "Ann: 1 of 3 decisions as the expert's",
        "1 mistake: the expert's moves there, about 5 more hands won in 100",
        "hands won: 1 of 2; Ann's decisions against the expert's -0.05 hands,"
        " luck (the deals, the draws, the other seats' moves) +0.05",
    ]


def test_the_chart_fits_80_columns() -> None:
    points = tuple(rv.Point(0, n - 1, (n % 10) / 10) for n in range(300))
    lines = review_words.chart_lines(replace(REVIEW, points=points), ASCII_SPARKS)
    assert [len(line) for line in lines] == [80, 11]


def test_the_json_is_codes_and_numbers() -> None:
    data = json.loads(json.dumps(review_words.json_of(REVIEW, 3, "Ann")))
    assert data["summary"] == {
        "decisions": 3,
        "agreed": 1,
        "mistakes": 1,
        "cost": pytest.approx(0.05),
        "own": pytest.approx(-0.054),
        "luck": pytest.approx(0.054),
        "hands": 1.0,
        "played": 2,
    }
    assert (data["game"], data["seat"], data["name"]) == (3, 0, "Ann")
    assert data["review"]["decisions"][0] == {
        "hand": 0,
        "move": 11,
        "made": "D3",
        "best": "U2",
        "made_card": "25",
        "best_card": "Go",
        "first": {"hands": 0.05, "z": 3.1, "worlds": 32},
        "second": {"hands": 0.05, "z": 2.9, "worlds": 48},
        "mistake": True,
    }
    assert data["review"]["chances"][1] == [0, 11, 0.4] and data["review"]["share"] == 0.5
    assert review_words.from_dict(data["review"]) == REVIEW
    assert review_words.from_dict({**data["review"], "version": 0}) is None
    assert NO_CARD == -1  # (no card: null)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = cli.main(["--review", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_record_keeps_a_review(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first --review analyses and keeps it; the second reads it
    from the record, no analysis: the same lines."""
    finished("classic", 2, 5)
    calls: list[int] = []

    def analyse(history: History, seat: int) -> rv.Review:
        calls.append(seat)
        return replace(REVIEW, points=())

    monkeypatch.setattr(review_words, "analyse", analyse)
    first = run(capsys, "1")
    assert calls == [0] and first[0] == 0 and first[2] == ""
    second = run(capsys)
    assert calls == [0] and second == first
    assert first[1].splitlines()[0] == (
        "Review of game 1: Ann's decisions, judged from what they could see then"
    )
    status, out, _ = run(capsys, "--json", "1")
    assert status == 0 and json.loads(out)["review"] == review_words.to_dict(
        replace(REVIEW, points=())
    )


def test_stopped_by_ctrl_c_it_keeps_nothing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    finished("classic", 2, 5)

    def stopped(history: History, seat: int) -> rv.Review:
        raise KeyboardInterrupt

    monkeypatch.setattr(review_words, "analyse", stopped)
    assert run(capsys) == (130, "", "\nmille: --review: stopped (nothing kept)\n")
    from mille.storage import record

    assert record.review(1, 0) is None


def test_the_refusals_are_one_line_each(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys) == (1, "", "mille: --review: no game in the record has its moves kept\n")
    finished("classic", 2, 5)
    assert run(capsys, "9") == (
        1,
        "",
        "mille: --review: no game 9 in the record (mille --stats numbers them)\n",
    )
    assert run(capsys, "--seat", "Bob") == (
        1,
        "",
        "mille: --review: --seat: no person Bob in this game (its people: Ann)\n",
    )
    robots = tmp_path / "robots.json"
    whole = gamefile.loads(gamefile.dumps(self_play(1)))
    robots.write_text(
        gamefile.dumps(replace(whole, people={}, computers={0: "standard", 1: "standard"}))
    )
    assert run(capsys, str(robots)) == (
        1,
        "",
        "mille: --review: no person played this game (only computers)\n",
    )
    status, out, err = run(capsys, str(tmp_path / "none.json"))
    assert (status, out) == (1, "") and err.startswith("mille: --review: ") and err.count("\n") == 1
    status = cli.main(["--seat", "Ann"])
    out, err = capsys.readouterr()
    assert status == 1 and err.splitlines()[0] == (
        "mille: --seat goes with --review (mille --help lists the options)"
    )
    status = cli.main(["--review", "1", "--rules", "classic"])
    out, err = capsys.readouterr()
    assert status == 1 and err.splitlines()[0] == (
        "mille: --review takes no other option or file (mille --help lists the options)"
    )


def test_a_recheck_analyses_the_same_two_moves_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """``recheck``: the move made and the expert's of a decision judged,
    played out again at that decision (the benchmark's re-analysis); a
    decision that is none is one line."""
    history = cut(self_play(2, hands=1), 0, 30)
    first = next(rv.decisions(history, 0, 1, QUICK))
    seen: list[tuple[object, object, object]] = []

    def compare(sampler: object, made: object, best: object, *args: object) -> rv.Judged:
        seen.append((made, best, sampler.view.hand[:]))  # type: ignore[attr-defined]
        return rv.Judged(0.01, 1.0, 16)

    monkeypatch.setattr(rv, "_compare", compare)
    assert rv.recheck(history, 0, first, 9, QUICK) == rv.Judged(0.01, 1.0, 16)
    assert [(made, best) for made, best, _ in seen] == [(first.made, first.best)]
    with pytest.raises(ValueError) as caught:
        rv.recheck(history, 0, replace(first, number=1000), 9, QUICK)
    assert str(caught.value) == "no decision of seat 0 at hand 1, move 1001"


def test_the_replay_marks_the_reviewed_moves(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A review the record keeps marks the replay of that game: beside
    each decision reviewed, ``!`` (a mistake), ``=`` (the expert's move)
    or ``?`` (another move, not surely worse); the keys' page says so."""
    from mille.frontends import replaying

    finished("classic", 2, 5)
    assert replaying.find("1").notes == {}  # type: ignore[union-attr]  # not reviewed yet
    monkeypatch.setattr(review_words, "analyse", lambda history, seat: REVIEW)
    assert run(capsys, "1")[0] == 0
    game = replaying.find("1")
    assert game is not None
    assert game.notes == {(0, 12): "!", (0, 14): "=", (1, 5): "?"}
    game.go(0, 12)
    assert replaying.move_words(game).endswith(" [!]")
    game.go(0, 13)
    assert "[" not in replaying.move_words(game)  # another seat's move: no mark
    assert replaying.find("1").notes == game.notes  # type: ignore[union-attr]  # kept
    page = replaying.help_lines("keys\n\nPress a key to go back to the replay.")
    assert page == [
        "keys",
        "",
        "A reviewed game (mille --review) marks the person's moves:",
        "  ! a mistake   ? another move than the expert's   = the expert's move",
        "",
        "Press a key to go back to the replay.",
    ]
    assert replaying.help_lines("a\nb")[-1].startswith("  ! a mistake")
