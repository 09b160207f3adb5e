"""End to end: a whole seeded hand played through the keyboard.

The test plays as a person would, reading only the screen: pick, then try
U on each card, then D; a refused move beeps.  It answers ``Extension?``
and stops at ``Another hand?``, where the full score window must add up.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from support.screen import Term

PROMPTS = (">>:Move:", "Extension?", "Another hand?", "Another game?")


def prompt_line(term: Term) -> str:
    return term.lines()[10].ljust(40)[20:40].rstrip()


def slots(term: Term) -> list[str]:
    return [line.ljust(20)[2:20].rstrip() for line in term.lines()[6:13]]


def deck_count(term: Term) -> int:
    return int(term.lines()[6].ljust(24)[22:24])


def scores(line: str) -> tuple[int, int]:
    line = line.ljust(80)
    return int(line[61:65]), int(line[67:71])


def at_prompt(term: Term) -> bool:
    return prompt_line(term) in PROMPTS


def act(term: Term, keys: str) -> bool:
    """Type a command and wait for the next bare prompt; False if it beeped."""
    bells = term.bells()
    for key in keys[:-1]:
        term.send(key)
        term.wait(lambda: prompt_line(term) != ">>:Move:", what=f"echo of {keys!r}")
    term.send(keys[-1])
    if keys[-1] == "p":
        term.wait(lambda: slots(term)[0] != "" or term.bells() > bells, what="pick")
    else:
        term.wait(lambda: at_prompt(term), what=f"prompt after {keys!r}")
    return term.bells() == bells


def play_hand(term: Term, extend: str) -> None:
    for _ in range(400):
        term.wait(lambda: at_prompt(term), what="a prompt")
        prompt = prompt_line(term)
        if prompt.startswith("Another"):
            return
        if prompt == "Extension?":
            term.send(extend)
            term.wait(lambda: prompt_line(term) != "Extension?", what="answer")
            continue
        hand = slots(term)
        if hand[0] == "" and deck_count(term) > 0:
            assert act(term, "p"), "a pick with cards left must work"
            continue
        cards = [n for n, name in enumerate(hand) if name]
        if not any(act(term, f"u{'P' if n == 0 else n}\r") for n in cards):
            if not any(act(term, f"d{'P' if n == 0 else n}\r") for n in cards):
                pytest.fail(f"no move possible:\n{term.text()}")
    pytest.fail("the hand did not end")


@pytest.mark.parametrize("seed,extend", [("3", "y"), ("5", "n")])
def test_whole_hand_through_the_keyboard(
    spawn: Callable[..., Term], seed: str, extend: str
) -> None:
    term = spawn("--seed", seed)
    play_hand(term, extend)
    lines = term.settle()
    assert prompt_line(term) == "Another hand?"
    for y, label in [
        (5, "Trip Completed"),
        (9, "Shut-Out"),
        (11, "Hand Total"),
        (13, "Overall Total"),
        (14, "Games"),
    ]:
        assert label in lines[y]
    you = [scores(lines[y])[0] for y in range(1, 10)]
    comp = [scores(lines[y])[1] for y in range(1, 10)]
    total_you, total_comp = scores(lines[11])
    assert total_you == sum(you) and total_comp == sum(comp)
    assert scores(lines[13]) == (total_you, total_comp)  # first hand
    assert max(you[0], comp[0]) > 0, "somebody drove"
    # the mileage area shows every distance card played
    miles_you = sum(int(card) for line in lines[18:23] for card in line[:40].split())
    miles_comp = sum(int(card) for line in lines[18:23] for card in line[40:].split())
    assert (miles_you, miles_comp) == (you[0], comp[0])
    # next hand: small window again, totals carried, computer moves first
    term.send("y")
    term.wait_for("p: pick", row=11)
    term.wait(lambda: prompt_line(term) == ">>:Move:", what="move prompt")
    lines = term.settle()
    assert scores(lines[8]) == (total_you, total_comp)
    assert lines[11].ljust(80)[40:].startswith("| p: pick")
    assert all(line.strip() == "" for line in lines[18:24])
    assert lines[11][20:27] in ("PLAY   ", "DISCARD"), "the computer moved first"
    term.send("q")
    term.wait_for("Really?", row=10)
    term.send("y")
    assert term.wait_exit() == 0
