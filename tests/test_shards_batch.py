"""`--shard K/N` with `--batch`: each shard journals its provider batches in its own journal
(`<name>.shard-K-of-N.batches.jsonl`, under its own run id), so a shard killed after submitting re-attaches to its
own batches and never pays twice, another shard never touches them, a run without --shard refuses to ask for
items whose batch may still be running, and the consolidation pays nothing and writes what one --batch run
writes. The official SDKs against tests/fakebatch.py."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections import Counter
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from gaia_eval.cli import cli
from gaia_eval.stages.generate import run_generate
from gaia_eval.stages.groundtruth.run import run_groundtruth
from tests.fakebatch import FakeBatchServer
from tests.processes import interruptible_cli

ROOT = Path(__file__).resolve().parent.parent
VOLATILE = {"latency_s", "time_to_success_s", "batch_id", "wall_time_s", "started_at", "finished_at", "evaluated_at"}


@pytest.fixture()
def server(batch_server: FakeBatchServer) -> FakeBatchServer:
    return batch_server


@pytest.fixture(scope="module")
def qa_gt(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("shard-batch-gt")
    run_generate("meeting", tmp / "docs", types=["standup", "planning"], count_per_type=1, seed=8)
    run_groundtruth(input_dir=tmp / "docs", use_case="qa", output_dir=tmp / "gt")
    return tmp / "gt" / "consolidated_qa_groundtruth.json"


def _config(tmp: Path, server: FakeBatchServer) -> Path:
    path = tmp / "c.json"
    path.write_bytes(orjson.dumps({"experiments": [
        {"name": "m", "provider": "openai", "model": "gpt-4o-mini", "base_url": server.openai_base_url}]}))
    return path


def _args(config: Path, gt: Path, out: Path, *extra: str) -> list[str]:
    return ["batch-experiment", "-c", str(config), "-i", str(gt), "-o", str(out), "--quiet", "--no-cache", "--batch",
            *extra]


def _stable(value):
    if isinstance(value, dict):
        return {k: _stable(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_stable(v) for v in value]
    return value


def _items(out: Path) -> list[dict]:
    return _stable(orjson.loads((out / "m.experiment.json").read_bytes())["items"])


def _paid(server: FakeBatchServer) -> Counter[str]:
    """How often each request (its response-cache key, whatever run submitted it) went into a batch."""
    return Counter(cid.split("_")[1] for batch in server.batches.values() for cid, _ in batch["requests"])


def _run_ids(server: FakeBatchServer) -> list[set[str]]:
    return [{cid.split("_")[0] for cid, _ in batch["requests"]} for batch in server.batches.values()]


def _invoke(args: list[str]):
    result = CliRunner().invoke(cli, args)
    return result


def test_two_batched_shards_pay_each_request_once_and_consolidate_to_one_batch_run(server, qa_gt, tmp_path):
    config = _config(tmp_path, server)
    for k in (1, 2):
        done = _invoke(_args(config, qa_gt, tmp_path / "sharded", "--shard", f"{k}/2"))
        assert done.exit_code == 0, done.output
        assert not list((tmp_path / "sharded").glob("*.batches.jsonl"))  # its batches collected: journal gone
    assert server.request_count == 0 and len(server.batches) == 2  # one batch per shard, nothing synchronous
    assert set(_paid(server).values()) == {1}
    first, second = _run_ids(server)
    assert len(first) == len(second) == 1 and first != second  # each shard under its own journal's run id
    before = dict(server.batches)
    done = _invoke(_args(config, qa_gt, tmp_path / "sharded"))
    assert done.exit_code == 0, done.output
    assert server.batches == before and server.request_count == 0  # the consolidation paid nothing
    single = _invoke(_args(config, qa_gt, tmp_path / "single"))
    assert single.exit_code == 0, single.output
    assert _items(tmp_path / "sharded") == _items(tmp_path / "single")
    assert sorted(p.name for p in (tmp_path / "sharded").iterdir()) == sorted(
        p.name for p in (tmp_path / "single").iterdir())


def _wait_for(condition, proc: subprocess.Popen, what: str) -> None:
    """Wait for an event the test observes (never a fixed delay); the bound only stops a hung test."""
    deadline = time.monotonic() + 120
    while not condition():
        if proc.poll() is not None:
            raise AssertionError(f"the run ended before {what}: {proc.stderr.read().decode()}")
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.01)


def test_kill_9_a_batched_shard_then_it_reattaches_to_its_own_batch_and_nothing_is_paid_twice(
        server, qa_gt, tmp_path):
    config, out = _config(tmp_path, server), tmp_path / "exp"
    journal = out / "m.shard-1-of-2.batches.jsonl"
    server.hold_batches = True
    proc = subprocess.Popen(interruptible_cli(*_args(config, qa_gt, out, "--shard", "1/2")), cwd=ROOT,
                            env=dict(os.environ), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _wait_for(lambda: journal.exists() and b'"event":"created"' in journal.read_bytes(), proc,
              "shard 1's batch id was journaled")
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert not (out / "m.batches.jsonl").exists()  # the shard journals under its own name only
    shard_1 = set(_paid(server))

    # A run without --shard would ask again for shard 1's items, which its batch is paying for: refused.
    refused = _invoke(_args(config, qa_gt, out))
    assert refused.exit_code == 2 and "shard 1/2 has provider batches" in refused.output
    assert "--shard 1/2" in refused.output
    assert "Traceback" not in refused.output and set(_paid(server)) == shard_1 and server.request_count == 0

    server.release()
    # So would a shard of another split (its items overlap shard 1/2's; asked after the release, so that a shard
    # wrongly let through ends and is counted instead of waiting on a held batch).
    other_split = _invoke(_args(config, qa_gt, out, "--shard", "1/3"))
    assert other_split.exit_code == 2 and "shard 1/2 has provider batches" in other_split.output, other_split.output
    assert set(_paid(server)) == shard_1 and server.request_count == 0
    other = _invoke(_args(config, qa_gt, out, "--shard", "2/2"))  # the other shard: its own batch, its own journal
    assert other.exit_code == 0, other.output
    assert journal.exists() and set(_paid(server).values()) == {1}
    again = _invoke(_args(config, qa_gt, out, "--shard", "1/2"))  # shard 1 again: re-attaches, submits nothing
    assert again.exit_code == 0, again.output
    assert set(_paid(server).values()) == {1} and len(server.batches) == 2 and server.request_count == 0
    assert not journal.exists()
    done = _invoke(_args(config, qa_gt, out))
    assert done.exit_code == 0, done.output
    assert len(server.batches) == 2 and server.request_count == 0
    single = _invoke(_args(config, qa_gt, tmp_path / "single"))
    assert single.exit_code == 0 and _items(out) == _items(tmp_path / "single")


def test_a_shard_refuses_while_a_run_without_shard_has_batches_running_there(server, qa_gt, tmp_path):
    config, out = _config(tmp_path, server), tmp_path / "exp"
    server.hold_batches = True
    proc = subprocess.Popen(interruptible_cli(*_args(config, qa_gt, out)), cwd=ROOT, env=dict(os.environ),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    journal = out / "m.batches.jsonl"
    _wait_for(lambda: journal.exists() and b'"event":"created"' in journal.read_bytes(), proc,
              "the batch id was journaled")
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    paid = _paid(server)
    for k in (1, 2):  # each would ask again for items the killed run's batch is paying for
        refused = _invoke(_args(config, qa_gt, out, "--shard", f"{k}/2"))
        assert refused.exit_code == 2 and "without --shard" in refused.output, refused.output
    assert _paid(server) == paid and not list(out.glob("*.shard-*"))
    server.release()
    done = _invoke(_args(config, qa_gt, out))  # the run itself re-attaches
    assert done.exit_code == 0, done.output
    assert _paid(server) == paid and server.request_count == 0


def test_batched_judge_shards_pay_each_sample_once_and_the_consolidation_nothing(server, tmp_path):
    from tests.test_judge import judge_responder

    server.responder = judge_responder
    run_generate("meeting", tmp_path / "docs", types=["standup", "planning"], count_per_type=2, seed=5)
    run_groundtruth(input_dir=tmp_path / "docs", use_case="summarization", output_dir=tmp_path / "gt")
    config = tmp_path / "baseline.json"
    config.write_bytes(orjson.dumps({"experiments": [{"name": "lead", "provider": "baseline", "model": "lead"}]}))
    assert _invoke(["batch-experiment", "-c", str(config), "-i", str(tmp_path / "gt"), "-o", str(tmp_path / "exp"),
                    "--quiet"]).exit_code == 0

    def args(out: str, *extra: str) -> list[str]:
        return ["eval", "-d", str(tmp_path / "exp"), "-o", str(tmp_path / out), "--judge", "openai:gpt-4o-mini",
                "--judge-base-url", server.openai_base_url, "--no-cache", "--batch", *extra]

    for k in (1, 2):
        done = _invoke(args("sharded", "--shard", f"{k}/2"))
        assert done.exit_code == 0, done.output
    assert server.request_count == 0 and len(server.batches) == 2 and set(_paid(server).values()) == {1}
    assert len(set.union(*_run_ids(server))) == 2
    before = dict(server.batches)
    done = _invoke(args("sharded"))
    assert done.exit_code == 0, done.output
    assert server.batches == before  # the consolidation paid nothing
    single = _invoke(args("single"))
    assert single.exit_code == 0, single.output
    for path in (tmp_path / "single").glob("*.eval.json"):
        mine = _stable(orjson.loads((tmp_path / "sharded" / path.name).read_bytes()))
        assert mine == _stable(orjson.loads(path.read_bytes())), path.name
    assert not list((tmp_path / "sharded").glob("*.jsonl"))


def test_batched_ground_truth_shards_pay_each_document_once_and_the_consolidation_nothing(server, tmp_path):
    from tests.test_groundtruth_llm import SUMMARIES, TRANSCRIPT

    server.responder = lambda req: {"json": SUMMARIES}
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(6):  # six different documents the fake model's summary is true of
        (docs / f"sync_{i}.txt").write_text(f"{TRANSCRIPT}\nMinutes taken by note-taker {i}.\n")

    def args(out: str, *extra: str) -> list[str]:
        return ["groundtruth", "-d", str(docs), "-o", str(tmp_path / out), "--provider", "openai", "--model",
                "gpt-4o-mini", "--base-url", server.openai_base_url, "--quiet", "--no-cache", "--batch", *extra]

    for k in (1, 2):
        done = _invoke(args("sharded", "--shard", f"{k}/2"))
        assert done.exit_code == 0, done.output
    assert server.request_count == 0 and set(_paid(server).values()) == {1} and sum(_paid(server).values()) == 6
    assert len(set.union(*_run_ids(server))) == 2  # one run id (journal) per shard
    before = dict(server.batches)
    done = _invoke(args("sharded"))
    assert done.exit_code == 0, done.output
    assert server.batches == before and not list((tmp_path / "sharded").rglob("*.batches.jsonl"))
    assert (tmp_path / "sharded" / "consolidated_summarization_groundtruth.json").exists()
