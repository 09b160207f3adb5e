"""The keeping of a table's game: the host's saves, the recovery file, and
the worker process that keeps a replica of the game (``worker.Thinker``).

One :class:`Keeper` a table.  The game is written by the worker's replica
when the table has one (its computers' memory is up to date there), else
from here (``seats.save``); a worker that fails is lost (the computers
think here from then on, :meth:`Keeper.lose_worker`) and the game written
from here.  The four ways the game is kept (the host's ``save``, answered
at once or once the worker wrote it; :meth:`Keeper.keep`, to a file or a
new recovery file; :meth:`Keeper.keep_quietly`, after every move) share
:meth:`Keeper.write` and the one answer, :func:`saved_answer`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time

from .connection import Connection
from .messages import not_saved, saved
from .seats import Feed, keep, save, saved_bytes
from .worker import Thinker, apply_op, replay

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .messages import Saved


def saved_answer(path: str, failure: Exception | None = None) -> Saved:
    """The ``saved`` message: the game is in ``path`` (since when, in
    seconds since the epoch: each end shows it in its own language), or
    why not."""
    if failure is None:
        return saved(path, int(time.time()))
    if isinstance(failure, OSError) and failure.strerror:
        reason = failure.strerror
    else:
        reason = str(failure)
    return not_saved(path, reason)


class Keeper:
    """A table's game kept: by the worker process if it has one."""

    def __init__(self, feed: Feed) -> None:
        self.feed = feed
        self.thinker: Thinker | None = None  # the worker process, once started

    async def start_worker(self) -> None:
        """The worker process, given the game as it is now (none if it
        does not start)."""
        thinker = Thinker()
        saved = saved_bytes(self.feed)
        self.feed.ops = []  # from this very state on (no await between)
        try:
            await thinker.start(saved)
        except (OSError, ValueError):
            self.feed.ops = None
            return
        self.thinker = thinker

    async def lose_worker(self) -> None:
        """The worker process failed: the computers think here from now
        on, with the memory the worker's replica had (rebuilt from the game
        it started from and every move told it, ``worker.replay``, in a
        thread; the moves made meanwhile are told the rebuilt computers too)."""
        thinker, self.thinker = self.thinker, None
        if thinker is None:
            return
        feed = self.feed
        ops = thinker.sent + feed.take_ops()  # feed.ops stays a list: moves go on being noted
        with contextlib.suppress(Exception):
            await thinker.stop()
        replica = await asyncio.to_thread(replay, thinker.saved, ops)
        for op in feed.take_ops():
            apply_op(replica, op)
        feed.take_computers(replica.computers)

    async def write(self, path: str) -> None:
        """The game to ``path``: by the worker's replica if there is one,
        else (or if it failed) from here; an exception if not written."""
        if self.thinker is not None:
            try:
                reason = await self.thinker.save(self.feed.take_ops(), path)
            except (OSError, ValueError):  # the worker failed: written from here
                await self.lose_worker()
            else:
                if reason is not None:
                    raise OSError(reason)
                return
        save(self.feed, path)

    def save(self, conn: Connection, path: str) -> None:
        """The host saves the game (its ``s``) to ``path``; ``conn`` is
        answered at once, or once the worker has written it."""
        if self.thinker is not None:
            asyncio.get_running_loop().create_task(self._save_by_worker(conn, path))
            return
        failure = None
        try:
            save(self.feed, path)
        except Exception as exc:  # a save never ends the game
            failure = exc
        conn.send(saved_answer(path, failure))

    async def _save_by_worker(self, conn: Connection, path: str) -> None:
        failure = None
        try:
            await self.write(path)
        except Exception as exc:  # a save never ends the game
            failure = exc
        conn.send(saved_answer(path, failure))

    async def keep(self, path: str | None = None) -> str:
        """Keep the game in a recovery file (the host's signals), or in
        ``path``; its path, OSError if it could not be written."""
        if self.thinker is None and path is None:
            return keep(self.feed)
        if path is None:
            from ..storage import recovery

            path = recovery.new_path()
            os.makedirs(recovery.directory(), mode=recovery.DIRECTORY_MODE, exist_ok=True)
        await self.write(path)
        return path

    def keep_quietly(self, path: str) -> bool:
        """The game to ``path`` by the worker, without waiting; False if the
        table has no worker."""
        if self.thinker is None:
            return False
        self.thinker.keep(self.feed.take_ops(), path)
        return True
