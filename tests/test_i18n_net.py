"""The network's screens and lines, and ``mille --stats``, in the
pseudo-language (every message accented, longer, in brackets) at 80x24:
no English word left, nothing past the edge; and the host's English lines
(the protocol carries no language) read in French where they are shown."""

from __future__ import annotations

import time
from typing import Any

import pytest
from test_i18n import DATA, english, past_the_edge, pseudo  # noqa: F401  (fixtures)
from test_net_lines import four, play, seats, welcome
from test_net_remote_session import StandIn

from mille import i18n
from mille.engine.rules import find_rules
from mille.engine.text import width
from mille.frontends import record_words
from mille.frontends.remote.presence import Presence, name_refused, table_lines, who_lines
from mille.frontends.remote.seat import RemoteSeat, ending
from mille.game.limits import BadName, check_name
from mille.game.session import Session
from mille.net.messages import Refusal, bye, error
from mille.net.messages import welcome as host_welcome
from mille.net.seats import Feed
from mille.net.wire import SEAT_WAITS, TABLE_FULL, TOO_LONG, error_line

JOIN = "mille --join 127.0.0.1:7477 abcdefghjkmn"
# data, not messages: the join command's words, the people's names, the
# line mode's words typed (the same in every language) and a chat line
NET_DATA = DATA | {"join", "abcdefghjkmn", "Hal", "Cy", "who", "say", "start", "hello"}


def room(*rows: tuple[int, str, str], started: bool = False) -> dict[str, Any]:
    return seats(*rows) | {"started": started, "join": JOIN}


def shown_english(lines: list[str]) -> list[str]:
    return [word for word in english(lines) if word not in NET_DATA]


@pytest.mark.usefixtures("pseudo")
def test_who_chat_and_presence_lines_in_the_pseudo_language() -> None:
    """The line mode's ``who`` (the waiting room: the host's and a
    joiner's), whom the table waits for, who comes and goes, chat."""
    lines: list[str] = []
    for host in (True, False):
        presence = Presence(0 if host else 1)
        lines += presence.take(room((0, "Hal", "here"), (1, "Ann", "free"), (2, "Cy", "free")))
        lines += presence.take(room((0, "Hal", "here"), (1, "Ann", "here"), (2, "Cy", "free")))
        lines += who_lines(presence, host)
        for status in ("computer-for-now", "away", "left", "here", "computer"):
            rows = ((0, "Hal", "here"), (1, "Ann", "here"), (2, "Cy", status))
            lines += presence.take(room(*rows, started=True))
        lines += who_lines(presence, host)
        lines.append(presence.others_here())
    assert any("Ann" in line for line in lines) and len(lines) > 20
    assert shown_english(lines) == []


@pytest.mark.usefixtures("pseudo")
def test_the_line_mode_over_the_network_in_the_pseudo_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A joiner in lines: seated, ``who``, chat both ways, a move, the
    help, ``o``, ``start``, ``say`` alone, saving, leaving."""
    first = [
        seats((0, "Hal", "here"), (1, "Ann", "here"), (2, "Cy", "computer")) | {"join": JOIN},
        {"type": "said", "seat": 0, "name": "Hal", "text": "hi"},
    ]
    feed = four((1,))
    while (seat := feed.to_decide()) != 1:
        assert seat is not None
        feed.computer_plays(seat, feed.think(seat))
    script = "who\nsay hello\np\nd 1\n?\no\nstart\nsay\ns\n"
    status, out, link = play(
        monkeypatch, feed, 1, script, first=first, hello=welcome(1, False, name="Ann")
    )
    lines = out.splitlines()
    assert {"type": "say", "text": "hello"} in link.sent
    assert status == 0 and len(lines) > 20
    assert shown_english(lines) == [], out


@pytest.mark.usefixtures("pseudo")
def test_the_table_page_in_the_waiting_room_fits_80x24() -> None:
    """J's page at 80x24, the host's and a joiner's, before and after the
    start, with the table's last lines: no English, no line too long."""
    for host in (True, False):
        for started in (False, True):
            presence = Presence(0 if host else 1)
            said = presence.take(room((0, "Hal", "here"), (1, "Ann", "free")))
            said += presence.take(room((0, "Hal", "here"), (1, "Ann", "here"), started=started))
            said += ["Ann says: " + "word " * 30]
            page = table_lines(presence, host, said[:-1], 79, 24)
            assert len(page) <= 24
            assert all(width(line) <= 79 for line in page), page
            assert shown_english(page) == [], page


def remote_board(host: bool) -> tuple[Feed, StandIn, RemoteSeat]:
    rules = find_rules("classic", players=3)
    feed = Feed(Session.new(rules, seed=3, humans=(0, 1, 2), names={0: "Hal", 1: "Ann", 2: "Cy"}))
    seat = 0 if host else 1
    link = StandIn(feed, seat)
    hello = {"type": "welcome", "seat": seat, "host": host, "token": "t", "protocol": 3}
    return feed, link, RemoteSeat(link, hello, link.update())


@pytest.mark.parametrize("host", [True, False], ids=["host", "joiner"])
@pytest.mark.usefixtures("pseudo")
def test_the_boards_waiting_room_and_table_page_in_the_pseudo_language(
    host: bool,
    past_the_edge: list[str],  # noqa: F811  (the fixture)
) -> None:
    """The board of a remote seat at 80x24 in the waiting room: the status
    (whom the table waits for), the news on the error line, J's page, the
    ``O`` refusal: no English word, nothing past the edge."""
    from mille.frontends.remote.board_ui import RemoteTableUi
    from support.fakewindow import FakeWindow

    _feed, link, remote = remote_board(host)
    remote.take(room((0, "Hal", "here"), (1, "Ann", "here"), (2, "Cy", "free")))
    remote.take({"type": "said", "seat": 2 if host else 0, "name": "Cy", "text": "hi"})
    window = FakeWindow(prompt=(22, 0, 80), error=(23, 0))
    ui = RemoteTableUi(window, remote)  # type: ignore[arg-type]
    screens = []
    ui.waiting()
    ui.show_news()
    ui.render()
    screens.append(window.lines())
    ui.screen.page = lambda: table_lines(remote.presence, host, remote.said, 79, 24)
    ui.render()  # J's page, as show_table draws it
    screens.append(window.lines())
    ui.screen.page = None
    ui.toggle_order()
    ui.render()
    screens.append(window.lines())
    lines = [line for screen in screens for line in screen]
    assert any("Ann" in line for line in screens[1]) and any("Cy" in line for line in screens[0])
    assert len({tuple(screen) for screen in screens}) == 3
    assert shown_english(lines) == [], "\n".join(lines)
    assert past_the_edge == [], "\n".join(past_the_edge)


@pytest.mark.usefixtures("pseudo")
def test_stats_and_the_records_lines_in_the_pseudo_language() -> None:
    """``mille --stats`` (a person's record against the computers and a
    person, the chart, the last games, the ratings) and the lines at a
    game's end."""
    game = {
        "rules": "bsd",
        "against": "standard",
        "opponents": [{"level": "standard"}],
        "rating": 1512,
        "change": 16,
        "provisional": True,
        "local": "2026-11-27T23:50",
        "place": "network",
        "result": "won",
        "score": 5100,
        "best_other": 3000,
        "number": 7,
        "moves": True,
    }
    row = {"games": 5, "won": 3, "lost": 1, "tied": 1, "share": 60.0}
    person = {
        "name": "Ann",
        "rating": 1512,
        "provisional": True,
        "by": [{"rules": "bsd", "against": "standard"} | row],
        "head_to_head": [{"name": "Bob"} | row],
        "best": 5100,
        "average": 4000.5,
        "streak": {"result": "won", "games": 2, "longest_won": 3},
        "history": [1500, 1490, 1512],
        "last": [game, game | {"place": "keyboard", "opponents": [{"name": "Bob"}, {}]}],
    } | row
    levels = {"easy": 1200, "standard": 1500}
    stats = {"people": [person], "levels": levels, "provisional": 10}
    lines = record_words.stats_lines(stats, "/tmp/record.sqlite", record_words.ASCII_SPARKS)
    lines += record_words.stats_lines({"people": []}, "/tmp/record.sqlite")
    said, board = record_words.words(person, levels, None)
    lines += [*said, board, *record_words.words(person, levels, "Ann")[0]]
    assert len(lines) > 10
    assert [w for w in shown_english(lines) if w not in ("tmp", "record", "sqlite")] == []


def test_the_hosts_errors_read_in_french() -> None:
    """The host sends codes and values (the protocol has no language): a
    French joiner reads them in French, from the code, values kept."""
    assert i18n.choose("fr") == "fr"
    try:
        assert error_line(error(TABLE_FULL)) == "toutes les places de personne sont prises"
        assert error_line(error(TOO_LONG, {"count": 16384})) == "ligne de plus de 16384 octets"
        assert error_line(error(SEAT_WAITS, {"name": "Ann"})).startswith(
            "toutes les places de personne sont prises\xa0; celle d'Ann attend"
        )
        assert error_line(error("refused", {"reason": "must pick first"})) == "piochez d'abord"
        assert error_line(error("never-heard-of")) == (
            'l\'hôte a répondu "never-heard-of", que ce mille ne connaît pas\xa0: '
            "jouez avec la même version de mille"
        )
        assert ending(bye("ended")).reason == "mille: l'hôte a fini la partie"
        assert (
            ending(error(TABLE_FULL)).reason == "mille: toutes les places de personne sont prises"
        )
        with pytest.raises(BadName) as refused:
            check_name("you")
        assert str(refused.value) == "'you' is a name mille gives a seat"  # the command line's
        assert (refused.value.code, refused.value.values) == ("name-given", {"name": "'you'"})
        taken: Refusal = {"code": "name-taken", "values": {"name": "'Ann'"}}
        assert name_refused(dict(host_welcome(1, "t", False, "Player 1", taken))) == (
            "mille\xa0: votre nom n'est pas pris ('Ann' est déjà pris à cette table)\xa0; "
            "vous êtes Player 1."
        )
    finally:
        i18n.use(None)


def test_the_french_table_page_is_whole_at_80_columns() -> None:
    """J's page cuts a line at the terminal's width: in French each of its
    fixed lines fits 79 columns whole."""
    from mille.frontends.remote import presence as words

    assert i18n.choose("fr") == "fr"
    try:
        legend = i18n._("Marks beside the names: {legend}").format(
            legend=i18n._(words.MARKS_LEGEND)
        )
        fixed = [words.TABLE_TITLE, words.START_KEYS, words.STARTS_ITSELF, words.BACK]
        fixed += [words.WAITING_HOST_LINE]
        lines = [legend, *(i18n._(line) for line in fixed)]
        assert all(line != english for line, english in zip(lines[1:], fixed))
        assert [line for line in lines if width(line) > 79] == []
    finally:
        i18n.use(None)


def test_stats_and_forget_take_lang(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """``mille --stats --lang fr`` and ``mille --forget NAME --lang fr``
    speak French (``--lang`` was refused as another option)."""
    from support.command import run_mille

    data = {"XDG_DATA_HOME": str(tmp_path), "LANGUAGE": "en"}
    done = run_mille("--stats", "--lang", "fr", **data)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("Aucune partie enregistrée (vos parties\u00a0: ")
    done = run_mille("--forget", "Zed", "--yes", "--lang=fr", **data)
    assert done.returncode == 1
    assert done.stderr == (
        "mille\u00a0: --forget\u00a0: aucune partie de Zed enregistrée (il n'y a aucun nom)\n"
    )


def test_a_save_refused_in_french(tmp_path: Any) -> None:
    """A file that is no save: the reason in French, the place in the file
    as it is; nothing else (an empty message was the catalog's header)."""
    from support.command import run_mille

    bad = tmp_path / "bad.json"
    bad.write_text("[1]\n")
    done = run_mille("--plain", "--lang", "fr", str(bad), LANGUAGE="en")
    assert done.returncode == 1
    nb = "\u00a0"
    assert done.stderr == f"mille{nb}: {bad}{nb}: pas une sauvegarde de mille (pas un objet JSON)\n"
    bad.write_text('{"format": "bsd-mille-save", "version": 3}\n')
    done = run_mille("--plain", "--lang", "fr", str(bad), LANGUAGE="en")
    assert done.stderr.startswith(f"mille{nb}: {bad}{nb}: ") and "clé " in done.stderr


def test_a_save_at_the_host_is_dated_in_the_joiners_language(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """The host sends the time of a save as a time (seconds since the
    epoch), not its ``ctime`` text: a French joiner reads the date in
    French (issue 49)."""
    from test_net_lines import SAVED_AT

    from mille.net.keeper import saved_answer

    answer = saved_answer(str(tmp_path / "game.sav"))
    assert isinstance(answer["when"], int) and abs(answer["when"] - time.time()) < 60
    assert i18n.choose("fr") == "fr"
    try:
        french = i18n.when(SAVED_AT)
        assert french != time.ctime(SAVED_AT) and "déc." in french
        _, out, _ = play(monkeypatch, four((0, 1)), 0, "s\ngame.sav\n", host=True)
        assert f"game.sav [{french}]\n" in out
    finally:
        i18n.use(None)
