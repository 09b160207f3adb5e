"""bench/bench_levels.py's --baseline: a git revision's code as kind B."""

from __future__ import annotations

import io
import os
import pathlib
import subprocess
import sys
import tarfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench", "bench_levels.py")

pytestmark = pytest.mark.skipif(
    subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True).returncode != 0,
    reason="not a git checkout",
)


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, BENCH, *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def test_baseline_head_plays_the_same_as_the_tree() -> None:
    # HEAD's standard is the tree's (tests run on a clean or near-clean
    # tree): the mirrored deals come out even, to the point
    done = bench(
        "--rules", "classic", "--players", "standard,standard", "--baseline", "HEAD", "--deals", "3"
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("classic (2 seats, individual): standard against standard@HEAD")
    assert "standard@HEAD: " in done.stdout
    assert "decided hands won by standard:" in lines[1]


def test_baseline_in_teams() -> None:
    done = bench(
        "--rules",
        "milebymile",
        "--seats",
        "4",
        "--teams",
        "2v2",
        "--players",
        "easy,standard",
        "--baseline",
        "HEAD",
        "--deals",
        "2",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("milebymile (4 seats, 2v2): easy against standard@HEAD")


def test_unknown_revision_is_one_line() -> None:
    done = bench("--players", "standard,standard", "--baseline", "no-such-rev", "--deals", "1")
    assert done.returncode != 0
    assert done.stderr == "bench_levels: unknown revision 'no-such-rev'\n"


def has_commit(rev: str) -> bool:
    found = subprocess.run(
        ["git", "cat-file", "-e", rev + "^{commit}"], cwd=ROOT, capture_output=True
    )
    return found.returncode == 0


@pytest.mark.skipif(not has_commit("c73a8c6"), reason="c73a8c6 not in this clone")
@pytest.mark.parametrize("rules", ["classic", "bsd"])
def test_baseline_before_the_engine_package(rules: str) -> None:
    # c73a8c6 (before 2.0) imports Tableau and the moves from its table
    # module and asks a table is_bsd and is_legal: its players run again
    done = bench(
        "--rules", rules, "--players", "standard,standard", "--baseline", "c73a8c6", "--deals", "2"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(
        f"{rules} (2 seats, individual): standard against standard@c73a8c6"
    )
    assert "standard@c73a8c6: " in done.stdout


def archive(*members: tuple[str, bytes | str]) -> io.BytesIO:
    """A tar archive of files (bytes) and symbolic links (str: the target)."""
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w") as tar:
        for name, what in members:
            info = tarfile.TarInfo(name)
            if isinstance(what, str):
                info.type, info.linkname = tarfile.SYMTYPE, what
                tar.addfile(info)
            else:
                info.size = len(what)
                tar.addfile(info, io.BytesIO(what))
    data.seek(0)
    return data


@pytest.mark.parametrize(
    "bad",
    [("mille/../../escaped.py", b"x"), ("/abs.py", b"x"), ("mille/link", "/etc/passwd")],
    ids=["climbs-out", "absolute", "link"],
)
def test_a_baseline_archive_extracts_plain_files_only(
    tmp_path: pathlib.Path, bad: tuple[str, bytes | str]
) -> None:
    # without extractall's filter= (Pythons before 3.10.12 and 3.11.4): the same refusals
    sys.path.insert(0, os.path.dirname(BENCH))
    try:
        import bench_levels
    finally:
        sys.path.remove(os.path.dirname(BENCH))
    good = tmp_path / "good"
    good.mkdir()
    with tarfile.open(fileobj=archive(("mille/a/b.py", b"print(1)\n"))) as tar:
        bench_levels.extract_safely(tar, str(good))
    assert (good / "mille" / "a" / "b.py").read_bytes() == b"print(1)\n"
    where = tmp_path / "bad"
    where.mkdir()
    with (
        tarfile.open(fileobj=archive(("mille/ok.py", b""), bad)) as tar,
        pytest.raises(bench_levels.BaselineError),
    ):
        bench_levels.extract_safely(tar, str(where))
    assert list(where.iterdir()) == []
    assert not (tmp_path / "escaped.py").exists()
