"""The line mode's board: the view, your hand, the scores, the hand so far
and the help, as lines of plain text.

Each function reads the table (or the rules) and gives lines;
:class:`mille.frontends.plain.LineUi` prints them.  The words are the log's
and the board's (:mod:`mille.engine.describe`).
"""

from __future__ import annotations

from ..engine import describe
from ..engine.cards import D200, EXTRA_TANK, HAND_SLOTS, NUM_SAFETIES, VALUES
from ..engine.describe import card_name, side_members, side_name
from ..engine.rules import OFFER, Rules
from ..engine.table import Event, Use
from ..engine.text import width as text_width
from ..engine.view import SeatView
from ..i18n import _, ngettext
from .questions import Question


def help_text(rules: Rules, level: str = "standard") -> str:
    """``?``: the commands that apply to ``rules`` (a side to name only with
    three sides or more; the questions the preset asks), then the options
    in force."""
    questions = [Question.COUP_FOURRE.words] if rules.coup == OFFER else []
    if rules.extension is not None:
        questions.append(Question.EXTENSION.words)
    if rules.discard_safeties:
        questions.append(Question.DISCARD_SAFETY.words)
    questions.append(Question.ANOTHER_HAND.words)
    lines = _(
        "Commands (then RETURN; case does not matter):\n"
        "  p          pick a card\n"
        "  u N        use the card in slot N (P or 0, 1-6)"
    ).split("\n")
    if rules.sides > 2:
        lines.append(_("  u N S      use a hazard on side S"))
    lines.append(_("  d N        discard the card in slot N"))
    answer = _("  y, n       answer a question ({questions})")
    lines.append(answer.format(questions=", ".join(questions)))
    lines += _(
        "  o          keep your hand in order (or stop)\n"
        "  w          show the full score table\n"
        "  r          show the options, the table and your hand again\n"
        "  h          a hint: the expert's move and why (not played)\n"
        "  t          the card tracker on/off: the cards not seen yet, at each turn\n"
        "  l          the whole hand so far\n"
        "  s          save the game\n"
        "  q          quit (asks Really?)\n"
        "  ?          this summary\n"
        "h, t and l work at the game's questions too.\n"
        "Words work too: pick, use N, discard N, order, window, reprint, hint,\n"
        "tracker, log, save, quit, help.\n"
        "At the end of the input the game is kept for the next mille.\n"
        "Several people at one keyboard: mille --plain --people 0=Ann,1=Bob (each\n"
        "hand-off clears the terminal and its scrollback, then asks for RETURN).\n"
        "Finished games are recorded: mille --stats shows them (--no-record: not)."
    ).split("\n")
    if rules.coup == OFFER:  # (asked, another person could time the question)
        lines.append(
            _("With other people, here or over the network, Coup Fourre? is called for you.")
        )
    lines.append(options_line(rules, level))
    return "\n".join(lines)


def options_line(rules: Rules, level: str = "standard") -> str:
    """``In force: 1000 miles, game 5000 points, ...``: every option."""
    return _("In force: {options}.").format(options=", ".join(describe.option_words(rules, level)))


def side_line(view: SeatView, side: int) -> str:
    """``Side 2, Comp 1: 200 of 1000 miles; Go; ...``: one side's state."""
    rules = view.rules
    tab = view.tableaux[side - 1]
    name = side_name(rules, side, view.reader, view.names)
    if describe.is_team_game(rules):
        name += f" ({side_members(rules, side, view.reader, view.names)})"
    battle, speed = describe.tops(view, side)
    parts = [_("{miles} of {target} miles").format(miles=tab.mileage, target=view.target)]
    parts.append(battle or _("not started"))
    if speed and speed != _("End of Limit"):
        parts.append(speed)
    safeties = []
    for index in range(NUM_SAFETIES):
        if EXTRA_TANK + index in tab.safeties:
            name_of = card_name(EXTRA_TANK + index)
            if tab.coups[index]:
                name_of = _("{card} (coup fourre)").format(card=name_of)
            safeties.append(name_of)
    if safeties:
        parts.append(_("safeties {cards}").format(cards=", ".join(safeties)))
    if rules.karma:
        parts.append(_("karma") if tab.karma else _("no karma"))
    score = view.hand_score(side).total
    parts.append(_("{hand} this hand, {total} in all").format(hand=score, total=view.total(side)))
    line = _("Side {side}, {name}: {state}.")
    return line.format(side=side, name=name, state=_("; ").join(parts))


def hand_line(view: SeatView) -> str:
    """``Your hand: P: empty, 1: Go, ...`` (each slot said by its name:
    a screen reader says a bare ``-`` as nothing)."""
    hand = view.hand
    empty = _("empty")
    said = _("{slot}: {card}")
    slots = [
        said.format(slot="P" if slot == 0 else slot, card=card_name(hand[slot]) or empty)
        for slot in range(HAND_SLOTS)
    ]
    return _("Your hand: {slots}.").format(slots=", ".join(slots))


def tracker_line(view: SeatView) -> str:
    """T: how many of each card you have not seen (``25: 10 left``: the
    count said with a word, not beside the card's number)."""
    left = _("{card}: {count} left")
    counts = ", ".join(left.format(card=name, count=n) for name, n in describe.tracker(view))
    return _("Not seen yet: {counts}.").format(counts=counts)


def table_lines(view: SeatView, tracking: bool = False) -> list[str]:
    """The table at the start of your turn (and ``r``): a line per side,
    the piles, the card tracker if it is on, your hand."""
    lines = [side_line(view, side) for side in range(1, view.rules.sides + 1)]
    top = card_name(view.discard[-1]) if view.discard else _("empty")
    line = ngettext(
        "Deck: {count} card. Discard pile: {top}.",
        "Deck: {count} cards. Discard pile: {top}.",
        view.deck_size,
    )
    lines.append(line.format(count=view.deck_size, top=top))
    if tracking:
        lines.append(tracker_line(view))
    lines.append(hand_line(view))
    return lines


def score_lines(view: SeatView) -> list[str]:
    """``w`` and the end of a hand: every score row for every side."""
    rules = view.rules
    names = [side_name(rules, side, view.reader, view.names) for side in range(1, rules.sides + 1)]
    rows = describe.score_table(view)
    width = max(text_width(name) for name in names + [label for label, _v in rows])
    sides = ", ".join(
        _("side {side} {name}").format(side=i, name=name) for i, name in enumerate(names, 1)
    )
    lines = [_("Scores: {sides}").format(sides=sides)]
    score = _("{name}: {score}")  # each value says whose it is
    row = _("{label}:")
    for label, values in rows:
        pad = " " * (width - text_width(label))
        said = [score.format(name=name, score=v) for name, v in zip(names, values, strict=True)]
        lines.append(f"  {row.format(label=label)}{pad} " + ", ".join(said))
    return lines


def event_lines(view: SeatView, event: Event) -> list[str]:
    """What ``event`` did, in the log's words, but a first milestone that
    makes the whole distance said once (``Comp 1 played 100 miles``, not
    ``Comp 1 played 100: 100 miles``: a listener hears no number twice)."""
    lines = describe.describe(view, event)
    outcome = event.outcome
    rules = view.rules
    if (
        len(lines) != 1
        or not isinstance(outcome.move, Use)
        or outcome.card > D200
        or VALUES[outcome.card] != event.mileage
        or describe.is_team_game(rules)
    ):
        return lines
    miles = event.mileage
    if outcome.seat == view.reader and not event.stand_in:
        return [_("You played {miles} miles").format(miles=miles)]
    who = describe.seat_name(rules, outcome.seat, view.reader, view.names)
    if event.stand_in:
        who = describe.stand_in_name(who)
    return [_("{who} played {miles} miles").format(who=who, miles=miles)]


def hand_so_far(view: SeatView, log: list[Event]) -> list[str]:
    """``l``: every move of this hand since the deal."""
    lines = describe.hand_lines(view, log)
    if not lines:
        return [_("The hand so far: nothing yet.")]
    return [_("The hand so far:")] + ["  " + line for line in lines]


def wrap(text: str, columns: int) -> str:
    """``text``'s lines cut between words to fit ``columns`` (0: as they
    are), widths in a terminal's columns; a line's continuation keeps its
    indent; a word wider than the line stays whole; a no-break space
    never breaks.

    >>> print(wrap("  Milestones Played: You: 0, Comp 1: 0", 22))
      Milestones Played:
      You: 0, Comp 1: 0
    """
    if columns <= 0:
        return text
    return "\n".join(_wrap_line(line, columns) for line in text.split("\n"))


def _wrap_line(line: str, columns: int) -> str:
    if text_width(line) <= columns:
        return line
    indent = line[: len(line) - len(line.lstrip(" "))]
    rows: list[str] = []
    row = ""
    for word in line[len(indent) :].split(" "):
        if row and text_width(indent + row + " " + word) > columns:
            rows.append(indent + row)
            row = word
        else:
            row = f"{row} {word}" if row else word
    rows.append(indent + row)
    return "\n".join(rows)
