"""Shared by every test: a private state directory, and ``spawn`` for the
end-to-end tests (``mille`` in a pty, read through pyte)."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from support.screen import Term

_OWN_CACHE: list[str] = []  # the temporary byte-code cache this process made, if any


def pytest_configure(config: pytest.Config) -> None:
    """Where the environment says not to write byte code
    (PYTHONDONTWRITEBYTECODE), the programs the tests start (the xdist
    workers, ``mille`` in a pty, ``python -m mille``, the network's worker)
    would compile every module they import at every start, seconds for a
    worker's collection and most of a second for a ``mille`` on a busy
    machine: they share a byte-code cache of their own instead
    (PYTHONPYCACHEPREFIX: nothing is written beside the sources), in
    pytest's cache directory (``.pytest_cache/d/pycache``, kept from run to
    run), else in a temporary directory removed at the end of the run.  A
    cache prefix the caller chose is left as it is."""
    if os.environ.get("PYTHONDONTWRITEBYTECODE") and "PYTHONPYCACHEPREFIX" not in os.environ:
        cache = getattr(config, "cache", None)  # (None with -p no:cacheprovider)
        if cache is not None:
            directory = str(cache.mkdir("pycache"))
        else:
            directory = tempfile.mkdtemp(prefix="mille-tests-pycache-")
            _OWN_CACHE.append(directory)
        os.environ["PYTHONPYCACHEPREFIX"] = directory
        del os.environ["PYTHONDONTWRITEBYTECODE"]


def pytest_unconfigure(config: pytest.Config) -> None:
    for directory in _OWN_CACHE:
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(autouse=True)
def _private_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Games kept by a test (the end of a scripted input in the line mode,
    a hang-up) go to the test's own directory, not to the recovery directory
    of whoever runs the tests (the next mille there would offer them); the
    games finished by a test are recorded in its own data directory."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "state"))


@pytest.fixture(autouse=True)
def _in_english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The tests read English, whatever the language of whoever runs them:
    LANGUAGE comes first in the order mille reads (the ``mille`` the
    end-to-end tests start inherits it); the tests of another language
    choose it themselves, and the language in-process is English again
    after each test."""
    monkeypatch.setenv("LANGUAGE", "en")
    yield
    from mille import i18n

    i18n.use(None)


@pytest.fixture(autouse=True)
def _not_a_first_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """The boards in a test start as on a user's later runs (BSD's first
    screen exactly, no ``welcomed`` file written); the tests of the first
    run undo this (``first_run`` in tests/test_first_run.py)."""
    from mille.storage import firstrun

    monkeypatch.setattr(firstrun, "first_run", lambda: False)


@pytest.fixture
def french() -> None:
    """This test reads French (English again after it: ``_in_english``)."""
    from mille import i18n

    assert i18n.choose("fr") == "fr"


@pytest.fixture
def unhurried_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The computer's search and the hint's analysis in this process never
    meet their time caps (``Budget.seconds``, ``Trial.seconds``): a test
    that compares two hints, or a hint with the board's, gets the same
    answer on a loaded machine as on an idle one (the caps are there for a
    person waiting; the budgets in moves and worlds still bound the work)."""
    from mille.players import search

    monkeypatch.setattr(search, "monotonic", lambda: 0.0)


SEARCH_TICK = 3 / 16  # (a binary fraction: its sums are exact, whatever the clock read before)


@pytest.fixture
def steady_search_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The computer's search and the hint's analysis in this process read a
    clock that moves ``SEARCH_TICK`` seconds at each reading: they meet
    their time caps (``Budget.seconds``, ``Trial.seconds``) after the same
    work on every machine, loaded or idle, as a person's hint on a busy
    machine is cut short.  Two hints compared are the same, in a fraction
    of the time that ``unhurried_search`` takes to spend the whole budgets
    (most of a minute for a hint at nine seats)."""
    from itertools import count

    from mille.players import search

    readings = count()
    monkeypatch.setattr(search, "monotonic", lambda: next(readings) * SEARCH_TICK)


@pytest.fixture
def spawn() -> Iterator[Callable[..., Term]]:
    """``spawn(*args, rows=24, cols=80, cwd=None)``: start mille; killed after the test."""
    started: list[Term] = []

    def start(*args: str, **kwargs: object) -> Term:
        term = Term(*args, **kwargs)  # type: ignore[arg-type]
        started.append(term)
        return term

    yield start
    for term in reversed(started):  # a Term sharing another's state directory goes first
        term.close()


# the tests that build or install the package from this tree (its build/ and
# egg-info directories) run one after another, on the same worker
ONE_AT_A_TIME = {"test_packaging.py": "the-tree"}
# the tests of a file that share what a worker computes once (functools.cache), by
# their parameters: the tests of the same parameters run on the same worker
SHARE_A_WORKER = {
    "test_savefile.py": (  # recorded(game, seed): a game played, saved at every step
        "test_round_trip_is_byte_identical_at_every_step",
        "test_restored_game_plays_on_exactly_as_the_original",
    ),
}


def worker_group(nodeid: str) -> str | None:
    """The group of tests that ``nodeid`` runs with on one worker, if any.

    >>> worker_group("tests/test_packaging.py::test_x")
    'the-tree'
    >>> worker_group("tests/test_savefile.py::test_round_trip_is_byte_identical_at_every_step[bsd-1]")
    'test_savefile.py[bsd-1]'
    >>> worker_group("tests/test_savefile.py::test_doctests[checks]") is None
    True
    """
    path, _, name = nodeid.partition("::")
    file = path.rsplit("/", 1)[-1]
    if file in ONE_AT_A_TIME:
        return ONE_AT_A_TIME[file]
    function, bracket, params = name.partition("[")
    if bracket and function in SHARE_A_WORKER.get(file, ()):
        return f"{file}[{params}"
    return None


@pytest.hookimpl(optionalhook=True)  # (a hook of pytest-xdist's)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadgroup`` with the groups of ``worker_group``: pytest-xdist
    reads a test's ``xdist_group`` mark through a node id that pytest 9
    no longer lets it change, and so ran the tests of a group on any worker."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling  # type: ignore[import-untyped]

    class Groups(LoadGroupScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return worker_group(nodeid) or super()._split_scope(nodeid)

    return Groups(config, log)


# The quick suite's longest tests (seconds each, on 2 workers), slowest first: they
# start first, so that no worker is left with one of them while the other is idle at
# the end (the workers take the tests in this order; the groups of tests go first).
LONG_FIRST = (
    "test_seat_views.py::test_a_seat_sees_nothing_of_the_cards_hidden_from_it",
    "test_training.py::test_generate_resumes_and_fit_writes_a_valid_weights_file",
    "test_safeties.py::test_over_whole_hands_the_chances_stay_sane",
    "test_net_worker.py::test_a_worker_killed_in_a_later_hand_is_rebuilt_from_that_hands_deal",
    "test_advice_keys.py::test_h_on_the_n_seat_board",
    "test_net_server.py::test_computers_in_a_worker_process",
    "test_net_server.py::test_fuzz_beside_a_game",
    "test_net_server.py::test_a_drop_after_the_grace_period",
    "test_expert.py::test_guesses_follow_what_a_seat_shows",
    "test_simulation.py::test_a_thousand_random_bsd_hands",
    "test_net_server.py::test_the_table_deals_on_while_the_host_is_away",
    "test_net_server.py::test_a_drop_inside_the_grace_period",
    "test_net_game.py::test_mile_by_mile_six_seats_people_and_computers",
    "test_guidance_e2e.py::test_slow_computers_are_shown_thinking_one_after_another",
    "test_plain_signals_e2e.py::test_control_c_while_the_computers_move_asks_really",
    "test_net_e2e.py::test_host_two_joins_sigterm_and_resume",
    "test_hand_e2e.py::test_whole_hand_through_the_keyboard",
    "test_table_bsd.py::test_random_hands_follow_the_spec",
    "test_heuristic.py::test_standard_beats_random_and_outscores_greedy",
    "test_value.py::test_the_cut_expert_plays_legal_moves_reproducibly",
    "test_table_milebymile.py::test_random_races",
    "test_selfplay.py::test_mirror_match_is_even_over_many_hands",
    "test_net_transcript.py::test_the_line_mode_at_home_and_over_loopback",
    "test_record.py::test_no_record_in_a_process_and_forget",
    "test_record.py::test_the_statistics_are_those_of_the_games_played",
    "test_simulation.py::test_any_seeded_bsd_hand_ends_consistently",
    "test_record.py::test_whole_games_in_the_line_mode_leave_their_results_and_stats_shows_them",
    "test_net_seats.py::test_the_client_rebuilds_the_seats_view",
    "test_computer.py::test_choose_is_always_legal",
    "test_record_files.py::test_stats_on_a_record_edited_by_another_program_never_raises",
    "test_net_joining.py::test_a_wrong_code_is_one_line_at_once_with_its_status",
)
_RANK = {name: rank for rank, name in enumerate(LONG_FIRST)}


def _rank(item: pytest.Item) -> int:
    """Where ``item`` comes in the order of the run: LONG_FIRST's, else after them."""
    function = getattr(item, "originalname", item.name)
    return _RANK.get(f"{item.path.name}::{function}", len(LONG_FIRST))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # (stable: the others keep their order)
