"""Whether mille has shown its keys to this user yet: a first run.

BSD's board never names the keys that are not BSD's (``?``, ``H``, ``T``,
``L``).  The first time it starts a new game for a user it says them on its
error line, until the first key; :func:`mark` then leaves an empty file,
``welcomed``, in the per-user state directory
(:func:`mille.storage.recovery.directory`), and later runs draw BSD's first
screen exactly.  Nothing here raises: a directory that cannot be written
only means the line is shown again next time.
"""

from __future__ import annotations

import os

from . import recovery

MARK = "welcomed"  # the file that says the keys were shown


def _mark_path() -> str:
    return os.path.join(recovery.directory(), MARK)


def first_run() -> bool:
    """True until :func:`mark` has left its file."""
    try:
        return not os.path.lexists(_mark_path())
    except (OSError, ValueError):  # a NUL in the path, and the like
        return False


def mark() -> None:
    """Remember that the keys were shown (the state directory is made,
    mode 0700, if need be)."""
    try:
        os.makedirs(recovery.directory(), mode=recovery.DIRECTORY_MODE, exist_ok=True)
        with open(_mark_path(), "a", encoding="ascii"):
            pass
    except (OSError, ValueError):
        pass
