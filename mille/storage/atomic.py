"""Writing a file atomically: the target is either the old file or the
complete new one, whatever happens meanwhile.

The data goes to a temporary file beside the target
(``.NAME.<8 random characters>.tmp``), is flushed and ``fsync``ed, then renamed over
the target; on any failure the temporary file is removed.  The exit
signals are held back while the temporary file is made, so a handler that
ends the program always runs where it is cleaned up.  The target is
checked as creat(2) would: a symbolic link is followed, a directory is
refused, a file you may not write to is refused with ``Permission
denied``; an existing file keeps its mode (and its owner where the system
lets us), a new one gets 0666 less the umask.  With ``follow=False`` (a
file of the program's own, such as a seat's token) a symbolic link is not
followed: the new file replaces the link itself, and what the link points
to is left as it was.

The mask is a thread's own, and the system gives a signal to any thread
that does not block it (Python then runs the handler in the main thread,
mid-write): every thread mille starts is made by :func:`thread`, which
blocks the exit signals in it, so they reach the main thread alone.
"""

from __future__ import annotations

import errno
import os
import stat

TYPE_CHECKING = False
if TYPE_CHECKING:
    import threading
    from collections.abc import Callable

# A temporary file's name is ".NAME." + 8 random characters + ".tmp" and
# must fit NAME_MAX (255 bytes): NAME is cut to 200 bytes, 14 for the rest.
TEMP_NAME_BYTES = 200


def write(path: str, data: bytes, mode: int | None = None, *, follow: bool = True) -> None:
    """Write ``data`` to ``path`` atomically; OSError if it cannot be done.
    With ``mode``, the file gets that mode (a new one or the old one).
    ``follow=False``: a symbolic link at ``path`` is replaced, not followed."""
    if path.endswith(("/", os.sep)):  # creat(2) refuses "name/" too
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
    target = os.path.realpath(path) if follow else os.path.abspath(path)
    try:
        old = os.stat(target) if follow else os.lstat(target)
    except FileNotFoundError:
        old = None
    if old is not None and stat.S_ISLNK(old.st_mode):  # (not followed) the link goes
        old = None
    if old is not None:
        if stat.S_ISDIR(old.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        if not os.access(target, os.W_OK):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
        if not stat.S_ISREG(old.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", path)
        if mode is None:
            mode = stat.S_IMODE(old.st_mode)
    elif mode is None:
        mode = _new_file_mode()

    import tempfile

    directory, name = os.path.split(target)
    tmp: str | None = None
    try:
        # No signal handler may run between the file's making and ``tmp``
        # holding its name (it would raise past the clean-up below).
        saved = _block_exit_signals()
        try:
            fd, tmp = tempfile.mkstemp(
                prefix=f".{_cut_to_bytes(name, TEMP_NAME_BYTES)}.",
                suffix=".tmp",
                dir=directory or ".",
            )
        finally:
            _restore_signals(saved)  # a signal that came meanwhile is handled here
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            _set_owner_and_mode(f.fileno(), tmp, mode, old)
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        raise
    _sync_directory(directory or ".")


# Signals whose handlers may end the game (SIGINT may raise
# KeyboardInterrupt; the line mode's handlers raise while it reads a line);
# POSIX only.
_EXIT_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT")


def _block_exit_signals() -> set[int] | None:
    """Hold back SIGINT, SIGTERM, SIGHUP and SIGQUIT; the mask to restore (None where
    signals cannot be blocked).  A handler already pending runs first."""
    import signal

    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - Windows
        return None
    # Read the mask first (this runs pending handlers) so that a handler
    # raising while the signals are blocked still finds the mask to restore.
    saved: set[int] = set(signal.pthread_sigmask(signal.SIG_BLOCK, []))
    blocked = [getattr(signal, s) for s in _EXIT_SIGNALS if hasattr(signal, s)]
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, blocked)
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, saved)
        raise
    return saved


def thread(target: Callable[..., object], *args: object, name: str) -> threading.Thread:
    """A daemon thread (not started) that runs ``target(*args)`` with the
    exit signals blocked, so that only the main thread takes them (see the
    module docstring); the threads it starts inherit the mask."""
    import threading

    def run() -> None:
        block_exit_signals_here()
        target(*args)

    return threading.Thread(target=run, name=name, daemon=True)


def block_exit_signals_here() -> None:
    """Block the exit signals in the calling thread for good: the start of
    a thread other than the main one (:func:`thread`; an executor's
    ``initializer``)."""
    _block_exit_signals()


def _restore_signals(saved: set[int] | None) -> None:
    """Put back the mask ``_block_exit_signals`` returned; a signal held back
    meanwhile is delivered now (its handler may raise)."""
    if saved is None:  # pragma: no cover - Windows
        return
    import signal

    signal.pthread_sigmask(signal.SIG_SETMASK, saved)


def _cut_to_bytes(name: str, limit: int) -> str:
    """The longest start of ``name`` whose file-system encoding fits in
    ``limit`` bytes (whole characters only)."""
    if len(os.fsencode(name)) <= limit:
        return name
    size = 0
    for i, ch in enumerate(name):
        size += len(os.fsencode(ch))
        if size > limit:
            return name[:i]
    return name  # pragma: no cover - the whole name fitted after all


def _set_owner_and_mode(fd: int, path: str, mode: int, old: os.stat_result | None) -> None:
    """Give the new file the mode it should have, and the old file's owner
    where the system lets us (as writing into the old file would keep it)."""
    if hasattr(os, "fchmod"):
        os.fchmod(fd, mode)
    else:  # pragma: no cover - Windows
        os.chmod(path, mode)
    if old is not None and hasattr(os, "fchown"):
        if (old.st_uid, old.st_gid) != (os.fstat(fd).st_uid, os.fstat(fd).st_gid):
            try:
                os.fchown(fd, old.st_uid, old.st_gid)
            except OSError:
                pass


def _new_file_mode() -> int:
    """0666 less the umask: the mode open(2) gives a new file."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def _sync_directory(directory: str) -> None:
    """Make the rename durable (best effort: not every system allows it)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
