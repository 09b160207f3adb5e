"""Words for the table: names of seats and sides, what a move did, score rows.

The N-seat board and the line mode say the same things in the same words;
this module is where those words live.  Names are relative to the seat
reading (``viewer``, always said: no seat reads by default): that seat is ``You``, a person
is called by name (``names``, by seat: ``SeatView.names``), the other
seats of the reader's side are partners, the rest computers (``Comp N``).  Sides are numbered 1..S as in the spec (a hazard names its
target by that number); in a team game each side is also a team letter.

No curses, no I/O.

>>> from mille.engine.rules import find_rules
>>> classic4 = find_rules("classic", players=4)
>>> [seat_name(classic4, seat, 0) for seat in range(4)]
['You', 'Comp 1', 'Partner', 'Comp 3']
>>> side_name(classic4, 1, 0), side_members(classic4, 2, 0)
('Team A', 'Comp 1, Comp 3')
>>> side_name(find_rules("milebymile", players=3), 3, 0)
'Comp 2'
>>> names = {0: "Ann", 2: "Bob"}
>>> [seat_name(classic4, seat, 2, names) for seat in range(4)]
['Ann', 'Comp 1', 'You', 'Comp 3']
>>> side_members(classic4, 1, 0, names), side_name(classic4, 1, 2, names)
('You, Bob', 'Team A')
"""

from __future__ import annotations

from ..i18n import N_, _, ngettext, pgettext
from .cards import (
    D200,
    EXTRA_TANK,
    HAZARDS,
    NO_CARD,
    NUM_SAFETIES,
    SAFETIES,
)
from .cards import (
    card_name as _card_key,
)
from .rules import other_side

TYPE_CHECKING = False  # no typing import at run time (start-up)
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from .rules import Rules
    from .table import Event, HandScore, Use
    from .view import SeatView

NO_NAMES: dict[int, str] = {}
SAFETY_SHORT = ("Tank", "Proof", "Ace", "RoW")  # Extra Tank .. Right of Way

# the cards' names, as shown (the engine's, in the save files, are English)
CARD_WORDS = (
    N_("25"),
    N_("50"),
    N_("75"),
    N_("100"),
    N_("200"),
    N_("Out of Gas"),
    N_("Flat Tire"),
    N_("Accident"),
    N_("Stop"),
    N_("Speed Limit"),
    N_("Gasoline"),
    N_("Spare Tire"),
    N_("Repairs"),
    N_("Go"),
    N_("End of Limit"),
    N_("Extra Tank"),
    N_("Puncture Proof"),
    N_("Driving Ace"),
    N_("Right of Way"),
    N_("False Virtue"),
)


# the contexts of the cards' short names (tools/catalogs.py lists every card in each)
CARD_CONTEXTS = (
    "card name, at most 18 columns",
    "card name, at most 14 columns",
    "card name, at most 10 columns",
)


def card_name(card: int) -> str:
    """A card's name as shown, in the language chosen (``""`` for ``NO_CARD``)."""
    return _(_card_key(card)) if card >= 0 else ""


def short_card_name(card: int) -> str:
    """A card's name where BSD's board has 18 columns for it (in English
    the name itself; a translation may be shorter there)."""
    return pgettext("card name, at most 18 columns", _card_key(card)) if card >= 0 else ""


def tracker_name(card: int) -> str:
    """A card's name where the card tracker has 14 columns for it."""
    return pgettext("card name, at most 14 columns", _card_key(card)) if card >= 0 else ""


def column_name(card: int) -> str:
    """A card's name where the row board's Battle column has 10 columns
    for it (in English the name itself)."""
    return pgettext("card name, at most 10 columns", _card_key(card)) if card >= 0 else ""


def fitting_name(card: int, room: int) -> str:
    """The longest of a card's names that takes at most ``room`` columns
    (its name, then its 18-, 14- and 10-column names), cut if none does:
    in English the name itself where the boards leave room for it."""
    from .text import fit, width

    names = (card_name(card), short_card_name(card), tracker_name(card), column_name(card))
    return next((name for name in names if width(name) <= room), fit(names[-1], room))


def safety_short(index: int) -> str:
    """A safety's short mark: 0 Extra Tank .. 3 Right of Way."""
    if index == 0:
        return pgettext("short safety", "Tank")
    if index == 1:
        return pgettext("short safety", "Proof")
    if index == 2:
        return pgettext("short safety", "Ace")
    return pgettext("short safety", "RoW")


# the engine's refusals (its IllegalMove messages and check's reasons), shown
# translated: the engine keeps its English words (BSD's, fast, in the tests)
REFUSALS = (
    N_("already picked"),
    N_("can't attack your own side"),
    N_("cannot move now"),
    N_("discard a safety?"),
    N_("limit of 50"),
    N_("must pick first"),
    N_("no card there"),
    N_("no more cards"),
    N_("no question pending"),
    N_("no such opponent"),
    N_("only two 200's per hand"),
    N_("opponent cannot go"),
    N_("opponent has karma"),
    N_("opponent has limit"),
    N_("opponent has not started"),
    N_("opponent is protected"),
    N_("that card is playable"),
    N_("the hand is over"),
    N_("which opponent?"),
    N_("you still have karma"),
    N_("extension decision pending"),
    N_("coup fourre decision pending"),
    N_("not your turn"),
)
_CARD_REFUSALS = (
    ("can't play \"", '"', N_('can\'t play "{card}"')),
    ('opponent already has "', '"', N_('opponent already has "{card}"')),
    ('cannot play "Go" on a "', '"', N_('cannot play "Go" on a "{card}"')),
)


def refusal(reason: str) -> str:
    """An engine's refusal (``check``'s reason, an ``IllegalMove``'s text)
    in the language chosen; as it is in English.

    >>> refusal("no card there"), refusal("puts you over 700")
    ('no card there', 'puts you over 700')
    """
    if reason in REFUSALS:
        return _(reason)
    for head, tail, template in _CARD_REFUSALS:
        if reason.startswith(head) and reason.endswith(tail):
            name = reason[len(head) : len(reason) - len(tail)]
            if name.isdigit() or name[:1].isupper():
                card = _(name) if name in CARD_WORDS else name
                if template.startswith("cannot play"):
                    return _(template).format(card=card).replace('"Go"', f'"{_("Go")}"')
                return _(template).format(card=card)
    if reason.startswith("puts you over ") and reason[14:].isdigit():
        return _("puts you over {miles}").format(miles=reason[14:])
    return _(reason)


def is_team_game(rules: Rules) -> bool:
    return rules.sides < rules.players


def seat_name(
    rules: Rules, seat: int, viewer: int | None, names: Mapping[int, str] = NO_NAMES
) -> str:
    """``seat`` as ``viewer`` calls it: ``You``, a person's name,
    ``Partner`` (``Partner 2``... with several), ``Comp N`` (viewer None:
    nobody's, as a page all the people read)."""
    if seat == viewer:
        return _("You")
    name = names.get(seat)
    if name is not None:
        return person_name(seat, name)
    if viewer is not None and rules.side_of(seat) == rules.side_of(viewer):
        partners = [s for s in rules.members(rules.side_of(viewer)) if s != viewer]
        return _("Partner") if len(partners) == 1 else _("Partner {seat}").format(seat=seat)
    return _("Comp {seat}").format(seat=seat)


def person_name(seat: int, name: str) -> str:
    """A seat's name as shown: the names mille gives, ``Player N`` to a
    person not named and ``Comp N`` to a computer (the session's, the save
    file's and the protocol's), in the language chosen; a name given as it
    is (no one may be called so: ``game.limits.check_name``).

    >>> person_name(2, "Player 2"), person_name(2, "Ann"), person_name(3, "Comp 3")
    ('Player 2', 'Ann', 'Comp 3')
    """
    if name == f"Player {seat}":
        return _("Player {seat}").format(seat=seat)
    if name == f"Comp {seat}":
        return _("Comp {seat}").format(seat=seat)
    return name


def stand_in_name(who: str) -> str:
    """Who made a move a computer made for an absent person (``who``, as
    the viewer names the seat).

    >>> stand_in_name("Bob"), stand_in_name("You")
    ('Computer (for Bob)', 'Computer (for you)')
    """
    if who == _(YOU_WORD):
        return _("Computer (for you)")
    return _("Computer (for {name})").format(name=who)


YOU_WORD = "You"


def team_letter(side: int) -> str:
    return chr(ord("A") + side - 1)


def side_name(
    rules: Rules, side: int, viewer: int | None, names: Mapping[int, str] = NO_NAMES
) -> str:
    """A side as ``viewer`` knows it: its one player's name, or ``Team X``."""
    if is_team_game(rules):
        return _("Team {letter}").format(letter=team_letter(side))
    return seat_name(rules, rules.members(side)[0], viewer, names)


def side_members(
    rules: Rules, side: int, viewer: int | None, names: Mapping[int, str] = NO_NAMES
) -> str:
    """The names of a side's players, ``You, Partner``."""
    return ", ".join(seat_name(rules, seat, viewer, names) for seat in rules.members(side))


def side_label(
    rules: Rules, side: int, viewer: int | None, names: Mapping[int, str] = NO_NAMES
) -> str:
    """``2 Comp 1``, ``1 Team A``: the number a hazard names, then the name."""
    return f"{side} {side_name(rules, side, viewer, names)}"


def opponents(rules: Rules, seat: int) -> list[int]:
    """The sides a hazard of ``seat`` may name."""
    own = rules.side_of(seat)
    return [side for side in range(1, rules.sides + 1) if side != own]


def hazard_targets(view: SeatView, slot: int) -> list[int]:
    """The sides the hazard in ``slot`` may hit now, by the engine's check
    (none before the pick, or when it is not your turn).

    >>> from mille.engine.rules import find_rules
    >>> from mille.engine.table import PICK, Table
    >>> from mille.engine.view import SeatView
    >>> from mille.engine.cards import STOP, SPEED_LIMIT
    >>> import random
    >>> t = Table.new(find_rules("classic", players=3), random.Random(1))
    >>> t.apply(PICK) and None
    >>> t.hands[0][1], t.hands[0][2] = STOP, SPEED_LIMIT
    >>> hazard_targets(SeatView(t, 0), 1), hazard_targets(SeatView(t, 0), 2)
    ([], [2, 3])
    """
    from .moves import Use

    return [
        side for side in opponents(view.rules, view.seat) if view.check(Use(slot, side)) is None
    ]


def no_target(view: SeatView, slot: int) -> str:
    """Why the hazard in ``slot`` can hit no side: the engine's reason, or
    each reason with the sides it holds for.

    >>> from mille.engine.rules import find_rules
    >>> from mille.engine.table import PICK, Table
    >>> from mille.engine.view import SeatView
    >>> from mille.engine.cards import STOP
    >>> import random
    >>> t = Table.new(find_rules("classic", players=3), random.Random(1))
    >>> t.apply(PICK) and None
    >>> t.hands[0][1] = STOP
    >>> no_target(SeatView(t, 0), 1)
    'opponent has not started'
    """
    from .moves import Use

    reasons: dict[str, list[int]] = {}
    for side in opponents(view.rules, view.seat):
        reasons.setdefault(view.check(Use(slot, side)) or "", []).append(side)
    if len(reasons) == 1:
        return refusal(next(iter(reasons)))
    return _("; ").join(
        ngettext("{reason} (side {sides})", "{reason} (sides {sides})", len(sides)).format(
            reason=refusal(reason), sides=", ".join(map(str, sides))
        )
        for reason, sides in reasons.items()
    )


def needs_target(rules: Rules, card: int) -> bool:
    """A hazard with two or more opposing sides must name its target."""
    return card in HAZARDS and rules.sides > 2


# ----- what a side shows ------------------------------------------------------


def tops(view: SeatView, side: int) -> tuple[str, str]:
    """The battle and speed cards the side shows (``""`` for none)."""
    battle, speed = top_cards(view, side)
    return card_name(battle), card_name(speed)


def top_cards(view: SeatView, side: int) -> tuple[int, int]:
    """The battle and speed cards the side shows, as cards (``NO_CARD``
    for none)."""
    return view.model.tops(view.tableaux[side - 1])


def safety_marks(view: SeatView, side: int) -> list[str]:
    """The side's safeties, short, with ``*`` after a coup fourre's."""
    tab = view.tableaux[side - 1]
    shown = []
    for index in range(NUM_SAFETIES):
        card = EXTRA_TANK + index
        if card in tab.safeties:
            shown.append(safety_short(index) + ("*" if tab.coups[index] else ""))
    return shown


# ----- the log ----------------------------------------------------------------


def describe(view: SeatView, event: Event) -> list[str]:
    """What ``event`` did, in the words of the log, as the view's seat may
    see it (empty when there is nothing to tell: another seat's pick, a
    coup fourre declined by someone else)."""
    from .table import EXTENSION, Answer, Discard, Pick

    rules = view.rules
    viewer = view.reader
    names = view.names
    outcome = event.outcome
    who = seat_name(rules, outcome.seat, viewer, names)
    if event.stand_in:  # a computer played for the person, away: credited to it
        who = stand_in_name(who)
    move = outcome.move
    lines: list[str] = []
    mine = outcome.seat == viewer and not event.stand_in

    def say(yours: str, theirs: str, **fields: object) -> None:
        """A line in the words for the reader's own move, or another's (a
        language may conjugate them apart)."""
        lines.append((yours if mine else theirs).format(who=who, **fields))

    if isinstance(move, Pick):
        if outcome.seat == view.seat and NO_CARD not in outcome.drawn:  # the view's own draw
            cards = _(" and ").join(card_name(c) for c in outcome.drawn)
            say(_("You drew {cards}"), _("{who} drew {cards}"), cards=cards)
    elif isinstance(move, Answer):
        if outcome.coup_fourre:
            say(
                _("You: Coup Fourre! {card}, another turn"),
                _("{who}: Coup Fourre! {card}, another turn"),
                card=card_name(outcome.card),
            )
        elif event.phase == EXTENSION:
            if move.yes:
                say(_("You went for the extension"), _("{who} went for the extension"))
            else:
                say(_("You did not go for the extension"), _("{who} did not go for the extension"))
        elif outcome.seat == view.seat:
            say(_("You let the coup fourre go"), _("{who} let the coup fourre go"))
    elif isinstance(move, Discard):
        say(_("You discarded {card}"), _("{who} discarded {card}"), card=card_name(outcome.card))
    else:
        _played(view, event, move, say)
    lines.extend(notice(text) for text in event.notices)
    return lines


def _played(view: SeatView, event: Event, move: Use, say: Callable[..., None]) -> None:
    """:func:`describe`'s line for a card played (``say``: its words for
    the reader's own move, or another's)."""
    rules = view.rules
    outcome = event.outcome
    card = outcome.card
    name = card_name(card)
    side = rules.side_of(outcome.seat)
    if card <= D200:
        miles = event.mileage
        if is_team_game(rules):
            whose = side_name(rules, side, view.reader, view.names)
            say(
                _("You played {card}: {side} {miles} miles"),
                _("{who} played {card}: {side} {miles} miles"),
                card=name,
                side=whose,
                miles=miles,
            )
        else:
            say(
                _("You played {card}: {miles} miles"),
                _("{who} played {card}: {miles} miles"),
                card=name,
                miles=miles,
            )
    elif card in HAZARDS:
        target = move.target if move.target is not None else other_side(side)
        target_name = side_name(rules, target, view.reader, view.names)
        say(
            _("You played {card} on side {side} ({name})"),
            _("{who} played {card} on side {side} ({name})"),
            card=name,
            side=target,
            name=target_name,
        )
    elif card in SAFETIES:
        if outcome.coup_fourre:
            say(
                _("You played {card}: Coup Fourre! another turn"),
                _("{who} played {card}: Coup Fourre! another turn"),
                card=name,
            )
        else:
            say(
                _("You played {card}: another turn"),
                _("{who} played {card}: another turn"),
                card=name,
            )
    else:
        say(_("You played {card}"), _("{who} played {card}"), card=name)


NOTICES = (N_("discard pile reshuffled"), N_("karma clash: both lose karma"))


def notice(text: str) -> str:
    """A notice of the engine (an event's: the reshuffle, karma), in the
    language chosen; the events (and the save files) keep the English."""
    head, _space, rest = text.partition(" ")
    number, _space, tail = rest.partition(" ")
    if head == "side" and number.isdigit():
        if tail == "regains karma":
            return _("side {side} regains karma").format(side=number)
        if tail == "loses karma":
            return _("side {side} loses karma").format(side=number)
    return _(text)


def recent(log: list[Event], viewer: int) -> int:
    """Where "since your last turn" starts in a hand's ``log``: at
    ``viewer``'s last move that ended a turn (a use or discard that passed
    the turn: what it did is shown with what came after), 0 if it has not
    moved yet."""
    from .table import Answer, Pick

    for index in range(len(log) - 1, -1, -1):
        outcome = log[index].outcome
        if (
            outcome.seat == viewer
            and not isinstance(outcome.move, (Pick, Answer))
            and not outcome.extra_turn
        ):
            return index
    return 0


# ----- the card tracker ---------------------------------------------------------


def unseen(view: SeatView) -> list[int]:
    """How many of each card the view's seat cannot see now (the deck and
    the other hands together), by card number (False Virtue last with
    karma).

    A card that was seen and went back into the deck by a reshuffle counts
    as unseen again: where it is, nobody knows.
    """
    counts = view.unseen()
    if not view.rules.false_virtues:
        counts.pop()
    return counts


def tracker(view: SeatView) -> list[tuple[str, int]]:
    """The tracker's rows: each card's name and how many are unseen."""
    return [(card_name(card), n) for card, n in enumerate(unseen(view))]


# ----- scores -------------------------------------------------------------


def score_rows(rules: Rules) -> list[tuple[str, str]]:
    """The preset's hand rows: (label, HandScore attribute), in BSD's order."""
    scoring = rules.scoring
    rows = [
        (_("Milestones Played"), "miles"),
        (_("Each Safety"), "safeties"),
        (_("All 4 Safeties"), "all_four"),
        (_("Coup Fourre"), "coups"),
        (_("Trip Completed"), "trip"),
        (_("Safe Trip"), "safe_trip"),
    ]
    if scoring.delayed_action is not None:
        rows.append((_("Delayed Action"), "delayed_action"))
    if scoring.extension is not None and rules.extension is not None:
        rows.append((_("Extension"), "extension"))
    rows.append((_("Shut-Out"), "shut_out"))
    if scoring.perfect_crossing is not None:
        rows.append((_("Perfect Crossing"), "perfect_crossing"))
    return rows


def score_table(table: SeatView) -> list[tuple[str, list[int]]]:
    """Every row of the hand's scoring for every side, then ``Hand Total``,
    ``Overall Total`` and ``Games`` (a side's hand total is the sum of its
    rows; its overall total is the banked total plus the hand's)."""
    sides = range(1, table.rules.sides + 1)
    scores: list[HandScore] = [table.hand_score(side) for side in sides]
    rows = [
        (label, [getattr(score, name) for score in scores])
        for label, name in score_rows(table.rules)
    ]
    rows.append((_("Hand Total"), [score.total for score in scores]))
    rows.append((_("Overall Total"), [table.total(side) for side in sides]))
    rows.append((_("Games"), games_won(table)))
    return rows


def games_won(table: SeatView) -> list[int]:
    """Each side's games won, the game this hand has just won counted (the
    table counts it only when the next hand is dealt).

    >>> from mille.engine.rules import find_rules
    >>> import random
    >>> from mille.engine.table import OVER, Table
    >>> from mille.engine.view import SeatView
    >>> t = Table.new(find_rules("classic", players=3), random.Random(1))
    >>> t.phase, t.totals = OVER, [5100, 200, 0]
    >>> games_won(SeatView(t, 0)), t.games
    ([1, 0, 0], [0, 0, 0])
    """
    games = table.games[:]
    if table.game_over:
        totals = [table.total(side) for side in range(1, table.rules.sides + 1)]
        best = max(totals)
        if totals.count(best) == 1:  # bsd: a tie wins nobody the game
            games[totals.index(best)] += 1
    return games


def hand_result(table: SeatView) -> str:
    """One line on how the hand ended (after it is over)."""
    rules = table.rules
    side = table.completing_side()
    if side is None:
        return _("The hand is over: nobody completed the trip.")
    miles = table.tableaux[side - 1].mileage
    if not is_team_game(rules) and rules.members(side)[0] == table.reader:
        return _("You complete the trip ({miles} miles).").format(miles=miles)
    who = side_name(rules, side, table.reader, table.names)
    return _("{who} completes the trip ({miles} miles).").format(who=who, miles=miles)


def game_result(table: SeatView, shared: bool = False) -> str | None:
    """Who won the game, once a hand ends it; None otherwise.  ``shared``:
    read by several people at one keyboard, so the winner is named, never
    ``You``."""
    if not table.game_over:
        return None
    totals = [table.total(side) for side in range(1, table.rules.sides + 1)]
    best = max(totals)
    if totals.count(best) > 1:
        return _("The game is over: a tie on top, nobody wins it.")
    side = totals.index(best) + 1
    reader = None if shared else table.reader
    if (
        reader is not None
        and not is_team_game(table.rules)
        and table.rules.members(side)[0] == reader
    ):
        return _("You win the game with {points}.").format(points=best)
    who = side_name(table.rules, side, reader, table.names)
    return _("{who} wins the game with {points}.").format(who=who, points=best)


NOT_KEPT = N_("(the moves before your last turn were not kept with the saved game)")


def log_from_deal(view: SeatView, log: list[Event]) -> bool:
    """Whether ``log`` holds the whole hand since the deal: every card out
    of the deck and the hands (on the table, the discard pile, set aside)
    was put there by a move of the log.  A saved game keeps the log from
    your last turn only; a reshuffle puts cards back in the deck, so then
    the log may hold more cards than are out, never fewer.

    >>> from mille.game.session import Session
    >>> from mille.engine.table import PICK, Discard
    >>> s = Session.new(seed=3)
    >>> _ = s.play(PICK), s.play(Discard(1))
    >>> log_from_deal(s.view(0), s.log), log_from_deal(s.view(0), s.log[2:])
    (True, False)
    """
    from .table import Answer, Pick, deck_cards

    placed = sum(
        1
        for event in log
        if not isinstance(event.outcome.move, (Pick, Answer)) or event.outcome.coup_fourre
    )
    out = len(deck_cards(view.rules)) - view.deck_size - sum(view.hand_sizes)
    return placed >= out


def hand_lines(view: SeatView, log: list[Event]) -> list[str]:
    """The whole hand so far as the view's seat saw it, in the log's words
    (every event of ``log``, the hand's log since the deal), then how it
    ended once it is over."""
    lines = [] if log_from_deal(view, log) else [_(NOT_KEPT)]
    lines += [line for event in log for line in describe(view, event)]
    return lines + end_lines(view)


def end_lines(view: SeatView, shared: bool = False) -> list[str]:
    """How the hand ended, and the game if it did (none before the end;
    ``shared``: as :func:`game_result`)."""
    from .table import OVER

    if view.phase != OVER:
        return []
    result = game_result(view, shared)
    return [hand_result(view)] + ([result] if result is not None else [])


# ----- the options in force -----------------------------------------------------


def option_words(rules: Rules, level: str = "standard") -> list[str]:
    """Every option of the game, in the command line's words: the distance
    and winning score, milebymile's on/off options, the computers' level.

    >>> from mille.engine.rules import find_rules
    >>> option_words(find_rules("classic", players=3))
    ['700 miles (1000 after an extension)', 'game 5000 points', 'standard computers']
    >>> option_words(find_rules("milebymile", players=4, stacking=True), "expert")[2:5]
    ['perfect crossing', 'stacking', 'reshuffle']
    >>> option_words(find_rules("milebymile", players=4, karma=True), "expert")[6:]
    ['rigging none', 'karma', 'expert computers']
    """
    if rules.extension is not None:
        miles = _("{miles} miles ({extension} after an extension)").format(
            miles=rules.target, extension=rules.extension
        )
    else:
        miles = _("{miles} miles").format(miles=rules.target)
    words = [miles, _("game {points} points").format(points=rules.winning_score)]
    if rules.name == "milebymile":
        words += [
            _("perfect crossing") if rules.perfect_crossing else _("no perfect crossing"),
            _("stacking") if rules.stacking else _("no stacking"),
            _("reshuffle") if rules.reshuffle else _("no reshuffle"),
            _("always discard") if rules.always_discard else _("no always discard"),
            _("rigging {rigging}").format(rigging=rigging_name(rules.rigging)),
            _("karma") if rules.karma else _("no karma"),
        ]
    shown = level_name(level)
    words.append(
        _("{level} computer").format(level=shown)
        if rules.players == 2
        else _("{level} computers").format(level=shown)
    )
    return words


def level_name(level: str) -> str:
    """A computers' level as shown (``--level`` takes the English word)."""
    names = {"easy": N_("easy"), "standard": N_("standard"), "expert": N_("expert")}
    return _(names[level]) if level in names else level


def rigging_name(rigging: str) -> str:
    """Mile by Mile's rigging as shown (``--rigging`` takes the English words)."""
    names = {
        "none": N_("none"),
        "no duplicates": N_("no duplicates"),
        "2x attacks": N_("2x attacks"),
        "2x defenses": N_("2x defenses"),
    }
    return _(names[rigging]) if rigging in names else rigging


def option_summary(rules: Rules, level: str = "standard") -> list[str]:
    """The options that differ from the preset's defaults, short, then the
    computers' level: what the board's status line shows (the distance is
    on its top row).

    >>> from mille.engine.rules import find_rules
    >>> option_summary(find_rules("milebymile", players=6, team_mode="2v2v2", karma=True,
    ...                           reshuffle=False, perfect_crossing=False), "expert")
    ['no perfect crossing', 'no reshuffle', 'karma', 'expert']
    >>> option_summary(find_rules("classic", players=2))
    ['standard']
    """
    words = []
    if rules.winning_score != 5000:
        words.append(_("game {points}").format(points=rules.winning_score))
    if rules.name == "milebymile":
        if not rules.perfect_crossing:
            words.append(_("no perfect crossing"))
        if rules.stacking:
            words.append(_("stacking"))
        if not rules.reshuffle:
            words.append(_("no reshuffle"))
        if not rules.always_discard:
            words.append(_("no always discard"))
        if rules.rigging != "none":
            words.append(_("rigging {rigging}").format(rigging=rigging_name(rules.rigging)))
        if rules.karma:
            words.append(_("karma"))
    return words + [level_name(level)]


def mileage_left(table: SeatView, side: int) -> int:
    return max(table.target - table.tableaux[side - 1].mileage, 0)


__all__ = [
    "card_name",
    "describe",
    "refusal",
    "short_card_name",
    "end_lines",
    "game_result",
    "games_won",
    "hand_lines",
    "hand_result",
    "is_team_game",
    "option_summary",
    "option_words",
    "mileage_left",
    "needs_target",
    "recent",
    "tracker",
    "unseen",
    "opponents",
    "safety_marks",
    "score_rows",
    "score_table",
    "seat_name",
    "side_label",
    "side_members",
    "side_name",
    "team_letter",
    "tops",
]
