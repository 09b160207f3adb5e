"""The computers' moves in a process of their own.

A searching computer (the expert) thinks for most of a second, in Python:
in a thread of the server it would share the server's interpreter and its
share of the processor, and the other tables would wait.  So a table can
give its computers to a :class:`Thinker`: a child process
(``python -m mille.net.worker``) that holds a replica of the game, is told
every move made (as text) and each new hand, and answers ``think`` with
the move the computer of a seat chooses.  The messages are JSON lines on
its standard input and output (no pickle); the game is sent once, as a
save file's text.  The worker runs at a lower priority (``nice`` 10): the
server, which answers people, comes first.

The replica's computers are the only ones that play: while a worker
serves a table, the server's own copies of them neither watch the moves
nor answer questions (``seats.Feed._play``), and the table is saved and
kept from the replica (``save``, ``keep``), whose computers are up to
date.  Their memory lives there alone: the :class:`Thinker` keeps what
rebuilds it, the game the replica held at the last deal (``dump``) and
every move, deal and decision told it since, and if the process fails the
host rebuilds the replica (:func:`replay`) and its computers play on in
the server, their memory (and random state) as the worker's.
"""

from __future__ import annotations

import asyncio
import json
import sys

from .wire import parse_move

NICE = 10  # the worker's lower priority
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ..engine.moves import Move
    from ..game.session import Session


class Thinker:
    """The server's end of a worker process (see the module docstring)."""

    def __init__(self) -> None:
        self.process: asyncio.subprocess.Process | None = None
        self.lock = asyncio.Lock()
        self.saved = b""  # the game the replica started from
        # every op (seats.Feed.ops: moves, deals, names, chat, decisions) told it since:
        # replay() rebuilds it
        self.sent: list[dict[str, Any]] = []

    async def start(self, saved: bytes) -> None:
        self.saved = saved
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "mille.net.worker",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=1 << 23,  # a dump is a save file's text (at most 4 MiB)
        )
        self._send({"load": saved.decode("ascii")})

    def _send(self, message: dict[str, Any]) -> None:
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")

    def _tell(self, ops: list[dict[str, Any]]) -> None:
        """The moves made since (``ops``, as ``seats.Feed.ops``)."""
        self.sent += ops
        for op in ops:
            self._send({"apply": op})

    async def think(self, ops: list[dict[str, Any]], seat: int, stand_in: int | None) -> Move:
        """Tell the replica the moves made since (``ops``), then the move
        for ``seat`` (by its computer, or by a stand-in made with the seed
        ``stand_in``)."""
        async with self.lock:
            await self._rebase(ops)
            self._send({"think": seat, "stand_in": stand_in})
            asked = len(self.sent)
            if stand_in is None:  # its computer's decision may change its memory
                self.sent.append({"think": seat})
            try:
                answer = await self._answer()
            except OSError:
                if stand_in is None:  # never made: the host makes it itself
                    del self.sent[asked]
                raise
            return parse_move(answer["move"])

    async def _answer(self) -> dict[str, Any]:
        """The replica's answer to what was last sent; OSError if it ended."""
        process = self.process
        assert process is not None and process.stdout is not None
        line = await process.stdout.readline()
        if not line:
            raise OSError("the worker process ended")
        answer: dict[str, Any] = json.loads(line)
        return answer

    async def _rebase(self, ops: list[dict[str, Any]]) -> None:
        """Tell ``ops``; once a new hand was told since the last dump, take
        the replica's game as it is (``dump``) as the one to rebuild it
        from (so a rebuild replays one hand at most)."""
        self._tell(ops)
        if not any(op.get("deal") for op in self.sent):
            return
        self._send({"dump": True})
        mark = len(self.sent)  # what is told from now on comes after the dump
        self.saved = (await self._answer())["saved"].encode("ascii")
        self.sent = self.sent[mark:]

    async def save(self, ops: list[dict[str, Any]], path: str) -> str | None:
        """Tell the replica the moves made since, then have it save the game
        to ``path`` (atomically); None, or why it could not."""
        async with self.lock:
            await self._rebase(ops)
            self._send({"save": path})
            reason: str | None = (await self._answer()).get("error")
            return reason

    def keep(self, ops: list[dict[str, Any]], path: str) -> None:
        """The same without waiting: the game to ``path`` (the host's
        recovery file after every move); the worker answers nothing."""
        self._tell(ops)
        self._send({"keep": path})

    async def stop(self) -> None:
        process = self.process
        if process is None or process.returncode is not None:
            return
        if process.stdin is not None:
            process.stdin.close()
        try:
            await asyncio.wait_for(process.wait(), 5)
        except asyncio.TimeoutError:
            process.kill()
            await process.wait()


def apply_op(session: Session, op: dict[str, Any]) -> None:
    """One op of the table's (``seats.Feed.ops``) made on a replica: a
    move as made, its computers watching it as the host's would (no
    answers added: the computers' answers are moves of their own); the
    next hand; a seat named; a chat line; a ``think``, which has the
    seat's computer choose again, for what choosing changes in its
    memory (the move chosen is one of the ops)."""
    if "move" in op:
        session._apply(parse_move(op["move"]), bool(op.get("stand_in")))
    elif op.get("deal"):
        session.next_hand()
    elif "think" in op:
        seat = int(op["think"])
        session.computers[seat].choose(session.view(seat))
    elif "say" in op:  # a chat line, kept with the hand's log
        session.say(int(op["seat"]), str(op["say"]))
    elif "name" in op:  # a person seat named (a joiner's --name)
        session.people[int(op["seat"])] = str(op["name"])
    else:
        raise ValueError(f"no such op: {sorted(op)}")


def replay(saved: bytes, ops: list[dict[str, Any]]) -> Session:
    """The replica a worker holds after being told ``ops`` from ``saved``:
    its computers' memory as the worker's (the host rebuilds it so when
    the worker fails, the computers' memory living in one place)."""
    from ..storage import savefile

    session = savefile.loads(saved.decode("ascii"))
    for op in ops:
        apply_op(session, op)
    return session


def serve() -> None:
    """The worker process: read the requests, answer ``think``."""
    import os

    from ..storage import recovery, savefile

    if hasattr(os, "nice"):  # the search gives way to the server, which answers people
        try:
            os.nice(NICE)
        except OSError:
            pass
    session = None
    for line in sys.stdin.buffer:
        request = json.loads(line)
        if "load" in request:
            session = savefile.loads(request["load"])
            continue
        assert session is not None
        if "apply" in request:
            apply_op(session, request["apply"])
        elif "dump" in request:
            sys.stdout.write(json.dumps({"saved": savefile.dumps(session)}) + "\n")
            sys.stdout.flush()
        elif "save" in request or "keep" in request:
            try:
                path = request.get("save") or request["keep"]
                # a kept game (the host's recovery file) is the user's alone
                savefile.save_session(
                    session, path, recovery.MODE if recovery.inside(path) else None
                )
                reason = None
            except OSError as exc:
                reason = exc.strerror or str(exc)
            except ValueError as exc:  # (SaveError: never, the host checks at the door)
                reason = str(exc)
            if "save" in request:
                sys.stdout.write(json.dumps({"error": reason}) + "\n")
                sys.stdout.flush()
        elif "think" in request:
            seat = request["think"]
            seed = request.get("stand_in")
            player = session.computers[seat] if seed is None else session.stand_in(seat, seed)
            move = player.choose(session.view(seat))
            sys.stdout.write(json.dumps({"move": str(move)}) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    try:
        serve()
    except (BrokenPipeError, KeyboardInterrupt):  # the server is gone
        pass
