"""``mille.storage.seatfile`` at the API: the seat file is written at its
own path, never through a symbolic link; two joins to one table keep a
token each; the recovery files are the user's alone (0600)."""

from __future__ import annotations

import json
import os
import pathlib
import stat

import pytest

from mille.game.session import Session
from mille.storage import recovery
from mille.storage.seatfile import SeatFile, SeatFileError


def seat_file() -> SeatFile:
    os.makedirs(recovery.directory(), exist_ok=True)
    return SeatFile("127.0.0.1", 7477, "k4mxq7hzp2wd")


def test_a_link_at_the_seat_files_name_is_replaced_its_target_untouched(
    tmp_path: pathlib.Path,
) -> None:
    target = tmp_path / "elsewhere.txt"
    target.write_text("mine\n")
    target.chmod(0o644)
    files = seat_file()
    link = files.path_for(1)
    os.symlink(target, link)
    files.store(1, "the-token")
    assert target.read_text() == "mine\n"  # neither the token nor the mode reached it
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert not os.path.islink(link) and stat.S_IMODE(os.lstat(link).st_mode) == 0o600
    assert '"token": "the-token"' in pathlib.Path(link).read_text()


def test_a_dangling_link_creates_nothing_outside(tmp_path: pathlib.Path) -> None:
    nowhere = tmp_path / "outside" / "token.json"
    nowhere.parent.mkdir()
    files = seat_file()
    os.symlink(nowhere, files.path_for(2))
    files.store(2, "the-token")
    assert list(nowhere.parent.iterdir()) == []
    assert not os.path.islink(files.path_for(2)) and os.path.isfile(files.path_for(2))


def test_a_link_is_not_read_and_is_replaced_by_the_next_store(tmp_path: pathlib.Path) -> None:
    target = tmp_path / "elsewhere.json"
    target.write_text("{}")
    files = seat_file()
    os.symlink(target, files.path_for(1))
    with pytest.raises(SeatFileError, match="^cannot read .*seat-.*-1.json: "):
        files.load()
    files.store(1, "the-token")  # the new seat's file replaces the link
    assert target.read_text() == "{}" and not os.path.islink(files.path_for(1))


def test_two_joins_at_once_each_keep_their_token_and_come_back_to_their_own() -> None:
    first, second = seat_file(), seat_file()
    assert first.load() is None and second.load() is None  # both start together
    first.store(1, "token-1")
    second.store(3, "token-3")
    kept = sorted(p for p in os.listdir(recovery.directory()) if p.startswith("seat-"))
    assert len(kept) == 2
    first.release()
    second.release()
    # both come back, together: each takes a file no other program holds
    again, other, third = seat_file(), seat_file(), seat_file()
    assert again.load() == "token-1"
    assert other.load() == "token-3"
    assert third.load() is None  # both held: a new person, keeping a file of its own
    third.store(2, "token-2")
    assert sorted(os.listdir(recovery.directory()))[-3:] == sorted(
        kept + [os.path.basename(third.path)]
    )
    for files in (again, other, third):
        files.release()


def test_the_earlier_versions_file_is_read_and_replaced() -> None:
    old = seat_file()
    os.makedirs(recovery.directory(), exist_ok=True)
    data = {
        "address": "127.0.0.1",
        "port": 7477,
        "code_sha256": old.code_sha256,
        "seat": 1,
        "token": "old",
    }
    pathlib.Path(old.path_for(None)).write_text(json.dumps(data))
    assert old.load() == "old" and old.path == old.path_for(None)
    old.store(2, "new")  # the host gave another seat: the file held for the other goes
    assert not os.path.exists(old.path_for(None)) and os.path.exists(old.path_for(2))
    old.release()


def test_an_unusable_file_is_said_then_replaced_by_the_seats() -> None:
    files = seat_file()
    pathlib.Path(files.path_for(None)).write_text("not json")
    with pytest.raises(SeatFileError, match="is not a seat file: not JSON$"):
        files.load()
    files.store(1, "token")
    assert not os.path.exists(files.path_for(None))
    files.release()
    assert seat_file().load() == "token"


def test_remove_takes_only_this_programs_file() -> None:
    mine, theirs = seat_file(), seat_file()
    theirs.store(1, "theirs")
    assert mine.load() is None  # theirs is held
    mine.remove()  # (a refusal before any seat: nothing of its own)
    assert os.path.exists(theirs.path)
    mine.store(2, "mine")
    mine.remove()
    assert not os.path.exists(mine.path) and os.path.exists(theirs.path)
    theirs.release()


def test_a_recovery_file_is_the_users_alone() -> None:
    old = os.umask(0o022)
    try:
        path = recovery.write(Session.new(seed=1))
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_a_game_the_hosts_worker_keeps_is_the_users_alone_and_a_save_is_not() -> None:
    import asyncio

    from mille.net.worker import Thinker
    from mille.storage import savefile

    async def keep(paths: list[str]) -> list[str | None]:
        thinker = Thinker()
        await thinker.start(savefile.dumps(Session.new(seed=1)).encode("ascii"))
        try:
            return [await thinker.save([], path) for path in paths]
        finally:
            await thinker.stop()

    os.makedirs(recovery.directory(), mode=recovery.DIRECTORY_MODE, exist_ok=True)
    kept, saved = recovery.new_path(), os.path.join(os.path.dirname(recovery.directory()), "g.m")
    old = os.umask(0o022)
    try:
        assert asyncio.run(keep([kept, saved])) == [None, None]
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(saved).st_mode) == 0o644  # a save file: as creat(2) makes it
