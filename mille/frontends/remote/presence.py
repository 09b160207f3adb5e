"""Who is at the table, in words: the one home of what both front ends
of a remote seat say about presence and the waiting room.

:class:`Presence` follows the host's ``seats`` messages and says what
changed (joined, dropped, left, back, a computer standing in, the game
started), with the marks beside the names on the boards and a line a seat
for ``who`` and ``J``; :func:`said_line` is a chat line as every seat
shows it; :func:`who_lines` is the line mode's ``who`` and
:func:`table_lines` the boards' ``J`` page (the join command, the seats,
the last lines, and in the waiting room how the game starts).  Every
string from the network is escaped here.
"""

from __future__ import annotations

import textwrap

from ...engine.describe import person_name
from ...engine.text import width
from ...game.limits import default_name
from ...i18n import N_, _, ngettext
from ...net.wire import refusal_line, shown

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

NAME_SHOWN = 24  # the most of a name from the host shown

MARKS = {"free": "?", "away": "~", "left": "~", "computer-for-now": "+"}  # beside a name
MARKS_LEGEND = N_("? awaited  ~ away  + a computer plays for now")
STATUS_WORDS = {
    "here": N_("here"),
    "free": N_("awaited"),
    "away": N_("away (dropped)"),
    "left": N_("away (left)"),
    "computer": N_("a computer"),
    "computer-for-now": N_("a computer plays it for now"),
}


class Presence:
    """Who sits where, as the host's ``seats`` messages say, and the lines
    that tell what changed: joined, dropped, left, back, a computer
    standing in, the game started."""

    def __init__(self, me: int = -1) -> None:
        self.me = me
        self.rows: list[dict[str, Any]] = []
        self.started = True
        self.join = ""  # the whole join command, as the host gives it
        self.watch = ""  # the whole watch command ("": none may watch)
        self.watchers = 0  # how many watch
        self.waiting_for: int | None = None
        self.came: set[int] = set()  # seats whose person has been here
        self.heard = False  # a seats message came
        self.over = False  # the game is over (a person who leaves now leaves the table)
        self.fingerprint = ""  # TLS: the SHA-256 of the host's certificate ("": no TLS)

    def status(self, seat: int) -> str:
        for row in self.rows:
            if row.get("seat") == seat:
                return str(row.get("status", ""))
        return ""

    def name(self, seat: int) -> str:
        for row in self.rows:
            if row.get("seat") == seat:
                return shown(person_name(seat, str(row.get("name", ""))), NAME_SHOWN)
        return person_name(seat, default_name(seat))

    def mark(self, seat: int) -> str:
        """A mark beside a seat's name on the boards (``MARKS``; "" if here)."""
        return MARKS.get(self.status(seat), "")

    def take(self, message: dict[str, Any]) -> list[str]:
        """A ``seats`` message; the lines telling what changed."""
        before = {row.get("seat"): row.get("status") for row in self.rows}
        first = not self.heard
        self.heard = True
        self.rows = [row for row in message.get("seats", []) if isinstance(row, dict)]
        started = message.get("started") is not False
        join = message.get("join")
        if isinstance(join, str) and join:
            self.join = shown(join, 300)
        watch, watchers = message.get("watch"), message.get("watchers")
        if isinstance(watch, str) and watch:
            self.watch = shown(watch, 300)
        if isinstance(watchers, int) and not isinstance(watchers, bool):
            self.watchers = watchers
        lines: list[str] = []
        for row in self.rows:
            seat = row.get("seat")
            status = row.get("status")
            if not isinstance(seat, int):
                continue
            old = before.get(seat)
            if status == "here" and seat != self.me:
                if seat in self.came and old != "here":
                    lines.append(_("{who} is back.").format(who=self.name(seat)))
                elif old != "here" and not first:
                    lines.append(_("{who} joined.").format(who=self.name(seat)))
            if status == "here":
                self.came.add(seat)
            if first or old == status or seat == self.me:
                continue
            who = self.name(seat)
            if status == "away":
                lines.append(_("{who} dropped; the seat waits for {who}.").format(who=who))
            elif status == "left" and self.over:  # no other game for them
                lines.append(_("{who} left the table.").format(who=who))
            elif status == "left":
                lines.append(_("{who} left; the seat waits for {who}.").format(who=who))
            elif status == "computer-for-now":
                if seat in self.came:
                    lines.append(
                        _("A computer plays {who}'s seat until {who} is back.").format(who=who)
                    )
                else:
                    lines.append(
                        _("A computer plays {who}'s seat until {who} joins.").format(who=who)
                    )
        if started and not self.started:
            lines.append(_("The game starts."))
        self.started = started
        waiting = message.get("waiting_for")
        self.waiting_for = waiting if isinstance(waiting, int) else None
        return lines

    def others_here(self) -> str:
        """The others at the table now, by name (``Hal (the host), Ann``)."""
        return _(", ").join(
            _("{who} (the host)").format(who=self.name(seat))
            if row.get("host")
            else self.name(seat)
            for row in self.rows
            if isinstance(seat := row.get("seat"), int)
            and seat != self.me
            and row.get("status") == "here"
        )

    def seat_lines(self) -> list[str]:
        """A line a seat: its number (from 0, as ``--people``, ``You sit at
        seat N`` and the default names ``Player N`` count them), name and
        who plays it."""
        lines = []
        for row in self.rows:
            seat = row.get("seat")
            if not isinstance(seat, int):
                continue
            words = (
                _(STATUS_WORDS[status])
                if (status := str(row.get("status"))) in STATUS_WORDS
                else "?"
            )
            if seat == self.me:
                words = _("you, the host") if row.get("host") else _("you")
            elif row.get("host"):
                words = _("{status}, the host").format(status=words)
            name = self.name(seat)  # (padded by the columns it takes)
            lines.append(f"  {seat:>2} {name}{' ' * (16 - width(name))} {words}")
        return lines


def said_line(message: dict[str, Any], me: int) -> str | None:
    """A chat line as every seat shows it (``Ann says: hello``), escaped."""
    text = message.get("text")
    seat = message.get("seat")
    if not isinstance(text, str) or not isinstance(seat, int):
        return None
    if seat == me:
        return _("You say: {text}").format(text=shown(text, 200))
    who = shown(message.get("name", ""), NAME_SHOWN)
    return _("{who} says: {text}").format(who=who, text=shown(text, 200))


def aside_line(message: dict[str, Any]) -> str | None:
    """A watcher's chat line as the watchers show it (``(watching) Wes
    says: hello``), escaped."""
    text = message.get("text")
    if not isinstance(text, str):
        return None
    who = shown(message.get("name", ""), NAME_SHOWN)
    return _("(watching) {who} says: {text}").format(who=who, text=shown(text, 200))


def refusal(text: str) -> str:
    """A line of this mille's own about the line to the host (a message
    it could not read), in the language chosen; the host's errors come as
    codes and values (``wire.error_line``)."""
    return _(text)


def name_refused(welcome: dict[str, Any]) -> str:
    """The line saying why the joiner's ``--name`` does not name the seat
    ("" if it does)."""
    reason = refusal_line(welcome.get("name_refused"))
    if not reason:
        return ""
    return _("mille: your name is not used ({reason}); you are {name}.").format(
        reason=shown(reason, 100), name=shown(welcome.get("name"), 24)
    )


def name_kept(welcome: dict[str, Any], asked: str | None) -> str:
    """The line saying that a seat taken back (with its token) keeps its
    name, though ``--name`` asked another ("" if it did not).

    >>> name_kept({"name": "Ann"}, "Anna")
    'mille: you are back as Ann: a seat keeps its name (--name Anna names a new seat only).'
    >>> name_kept({"name": "Ann"}, "Ann"), name_kept({"name": "Ann"}, None)
    ('', '')
    """
    name = shown(welcome.get("name"), NAME_SHOWN)
    if not asked or shown(asked, NAME_SHOWN) == name:
        return ""
    return _(
        "mille: you are back as {name}: a seat keeps its name (--name {asked} names a new seat only)."
    ).format(name=name, asked=shown(asked, NAME_SHOWN))


# ----- the waiting room and the table's page ----------------------------------

START_LINE = N_(
    "Type start to begin now (a computer plays each empty seat until its person "
    "joins); the game starts by itself when every seat is taken."
)
WAITING_START = N_("Waiting for the host to start the game.")
TABLE_TITLE = N_("The table (J shows this page at any time)")
START_KEYS = N_("RETURN: start now (a computer plays each empty seat until its person joins)")
STARTS_ITSELF = N_("The game starts by itself when every seat is taken.  Another key: the board.")
BACK = N_("Press any key to go back to the game.")
WAITING_HOST = N_("Waiting for the host to start (J: the table)")
WAITING_HOST_LINE = N_("Waiting for the host to start (J: the table).")


ENCRYPTED = N_(" - encrypted (TLS)")  # J's title, on a table that is


def fingerprint_lines(fingerprint: str) -> list[str]:
    """The host's certificate's SHA-256, in two rows that fit 80 columns,
    to check over the phone (``openssl`` not needed); none without TLS.

    >>> fingerprint_lines(":".join(["AB"] * 32))[0]
    "Encrypted (TLS); the host's certificate's SHA-256 (the same on every screen):"
    """
    if not fingerprint:
        return []
    half = len(fingerprint) // 2 + 1
    return [
        _("Encrypted (TLS); the host's certificate's SHA-256 (the same on every screen):"),
        "  " + fingerprint[:half].rstrip(":"),
        "  " + fingerprint[half:],
    ]


def watchers_line(count: int) -> str:
    """How many watch the table."""
    return ngettext("{count} person watches.", "{count} people watch.", count).format(count=count)


def who_lines(presence: Presence, host: bool) -> list[str]:
    """``who``: the join command and who sits where (and, before the game
    starts, how the host starts it)."""
    lines = (
        [_("To join this table: {command}").format(command=presence.join)] if presence.join else []
    )
    if presence.watch:
        lines.append(_("To watch this table: {command}").format(command=presence.watch))
    lines += fingerprint_lines(presence.fingerprint)
    lines += [_("Seats:"), *presence.seat_lines()]
    if presence.watchers:
        lines.append(watchers_line(presence.watchers))
    if not presence.started:
        lines.append(_(START_LINE) if host else _(WAITING_START))
    return lines


def table_lines(
    presence: Presence, host: bool, said: list[str], width: int, height: int
) -> list[str]:
    """J: the whole join command, the seats, and the table's last lines
    (``said``), wrapped to ``width``, at most ``height`` lines; in the
    waiting room (before the game starts), how the host starts it."""
    lines = [_(TABLE_TITLE) + (_(ENCRYPTED) if presence.fingerprint else ""), ""]
    if presence.join:
        lines.append(_("To join, the others type:"))
        lines += textwrap.wrap(presence.join, width, initial_indent="  ", subsequent_indent="  ")
    if presence.watch:
        lines.append(_("To watch, others type:"))
        lines += textwrap.wrap(presence.watch, width, initial_indent="  ", subsequent_indent="  ")
    if presence.watchers:
        lines.append(watchers_line(presence.watchers))
    lines += fingerprint_lines(presence.fingerprint)
    lines += [
        _("Seats:"),
        *presence.seat_lines(),
        _("Marks beside the names: {legend}").format(legend=_(MARKS_LEGEND)),
    ]
    foot = [""]
    if not presence.started:
        foot += [_(START_KEYS), _(STARTS_ITSELF)] if host else [_(WAITING_HOST_LINE), _(BACK)]
    else:
        foot.append(_(BACK))
    room = height - len(lines) - len(foot) - 1
    rows = [
        row for line in said for row in textwrap.wrap(line, width, subsequent_indent="  ") or [""]
    ]
    if rows and room > 0:
        lines += ["", _("Lately:"), *rows[-max(room - 1, 0) :]] if room > 1 else []
    return [line[:width] for line in lines + foot][:height]
