"""training/: a tiny run of the documented commands, start to end (numpy
is in the ``train`` extra: skipped without it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mille.players.learned import load_model

pytest.importorskip("numpy")

from training import train  # noqa: E402


def test_generate_resumes_and_fit_writes_a_valid_weights_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    common = ["--out", str(data), "--rules", "classic", "--hands", "1", "--worlds", "2"]
    train.main(["generate", *common, "--chunks", "1"])
    first = capsys.readouterr().out
    assert first.startswith("classic-2-heuristic-s1-c0.jsonl: ")
    written = (data / "classic-2-heuristic-s1-c0.jsonl").read_text(encoding="utf-8")
    # the same command again resumes: chunk 0 is not made again
    train.main(["generate", *common, "--chunks", "2"])
    assert capsys.readouterr().out.startswith("classic-2-heuristic-s1-c1.jsonl: ")
    assert (data / "classic-2-heuristic-s1-c0.jsonl").read_text(encoding="utf-8") == written
    record = json.loads(written.splitlines()[0])
    assert record["family"] == "stack/2"
    assert len(record["q"]) == len(record["features"]) >= 2
    out = tmp_path / "w.json"
    train.main(["fit", "--data", str(data), "--out", str(out), "--seed", "3", "--ridge", "1", "10"])
    printed = capsys.readouterr().out
    assert "held out " in printed and "fit " in printed
    model = load_model(str(out))
    assert model.trained["seed"] == 3
    assert model.trained["decisions"] + model.trained["held_out"] == sum(
        len(p.read_text(encoding="utf-8").splitlines()) for p in data.glob("*.jsonl")
    )
    assert model.weights["*"]
