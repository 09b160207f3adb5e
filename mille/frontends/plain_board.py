"""The line mode's board: the view, your hand, the scores, the hand so far
and the help, as lines of plain text.

Each function reads the table (or the rules) and gives lines;
:class:`mille.frontends.plain.LineUi` prints them.  The words are the log's
and the board's (:mod:`mille.engine.describe`).
"""

from __future__ import annotations

from ..engine import describe
from ..engine.cards import EXTRA_TANK, HAND_SLOTS, NUM_SAFETIES
from ..engine.describe import card_name, side_members, side_name
from ..engine.rules import OFFER, Rules
from ..engine.table import Event
from ..engine.view import SeatView


def help_text(rules: Rules, level: str = "standard") -> str:
    """``?``: the commands that apply to ``rules`` (a side to name only with
    three sides or more; the questions the preset asks), then the options
    in force."""
    questions = ["Coup Fourre?"] if rules.coup == OFFER else []
    if rules.extension is not None:
        questions.append("Extension?")
    if rules.discard_safeties:
        questions.append("Discard a safety?")
    questions.append("Another hand?")
    lines = [
        "Commands (then RETURN; case does not matter):",
        "  p          pick a card",
        "  u N        use the card in slot N (P or 0, 1-6)",
    ]
    if rules.sides > 2:
        lines.append("  u N S      use a hazard on side S")
    lines += [
        "  d N        discard the card in slot N",
        f"  y, n       answer a question ({', '.join(questions)})",
        "  o          keep your hand in order (or stop)",
        "  w          show the full score table",
        "  r          show the options, the table and your hand again",
        "  h          a hint: the expert's move and why (not played)",
        "  t          the card tracker on/off: the cards not seen yet, at each turn",
        "  l          the whole hand so far",
        "  s          save the game",
        "  q          quit (asks Really?)",
        "  ?          this summary",
        "h, t and l work at the game's questions too.",
        "Words work too: pick, use N, discard N, order, window, reprint, hint,",
        "tracker, log, save, quit, help.",
        "At the end of the input the game is kept for the next mille.",
        "Several people at one keyboard: mille --plain --people 0=Ann,1=Bob (each",
        "hand-off clears the terminal and its scrollback, then asks for RETURN).",
        "Finished games are recorded: mille --stats shows them (--no-record: not).",
    ]
    if rules.coup == OFFER:  # (asked, another person could time the question)
        lines.append("With other people, here or over the network, Coup Fourre? is called for you.")
    lines.append(options_line(rules, level))
    return "\n".join(lines)


def options_line(rules: Rules, level: str = "standard") -> str:
    """``In force: 1000 miles, game 5000 points, ...``: every option."""
    return "In force: " + ", ".join(describe.option_words(rules, level)) + "."


def side_line(view: SeatView, side: int) -> str:
    """``Side 2, Comp 1: 200 of 1000 miles; Go; ...``: one side's state."""
    rules = view.rules
    tab = view.tableaux[side - 1]
    name = side_name(rules, side, view.seat, view.names)
    if describe.is_team_game(rules):
        name += f" ({side_members(rules, side, view.seat, view.names)})"
    battle, speed = describe.tops(view, side)
    parts = [f"{tab.mileage} of {view.target} miles"]
    parts.append(battle or "not started")
    if speed and speed != "End of Limit":
        parts.append(speed)
    safeties = []
    for index in range(NUM_SAFETIES):
        if EXTRA_TANK + index in tab.safeties:
            coup = " (coup fourre)" if tab.coups[index] else ""
            safeties.append(card_name(EXTRA_TANK + index) + coup)
    if safeties:
        parts.append("safeties " + ", ".join(safeties))
    if rules.karma:
        parts.append("karma" if tab.karma else "no karma")
    score = view.hand_score(side).total
    parts.append(f"{score} this hand, {view.total(side)} in all")
    return f"Side {side}, {name}: " + "; ".join(parts) + "."


def hand_line(view: SeatView) -> str:
    """``Your hand: P: -, 1: Go, ...``."""
    hand = view.hand
    slots = [
        f"{'P' if slot == 0 else slot}: {card_name(hand[slot]) or '-'}"
        for slot in range(HAND_SLOTS)
    ]
    return "Your hand: " + ", ".join(slots) + "."


def tracker_line(view: SeatView) -> str:
    """T: how many of each card you have not seen."""
    counts = ", ".join(f"{name} {n}" for name, n in describe.tracker(view))
    return f"Not seen yet: {counts}."


def table_lines(view: SeatView, tracking: bool = False) -> list[str]:
    """The table at the start of your turn (and ``r``): a line per side,
    the piles, the card tracker if it is on, your hand."""
    lines = [side_line(view, side) for side in range(1, view.rules.sides + 1)]
    top = card_name(view.discard[-1]) if view.discard else "empty"
    lines.append(f"Deck: {view.deck_size} cards. Discard pile: {top}.")
    if tracking:
        lines.append(tracker_line(view))
    lines.append(hand_line(view))
    return lines


def score_lines(view: SeatView) -> list[str]:
    """``w`` and the end of a hand: every score row for every side."""
    rules = view.rules
    names = [side_name(rules, side, view.seat, view.names) for side in range(1, rules.sides + 1)]
    width = max(len(name) for name in names + ["Milestones Played"])
    lines = ["Scores: " + ", ".join(f"side {i} {name}" for i, name in enumerate(names, 1))]
    for label, values in describe.score_table(view):
        lines.append(f"  {label + ':':<{width + 1}} " + ", ".join(str(v) for v in values))
    return lines


def hand_so_far(view: SeatView, log: list[Event]) -> list[str]:
    """``l``: every move of this hand since the deal."""
    lines = describe.hand_lines(view, log)
    if not lines:
        return ["The hand so far: nothing yet."]
    return ["The hand so far:"] + ["  " + line for line in lines]
