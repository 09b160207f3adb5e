"""The recovery file: where it lives, writing it, finding it, removing it."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from mille.game.session import Session
from mille.storage import recovery
from mille.storage.savefile import dumps, load_session


@pytest.fixture
def state_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(home))
    return home


# ----- where -------------------------------------------------------------------


def test_xdg_state_home_is_used(state_home: Path) -> None:
    assert recovery.directory() == str(state_home / "mille")
    assert recovery.path() == str(state_home / "mille" / "interrupted-game.json")


@pytest.mark.parametrize("value", [None, "", "relative/state", "./state", "~/state"])
def test_otherwise_the_default_under_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str | None
) -> None:
    """Unset, empty or relative: the XDG spec says to ignore it."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    if value is None:
        monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_STATE_HOME", value)
    assert recovery.directory() == str(tmp_path / "home" / ".local" / "state" / "mille")
    assert recovery.path() == str(
        tmp_path / "home" / ".local" / "state" / "mille" / "interrupted-game.json"
    )


def test_windows_uses_local_app_data(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("XDG_STATE_HOME", "/ignored/on/windows")
    monkeypatch.setenv("LOCALAPPDATA", "C:\\Users\\ann\\AppData\\Local")
    assert recovery.directory() == "C:\\Users\\ann\\AppData\\Local\\mille"
    assert recovery.path() == "C:\\Users\\ann\\AppData\\Local\\mille\\interrupted-game.json"


@pytest.mark.parametrize("value", [None, "", "relative"])
def test_windows_without_local_app_data(monkeypatch: pytest.MonkeyPatch, value: str | None) -> None:
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("USERPROFILE", "C:\\Users\\ann")
    if value is None:
        monkeypatch.delenv("LOCALAPPDATA", raising=False)
    else:
        monkeypatch.setenv("LOCALAPPDATA", value)
    assert recovery.directory() == "C:\\Users\\ann\\AppData\\Local\\mille"


# ----- write, pending, remove -----------------------------------------------------


def test_nothing_pending_at_first(state_home: Path) -> None:
    assert recovery.pending() is None
    assert not state_home.exists()  # looking creates nothing


def test_write_then_pending_then_remove(state_home: Path) -> None:
    session = Session.new(seed=11)
    session.play(session.table.legal_moves()[0])
    written = recovery.write(session)
    assert session.kept == written
    name = os.path.basename(written)
    assert name.startswith("interrupted-") and name.endswith(f"-{os.getpid()}.json")
    found = recovery.pending()
    assert found == (written, os.stat(written).st_mtime)
    restored = load_session(written)  # an ordinary save file
    assert dumps(restored) == dumps(session)
    assert os.listdir(state_home / "mille") == [name]  # no temporary left
    recovery.remove(written)
    assert recovery.pending() is None
    recovery.remove(written)  # missing is fine
    assert os.listdir(state_home / "mille") == []


def test_earlier_versions_one_file_is_found(state_home: Path) -> None:
    (state_home / "mille").mkdir(parents=True)
    Path(recovery.path()).write_text(dumps(Session.new(seed=1)))
    assert recovery.pending() == (recovery.path(), os.stat(recovery.path()).st_mtime)


def test_the_directory_is_made_private(state_home: Path) -> None:
    old = os.umask(0o022)
    try:
        recovery.write(Session.new(seed=1))
    finally:
        os.umask(old)
    assert stat.S_IMODE((state_home / "mille").stat().st_mode) == 0o700


def test_an_existing_directory_is_left_as_it_is(state_home: Path) -> None:
    (state_home / "mille").mkdir(parents=True)
    (state_home / "mille").chmod(0o750)
    recovery.write(Session.new(seed=1))
    assert stat.S_IMODE((state_home / "mille").stat().st_mode) == 0o750


def test_a_second_game_gets_a_file_of_its_own(state_home: Path) -> None:
    """Two games interrupted one after the other are both kept: the newest
    is found first."""
    first = recovery.write(Session.new(seed=1))
    os.utime(first, (1_795_000_000, 1_795_000_000))
    second = Session.new(seed=2)
    path = recovery.write(second)
    assert path != first and Path(path).read_text() == dumps(second)
    assert [p for p, _ in recovery.kept_games()] == [path, first]
    assert len(os.listdir(state_home / "mille")) == 2


def test_claim_takes_only_the_file_offered(state_home: Path) -> None:
    path = recovery.write(Session.new(seed=1))
    mtime = os.stat(path).st_mtime
    os.utime(path, (mtime + 5, mtime + 5))  # written again meanwhile
    assert recovery.claim(path, mtime) is None and os.path.exists(path)
    taken = recovery.claim(path, mtime + 5)
    assert taken is not None and not os.path.exists(path) and recovery.pending() is None
    assert recovery.claim(path, mtime + 5) is None  # gone: another mille has it
    recovery.release(taken, path)
    assert recovery.pending() == (path, mtime + 5)


CLAIM_AND_DIE = """
import os, signal, sys
from mille.storage import recovery
(path, mtime), = recovery.kept_games()
assert recovery.claim(path, mtime)
os.kill(os.getpid(), signal.SIGKILL)  # before the removal
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX: whether a process is gone")
def test_a_claim_whose_mille_died_is_offered_again(state_home: Path) -> None:
    session = Session.new(seed=3)
    kept = Path(recovery.write(session))
    os.utime(kept, (1_795_000_000, 1_795_000_000))
    died = subprocess.run([sys.executable, "-c", CLAIM_AND_DIE], timeout=60)
    assert died.returncode == -9
    (claimed,) = kept.parent.iterdir()
    assert re.fullmatch(re.escape(kept.name) + r"\.claimed-\d+", claimed.name)
    assert recovery.kept_games() == [(str(kept), 1_795_000_000)]  # put back, as it was
    assert not claimed.exists() and kept.read_text() == dumps(session)
    assert recovery.abandoned(claimed.name)
    # a claim by a mille still running is its own: neither offered nor put back
    taken = recovery.claim(str(kept), 1_795_000_000)
    assert taken is not None and not recovery.abandoned(os.path.basename(taken))
    assert recovery.kept_games() == [] and os.path.exists(taken)
    for name in ("interrupted-x.json", "interrupted-x.json.claimed-", "x.claimed-1", "a.bad"):
        assert not recovery.abandoned(name)


def test_a_write_that_cannot_be_done_raises_os_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocker))
    with pytest.raises(OSError):
        recovery.write(Session.new(seed=1))
    assert recovery.pending() is None
    assert blocker.read_text() == "not a directory"


def test_a_failed_write_keeps_the_older_file(
    state_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = recovery.write(Session.new(seed=1))
    before = Path(path).read_bytes()

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError, match="No space left on device"):
        recovery.write(Session.new(seed=2))
    monkeypatch.undo()
    assert Path(path).read_bytes() == before
    assert os.listdir(state_home / "mille") == [os.path.basename(path)]


def test_set_aside(state_home: Path) -> None:
    path = recovery.write(Session.new(seed=1))
    Path(path + ".bad").write_text("an older bad one")
    Path(path).write_text("garbage")
    aside = recovery.set_aside(path)
    assert aside == path + ".bad"
    assert Path(aside).read_text() == "garbage"
    assert recovery.pending() is None


def test_import_is_cheap() -> None:
    """No curses, no engine, no save-file code, no typing just to import it."""
    code = (
        "import sys; import mille.storage.recovery; "
        "print(sorted(m for m in sys.modules if m.startswith('mille') "
        "or m in ('_curses', 'typing', 'json', 'tempfile')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[-2] == "['mille', 'mille.storage', 'mille.storage.recovery']"


def test_the_save_format_doc_describes_it() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "save-format.md").read_text()
    section = doc.split("## The recovery file\n")[1].split("\n## ")[0]
    assert f"$XDG_STATE_HOME/mille/{recovery.NAME}" in section
    assert f"{recovery.NAME}{recovery.BAD_SUFFIX}" in section
    assert "Resume it? (n deletes it) [yn]" in section and "mode 0700" in section
    assert f"$XDG_STATE_HOME/mille/{recovery.PREFIX}" in section
    assert (
        "run\nmille alone to resume it" in section and "another mille took or changed it" in section
    )
