"""`--shard K/N`: shards split the items by fingerprint, each pays only for its own, and the same command without
--shard then pays nothing and writes exactly what one process writes (timing fields aside)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import orjson
import pytest

from gaia_eval.artifacts.experiment import ConsolidatedExperiments, Experiment
from gaia_eval.artifacts.lock import LOCK_NAME, FolderBusyError, folder_lock
from gaia_eval.artifacts.shards import Shard, parse_shard, shard_lock, shard_of
from gaia_eval.artifacts.store import read_artifact
from gaia_eval.errors import UsageError
from gaia_eval.stages.experiment.run import consolidate_experiments, run_batch_experiment
from gaia_eval.stages.generate import run_generate
from gaia_eval.stages.groundtruth.run import run_groundtruth
from tests.fakeserver import default_responder

TIMING = {"latency_s", "time_to_success_s"}


@pytest.fixture(scope="module")
def qa_groundtruth(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("shards")
    run_generate("meeting", root / "docs", types=["standup", "planning", "client_call"], count_per_type=2, seed=4)
    run_groundtruth(input_dir=root / "docs", use_case="qa", output_dir=root / "gt")
    return root / "gt"


def _config(path: Path, base_url: str) -> Path:
    path.write_bytes(orjson.dumps({"experiments": [
        {"name": "local-model", "provider": "vllm", "model": "m", "base_url": base_url}]}))
    return path


def _items(path: Path) -> list[dict]:
    exp = read_artifact(path, Experiment)
    return [{k: v for k, v in i.model_dump(mode="json").items() if k not in TIMING} for i in exp.items]


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "gaia_eval", *args]


def test_shard_arithmetic_partitions_every_item_once():
    fingerprints = [f"sha256:{i:064x}" for i in range(2000)]
    for count in (1, 2, 3, 4, 7):
        owners = [shard_of(fp, count) for fp in fingerprints]
        assert set(owners) == set(range(1, count + 1))
        for k in range(1, count + 1):
            assert [Shard(k, count).owns(fp) for fp in fingerprints] == [o == k for o in owners]
        # roughly even: no shard holds twice its share
        assert max(owners.count(k) for k in range(1, count + 1)) < 2 * len(fingerprints) / count
    assert parse_shard("2/4") == Shard(2, 4) and parse_shard(" 1 / 1 ") == Shard(1, 1)
    for bad in ("0/4", "5/4", "1/0", "x", "1-4", ""):
        with pytest.raises(UsageError):
            parse_shard(bad)


def test_four_shards_then_consolidation_pays_nothing_and_equals_one_process(
        fake_llm, qa_groundtruth: Path, tmp_path: Path):
    config = _config(tmp_path / "c.json", fake_llm.openai_base_url)
    sharded, single = tmp_path / "sharded", tmp_path / "single"
    per_shard = []
    for k in range(1, 5):
        before = fake_llm.request_count
        summary = run_batch_experiment(config, qa_groundtruth, sharded, show_progress=False, shard=Shard(k, 4),
                                       concurrency=4)
        per_shard.append(fake_llm.request_count - before)
        assert summary.calls_made == per_shard[-1]
        assert not (sharded / "local-model.experiment.json").exists()  # a shard writes only its part
        assert (sharded / f"local-model.experiment.shard-{k}-of-4.part.jsonl").exists()
    assert not (sharded / "consolidated_experiments_report.json").exists()
    before = fake_llm.request_count
    run_batch_experiment(config, qa_groundtruth, sharded, show_progress=False)
    assert fake_llm.request_count == before  # the consolidation pays nothing
    assert sorted(p.name for p in sharded.iterdir()) == ["consolidated_experiments_report.json",
                                                        "local-model.experiment.json"]  # parts gone
    before = fake_llm.request_count
    run_batch_experiment(config, qa_groundtruth, single, show_progress=False, call_options=None)
    total = fake_llm.request_count - before
    assert sum(per_shard) == total and all(per_shard)  # every item paid once, by exactly one shard
    assert _items(sharded / "local-model.experiment.json") == _items(single / "local-model.experiment.json")
    a = read_artifact(sharded / "consolidated_experiments_report.json", ConsolidatedExperiments)
    b = read_artifact(single / "consolidated_experiments_report.json", ConsolidatedExperiments)
    assert [(e.items, e.errors, e.usage) for e in a.experiments] == [
        (e.items, e.errors, e.usage) for e in b.experiments]
    # the runs took the headers they had just written instead of reading the files back: the same report
    assert a == consolidate_experiments(sharded) and b == consolidate_experiments(single)


def test_consolidation_with_shards_missing_pays_only_their_items(fake_llm, qa_groundtruth: Path, tmp_path: Path):
    config = _config(tmp_path / "c.json", fake_llm.openai_base_url)
    out = tmp_path / "out"
    run_batch_experiment(config, qa_groundtruth, out, show_progress=False, shard=Shard(1, 3))
    first = fake_llm.request_count
    summary = run_batch_experiment(config, qa_groundtruth, out, show_progress=False)
    total = len(read_artifact(out / "local-model.experiment.json", Experiment).items)
    assert summary.calls_made == total - first == fake_llm.request_count - first


def test_consolidation_pays_again_for_parts_made_with_another_config(fake_llm, qa_groundtruth: Path, tmp_path: Path):
    out = tmp_path / "out"
    run_batch_experiment(_config(tmp_path / "a.json", fake_llm.openai_base_url), qa_groundtruth, out,
                         show_progress=False, shard=Shard(1, 2))
    changed = tmp_path / "b.json"  # the same experiment name, another model: shard 1's answers are not its answers
    changed.write_bytes(orjson.dumps({"experiments": [
        {"name": "local-model", "provider": "vllm", "model": "other", "base_url": fake_llm.openai_base_url}]}))
    calls = fake_llm.request_count
    summary = run_batch_experiment(changed, qa_groundtruth, out, show_progress=False)
    items = read_artifact(out / "local-model.experiment.json", Experiment).items
    assert summary.calls_made == len(items) == fake_llm.request_count - calls


def test_a_shard_finished_is_not_paid_again_and_its_errors_stay_final(fake_llm, qa_groundtruth: Path,
                                                                     tmp_path: Path):
    config = _config(tmp_path / "c.json", fake_llm.openai_base_url)
    out = tmp_path / "out"
    fake_llm.responder = lambda req: {"fault": "400"}  # every call of shard 1 fails for good
    summary = run_batch_experiment(config, qa_groundtruth, out, show_progress=False, shard=Shard(1, 2))
    assert summary.items_error > 0 and summary.items_ok == 0
    fake_llm.responder = default_responder
    calls = fake_llm.request_count
    again = run_batch_experiment(config, qa_groundtruth, out, show_progress=False, shard=Shard(1, 2))
    assert fake_llm.request_count == calls and again.items_error == summary.items_error
    run_batch_experiment(config, qa_groundtruth, out, show_progress=False, shard=Shard(2, 2))
    calls = fake_llm.request_count
    done = run_batch_experiment(config, qa_groundtruth, out, show_progress=False)
    assert fake_llm.request_count == calls  # shard 1's errors are its answer, as in a finished file
    assert done.items_error == summary.items_error
    retried = run_batch_experiment(config, qa_groundtruth, out, show_progress=False, retry_errors=True)
    assert retried.items_error == 0 and fake_llm.request_count - calls == summary.items_error


def test_locks_one_process_per_shard_and_no_unsharded_run_beside_shards(tmp_path: Path):
    folder = tmp_path / "out"
    with shard_lock(folder, Shard(1, 4)):
        with pytest.raises(FolderBusyError, match="shard 1/4"), shard_lock(folder, Shard(1, 4)):
            pass
        with shard_lock(folder, Shard(2, 4)):  # another shard of the same split runs beside it
            pass
        with pytest.raises(FolderBusyError, match="another split"), shard_lock(folder, Shard(1, 2)):
            pass
        from gaia_eval.stages.common import holds_output_lock

        @holds_output_lock()
        def unsharded(output_dir: Path) -> None:
            raise AssertionError("ran beside a shard")

        with pytest.raises(FolderBusyError, match="shard\\(s\\) 1/4"):
            unsharded(folder)
    with folder_lock(folder), pytest.raises(FolderBusyError, match="without --shard"), shard_lock(folder, Shard(1, 4)):
        pass
    assert not (folder / LOCK_NAME).exists() and not list(folder.glob(".gaia-eval.shard-*"))


def test_cli_shard_option(fake_llm, qa_groundtruth: Path, tmp_path: Path):
    config = _config(tmp_path / "c.json", fake_llm.openai_base_url)
    out = tmp_path / "out"
    bad = subprocess.run(_cli("batch-experiment", "-c", str(config), "-i", str(qa_groundtruth), "-o", str(out),
                              "--shard", "5/4"), capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--shard" in bad.stderr and "Traceback" not in bad.stderr
    assert not out.exists()  # (--shard with --batch: tests/test_shards_batch.py)
    ok = subprocess.run(_cli("batch-experiment", "-c", str(config), "-i", str(qa_groundtruth), "-o", str(out),
                             "--shard", "1/2", "--quiet"), capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0, ok.stderr
    assert "shard 1/2" in ok.stdout and (out / "local-model.experiment.shard-1-of-2.part.jsonl").exists()


def test_kill_9_a_shard_at_random_points_then_rerun_pays_only_in_flight(fake_llm, qa_groundtruth: Path,
                                                                        tmp_path: Path):
    """Killed ten times at seeded points, each re-run pays only what was not journaled (at most the in-flight
    calls); the finished shards then consolidate to one process's items."""
    import random

    config = _config(tmp_path / "c.json", fake_llm.openai_base_url)
    out = tmp_path / "out"
    shard = Shard(1, 2)
    mine = sum(shard.owns(i.content_fingerprint) for i in _workload(qa_groundtruth).items)
    journal = out / "local-model.experiment.shard-1-of-2.journal.jsonl"
    args = _cli("batch-experiment", "-c", str(config), "-i", str(qa_groundtruth), "-o", str(out), "--shard", "1/2",
                "--concurrency", "2", "--quiet", "--no-cache")
    rng = random.Random(31)
    gate = threading.Semaphore(0)
    fake_llm.responder = lambda req: (gate.acquire(timeout=30), default_responder(req))[1]
    recovery = []
    for _ in range(10):
        done_before = _lines(journal)
        if done_before >= mine:
            break
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        let_through = rng.randint(0, 2)
        for _ in range(let_through):
            gate.release()
        target = min(mine, done_before + let_through)
        _wait(lambda target=target: _lines(journal) >= target, proc)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        for _ in range(4):  # the killed run's held requests end (their replies go nowhere)
            gate.release()
        recovery.append((done_before, _lines(journal)))
    fake_llm.responder = default_responder
    done_before = _lines(journal)
    finish = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert finish.returncode == 0, finish.stderr
    assert f"{mine - done_before} requests sent to models" in finish.stdout  # only what was not journaled
    assert len(recovery) >= 3 and all(after >= before for before, after in recovery)
    # What the kills cost: requests the server saw beyond one per item, at most the calls in flight (2) per kill.
    wasted = fake_llm.request_count - mine
    print(f"kill -9 recovery: {len(recovery)} kills, {mine} items, {wasted} requests repeated "
          f"(bound {2 * len(recovery)}), journaled before/after each kill: {recovery}")
    assert 0 <= wasted <= 2 * len(recovery)
    run_batch_experiment(config, qa_groundtruth, out, show_progress=False, shard=Shard(2, 2))
    calls = fake_llm.request_count
    run_batch_experiment(config, qa_groundtruth, out, show_progress=False)
    assert fake_llm.request_count == calls
    clean = tmp_path / "clean"
    run_batch_experiment(config, qa_groundtruth, clean, show_progress=False)
    assert _items(out / "local-model.experiment.json") == _items(clean / "local-model.experiment.json")


def _workload(groundtruth: Path):
    from gaia_eval.stages.experiment.inputs import load_workload

    return load_workload(groundtruth)


def _lines(path: Path) -> int:
    try:
        return sum(1 for line in path.read_bytes().splitlines() if line.endswith(b"}"))
    except FileNotFoundError:
        return 0


def _wait(condition, proc: subprocess.Popen) -> None:
    import time

    deadline = time.monotonic() + 60
    while not condition():
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else proc.returncode
        assert time.monotonic() < deadline
        time.sleep(0.005)


def _readme_block(language: str, marker: str) -> str:
    import re

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    blocks = [b for b in re.findall(rf"```{language}\n(.*?)```", readme, re.S) if marker in b]
    assert len(blocks) == 1, f"README has no single ```{language} block with {marker}"
    return blocks[0]


def _shards_from(expression: str, variable: str, indexes: range) -> list[Shard]:
    """The --shard argument as the shell expands it for each task index."""
    return [parse_shard(subprocess.run(["bash", "-c", f'echo "{expression}"'], env={variable: str(i)},
                                       capture_output=True, text=True, check=True).stdout.strip())
            for i in indexes]


def test_readme_slurm_array_and_kubernetes_indexed_job_run_every_shard_once():
    import re

    slurm = _readme_block("sh", "#SBATCH --array")
    first, last = map(int, re.search(r"#SBATCH --array=(\d+)-(\d+)", slurm).groups())
    expression = re.search(r'--shard "([^"]+)"', slurm).group(1)
    shards = _shards_from(expression, "SLURM_ARRAY_TASK_ID", range(first, last + 1))
    count = last - first + 1
    assert sorted(shards, key=lambda s: s.index) == [Shard(k, count) for k in range(1, count + 1)]

    job = _readme_block("yaml", "completionMode: Indexed")
    completions = int(re.search(r"completions: (\d+)", job).group(1))
    expression = re.search(r"--shard (.+?)\"\]", job).group(1)
    shards = _shards_from(expression, "JOB_COMPLETION_INDEX", range(completions))
    assert sorted(shards, key=lambda s: s.index) == [Shard(k, completions) for k in range(1, completions + 1)]


def test_remote_urls_survive_click_paths_and_local_paths_stay_local():
    from gaia_eval.artifacts.remote import remote_url

    assert remote_url(Path("s3://bucket/some/prefix/")) == "s3://bucket/some/prefix"  # Path folds the "//"
    assert remote_url("gs://b/p") == "gs://b/p"
    assert [remote_url(p) for p in ("c:/data", "experiments/qa", "/abs/s3:/x", None)] == [None] * 4


def test_cluster_run_refuses_what_cannot_be_sharded():
    from click.testing import CliRunner

    from gaia_eval.cli import cli

    for command in (["report", "-d", "evaluation"], ["batch-experiment", "--shard", "1/2"]):
        result = CliRunner().invoke(cli, ["cluster-run", "--shards", "2", "--", *command])
        assert result.exit_code == 2 and "Traceback" not in result.output, result.output
