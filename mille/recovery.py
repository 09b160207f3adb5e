"""The recovery file: the game in progress, kept when the terminal goes away.

On a hang-up, SIGTERM or a lost terminal the UI writes the game to
:func:`path` with :func:`write` (an ordinary save file, written atomically)
and exits.  The next plain ``mille`` finds it with :func:`pending`, offers to
resume it, and removes it with :func:`remove` once the game is resumed or
the player declines.  A recovery file that does not load is moved aside
(:func:`set_aside`) rather than deleted.

The file lives in the per-user state directory: ``$XDG_STATE_HOME/mille``
(``~/.local/state/mille`` when ``XDG_STATE_HOME`` is unset or not an
absolute path), ``%LOCALAPPDATA%\\mille`` on Windows.

This module is cheap to import: no curses, and the save-file code only
when a game is written.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # no typing import at run time (start-up)
if TYPE_CHECKING:
    from .session import Session

NAME = "interrupted-game.json"
BAD_SUFFIX = ".bad"  # a recovery file that did not load, kept for a look
DIRECTORY_MODE = 0o700  # the state directory is the user's alone


def _windows() -> bool:
    return sys.platform == "win32"


def directory() -> str:
    """The per-user state directory, ``.../mille`` (not created here)."""
    if _windows():
        import ntpath

        base = os.environ.get("LOCALAPPDATA", "")
        if not ntpath.isabs(base):
            base = ntpath.join(ntpath.expanduser("~"), "AppData", "Local")
        return ntpath.join(base, "mille")
    base = os.environ.get("XDG_STATE_HOME", "")
    if not os.path.isabs(base):  # the XDG spec: a relative path is invalid
        base = os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "mille")


def path() -> str:
    """``directory()/interrupted-game.json``."""
    if _windows():
        import ntpath

        return ntpath.join(directory(), NAME)
    return os.path.join(directory(), NAME)


def write(session: Session) -> str:
    """Save ``session`` as the recovery file, atomically; returns its path.

    The state directory is created (mode 0700) if need be.  Raises OSError
    if the game cannot be written; an older recovery file is then left as
    it was.
    """
    from . import savefile

    os.makedirs(directory(), mode=DIRECTORY_MODE, exist_ok=True)
    target = path()
    savefile.save_session(session, target)
    return target


def pending() -> tuple[str, float] | None:
    """``(path, mtime)`` if there is a recovery file, else None."""
    target = path()
    try:
        return target, os.stat(target).st_mtime
    except (OSError, ValueError):  # missing, unreachable, or a NUL in the name
        return None


def remove() -> None:
    """Delete the recovery file; a missing one is fine (OSError otherwise)."""
    try:
        os.remove(path())
    except FileNotFoundError:
        pass


def set_aside() -> str:
    """Rename the recovery file to ``interrupted-game.json.bad`` (replacing
    an older one) so that it neither blocks the next game nor is lost;
    returns the new path.  Raises OSError if it cannot be done."""
    target = path()
    aside = target + BAD_SUFFIX
    os.replace(target, aside)
    return aside
