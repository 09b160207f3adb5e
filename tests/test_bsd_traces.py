"""Replay what OpenBSD's own mille did, move by move, through our table
(``mille.engine.table``, the ``bsd`` preset) and our BSD computer.

The traces (``tests/data/bsd-traces/``, see its README.md) were written by
a kit that compiles OpenBSD's ``games/mille`` C code headless: player 0 a
scripted player, player 1 BSD's computer.  The format is the kit's
FORMAT.md, version 1.  Each file is one session (one run of the program,
several hands in a row); the replay checks every line of it:

* the digest (``S``) after the deal and after every move, every key;
* each refused attempt (``X 0``), with BSD's exact message;
* each accepted move (``M``): legal, and the cards it drew or played; for
  the computer, that it chooses that move given exactly the dice BSD rolled
  (``R``, all used, no more) and asks itself the same extension questions
  with the same answers (``EQ``);
* each ``Extension?`` (``EXT``): player 0's answer is fed to the table,
  the computer's own (its ``choose`` when the table asks it) is compared;
* how each hand ended (``END``), both score windows (``SCORE``), the end
  of a game (``GAME``), ``STOP`` and ``EOF``.

Set ``MILLE_BSD_TRACES`` to a directory to replay its ``*.trace`` and
``*.trace.gz`` files instead of the corpus.
"""

from __future__ import annotations

import functools
import gzip
import os
import random
import re
from pathlib import Path
from typing import NamedTuple

import pytest

from mille.engine.battle import TOP
from mille.engine.cards import NO_CARD, is_safety, safety_index
from mille.engine.rules import BSD
from mille.engine.table import (
    EXTENSION,
    PICK,
    PLAYING,
    Answer,
    Discard,
    Move,
    Outcome,
    Pick,
    Table,
    Use,
)
from mille.engine.tableau import Tableau
from mille.engine.view import SeatView
from mille.players.base import choose, observe, start_hand
from mille.players.computer import BsdComputer

CORPUS = Path(__file__).parent / "data" / "bsd-traces"
ENV = "MILLE_BSD_TRACES"
HEADER = "MILLE-BSD-TRACE 1"
HUMAN, COMPUTER = 0, 1  # the trace's players: the scripted one, BSD's computer (seats)

SCORE_CELLS = (
    "Milestones Played",
    "Each Safety",
    "All 4 Safeties",
    "Each Coup Fourre",
    "Trip Completed",
    "Safe Trip",
    "Delayed Action",
    "Extension",
    "Shut-Out",
    "Hand Total",
    "Overall Total",
    "Games",
)


class TraceMismatch(AssertionError):
    """Our table or computer did not do what BSD did (or a malformed trace)."""

    def __init__(self, where: str, lineno: int, key: str, expected: object, got: object) -> None:
        super().__init__(f"{where}:{lineno}: {key}: expected {expected}, got {got}")
        self.lineno = lineno
        self.key = key


class Stats(NamedTuple):
    hands: int  # hands that reached their END
    moves: int  # M lines
    refusals: int  # X lines
    stopped: bool


class Line(NamedTuple):
    number: int
    kind: str
    args: list[str]  # the tokens after the kind
    text: str


class ScriptedDice(random.Random):
    """An rng whose ``randint`` returns BSD's dice, in order, and no more."""

    def __new__(cls, *args: object) -> ScriptedDice:
        # Python 3.10's Random.__new__ takes at most the seed
        return super().__new__(cls)

    def __init__(self, rolls: list[Line], replay: Replay, move_line: int) -> None:
        super().__init__(0)
        self.rolls = rolls
        self.used = 0
        self.replay = replay
        self.move_line = move_line

    def randint(self, a: int, b: int) -> int:
        if self.used == len(self.rolls):
            raise self.replay.mismatch(
                self.move_line,
                "R",
                f"{len(self.rolls)} dice for this move",
                f"one more roll, randint({a}, {b})",
            )
        roll = self.rolls[self.used]
        sides, value = self.replay.ints(roll, roll.args)
        if (a, b) != (1, sides):
            raise self.replay.mismatch(
                roll.number, "R", f"randint(1, {sides})", f"randint({a}, {b})"
            )
        self.used += 1
        return value


class TracedComputer(BsdComputer):
    """BSD's computer, recording the extension questions it asks itself."""

    def __init__(self) -> None:
        super().__init__(random.Random(0), COMPUTER)
        self.questions: list[bool] = []

    def ask_extension(self, table: SeatView, hand_miles: int) -> bool:
        answer = super().ask_extension(table, hand_miles)
        self.questions.append(answer)
        return answer


# ----- notation ---------------------------------------------------------------

_MOVE = re.compile(r"P|([UD])([0-6])")


def parse_move(token: str) -> Move | None:
    match = _MOVE.fullmatch(token)
    if match is None:
        return None
    if token == "P":
        return PICK
    slot = int(match.group(2))
    return Use(slot) if match.group(1) == "U" else Discard(slot)


def move_name(move: Move) -> str:
    """A move in the trace's notation (slot P is 0)."""
    if isinstance(move, Use):
        return f"U{move.slot}"
    if isinstance(move, Discard):
        return f"D{move.slot}"
    return "P"


def _ints(values: list[int]) -> str:
    return ",".join(map(str, values))


def _safeties(tab: Tableau) -> str:
    return ",".join(f"{c}*" if tab.coups[safety_index(c)] else str(c) for c in tab.safeties) or "-"


def digest(table: Table, computer: BsdComputer) -> list[str]:
    """Our state as the trace's ``S`` tokens, key by key, in its order
    (player n is seat n, whose side's cards are ``tableaux[n]``)."""
    tokens = []
    for n, (hand, tab) in enumerate(zip(table.hands, table.tableaux)):
        tokens += [
            f"h{n}={_ints(hand)}",
            f"b{n}={tab.top}",
            f"s{n}={tab.speed_top}",
            f"m{n}={tab.mileage}",
            f"g{n}={int(tab.can_go)}",
            f"nb{n}={int(tab.battle_window)}",
            f"ns{n}={int(tab.speed_window)}",
            f"sf{n}={_safeties(tab)}",
            f"nm{n}={_ints(tab.nummiles)}",
        ]
    tokens += [
        f"deck={len(table.deck)}",
        f"disc={table.discard[-1] if table.discard else NO_CARD}",
        f"end={table.target}",
        f"turn={table.to_move}",
        f"seen={_ints(computer.seen)}",
        f"gos={computer.gos}",
        f"need={_ints(computer.need)}",
        f"csf={''.join(map(str, computer.safeties))}",
    ]
    return tokens


def _could_play(table: Table, seat: int) -> bool:
    """comp.c's ``canplay`` for some card in the hand (a safety always can)."""
    return any(
        c != NO_CARD and (is_safety(c) or TOP.could_play(table, seat, c)) for c in table.hands[seat]
    )


def end_reason(table: Table) -> str:
    """Why our hand is over, in the trace's words."""
    if not table.hand_over:
        return f"the hand going on ({table.phase})"
    if any(tab.mileage == table.target for tab in table.tableaux):
        return "trip"
    if table.deck:
        return f"a hand over with {len(table.deck)} cards left"
    if not any(_could_play(table, seat) for seat in (HUMAN, COMPUTER)):
        return "stuck"
    if all(c == NO_CARD for c in table.hands[table.to_move]):
        return "empty-hand" if table.to_move == HUMAN else "computer-empty-hand"
    return "a hand over for no reason"


def score_cells(table: Table, player: int) -> list[int]:
    """BSD's score window for ``player`` (side ``player + 1``), its 12 cells
    (see FORMAT.md)."""
    score = table.hand_score(player + 1)
    return [
        score.miles,
        score.safeties,
        score.all_four,
        score.coups,
        score.trip,
        score.safe_trip,
        score.delayed_action,
        score.extension,
        score.shut_out,
        score.total,
        table.total(player + 1),
        table.games[player],
    ]


# ----- the replay -------------------------------------------------------------


class Replay:
    """One trace file, checked line by line."""

    def __init__(self, text: str, name: str) -> None:
        self.name = name
        self.raw = text.split("\n")
        self.pos = 0  # index in ``raw`` of the next line to read
        self.skip_comments()
        self.table: Table | None = None
        self.computer = TracedComputer()
        self.hands = self.moves = self.refusals = 0

    # reading

    def mismatch(self, lineno: int, key: str, expected: object, got: object) -> TraceMismatch:
        return TraceMismatch(self.name, lineno, key, expected, got)

    def skip_comments(self) -> None:
        while self.pos < len(self.raw) and (
            not self.raw[self.pos] or self.raw[self.pos].startswith("#")
        ):
            self.pos += 1

    def at_end(self) -> bool:
        return self.pos == len(self.raw)

    def peek(self) -> str:
        return "end of file" if self.at_end() else self.raw[self.pos].split(" ", 1)[0]

    def line(self) -> Line:
        """The next line, not taken."""
        text = self.raw[self.pos]
        kind, *args = text.split(" ")
        return Line(self.pos + 1, kind, args, text)

    def take(self, kind: str, nargs: int | None = None) -> Line:
        if self.at_end():
            raise self.mismatch(self.pos + 1, "format", f"a {kind} line", "the end of the file")
        line = self.line()
        if line.kind != kind:
            raise self.mismatch(line.number, "format", f"a {kind} line", repr(line.text))
        if nargs is not None and len(line.args) != nargs:
            raise self.mismatch(line.number, "format", f"{nargs} fields", repr(line.text))
        self.pos += 1
        self.skip_comments()
        return line

    def ints(self, line: Line, tokens: list[str]) -> list[int]:
        try:
            return [int(t) for t in tokens]
        except ValueError:
            raise self.mismatch(line.number, "format", "numbers", repr(line.text)) from None

    @property
    def game(self) -> Table:
        assert self.table is not None, "no hand dealt yet"
        return self.table

    # the session

    def run(self) -> Stats:
        first = self.take(HEADER.split()[0])
        if first.text != HEADER:
            raise self.mismatch(first.number, "format", HEADER, repr(first.text))
        session = self.take("SESSION", 4)
        fields = dict(arg.split("=", 1) for arg in session.args[1:] if "=" in arg)
        if fields.get("bool") != "char":
            raise self.mismatch(
                session.number,
                "bool",
                "char (the reading this project follows)",
                fields.get("bool"),
            )
        planned = self.ints(session, [fields.get("hands", "?")])[0]
        stopped = False
        while self.peek() == "HAND" and not stopped:
            stopped = not self.hand()
        if self.peek() == "STOP":
            self.take("STOP")
            stopped = True
        self.eof(stopped, planned)
        return Stats(self.hands, self.moves, self.refusals, stopped)

    def eof(self, stopped: bool, planned: int) -> None:
        line = self.take("EOF", 2)
        n = self.ints(line, line.args[:1])[0]
        if n != self.hands:
            raise self.mismatch(line.number, "EOF hands", n, self.hands)
        status = "stopped" if stopped else "complete"
        if line.args[1] != status:
            raise self.mismatch(line.number, "EOF", line.args[1], status)
        if not stopped and n != planned:
            raise self.mismatch(line.number, "EOF hands", f"hands={planned}", n)
        if not self.at_end():
            raise self.mismatch(
                self.pos + 1, "format", "nothing after EOF", repr(self.raw[self.pos])
            )

    # one hand

    def hand(self) -> bool:
        """Replay one hand; False if the session stopped in it."""
        head = self.take("HAND", 2)
        if head.args[0] != str(self.hands) or not head.args[1].startswith("start="):
            raise self.mismatch(
                head.number, "format", f"HAND {self.hands} start=P", repr(head.text)
            )
        start = self.ints(head, [head.args[1][len("start=") :]])[0]
        deals = []
        for player in (HUMAN, COMPUTER):
            line = self.take("DEAL", 8)
            if line.args[0] != str(player):
                raise self.mismatch(line.number, "format", f"DEAL {player}", repr(line.text))
            deals.append(self.ints(line, line.args[1:]))
        line = self.take("DECK")
        deck = self.ints(line, line.args)
        if deck[0] != len(deck) - 1:
            raise self.mismatch(line.number, "format", f"{deck[0]} cards", len(deck) - 1)
        self.deal(head.number, start, deals, deck[1:])
        self.check_digest(self.take("S"))
        while True:
            kind = self.peek()
            if kind == "X":
                self.refusal(self.take("X"))
            elif kind in ("R", "EQ", "M"):
                self.turn()
            elif kind == "STOP":
                self.take("STOP")
                return False
            elif kind == "END":
                break
            else:
                raise self.mismatch(self.pos + 1, "format", "a move or END", repr(kind))
        self.end()
        return True

    def deal(self, lineno: int, start: int, deals: list[list[int]], deck: list[int]) -> None:
        """The start of a hand: totals and games carried, cards as BSD dealt."""
        if self.table is None:
            # a fresh program; its own deal is replaced below
            self.table = Table.new(BSD, random.Random(0))
            self.table.to_move = self.table.starter = start
        else:
            # banks the totals and games; its own shuffle is replaced below
            self.table.new_hand(random.Random(0))
            if self.table.starter != start:
                raise self.mismatch(lineno, "start", start, self.table.starter)
        table = self.table
        table.hands = [list(cards) for cards in deals]
        table.deck = deck[::-1]  # our top is the end of the list
        try:
            table.validate()
        except ValueError as e:
            raise self.mismatch(lineno, "deal", "the 101-card deck", e) from None
        start_hand(self.computer, table)

    def check_digest(self, line: Line) -> None:
        ours = digest(self.game, self.computer)
        if line.args == ours:
            return
        theirs = dict(t.split("=", 1) for t in line.args if "=" in t)
        for token in ours:
            key, got = token.split("=", 1)
            if key not in theirs:
                raise self.mismatch(line.number, "format", f"a {key}= field", repr(line.text))
            if theirs[key] != got:
                raise self.mismatch(line.number, key, theirs[key], got)
        raise self.mismatch(line.number, "format", " ".join(ours), repr(line.text))

    def refusal(self, line: Line) -> None:
        self.refusals += 1
        if len(line.args) < 3 or line.args[0] != "0":
            raise self.mismatch(line.number, "format", "X 0 MOVE MESSAGE", repr(line.text))
        move = parse_move(line.args[1])
        if move is None:
            raise self.mismatch(line.number, "format", "a move", repr(line.args[1]))
        table = self.game
        if table.phase != PLAYING or table.to_move != HUMAN:
            raise self.mismatch(
                line.number, "turn", "player 0 to move", f"player {table.to_move} ({table.phase})"
            )
        expected = line.text.split(" ", 3)[3]
        got = table.check(move)
        if got != expected:
            raise self.mismatch(
                line.number,
                f"refusal of {line.args[1]}",
                repr(expected),
                "accepted" if got is None else repr(got),
            )

    def turn(self) -> None:
        """Dice and questions (the computer thinking), then a move."""
        rolls: list[Line] = []
        questions: list[Line] = []
        while self.peek() in ("R", "EQ"):
            line = self.take(self.peek(), 2 if self.peek() == "R" else 1)
            (rolls if line.kind == "R" else questions).append(line)
        line = self.take("M")
        self.moves += 1
        if len(line.args) < 3 or line.args[0] not in ("0", "1"):
            raise self.mismatch(line.number, "format", "M p MOVE cards", repr(line.text))
        player = int(line.args[0])
        move = parse_move(line.args[1])
        if move is None:
            raise self.mismatch(line.number, "format", "a move", repr(line.args[1]))
        cards = self.ints(line, line.args[2:])
        table = self.game
        if table.phase != PLAYING or table.to_move != player:
            raise self.mismatch(
                line.number,
                "turn",
                f"player {player} to move",
                f"player {table.to_move} ({table.phase})",
            )
        if player == COMPUTER:
            self.computer_chooses(line, move, rolls, questions)
        elif rolls or questions:
            first = (rolls + questions)[0]
            raise self.mismatch(
                first.number, "format", "dice only before a move of player 1", repr(first.text)
            )
        message = table.check(move)
        if message is not None:
            raise self.mismatch(line.number, f"move {line.args[1]}", "accepted", repr(message))
        outcome = table.apply(move)
        self.check_result(line, outcome, cards)
        observe(self.computer, table, outcome)
        self.extension()
        self.check_digest(self.take("S"))

    def computer_chooses(
        self, line: Line, move: Move, rolls: list[Line], questions: list[Line]
    ) -> None:
        computer = self.computer
        dice = ScriptedDice(rolls, self, line.number)
        computer.rng = dice
        computer.questions = []
        chosen = choose(computer, self.game)
        for n, asked in enumerate(computer.questions):
            if n == len(questions):
                raise self.mismatch(
                    line.number,
                    "EQ",
                    f"{len(questions)} questions",
                    f"one more, answered {int(asked)}",
                )
            if questions[n].args[0] != str(int(asked)):
                raise self.mismatch(questions[n].number, "EQ", questions[n].args[0], int(asked))
        if len(computer.questions) < len(questions):
            extra = questions[len(computer.questions)]
            raise self.mismatch(
                extra.number, "EQ", f"{len(questions)} questions", len(computer.questions)
            )
        if dice.used < len(rolls):
            raise self.mismatch(rolls[dice.used].number, "R", f"{len(rolls)} dice used", dice.used)
        if chosen != move:
            raise self.mismatch(line.number, "computer's move", move_name(move), move_name(chosen))

    def check_result(self, line: Line, outcome: Outcome, cards: list[int]) -> None:
        if isinstance(outcome.move, Pick):
            if list(outcome.drawn) != cards:
                raise self.mismatch(line.number, "drawn", _ints(cards), _ints(list(outcome.drawn)))
        elif cards != [outcome.card]:
            raise self.mismatch(line.number, "card", _ints(cards), outcome.card)

    def extension(self) -> None:
        table = self.game
        asked = table.phase == EXTENSION
        if self.peek() != "EXT":
            if asked:
                raise self.mismatch(
                    self.pos + 1,
                    "EXT",
                    "no Extension? question",
                    f"Extension? for player {table.asked}",
                )
            return
        ext = self.take("EXT", 2)
        if not asked:
            raise self.mismatch(ext.number, "EXT", repr(ext.text), "no Extension? question")
        player, answer = self.ints(ext, ext.args)
        if player != table.asked:
            raise self.mismatch(ext.number, "EXT player", player, table.asked)
        if player == HUMAN:
            decision = Answer(bool(answer))
        else:
            chosen = choose(self.computer, table)
            if not isinstance(chosen, Answer):
                raise self.mismatch(
                    ext.number, "EXT 1 (the computer's answer)", answer, f"the move {chosen}"
                )
            decision = chosen
            if int(decision.yes) != answer:
                raise self.mismatch(
                    ext.number, "EXT 1 (the computer's answer)", answer, int(decision.yes)
                )
        observe(self.computer, table, table.apply(decision))

    def end(self) -> None:
        table = self.game
        line = self.take("END", 1)
        got = end_reason(table)
        if got != line.args[0]:
            raise self.mismatch(line.number, "END", line.args[0], got)
        self.hands += 1
        for player in (HUMAN, COMPUTER):
            line = self.take("SCORE", 13)
            if line.args[0] != str(player):
                raise self.mismatch(line.number, "format", f"SCORE {player}", repr(line.text))
            expected = self.ints(line, line.args[1:])
            for cell, (want, have) in enumerate(zip(expected, score_cells(table, player)), 1):
                if want != have:
                    raise self.mismatch(
                        line.number,
                        f"SCORE {player} cell {cell} ({SCORE_CELLS[cell - 1]})",
                        want,
                        have,
                    )
        self.game_end()

    def game_end(self) -> None:
        table = self.game
        if self.peek() != "GAME":
            if table.game_over:
                raise self.mismatch(
                    self.pos + 1,
                    "GAME",
                    "no game over",
                    f"a game over, totals {table.total(1)}, {table.total(2)}",
                )
            return
        line = self.take("GAME", 3)
        winner, *games = self.ints(line, line.args)
        if not table.game_over:
            raise self.mismatch(
                line.number, "GAME", "a game over", f"totals {table.total(1)}, {table.total(2)}"
            )
        after = table.copy()
        after.new_hand(random.Random(0))
        won = [a - b for a, b in zip(after.games, table.games)]
        got_winner = won.index(1) if 1 in won else -1
        if got_winner != winner:
            raise self.mismatch(line.number, "GAME winner", winner, got_winner)
        got_games = after.games
        if got_games != games:
            raise self.mismatch(line.number, "GAME games", _ints(games), _ints(got_games))


def replay(text: str, name: str = "<trace>") -> Stats:
    """Replay one trace; raise ``TraceMismatch`` at the first divergence."""
    return Replay(text, name).run()


def read_trace(path: Path) -> str:
    if path.suffix == ".gz":
        with gzip.open(path, "rt", encoding="ascii") as f:
            return f.read()
    return path.read_text(encoding="ascii")


def trace_files() -> list[Path]:
    folder = os.environ.get(ENV)
    if folder:
        root = Path(folder)
        return sorted([*root.glob("*.trace"), *root.glob("*.trace.gz")])
    return sorted(CORPUS.glob("*.trace.gz"))


FILES = trace_files()


# ----- the tests --------------------------------------------------------------


def test_there_are_traces() -> None:
    where = os.environ.get(ENV) or CORPUS
    assert FILES, f"no *.trace or *.trace.gz files in {where}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_bsd_trace(path: Path) -> None:
    stats = replay(read_trace(path), path.name)
    assert stats.hands > 0 or stats.stopped


# ----- the replay can fail ------------------------------------------------------
#
# One wrong thing in a trace must make the replay fail, at that line and
# naming what differs.  Each test takes a corpus session, changes exactly
# one thing and replays the result.

SAMPLE = CORPUS / "s00011.trace.gz"  # a 40-hand session: EQ, EXT, GAME, stuck


@functools.cache
def sample_lines() -> tuple[str, ...]:
    return tuple(read_trace(SAMPLE).split("\n"))


def find(prefix: str, after: int = 0) -> int:
    """Index of the first sample line at or after ``after`` starting with ``prefix``."""
    lines = sample_lines()
    return next(i for i in range(after, len(lines)) if lines[i].startswith(prefix))


def changed(index: int, new: str | None) -> str:
    """The sample with line ``index`` replaced by ``new`` (None: deleted)."""
    lines = list(sample_lines())
    if new is None:
        del lines[index]
    else:
        lines[index] = new
    return "\n".join(lines)


def mismatch_in(text: str) -> TraceMismatch:
    with pytest.raises(TraceMismatch) as info:
        replay(text, "sample")
    return info.value


def tweak(key: str, value: str) -> str:
    """A plausible wrong value for a digest key."""
    if key == "csf":
        return value[:-1] + ("0" if value[-1] != "0" else "1")
    if key.startswith("sf"):
        return "15" if value == "-" else "-"
    if key.rstrip("01") in ("g", "nb", "ns"):
        return "0" if value == "1" else "1"
    first, *rest = value.split(",")
    return ",".join([str(int(first) + 1), *rest])


def test_the_sample_replays() -> None:
    stats = replay("\n".join(sample_lines()), "sample")
    assert stats == Stats(hands=40, moves=stats.moves, refusals=stats.refusals, stopped=False)
    assert stats.moves > 1000 and stats.refusals > 1000


DIGEST_KEYS = [
    token.split("=")[0]
    for token in digest(Table.new(BSD, random.Random(0)), BsdComputer(random.Random(0)))
]


@pytest.mark.parametrize("key", DIGEST_KEYS)
def test_a_wrong_digest_value_fails(key: str) -> None:
    index = find("S ", find("M 1 U", find("M 1 P", 40)))
    tokens = sample_lines()[index].split(" ")
    at = next(n for n, t in enumerate(tokens) if t.startswith(key + "="))
    tokens[at] = f"{key}={tweak(key, tokens[at].split('=', 1)[1])}"
    error = mismatch_in(changed(index, " ".join(tokens)))
    assert (error.lineno, error.key) == (index + 1, key)
    assert f"sample:{index + 1}: {key}: expected" in str(error)


def test_the_deal_digest_is_checked() -> None:
    index = find("S ")
    error = mismatch_in(changed(index, sample_lines()[index].replace(" gos=0 ", " gos=1 ")))
    assert (error.lineno, error.key) == (index + 1, "gos")


def test_a_wrong_refusal_message_fails() -> None:
    index = find("X 0 U")
    line = sample_lines()[index]
    other = "already picked" if "must pick first" in line else "must pick first"
    error = mismatch_in(changed(index, " ".join(line.split(" ")[:3] + [other])))
    assert error.lineno == index + 1 and error.key.startswith("refusal")


def test_a_refusal_of_a_legal_move_fails() -> None:
    index = find("M 0 P")
    error = mismatch_in(changed(index, "X 0 P already picked"))
    assert error.lineno == index + 1 and "accepted" in str(error)


@pytest.mark.parametrize("player", [0, 1])
@pytest.mark.parametrize("cell", range(1, 13))
def test_a_wrong_score_cell_fails(player: int, cell: int) -> None:
    index = find(f"SCORE {player} ", find("GAME"))  # the hand after a game: games won
    tokens = sample_lines()[index].split(" ")
    tokens[1 + cell] = str(int(tokens[1 + cell]) + 1)
    error = mismatch_in(changed(index, " ".join(tokens)))
    assert error.lineno == index + 1 and error.key.startswith(f"SCORE {player} cell {cell} ")


def _die_decides(index: int) -> int | None:
    """A value for the die on sample line ``index`` that flips BSD's test
    ``cards left - die (- 7) < 25``, if there is one."""
    lines = sample_lines()
    digest_line = lines[max(i for i in range(index) if lines[i].startswith("S "))]
    fields = dict(t.split("=", 1) for t in digest_line.split(" ")[1:])
    left = int(fields["deck"]) - (7 if (fields["m0"] == "0") != (fields["m1"] == "0") else 0)
    value = int(lines[index].split(" ")[2])
    return next((v for v in range(1, 11) if (left - v < 25) != (left - value < 25)), None)


def test_a_wrong_die_fails() -> None:
    lines = sample_lines()
    index, value = next(
        (i, v)
        for i in range(len(lines))
        if lines[i].startswith("R ") and (v := _die_decides(i)) is not None
    )
    error = mismatch_in(changed(index, f"R 10 {value}"))
    assert index + 1 <= error.lineno <= find("M 1", index) + 1


def test_a_missing_die_fails() -> None:
    index = find("R ")
    error = mismatch_in(changed(index, None))
    assert error.key == "R" and "one more roll" in str(error)


def test_an_extra_die_fails() -> None:
    index = find("M 1 U", 40)
    error = mismatch_in(changed(index, "R 10 5\n" + sample_lines()[index]))
    assert (error.lineno, error.key) == (index + 1, "R")


def test_a_wrong_extension_question_fails() -> None:
    index = find("EQ ")
    flipped = "EQ 1" if sample_lines()[index] == "EQ 0" else "EQ 0"
    error = mismatch_in(changed(index, flipped))
    assert (error.lineno, error.key) == (index + 1, "EQ")


def test_a_missing_extension_question_fails() -> None:
    error = mismatch_in(changed(find("EQ "), None))
    assert error.key == "EQ"


@pytest.mark.parametrize("player", [0, 1])
def test_a_wrong_extension_answer_fails(player: int) -> None:
    index = find(f"EXT {player} ")
    line = sample_lines()[index]
    error = mismatch_in(changed(index, line[:-1] + ("1" if line.endswith("0") else "0")))
    if player == 1:  # the computer's own answer is compared
        assert (error.lineno, error.key) == (index + 1, "EXT 1 (the computer's answer)")
    else:  # the answer fed to the table: the end or the hand's end differs
        assert error.lineno == index + 2 and error.key in ("end", "format")


def test_a_missing_extension_answer_fails() -> None:
    index = find("EXT 0 ")
    error = mismatch_in(changed(index, None))
    assert (error.lineno, error.key) == (index + 1, "EXT")


@pytest.mark.parametrize("reason", ["trip", "stuck"])
def test_a_wrong_end_reason_fails(reason: str) -> None:
    index = find(f"END {reason}")
    other = "stuck" if reason == "trip" else "trip"
    error = mismatch_in(changed(index, f"END {other}"))
    assert (error.lineno, error.key) == (index + 1, "END")
    assert f"expected {other}, got {reason}" in str(error)


def test_a_wrong_game_line_fails() -> None:
    index = find("GAME ")
    winner, g0, g1 = (int(x) for x in sample_lines()[index].split(" ")[1:])
    error = mismatch_in(changed(index, f"GAME {1 - winner} {g0} {g1}"))
    assert (error.lineno, error.key) == (index + 1, "GAME winner")
    error = mismatch_in(changed(index, f"GAME {winner} {g0 + 1} {g1}"))
    assert (error.lineno, error.key) == (index + 1, "GAME games")
    error = mismatch_in(changed(index, None))
    assert error.key == "GAME"


def test_a_wrong_card_fails() -> None:
    index = find("M 0 P")
    tokens = sample_lines()[index].split(" ")
    tokens[3] = str((int(tokens[3]) + 1) % 19)
    error = mismatch_in(changed(index, " ".join(tokens)))
    assert (error.lineno, error.key) == (index + 1, "drawn")
    index = find("M 1 D")
    tokens = sample_lines()[index].split(" ")
    tokens[3] = str((int(tokens[3]) + 1) % 19)
    error = mismatch_in(changed(index, " ".join(tokens)))
    assert (error.lineno, error.key) == (index + 1, "card")


def test_a_wrong_computer_move_fails() -> None:
    index = find("M 1 D")
    tokens = sample_lines()[index].split(" ")
    tokens[2] = "U" + tokens[2][1:]
    error = mismatch_in(changed(index, " ".join(tokens)))
    assert (error.lineno, error.key) == (index + 1, "computer's move")
    assert "expected U" in str(error) and "got D" in str(error)


def test_stop_ends_the_session() -> None:
    lines = sample_lines()
    cut = find("S ", find("HAND 2"))
    head = list(lines[: cut + 1])
    stopped = head + ["STOP numneed-overflow", "EOF 2 stopped"]
    assert replay("\n".join(stopped), "sample") == Stats(
        hands=2,
        moves=sum(line.startswith("M ") for line in head),
        refusals=sum(line.startswith("X ") for line in head),
        stopped=True,
    )
    error = mismatch_in("\n".join(head + ["STOP numneed-overflow", "EOF 2 complete"]))
    assert error.key == "EOF"
    error = mismatch_in("\n".join(head + ["EOF 2 complete"]))
    assert error.key == "format"  # the hand has no END


def test_the_end_of_the_file_is_checked() -> None:
    lines = list(sample_lines())
    eof = find("EOF")
    error = mismatch_in(changed(eof, "EOF 39 complete"))
    assert (error.lineno, error.key) == (eof + 1, "EOF hands")
    error = mismatch_in("\n".join(lines[:eof]))
    assert error.key == "format" and "EOF" in str(error)


def test_an_empty_hand_ends_the_hand() -> None:
    # Player 0 holds nothing, the deck is empty, the computer could still
    # play: BSD's only way on is D6 on the empty slot, which ends the hand.
    from support.builders import build, player

    # (its four safeties played, so that none is left for the discard pile)
    table = build(
        player(
            ["", "", "", "", "", "Stop", "25"],
            battle="Go",
            safeties=["Extra Tank", "Puncture Proof", "Driving Ace", "Right of Way"],
        ),
        player(battle="Go"),
        deck_size=0,
        to_move=COMPUTER,
    )
    assert table.hands[HUMAN] == [NO_CARD] * 7
    table.apply(Use(5))
    assert table.hand_over and end_reason(table) == "empty-hand"
