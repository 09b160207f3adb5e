"""``python -m mille`` run from this tree as a command, in the language
the environment given chooses (none of the caller's language variables
kept), its output read whole."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from mille import i18n

ROOT = Path(__file__).resolve().parent.parent.parent


def run_mille(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``mille ARGS`` with the variables ``env`` (and none of
    :data:`mille.i18n.ENVIRONMENT` but those), from the tree's root."""
    clean = {k: v for k, v in os.environ.items() if k not in i18n.ENVIRONMENT}
    return subprocess.run(
        [sys.executable, "-m", "mille", *args],
        capture_output=True,
        text=True,
        env={**clean, **env},
        cwd=ROOT,
        check=False,
    )
