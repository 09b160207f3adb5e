"""The ``mille`` command: ``mille [--seed N] [file]``.

The game itself (curses, the engine, the save-file code) is imported only
once it is needed.  The kept games are offered (``Resume it?``), or named
as waiting, by :mod:`mille.frontends.offer`.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field

from .. import __version__
from ..i18n import N_, _
from .cli_help import (
    BSD_USAGE,
    HELP,
    MORE_PLAYERS,
    SEE_HELP,
    USAGE,
    UsageError,
    help_text,
    one_line,
    quote,
    usage,
)
from .cli_people import name_given, parse_people

# read here before cli_help and cli_people held them (cli.USAGE, cli.parse_people, ...)
__all__ = ["HELP", "SEE_HELP", "USAGE", "UsageError", "parse_people"]


# the milebymile options: (flag, find_rules keyword, the spec's name)
_GAME_OPTIONS = (
    ("--players", "players"),
    ("--teams", "team_mode"),
    ("--distance", "distance"),
    ("--winning-score", "winning_score"),
    ("--perfect-crossing", "perfect_crossing"),
    ("--stacking", "stacking"),
    ("--reshuffle", "reshuffle"),
    ("--always-discard", "always_discard"),
    ("--rigging", "rigging"),
    ("--karma", "karma"),
)


TYPE_CHECKING = False  # no typing import at run time (start-up)
if TYPE_CHECKING:
    from typing import Any, NoReturn

    from ..engine.rules import Rules
    from ..game.session import Session


@dataclass(frozen=True)
class Options:
    """What the command line asks for.

    ``rules`` is None for BSD's game (the default: nothing else is
    imported to start it).
    """

    seed: int | None = None
    file: str | None = None
    action: str = (
        "play"  # "play", "help", "version", "stats", "forget", "export", "replay" (file), "review"
    )
    rules: Rules | None = None
    level: str = "standard"
    plain: bool = False
    chosen: bool = False  # game options or --seed: a new game, no Resume it?
    color: bool = True  # --no-color: False
    people: tuple[tuple[int, str | None], ...] | None = None  # --people: seat, name
    net: Network | None = None  # --host or --join
    record: bool = True  # --no-record: False
    as_json: bool = False  # --stats --json
    forget: str | None = None  # --forget NAME
    name: str | None = None  # --name NAME at home (remembered), or --stats NAME
    stats: Stats | None = None  # --stats: what to show
    yes: bool = False  # --forget --yes: no question
    export: tuple[int, str] | None = field(default=None, repr=False)  # --export N FILE
    review: tuple[str | None, str | None] | None = field(default=None, repr=False)  # N|FILE, NAME


@dataclass(frozen=True)
class Stats:
    """``--stats``: the filters and how many of the last games."""

    rules: str | None = None
    level: str | None = None
    people: tuple[str, ...] = ()
    last: int | None = None


@dataclass(frozen=True)
class Network:
    """``--host`` or ``--join`` and their options (``frontends.remote`` runs them: ``joining.join``, ``hosting.host``)."""

    join: tuple[str, str] | None = None  # ADDRESS[:PORT], CODE; None: --host
    name: str | None = None
    listen: str = "127.0.0.1"
    port: int = 7477
    grace: float = 60.0
    cert: str | None = None
    key: str | None = None
    wait: float = 300.0  # --join: seconds to wait for a host not listening yet
    watch: bool = False  # --watch: ``join`` is a table's address and watch code
    watchers: bool = True  # --host: the table may be watched (not --no-watchers)


ARGPARSE_WORDS = (  # argparse's own messages (its "argparse" domain), in mille's catalog
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("unrecognized arguments: %s"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("the following arguments are required: %s"),
    N_("ignored explicit argument %r"),
    N_("not allowed with argument %s"),
)


class _Parser(argparse.ArgumentParser):
    """argparse, with its complaints turned into one escaped line and the
    usage line, for exit status 1 (BSD's), not argparse's 2."""

    def error(self, message: str) -> NoReturn:
        from .process import LINE_LIMIT

        reason = _("mille: {reason}").format(reason=quote(message, LINE_LIMIT - 7))
        raise UsageError(f"{reason}\n{usage()}")


def _seed(text: str) -> int:
    """A number on the command line: ASCII digits (``int`` takes ``٣`` too)."""
    try:
        if not text.isascii():
            raise ValueError(text)
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("not a number: {text}").format(text=quote(text))
        ) from None


def _level(text: str) -> str:
    """``--level``: a level's code (``standard``) from its name in any
    language (``normal``, ``Facile``); a refusal lists the names in the
    player's language (``facile``, ``normal``, ``expert`` in French)."""
    from ..engine.describe import level_name
    from ..players.registry import LEVELS, level_code

    code = level_code(text)
    if code in LEVELS:
        return code
    names = ", ".join(repr(level_name(level)) for level in LEVELS)
    raise argparse.ArgumentTypeError(
        _("invalid choice: %(value)r (choose from %(choices)s)") % {"value": text, "choices": names}
    )


RIGGINGS = ("none", "no-duplicates", "2x-attacks", "2x-defenses")  # the rules' names, hyphenated


def _parser() -> _Parser:
    parser = _Parser(
        prog="mille", usage=USAGE[len("usage: ") :], add_help=False, allow_abbrev=False
    )
    parser.add_argument("-h", "--help", action="store_true")
    parser.add_argument("--version", action="store_true")
    parser.add_argument("--seed", type=_seed)
    parser.add_argument("--rules")
    parser.add_argument("--players", type=_seed)
    parser.add_argument("--level", type=_level)  # facile: easy
    parser.add_argument("--people")
    parser.add_argument("--plain", action="store_true")
    parser.add_argument("--no-color", action="store_true")
    parser.add_argument("--teams", dest="team_mode")
    parser.add_argument("--distance", type=_seed)
    parser.add_argument("--winning-score", type=_seed)
    for flag in ("perfect-crossing", "stacking", "reshuffle", "always-discard", "karma"):
        parser.add_argument(f"--{flag}", action=argparse.BooleanOptionalAction)
    parser.add_argument("--rigging", choices=RIGGINGS)
    parser.add_argument("--host", action="store_true")
    parser.add_argument("--join", nargs=2, metavar=("ADDRESS", "CODE"))
    parser.add_argument("--watch", nargs=2, metavar=("ADDRESS", "CODE"))
    parser.add_argument("--no-watchers", action="store_true")
    parser.add_argument("--name")
    parser.add_argument("--listen")
    parser.add_argument("--port", type=_seed)
    parser.add_argument("--grace", type=_seed)
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--stats", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--no-record", action="store_true")
    parser.add_argument("--forget")
    parser.add_argument("--export", nargs=2)
    parser.add_argument("--replay", nargs="?", const="")
    parser.add_argument("--review", nargs="?", const="")
    parser.add_argument("--seat")
    parser.add_argument("--yes", action="store_true")
    parser.add_argument("--last", type=_seed)
    parser.add_argument("--wait", type=_seed)
    parser.add_argument("--lang")  # chosen by main() before the rest is read
    parser.add_argument("files", nargs="*")
    return parser


def parse_args(argv: list[str]) -> Options:
    """Read the command line; raises UsageError.

    >>> parse_args(["--seed", "7"])  # doctest: +NORMALIZE_WHITESPACE
    Options(seed=7, file=None, action='play', rules=None, level='standard', plain=False,
            chosen=True, color=True, people=None, net=None, record=True, as_json=False,
            forget=None, name=None, stats=None, yes=False)
    >>> parse_args(["--no-color"]).color
    False
    >>> parse_args(["a", "b"])
    Traceback (most recent call last):
    ...
    mille.frontends.cli_help.UsageError: usage: mille [file]
    >>> parse_args(["--rules", "classic", "--players", "5"])
    Traceback (most recent call last):
    ...
    mille.frontends.cli_help.UsageError: mille: classic needs 2, 3, 4 or 6 players
    """
    cut = argv.index("--") if "--" in argv else len(argv)
    head, rest = argv[:cut], argv[cut + 1 :]  # after --, only files
    if "-h" in head or "--help" in head:
        return Options(action="help")
    args, unknown = _parser().parse_known_intermixed_args(head)
    for arg in unknown:
        if arg.startswith("-") and arg != "-":
            line = _("mille: unknown option: {option}").format(option=quote(arg))
            raise UsageError(f"{line}\n{usage()}")
    files = args.files + unknown + rest
    if args.version:
        return Options(action="version")
    if args.replay is not None:
        return _replay(args, files)
    record = _record(args, files)
    if record is not None:
        return record
    net = _network(args, files)
    name = name_given(args) if net is None else None
    if len(files) > 1:
        raise UsageError(BSD_USAGE)
    given = _game_options(args)
    if files:
        _refuse_with_a_file(args, given)
        return Options(
            file=files[0],
            plain=args.plain,
            color=not args.no_color,
            net=net,
            record=not args.no_record,
            name=name,
        )
    return _new_game(args, given, net, name)


_NEW_GAME = ("rules", "people", "level", "seed")  # besides the game options: a new game


def _new_game(
    args: argparse.Namespace, given: dict[str, Any], net: Network | None, name: str | None
) -> Options:
    """The options of a new game (no file), the rules found and the people read."""
    rules = _rules(args.rules, given) if args.rules is not None or given else None
    chosen = bool(given) or any(getattr(args, name) is not None for name in _NEW_GAME)
    people = None
    if args.people is not None:
        from ..engine.rules import BSD

        people = parse_people(args.people, (rules or BSD).players)
    return Options(
        seed=args.seed,
        rules=rules,
        level=args.level or "standard",
        plain=args.plain,
        chosen=chosen,
        color=not args.no_color,
        people=people,
        net=net,
        record=not args.no_record,
        name=name,
    )


def _game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The game options given, as :func:`mille.engine.rules.find_rules`'s keywords."""
    given = {key: getattr(args, key) for _, key in _GAME_OPTIONS}
    given = {key: value for key, value in given.items() if value is not None}
    if "rigging" in given:
        given["rigging"] = given["rigging"].replace("-", " ")
    return given


def _refuse_with_a_file(args: argparse.Namespace, given: dict[str, Any]) -> None:
    """UsageError if a saved game's file comes with options of a new game."""
    flags = [flag for flag, key in _GAME_OPTIONS if key in given]
    flags += [f"--{name}" for name in _NEW_GAME if getattr(args, name) is not None]
    if flags:
        raise UsageError(
            _(
                "mille: {options} cannot be used with a file: "
                "a saved game keeps its own rules, people, level and deal"
            ).format(options=", ".join(flags))
        )


def _rules(name: str | None, given: dict[str, Any]) -> Rules | None:
    """``--rules NAME`` with the game options ``given``; None for BSD's game."""
    from ..engine.rules import BSD, RulesError, find_rules

    if name != "milebymile":
        for flag, key in _GAME_OPTIONS[1:]:
            if key in given:
                raise UsageError(
                    _("mille: {option} is an option of --rules milebymile").format(option=flag)
                )
    rules_name = "bsd" if name is None else name
    try:
        rules = find_rules(rules_name, **given)
    except RulesError as exc:
        from .process import LINE_LIMIT

        reason = quote(_(str(exc)), LINE_LIMIT - 7)
        if rules_name == "bsd" and given.get("players", 2) > 2:
            reason += _("; ") + _(MORE_PLAYERS)
        raise UsageError(_("mille: {reason}").format(reason=reason)) from None
    return None if rules == BSD else rules  # BSD's: the default game


_STATS_OPTIONS = {"stats", "json", "last", "rules", "level", "people"}  # --stats's own


def _record(args: argparse.Namespace, files: list[str]) -> Options | None:
    """``--stats [NAME] [filters] [--json]`` and ``--forget NAME [--yes]``,
    which go alone; None for a game (UsageError for their options without them)."""
    if args.review is not None or args.seat is not None:  # (alone, or one line says why)
        from .review_words import asked

        review = asked(vars(args), files)
        if isinstance(review, str):
            raise UsageError(f"{review}\n{usage()}")
        return Options(action="review", plain=args.plain, as_json=args.json, review=review)
    if args.json and not args.stats:
        raise UsageError(f"{_('mille: --json goes with --stats')}\n{usage()}")
    if not args.stats and args.forget is None and args.export is None:
        if args.yes or args.last is not None:
            flag = "--yes" if args.yes else "--last"
            line = _("mille: {option} goes with {other}").format(
                option=flag, other="--forget" if args.yes else "--stats"
            )
            raise UsageError(f"{line}\n{usage()}")
        return None
    flag = "--stats" if args.stats else "--forget" if args.forget is not None else "--export"
    own = (
        _STATS_OPTIONS
        if args.stats
        else {"forget", "yes"}
        if args.forget is not None
        else {"export"}
    )
    if _given(args) - own or len(files) > (1 if args.stats else 0):
        line = _("mille: {option} takes no other option or file").format(option=flag)
        raise UsageError(f"{line}\n{usage()}")
    if args.forget is not None:
        return Options(action="forget", forget=args.forget, yes=args.yes)
    if args.export is not None:
        return Options(action="export", export=_export(*args.export))
    if args.rules is not None:
        from ..engine.rules import PRESETS

        if args.rules not in PRESETS:
            raise UsageError(
                _("mille: --rules: {name} is not {names}").format(
                    name=quote(args.rules), names=", ".join(PRESETS)
                )
            )
    if args.last is not None and not 0 <= args.last <= 100_000:
        raise UsageError(_("mille: --last must be 0 to 100000"))
    people = tuple(name for name in (args.people or "").split(",") if name)
    stats = Stats(rules=args.rules, level=args.level, people=people, last=args.last)
    return Options(action="stats", as_json=args.json, name=files[0] if files else None, stats=stats)


def _given(ns: argparse.Namespace) -> set[str]:  # (not --lang: it goes with every action)
    return {k for k, v in vars(ns).items() if v is not None and v is not False} - {"files", "lang"}


def _replay(args: argparse.Namespace, files: list[str]) -> Options:
    """``--replay [N|FILE]`` (the last game recorded, game N, a game file), --plain, --no-color."""
    if _given(args) - {"replay", "plain", "no_color"} or len(files) > (0 if args.replay else 1):
        line = _("mille: --replay takes no other option but --plain and --no-color")
        raise UsageError(f"{line}\n{usage()}")
    what = args.replay or (files[0] if files else "")
    return Options(action="replay", file=what, plain=args.plain, color=not args.no_color)


def _export(number: str, file: str) -> tuple[int, str]:
    """``--export N FILE``: N a game's number (``--stats`` numbers them)."""
    if not number.isdigit() or not number.isascii() or len(number) > 18:
        line = _("mille: --export: {number} is not a game's number (mille --stats numbers them)")
        raise UsageError(f"{line.format(number=quote(number))}\n{usage()}")
    return int(number), file


def _network(args: argparse.Namespace, files: list[str]) -> Network | None:
    """The network options, checked; None without --host or --join."""
    own = ("listen", "port", "grace", "cert", "key", "wait")
    watch = args.watch is not None
    if watch:  # --watch goes as --join does, with a watch code
        if args.join is not None or args.host:
            line = _("mille: --watch goes without --host or --join")
            raise UsageError(f"{line}\n{usage()}")
        args.join = args.watch
    if args.no_watchers and not args.host:
        line = _("mille: {option} goes with --host").format(option="--no-watchers")
        raise UsageError(f"{line}\n{usage()}")
    given = [name for name in own if getattr(args, name) is not None]
    if not args.host and args.join is None:
        if given:
            line = _("mille: {option} goes with --host or --join").format(option=f"--{given[0]}")
            raise UsageError(f"{line}\n{usage()}")
        return None
    if args.host and args.join is not None:
        line = _("mille: --host and --join cannot be used together")
        raise UsageError(f"{line}\n{usage()}")
    if args.join is not None:
        for name in ("listen", "port", "grace", "key", "people"):
            if getattr(args, name) is not None:
                line = _("mille: {option} goes with --host").format(option=f"--{name}")
                raise UsageError(f"{line}\n{usage()}")
        if files:
            line = _("mille: --join takes no file: the host holds the game")
            raise UsageError(f"{line}\n{usage()}")
    name_given(args)
    if args.port is not None and not 0 <= args.port < 65536:
        raise UsageError(_("mille: --port must be 0 to 65535"))
    if args.grace is not None and not 1 <= args.grace <= 3600:
        raise UsageError(_("mille: --grace must be 1 to 3600 seconds"))
    if args.wait is not None:
        if args.join is None:
            line = _("mille: {option} goes with --join").format(option="--wait")
            raise UsageError(f"{line}\n{usage()}")
        if not 0 <= args.wait <= 86400:
            raise UsageError(_("mille: --wait must be 0 to 86400 seconds"))
    return Network(
        join=tuple(args.join) if args.join is not None else None,
        name=args.name,
        listen=args.listen or "127.0.0.1",
        port=7477 if args.port is None else args.port,
        grace=60.0 if args.grace is None else float(args.grace),
        cert=args.cert,
        key=args.key,
        wait=300.0 if args.wait is None else float(args.wait),
        watch=watch,
        watchers=not args.no_watchers,
    )


def file_stamp(path: str) -> str:
    """``FILE [date of its modification]``, shown when a game is restored
    (control characters in the name escaped; the date :func:`i18n.when`'s,
    BSD's ``ctime`` in English)."""
    import os

    from .. import i18n
    from ..engine.text import escape

    try:
        stamp = i18n.when(os.stat(path).st_mtime)
    except OSError:
        stamp = i18n.when()
    return f"{escape(path)} [{stamp}]"


def _escape_what_cannot_be_shown() -> None:
    """Output in an encoding that cannot show every character (ASCII, a
    Latin-1 locale) shows the rest as ``\\xe9``, never an error."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError, TypeError):
                pass


def lang_of(argv: list[str]) -> str | None:
    """``--lang CODE`` (or ``--lang=CODE``) before any ``--``: None without it.

    >>> lang_of(["--seed", "1", "--lang", "fr"]), lang_of(["--lang=fr"]), lang_of(["--", "--lang"])
    ('fr', 'fr', None)
    """
    head = argv[: argv.index("--")] if "--" in argv else argv
    for index, arg in enumerate(head):
        if arg == "--lang" and index + 1 < len(head):
            return head[index + 1]
        if arg.startswith("--lang="):
            return arg[len("--lang=") :]
    return None


def main(argv: list[str] | None = None) -> int:
    _escape_what_cannot_be_shown()
    args = sys.argv[1:] if argv is None else argv
    from .. import i18n

    i18n.choose(lang_of(args))  # English: nothing read
    if i18n.said:  # --lang's language has no catalog, or it cannot be read
        print(i18n.said, file=sys.stderr)
    if i18n.language != "en":  # argparse's words (ARGPARSE_WORDS) from mille's catalog
        setattr(argparse, "_", i18n._)  # noqa: B010 - argparse reads its module's _
    try:
        options = parse_args(args)
    except UsageError as exc:
        print(one_line(str(exc)), file=sys.stderr)
        return 1
    if options.action == "help":
        print(help_text(), end="")
        return 0
    if options.action == "version":
        print(f"mille {__version__}")
        return 0
    if options.action == "replay":
        from .replay_cli import run

        return run(options.file or "", options.plain, options.color)
    if options.review is not None:
        from .review_words import show_review

        return show_review(*options.review, options.as_json)
    if options.action in ("stats", "forget", "export"):
        return _record_action(options)
    options = _remember_name(options)
    if not options.record:
        from . import recorder

        recorder.enabled = False
    try:
        if options.net is not None and options.net.join is not None:
            return _join(options, options.net)
        return _play(options)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # never a traceback for the user
        from .process import complain

        complain(None, _("internal error: {error}").format(error=f"{type(exc).__name__}: {exc}"))
        return 1


def _record_action(options: Options) -> int:
    """``--stats``, ``--forget`` or ``--export``: the record shown, a
    person forgotten, or a game written to a file."""
    from . import record_words

    if options.export is not None:
        return record_words.export(*options.export)
    if options.action == "stats":
        asked = options.stats or Stats()
        return record_words.show_stats(
            options.as_json,
            options.name,
            rules=asked.rules,
            level=asked.level,
            people=asked.people,
            last=asked.last,
        )
    return record_words.forget(options.forget or "", options.yes)


def _remember_name(options: Options) -> Options:
    """``--name``'s name remembered for the next games; at a table without
    one, the options with the person's own name
    (:func:`mille.storage.settings.own_name`)."""
    from ..storage import settings
    from .process import complain

    name = options.name or (options.net.name if options.net is not None else None)
    if name is not None:
        settings.remember_name(name, complain)
        return options
    if options.net is None:
        return options
    from dataclasses import replace

    return replace(options, net=replace(options.net, name=settings.own_name(None, complain)))


def _join(options: Options, net: Network) -> int:
    """``mille --join ADDRESS CODE``: a seat at a host's table."""
    from .remote.joining import join

    if not options.plain and not _is_terminal():
        from .process import complain

        complain(
            None,
            _(
                "standard input and output must be a terminal "
                "(for plain lines on pipes: mille --join ... --plain)"
            ),
        )
        return 1
    assert net.join is not None
    address, code = net.join
    return join(
        address,
        code,
        net.name,
        net.cert,
        board=not options.plain,
        color=options.color,
        wait=net.wait,
        watch=net.watch,
    )


def _is_terminal() -> bool:
    from .process import is_terminal  # (not at start-up: --version stays light)

    return is_terminal()


def _stdin_is_terminal() -> bool:
    """Someone may answer a question (not a script on a pipe)."""
    from .process import is_terminal

    return is_terminal(stdout=False)


def _play(options: Options) -> int:
    from . import offer
    from .process import complain

    message = ""
    resumed: tuple[str, float, str] | None = None  # recovery file, its mtime, its text
    if options.file is not None:
        from ..storage import savefile

        try:
            session = savefile.load_session(options.file)
        except savefile.SaveError as exc:
            complain(options.file, savefile.said(str(exc)))
            return 1
        session.source = options.file
        message = file_stamp(options.file)
    if not options.plain and options.net is None and not _is_terminal():
        complain(
            None,
            _(
                "standard input and output must be a terminal "
                "(for plain lines on pipes: mille --plain)"
            ),
        )
        return 1
    try:  # a file never asks (it is the game wanted), but the kept ones are named
        found = offer.interrupted_game(
            _stdin_is_terminal() and not options.chosen and options.file is None,
            line=options.plain,
            host=options.net is not None,
        )
    except offer.Stop as stop:
        return stop.status
    if options.file is None:
        if found is None:
            session = _new_session(options)
            message = ""
        else:
            session, message, resumed = found
    status = 1
    try:
        if options.net is not None:
            status = _host(
                session, options.net, not options.plain and _is_terminal(), options.color
            )
        elif options.plain:
            from . import plain

            status = plain.play(session, message, fresh=resumed is None and options.file is None)
        else:
            from . import tui

            status = tui.play(session, message, color=options.color)
    finally:
        if resumed is not None and status != 0:
            offer.keep_again(session, *resumed)
    return status


def _new_session(options: Options) -> Session:
    """The new game the options ask for (at home, the first person named)."""
    from ..game.session import Session

    if options.net is not None and options.people is None:  # --host: all people
        from ..engine.rules import BSD

        rules = options.rules or BSD
        return Session.new(
            rules, seed=options.seed, level=options.level, humans=tuple(range(rules.players))
        )
    if options.people is not None:
        from ..engine.rules import BSD

        names = {seat: name for seat, name in options.people if name is not None}
        session = Session.new(
            options.rules or BSD,
            seed=options.seed,
            level=options.level,
            humans=tuple(seat for seat, _ in options.people),
            names=names,
        )
    elif options.rules is None:
        session = Session.new(seed=options.seed, level=options.level)
    else:
        session = Session.new(options.rules, seed=options.seed, level=options.level)
    if options.net is None:
        name_yourself(session, options.name)
    return session


def name_yourself(session: Session, name: str | None) -> None:
    """A new game at home: the first person's seat, if nobody named it,
    takes the person's own name (``--name``, else the one remembered)."""
    from ..game.session import default_name
    from ..storage import settings

    name = settings.own_name(name or None)
    seat = min(session.people, default=None)
    if name is None or seat is None or session.people[seat] != default_name(seat):
        return
    if all(other.casefold() != name.casefold() for other in session.people.values()):
        session.people[seat] = name


def _host(session: Session, net: Network, board: bool, color: bool) -> int:
    """``mille --host``: the host plays the first person seat (``--people``'s
    first), the others are open to joiners."""
    from .remote.hosting import host

    return host(
        session,
        listen=net.listen,
        port=net.port,
        grace=net.grace,
        cert=net.cert,
        key=net.key,
        name=net.name,
        board=board,
        color=color,
        watchers=net.watchers,
    )
