"""A joined seat's resume token, kept so that ``mille --join`` can come back
after its program ended (a closed terminal, a kill, a crash).

One file a seat: ``seat-HASH-SEAT.json`` in the state directory
(:func:`mille.storage.recovery.directory`), ``HASH`` the start of the
SHA-256 of the host's address, port and join code as typed, ``SEAT`` the
seat's number (``seat-HASH.json``, one file a table, is what earlier
versions wrote: still read).  It holds a JSON object: ``address``,
``port``, ``code_sha256`` (the join code's hash, not the code), ``seat``
and ``token``.  It is written atomically (:mod:`mille.storage.atomic`),
mode 0600: the token takes the seat; a symbolic link at its name is
replaced, never followed (reading refuses one).

The program that plays the seat holds a lock on its file (``flock``,
where the system has it) until it ends.  A ``mille --join`` takes the
first of the table's files that no other program holds, so two joins to
the same table from the same account, started together or one while the
other plays, each keep their own seat's token, and each comes back to a
seat of its own.

>>> name_for("127.0.0.1", 7477, "k4mxq7hzp2wd"), name_for("127.0.0.1", 7477, "k4mxq7hzp2wd", 2)
('seat-8b2e9369e2db860b.json', 'seat-8b2e9369e2db860b-2.json')
"""

from __future__ import annotations

import hashlib
import json
import os
import stat

from . import atomic, recovery

PREFIX, SUFFIX = "seat-", ".json"
MODE = 0o600  # the token is the seat: the user's alone
MAX_BYTES = 4096  # a seat file is far smaller


class SeatFileError(ValueError):
    """A seat file that cannot be used (the message says why)."""


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def name_for(address: str, port: int, code: str, seat: int | None = None) -> str:
    """The file's name for a table's ``seat`` (see the module docstring;
    no seat: the name earlier versions gave the table's one file)."""
    key = "\n".join((address, str(port), code))
    stem = f"{PREFIX}{_sha256(key)[:16]}"
    return f"{stem}{SUFFIX}" if seat is None else f"{stem}-{seat}{SUFFIX}"


class SeatFile:
    """The seat files of one table, as one ``mille --join`` uses them:
    :meth:`load` the token kept in a file no other program holds (and hold
    it), :meth:`store` the seat's token once welcomed, :meth:`remove` it
    when the table is gone, :meth:`release` at the end."""

    def __init__(self, address: str, port: int, code: str) -> None:
        self.address, self.port, self.code = address, port, code
        self.code_sha256 = _sha256(code)
        self.directory = recovery.directory()
        # the file this program holds or wrote (before either: the table's first name)
        self.path = self.path_for(None)
        self.fd: int | None = None  # the file, locked, while this program holds it
        self.stored: str | None = None  # the token written or read
        self.unusable: list[str] = []  # files found that cannot be used (replaced by store)
        self.in_use = False  # the last load found a file another program holds

    def path_for(self, seat: int | None) -> str:
        return os.path.join(self.directory, name_for(self.address, self.port, self.code, seat))

    def candidates(self) -> list[str]:
        """The table's files, by seat (the earlier versions' name first)."""
        stem = name_for(self.address, self.port, self.code)[: -len(SUFFIX)]
        try:
            names = os.listdir(self.directory)
        except OSError:
            return []
        found: list[tuple[int, str]] = []
        for name in names:
            if name == stem + SUFFIX:
                found.append((-1, name))
            elif name.startswith(stem + "-") and name.endswith(SUFFIX):
                number = name[len(stem) + 1 : -len(SUFFIX)]
                if number.isascii() and number.isdecimal() and len(number) < 4:
                    found.append((int(number), name))
        return [os.path.join(self.directory, name) for _, name in sorted(found)]

    def load(self) -> str | None:
        """The token kept in the first of the table's files that no other
        program holds, or None (no file, or others hold them all);
        ``SeatFileError`` if none can be used and one cannot be read (the
        caller says so and joins as a new person)."""
        failure: SeatFileError | None = None
        self.in_use = False
        for path in self.candidates():
            try:
                token = self._load(path)
            except SeatFileError as exc:
                self.unusable.append(path)
                failure = failure or exc
                continue
            if token is not None:
                return token
        if failure is not None:
            raise failure
        return None

    def _load(self, path: str) -> str | None:
        flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
        try:
            fd = os.open(path, flags)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise SeatFileError(f"cannot read {path}: {exc.strerror or exc}") from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):  # (a FIFO: never waited on)
                raise OSError(0, "not a regular file")
            if not _lock(fd):  # another mille --join plays that seat
                os.close(fd)
                self.in_use = True
                return None
            data = os.read(fd, MAX_BYTES + 1)
        except OSError as exc:
            os.close(fd)
            raise SeatFileError(f"cannot read {path}: {exc.strerror or exc}") from None
        try:
            token = self._check(path, data)
        except SeatFileError:
            os.close(fd)
            raise
        self.fd, self.path, self.stored = fd, path, token
        return token

    def _check(self, path: str, data: bytes) -> str:
        def bad(why: str) -> SeatFileError:
            return SeatFileError(f"{path} is not a seat file: {why}")

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
        """Keep the seat's token in the seat's file (once), written at its
        own path: a link there is replaced, not followed; OSError if it
        cannot be written.  A file this program held for another seat, and
        the files found unusable, go."""
        if self.stored == token:
            return
        data = {
            "address": self.address,
            "port": self.port,
            "code_sha256": self.code_sha256,
            "seat": seat,
            "token": token,
        }
        path = self.path_for(seat)
        stale = [self.path] if self.fd is not None and self.path != path else []
        self.release()
        for old in stale + self.unusable:
            if old != path:
                try:
                    os.unlink(old)
                except OSError:
                    pass
        self.unusable = []
        self.path = path
        if os.path.islink(self.directory):  # never written through
            raise OSError(f"{self.directory} is a symbolic link (not followed)")
        os.makedirs(self.directory, mode=recovery.DIRECTORY_MODE, exist_ok=True)
        atomic.write(path, (json.dumps(data) + "\n").encode("ascii"), mode=MODE, follow=False)
        self.stored = token
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            return
        if _lock(fd):
            self.fd = fd
        else:  # pragma: no cover - another program took it meanwhile
            os.close(fd)

    def remove(self) -> None:
        """The table is gone (the game ended, the host refused the token):
        the file this program holds or wrote goes (none other)."""
        if self.stored is None:
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
