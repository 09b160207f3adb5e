"""Save files: a game in progress as versioned, validated JSON.

BSD mille dumped its memory to the file and read it back unchecked.  Here
a save is a JSON document (``docs/save-format.md`` describes every field)
that is written atomically and checked from end to end when loaded: a file
that is not a complete, consistent save is refused with a one-line reason,
and never modified.  Nothing is ever pickled, marshalled or evaluated.

>>> from mille.session import Session
>>> game = Session.new(seed=7)
>>> text = dumps(game)
>>> dumps(loads(text)) == text
True
>>> loads(text.replace('"end": 700', '"end": 800'))
Traceback (most recent call last):
  ...
mille.savefile.SaveError: end: must be 700 or 1000, not 800
"""

from __future__ import annotations

import errno
import json
import math
import os
import random
import stat

TYPE_CHECKING = False  # typing and tempfile are not loaded at run time (start-up)
if TYPE_CHECKING:
    from typing import Any, NoReturn

from .cards import (
    CARD_NAMES,
    END_OF_LIMIT,
    GO,
    HAND_SLOTS,
    NO_CARD,
    NUM_SAFETIES,
    RIGHT_OF_WAY,
    VALUES,
    is_distance,
    is_repair,
    is_safety,
)
from .computer import BsdComputer
from .engine import (
    COMPUTER,
    EXTENDED_END,
    FIRST_END,
    GAME_POINTS,
    GameState,
    Phase,
    PlayerState,
)
from .session import Session
from .text import escape, shorten

FORMAT = "bsd-mille-save"
VERSION = 1
MAX_SIZE = 1 << 20  # 1 MiB: a real save is about 20 KiB
# A temporary file's name is ".NAME." + 8 random characters + ".tmp" and
# must fit NAME_MAX (255 bytes): NAME is cut to 200 bytes, 14 for the rest.
TEMP_NAME_BYTES = 200
SHOW_LIMIT = 60  # characters of a bad value quoted in a message
MESSAGE_LIMIT = 160  # characters of a SaveError's message

_CARD_BY_NAME = {name: card for card, name in enumerate(CARD_NAMES)}
_MT_N = 624  # words in the Mersenne Twister's state
_PHASES = {phase.value: phase for phase in Phase}
# Read without blocking on a FIFO or taking a terminal (where these exist).
_READ_FLAGS: int = os.O_RDONLY
for _flag in ("O_BINARY", "O_NONBLOCK", "O_NOCTTY", "O_CLOEXEC"):
    _READ_FLAGS |= getattr(os, _flag, 0)

_PLAYER_KEYS = (
    "hand", "battle", "speed", "battle_pile", "speed_pile", "miles",
    "safeties", "coups", "can_go", "battle_window", "speed_window",
    "mileage", "total_before_hand", "games",
)
_TOP_KEYS = (
    "format", "version", "players", "deck", "discard", "end", "to_move",
    "starter", "phase", "extender", "ordering", "window_full", "computer",
    "rng",
)
_RNG_KEYS = ("version", "state", "gauss_next")


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
    return None if card == NO_CARD else CARD_NAMES[card]


def _cards(cards: list[int]) -> list[str]:
    return [CARD_NAMES[c] for c in cards]


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


def session_to_dict(session: Session) -> dict[str, Any]:
    """The whole session as a JSON-able dict, keys in the file's order."""
    state = session.state
    players = []
    for p in state.players:
        players.append({
            "hand": [_card(c) for c in p.hand],
            "battle": _card(p.battle),
            "speed": _card(p.speed),
            "battle_pile": _cards(p.battle_pile),
            "speed_pile": _cards(p.speed_pile),
            "miles": _cards(p.miles),
            "safeties": _cards(p.safeties),
            "coups": list(p.coups),
            "can_go": p.can_go,
            "battle_window": p.battle_window,
            "speed_window": p.speed_window,
            "mileage": p.mileage,
            "total_before_hand": p.total_before_hand,
            "games": p.games,
        })
    return {
        "format": FORMAT,
        "version": VERSION,
        "players": players,
        "deck": _cards(state.deck),
        "discard": _cards(state.discard),
        "end": state.end,
        "to_move": state.to_move,
        "starter": state.starter,
        "phase": state.phase.value,
        "extender": state.extender,
        "ordering": state.ordering,
        "window_full": session.window_full,
        "computer": _canonical(session.computer.to_dict()),
        "rng": {
            "deal": _rng_to_dict(session.deal_rng),
            "computer": _rng_to_dict(session.computer.rng),
        },
    }


def _format(value: Any, indent: str) -> str:
    """JSON text: objects one key a line, arrays of plain values on one line."""
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = indent + "  "
        items = [
            f"{inner}{json.dumps(str(k))}: {_format(v, inner)}" for k, v in value.items()
        ]
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
                prefix=f".{_cut_to_bytes(name, TEMP_NAME_BYTES)}.", suffix=".tmp",
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


# Signals whose handlers end the game (the UI's SIGTERM and SIGHUP handlers
# raise SystemExit, SIGINT may raise KeyboardInterrupt); POSIX only.
_EXIT_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")


def _block_exit_signals() -> set[int] | None:
    """Hold back SIGINT, SIGTERM and SIGHUP; the mask to restore (None where
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


def _bool(data: Any, where: str) -> bool:
    if type(data) is not bool:
        _fail(where, f"expected true or false, got {_show(data)}")
    return data


def _list(data: Any, where: str, length: int | None = None) -> list[Any]:
    if not isinstance(data, list):
        _fail(where, f"expected an array, got {_show(data)}")
    if length is not None and len(data) != length:
        _fail(where, f"expected {length} entries, got {len(data)}")
    return data


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
    return [
        _card_in(c, f"{where}[{i}]", empty_ok=False)
        for i, c in enumerate(_list(data, where))
    ]


def _player(data: Any, where: str) -> PlayerState:
    d = _object(data, where, _PLAYER_KEYS)
    hand = [
        _card_in(c, f"{where}.hand[{i}]", empty_ok=True)
        for i, c in enumerate(_list(d["hand"], f"{where}.hand", HAND_SLOTS))
    ]
    miles = _card_list(d["miles"], f"{where}.miles")
    for i, c in enumerate(miles):
        if not is_distance(c):
            _fail(f"{where}.miles[{i}]", f"{CARD_NAMES[c]!r} is not a distance card")
    coups = [
        _bool(c, f"{where}.coups[{i}]")
        for i, c in enumerate(_list(d["coups"], f"{where}.coups", NUM_SAFETIES))
    ]
    return PlayerState(
        hand=hand,
        battle=_card_in(d["battle"], f"{where}.battle", empty_ok=True),
        speed=_card_in(d["speed"], f"{where}.speed", empty_ok=True),
        battle_pile=_card_list(d["battle_pile"], f"{where}.battle_pile"),
        speed_pile=_card_list(d["speed_pile"], f"{where}.speed_pile"),
        miles=miles,
        safeties=_card_list(d["safeties"], f"{where}.safeties"),
        coups=coups,
        can_go=_bool(d["can_go"], f"{where}.can_go"),
        battle_window=_bool(d["battle_window"], f"{where}.battle_window"),
        speed_window=_bool(d["speed_window"], f"{where}.speed_window"),
        mileage=_int(d["mileage"], f"{where}.mileage", 0, EXTENDED_END),
        nummiles=[miles.count(c) for c in range(5)],
        total_before_hand=_int(
            d["total_before_hand"], f"{where}.total_before_hand", 0, GAME_POINTS - 1
        ),
        games=_int(d["games"], f"{where}.games", 0, 10**9),
    )


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


def _consistency(state: GameState) -> None:
    """What the engine's own ``validate`` leaves out, for a state a game can reach."""
    try:
        state.validate()
    except ValueError as e:
        _fail("", f"impossible game: {e}")
    for c in state.discard:
        if is_safety(c):
            _fail("discard", f"a safety cannot be discarded ({CARD_NAMES[c]!r})")
    for n, p in enumerate(state.players):
        where = f"players[{n}]"
        if p.battle == NO_CARD and p.battle_pile:
            _fail(f"{where}.battle", "empty, but the battle pile is not")
        if p.battle not in (NO_CARD, GO) and p.battle != p.battle_pile[-1]:
            _fail(f"{where}.battle", "is not the top of the battle pile")
        if p.battle == GO and GO not in p.battle_pile and not p.safeties:
            _fail(f"{where}.battle", "Go without a Go card or a safety")
        if p.speed != NO_CARD and p.speed != p.speed_pile[-1]:
            _fail(f"{where}.speed", "is not the top of the speed pile")
        if p.speed == NO_CARD and p.speed_pile and p.speed_pile[-1] != END_OF_LIMIT \
                and RIGHT_OF_WAY not in p.safeties:
            _fail(f"{where}.speed", "empty, but the speed pile shows a limit")
        rolling = p.battle == GO or (RIGHT_OF_WAY in p.safeties and is_repair(p.battle))
        if p.can_go != rolling:
            _fail(f"{where}.can_go", f"{'true' if p.can_go else 'false'} does not match the battle pile")
        if p.mileage % 25:
            _fail(f"{where}.mileage", "not a multiple of 25")
        if p.total_before_hand % 25:
            _fail(f"{where}.total_before_hand", "not a multiple of 25")
    miles = [p.mileage for p in state.players]
    if state.phase is Phase.PLAYING and state.end in miles:
        _fail("phase", f"still playing, but a player is at {state.end}")
    if state.phase is Phase.EXTENSION and state.end != FIRST_END:
        _fail("phase", f"an extension decision with end {state.end}")
    if state.end == EXTENDED_END and max(miles) < FIRST_END:
        _fail("end", "1000, but nobody reached 700")
    if state.phase is Phase.HAND_OVER and state.deck and state.end not in miles:
        _fail("phase", "the hand is over, but nobody finished and the deck is not empty")


def session_from_dict(data: Any) -> Session:
    """Rebuild a session from a save's parsed JSON; SaveError if it is not one."""
    try:
        return _session_from_dict(data)
    except RecursionError:  # a check deeper in (the computer's) met a deep value
        _fail("", "not a mille save file (nested too deeply)")


def _session_from_dict(data: Any) -> Session:
    if not isinstance(data, dict):
        _fail("", "not a mille save file (not a JSON object)")
    if data.get("format") != FORMAT:
        if "format" not in data:
            _fail("", "not a mille save file (no format name)")
        _fail("format", f"not a mille save file ({_show(data['format'])})")
    if type(data.get("version")) is not int or data["version"] != VERSION:
        _fail("version", f"unsupported save version {_show(data.get('version'))}"
              f" (this mille reads version {VERSION})")
    d = _object(data, "", _TOP_KEYS)
    players = _list(d["players"], "players", 2)
    phase_name = d["phase"]
    if not isinstance(phase_name, str) or phase_name not in _PHASES:
        _fail("phase", f"unknown phase {_show(phase_name)}")
    phase = _PHASES[phase_name]
    end = d["end"]
    if type(end) is not int or end not in (FIRST_END, EXTENDED_END):
        _fail("end", f"must be 700 or 1000, not {_show(end)}")
    extender = d["extender"]
    if phase is Phase.EXTENSION:
        extender = _int(extender, "extender", 0, 1)
        if extender == COMPUTER:  # Session.play decides for it at once
            _fail("extender", "the computer never leaves Extension? pending")
    elif extender is not None:
        _fail("extender", f"must be null outside the extension phase, not {_show(extender)}")
    state = GameState(
        players=(_player(players[0], "players[0]"), _player(players[1], "players[1]")),
        deck=_card_list(d["deck"], "deck"),
        discard=_card_list(d["discard"], "discard"),
        end=end,
        to_move=_int(d["to_move"], "to_move", 0, 1),
        starter=_int(d["starter"], "starter", 0, 1),
        phase=phase,
        extender=extender,
        ordering=_bool(d["ordering"], "ordering"),
    )
    _consistency(state)
    window_full = _bool(d["window_full"], "window_full")
    rngs = _object(d["rng"], "rng", ("deal", "computer"))
    deal_rng = _rng(rngs["deal"], "rng.deal")
    computer_rng = _rng(rngs["computer"], "rng.computer")
    memory = d["computer"]
    if not isinstance(memory, dict):
        _fail("computer", f"expected an object, got {_show(memory)}")
    try:
        computer = BsdComputer.from_dict(memory, computer_rng)
    except RecursionError:
        _fail("computer", "nested too deeply")
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as e:
        reason = str(e).splitlines()[0] if str(e) else type(e).__name__
        _fail("computer", reason.removeprefix("computer: ").removeprefix("computer."))
    if getattr(computer, "player", COMPUTER) != COMPUTER:
        _fail("computer.player", f"must be {COMPUTER} (the computer's side)")
    return Session(state=state, computer=computer, deal_rng=deal_rng, window_full=window_full)


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
        data = json.loads(
            text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant
        )
    except json.JSONDecodeError as e:
        _fail("", f"not a mille save file (bad JSON at line {e.lineno} column {e.colno}: "
                  f"{e.msg.lower()})")
    except RecursionError:
        _fail("", "not a mille save file (nested too deeply)")
    except SaveError:
        raise
    except ValueError as e:  # e.g. an integer too long to convert
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
            raise SaveError("not a mille save file (over 1 MiB)")
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
        raise SaveError("not a mille save file (over 1 MiB)")
    if not raw.strip():
        raise SaveError("not a mille save file (empty)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SaveError(f"not a mille save file (not UTF-8 text at byte {e.start})") from None
    session = loads(text)
    session.source = path
    return session
