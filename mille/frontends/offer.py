"""The kept games offered before a game starts, or named as waiting.

Without a file, the games that were interrupted (hang-up, SIGTERM, lost
terminal: see :mod:`mille.storage.recovery`) are offered first, newest
first, on the terminal, before curses starts::

    mille: a game was interrupted on Sun Nov 22 08:01:02 2026:
    classic, 3 players, scores 1200, 850, 300.
    Resume it? (n deletes it) [yn]

The boards take one key (read by :class:`mille.frontends.curses_keys.KeyReader`
from a :class:`~mille.frontends.curses_keys.StreamKeyboard`; another key
beeps), the line mode a line (read by :func:`mille.frontends.plain.read_line`).
It is asked only of ``mille`` (or ``mille --plain``) alone with a terminal
on standard input; otherwise (game options, ``--seed``, a file, a script on
a pipe) one line on stderr names what waits.  End of file, SIGTERM or a
hang-up while it is asked leave the kept game as it was, with one line and
exit status 1 (^C and ^\\: 130).  A resumed game has no file of its own
(``session.source`` is None): S asks ``file:``, as in a new game, rather
than offering to write back to a recovery file.
"""

from __future__ import annotations

import sys

from ..i18n import N_, _, oserror, when
from .process import complain

TYPE_CHECKING = False  # no typing import at run time (start-up)
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import FrameType

    from ..game.session import Session

QUESTION = N_("Resume it? (n deletes it) [yn] ")


class Stop(Exception):
    """Leave before the game starts with ``status`` (the reason is printed)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _Signalled(Exception):
    """SIGTERM or a hang-up came while the question was asked."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


Resumed = tuple["Session", str, tuple[str, float, str]]


def describe_game(session: Session) -> str:
    """``classic, 3 players, scores 1200, 850, 300``: which game a kept one is."""
    table = session.table
    rules = table.rules
    scores = ", ".join(str(table.total(side)) for side in range(1, rules.sides + 1))
    line = _("{rules}, {players} players, scores {scores}")
    return line.format(rules=rules.name, players=rules.players, scores=scores)


def interrupted_game(ask: bool, line: bool = False, *, host: bool = False) -> Resumed | None:
    """Offer the interrupted games, newest first, one at a time (``ask``;
    ``line``: the line mode's question): ``(session, the note for the
    error line, (recovery path, mtime, text))`` to resume one, None for a
    new game.  Raises Stop if the player gave no answer (the file is kept).

    Not ``ask``: nothing is asked, and one line on stderr says a kept game
    is waiting (the player asked for a new game, or a file; a script on
    standard input would answer with its moves); for a ``host`` (``mille
    --host``), with the command that resumes it hosted."""
    from ..storage import recovery, savefile

    games = recovery.kept_games()
    for index, (path, mtime) in enumerate(games):
        session = _kept(path)
        if session is None:
            continue
        stamp = when(mtime)
        if not ask:
            _name_waiting(f"{describe_game(session)}; {stamp}", len(games) - index, host, path)
            return None
        said = _("mille: a game was interrupted on {when}:\n{game}.\n")
        _say(said.format(when=stamp, game=describe_game(session)))
        answer = ask_yes_no(_(QUESTION), line=line)
        if answer is None:
            complain(None, N_("no answer: the interrupted game is kept for next time"))
            raise Stop(1)
        text = savefile.dumps(session)
        recovery.hold_exit_signals()  # until the game's own handlers are in place
        if not _take(path, mtime) or not answer:
            continue
        session.source = None  # S asks file:, never Same file? for the recovery file
        return session, _("resumed [{when}]").format(when=stamp), (path, mtime, text)
    return None


def _kept(path: str) -> Session | None:
    """The kept game at ``path``; None if it cannot be read (then moved
    aside, with a line; Stop(1) if it cannot be)."""
    from ..storage import recovery, savefile

    try:
        return savefile.load_session(path)
    except savefile.SaveError as exc:
        try:
            aside = recovery.set_aside(path)
        except OSError as err:
            tail = _("; cannot move it aside: {why}").format(why=oserror(err))
            complain(path, savefile.said(str(exc)), tail)
            raise Stop(1) from None
        import os

        complain(
            path,
            savefile.said(str(exc)),
            _(" (moved to {name})").format(name=os.path.basename(aside)),
        )
        return None


def _name_waiting(what: str, left: int, host: bool, path: str) -> None:
    """One line on stderr: ``left`` kept games wait, the newest ``what``
    (for a ``host``, with the command that resumes ``path`` hosted)."""
    if host:  # the command is shown whole (the path is not cut)
        from ..engine.text import escape, shorten

        said = (
            _("a kept game is waiting ({what})").format(what=what)
            if left == 1
            else _("{count} kept games are waiting (the newest: {what})").format(
                count=left, what=what
            )
        )
        command = f"mille --host {escape(path)}"
        run = (
            _("run {command} to resume it")
            if left == 1
            else _("run {command} to resume the newest")
        )
        _tell(f"mille: {shorten(escape(said), 120)}: {run.format(command=command)}")
    elif left == 1:
        told = _("a kept game is waiting ({what}): run mille alone to resume it")
        complain(None, told.format(what=what))
    else:
        told = _(
            "{count} kept games are waiting (the newest: {what}): run mille alone to resume them"
        )
        complain(None, told.format(count=left, what=what))


def _take(path: str, mtime: float) -> bool:
    """Remove the kept game offered (resumed or declined: never offered
    again); False if another mille took or changed it meanwhile, Stop(1) if
    it cannot be removed."""
    from ..storage import recovery

    try:
        claimed = recovery.claim(path, mtime)  # only the game that was offered
    except OSError as err:
        complain(path, _("cannot remove: {why}").format(why=oserror(err)))
        raise Stop(1) from None
    if claimed is None:
        complain(path, N_("another mille took or changed it meanwhile"))
        return False
    try:
        recovery.remove(claimed)
    except OSError as err:
        recovery.release(claimed, path)
        complain(path, _("cannot remove: {why}").format(why=oserror(err)))
        raise Stop(1) from None
    return True


def _tell(line: str) -> None:
    """One line on standard error (nothing if it is gone)."""
    try:
        print(line, file=sys.stderr)
    except (OSError, ValueError):
        pass


def _say(text: str) -> None:
    """Write the question; Stop(1) if the output is gone (the games stay)."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except (OSError, ValueError):
        complain(None, N_("output lost: the interrupted games are kept for next time"))
        raise Stop(1) from None


def ask_yes_no(question: str, line: bool = False) -> bool | None:
    """Ask until the answer is y(es) or n(o); None at end of file.

    The boards take one key, as their other questions (no RETURN); the
    line mode (``line``) a line.  ^\\ is taken as ^C (KeyboardInterrupt)
    while it is asked; SIGTERM or a hang-up print one line and raise
    Stop(1), the terminal put back and the kept game left as it was."""
    from .process import route_named

    undo: list[Callable[[], None]] = []
    try:
        route_named(
            [("SIGQUIT", _interrupt), ("SIGTERM", _signalled), ("SIGHUP", _signalled)], undo
        )
        try:
            return _ask_line(question) if line else _ask_key(question)
        except _Signalled as exc:
            try:  # (the question's line ended, if the terminal is still there)
                sys.stdout.write("\n")
                sys.stdout.flush()
            except (OSError, ValueError):
                pass
            told = _("{reason}: the interrupted game is kept for next time")
            complain(None, told.format(reason=_(exc.reason)))
            raise Stop(1) from None
    finally:
        for restore in reversed(undo):
            restore()


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _signalled(signum: int, frame: FrameType | None) -> None:
    from ..storage.recovery import signal_reason

    raise _Signalled(signal_reason(signum))


def _ask_line(question: str) -> bool | None:
    from .commands import answer
    from .plain import read_line

    stream = getattr(sys.stdin, "buffer", None)
    while True:
        _say(question)
        try:
            raw = b"" if stream is None else read_line(stream)
        except KeyboardInterrupt:  # ^C: end the question's line, keep the game
            _say("\n")
            raise
        except OSError:  # the terminal is gone: no answer
            raw = b""
        if not raw:
            _say("\n")
            return None
        said = answer(raw.decode("utf-8", "replace").strip())
        if said in ("y", "n"):
            return said == "y"


def _ask_key(question: str) -> bool | None:
    from .commands import yes_no_key
    from .curses_keys import KeyReader, StreamKeyboard

    lost = []
    reader = KeyReader(StreamKeyboard(_read_byte()), idle=lambda: None, lost=lambda: lost.append(1))
    restore = _cbreak()  # before the question: a key typed at once is not lost
    try:
        _say(question)
        while True:
            try:
                key = reader.next_byte()
            except KeyboardInterrupt:
                _say("\n")
                raise
            if key is None or key == 4:  # end of file (or a terminal gone), ^D
                _say("\n")
                return None
            said = yes_no_key(key)
            if said:
                _say(chr(key).lower() + "\n")
                return said == "y"
            _say("\a")  # another key: a beep, as at the game's questions
    finally:
        restore()


def _cbreak() -> Callable[[], None]:
    """Standard input, if a terminal, in cbreak mode (a key at a time, no
    echo; ^C still interrupts); what puts it back."""
    try:
        import termios
        import tty

        fd = sys.stdin.fileno()
        saved = termios.tcgetattr(fd)
        tty.setcbreak(fd, termios.TCSANOW)  # (TCSAFLUSH would drop a key typed ahead)
    except Exception:  # not a terminal (termios.error), Windows (ImportError), ...
        return lambda: None

    def restore() -> None:
        try:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        except (OSError, termios.error):
            pass

    return restore


def _read_byte() -> Callable[[], bytes]:
    """What reads one byte of standard input: the terminal's file
    descriptor (unbuffered), else its stream."""
    import os

    try:
        fd = sys.stdin.fileno()
        terminal = os.isatty(fd)
    except (AttributeError, ValueError, OSError):
        terminal = False
    if terminal:
        return lambda: os.read(fd, 1)
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        return lambda: b""
    return lambda: bytes(stream.read(1))


def keep_again(session: Session, path: str, mtime: float, text: str) -> None:
    """The resumed game did not end well (the terminal would not do, or the
    game was cut short): keep it again, unless the game was kept already
    (a hang-up), with its old date if nothing was played."""
    from ..storage import recovery, savefile

    if session.kept is not None:
        return
    try:
        written = recovery.write(session)
        if savefile.dumps(session) == text:
            import os

            os.utime(written, (mtime, mtime))
        complain(None, N_("the interrupted game is kept for next time"))
    except OSError as err:
        complain(path, _("cannot keep the interrupted game: {why}").format(why=oserror(err)))
