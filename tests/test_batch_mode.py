"""--batch: model calls through the providers' batch APIs (the official SDKs against tests/fakebatch.py), and
never paid twice: a run killed after submitting (or between the create call and the journal line) re-attaches
to its batches when started again; results equal a synchronous run's but for timing and cost."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import time
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from gaia_eval.artifacts.batch_journal import read_batch_journal
from gaia_eval.cli import cli
from gaia_eval.stages.generate import run_generate
from gaia_eval.stages.groundtruth.run import run_groundtruth
from tests.fakebatch import FakeBatchServer
from tests.fakeserver import FakeLLMServer
from tests.processes import interruptible_cli

ROOT = Path(__file__).resolve().parent.parent
MODELS = {"openai": "gpt-4o-mini", "anthropic": "claude-haiku-4-5"}
TIMING_AND_COST = {"latency_s", "time_to_success_s", "cost_usd", "batch_id"}


@pytest.fixture()
def server(batch_server: FakeBatchServer) -> FakeBatchServer:
    return batch_server


@pytest.fixture(scope="module")
def qa_gt(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("batch-gt")
    run_generate("meeting", tmp / "docs", types=["standup", "planning"], count_per_type=1, seed=8)
    run_groundtruth(input_dir=tmp / "docs", use_case="qa", output_dir=tmp / "gt")
    return tmp / "gt" / "consolidated_qa_groundtruth.json"


def _config(tmp: Path, server: FakeLLMServer, provider: str, name: str = "m") -> Path:
    url = server.openai_base_url if provider == "openai" else server.anthropic_base_url
    path = tmp / f"{provider}.json"
    path.write_bytes(orjson.dumps({"experiments": [
        {"name": name, "provider": provider, "model": MODELS[provider], "base_url": url}]}))
    return path


def _args(config: Path, gt: Path, out: Path, *extra: str) -> list[str]:
    return ["batch-experiment", "-c", str(config), "-i", str(gt), "-o", str(out), "--quiet", *extra]


def _items(out: Path, name: str = "m") -> list[dict]:
    """The experiment's items without timing, cost and the batch id: what must equal a synchronous run's."""
    exp = orjson.loads((out / f"{name}.experiment.json").read_bytes())
    return [{k: v for k, v in item.items() if k not in TIMING_AND_COST} for item in exp["items"]]


def _batch_ids(out: Path, name: str = "m") -> set[str | None]:
    return {item["batch_id"] for item in orjson.loads((out / f"{name}.experiment.json").read_bytes())["items"]}


def _spawn(args: list[str]) -> subprocess.Popen:
    # interruptible: the Ctrl-C test's SIGINT reaches the run even if this process inherited SIGINT ignored
    return subprocess.Popen(interruptible_cli(*args), cwd=ROOT, env=dict(os.environ),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _wait_for(condition, proc: subprocess.Popen, what: str) -> None:
    """Wait for an event the test observes (never a fixed delay); the bound only stops a hung test."""
    deadline = time.monotonic() + 120
    while not condition():
        if proc.poll() is not None:
            raise AssertionError(f"the run ended before {what}: {proc.stderr.read().decode()}")
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.01)


def _kill9(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL  # it died of SIGKILL, not of its own accord


def _submitted_and_held(server: FakeBatchServer, config: Path, gt: Path, out: Path) -> subprocess.Popen:
    """A --batch run in a child process whose batch is held in progress, once its id is journaled."""
    server.hold_batches = True
    proc = _spawn(_args(config, gt, out, "--no-cache", "--batch"))
    _wait_for(lambda: _journal_has(out, "created"), proc, "the batch id was journaled")
    return proc


def _journal_has(out: Path, event: str, count: int = 1) -> bool:
    path = out / "m.batches.jsonl"
    return path.exists() and path.read_bytes().count(f'"event":"{event}"'.encode()) >= count


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_batch_results_equal_a_synchronous_run_and_cost_the_batch_price(server, qa_gt, tmp_path, provider):
    config = _config(tmp_path, server, provider)
    runner = CliRunner()
    sync = runner.invoke(cli, _args(config, qa_gt, tmp_path / "sync", "--no-cache"))
    assert sync.exit_code == 0, sync.output
    sync_calls = server.request_count
    batched = runner.invoke(cli, _args(config, qa_gt, tmp_path / "batch", "--no-cache", "--batch"))
    assert batched.exit_code == 0, batched.output
    assert server.request_count == sync_calls  # nothing went to the synchronous endpoint
    assert len(server.batches) == 1 and max(server.submissions.values()) == 1
    assert _items(tmp_path / "batch") == _items(tmp_path / "sync")
    assert _batch_ids(tmp_path / "batch") == set(server.batches) and _batch_ids(tmp_path / "sync") == {None}
    n = len(_items(tmp_path / "sync"))
    assert f"m: {n} of {n} items through a provider batch" in batched.output
    sync_exp = orjson.loads((tmp_path / "sync" / "m.experiment.json").read_bytes())
    batch_exp = orjson.loads((tmp_path / "batch" / "m.experiment.json").read_bytes())
    assert batch_exp["totals"]["cost_usd"] == pytest.approx(sync_exp["totals"]["cost_usd"] / 2)
    assert "batch" in batch_exp["batch_pricing"] and batch_exp["totals"]["batched_items"] == n
    assert not (tmp_path / "batch" / "m.batches.jsonl").exists()  # the finished experiment supersedes it
    assert runner.invoke(cli, ["eval", "-d", str(tmp_path / "batch"), "-o", str(tmp_path / "ev")]).exit_code == 0
    assert runner.invoke(cli, ["report", "-d", str(tmp_path / "ev"), "-o", str(tmp_path / "r.md")]).exit_code == 0
    assert f"m: {n} of {n} items ran through a provider batch" in (tmp_path / "r.md").read_text()


def _qa_items(gt: Path) -> int:
    return sum(len(item["qa_pairs"]) for item in orjson.loads(gt.read_bytes())["items"])


def test_kill_9_after_submission_then_restart_reattaches_and_submits_nothing_twice(server, qa_gt, tmp_path):
    config, out = _config(tmp_path, server, "openai"), tmp_path / "exp"
    n, size = _qa_items(qa_gt), 10
    server.hold_batches = True
    proc = _spawn(_args(config, qa_gt, out, "--no-cache", "--batch", "--batch-size", str(size)))
    # Batches run side by side: every request is submitted while the first batches are still held.
    _wait_for(lambda: sum(server.submissions.values()) == n and _journal_has(out, "created", -(-n // size)), proc,
              "every batch id was journaled")
    _kill9(proc)
    submitted = dict(server.submissions)
    assert len(submitted) == n and len(server.batches) == -(-n // size)

    status = CliRunner().invoke(cli, _args(config, qa_gt, out, "--batch-status"))  # held: must not block
    assert status.exit_code == 0, status.output
    for batch_id, batch in server.batches.items():
        assert f"{batch_id}: in_progress, 0 done, 0 failed, {len(batch['requests'])} pending" in status.output
    assert dict(server.submissions) == submitted

    server.release()
    again = CliRunner().invoke(cli, _args(config, qa_gt, out, "--no-cache", "--batch"))
    assert again.exit_code == 0, again.output
    assert len(server.batches) == -(-n // size) and set(server.submissions.values()) == {1}  # none twice
    assert server.request_count == 0 and _batch_ids(out) == set(server.batches)
    assert f"m: {n} of {n} items through a provider batch (0 requests submitted in this run, {n} re-attached)" \
        in again.output
    sync = CliRunner().invoke(cli, _args(config, qa_gt, tmp_path / "sync", "--no-cache"))
    assert sync.exit_code == 0 and _items(out) == _items(tmp_path / "sync")


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_kill_between_create_and_journal_write_finds_the_batch_by_its_tag(server, qa_gt, tmp_path, provider):
    config = _config(tmp_path, server, provider)
    out = tmp_path / "exp"
    server.hold_create = True  # the batch exists at the provider, but its id never reaches the client
    proc = _spawn(_args(config, qa_gt, out, "--no-cache", "--batch"))
    _wait_for(server.batch_created.is_set, proc, "the batch was created")
    _kill9(proc)
    server.answer_creates()
    assert _journal_has(out, "intent") and not _journal_has(out, "created")

    again = CliRunner().invoke(cli, _args(config, qa_gt, out, "--no-cache", "--batch"))
    assert again.exit_code == 0, again.output
    assert "found at the provider" in again.output
    assert len(server.batches) == 1 and set(server.submissions.values()) == {1}
    assert _batch_ids(out) == set(server.batches)


def _unlucky(custom_id: str, body: dict) -> str | None:
    key = custom_id.split("_")[1]
    return "prompt is too long (fake)" if int(hashlib.sha256(key.encode()).hexdigest(), 16) % 3 == 0 else None


@pytest.mark.parametrize("provider,fault", [("openai", "errored"), ("anthropic", "errored"),
                                            ("openai", "expired"), ("anthropic", "expired")])
def test_failed_requests_are_error_items_with_the_reason_and_retry_errors_fixes_them(
    server, qa_gt, tmp_path, provider, fault
):
    config = _config(tmp_path, server, provider)
    out = tmp_path / "exp"
    if fault == "errored":
        server.fail_request = _unlucky
    else:
        server.expire_after = 3
    first = CliRunner().invoke(cli, _args(config, qa_gt, out, "--no-cache", "--batch"))
    assert first.exit_code == 1 and "--retry-errors" in first.output
    exp = orjson.loads((out / "m.experiment.json").read_bytes())
    errors = [i for i in exp["items"] if i["status"] == "error"]
    assert errors and all(i["answer"] is None for i in errors)
    word = "prompt is too long (fake)" if fault == "errored" else "expired"
    assert all(word in i["error"] and "batch" in i["error"] for i in errors)

    server.fail_request, server.expire_after = None, None
    retried = CliRunner().invoke(cli, _args(config, qa_gt, out, "--no-cache", "--batch", "--retry-errors"))
    assert retried.exit_code == 0, retried.output
    assert len(server.batches) == 2 and sum(server.submissions.values()) == len(exp["items"]) + len(errors)
    keys = [cid.rsplit("_", 1)[0] for cid in server.submissions]
    assert len(keys) - len(set(keys)) == len(errors)  # only the failed requests were asked again


def test_retry_errors_without_batch_retries_synchronously(server, qa_gt, tmp_path):
    config = _config(tmp_path, server, "openai")
    out = tmp_path / "exp"
    server.fail_request = _unlucky
    assert CliRunner().invoke(cli, _args(config, qa_gt, out, "--no-cache", "--batch")).exit_code == 1
    errors = sum(i["status"] == "error" for i in orjson.loads((out / "m.experiment.json").read_bytes())["items"])
    retried = CliRunner().invoke(cli, _args(config, qa_gt, out, "--no-cache", "--retry-errors"))
    assert retried.exit_code == 0, retried.output
    assert server.request_count == errors and len(server.batches) == 1
    ids = _batch_ids(out)
    assert None in ids and len(ids) == 2  # the retried items ran synchronously, the rest through the batch


def test_cache_hits_never_go_into_a_batch_and_batch_results_fill_the_cache(server, qa_gt, tmp_path):
    config = _config(tmp_path, server, "anthropic")
    runner = CliRunner()
    assert runner.invoke(cli, _args(config, qa_gt, tmp_path / "a", "--batch")).exit_code == 0
    assert len(server.batches) == 1
    sync = runner.invoke(cli, _args(config, qa_gt, tmp_path / "b"))
    assert sync.exit_code == 0 and server.request_count == 0  # every batch result answered from the cache
    again = runner.invoke(cli, _args(config, qa_gt, tmp_path / "c", "--batch"))
    assert again.exit_code == 0 and len(server.batches) == 1  # cache hits: no new batch
    assert _batch_ids(tmp_path / "c") == {None}  # answered from the cache, not through a batch
    assert [i["answer"] for i in _items(tmp_path / "c")] == [i["answer"] for i in _items(tmp_path / "a")]


def test_a_server_without_a_batch_api_is_one_line_naming_the_fix(qa_gt, tmp_path, monkeypatch):
    monkeypatch.setenv("GAIA_EVAL_BATCH_GATHER_S", "0.05")
    plain = FakeLLMServer().start()
    try:
        config = tmp_path / "c.json"
        config.write_bytes(orjson.dumps({"experiments": [
            {"name": "local-vllm", "provider": "vllm", "model": "qwen", "base_url": plain.openai_base_url},
            {"name": "lead", "provider": "baseline", "model": "lead"}]}))
        result = CliRunner().invoke(cli, _args(config, qa_gt, tmp_path / "exp", "--batch"))
    finally:
        plain.stop()
    assert result.exit_code == 2
    line = [x for x in result.output.splitlines() if x.startswith("error:")]
    assert len(line) == 1 and "local-vllm" in line[0] and "drop --batch" in line[0]
    assert "Traceback" not in result.output


def test_ctrl_c_leaves_the_batches_running_and_says_how_to_reattach(server, qa_gt, tmp_path):
    config, out = _config(tmp_path, server, "openai"), tmp_path / "exp"
    proc = _submitted_and_held(server, config, qa_gt, out)
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=300)  # a bound on a hang, not a timing assertion
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the run did not stop after Ctrl-C")
    assert proc.returncode == 130
    assert b"the submitted batches keep running at the provider" in err and b"same command" in err
    assert [s.batch_id for s in read_batch_journal(out / "m.batches.jsonl")] == list(server.batches)


def test_a_new_process_re_reads_an_ended_batch_and_a_repeated_request_is_submitted_anew(server, tmp_path):
    """The provider level: a second BatchingProvider on the same journal (a restarted process) answers from the
    ended batch's results without submitting; the same request asked twice in one process (a retry of an unusable
    reply) is submitted again, since re-attaching would only return the same reply."""
    from gaia_eval.concurrency import run_async
    from gaia_eval.providers import ProviderSettings, create_provider
    from gaia_eval.providers.base import ChatRequest, Message
    from gaia_eval.providers.batch.options import BatchOptions
    from gaia_eval.providers.batch.runner import BatchingProvider

    settings = ProviderSettings(provider="anthropic", model=MODELS["anthropic"], base_url=server.anthropic_base_url)
    journal = tmp_path / "x.batches.jsonl"
    requests = [ChatRequest(messages=(Message(role="user", content=f"question {i}"),)) for i in range(3)]

    async def ask(asked: list[ChatRequest]) -> list[str]:
        import asyncio

        provider = BatchingProvider(create_provider(settings), settings, journal, BatchOptions(enabled=True), "t")
        try:
            return [r.text for r in await asyncio.gather(*(provider.complete(q) for q in asked))]
        finally:
            await provider.aclose()

    first = run_async(ask(requests))
    assert len(server.batches) == 1 and [s.ended for s in read_batch_journal(journal)] == [True]
    assert run_async(ask(requests)) == first and len(server.batches) == 1  # re-read, not resubmitted
    assert run_async(ask([requests[0], requests[0]])) == [first[0], first[0]]
    assert len(server.batches) == 2 and sum(server.submissions.values()) == 4  # the repeat went into a new batch
