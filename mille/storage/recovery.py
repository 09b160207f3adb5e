"""Recovery files: games in progress, kept when the terminal goes away.

On a hang-up, SIGTERM, ^\\ or a lost terminal (and at the end of the line
mode's input) the front end writes the game with :func:`write` and exits.
Each kept game gets a file of its own, ``interrupted-DATE-PID.json``
(:func:`new_path`: the date to the microsecond and the process number, so
two games interrupted at once never share one), an ordinary save file
written atomically, mode 0600 (``MODE``: the user's alone, as its directory).  ``interrupted-game.json``, the one file of earlier
versions, is still found.

The next plain ``mille`` finds them with :func:`kept_games`, newest first,
and offers them one at a time.  Before it uses or removes the one offered
it takes it with :func:`claim`: a rename, which only one mille can win,
then a check that the file is still the one that was offered (its
modification time), so a game kept meanwhile by another mille is never
removed.  A claim whose mille died before removing the file (a SIGKILL, a
crash) is put back under its name and offered again (:func:`abandoned`).  A recovery file that does not load is moved aside
(:func:`set_aside`, ``NAME.bad``) rather than deleted.

The files live in the per-user state directory: ``$XDG_STATE_HOME/mille``
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
    from ..game.session import Session

NAME = "interrupted-game.json"  # the one recovery file of earlier versions
PREFIX, SUFFIX = "interrupted-", ".json"
BAD_SUFFIX = ".bad"  # a recovery file that did not load, kept for a look
CLAIM_SUFFIX = ".claimed"  # a recovery file being taken by a mille
DIRECTORY_MODE = 0o700  # the state directory is the user's alone
MODE = 0o600  # and so is each game kept in it (whatever the umask)


def _windows() -> bool:
    return sys.platform == "win32"


def _join(*parts: str) -> str:
    if _windows():
        import ntpath

        return ntpath.join(*parts)
    return os.path.join(*parts)


def user_directory(variable: str, default: str) -> str:
    """A per-user directory of mille, ``$variable/mille`` (an XDG base
    directory), ``~/.local/default/mille`` where it is unset or not
    absolute; ``%LOCALAPPDATA%\\mille`` on Windows (not created here)."""
    if _windows():
        import ntpath

        base = os.environ.get("LOCALAPPDATA", "")
        if not ntpath.isabs(base):
            base = ntpath.join(ntpath.expanduser("~"), "AppData", "Local")
        return ntpath.join(base, "mille")
    base = os.environ.get(variable, "")
    if not os.path.isabs(base):  # the XDG spec: a relative path is invalid
        base = os.path.join(os.path.expanduser("~"), ".local", default)
    return os.path.join(base, "mille")


def directory() -> str:
    """The per-user state directory, ``.../mille`` (not created here)."""
    return user_directory("XDG_STATE_HOME", "state")


def path() -> str:
    """``directory()/interrupted-game.json``: earlier versions' one file."""
    return _join(directory(), NAME)


def new_path() -> str:
    """A name no kept game has: ``interrupted-20261125-142324-123456-PID.json``."""
    import time

    now = time.time()
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    base = f"{PREFIX}{stamp}-{int(now % 1 * 1e6):06d}-{os.getpid()}"
    target = _join(directory(), base + SUFFIX)
    count = 1
    while os.path.lexists(target):
        count += 1
        target = _join(directory(), f"{base}-{count}{SUFFIX}")
    return target


def inside(path: str) -> bool:
    """Whether ``path`` is a file of the state directory (a kept game,
    written with ``MODE`` whoever writes it: this program or the host's
    worker process)."""
    try:
        here = os.path.realpath(directory())
        return os.path.dirname(os.path.realpath(path)) == here
    except (OSError, ValueError):
        return False


def write(session: Session) -> str:
    """Keep ``session`` in a new recovery file, atomically; returns its
    path (also set as ``session.kept``).

    The state directory is created (mode 0700) if need be.  Raises OSError
    if the game cannot be written; nothing is left behind then.
    """
    from . import savefile

    os.makedirs(directory(), mode=DIRECTORY_MODE, exist_ok=True)
    target = new_path()
    savefile.save_session(session, target, MODE)
    session.kept = target
    return target


EXIT_SIGNALS = ("SIGTERM", "SIGHUP", "SIGQUIT")  # those a game is kept for


def hold_exit_signals(hold: bool = True) -> None:
    """Hold the exit signals back (``hold``) or let them come: a resumed
    game whose recovery file is removed lives only in memory until the
    line mode's or the board's handlers are in place, and they let the
    signals come (a hang-up meanwhile then keeps it, as any other).  A
    no-op where the system cannot block signals."""
    import signal

    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None:
        return
    signums = {getattr(signal, name) for name in EXIT_SIGNALS if hasattr(signal, name)}
    try:
        mask(signal.SIG_BLOCK if hold else signal.SIG_UNBLOCK, signums)
    except (OSError, ValueError):
        pass


def signal_reason(signum: int) -> str:
    """How the line on stderr names the signal a game is kept for."""
    import signal

    if signum == getattr(signal, "SIGHUP", None):
        return "hang-up"
    if signum == getattr(signal, "SIGQUIT", None):
        return "quit signal"
    return "terminated"


def kept_games() -> list[tuple[str, float]]:
    """Every recovery file as ``(path, mtime)``, newest first (a claim
    whose mille is gone is put back first: :func:`abandoned`)."""
    try:
        names = os.listdir(directory())
    except (OSError, ValueError):  # missing, unreachable, or a NUL in the name
        return []
    found = []
    for name in names:
        if name.startswith(PREFIX) and abandoned(name):
            game = name.rpartition(CLAIM_SUFFIX)[0]
            if os.path.lexists(_join(directory(), game)):
                continue  # (never: no two kept games share a name)
            try:
                os.rename(_join(directory(), name), _join(directory(), game))
            except OSError:  # another mille put it back first
                continue
            name = game
        if not (name.startswith(PREFIX) and name.endswith(SUFFIX)):
            continue
        target = _join(directory(), name)
        try:
            found.append((target, os.stat(target).st_mtime))
        except (OSError, ValueError):  # gone meanwhile
            continue
    found.sort(key=lambda item: (-item[1], item[0]))
    return found


def abandoned(name: str) -> bool:
    """``name`` is a claimed recovery file (``NAME.claimed-PID``) whose
    mille is gone (it died between the claim and the removal: a SIGKILL, a
    crash, a power cut), so that the game would never be offered again.
    Where it cannot be told (Windows), no claim is abandoned.

    >>> abandoned("interrupted-game.json")
    False
    """
    game, found, pid = name.rpartition(CLAIM_SUFFIX + "-")
    if not found or not game.endswith(SUFFIX) or not (pid.isascii() and pid.isdigit()):
        return False
    return not _windows() and not _alive(int(pid))


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)  # (POSIX: signal 0 only asks whether it exists)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):  # another user's (PermissionError): alive
        return True
    return True


def pending() -> tuple[str, float] | None:
    """``(path, mtime)`` of the newest recovery file, or None."""
    games = kept_games()
    return games[0] if games else None


def claim(target: str, mtime: float) -> str | None:
    """Take the recovery file ``target`` that was offered (dated ``mtime``):
    renamed so that no other mille can take it too; its new path, or None
    if another mille took it first or wrote another game there (that one
    is left where it was).  OSError if it cannot be renamed."""
    taken = f"{target}{CLAIM_SUFFIX}-{os.getpid()}"
    try:
        os.rename(target, taken)
    except FileNotFoundError:
        return None
    try:
        same = os.stat(taken).st_mtime == mtime
    except OSError:
        same = False
    if not same:
        try:
            os.rename(taken, target)  # not the game offered: leave it be
        except OSError:
            pass
        return None
    return taken


def release(taken: str, target: str) -> None:
    """Put a claimed file back where it was offered, or under another name
    (errors ignored: it stays as it is)."""
    try:
        os.rename(taken, target)
    except OSError:
        pass


def remove(target: str) -> None:
    """Delete a recovery file; a missing one is fine (OSError otherwise)."""
    try:
        os.remove(target)
    except FileNotFoundError:
        pass


def set_aside(target: str) -> str:
    """Rename a recovery file to ``NAME.bad`` (replacing an older one) so
    that it neither blocks the next game nor is lost; returns the new path.
    OSError if it cannot be done."""
    aside = target + BAD_SUFFIX
    os.replace(target, aside)
    return aside
