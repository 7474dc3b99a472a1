"""`eval --shard K/N` without --judge: a shard scores only the items it owns and writes them as its part; the same
eval without --shard then scores nothing the shards finished and writes exactly what one process writes. What
is scored is counted by a user scorer (`--scorer file.py:function`) that logs every item it is asked about."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from gaia_eval.artifacts.experiment import Experiment
from gaia_eval.artifacts.shards import Shard, shard_of
from gaia_eval.artifacts.store import read_artifact
from gaia_eval.stages.eval.run import run_eval
from gaia_eval.stages.experiment.run import run_batch_experiment
from gaia_eval.stages.generate import run_generate
from gaia_eval.stages.groundtruth.run import run_groundtruth

# Logs the item it scores (its question) to $SCORED_LOG; fails on questions of odd length when $FAIL_ODD is set;
# kills its own process with SIGKILL (kill -9) on the $KILL_AT-th item it is asked about.
COUNTING_SCORER = '''
import os
import signal

def words(item):
    with open(os.environ["SCORED_LOG"], "a") as log:
        log.write((item.expected.query or "?").replace("\\n", " ") + "\\n")
    if os.environ.get("FAIL_ODD") and len(item.expected.query or "?") % 2:
        raise ValueError("an odd question")
    kill_at = int(os.environ.get("KILL_AT", "0"))
    if kill_at:
        with open(os.environ["SCORED_LOG"]) as log:
            if sum(1 for _ in log) == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
    return min(1.0, len((item.answer or "").split()) / 10)
'''


@pytest.fixture(scope="module")
def experiments(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two baseline qa experiments (lead, retrieval) on six generated meetings: about 60 items each."""
    root = tmp_path_factory.mktemp("eval_shards")
    run_generate("meeting", root / "docs", types=["standup", "planning", "client_call"], count_per_type=2, seed=4)
    run_groundtruth(input_dir=root / "docs", use_case="qa", output_dir=root / "gt")
    config = root / "config.json"
    config.write_bytes(orjson.dumps({"experiments": [{"name": m, "provider": "baseline", "model": m}
                                                     for m in ("lead", "retrieval")]}))
    run_batch_experiment(config, root / "gt", root / "exp", show_progress=False)
    return root / "exp"


@pytest.fixture()
def scorer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    path = tmp_path / "counting.py"
    path.write_text(COUNTING_SCORER)
    monkeypatch.setenv("SCORED_LOG", str(tmp_path / "scored.log"))
    return f"{path}:words"


def _scored(tmp_path: Path) -> int:
    log = tmp_path / "scored.log"
    return len(log.read_text().splitlines()) if log.exists() else 0


def _answered(experiments: Path) -> dict[str, list[str]]:
    """Per experiment, the fingerprints of the items the model answered (the ones a scorer is asked about)."""
    return {p.name: [i.fingerprint for i in read_artifact(p, Experiment).items if i.status == "ok"]
            for p in sorted(experiments.glob("*.experiment.json"))}


def _without_timing(path: Path) -> dict:
    """An evaluation file or the index without its timing fields (when it was written, and so the files'
    fingerprints and times the index keeps)."""
    data = orjson.loads(path.read_bytes())
    data.pop("evaluated_at", None)
    if "evaluation_files" in data:
        data["evaluation_files"] = [e["file_path"] for e in data["evaluation_files"]]
        data["inputs"] = sorted(data["inputs"])
    return data


def test_eval_shards_score_only_their_items_and_consolidation_scores_nothing(experiments, scorer, tmp_path):
    single, sharded = tmp_path / "single", tmp_path / "sharded"
    run_eval(experiment_dir=experiments, output_dir=single, scorers=[scorer])
    total = _scored(tmp_path)
    answered = _answered(experiments)
    assert total == sum(len(fps) for fps in answered.values()) > 40
    for k in (1, 2, 3):
        before = _scored(tmp_path)
        summary = run_eval(experiment_dir=experiments, output_dir=sharded, scorers=[scorer], shard=Shard(k, 3))
        owned = sum(shard_of(fp, 3) == k for fps in answered.values() for fp in fps)
        assert _scored(tmp_path) - before == owned  # only its own items: not all of them, not none
        assert 0 < owned < total / 2
        assert not list(sharded.glob("*.eval.json")) and not (sharded / "consolidated_evaluations.json").exists()
        assert any(f"shard {k}/3" in note for note in summary.notes)
    assert _scored(tmp_path) == 2 * total  # the shards together scored what one process scored
    parts = sorted(p.name for p in sharded.iterdir())
    assert len(parts) == 6 and all(".eval.shard-" in p and p.endswith(".part.jsonl") for p in parts), parts
    run_eval(experiment_dir=experiments, output_dir=sharded, scorers=[scorer], shard=Shard(2, 3))
    assert _scored(tmp_path) == 2 * total  # a finished shard scores nothing again
    run_eval(experiment_dir=experiments, output_dir=sharded, scorers=[scorer])
    assert _scored(tmp_path) == 2 * total  # the consolidation scored nothing: every item came from a part
    assert sorted(p.name for p in sharded.iterdir()) == sorted(p.name for p in single.iterdir())  # parts gone
    for path in single.iterdir():
        mine = sharded / path.name
        if path.name.endswith(".eval.json"):  # byte for byte, once the one timing field is the same
            stamp = orjson.loads(path.read_bytes())["evaluated_at"]
            theirs = orjson.loads(mine.read_bytes())["evaluated_at"]
            assert mine.read_bytes().replace(theirs.encode(), stamp.encode()) == path.read_bytes(), path.name
        else:
            assert _without_timing(mine) == _without_timing(path), path.name


def test_consolidation_scores_only_what_no_shard_finished_and_ignores_parts_of_other_inputs(
        experiments, scorer, tmp_path):
    out = tmp_path / "ev"
    run_eval(experiment_dir=experiments, output_dir=out, scorers=[scorer], shard=Shard(1, 2))
    shard_1 = _scored(tmp_path)
    part = next(out.glob("*.eval.shard-1-of-2.part.jsonl"))
    lines = part.read_bytes().splitlines()
    damaged = orjson.loads(lines[0])
    del damaged["item"]["status"]  # valid JSON, not a scored item: that one item is scored again
    part.write_bytes(b"\n".join([orjson.dumps(damaged), *lines[1:]]) + b"\n")
    run_eval(experiment_dir=experiments, output_dir=out, scorers=[scorer])  # shard 2/2 never ran
    total = sum(len(fps) for fps in _answered(experiments).values())
    assert _scored(tmp_path) == total + 1  # shard 1's items were not scored again (but the damaged one), 2's were
    assert not list(out.glob("*.shard-*"))
    # A part made with other settings (another match mode) is not taken: its items are scored again.
    run_eval(experiment_dir=experiments, output_dir=tmp_path / "ev2", scorers=[scorer], shard=Shard(1, 2),
             match_mode="exact")
    before = _scored(tmp_path)
    run_eval(experiment_dir=experiments, output_dir=tmp_path / "ev2", scorers=[scorer])
    assert _scored(tmp_path) - before == total
    assert shard_1 < total


def test_regenerate_report_with_a_shard_is_refused_in_one_line(experiments, tmp_path):
    from click.testing import CliRunner

    from gaia_eval.cli import cli

    result = CliRunner().invoke(cli, ["eval", "-d", str(experiments), "-o", str(tmp_path / "ev"),
                                      "--regenerate-report", "--shard", "1/2"])
    assert result.exit_code == 2 and "--shard" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "ev").exists()


@pytest.mark.parametrize("point", ["first item", "middle", "last item"])
def test_kill_9_an_eval_shard_then_rerun_scores_only_what_it_had_not_finished(experiments, scorer, tmp_path, point):
    out = tmp_path / "ev"
    answered = _answered(experiments)
    owned = sum(shard_of(fp, 2) == 1 for fps in answered.values() for fp in fps)
    command = [sys.executable, "-m", "gaia_eval", "eval", "-d", str(experiments), "-o", str(out), "--scorer", scorer,
               "--shard", "1/2"]
    kill_at = {"first item": 1, "middle": owned // 2 + 3, "last item": owned}[point]
    killed = subprocess.run(command, env={**os.environ, "KILL_AT": str(kill_at)}, capture_output=True, text=True)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert _scored(tmp_path) == kill_at
    assert list(out.glob("*.eval.shard-1-of-2.journal.jsonl"))  # what it finished is journaled
    done = subprocess.run(command, env=dict(os.environ), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    # The items finished before the kill are not scored again; the one it was killed on is.
    assert _scored(tmp_path) - kill_at == owned - (kill_at - 1)
    assert not list(out.glob("*.journal.jsonl")) and len(list(out.glob("*.eval.shard-1-of-2.part.jsonl"))) == 2
    run_eval(experiment_dir=experiments, output_dir=out, scorers=[scorer], shard=Shard(2, 2))
    before = _scored(tmp_path)
    run_eval(experiment_dir=experiments, output_dir=out, scorers=[scorer])
    assert _scored(tmp_path) == before
    run_eval(experiment_dir=experiments, output_dir=tmp_path / "single", scorers=[scorer])
    for path in (tmp_path / "single").glob("*.eval.json"):
        assert _without_timing(out / path.name) == _without_timing(path)


def test_items_a_scorer_failed_on_in_a_shard_are_errors_and_scored_again_next_time(experiments, scorer, tmp_path,
                                                                                   monkeypatch):
    out = tmp_path / "ev"
    monkeypatch.setenv("FAIL_ODD", "1")
    failed = run_eval(experiment_dir=experiments, output_dir=out, scorers=[scorer], shard=Shard(1, 2))
    asked = (tmp_path / "scored.log").read_text().splitlines()
    odd = sum(len(q) % 2 for q in asked)
    assert 0 < odd < len(asked) and len(failed.scorer_errors) == odd  # each named, as one process names them
    monkeypatch.delenv("FAIL_ODD")
    run_eval(experiment_dir=experiments, output_dir=out, scorers=[scorer], shard=Shard(1, 2))
    assert _scored(tmp_path) == len(asked) + odd  # only the items it failed on were scored again
    run_eval(experiment_dir=experiments, output_dir=out, scorers=[scorer], shard=Shard(2, 2))
    before = _scored(tmp_path)
    done = run_eval(experiment_dir=experiments, output_dir=out, scorers=[scorer])
    assert _scored(tmp_path) == before and done.scorer_errors == []
