"""A joined seat's resume token, kept so that ``mille --join`` can come back
after its program ended (a closed terminal, a kill, a crash).

One file a table: ``seat-HASH.json`` in the state directory
(:func:`mille.storage.recovery.directory`), ``HASH`` the start of the
SHA-256 of the host's address, port and join code as typed.  It holds a
JSON object: ``address``, ``port``, ``code_sha256`` (the join code's
hash, not the code), ``seat`` and ``token``.  It is written atomically
(:mod:`mille.storage.atomic`), mode 0600: the token takes the seat.

The program that plays the seat holds a lock on the file (``flock``,
where the system has it) until it ends, so a second ``mille --join`` to
the same table from the same account, while the first plays, does not
take the first's seat: it joins as a new person and keeps no file.

>>> name_for("127.0.0.1", 7477, "k4mxq7hzp2wd")
'seat-8b2e9369e2db860b.json'
"""

from __future__ import annotations

import hashlib
import json
import os

from . import atomic, recovery

PREFIX, SUFFIX = "seat-", ".json"
MODE = 0o600  # the token is the seat: the user's alone
MAX_BYTES = 4096  # a seat file is far smaller


class SeatFileError(ValueError):
    """A seat file that cannot be used (the message says why)."""


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def name_for(address: str, port: int, code: str) -> str:
    """The file's name for a table (see the module docstring)."""
    key = "\n".join((address, str(port), code))
    return f"{PREFIX}{_sha256(key)[:16]}{SUFFIX}"


class SeatFile:
    """The seat file of one table, as one ``mille --join`` uses it:
    :meth:`load` the token kept (and hold the file), :meth:`store` the
    seat's token once welcomed, :meth:`remove` it when the table is gone,
    :meth:`release` at the end."""

    def __init__(self, address: str, port: int, code: str) -> None:
        self.address, self.port = address, port
        self.code_sha256 = _sha256(code)
        self.path = os.path.join(recovery.directory(), name_for(address, port, code))
        self.fd: int | None = None  # the file, locked, while this program holds it
        self.in_use = False  # another mille --join holds it
        self.stored: str | None = None  # the token written or read

    def load(self) -> str | None:
        """The token kept for this table, or None (no file, or another
        program holds it); ``SeatFileError`` if the file cannot be used
        (the caller says so and joins as a new person)."""
        try:
            fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise SeatFileError(f"cannot read {self.path}: {exc.strerror or exc}") from None
        try:
            if not _lock(fd):
                os.close(fd)
                self.in_use = True
                return None
            data = os.read(fd, MAX_BYTES + 1)
        except OSError as exc:
            os.close(fd)
            raise SeatFileError(f"cannot read {self.path}: {exc.strerror or exc}") from None
        self.fd = fd
        token = self._check(data)
        self.stored = token
        return token

    def _check(self, data: bytes) -> str:
        def bad(why: str) -> SeatFileError:
            return SeatFileError(f"{self.path} is not a seat file: {why}")

        if len(data) > MAX_BYTES:
            raise bad("too long")
        try:
            kept = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise bad("not JSON") from None
        if not isinstance(kept, dict):
            raise bad("not a JSON object")
        token = kept.get("token")
        if not isinstance(token, str) or not token or len(token) > 64:
            raise bad("no token")
        wanted = {"address": self.address, "port": self.port, "code_sha256": self.code_sha256}
        for key, value in wanted.items():
            if kept.get(key) != value:
                raise bad(f"another table's ({key})")
        return token

    def store(self, seat: int, token: str) -> None:
        """Keep the seat's token (once; not if another program holds the
        file); OSError if it cannot be written."""
        if self.in_use or self.stored == token:
            return
        data = {
            "address": self.address,
            "port": self.port,
            "code_sha256": self.code_sha256,
            "seat": seat,
            "token": token,
        }
        self.release()
        os.makedirs(recovery.directory(), mode=recovery.DIRECTORY_MODE, exist_ok=True)
        atomic.write(self.path, (json.dumps(data) + "\n").encode("ascii"), mode=MODE)
        self.stored = token
        try:
            fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            return
        if _lock(fd):
            self.fd = fd
        else:  # pragma: no cover - another program took it meanwhile
            os.close(fd)

    def remove(self) -> None:
        """The table is gone (the game ended, the host refused the token):
        the file goes (not if another program holds it)."""
        if self.in_use:
            return
        try:
            os.unlink(self.path)
        except OSError:
            pass
        self.stored = None

    def release(self) -> None:
        """Let go of the file (the program ends, or writes it anew)."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _lock(fd: int) -> bool:
    """Lock ``fd`` for this program; False if another holds it (True
    where the system has no ``flock``)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError:  # a file system without locks
        return True
    return True
