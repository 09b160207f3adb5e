"""People at one table: any seat a person, with a name; what each seat
reads of the moves (its event stream); names relative to the seat reading."""

from __future__ import annotations

import io
import json

import pytest
from test_table_classic import build

from mille.engine.cards import FLAT_TIRE, GO, PUNCTURE_PROOF
from mille.engine.describe import describe, hand_result, seat_name, side_members
from mille.engine.rules import find_rules
from mille.engine.table import NO, PICK, Use
from mille.game.session import Session, check_name
from mille.storage.savefile import SaveError, dumps, loads
from mille.storage.shapes import event_to_dict

CLASSIC4 = find_rules("classic", players=4)


def test_people_have_names_and_the_others_are_computers() -> None:
    s = Session.new(CLASSIC4, seed=1, humans=(0, 2), names={0: "Ann"})
    assert s.people == {0: "Ann", 2: "Player 2"} and sorted(s.computers) == [1, 3]
    assert [s.name(seat) for seat in range(4)] == ["Ann", "Comp 1", "Player 2", "Comp 3"]
    assert s.is_person(2) and not s.is_person(3)


def test_names_are_relative_to_the_seat_reading() -> None:
    names = {0: "Ann", 2: "Bob"}
    assert [seat_name(CLASSIC4, seat, 0, names) for seat in range(4)] == [
        "You",
        "Comp 1",
        "Bob",
        "Comp 3",
    ]
    assert side_members(CLASSIC4, 1, 2, names) == "Ann, You"
    # a computer partner is still "Partner"
    assert seat_name(CLASSIC4, 2, 0, {0: "Ann"}) == "Partner"
    mbm = find_rules("milebymile", players=3)
    s = Session.new(mbm, seed=3, humans=(0, 1), names={0: "Ann", 1: "Bob"})
    s.table.phase = "hand over"
    miles = s.table.tableaux[1].mileage = s.table.target
    assert hand_result(s.view(1)) == f"You complete the trip ({miles} miles)."
    assert hand_result(s.view(0)) == f"Bob completes the trip ({miles} miles)."


@pytest.mark.parametrize(
    "name,message",
    [
        ("", "a name cannot be empty"),
        ("A" * 17, "a name has at most 16 characters (a wide one counts two)"),
        ("\u5c71" * 9, "a name has at most 16 characters (a wide one counts two)"),
        (
            "a" + "\u0301" * 60,  # one column, 61 characters
            "a name has at most 32 characters, taking 16 columns (a wide one counts two)",
        ),
        (
            "q\u0301\u0301" * 11,
            "a name has at most 32 characters, taking 16 columns (a wide one counts two)",
        ),
        ("Ann,Bob", "'Ann,Bob': a name is printable, without ',' or '=' or spaces at its ends"),
        (" Ann", "' Ann': a name is printable, without ',' or '=' or spaces at its ends"),
        ("a\tb", "'a\\tb': a name is printable, without ',' or '=' or spaces at its ends"),
        ("You", "'You' is a name mille gives a seat"),
        ("comp 3", "'comp 3' is a name mille gives a seat"),
        ("Partner", "'Partner' is a name mille gives a seat"),
        ("Team B", "'Team B' is a name mille gives a seat"),
    ],
)
def test_bad_names(name: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        check_name(name)
    assert str(info.value) == message


def test_a_name_is_measured_by_its_width_on_screen() -> None:
    """16 columns at most: 8 wide (CJK) characters, 16 letters with their
    accents written as combining marks, composed (NFC) as the limits count
    them; 32 characters at most (a letter and a mark no character composes)."""
    from mille.engine.text import fit, shorten, width

    assert check_name("\u5c71\u7530\u592a\u90ce" * 2) == "\u5c71\u7530\u592a\u90ce" * 2
    accented = "e\u0301" * 16
    assert check_name(accented) == "\u00e9" * 16 and width(accented) == 16
    marked = "q\u0301" * 16  # no composed q with an acute: 32 characters, 16 columns
    assert check_name(marked) == marked
    assert width("\uff21\uff22") == 4  # full-width letters: two columns each
    assert fit("\u5c71\u7530\u592a", 5) == "\u5c71\u7530" and fit("e\u0301x", 1) == "e\u0301"
    assert shorten("\u5c71" * 10, 9) == "\u5c71\u5c71\u5c71..." and shorten("abc", 3) == "abc"


def test_names_are_saved_and_loaded() -> None:
    s = Session.new(CLASSIC4, seed=2, humans=(0, 2), names={0: "Ann", 2: "Bob"})
    data = json.loads(dumps(s))
    assert [seat.get("name") for seat in data["seats"]] == ["Ann", None, "Bob", None]
    assert loads(dumps(s)).people == {0: "Ann", 2: "Bob"}
    # one person, unnamed: the file is as before (no name key)
    plain = json.loads(dumps(Session.new(seed=2)))
    assert plain["seats"][0] == {"control": "human"}
    assert loads(dumps(Session.new(seed=2))).people == {0: "Player 0"}


@pytest.mark.parametrize(
    "name,message",
    [
        ("You", "seats[2].name: 'You' is a name mille gives a seat"),
        ("Ann", "seats[2].name: 'Ann' is another seat's name too"),
        (3, "seats[2].name: expected a string, got 3"),
    ],
)
def test_bad_names_in_a_file(name: object, message: str) -> None:
    data = json.loads(dumps(Session.new(CLASSIC4, seed=2, humans=(0, 2), names={0: "Ann"})))
    data["seats"][2]["name"] = name
    with pytest.raises(SaveError) as info:
        loads(json.dumps(data))
    assert message in str(info.value)


def test_each_seat_reads_its_own_event_stream() -> None:
    # seat 0 hits seat 1 (a person holding Puncture Proof), who lets the coup
    # go (made as the log records moves: three people would have it called)
    t = build(3, hands={1: [PUNCTURE_PROOF]}, picked={0: FLAT_TIRE}, sides={2: {"battle": [GO]}})
    s = Session(table=t, computers={}, deal_rng=__import__("random").Random(1))
    s.people = {0: "Ann", 1: "Bob", 2: "Cy"}
    s._apply(Use(0, 2))
    s._apply(NO)
    s._apply(PICK)
    assert len(s.log) == 3
    bob, ann = s.events(1), s.events(0)
    assert [e.outcome.move for e in bob] == [Use(0, 2), NO, PICK]
    assert [e.outcome.move for e in ann] == [Use(0, 2), PICK]  # the n is not seen
    assert ann[1].outcome.drawn == (-1,) * len(s.log[2].outcome.drawn)  # a count
    assert describe(s.view(0), ann[0]) == ["You played Flat Tire on side 2 (Bob)"]
    assert describe(s.view(1), bob[0]) == ["Ann played Flat Tire on side 2 (You)"]
    assert describe(s.view(1), bob[1]) == ["You let the coup fourre go"]
    assert s.events(0, start=2) == ann[1:]
    # plain JSON values (hidden cards are null)
    value = event_to_dict(ann[1])
    assert json.loads(json.dumps(value)) == value and value["drawn"] == [None] * len(
        ann[1].outcome.drawn
    )


@pytest.mark.parametrize(
    "argv,message",
    [
        (
            ["--people", "0=Ann,x"],
            "mille: --people: x is not SEAT or SEAT=NAME (for example 0=Ann,2=Bob)",
        ),
        (
            ["--people", "0="],
            "mille: --people: 0= is not SEAT or SEAT=NAME (for example 0=Ann,2=Bob)",
        ),
        (["--people", "2=Bob"], "mille: --people: no seat 2 at a table of 2 (seats 0 to 1)"),
        (
            ["--rules", "classic", "--players", "4", "--people", "0,0=Ann"],
            "mille: --people: seat 0 twice",
        ),
        (["--people", "0=Ann,1=Ann"], "mille: --people: two people named Ann"),
        (["--people", "0=You"], "mille: --people: 'You' is a name mille gives a seat"),
        (
            ["--people", "0=Ann", "saved.game"],
            "mille: --people cannot be used with a file: "
            "a saved game keeps its own rules, people, level and deal",
        ),
    ],
)
def test_bad_people_on_the_command_line(argv: list[str], message: str) -> None:
    from mille.frontends.cli import UsageError, parse_args

    with pytest.raises(UsageError) as info:
        parse_args(argv)
    assert str(info.value) == message


@pytest.mark.parametrize(
    "argv,people",
    [
        (["--people", "0=Ann,1=Bob"], ((0, "Ann"), (1, "Bob"))),
        (["--rules", "classic", "--players", "4", "--people", "2,0=Ann"], ((2, None), (0, "Ann"))),
        (["--rules", "milebymile", "--players", "9", "--people", "8=Zoé"], ((8, "Zoé"),)),
        ([], None),
    ],
)
def test_people_on_the_command_line(argv: list[str], people: object) -> None:
    from mille.frontends.cli import parse_args

    options = parse_args(argv)
    assert options.people == people and options.chosen == bool(argv)


def test_o_keeps_the_peoples_hands_in_order_not_seat_0s() -> None:
    s = Session.new(CLASSIC4, seed=4, humans=(1, 3), names={1: "Ann", 3: "Bob"})
    table = s.table
    computer_hand = table.hands[0][:]
    table.set_ordering(True)
    assert table.hands[0] == computer_hand  # seat 0 is a computer: as dealt
    for seat in (1, 3):
        assert table.hands[seat] == sorted(table.hands[seat])
    restored = loads(dumps(s))
    assert restored.table.ordered == (1, 3) and restored.table == table
    restored.table.validate()


# ----- the line mode's hot seat -------------------------------------------------


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def _line_mode(script: str, tty: bool) -> str:
    from mille.frontends import plain

    session = Session.new(CLASSIC4, seed=3, humans=(0, 2), names={0: "Ann", 2: "Bob"})
    out = _Tty() if tty else io.StringIO()
    plain.play(session, stdin=io.BytesIO(script.encode()), stdout=out)
    return out.getvalue()


def test_the_line_mode_hands_the_keyboard_on() -> None:
    out = _line_mode("\np\nd 1\n\np\nl\nq\ny\n", tty=False)
    lines = out.splitlines()
    assert lines[0].startswith(  # before anyone sits: nobody is "You"
        "mille: classic, 4 players: side 1 Team A (Ann, Bob); side 2 Team B (Comp 1, Comp 3)."
    )
    assert "Pass to Ann. Ann, press RETURN. " in lines and "Ann, you are side 1." in lines
    bob = lines.index("Pass to Bob. Bob, press RETURN. ")
    assert lines[bob + 1] == "Bob, you are side 1."
    told = lines[bob + 2 :]
    assert told[0] == "Ann discarded Out of Gas"  # Bob is told what Ann did
    assert any(line.startswith("Side 1, Team A (Ann, You): ") for line in told)
    assert "\x1b[3J" not in out  # piped: nothing to clear
    # Bob's lines and his L never show the cards Ann drew
    assert not any("Ann drew" in line for line in told)
    hand = told[told.index("The hand so far:") :]
    assert any(line.startswith("  You drew ") for line in hand)
    assert not any(line.startswith(("  Ann drew", "  Comp")) and "drew" in line for line in hand)


def test_on_a_terminal_each_hand_off_clears_the_scrollback() -> None:
    """Before ``Pass to Bob.`` (Ann's hand goes before Bob comes), and again
    after his RETURN."""
    out = _line_mode("\np\nd 1\n\nq\ny\n", tty=True)
    first_hand = out.index("Your hand: ")
    clear = "\x1b[H\x1b[2J\x1b[3J"
    cleared = out.index(clear, first_hand)
    passed = out.index("Pass to Bob. Bob, press RETURN. ")
    assert out[cleared:passed] == clear
    assert out[passed:].startswith(f"Pass to Bob. Bob, press RETURN. \n{clear}Bob, you are side 1.")


# ----- the boards' hand-off page and pause ------------------------------------------


def test_the_boards_hand_off_page_hides_the_hand() -> None:
    from test_board import FakeWindow

    from mille.frontends.table_ui import TableUi
    from support.fakewindow import OutOfKeys

    session = Session.new(CLASSIC4, seed=5, humans=(0, 2), names={0: "Ann", 2: "Bob"})
    window = FakeWindow(" ")
    with pytest.raises(OutOfKeys):
        TableUi(window, session).run()  # type: ignore[arg-type]
    page = [line.strip() for line in window.screens[0] if line.strip()]
    assert page == ["Pass to Ann.", "Ann, press a key."]
    assert "--HAND--" in window.text() and "You, Bob" in window.text()


def test_a_person_whose_side_was_hit_presses_a_key() -> None:
    from test_board import FakeWindow

    from mille.frontends import flow
    from mille.frontends.table_ui import TableUi
    from support.fakewindow import OutOfKeys

    t = build(4, picked={1: FLAT_TIRE}, sides={1: {"battle": [GO]}}, to_move=1)
    session = Session.new(CLASSIC4, seed=5, humans=(0, 2), names={0: "Ann", 2: "Bob"})
    session.table = t
    window = FakeWindow(" ")
    ui = TableUi(window, session)  # type: ignore[arg-type]
    outcome = session.play(Use(0, 1))
    with pytest.raises(OutOfKeys):
        flow.after_hazard(ui, outcome)
    assert window.prompts[0].startswith("Your side was hit: press a key")  # Ann, at the board
    assert "Pass to Bob." in "\n".join(window.screens[1])  # then Bob is called, the same way


def test_the_board_shows_your_stop_with_the_karma_clash_it_caused() -> None:
    """Issue 28: after a Stop on side 2 under karma the board showed
    ``Karma: no`` with no reason; the log now starts at your move."""
    from test_table_milebymile import build as build_mbm

    from mille.engine.cards import ACCIDENT, RIGHT_OF_WAY, STOP
    from mille.frontends.table_screen import log_lines

    t = build_mbm(3, picked={0: STOP}, hands={0: [ACCIDENT], 1: [RIGHT_OF_WAY]}, karma=True)
    session = Session(table=t, computers={}, deal_rng=__import__("random").Random(1))
    session.people = {0: "Ann", 1: "Bob", 2: "Cy"}
    session.play(Use(t.hands[0].index(STOP), 2))
    assert log_lines(session, 0)[:2] == [
        "You played Stop on side 2 (Bob)",
        "karma clash: both lose karma",
    ]
    assert log_lines(session, 1)[:2] == [
        "Ann played Stop on side 2 (You)",
        "karma clash: both lose karma",
    ]


@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_event_of_a_stream_is_plain_json_and_back(players: int) -> None:
    from mille.storage.shapes import event_from_dict

    rules = find_rules("milebymile", players=players)
    s = Session.new(rules, seed=players, humans=())
    while s.table.phase != "hand over" and len(s.log) < 300:
        s.computer_move()
    for seat in range(players):
        for event in s.events(seat):
            value = json.loads(json.dumps(event_to_dict(event)))
            assert event_from_dict(value, rules) == event


def test_a_stream_event_that_is_no_event_is_refused() -> None:
    from mille.storage.shapes import event_from_dict

    s = Session.new(seed=1)
    s.play(PICK)
    value = event_to_dict(s.events(1)[0])
    assert value["drawn"] == [None]
    value["move"] = "X"
    with pytest.raises(SaveError) as info:
        event_from_dict(value, find_rules("bsd"))
    assert str(info.value) == "event.move: expected a move (P, U3, U4>2, DP, y, n), got 'X'"
