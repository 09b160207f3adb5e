"""Rematch in the line mode, whole: Hal hosts (his seat played over
loopback by ``remote.lines.play_lines``, as ``mille --host --plain``
plays it) and Ann joins; each types what a person would (the move the
scripted client would choose, ``y`` to every question but ``Another
game?``, answered as the test says), and what each is told is read."""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from mille.engine.rules import find_rules
from mille.frontends.remote import lines
from mille.frontends.remote.lines import play_lines
from mille.frontends.remote.link import Join
from mille.game.session import Session
from mille.net.bot import choose
from mille.net.server import Host, Limits, Server

TIMEOUT = 120.0


class Out(io.StringIO):
    """A seat's output, read by its typist as it comes."""


def typed(move: str) -> str:
    """A move as the scripted client chooses it (the wire's text), as a
    person types it in the line mode (``U3>2``: ``u 3 2``)."""
    if move in ("P", "y", "n"):
        return move.lower()
    head, slot = move[0].lower(), move[1:]
    slot, _to, target = slot.partition(">")
    return f"{head} {slot} {target}".strip()


class Person:
    """One person at the line mode: ``play_lines`` in a thread, a typist
    in another; ``again`` answers ``Another game?`` (one answer a game)."""

    def __init__(self, join: Join, again: list[str]) -> None:
        self.join, self.again = join, list(again)
        self.out = Out()
        read, self.write = os.pipe()
        self.stdin = os.fdopen(read, "rb", buffering=0)
        self.status: int | None = None
        self.session: Any = None
        self.thread = threading.Thread(target=self._play, daemon=True)
        self.typist = threading.Thread(target=self._type, daemon=True)

    def start(self) -> None:
        self.thread.start()
        self.typist.start()

    def _play(self) -> None:
        try:
            self.status = play_lines(self.join, stdin=self.stdin, stdout=self.out)
        finally:
            with contextlib.suppress(OSError):
                os.close(self.write)

    def _type(self) -> None:
        answered = 0
        while self.status is None:
            time.sleep(0.01)
            text = self.out.getvalue()
            if len(text) == answered:
                continue
            prompt = text.rpartition("\n")[2]
            if "Another game? " in text[answered:]:  # (the table may say a line after it)
                prompt = "Another game? "
            line = self.answer(prompt)
            if line is None:
                continue
            answered = len(text)
            try:
                os.write(self.write, line.encode() + b"\n")
            except OSError:
                return

    def answer(self, prompt: str) -> str | None:
        session = self.session
        if prompt == "Another game? ":
            return self.again.pop(0) if self.again else "n"
        if prompt.endswith("? "):
            return "y"
        if prompt == "Your move: " and session is not None and session.follow.legal:
            return typed(choose(session.follow.legal))
        return None

    def said(self) -> list[str]:
        return self.out.getvalue().splitlines()


@pytest.fixture
def table() -> Iterator[tuple[Host, int]]:
    """A seeded short table of Mile by Mile: Hal hosts seat 0, Ann's seat
    1 is open, a computer plays seat 2."""
    loop = asyncio.new_event_loop()
    ready, stop = threading.Event(), threading.Event()
    found: dict[str, Any] = {}

    async def main() -> None:
        rules = find_rules("milebymile", players=3, distance=300, winning_score=1000)
        session = Session.new(rules, seed=5, humans=(0, 1), names={0: "Hal"}, level="easy")
        server = Server(Limits(grace=30))
        host = server.add(Host(session, host_seat=0, names={0: "Hal"}, waiting_room=True))
        _, found["port"] = await server.start("127.0.0.1", 0)
        host.join = f"mille --join 127.0.0.1:{found['port']} {host.code}"
        found["host"] = host
        ready.set()
        while not stop.is_set():
            await asyncio.sleep(0.05)
        await server.close()

    thread = threading.Thread(target=loop.run_until_complete, args=(main(),), daemon=True)
    thread.start()
    assert ready.wait(30)
    yield found["host"], found["port"]
    stop.set()
    thread.join(10)


PEOPLE: dict[threading.Thread, Person] = {}  # each person by the thread that plays it


@pytest.fixture(autouse=True)
def _each_seat_known(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each person's typist reads its seat's legal moves (``LineSeat``)."""
    seated = lines.LineSeat.seated

    def keep(seated_: Any) -> Any:
        session = seated(seated_)
        PEOPLE[threading.current_thread()].session = session
        return session

    monkeypatch.setattr(lines.LineSeat, "seated", keep)


def seated(table: tuple[Host, int], hal_again: list[str], ann_again: list[str]) -> list[Person]:
    host, port = table
    token = host.seats[0].token
    hal = Person(Join("127.0.0.1", port, host.code, token=token), hal_again)
    ann = Person(Join("127.0.0.1", port, host.code, name="Ann"), ann_again)
    for person in (hal, ann):
        PEOPLE[person.thread] = person
    hal.start()
    time.sleep(0.3)
    ann.start()
    return [hal, ann]


def ended(people: list[Person]) -> None:
    for person in people:
        person.thread.join(TIMEOUT)
        assert person.status is not None, [p.said()[-12:] for p in people]


def wait_for(person: Person, line: str) -> None:
    deadline = time.monotonic() + TIMEOUT
    while line not in person.said():
        assert time.monotonic() < deadline, (line, person.said()[-12:])
        time.sleep(0.05)


def test_ann_says_no_and_leaves_the_table_and_hal_reads_that_she_left(
    table: tuple[Host, int],
) -> None:
    hal, ann = seated(table, ["y"], ["n"])
    ann.thread.join(TIMEOUT)
    assert ann.status == 0, ann.said()[-12:]
    said = ann.said()
    assert said[-2:] == ["Another game? n", "You leave the table."]
    wait_for(hal, "Ann left the table.")
    wait_for(hal, "Waiting for the others: another game when everyone at the table wants it.")
    os.close(hal.write)  # (Hal stops typing: his program ends)
    hal.thread.join(TIMEOUT)
    assert hal.status is not None
    for person in (hal, ann):
        told = person.said()
        assert "mille: the host ended the game" not in told
        # the join invitation is told once, at the start
        assert sum(line.startswith("To join this table:") for line in told) == 1, told


def test_the_host_says_no_and_ann_reads_that_the_host_left(table: tuple[Host, int]) -> None:
    hal, ann = people = seated(table, ["n"], ["y"])
    ended(people)
    assert ann.status == 0 and hal.status == 0
    assert ann.said()[-1].endswith("mille: the host left the table")
    assert "the host ended the game" not in ann.out.getvalue()
    for person in people:  # the join invitation is told once, at the start
        told = person.said()
        assert sum(line.startswith("To join this table:") for line in told) == 1, told
