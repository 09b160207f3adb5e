"""What ``pip install .`` and ``pip install -e .`` put on the machine, and
imports on any platform."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
RUNTIME_MODULES = [
    "mille." + path.stem
    for path in sorted((ROOT / "mille").glob("*.py"))
    if path.stem not in ("__main__",)
]


@pytest.mark.slow
def test_pip_install_puts_the_man_page_where_man_finds_it(tmp_path: pathlib.Path) -> None:
    """A wheel of the project, installed in a new venv, carries mille.6 in
    share/man/man6, listed in the distribution's files; ``man -w mille``
    with that venv's bin on PATH finds ours."""
    wheels = tmp_path / "wheels"
    build = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(wheels)]
    subprocess.run(build + [str(ROOT)], check=True, cwd=tmp_path)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
    wheel = next(wheels.glob("bsd_mille-*.whl"))
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--quiet",
            "--no-deps",
            str(wheel),
        ]
        if _pip_has_python_option()
        else [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--prefix",
            str(venv),
            str(wheel),
        ],
        check=True,
        cwd=tmp_path,
    )
    script = (
        "import importlib.metadata as m\n"
        "hits = [f for f in m.files('bsd-mille') if f.as_posix().endswith('share/man/man6/mille.6')]\n"
        "print(hits[0].locate().resolve() if hits else '')\n"
    )
    found = subprocess.run(
        [str(python), "-c", script], capture_output=True, text=True, check=True, cwd=tmp_path
    ).stdout.strip()
    assert found, "mille.6 is not among the installed distribution's files"
    installed = pathlib.Path(found)
    assert installed.read_text() == (ROOT / "mille.6").read_text()
    assert installed.parent == (venv / "share" / "man" / "man6").resolve()
    if shutil.which("man") is not None:
        env = dict(os.environ, PATH=f"{python.parent}{os.pathsep}{os.environ['PATH']}")
        env.pop("MANPATH", None)
        where = subprocess.run(
            ["man", "-w", "mille"], capture_output=True, text=True, env=env, cwd=tmp_path
        )
        assert pathlib.Path(where.stdout.strip()).resolve() == installed


def test_the_installed_mille_brought_its_man_page() -> None:
    """The environment the tests run in (the README's ``pip install -e '.[test]'``
    or ``pip install .``) holds mille.6 in ``<prefix>/share/man/man6``, where
    ``man`` looks for the venv's bin on PATH.  setuptools alone leaves data
    files out of editable installs; setup.py puts them back."""
    import importlib.metadata
    import sysconfig

    # the distribution installed in this environment, not a bsd_mille.egg-info
    # that an in-tree build left in the checkout (first on the path from there)
    where = sorted({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]})
    found = list(importlib.metadata.distributions(name="bsd-mille", path=where))
    if not found:
        pytest.skip("mille is not installed in this environment")
    files = found[0].files or []
    hits = [f for f in files if f.as_posix().endswith("share/man/man6/mille.6")]
    assert hits, "mille.6 is not among the installed distribution's files"
    installed = pathlib.Path(str(hits[0].locate())).resolve()
    assert ".Dt MILLE 6" in installed.read_text()  # a snapshot: edits need a new install
    assert installed == (pathlib.Path(sys.prefix) / "share" / "man" / "man6" / "mille.6").resolve()


@pytest.mark.slow
def test_pip_install_e_puts_the_man_page_where_man_finds_it(tmp_path: pathlib.Path) -> None:
    """The README's test install, ``pip install -e``, in a new venv: mille.6 is in
    the venv's share/man/man6 and ``man -w mille`` with its bin on PATH finds it."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-deps", "-e", str(ROOT)],
        check=True,
        cwd=tmp_path,
    )
    installed = venv / "share" / "man" / "man6" / "mille.6"
    assert installed.read_text() == (ROOT / "mille.6").read_text()
    if shutil.which("man") is not None:
        env = dict(os.environ, PATH=f"{python.parent}{os.pathsep}{os.environ['PATH']}")
        env.pop("MANPATH", None)
        where = subprocess.run(
            ["man", "-w", "mille"], capture_output=True, text=True, env=env, cwd=tmp_path
        )
        assert pathlib.Path(where.stdout.strip()).resolve() == installed.resolve()


def _pip_has_python_option() -> bool:
    """pip >= 22.3 can install into another environment with --python."""
    out = subprocess.run(
        [sys.executable, "-m", "pip", "--version"], capture_output=True, text=True
    ).stdout.split()
    major, minor = (int(part) for part in out[1].split(".")[:2])
    return (major, minor) >= (22, 3)


POSIX_ONLY = {
    "signal": [
        "SIGHUP",
        "SIGQUIT",
        "SIGTSTP",
        "SIGCONT",
        "SIGWINCH",
        "SIGALRM",
        "pthread_sigmask",
        "setitimer",
        "alarm",
    ],
    "os": ["fchown", "fchmod", "mkfifo", "getuid", "geteuid", "O_NOCTTY", "O_NONBLOCK"],
}


def test_every_runtime_module_imports_without_posix_only_names() -> None:
    """On Windows these names do not exist; importing mille must not need them."""
    removals = "".join(
        f"for name in {names!r}:\n"
        f"    if hasattr({module}, name):\n"
        f"        delattr({module}, name)\n"
        for module, names in POSIX_ONLY.items()
    )
    code = (
        "import importlib, os, signal, sys\n" + removals + f"for name in {RUNTIME_MODULES!r}:\n"
        "    importlib.import_module(name)\n"
        "print('ok')\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "ok"


def test_the_catalogs_and_the_french_man_page_are_installed() -> None:
    """pyproject.toml ships the compiled catalogs (setup.py compiles each
    .po to its .mo in build_py) and installs the French man page where
    ``man -L fr mille`` finds it."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11 and later
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    assert "locale/*/LC_MESSAGES/*.mo" in config["setuptools"]["package-data"]["mille"]
    assert config["setuptools"]["data-files"]["share/man/fr/man6"] == ["man/fr/mille.6"]
    assert "BuildWithCatalogs" in (ROOT / "setup.py").read_text(encoding="utf-8")
    # and a source distribution carries the sources the wheel is built from
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8")
    assert "recursive-include mille/locale *.po *.pot" in manifest
    assert "include man/fr/mille.6" in manifest


@pytest.mark.slow
def test_a_wheel_speaks_french_with_no_other_step(tmp_path: pathlib.Path) -> None:
    """``pip install .``: the wheel holds mille.mo, compiled from the .po at
    build time, and the French man page; installed in a new venv, ``mille
    --lang fr`` speaks French."""
    import zipfile

    wheels = tmp_path / "wheels"
    build = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(wheels)]
    subprocess.run(build + [str(ROOT)], check=True, cwd=tmp_path)
    wheel = next(wheels.glob("bsd_mille-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "mille/locale/fr/LC_MESSAGES/mille.mo" in names
    assert not any(name.endswith(".po") for name in names)
    assert any(name.endswith(".data/data/share/man/fr/man6/mille.6") for name in names)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
    install = [str(python), "-m", "pip", "install", "--quiet", "--no-deps", str(wheel)]
    subprocess.run(install, check=True, cwd=tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env["LANG"] = "fr_FR.UTF-8"
    said = subprocess.run(
        [str(python), "-m", "mille", "--help"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert said.stdout.startswith("usage\u00a0: mille [--rules NOM]"), said.stderr
    assert (venv / "share" / "man" / "fr" / "man6" / "mille.6").is_file()
