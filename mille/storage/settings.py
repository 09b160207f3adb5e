"""What mille remembers of its person between runs: their own name.

``mille --name NAME`` (at home, or to host or join) remembers the name, in
the file ``name`` of the per-user state directory
(:func:`mille.storage.recovery.directory`), beside the first run's mark
(:mod:`mille.storage.firstrun`): one line, UTF-8.  It names the person's
seat when they play alone or first at a hot seat, and the record keeps
their games under it (:mod:`mille.frontends.recorder`).  The file is the
person's own: written atomically, mode 0600, a symbolic link at its name
replaced, never followed (reading refuses one).  Nothing here raises: a
file that cannot be read or holds no name mille accepts is no name.
"""

from __future__ import annotations

import os

from . import recovery

NAME = "name"  # the file that holds the person's own name
MAX_BYTES = 256  # a name is far shorter


def _name_path() -> str:
    return os.path.join(recovery.directory(), NAME)


def name() -> str | None:
    """The name remembered (:func:`remember_name`), or None."""
    try:
        fd = os.open(_name_path(), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except (OSError, ValueError):
        return None
    try:
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


def remember_name(text: str) -> bool:
    """Remember ``text`` (a name :func:`mille.game.session.check_name`
    accepts) as the person's own; False if it could not be written."""
    from . import atomic

    try:
        os.makedirs(recovery.directory(), mode=recovery.DIRECTORY_MODE, exist_ok=True)
        atomic.write(_name_path(), (text + "\n").encode("utf-8"), mode=0o600, follow=False)
    except (OSError, ValueError):
        return False
    return True
