"""The words of ``mille --help`` and of a refused command line: the
usage lines, the help, and a refusal made one line.  Apart from
:mod:`mille.frontends.cli`, which reads the command line, so that each
stays under the house's size."""

from __future__ import annotations

from ..i18n import N_, _

USAGE = N_("usage: mille [--rules NAME] [--players N] [--people SEATS] [options] [file]")
NET_USAGE = N_("""       mille --host [--people SEATS] [--listen ADDRESS] [--port N] [options] [file]
       mille --join ADDRESS[:PORT] CODE [--name NAME] [--wait SECONDS] [--plain]
       mille --watch ADDRESS[:PORT] CODE [--name NAME] [--plain]
       mille --stats [NAME] [--last N] [--rules NAME] [--level LEVEL]
                    [--people NAME,...] [--json]
       mille --forget NAME [--yes]
       mille --export N FILE
       mille --replay [N|FILE] [--plain]
       mille --review [N|FILE] [--seat NAME] [--plain|--json]""")
BSD_USAGE = "usage: mille [file]"  # BSD's words for too many files
SEE_HELP = N_(" (mille --help lists the options)")  # ends a refused option's one line
JOIN_ARGS = N_(
    "mille: --join takes the host's address and join code: mille --join ADDRESS[:PORT] CODE"
)


def one_line(refusal: str) -> str:
    """A refused command line as the one line printed: the usage line
    after it becomes a word of ``--help``; ``--join`` cut short names
    what it takes.

    >>> one_line("mille: unknown option: '--x'\\n" + USAGE)
    "mille: unknown option: '--x' (mille --help lists the options)"
    >>> one_line("mille: argument --join: expected 2 arguments\\n" + USAGE) == JOIN_ARGS
    True
    """
    if refusal.startswith("mille: argument --join:"):
        return _(JOIN_ARGS)
    for usage in {USAGE, _(USAGE)}:  # (in the language chosen, or English)
        if refusal.endswith("\n" + usage):
            return refusal[: -len(usage) - 1] + _(SEE_HELP)
    return refusal


MORE_PLAYERS = N_("for more players: --rules classic (3, 4 or 6) or --rules milebymile (up to 9)")

HELP_BODY = N_("""
Mille Bornes in the terminal.  With no options: BSD mille, you against
the computer.

arguments:
  file                  resume the game saved in file (it keeps its own rules,
                        people and level); without it (and without game options
                        or --seed), on a terminal, the games that were
                        interrupted (hang-up, terminal lost) are offered first

the game:
  --rules NAME          bsd (the default), classic (106 cards, 2, 3, 4 or 6
                        players, teams of 2 with 4 or 6) or milebymile
  --players N           seats at the table: you and N-1 computers
                        (classic: 2, 3, 4, 6; milebymile: 2 to 9)
  --people SEATS        the seats people play, at one keyboard, with their
                        names: 0=Ann,2=Bob (seats from 0; a seat alone is
                        Player N); the others are computers (default: 0)
  --level LEVEL         the computers' play: easy, standard (the default)
                        or expert
  --seed N              deal reproducibly from the integer seed N

milebymile options:
  --teams MODE          individual (the default) or equal teams: 2v2 (4
                        players), 2v2v2 or 3v3 (6), 2v2v2v2 or 4v4 (8),
                        3v3v3 (9)
  --distance N          race distance, 300 to 3000 (default 1000; in 25s
                        with perfect crossing)
  --winning-score N     1000 to 10000 (default 5000)
  --no-perfect-crossing the race ends at or past the distance (Perfect
                        Crossing bonus for landing on it)
  --stacking            hazards may hit a side that is not rolling
  --no-reshuffle        the discard pile is not reshuffled into the deck
  --no-always-discard   a card you could play may not be discarded
  --rigging NAME        none, no-duplicates, 2x-attacks or 2x-defenses
  --karma               the karma rule (3 or more sides)
  (each on/off option also has its other form: --perfect-crossing,
  --no-stacking, --reshuffle, --always-discard, --no-karma)

playing with friends over the network (one hosts, the others join):
  to host:  mille --host [--people 0=Ann,1,2]
            you play the first seat --people names (default: every seat is
            a person's, you at seat 0); it shows the command the others
            type; RETURN starts the game (or it starts when every seat is
            taken), a computer playing each seat still free
  to join:  mille --join ADDRESS[:PORT] CODE [--name NAME]
            the command the host shows, whole; on the board (--plain: in
            lines, for the host too)
  to watch: mille --watch ADDRESS[:PORT] CODE [--name NAME]
            the watch command the host shows (J): the table as every seat
            sees it, no hand; your lines reach the other watchers alone
  --no-watchers         (--host) nobody may watch the table
  --listen ADDRESS      (--host) the address to listen on (default
                        127.0.0.1: this machine only; 0.0.0.0: every IPv4
                        network, :: every IPv6 one)
  --port N              (--host) the port (default 7477; 0: any free one)
  --grace SECONDS       (--host) how long a dropped person's seat waits
                        before a computer plays it (default 60)
  --cert FILE, --key FILE
                        (--host) TLS with this certificate and key;
                        (--join) the certificate to trust
  --name NAME           your name, at the table and in the record (at home
                        too); remembered for the next games
  --wait SECONDS        (--join) how long to wait for a host that has not
                        started yet (default 300; 0: not at all)

the record (every finished game, kept in $XDG_DATA_HOME/mille):
  --stats [NAME]        each person's (NAME's) games won and lost by rule set,
                        computer level and person met, scores, streaks, the
                        rating against the computers and its chart, the last
                        games (local time) with the rating after each
                        (--json: all of it as JSON)
  --last N              with --stats: the last N games (default 5)
  --rules, --level, --people NAME,...
                        with --stats: only the games of those rules, against
                        that level, with those people
  --no-record           play without recording the game
  --forget NAME         remove NAME (any case) from the record (their games
                        stay, nameless, in the others' records); asks first
                        at a terminal (--yes: does not ask)
  --export N FILE       write game N (as --stats numbers them) whole, its
                        deals and moves, to FILE (a new file) for a replay
  --replay [N|FILE]     show a finished game again, move by move, on its
                        board (--plain: in lines): the last game recorded,
                        game N (as --stats numbers them) or a game file
                        (--export's); ? lists the keys
  --review [N|FILE]     review game N of the record (the last one without N)
                        or a game file: each decision of a person against
                        the expert's from what they could see, the mistakes
                        the analysis is sure of, the luck (--seat NAME: whose
                        decisions; --json: as JSON)

the screen:
  --plain               no curses: plain lines and a prompt, for screen
                        readers, dumb terminals and scripts
  --no-color            no colour on the board with a row per side (as a
                        non-empty NO_COLOR does); BSD's board has none
  --lang CODE           the language of the words: fr (French) or en; without
                        it, LANGUAGE, LC_ALL, LC_MESSAGES or LANG says
  -h, --help            show this help and exit
  --version             show the version and exit

keys (case does not matter):
  P             pick a card
  U n / D n     use / discard the card in slot n (P or 0, 1-6), then RETURN;
                a hazard with several opponents then asks which side
  O             toggle keeping your hand in order
  W             toggle the small/full score window
  R, ^L         redraw the screen
  S             save the game
  H             a hint: the expert's move and why (never played)
  T             the card tracker: the cards you have not seen yet
  L             the whole hand so far (up/down, PgUp/PgDn; q leaves)
  Q, ^C         quit (asks Really?)
  J             over the network: the table (the join command, who is there)
  C             over the network: a line to everyone at the table
  ?             a one-screen summary of the keys, the rules and the
                options in force
  (--plain: the same letters as commands, then RETURN; l shows the hand)

See mille(6) (man mille) for the rules and the screen.
""")
HELP = f"{USAGE}\n{NET_USAGE}\n{HELP_BODY}"


def help_text() -> str:
    """``mille --help`` in the language chosen."""
    return f"{_(USAGE)}\n{_(NET_USAGE)}\n{_(HELP_BODY)}"


def usage() -> str:
    """The usage line in the language chosen."""
    return _(USAGE)


WORD_LIMIT = 60  # the most of an argument quoted in a usage error


class UsageError(Exception):
    """Bad command line; ``str()`` is the line to print before exiting 1."""


def quote(text: str, limit: int = WORD_LIMIT) -> str:
    """An argument for a usage error: escaped, cut to ``limit``."""
    from ..engine.text import escape, shorten

    return shorten(escape(text), limit)
