"""What mille remembers of its person between runs: their own name.

``mille --name NAME`` (at home, or to host or join) remembers the name, in
the file ``name`` of the per-user state directory
(:func:`mille.storage.recovery.directory`), beside the first run's mark
(:mod:`mille.storage.firstrun`): one line, UTF-8.  It names the person's
seat when they play alone or first at a hot seat, and the record keeps
their games under it (:mod:`mille.frontends.recorder`).  The file is the
person's own: written atomically, mode 0600, a symbolic link at its name
replaced, never followed (reading refuses one), and nothing that is not a
regular file is read (a FIFO there is never waited on), nor written
through a state directory that is a link.  Nothing here raises: a file
that cannot be read or holds no name mille accepts is no name; where it
is not a file of mille's own, ``warn(path, reason)`` says so, once.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable

from ..i18n import N_
from . import recovery

Warn = Callable[[str, str], None]  # (the path, why: English, translated when shown)
NOT_REGULAR = N_("not a regular file (not read)")
A_LINK = N_("a symbolic link (not followed)")

NAME = "name"  # the file that holds the person's own name
MAX_BYTES = 256  # a name is far shorter


def _name_path() -> str:
    return os.path.join(recovery.directory(), NAME)


def _quiet(path: str, reason: str) -> None:
    """No word said (the default ``warn``)."""


def _a_link(path: str, warn: Warn) -> bool:
    """Whether ``path`` is a symbolic link (``warn`` is told so)."""
    if os.path.islink(path):
        warn(path, A_LINK)
        return True
    return False


def name(warn: Warn = _quiet) -> str | None:
    """The name remembered (:func:`remember_name`), or None; ``warn`` is
    told of a link or anything but a regular file at its name."""
    path = _name_path()
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError):
        _a_link(path, warn)
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            warn(path, NOT_REGULAR)
            return None
        data = os.read(fd, MAX_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    if len(data) > MAX_BYTES:
        return None
    try:
        text = data.decode("utf-8").removesuffix("\n")
    except UnicodeDecodeError:
        return None
    from ..game.session import check_name

    try:
        return check_name(text)
    except ValueError:
        return None


def own_name(given: str | None = None, warn: Warn = _quiet) -> str | None:
    """The person's own name: ``given`` (``--name``'s), else the one
    remembered (:func:`name`, ``warn`` told of a file that is not mille's
    own), else None."""
    return given if given is not None else name(warn)


def remember_name(text: str, warn: Warn = _quiet) -> bool:
    """Remember ``text`` (a name :func:`mille.game.session.check_name`
    accepts) as the person's own; False if it could not be written
    (``warn`` is told of a state directory that is a link: never written
    through)."""
    from . import atomic

    folder = recovery.directory()
    if _a_link(folder, warn):
        return False
    try:
        os.makedirs(folder, mode=recovery.DIRECTORY_MODE, exist_ok=True)
        atomic.write(_name_path(), (text + "\n").encode("utf-8"), mode=0o600, follow=False)
    except (OSError, ValueError):
        return False
    return True
