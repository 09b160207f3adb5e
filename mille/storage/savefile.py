"""Save files: a game in progress as versioned, validated JSON.

BSD mille dumped its memory to the file and read it back unchecked.  Here
a save is a JSON document (``docs/save-format.md`` describes every field)
that is written atomically and checked from end to end when loaded: a file
that is not a complete, consistent save is refused with a one-line reason,
and never modified.  Nothing is ever pickled, marshalled or evaluated.

Version 3 holds any preset and seat count: the rules (rebuilt through
:func:`mille.engine.rules.find_rules`), who controls each seat (a person, or a
computer at its level, with its memory and generator), the whole table,
the dealer's generator, and the log of the moves since your last turn (what
the N-seat board and the line mode show, so a restored game shows the same
screen).  The table's rules are checked by :meth:`Table.validate`, the one
owner of the rules' invariants; this module checks the shape, and that each
logged move is one the engine could have made.  Version 2 (the same without
the log) still loads, as does version 1 (bsd only, mille 1.0), converted.

>>> from mille.game.session import Session
>>> game = Session.new(seed=7)
>>> text = dumps(game)
>>> dumps(loads(text)) == text
True
>>> loads(text.replace('"target": 700', '"target": 800'))
Traceback (most recent call last):
  ...
mille.storage.savefile.SaveError: impossible game: target must be one of [700, 1000], not 800
"""

from __future__ import annotations

import errno
import json
import math
import os
import random
import re
import stat
import sys
from dataclasses import replace

TYPE_CHECKING = False  # typing and tempfile are not loaded at run time (start-up)
if TYPE_CHECKING:
    from typing import Any, NoReturn

    from ..players.base import Player

from ..engine.cards import (
    ALL_NAMES,
    HAND_SLOTS,
    NO_CARD,
    NUM_SAFETIES,
    OUT_OF_GAS,
    SPEED_LIMIT,
    is_safety,
)
from ..engine.describe import recent
from ..engine.rules import BSD, PRESETS, PROBLEMS, RIGGINGS, Rules, RulesError, find_rules
from ..engine.table import (
    COUP,
    EXTENSION,
    OVER,
    PLAYING,
    Answer,
    Discard,
    Event,
    Move,
    Outcome,
    Pick,
    Table,
    Use,
)
from ..engine.tableau import Tableau
from ..engine.text import escape, shorten
from ..game.session import Session
from ..players.registry import computer_class, computer_kinds, kind_of

FORMAT = "bsd-mille-save"
VERSION = 3
VERSIONS = (1, 2, 3)  # the versions this mille reads (1 converted, 2 without a log)
# The most a save file may hold.  A save is about 20 KiB; nine seats with
# eight experts about 250 KiB (their guesses at the hands).  Before the
# expert wrote its guesses as card letters such a save took 1.2 to 2.3 MiB:
# those load too.  A save is refused (not written) past it.
MAX_SIZE = 4 << 20
SIZE_TEXT = "4 MiB"
# A temporary file's name is ".NAME." + 8 random characters + ".tmp" and
# must fit NAME_MAX (255 bytes): NAME is cut to 200 bytes, 14 for the rest.
TEMP_NAME_BYTES = 200
SHOW_LIMIT = 60  # characters of a bad value quoted in a message
MESSAGE_LIMIT = 160  # characters of a SaveError's message
BIG = 10**9  # the bound of a counter that has no other (games, totals)

NAMES = ALL_NAMES  # card i's name
_CARD_BY_NAME = {name: card for card, name in enumerate(NAMES)}
_MT_N = 624  # words in the Mersenne Twister's state
_PHASES = (PLAYING, EXTENSION, COUP, OVER)
# Read without blocking on a FIFO or taking a terminal (where these exist).
_READ_FLAGS: int = os.O_RDONLY
for _flag in ("O_BINARY", "O_NONBLOCK", "O_NOCTTY", "O_CLOEXEC"):
    _READ_FLAGS |= getattr(os, _flag, 0)

_TOP_KEYS = ("format", "version", "rules", "seats", "table", "window_full", "deal_rng", "log")
_V2_TOP_KEYS = _TOP_KEYS[:-1]  # version 2 had no log
_EVENT_KEYS = (
    "seat",
    "move",
    "card",
    "drawn",
    "coup_fourre",
    "extra_turn",
    "notices",
    "phase",
    "mileage",
)
_MOVE = re.compile(r"P|U[P1-6](>[1-9])?|D[P1-6]|y|n")
_NOTICE = re.compile(
    r"discard pile reshuffled|karma clash: both lose karma"
    r"|side [1-9] (loses|regains) karma"
)
_RULES_KEYS = (
    "name",
    "players",
    "team_mode",
    "distance",
    "winning_score",
    "perfect_crossing",
    "stacking",
    "reshuffle",
    "always_discard",
    "rigging",
    "karma",
)
_BOOL_OPTIONS = ("perfect_crossing", "stacking", "reshuffle", "always_discard", "karma")
_HUMAN_KEYS = ("control",)
_COMPUTER_KEYS = ("control", "kind", "memory", "rng")
_TABLE_KEYS = (
    "hands",
    "tableaux",
    "deck",
    "discard",
    "set_aside",
    "target",
    "to_move",
    "starter",
    "phase",
    "asked",
    "offer",
    "extender",
    "totals",
    "games",
    "ordering",
    "marks",
    "seed",
    "refills",
)
# written only when set (files from before them lack them: 0 and false)
_TABLE_OPTIONAL = ("idle_refills",)
_TABLEAU_OPTIONAL = ("needs_go",)
_TABLEAU_KEYS = (
    "battle",
    "speed",
    "miles",
    "safeties",
    "coups",
    "mileage",
    "top",
    "speed_top",
    "can_go",
    "battle_window",
    "speed_window",
    "record",
    "problems",
    "saved",
    "karma",
)
_OFFER_KEYS = ("side", "safety", "hazard")
_RNG_KEYS = ("version", "state", "gauss_next")
# version 1
_V1_TOP_KEYS = (
    "format",
    "version",
    "players",
    "deck",
    "discard",
    "end",
    "to_move",
    "starter",
    "phase",
    "extender",
    "ordering",
    "window_full",
    "computer",
    "rng",
)
_V1_PLAYER_KEYS = (
    "hand",
    "battle",
    "speed",
    "battle_pile",
    "speed_pile",
    "miles",
    "safeties",
    "coups",
    "can_go",
    "battle_window",
    "speed_window",
    "mileage",
    "total_before_hand",
    "games",
)
_V1_PHASES = (PLAYING, EXTENSION, OVER)


class SaveError(ValueError):
    """A file is not a save this program can restore; ``str()`` says why.

    The reason is always one printable line of at most ``MESSAGE_LIMIT``
    characters, whatever the file held.  ``errno`` is set when the reason is
    an operating-system error.
    """

    def __init__(self, message: str, errno: int | None = None) -> None:
        super().__init__(shorten(escape(message), MESSAGE_LIMIT))
        self.errno = errno


# ----- writing ----------------------------------------------------------


def _card(card: int) -> str | None:
    return None if card == NO_CARD else NAMES[card]


def _cards(cards: list[int]) -> list[str]:
    return [NAMES[c] for c in cards]


def _rng_to_dict(rng: random.Random) -> dict[str, Any]:
    version, internal, gauss_next = rng.getstate()
    return {"version": version, "state": list(internal), "gauss_next": gauss_next}


def _canonical(value: Any) -> Any:
    """``value`` with every object's keys sorted (for a deterministic file)."""
    if isinstance(value, dict):
        return {str(k): _canonical(value[k]) for k in sorted(value, key=str)}
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    return value


def rules_to_dict(rules: Rules) -> dict[str, Any]:
    """The preset's name and every option: what ``find_rules`` rebuilds them from."""
    return {
        "name": rules.name,
        "players": rules.players,
        "team_mode": rules.team_mode,
        "distance": rules.target,
        "winning_score": rules.winning_score,
        "perfect_crossing": rules.perfect_crossing,
        "stacking": rules.stacking,
        "reshuffle": rules.reshuffle,
        "always_discard": rules.always_discard,
        "rigging": rules.rigging,
        "karma": rules.karma,
    }


def _seat_to_dict(session: Session, seat: int) -> dict[str, Any]:
    player = session.computers.get(seat)
    if player is None:
        return {"control": "human"}
    try:
        kind = kind_of(player)
    except ValueError:
        kind = ""
    if kind not in computer_kinds(session.rules):
        raise SaveError(
            f"cannot save a computer of type {type(player).__name__} under {session.rules.name}"
        )
    computer: Any = player
    if computer.seat != seat:
        raise SaveError(f"cannot save seat {seat}'s computer: it plays seat {computer.seat}")
    return {
        "control": "computer",
        "kind": kind,
        "memory": _canonical(computer.to_dict()),
        "rng": _rng_to_dict(computer.rng),
    }


def _tableau_to_dict(tab: Tableau) -> dict[str, Any]:
    return {
        "battle": _cards(tab.battle),
        "speed": _cards(tab.speed),
        "miles": _cards(tab.miles),
        "safeties": _cards(tab.safeties),
        "coups": list(tab.coups),
        "mileage": tab.mileage,
        "top": _card(tab.top),
        "speed_top": _card(tab.speed_top),
        "can_go": tab.can_go,
        "battle_window": tab.battle_window,
        "speed_window": tab.speed_window,
        "record": _cards(tab.record),
        "problems": _cards(tab.problems),
        "saved": _cards(tab.saved),
        "karma": tab.karma,
    } | ({"needs_go": True} if tab.needs_go else {})


def table_to_dict(table: Table) -> dict[str, Any]:
    """The table's state (not its rules) as the file's ``table`` object."""
    offer = table.offer
    return {
        "hands": [[_card(c) for c in hand] for hand in table.hands],
        "tableaux": [_tableau_to_dict(tab) for tab in table.tableaux],
        "deck": _cards(table.deck),
        "discard": _cards(table.discard),
        "set_aside": _cards(table.set_aside),
        "target": table.target,
        "to_move": table.to_move,
        "starter": table.starter,
        "phase": table.phase,
        "asked": table.asked,
        "offer": None
        if offer is None
        else {
            "side": offer[0],
            "safety": NAMES[offer[1]],
            "hazard": NAMES[offer[2]],
        },
        "extender": table.extender,
        "totals": list(table.totals),
        "games": list(table.games),
        "ordering": table.ordering,
        "marks": list(table.marks),
        "seed": table.seed,
        "refills": table.refills,
    } | ({"idle_refills": table.idle_refills} if table.idle_refills else {})


def session_to_dict(session: Session) -> dict[str, Any]:
    """The whole session as a JSON-able dict, keys in the file's order."""
    table = session.table
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": rules_to_dict(table.rules),
        "seats": [_seat_to_dict(session, seat) for seat in range(table.rules.players)],
        "table": table_to_dict(table),
        "window_full": session.window_full,
        "deal_rng": _rng_to_dict(session.deal_rng),
        "log": [_event_to_dict(event) for event in session.log[recent(session.log) :]],
    }


def _event_to_dict(event: Event) -> dict[str, Any]:
    outcome = event.outcome
    return {
        "seat": outcome.seat,
        "move": str(outcome.move),
        "card": _card(outcome.card),
        "drawn": _cards(list(outcome.drawn)),
        "coup_fourre": outcome.coup_fourre,
        "extra_turn": outcome.extra_turn,
        "notices": list(event.notices),
        "phase": event.phase,
        "mileage": event.mileage,
    }


def _format(value: Any, indent: str) -> str:
    """JSON text: objects one key a line, arrays of plain values on one line."""
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = indent + "  "
        items = [f"{inner}{json.dumps(str(k))}: {_format(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list):
        if any(isinstance(v, (dict, list)) for v in value):
            inner = indent + "  "
            items = [inner + _format(v, inner) for v in value]
            return "[\n" + ",\n".join(items) + "\n" + indent + "]"
    if value is None or isinstance(value, (bool, int, float, str, list)):
        try:
            return json.dumps(value, allow_nan=False)
        except ValueError:
            raise SaveError("cannot save a number that is not finite") from None
    raise SaveError(f"cannot save a value of type {type(value).__name__}")


def dumps(session: Session) -> str:
    """The save file's text for ``session`` (deterministic, ASCII, ends in a newline)."""
    return _format(session_to_dict(session), "") + "\n"


def save_session(session: Session, path: str) -> None:
    """Write ``session`` to ``path`` atomically; OSError if it cannot be done.

    The text is first checked to load back into the same game.  It goes to a
    temporary file beside the target, is flushed to disk and then renamed
    over the target, so the target is either the old file or the complete
    new one; the temporary file never outlives a failure.  A symbolic link
    is followed (its target is replaced); a target you may not write to is
    refused with ``Permission denied``, as creat(2) would.
    """
    try:
        text = dumps(session)
        if dumps(loads(text)) != text:
            raise SaveError("the saved game does not load back the same")
    except SaveError as e:  # a bug, not the user's: keep the game, say why
        raise OSError(errno.EINVAL, f"cannot save: {e}") from e
    data = text.encode("ascii")
    if len(data) > MAX_SIZE:  # it would not load: refuse it now
        raise OSError(
            errno.EFBIG,
            f"cannot save: the game takes {len(data)} bytes, "
            f"over the {SIZE_TEXT} a save file may hold",
        )

    if path.endswith(("/", os.sep)):  # creat(2) refuses "name/" too
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
    target = os.path.realpath(path)
    try:
        old = os.stat(target)
    except FileNotFoundError:
        old = None
    if old is not None:
        if stat.S_ISDIR(old.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        if not os.access(target, os.W_OK):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
        if not stat.S_ISREG(old.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", path)
        mode = stat.S_IMODE(old.st_mode)
    else:
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


# ----- reading ----------------------------------------------------------


def _fail(where: str, message: str) -> NoReturn:
    raise SaveError(f"{where}: {message}" if where else message)


def _show(value: Any) -> str:
    """A bad value for a message: JSON-like, at most ``SHOW_LIMIT`` characters.

    Never raises, whatever the value (nested past the recursion limit, an
    integer past the int-to-text digit limit, a megabyte of text): only the
    part that is shown is ever rendered.
    """
    if isinstance(value, str):  # Python's quotes, as in "unknown card 'Foo'"
        text = repr(value[: SHOW_LIMIT + 1])
    else:
        parts: list[str] = []
        _render(value, parts, SHOW_LIMIT + 1)
        text = "".join(parts)
    return shorten(escape(text), SHOW_LIMIT)


def _render(value: Any, parts: list[str], budget: int) -> int:
    """Append ``value`` as JSON to ``parts`` until ``budget`` characters are
    used up (then stop: deep or long values are never walked to the end);
    the budget left."""
    if budget <= 0:
        return budget
    if isinstance(value, (list, tuple)):
        parts.append("[")
        budget -= 1
        for i, item in enumerate(value):
            if budget <= 0:
                return budget
            if i:
                parts.append(", ")
                budget -= 2
            budget = _render(item, parts, budget)
        parts.append("]")
        return budget - 1
    if isinstance(value, dict):
        parts.append("{")
        budget -= 1
        for i, (key, item) in enumerate(value.items()):
            if budget <= 0:
                return budget
            if i:
                parts.append(", ")
                budget -= 2
            budget = _render(str(key) if isinstance(key, str) else key, parts, budget)
            parts.append(": ")
            budget = _render(item, parts, budget - 2)
        parts.append("}")
        return budget - 1
    if value is None or isinstance(value, bool):
        text = {None: "null", True: "true", False: "false"}[value]
    elif isinstance(value, int):
        text = _int_text(value)
    elif isinstance(value, float):
        text = repr(value) if math.isfinite(value) else str(value)
    elif isinstance(value, str):
        text = json.dumps(value[:budget])
    else:
        text = f"<{type(value).__name__}>"
    parts.append(text[: budget + 1])
    return budget - len(text)


def _int_text(value: int) -> str:
    """An integer's digits, or (past a few hundred) its leading digits: at
    least ``SHOW_LIMIT + 1`` characters, never the whole of a huge number."""
    if value.bit_length() <= 1000:
        return str(value)
    # a lower bound on the digits past the first hundred
    cut = int((value.bit_length() - 1) * 0.30102999) - 100
    return ("-" if value < 0 else "") + str(abs(value) // 10**cut)


def _object(data: Any, where: str, keys: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(data, dict):
        _fail(where, f"expected an object, got {_show(data)}")
    for key in keys:
        if key not in data:
            _fail(where, f"missing key {key!r}")
    for key in data:
        if key not in keys:
            _fail(where, f"unknown key {_show(key)}")
    return data


def _int(data: Any, where: str, low: int, high: int) -> int:
    if type(data) is not int:
        _fail(where, f"expected an integer, got {_show(data)}")
    if not low <= data <= high:
        _fail(where, f"{_show(data)} is out of range {low}..{high}")
    return data


def _optional_int(data: Any, where: str, low: int, high: int) -> int | None:
    if data is None:
        return None
    if type(data) is not int:
        _fail(where, f"expected an integer or null, got {_show(data)}")
    return _int(data, where, low, high)


def _bool(data: Any, where: str) -> bool:
    if type(data) is not bool:
        _fail(where, f"expected true or false, got {_show(data)}")
    return data


def _str(data: Any, where: str) -> str:
    if not isinstance(data, str):
        _fail(where, f"expected a string, got {_show(data)}")
    return data


def _list(data: Any, where: str, length: int | None = None) -> list[Any]:
    if not isinstance(data, list):
        _fail(where, f"expected an array, got {_show(data)}")
    if length is not None and len(data) != length:
        _fail(where, f"expected {length} entries, got {len(data)}")
    return data


def _ints(data: Any, where: str, length: int, low: int, high: int) -> list[int]:
    return [_int(n, f"{where}[{i}]", low, high) for i, n in enumerate(_list(data, where, length))]


def _card_in(data: Any, where: str, *, empty_ok: bool) -> int:
    if data is None and empty_ok:
        return NO_CARD
    if not isinstance(data, str):
        kind = "a card name or null" if empty_ok else "a card name"
        _fail(where, f"expected {kind}, got {_show(data)}")
    try:
        return _CARD_BY_NAME[data]
    except KeyError:
        _fail(where, f"unknown card {_show(data)}")


def _card_list(data: Any, where: str) -> list[int]:
    return [_card_in(c, f"{where}[{i}]", empty_ok=False) for i, c in enumerate(_list(data, where))]


def _hand(data: Any, where: str) -> list[int]:
    return [
        _card_in(c, f"{where}[{i}]", empty_ok=True)
        for i, c in enumerate(_list(data, where, HAND_SLOTS))
    ]


def _coups(data: Any, where: str) -> list[bool]:
    return [_bool(c, f"{where}[{i}]") for i, c in enumerate(_list(data, where, NUM_SAFETIES))]


def _rng(data: Any, where: str) -> random.Random:
    d = _object(data, where, _RNG_KEYS)
    if type(d["version"]) is not int or d["version"] != 3:
        _fail(f"{where}.version", f"unsupported generator version {_show(d['version'])}")
    words = _list(d["state"], f"{where}.state", _MT_N + 1)
    for i, w in enumerate(words[:_MT_N]):
        _int(w, f"{where}.state[{i}]", 0, 2**32 - 1)
    _int(words[_MT_N], f"{where}.state[{_MT_N}]", 1, _MT_N)
    if not any(words[:_MT_N]):
        _fail(f"{where}.state", "all zero: not a generator state")
    gauss = d["gauss_next"]
    if gauss is not None and (type(gauss) is not float or not math.isfinite(gauss)):
        _fail(f"{where}.gauss_next", f"expected a number or null, got {_show(gauss)}")
    rng = random.Random()
    try:
        rng.setstate((3, tuple(words), gauss))
    except (ValueError, TypeError, OverflowError) as e:  # pragma: no cover - checked above
        _fail(where, f"bad generator state ({e})")
    return rng


def _validated(table: Table) -> Table:
    """``table`` if the rules allow it (the engine's own checks, strictly)."""
    try:
        table.validate(strict=True)
    except ValueError as e:
        _fail("", f"impossible game: {e}")
    return table


def _computer(kind: str, memory: Any, rng: random.Random, seat: int, where: str) -> Player:
    """The computer of ``seat`` rebuilt from its memory by its own check."""
    if not isinstance(memory, dict):
        _fail(where, f"expected an object, got {_show(memory)}")
    try:
        computer: Player = computer_class(kind).from_dict(memory, rng, seat)
    except RecursionError:
        _fail(where, "nested too deeply")
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as e:
        reason = str(e).splitlines()[0] if str(e) else type(e).__name__
        for prefix in ("computer: ", "computer.", "heuristic: "):
            reason = reason.removeprefix(prefix)
        _fail(where, reason)
    if getattr(computer, "seat", seat) != seat:
        _fail(where, f"the memory of seat {_show(computer.seat)}, not {seat}")
    return computer


# ----- version 2 ------------------------------------------------------------

# Classic's 6-player game raced to 1000 without an extension until it became
# a race to 700 with the extension to 1000, as every classic game but the
# 4-player one.  A version-3 file saved before (its rules' distance 1000, the
# target it was saved with) goes on under those rules to the end of the
# game, later hands included: a hand cannot change its target half way,
# and a game keeps its rules.  The Rules value is the preset's with that
# target and no extension; it writes back as it was read (distance 1000).
# Files written since say 700 and load as today's rules.
LEGACY_SIX_TARGET = 1000


def legacy_classic_six(rules: Rules) -> Rules:
    """Classic's 6-player rules as saved before the extension came to it."""
    return replace(rules, target=LEGACY_SIX_TARGET, extension=None)


def _rules(data: Any, where: str) -> Rules:
    d = _object(data, where, _RULES_KEYS)
    name = _str(d["name"], f"{where}.name")
    if name not in PRESETS:
        _fail(f"{where}.name", f"unknown rules {_show(name)} (choose {', '.join(PRESETS)})")
    players = _int(d["players"], f"{where}.players", 2, 9)
    options: dict[str, Any] = {
        "team_mode": _str(d["team_mode"], f"{where}.team_mode"),
        "distance": _int(d["distance"], f"{where}.distance", 0, BIG),
        "winning_score": _int(d["winning_score"], f"{where}.winning_score", 0, BIG),
    }
    for key in _BOOL_OPTIONS:
        options[key] = _bool(d[key], f"{where}.{key}")
    rigging = options["rigging"] = _str(d["rigging"], f"{where}.rigging")
    if rigging not in RIGGINGS:
        _fail(
            f"{where}.rigging",
            f"unknown deck rigging {_show(rigging)} (choose {', '.join(RIGGINGS)})",
        )
    try:
        if name == "milebymile":
            rules = find_rules(name, players=players, **options)
        else:
            rules = find_rules(name, players=players)
    except RulesError as e:
        _fail(where, str(e))
    if name == "classic" and players == 6 and options["distance"] == LEGACY_SIX_TARGET:
        rules = legacy_classic_six(rules)
    # bsd and classic have no options: the file states the preset's own
    own = rules_to_dict(rules)
    for key, value in options.items():
        if own[key] != value:
            _fail(
                f"{where}.{key}",
                f"{name} with {players} players has {_show(own[key])}, not {_show(value)}",
            )
    return rules


def _tableau(data: Any, where: str, rules: Rules) -> Tableau:
    d = _object(data, where, _TABLEAU_KEYS + _optional(data, _TABLEAU_OPTIONAL))
    piles = {
        key: _card_list(d[key], f"{where}.{key}")
        for key in ("battle", "speed", "miles", "safeties", "record", "problems", "saved")
    }
    played = piles["record"] if rules.battle == PROBLEMS else piles["miles"]
    return Tableau(
        battle=piles["battle"],
        speed=piles["speed"],
        miles=piles["miles"],
        safeties=piles["safeties"],
        coups=_coups(d["coups"], f"{where}.coups"),
        mileage=_int(d["mileage"], f"{where}.mileage", 0, BIG),
        nummiles=[played.count(c) for c in range(5)],
        top=_card_in(d["top"], f"{where}.top", empty_ok=True),
        speed_top=_card_in(d["speed_top"], f"{where}.speed_top", empty_ok=True),
        can_go=_bool(d["can_go"], f"{where}.can_go"),
        battle_window=_bool(d["battle_window"], f"{where}.battle_window"),
        speed_window=_bool(d["speed_window"], f"{where}.speed_window"),
        record=piles["record"],
        problems=piles["problems"],
        saved=piles["saved"],
        karma=_bool(d["karma"], f"{where}.karma"),
        needs_go=_bool(d.get("needs_go", False), f"{where}.needs_go"),
    )


def _offer(data: Any, where: str, sides: int) -> tuple[int, int, int] | None:
    if data is None:
        return None
    d = _object(data, where, _OFFER_KEYS)
    return (
        _int(d["side"], f"{where}.side", 1, sides),
        _card_in(d["safety"], f"{where}.safety", empty_ok=False),
        _card_in(d["hazard"], f"{where}.hazard", empty_ok=False),
    )


def table_from_dict(data: Any, rules: Rules) -> Table:
    """A table written by ``table_to_dict`` under ``rules``, checked (the
    shape here, the game by ``Table.validate``); ``SaveError`` if refused."""
    return _table(data, "table", rules)


def _optional(data: Any, keys: tuple[str, ...]) -> tuple[str, ...]:
    """Those of the optional ``keys`` that ``data`` holds."""
    return tuple(key for key in keys if isinstance(data, dict) and key in data)


def _table(data: Any, where: str, rules: Rules) -> Table:
    d = _object(data, where, _TABLE_KEYS + _optional(data, _TABLE_OPTIONAL))
    seats, sides = rules.players, rules.sides
    phase = d["phase"]
    if not isinstance(phase, str) or phase not in _PHASES:
        _fail(f"{where}.phase", f"unknown phase {_show(phase)}")
    table = Table(
        rules=rules,
        hands=[
            _hand(h, f"{where}.hands[{i}]")
            for i, h in enumerate(_list(d["hands"], f"{where}.hands", seats))
        ],
        tableaux=[
            _tableau(t, f"{where}.tableaux[{i}]", rules)
            for i, t in enumerate(_list(d["tableaux"], f"{where}.tableaux", sides))
        ],
        deck=_card_list(d["deck"], f"{where}.deck"),
        discard=_card_list(d["discard"], f"{where}.discard"),
        set_aside=_card_list(d["set_aside"], f"{where}.set_aside"),
        target=_int(d["target"], f"{where}.target", 0, BIG),
        to_move=_int(d["to_move"], f"{where}.to_move", 0, seats - 1),
        starter=_int(d["starter"], f"{where}.starter", 0, seats - 1),
        phase=phase,
        asked=_optional_int(d["asked"], f"{where}.asked", 0, seats - 1),
        offer=_offer(d["offer"], f"{where}.offer", sides),
        extender=_optional_int(d["extender"], f"{where}.extender", 1, sides),
        totals=_ints(d["totals"], f"{where}.totals", sides, 0, BIG),
        games=_ints(d["games"], f"{where}.games", sides, 0, BIG),
        ordering=_bool(d["ordering"], f"{where}.ordering"),
        marks=_ints(d["marks"], f"{where}.marks", sides, 0, BIG),
        seed=_int(d["seed"], f"{where}.seed", 0, 2**32 - 1),
        refills=_int(d["refills"], f"{where}.refills", 0, BIG),
        idle_refills=_int(d.get("idle_refills", 0), f"{where}.idle_refills", 0, BIG),
    )
    return _validated(table)


def _seats(data: Any, where: str, rules: Rules) -> dict[int, Player]:
    computers: dict[int, Player] = {}
    kinds = computer_kinds(rules)
    for seat, item in enumerate(_list(data, where, rules.players)):
        here = f"{where}[{seat}]"
        if not isinstance(item, dict):
            _fail(here, f"expected an object, got {_show(item)}")
        if "control" not in item:
            _fail(here, "missing key 'control'")
        control = item["control"]
        if control == "human":
            _object(item, here, _HUMAN_KEYS)
            continue
        if control != "computer":
            _fail(f"{here}.control", f"must be 'human' or 'computer', not {_show(control)}")
        d = _object(item, here, _COMPUTER_KEYS)
        kind = d["kind"]
        if kind not in kinds:
            _fail(
                f"{here}.kind",
                f"must be one of {', '.join(map(repr, kinds))} under {rules.name},"
                f" not {_show(kind)}",
            )
        rng = _rng(d["rng"], f"{here}.rng")
        computers[seat] = _computer(kind, d["memory"], rng, seat, f"{here}.memory")
    return computers


def _move(text: Any, where: str) -> Move:
    if not isinstance(text, str) or not _MOVE.fullmatch(text):
        _fail(where, f"expected a move (P, U3, U4>2, DP, y, n), got {_show(text)}")
    if text in ("y", "n"):
        return Answer(text == "y")
    if text == "P":
        return Pick()
    slot = 0 if text[1] == "P" else int(text[1])
    if text[0] == "D":
        return Discard(slot)
    return Use(slot, int(text[3]) if len(text) > 2 else None)


def _event(data: Any, where: str, rules: Rules) -> Event:
    d = _object(data, where, _EVENT_KEYS)
    seat = _int(d["seat"], f"{where}.seat", 0, rules.players - 1)
    move = _move(d["move"], f"{where}.move")
    if isinstance(move, Use) and move.target is not None and move.target > rules.sides:
        _fail(f"{where}.move", f"no side {move.target} under these rules")
    drawn = _card_list(d["drawn"], f"{where}.drawn")
    if len(drawn) > 2:
        _fail(f"{where}.drawn", "a pick draws at most 2 cards")
    notices = _list(d["notices"], f"{where}.notices")
    for i, notice in enumerate(notices):
        if not isinstance(notice, str) or not _NOTICE.fullmatch(notice):
            _fail(f"{where}.notices[{i}]", f"not a notice mille gives: {_show(notice)}")
    phase = d["phase"]
    if phase not in (PLAYING, EXTENSION, COUP):
        _fail(
            f"{where}.phase",
            f"expected one of {PLAYING!r}, {EXTENSION!r}, {COUP!r}, got {_show(phase)}",
        )
    outcome = Outcome(
        seat,
        move,
        card=_card_in(d["card"], f"{where}.card", empty_ok=True),
        drawn=tuple(drawn),
        coup_fourre=_bool(d["coup_fourre"], f"{where}.coup_fourre"),
        extra_turn=_bool(d["extra_turn"], f"{where}.extra_turn"),
    )
    mileage = _int(d["mileage"], f"{where}.mileage", 0, BIG)
    _check_event(outcome, phase, notices, rules, where)
    return Event(outcome, tuple(notices), phase, mileage)


def _check_event(
    outcome: Outcome, phase: str, notices: list[str], rules: Rules, where: str
) -> None:
    """An event the engine could have made: its card, draws, flags and
    notices agree with its move and the rules."""
    move, card = outcome.move, outcome.card
    if isinstance(move, Answer):
        if phase == PLAYING:
            _fail(where, "an answer is made only to a question")
        if (
            outcome.coup_fourre != (card != NO_CARD)
            or outcome.coup_fourre
            and not (move.yes and phase == COUP and is_safety(card))
        ):
            _fail(where, "only a yes to Coup Fourre? plays a card (its safety)")
    elif phase != PLAYING:
        _fail(where, f"a question must be answered y or n, not {move}")
    elif isinstance(move, Pick):
        if card != NO_CARD or not 1 <= len(outcome.drawn) <= 2:
            _fail(where, "a pick draws 1 or 2 cards and plays none")
    elif card == NO_CARD or outcome.drawn:
        _fail(where, f"{move} plays a card and draws none")
    if not isinstance(move, Pick) and outcome.drawn:
        _fail(where, "only a pick draws cards")
    safety = isinstance(move, Use) and is_safety(card)
    if (
        outcome.extra_turn != safety
        or outcome.coup_fourre
        and not (safety or isinstance(move, Answer))
    ):
        _fail(where, "only a safety gives another turn or a coup fourre")
    if (
        isinstance(move, Use)
        and move.target == rules.side_of(outcome.seat)
        and OUT_OF_GAS <= card <= SPEED_LIMIT
    ):
        _fail(where, "a hazard on the mover's own side")
    for i, notice in enumerate(notices):
        karma = notice != "discard pile reshuffled"
        side = int(notice.split()[1]) if notice.startswith("side ") else 0
        if (karma and not rules.karma) or (not karma and not rules.reshuffle) or side > rules.sides:
            _fail(f"{where}.notices[{i}]", f"not a notice of these rules: {_show(notice)}")


def _check_log(log: list[Event]) -> None:
    if recent(log):
        _fail(f"log[{recent(log) - 1}]", "the log starts after your last turn, not before it")


def _from_v2(data: dict[str, Any]) -> Session:
    """Version 3, or version 2 (the same without the log)."""
    d = _object(data, "", _TOP_KEYS if data["version"] == 3 else _V2_TOP_KEYS)
    rules = _rules(d["rules"], "rules")
    table = _table(d["table"], "table", rules)
    computers = _seats(d["seats"], "seats", rules)
    if table.phase in (EXTENSION, COUP) and table.asked in computers:
        _fail("table.asked", "a computer never leaves a question pending")
    window_full = _bool(d["window_full"], "window_full")
    deal_rng = _rng(d["deal_rng"], "deal_rng")
    log = [
        _event(item, f"log[{i}]", rules) for i, item in enumerate(_list(d.get("log", []), "log"))
    ]
    _check_log(log)
    return Session(
        table=table, computers=computers, deal_rng=deal_rng, window_full=window_full, log=log
    )


# ----- version 1 (mille 1.0: bsd, you against the computer) --------------------


def _v1_player(data: Any, where: str) -> tuple[list[int], Tableau, int, int]:
    """A version-1 player: hand, tableau, total before the hand, games."""
    d = _object(data, where, _V1_PLAYER_KEYS)
    hand = _hand(d["hand"], f"{where}.hand")
    miles = _card_list(d["miles"], f"{where}.miles")
    tableau = Tableau(
        battle=_card_list(d["battle_pile"], f"{where}.battle_pile"),
        speed=_card_list(d["speed_pile"], f"{where}.speed_pile"),
        miles=miles,
        safeties=_card_list(d["safeties"], f"{where}.safeties"),
        coups=_coups(d["coups"], f"{where}.coups"),
        mileage=_int(d["mileage"], f"{where}.mileage", 0, 1000),
        nummiles=[miles.count(c) for c in range(5)],
        top=_card_in(d["battle"], f"{where}.battle", empty_ok=True),
        speed_top=_card_in(d["speed"], f"{where}.speed", empty_ok=True),
        can_go=_bool(d["can_go"], f"{where}.can_go"),
        battle_window=_bool(d["battle_window"], f"{where}.battle_window"),
        speed_window=_bool(d["speed_window"], f"{where}.speed_window"),
    )
    total = _int(d["total_before_hand"], f"{where}.total_before_hand", 0, 4999)
    return hand, tableau, total, _int(d["games"], f"{where}.games", 0, BIG)


def _from_v1(data: dict[str, Any]) -> Session:
    """A version-1 save as a version-2 session: the bsd rules, seat 0 you,
    seat 1 the computer; each player's hand and board become a seat's hand
    and a side's tableau; ``end`` becomes the target."""
    d = _object(data, "", _V1_TOP_KEYS)
    players = [
        _v1_player(p, f"players[{i}]") for i, p in enumerate(_list(d["players"], "players", 2))
    ]
    phase = d["phase"]
    if not isinstance(phase, str) or phase not in _V1_PHASES:
        _fail("phase", f"unknown phase {_show(phase)}")
    end = d["end"]
    if type(end) is not int or end not in (700, 1000):
        _fail("end", f"must be 700 or 1000, not {_show(end)}")
    asked = extender = None
    if phase == EXTENSION:
        asked = _int(d["extender"], "extender", 0, 1)
        if asked == 1:  # Session.play decides for it at once
            _fail("extender", "the computer never leaves Extension? pending")
    elif d["extender"] is not None:
        _fail("extender", f"must be null outside the extension phase, not {_show(d['extender'])}")
    if end == 1000:  # version 1 did not keep who called it: the first side past 700
        extender = next((side for side, p in enumerate(players, 1) if p[1].mileage >= 700), 1)
    table = _validated(
        Table(
            rules=BSD,
            hands=[p[0] for p in players],
            tableaux=[p[1] for p in players],
            deck=_card_list(d["deck"], "deck"),
            discard=_card_list(d["discard"], "discard"),
            target=end,
            to_move=_int(d["to_move"], "to_move", 0, 1),
            starter=_int(d["starter"], "starter", 0, 1),
            phase=phase,
            asked=asked,
            extender=extender,
            totals=[p[2] for p in players],
            games=[p[3] for p in players],
            ordering=_bool(d["ordering"], "ordering"),
        )
    )
    window_full = _bool(d["window_full"], "window_full")
    rngs = _object(d["rng"], "rng", ("deal", "computer"))
    deal_rng = _rng(rngs["deal"], "rng.deal")
    computer = _computer(
        "bsd", d["computer"], _rng(rngs["computer"], "rng.computer"), 1, "computer"
    )
    return Session(table=table, computers={1: computer}, deal_rng=deal_rng, window_full=window_full)


# ----- the document -------------------------------------------------------------


def session_from_dict(data: Any) -> Session:
    """Rebuild a session from a save's parsed JSON (version 3; 2, which has
    no log; or 1, converted); SaveError if it is not one."""
    try:
        return _session_from_dict(data)
    except RecursionError:  # a check deeper in (a computer's) met a deep value
        _fail("", "not a mille save file (nested too deeply)")


def _session_from_dict(data: Any) -> Session:
    if not isinstance(data, dict):
        _fail("", "not a mille save file (not a JSON object)")
    if data.get("format") != FORMAT:
        if "format" not in data:
            _fail("", "not a mille save file (no format name)")
        _fail("format", f"not a mille save file ({_show(data['format'])})")
    version = data.get("version")
    if type(version) is not int or version not in VERSIONS:
        _fail(
            "version",
            f"unsupported save version {_show(version)} (this mille reads versions 1, 2 and 3)",
        )
    return _from_v1(data) if version == 1 else _from_v2(data)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise SaveError(f"not a mille save file (duplicate key {_show(key)})")
        result[key] = value
    return result


def _no_constant(name: str) -> NoReturn:
    raise SaveError(f"not a mille save file ({name} is not JSON)")


def loads(text: str) -> Session:
    """Restore a session from a save file's text; SaveError if it is not one."""
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        _fail(
            "",
            f"not a mille save file (bad JSON at line {e.lineno} column {e.colno}: "
            f"{e.msg.lower()})",
        )
    except RecursionError:
        _fail("", "not a mille save file (nested too deeply)")
    except SaveError:
        raise
    except ValueError as e:  # e.g. an integer too long to convert
        limit = getattr(sys, "get_int_max_str_digits", lambda: 0)()
        if limit and "integer string conversion" in str(e):  # Python's own words
            _fail("", f"not a mille save file (a number of more than {limit} digits)")
        _fail("", f"not a mille save file ({str(e).splitlines()[0]})")
    return session_from_dict(data)


def load_session(path: str) -> Session:
    """Restore the game saved in ``path`` (never modified); SaveError if it cannot.

    OS errors give the system's reason (``No such file or directory``); the
    restored session's ``source`` is ``path``.
    """
    try:
        fd = os.open(path, _READ_FLAGS)
    except OSError as e:
        raise SaveError(e.strerror or str(e), e.errno) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise SaveError(os.strerror(errno.EISDIR), errno.EISDIR)
        if not stat.S_ISREG(info.st_mode):
            raise SaveError("not a regular file")
        if info.st_size > MAX_SIZE:
            raise SaveError(f"not a mille save file (over {SIZE_TEXT})")
        chunks = []
        size = 0
        while size <= MAX_SIZE:
            chunk = os.read(fd, MAX_SIZE + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as e:
        raise SaveError(e.strerror or str(e), e.errno) from None
    finally:
        os.close(fd)
    raw = b"".join(chunks)
    if len(raw) > MAX_SIZE:
        raise SaveError(f"not a mille save file (over {SIZE_TEXT})")
    if not raw.strip():
        raise SaveError("not a mille save file (empty)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SaveError(f"not a mille save file (not UTF-8 text at byte {e.start})") from None
    session = loads(text)
    session.source = path
    return session
