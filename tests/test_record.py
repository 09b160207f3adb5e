"""The record (issue 36): every finished game kept in SQLite, the
statistics, the rating; a record that cannot be written never in the way."""

from __future__ import annotations

import io
import json
import os
import random
import sqlite3
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mille.engine.rules import Rules, find_rules
from mille.engine.table import OVER, Discard, Use
from mille.frontends import flow, plain, record_words, recorder
from mille.game import rating
from mille.game.session import Session
from mille.net.messages import whole_game
from mille.storage import record, stats
from mille.storage.shapes import rules_to_dict
from support.scripted import Scripted

MILLE = [sys.executable, "-m", "mille"]
SHORT = {"distance": 300, "winning_score": 1000}  # milebymile games of a few hands


@pytest.fixture(autouse=True)
def _login_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """The account's name, which the record keeps for a person alone under
    the name mille gives a seat (their own name: none remembered)."""
    monkeypatch.setenv("LOGNAME", "ann-login")


def short(players: int = 2, **options: Any) -> Rules:
    return find_rules("milebymile", players=players, **(SHORT | options))


def new(
    rules: Rules | None = None,
    seed: int = 1,
    names: dict[int, str] | None = None,
    level: str = "standard",
) -> Session:
    names = {0: "Ann"} if names is None else names
    return Session.new(rules or short(), seed=seed, humans=tuple(names), names=names, level=level)


class Typist:
    """The line mode's standard input, typing what the game needs next: a
    person's legal move (a use when there is one), y to every question but
    ``Another game?`` and ``Save game?``, RETURN at a hand-off; every line
    typed is kept (``typed``) to give a ``mille`` process the same game."""

    def __init__(self, session: Session, out: io.StringIO, seed: int = 0) -> None:
        self.session = session
        self.out = out
        self.rng = random.Random(seed)
        self.typed: list[str] = []
        self.before: dict[int, Any] = {}  # lines typed: what to do first (a test's fault)

    def readline(self, limit: int = -1) -> bytes:
        prompt = self.out.getvalue().rpartition("\n")[2]
        action = self.before.pop(len(self.typed), None)
        if action is not None:
            action()
        if prompt.endswith("press RETURN. "):
            line = ""
        elif prompt in ("Another game? ", "Save game? "):
            line = "n"
        elif prompt.endswith("? "):
            line = "y"
        elif prompt == plain.PROMPT:
            table = self.session.table
            legal = [m for m in table.legal_moves() if not table.discards_safety(m)]
            uses = [m for m in legal if isinstance(m, Use)]
            move = self.rng.choice(uses or legal)
            slot = "p" if getattr(move, "slot", 1) == 0 else str(getattr(move, "slot", ""))
            if isinstance(move, Use):
                line = f"u {slot}" + ("" if move.target is None else f" {move.target}")
            elif isinstance(move, Discard):
                line = f"d {slot}"
            else:
                line = "p"
        else:
            raise AssertionError(f"unexpected prompt: {prompt!r}")
        self.typed.append(line)
        return (line + "\n").encode()


def play(
    session: Session, seed: int = 0, before: dict[int, Any] | None = None
) -> tuple[int, str, Typist]:
    """A whole game in the line mode, in this process."""
    out = io.StringIO()
    typist = Typist(session, out, seed)
    typist.before = dict(before or {})
    status = plain.play(session, stdin=typist, stdout=out)  # type: ignore[arg-type]
    assert session.table.phase == OVER and session.table.game_over
    return status, out.getvalue(), typist


def lines_after_result(out: str) -> list[str]:
    """What the line mode says between who won and ``Another game?``."""
    lines = out.splitlines()
    start = next(
        i for i, line in enumerate(lines) if "the game with" in line or "tie on top" in line
    )
    end = next(i for i, line in enumerate(lines) if line.startswith("Another game?"))
    return lines[start + 1 : end]


def side_result(session: Session, seat: int) -> str:
    table = session.table
    mine = table.total(table.rules.side_of(seat))
    others = [
        table.total(side)
        for side in range(1, table.rules.sides + 1)
        if side != table.rules.side_of(seat)
    ]
    return "won" if mine > max(others) else "tied" if mine == max(others) else "lost"


# ----- the rating ---------------------------------------------------------------


def test_the_levels_ratings_come_from_the_measured_win_rates() -> None:
    """docs/benchmarks.md: the expert wins 60.2% of whole games against the
    standard computer, easy 20% of the decided hands."""
    assert rating.LEVELS["standard"] == rating.START == 1500
    assert rating.expected(rating.LEVELS["expert"], 1500) == pytest.approx(0.602, abs=0.001)
    assert rating.expected(rating.LEVELS["easy"], 1500) == pytest.approx(0.20, abs=0.001)


def test_a_win_against_an_equal_moves_half_of_k_and_a_draw_nothing() -> None:
    assert rating.update(1500, [(1500, 1.0)]) == 1516
    assert rating.update(1500, [(1500, 0.0)]) == 1484
    assert rating.update(1500, [(1500, 0.5)]) == 1500
    assert rating.update(1600, []) == 1600
    # several sides: the mean of the moves against each
    both = rating.update(1500, [(1500, 1.0), (1500, 0.0)])
    assert both == 1500
    # a win against the weaker gains less than one against the stronger
    assert rating.update(1500, [(1259, 1.0)]) - 1500 < rating.update(1500, [(1572, 1.0)]) - 1500


def game(
    key: str,
    totals: tuple[int, ...],
    names: tuple[str | None, ...] = ("Ann", None),
    level: str = "standard",
    rules: str = "bsd",
) -> record.Game:
    """A recorded game of one seat a side (a None name: a computer)."""
    return record.Game(
        key=f"{key:0>32}",
        ended=f"2026-01-01T00:00:{int(key):02d}Z" if key.isdigit() else "2026-01-01T00:00:00Z",
        seconds=1.0,
        rules=rules,
        options={},
        place="keyboard",
        level=level if None in names else "",
        seats=tuple(
            record.Seat(seat, seat + 1, name, None if name else level, here=name is not None)
            for seat, name in enumerate(names)
        ),
        sides=tuple(record.Side(side + 1, total) for side, total in enumerate(totals)),
    )


def test_ratings_replay_the_games_in_order_against_computer_sides_only() -> None:
    games = [game("1", (5000, 100)), game("2", (100, 5000)), game("3", (5000, 100), level="expert")]
    expect = rating.update(
        rating.update(rating.update(1500, [(1500, 1)]), [(1500, 0)]), [(1572, 1)]
    )
    assert stats.ratings(games) == {"Ann": pytest.approx(expect)}
    # people alone: no rating
    assert stats.ratings([game("4", (5000, 100), names=("Ann", "Bob"))]) == {}


# ----- the database ------------------------------------------------------------


def test_a_game_round_trips_and_a_game_written_twice_counts_once(tmp_path: Path) -> None:
    where = str(tmp_path / "r.sqlite3")
    one = game("1", (5000, 4000))
    record.add(one, where)
    record.add(one, where)
    assert record.games(where) == [one]
    assert record.Game.from_dict(json.loads(json.dumps(one.to_dict()))) == one


def test_the_schema_has_a_version_and_a_newer_one_is_refused(tmp_path: Path) -> None:
    where = str(tmp_path / "r.sqlite3")
    record.add(game("1", (5000, 0)), where)
    db = sqlite3.connect(where)
    assert db.execute("PRAGMA user_version").fetchone()[0] == record.VERSION == 4
    db.execute("PRAGMA user_version = 5")
    db.commit()
    db.close()
    with pytest.raises(record.RecordError) as caught:
        record.games(where)
    assert (
        str(caught.value) == "the record was written by a newer mille (schema 5, this one reads 4)"
    )


def test_an_empty_file_is_migrated_to_the_current_schema(tmp_path: Path) -> None:
    where = tmp_path / "r.sqlite3"
    where.write_bytes(b"")  # version 0: no table yet
    record.add(game("1", (5000, 0)), str(where))
    assert len(record.games(str(where))) == 1


def test_no_record_yet_is_no_game(tmp_path: Path) -> None:
    assert record.games(str(tmp_path / "none.sqlite3")) == []
    assert not (tmp_path / "none.sqlite3").exists()


def test_names_are_stored_as_data_never_as_sql(tmp_path: Path) -> None:
    where = str(tmp_path / "r.sqlite3")
    name = "x'); DROP TABLE games;--"
    record.add(game("1", (5000, 0), names=(name, None)), where)
    assert [seat.name for seat in record.games(where)[0].seats] == [name, None]
    assert record.forget(name, where) == 1
    assert [seat.name for seat in record.games(where)[0].seats] == [None, None]


def test_forget_keeps_the_others_records_whole(tmp_path: Path) -> None:
    where = str(tmp_path / "r.sqlite3")
    record.add(game("1", (5000, 0), names=("Ann", "Bob")), where)
    record.add(game("2", (5000, 0)), where)
    assert record.forget("Ann", where) == 2
    found = stats.statistics(record.games(where))
    assert [person["name"] for person in found["people"]] == ["Bob"]
    assert b"Ann" not in Path(where).read_bytes()


def test_statistics_by_rules_and_level_streaks_best_and_the_last_games() -> None:
    games = [
        game("1", (5000, 100)),
        game("2", (200, 5000)),
        game("3", (5100, 100)),
        game("4", (5200, 100), level="expert"),
        game("5", (1000, 1000), rules="classic"),
    ]
    (ann,) = stats.statistics(games)["people"]
    assert ann["games"] == 5 and (ann["won"], ann["lost"], ann["tied"]) == (3, 1, 1)
    assert ann["share"] == 60.0 and ann["best"] == 5200 and ann["average"] == 3300.0
    assert ann["by"] == [
        {
            "rules": "bsd",
            "against": "expert",
            "games": 1,
            "won": 1,
            "lost": 0,
            "tied": 0,
            "share": 100.0,
        },
        {
            "rules": "bsd",
            "against": "standard",
            "games": 3,
            "won": 2,
            "lost": 1,
            "tied": 0,
            "share": 66.7,
        },
        {
            "rules": "classic",
            "against": "standard",
            "games": 1,
            "won": 0,
            "lost": 0,
            "tied": 1,
            "share": 0.0,
        },
    ]
    assert ann["streak"] == {"result": "tied", "games": 1, "longest_won": 2}
    assert [g["score"] for g in ann["last"]] == [1000, 5200, 5100, 200, 5000]


# ----- the end of a game in the line mode ----------------------------------------


def test_a_finished_game_is_recorded_and_its_end_says_the_record_and_the_rating() -> None:
    session = new(seed=3)
    status, out, _ = play(session)
    assert status == 0
    result = side_result(session, 0)
    (game_,) = record.games()
    assert game_.rules == "milebymile" and game_.level == "standard" and game_.place == "keyboard"
    assert game_.options["distance"] == 300 and game_.options["winning_score"] == 1000
    assert [(s.name, s.level, s.here) for s in game_.seats] == [
        ("Ann", None, True),
        (None, "standard", False),
    ]
    assert [s.total for s in game_.sides] == [session.table.total(1), session.table.total(2)]
    assert sum(game_.sides[0].hands) == session.table.total(1)
    won, lost = (1, 0) if result == "won" else (0, 1)
    new_rating = round(rating.update(1500, [(1500, won)]))
    assert lines_after_result(out) == [
        f"Your record against standard at milebymile: won {won}, lost {lost} ({100 * won}% of 1).",
        f"Your rating {new_rating}? ({new_rating - 1500:+d}), provisional; standard 1500.",
    ]


def test_a_hot_seat_says_each_persons_record_and_a_game_of_people_has_no_rating() -> None:
    session = new(short(3), seed=5, names={0: "Ann", 1: "Bob", 2: "Cy"})
    _, out, _ = play(session)
    said = []
    table = session.table
    for seat, name in session.people.items():  # each against each other, by name
        for other, rival in session.people.items():
            if other == seat:
                continue
            mine, theirs = table.total(seat + 1), table.total(other + 1)
            won, lost = int(mine > theirs), int(mine < theirs)
            tied = ", tied 1" if mine == theirs else ""
            said.append(
                f"{name}'s record against {rival}: won {won}, lost {lost}{tied}"
                f" ({100 * won}% of 1)."
            )
    assert lines_after_result(out) == said
    assert stats.ratings(record.games()) == {}


def test_no_record_leaves_no_trace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(recorder, "enabled", False)
    _, out, _ = play(new(seed=3))
    assert lines_after_result(out) == []
    assert not (tmp_path / "data").exists()


def test_a_game_abandoned_before_its_end_is_not_recorded() -> None:
    session = new(seed=3)
    out = io.StringIO()
    status = plain.play(session, stdin=io.BytesIO(b"p\nd 1\nq\ny\n"), stdout=out)
    assert status == 0 and record.games() == []


# ----- never in the way ---------------------------------------------------------

NOT_RECORDED = "mille: the game was not recorded: {} (kept for the next game)"


def test_a_damaged_record_costs_one_line_and_the_game_is_kept_for_later(tmp_path: Path) -> None:
    where = Path(record.path())
    where.parent.mkdir(parents=True)
    where.write_bytes(b"this is no database" * 100)
    status, out, _ = play(new(seed=3))
    assert status == 0
    assert lines_after_result(out) == [NOT_RECORDED.format("file is not a database")]
    assert len(os.listdir(where.parent / "pending")) == 1
    where.unlink()  # mended: the next game takes the one kept in
    play(new(seed=4))
    assert len(record.games()) == 2 and os.listdir(where.parent / "pending") == []


def test_a_record_locked_by_another_process_costs_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(record, "TIMEOUT", 0.2)
    record.add(game("1", (5000, 0)))
    holder = hold(record.path())
    try:
        status, out, _ = play(new(seed=3))
    finally:
        holder.communicate("")
    assert status == 0
    assert lines_after_result(out) == [NOT_RECORDED.format("database is locked")]
    play(new(seed=4))  # the lock gone: both recorded
    assert len(record.games()) == 3


def test_a_read_only_record_costs_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    record.add(game("1", (5000, 0)))
    real = sqlite3.connect

    def read_only(where: str, **kwargs: Any) -> sqlite3.Connection:
        db: sqlite3.Connection = real(f"file:{where}?mode=ro", uri=True, **kwargs)
        return db

    monkeypatch.setattr(sqlite3, "connect", read_only)
    status, out, _ = play(new(seed=3))
    assert status == 0
    assert lines_after_result(out) == [NOT_RECORDED.format("attempt to write a readonly database")]


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes read-only files")
def test_a_read_only_directory_costs_one_line() -> None:  # pragma: no cover - not as root
    folder = Path(record.data_dir())
    folder.mkdir(parents=True)
    folder.chmod(0o500)
    try:
        status, out, _ = play(new(seed=3))
    finally:
        folder.chmod(0o700)
    assert status == 0 and len(lines_after_result(out)) == 1


def test_a_full_disk_costs_one_line_and_keeps_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    from mille.storage import atomic

    def full(*args: Any, **kwargs: Any) -> Any:
        raise sqlite3.OperationalError("database or disk is full")

    def no_space(*args: Any, **kwargs: Any) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(sqlite3, "connect", full)
    monkeypatch.setattr(atomic, "write", no_space)
    status, out, _ = play(new(seed=3))
    assert status == 0
    assert lines_after_result(out) == [
        "mille: the game was not recorded: database or disk is full (not kept)"
    ]


def test_a_record_deleted_mid_game_is_made_again() -> None:
    record.add(game("1", (5000, 0)))
    status, _, _ = play(new(seed=3), before={4: lambda: os.remove(record.path())})
    assert status == 0 and len(record.games()) == 1


def test_an_unexpected_failure_never_ends_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(record, "add", broken)
    status, out, _ = play(new(seed=3))
    assert status == 0 and lines_after_result(out) == [
        "mille: the game was not recorded: boom (not kept)"
    ]


# ----- the property: the statistics are those of the games played ----------------


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 10_000),  # the seed
            st.sampled_from(["Ann", "Bob"]),
            st.sampled_from(["easy", "standard"]),
            st.booleans(),  # finished, or given up
            st.integers(2, 3),  # players
            st.integers(1, 2),  # games played in a row
        ),
        max_size=5,
    )
)
def test_the_statistics_are_those_of_the_games_played(
    tmp_path_factory: pytest.TempPathFactory, games: list[tuple[int, str, str, bool, int, int]]
) -> None:
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("data"))
    expected: dict[tuple[str, str], list[str]] = {}
    scores: dict[str, list[int]] = {}

    class Watched(Scripted):
        def hand_over(self) -> None:
            super().hand_over()
            table = self.session.table
            if table.game_over:  # the game's own end, as the table says it
                for seat, name in self.session.people.items():
                    result = side_result(self.session, seat)
                    expected.setdefault((name, self.session.level), []).append(result)
                    scores.setdefault(name, []).append(table.total(table.rules.side_of(seat)))

    for seed, name, level, finished, players, rounds in games:
        session = new(short(players), seed=seed, names={0: name}, level=level)
        front = Watched(session, random.Random(seed), games=rounds)
        if finished:
            flow.run(front)
        else:  # some moves, then given up (a game ended on the way is recorded)
            front.recorder.begin()
            try:
                for _ in range(seed % 40):
                    flow.step(front)
            except flow.Quit:  # (its last game ended on the way)
                pass
    shown = stats.statistics(record.games())
    found = {
        (person["name"], row["against"]): [row["won"], row["lost"], row["tied"]]
        for person in shown["people"]
        for row in person["by"]
    }
    assert found == {
        key: [results.count(word) for word in ("won", "lost", "tied")]
        for key, results in expected.items()
    }
    for person in shown["people"]:
        assert person["best"] == max(scores[person["name"]])
        assert person["average"] == round(
            sum(scores[person["name"]]) / len(scores[person["name"]]), 1
        )


# ----- mille --stats, --forget, --no-record, whole games in processes -----------


def mille(
    *args: str, script: str = "", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*MILLE, *args], input=script, capture_output=True, text=True, timeout=120, env=env
    )


def typed(make: Any, seed: int = 0) -> str:
    """The lines a person types for the whole game ``make()`` makes (played
    here first, not recorded)."""
    return played(make(), seed)


def played(session: Session, seed: int = 0) -> str:
    """The lines typed for the whole game of ``session``, played here (not
    recorded): a ``mille`` process with its options plays the same game."""
    recorder.enabled = False
    try:
        return "\n".join(play(session, seed)[2].typed) + "\n"
    finally:
        recorder.enabled = True


def test_whole_games_in_the_line_mode_leave_their_results_and_stats_shows_them() -> None:
    alone = Session.new(seed=3)
    one = mille("--plain", "--seed", "3", script=played(alone))
    assert one.returncode == 0, one.stderr
    assert "Your record against standard at bsd: " in one.stdout
    people = ["--rules", "classic", "--players", "3", "--people", "0=Ann,1=Bob", "--seed", "4"]
    rules = find_rules("classic", players=3)
    hot_seat = Session.new(rules, seed=4, humans=(0, 1), names={0: "Ann", 1: "Bob"})
    hot = mille("--plain", *people, script=played(hot_seat))
    assert hot.returncode == 0, hot.stderr
    assert "Ann's record against standard at classic: " in hot.stdout
    assert "Bob's rating " in hot.stdout
    games = record.games()
    assert [(g.rules, g.place, [s.name for s in g.seats if s.here]) for g in games] == [
        ("bsd", "keyboard", ["ann-login"]),  # (alone: the account's name)
        ("classic", "keyboard", ["Ann", "Bob"]),
    ]
    for done, session in zip(games, (alone, hot_seat)):  # exactly the games played
        table = session.table
        assert [(s.total, sum(s.hands)) for s in done.sides] == [
            (table.total(side), table.total(side)) for side in range(1, table.rules.sides + 1)
        ]
        assert done.options == rules_to_dict(table.rules)
        names = session.people | ({0: "ann-login"} if session is alone else {})
        assert [(s.seat, s.side, s.name, s.level) for s in done.seats] == [
            (seat, table.rules.side_of(seat), names.get(seat),
             None if seat in session.people else "standard")
            for seat in range(table.rules.players)
        ]  # fmt: skip
        for side in done.sides:
            tab = table.tableaux[side.side - 1]
            assert side.safeties >= len(tab.safeties) and side.coups >= sum(tab.coups)
    stats = mille("--stats", "--json")
    assert stats.returncode == 0
    shown = json.loads(stats.stdout)
    assert shown["record"] == record.path()
    assert [p["name"] for p in shown["people"]] == ["Ann", "ann-login", "Bob"]
    assert all(p["games"] == 1 for p in shown["people"])
    text = mille("--stats").stdout.splitlines()
    assert text[0] == f"The record: {record.path()}"
    assert text[-2:] == [
        "The computers' ratings: easy 1259, standard 1500, expert 1572.",
        "A rating marked ? is provisional: fewer than 10 games against computers.",
    ]
    assert any(line.startswith("Ann: 1 game, won ") for line in text)
    assert "  classic against standard: 1 game, " in "\n".join(text)


def test_no_record_in_a_process_and_forget() -> None:
    script = typed(lambda: Session.new(seed=3))
    done = mille("--plain", "--seed", "3", "--no-record", script=script)
    assert done.returncode == 0 and "Your record" not in done.stdout
    assert mille("--stats").stdout == f"No game recorded yet (the record: {record.path()}).\n"
    mille("--plain", "--seed", "3", script=script)
    assert mille("--forget", "ann-login").stdout == "Forgot ann-login: 1 game.\n"
    again = mille("--forget", "ann-login")
    assert again.returncode == 1 and again.stdout == ""
    assert again.stderr == "mille: --forget: no game of ann-login in the record (it has no names)\n"
    assert mille("--stats").stdout == f"No game recorded yet (the record: {record.path()}).\n"


def has_open(pid: int, name: str) -> bool:
    """Whether process ``pid`` has the file ``name`` open (Linux's /proc)."""
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return False
    for fd in fds:
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") == name:
                return True
        except OSError:
            continue
    return False


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc")
def test_two_processes_finishing_at_once_are_both_recorded(tmp_path: Path) -> None:
    """Two mille play the same game; the record is locked until both wait
    on it (each has the file open), then both write it at once."""
    import time

    script = typed(lambda: Session.new(seed=3))
    record.add(game("1", (5000, 0)))
    holder = hold(record.path())
    outs = [(tmp_path / f"out{n}").open("w+") for n in range(2)]  # (a pipe would fill)
    runs = [
        subprocess.Popen(
            [*MILLE, "--plain", "--seed", "3"],
            stdin=subprocess.PIPE,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for out in outs
    ]
    try:
        for run in runs:
            assert run.stdin is not None
            run.stdin.write(script)
            run.stdin.close()
        deadline = time.monotonic() + 60
        while not all(has_open(run.pid, os.path.realpath(record.path())) for run in runs):
            assert all(run.poll() is None for run in runs), "a mille ended before the record"
            assert time.monotonic() < deadline, "the two mille never waited on the record"
            time.sleep(0.005)
    finally:
        holder.communicate("")  # the lock goes: both write now
    import re

    counts = []
    for run, out in zip(runs, outs):
        assert run.wait(timeout=120) == 0
        out.seek(0)
        text = out.read()
        said = re.search(r"Your record against standard at bsd: .*\(\d+% of (\d+)\)\.", text)
        assert said is not None, text[-300:]
        counts.append(said.group(1))
    assert sorted(counts) == ["1", "2"]  # one wrote first, the other after it
    assert len(record.games()) == 3


def hold(where: str) -> subprocess.Popen[str]:
    """Another process holding the record locked (an exclusive transaction)
    until its standard input is closed."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys\n"
            "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
            "db.execute('BEGIN EXCLUSIVE')\n"
            "print('locked', flush=True)\n"
            "sys.stdin.read()\n",
            where,
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
    return holder


@pytest.mark.parametrize(
    "args,said",
    [
        (["--json"], "mille: --json goes with --stats"),
        (["--stats", "--plain"], "mille: --stats takes no other option or file"),
        (["--forget", "Ann", "x"], "mille: --forget takes no other option or file"),
    ],
)
def test_the_record_options_go_alone(args: list[str], said: str) -> None:
    done = mille(*args)
    assert done.returncode == 1 and done.stderr == f"{said} (mille --help lists the options)\n"


def test_the_record_options_are_read() -> None:
    from mille.frontends.cli import parse_args

    assert parse_args(["--stats"]).action == "stats" and not parse_args(["--stats"]).as_json
    assert parse_args(["--stats", "--json"]).as_json
    assert parse_args(["--forget=Ann"]).forget == parse_args(["--forget", "Ann"]).forget == "Ann"
    assert not parse_args(["--no-record", "--seed", "1"]).record
    assert parse_args(["--seed", "1"]).record


def test_stats_on_a_damaged_record_says_so_on_one_line() -> None:
    where = Path(record.path())
    where.parent.mkdir(parents=True)
    where.write_bytes(b"no database here" * 100)
    done = mille("--stats")
    assert done.returncode == 1 and done.stderr == "mille: the record: file is not a database\n"


def test_sqlite3_is_not_imported_to_start_a_game() -> None:
    code = (
        "import sys\nfrom mille.frontends import cli, plain, flow, tui, ui\n"
        "cli.parse_args(['--seed', '1'])\nprint('sqlite3' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout == "False\n", done.stderr


# ----- the boards and the network's line mode -----------------------------------


def ended(rules: Rules, names: dict[int, str], keeper: recorder.Recorder | None = None) -> Session:
    """A game played to its end by the session alone (people's moves: the
    first use, else the first legal move; y to every question), each hand
    noted by ``keeper``."""
    session = new(rules, seed=2, names=names)
    keeper = keeper or recorder.Recorder()
    table = session.table
    while not (table.phase == OVER and table.game_over):
        if table.phase == OVER:
            keeper.hand_over(session)
            session.next_hand()
        elif session.computer_to_move:
            session.computer_move()
        else:
            legal = [m for m in table.legal_moves() if not table.discards_safety(m)]
            session.play(next((m for m in legal if isinstance(m, Use)), legal[0]))
    return session


@pytest.mark.parametrize("rules", [find_rules("bsd"), short(3)], ids=["bsd-board", "table-board"])
def test_the_boards_show_the_record_on_their_error_line_at_the_games_end(rules: Rules) -> None:
    from test_board import FakeWindow

    from mille.frontends.table_ui import TableUi
    from mille.frontends.ui import Ui
    from support.fakewindow import OutOfKeys

    session = ended(rules, {0: "Ann"})
    window = FakeWindow("")
    board = (Ui if rules.name == "bsd" else TableUi)(window, session)  # type: ignore[arg-type]
    with pytest.raises(OutOfKeys):
        board.end_of_hand()
    table = session.table
    won = int(side_result(session, 0) == "won")
    mine = table.total(1)
    results = [
        (1500.0, 1.0 if mine > other else 0.5 if mine == other else 0.0)
        for other in (table.total(side) for side in range(2, rules.sides + 1))
    ]
    after = round(rating.update(1500, results))
    line = f"{won}-{1 - won} vs standard; rating {after}? ({after - 1500:+d})"
    assert board.screen.message == line
    assert line in window.text()


def test_the_board_says_when_the_game_was_not_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any) -> None:
        raise record.RecordError("database is locked", kept=True)

    monkeypatch.setattr(record, "add", broken)
    keeper = recorder.Recorder()
    session = ended(short(3), {0: "Ann"}, keeper)
    keeper.hand_over(session)
    assert keeper.board_line(0) == "not recorded: database is locked"
    assert keeper.lines(0) == [NOT_RECORDED.format("database is locked")]


def test_the_joiners_line_mode_records_the_game_at_its_end() -> None:
    """The line mode's joiner (``remote.lines``: the flow's end of a hand
    calls ``recorder.hand_over``) records the game for its seat and says
    the record at the game's end."""
    import queue

    from test_net_remote_session import StandIn

    from mille.frontends.remote.lines import LineSeat, RemoteLineUi
    from mille.net.seats import Feed

    feed = Feed(new(short(3), seed=2, names={0: "Ann", 1: "Bob"}))
    session = feed.session
    link = StandIn(feed, 1)
    welcome = {"type": "welcome", "seat": 1, "host": False, "token": "t", "protocol": 3}
    remote = LineSeat(link, welcome, link.update())
    out = io.StringIO()
    ui = RemoteLineUi(remote, io.BytesIO(), out, queue.Queue())
    keeper = ui.recorder
    while True:
        while not session.table.hand_over:  # every seat's moves, by the host
            seat = session.table.current_player
            assert seat is not None
            feed.play(seat, feed.version(seat), feed.think(seat, feed.stand_in(seat, 1)))
        link.inbox.put(link.update())
        if session.table.game_over:  # the host's game whole (not known here: none)
            link.inbox.put(dict(whole_game(None)))
        while remote.another_decides:
            ui.computer_moved(remote.another_moves())
        keeper.hand_over(remote)  # flow.finish_hand
        ui.hand_over()
        if session.table.game_over:
            break
        feed.next_hand()
        link.inbox.put(link.update())
        remote.next_hand()
        ui.new_hand()
    (game_,) = record.games()
    assert game_.place == "network" and game_.level == "standard"
    assert [(s.name, s.level, s.here) for s in game_.seats] == [
        ("Ann", None, False),
        ("Bob", None, True),
        (None, "standard", False),
    ]
    table = session.table
    assert [s.total for s in game_.sides] == [table.total(side) for side in (1, 2, 3)]
    assert [sum(s.hands) for s in game_.sides] == [s.total for s in game_.sides]
    result = side_result(session, 1)
    won = int(result == "won")
    assert (
        f"Your record against standard at milebymile: won {won}, lost {int(result == 'lost')}"
        in out.getvalue()
    )


def test_the_help_pages_name_the_record() -> None:
    from mille.frontends import bsd_screen, plain_board, table_screen

    hot_seat = "Hot seat: --people 0=Ann,1=Bob.  Your record: mille --stats (--no-record)."
    assert hot_seat in bsd_screen.HELP
    assert table_screen.table_help(find_rules("classic", players=4))[-2:] == [
        "Your record: mille --stats (--no-record: none).",
        "Press any key to go back to the game.",
    ]
    said = "Finished games are recorded: mille --stats shows them (--no-record: not)."
    assert said in plain_board.help_text(find_rules("bsd")).splitlines()


@pytest.fixture
def three_hours_east(monkeypatch: pytest.MonkeyPatch) -> Any:
    """This machine's local time: UTC+3 (a POSIX TZ, no time zone files)."""
    import time

    monkeypatch.setenv("TZ", "XYZ-3")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_stats_says_each_persons_record_word_for_word(three_hours_east: None) -> None:
    games = [
        game("1", (5000, 100)),
        game("2", (200, 5000)),
        game("3", (5100, 100)),
        game("4", (5200, 4100), names=("Bob", None), level="expert"),
    ]  # numbered as the record numbers them, game 2 without its moves (schema 2's)
    games = [replace(one, number=n, whole=n != 2) for n, one in enumerate(games, 1)]
    found = stats.statistics(games)
    assert record_words.stats_lines(found, "/x/record.sqlite3", record_words.ASCII_SPARKS) == [
        "The record: /x/record.sqlite3",
        "Ann: 3 games, won 2, lost 1 (66.7% won); rating 1515?",
        "  bsd against standard: 3 games, won 2, lost 1 (66.7% won)",
        "  best 5100, average 3433.3; 1 won in a row, longest winning streak 1",
        "  rating, last 3 games: #_# 1499 to 1516",
        "  last games (local time; the rating after each; *: no moves kept):",
        "    #3 2026-01-01 03:00 bsd vs standard: won 5100-100; 1515? (+16)",
        "    #2* 2026-01-01 03:00 bsd vs standard: lost 200-5000; 1499? (-17)",
        "    #1 2026-01-01 03:00 bsd vs standard: won 5000-100; 1516? (+16)",
        "Bob: 1 game, won 1, lost 0 (100% won); rating 1519?",
        "  bsd against expert: 1 game, won 1, lost 0 (100% won)",
        "  best 5200, average 5200; 1 won in a row, longest winning streak 1",
        "  last games (local time; the rating after each):",
        "    #4 2026-01-01 03:00 bsd vs expert: won 5200-4100; 1519? (+19)",
        "The computers' ratings: easy 1259, standard 1500, expert 1572.",
        "A rating marked ? is provisional: fewer than 10 games against computers.",
    ]
    assert record_words.stats_lines(stats.statistics([]), "/x/r") == [
        "No game recorded yet (the record: /x/r)."
    ]


def test_a_joiners_board_records_the_game_as_played_over_the_network() -> None:
    """The boards' joiner (``RemoteSeat``, driven by the flow, whose end
    of a hand calls ``recorder.hand_over``) records the game for its seat."""
    from test_net_remote_session import StandIn

    from mille.frontends.remote.seat import RemoteSeat
    from mille.net.seats import Feed

    feed = Feed(new(short(3), seed=6, names={0: "Hal", 1: "Ann"}))
    session = feed.session
    link = StandIn(feed, 1)
    welcome = {"type": "welcome", "seat": 1, "host": False, "token": "t", "protocol": 3}
    remote = RemoteSeat(link, welcome, link.update())
    keeper = recorder.Recorder()
    while True:
        while not session.table.hand_over:  # every seat's moves, by the host
            seat = session.table.current_player
            assert seat is not None
            feed.play(seat, feed.version(seat), feed.think(seat, feed.stand_in(seat, 1)))
        link.inbox.put(link.update())
        if session.table.game_over:  # the host's game whole (not known here: none)
            link.inbox.put(dict(whole_game(None)))
        while remote.another_decides:
            remote.another_moves()
        keeper.hand_over(remote)  # flow.finish_hand
        if session.table.game_over:
            break
        feed.next_hand()
        link.inbox.put(link.update())
        remote.next_hand()
    (done,) = record.games()
    assert done.place == "network" and done.level == "standard"
    assert [(s.name, s.level, s.here) for s in done.seats] == [
        ("Hal", None, False),
        ("Ann", None, True),
        (None, "standard", False),
    ]
    table = session.table
    assert [s.total for s in done.sides] == [table.total(side) for side in (1, 2, 3)]
    assert keeper.board_line(1).startswith(
        f"{int(side_result(session, 1) == 'won')}-{int(side_result(session, 1) == 'lost')} vs standard"
    )


def test_forget_takes_in_the_games_waiting_first(tmp_path: Path) -> None:
    where = tmp_path / "r.sqlite3"
    where.write_bytes(b"damaged" * 100)
    with pytest.raises(record.RecordError) as caught:
        record.add(game("1", (5000, 0)), str(where))
    assert caught.value.kept and str(caught.value) == "file is not a database"
    where.unlink()
    assert record.forget("Ann", str(where)) == 1
    assert os.listdir(tmp_path / "pending") == []
    assert [s.name for s in record.games(str(where))[0].seats] == [None, None]
