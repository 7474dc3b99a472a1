"""The response cache: a second run into a new folder pays nothing and says so; retries and samples are not
answered from it; two processes sharing it corrupt nothing; it stays within its size bound."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from gaia_eval.artifacts.base import Usage
from gaia_eval.artifacts.evaluation import Evaluation
from gaia_eval.artifacts.experiment import Experiment
from gaia_eval.artifacts.response_cache import CachedReply, ResponseStore
from gaia_eval.artifacts.store import read_artifact
from gaia_eval.providers import ProviderSettings
from gaia_eval.providers.base import ChatRequest, ChatResponse, Message
from gaia_eval.providers.cache import CacheOptions, CachingProvider, request_key
from gaia_eval.providers.call_options import CallOptions
from gaia_eval.stages.eval.run import run_eval
from gaia_eval.stages.experiment.run import run_batch_experiment
from gaia_eval.stages.generate import run_generate
from gaia_eval.stages.groundtruth.run import run_groundtruth
from tests.test_judge import judge_responder, judge_settings


@pytest.fixture(autouse=True)
def keys(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-openai")


@pytest.fixture(scope="module")
def qa_gt(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("qa")
    run_generate("meeting", root / "docs", types=["standup", "planning"], seed=5)
    run_groundtruth(input_dir=root / "docs", use_case="qa", output_dir=root / "gt")
    return root / "gt"


def _config(path: Path, base_url: str) -> Path:
    path.write_bytes(orjson.dumps({"experiments": [
        {"name": "gpt", "provider": "openai", "model": "gpt-4o-mini", "base_url": base_url, "timeout_s": 5.0},
    ]}))
    return path


def test_a_second_run_into_another_folder_makes_no_model_call_and_records_the_hits(fake_llm, qa_gt, tmp_path):
    config = _config(tmp_path / "c.json", fake_llm.openai_base_url)
    run_batch_experiment(config, qa_gt, tmp_path / "first", show_progress=False)
    paid_calls = fake_llm.request_count
    first = read_artifact(tmp_path / "first" / "gpt.experiment.json", Experiment)
    assert paid_calls == len(first.items) > 0
    assert not any(item.cached for item in first.items) and first.totals.cost_usd > 0

    run_batch_experiment(config, qa_gt, tmp_path / "second", show_progress=False)
    assert fake_llm.request_count == paid_calls  # not one more call
    second = read_artifact(tmp_path / "second" / "gpt.experiment.json", Experiment)
    assert all(item.cached and item.cost_usd == 0 for item in second.items)
    assert second.totals.cost_usd == 0
    assert [i.answer for i in second.items] == [i.answer for i in first.items]
    assert second.totals.usage == first.totals.usage  # tokens stay visible; only the bill is zero


def test_no_cache_calls_the_model_again(fake_llm, qa_gt, tmp_path):
    config = _config(tmp_path / "c.json", fake_llm.openai_base_url)
    run_batch_experiment(config, qa_gt, tmp_path / "first", show_progress=False)
    paid_calls = fake_llm.request_count
    run_batch_experiment(config, qa_gt, tmp_path / "second", show_progress=False,
                         call_options=CallOptions(cache=CacheOptions(enabled=False)))
    assert fake_llm.request_count == 2 * paid_calls
    second = read_artifact(tmp_path / "second" / "gpt.experiment.json", Experiment)
    assert not any(item.cached for item in second.items)


def test_the_cli_flag_turns_the_cache_off_for_that_command_only(fake_llm, qa_gt, tmp_path):
    from click.testing import CliRunner

    from gaia_eval.cli import cli

    config = _config(tmp_path / "c.json", fake_llm.openai_base_url)
    args = ["batch-experiment", "-c", str(config), "-i", str(qa_gt), "--quiet"]
    assert CliRunner().invoke(cli, [*args, "-o", str(tmp_path / "a")]).exit_code == 0
    paid_calls = fake_llm.request_count
    assert CliRunner().invoke(cli, [*args, "-o", str(tmp_path / "b"), "--no-cache"]).exit_code == 0
    assert fake_llm.request_count == 2 * paid_calls
    assert CliRunner().invoke(cli, [*args, "-o", str(tmp_path / "c")]).exit_code == 0  # on again
    assert fake_llm.request_count == 2 * paid_calls


def test_judge_samples_are_cached_per_sample_and_a_rerun_pays_nothing(fake_llm, tmp_path):
    from tests.test_judge import _baseline_config

    run_generate("meeting", tmp_path / "docs", types=["standup"], seed=3)
    run_groundtruth(input_dir=tmp_path / "docs", use_case="summarization", output_dir=tmp_path / "gt")
    run_batch_experiment(
        _baseline_config(tmp_path / "b.json", "lead"), tmp_path / "gt", tmp_path / "exp", show_progress=False
    )
    fake_llm.responder = judge_responder
    settings = judge_settings(fake_llm, samples=3)
    run_eval(experiment_dir=tmp_path / "exp", output_dir=tmp_path / "ev1", judge=settings)
    paid_calls = fake_llm.request_count
    first = read_artifact(tmp_path / "ev1" / "lead.experiment.eval.json", Evaluation)
    assert paid_calls == 3 * len(first.items)  # three samples, three paid calls each item: none from the cache

    run_eval(experiment_dir=tmp_path / "exp", output_dir=tmp_path / "ev2", judge=settings)
    assert fake_llm.request_count == paid_calls
    second = read_artifact(tmp_path / "ev2" / "lead.experiment.eval.json", Evaluation)
    samples = [s for item in second.items for s in item.judge.samples]
    assert samples and all(s.cached for s in samples)
    assert second.judge.cost_usd == 0


class _Counting:
    name, model, is_local = "openai", "m", False

    def __init__(self) -> None:
        self.calls = 0

    async def complete(self, request: ChatRequest) -> ChatResponse:
        self.calls += 1
        return ChatResponse(text=f"reply {self.calls}", usage=Usage(input_tokens=3, output_tokens=2), latency_s=0.1,
                            finish_reason="stop", model="m")

    async def aclose(self) -> None:
        pass


def test_a_repeated_request_in_one_run_is_a_retry_and_goes_to_the_model(tmp_path):
    settings = ProviderSettings(provider="openai", model="m")
    request = ChatRequest(messages=(Message(role="user", content="hi"),))
    inner = _Counting()
    first_run = CachingProvider(inner, settings, ResponseStore(tmp_path))
    a = asyncio.run(first_run.complete(request))
    b = asyncio.run(first_run.complete(request))  # the caller found `a` unusable and asked again
    assert (inner.calls, a.text, b.text) == (2, "reply 1", "reply 2")
    later_run = CachingProvider(inner, settings, ResponseStore(tmp_path))
    c = asyncio.run(later_run.complete(request))
    assert c.cached and c.text == "reply 2" and inner.calls == 2  # the newer reply replaced the older


def test_the_key_covers_every_generation_parameter_and_the_sample_index():
    settings = ProviderSettings(provider="openai", model="m")
    base = ChatRequest(messages=(Message(role="user", content="hi"),))
    variants = [
        ChatRequest(messages=(Message(role="user", content="hi!"),)),
        ChatRequest(messages=base.messages, system="s"),
        ChatRequest(messages=base.messages, max_tokens=7),
        ChatRequest(messages=base.messages, temperature=0.7),
        ChatRequest(messages=base.messages, top_p=0.5),
        ChatRequest(messages=base.messages, seed=1),
        ChatRequest(messages=base.messages, stop=("x",)),
        ChatRequest(messages=base.messages, json_schema={"type": "object"}),
        ChatRequest(messages=base.messages, sample_index=1),
    ]
    keys = {request_key(settings, r) for r in [base, *variants]}
    keys.add(request_key(ProviderSettings(provider="openai", model="m2"), base))
    keys.add(request_key(ProviderSettings(provider="openai", model="m", base_url="http://127.0.0.1:1/v1"), base))
    assert len(keys) == len(variants) + 3
    # the per-attempt timeout is how long we wait, not what we ask: same key
    assert request_key(settings, ChatRequest(messages=base.messages, timeout_s=5)) == request_key(settings, base)


def _reply(text: str) -> CachedReply:
    return CachedReply(text=text, usage=Usage(input_tokens=3, output_tokens=2), finish_reason="stop", model="m")


def test_eviction_keeps_the_cache_under_its_bound_dropping_the_least_recently_used(tmp_path):
    store = ResponseStore(tmp_path, max_bytes=10**9)
    keys = [f"{i:064x}" for i in range(40)]
    for n, key in enumerate(keys):
        store.put(key, _reply("x" * 500))
        os.utime(store._path(key), (1_000_000 + n, 1_000_000 + n))  # a clear age order, oldest first
    store.max_bytes = 10_000
    store.get(keys[0])  # used again: now the most recent
    store.evict()
    assert store.size() <= 10_000
    assert store.get(keys[0]) is not None  # recently used survives
    assert store.get(keys[1]) is None  # the oldest unused went first


WRITER = """
import asyncio, sys
from pathlib import Path
from gaia_eval.artifacts.base import Usage
from gaia_eval.artifacts.response_cache import CachedReply, ResponseStore
store = ResponseStore(Path(sys.argv[1]))
tag = sys.argv[2]
for round_ in range(30):
    for i in range(40):
        store.put(f"{i:064x}", CachedReply(text=f"{tag} {round_} " + "y" * (1000 + i), usage=Usage(),
                                           finish_reason="stop", model=tag))
        value = store.get(f"{(i * 7) % 40:064x}")
        assert value is None or value.text.endswith("y" * (1000 + (i * 7) % 40)), value
print("ok")
"""


def test_two_processes_writing_the_same_keys_at_once_leave_only_whole_entries(tmp_path):
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(tmp_path), tag], stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        for tag in ("a", "b")
    ]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    store = ResponseStore(tmp_path)
    entries = store.entries()
    assert len(entries) == 40
    for _, _, path in entries:
        key = path.parent.name + path.name.removesuffix(".json")
        assert store.get(key).model in {"a", "b"}  # whole and checked, never a mix or a torn file
    assert not list(tmp_path.rglob("*.tmp"))


def test_the_request_count_says_what_reached_a_model_and_what_the_cache_answered(fake_llm, qa_gt, tmp_path):
    """Issue 11: "N requests sent to models" counts only requests that reached a model: a reply from the
    response cache is counted apart, never as a call (it was "N requests" on a run that sent none)."""
    from click.testing import CliRunner

    from gaia_eval.cli import cli

    config = _config(tmp_path / "c.json", fake_llm.openai_base_url)
    args = ["batch-experiment", "-c", str(config), "-i", str(qa_gt), "--quiet", "-o"]
    first = CliRunner().invoke(cli, [*args, str(tmp_path / "first")])
    sent = fake_llm.request_count
    assert first.exit_code == 0 and f"{sent} requests sent to models" in first.output
    assert "response cache" not in first.output
    second = CliRunner().invoke(cli, [*args, str(tmp_path / "second")])
    assert second.exit_code == 0 and fake_llm.request_count == sent
    assert f"0 requests sent to models (baselines not counted), {sent} replies from the response cache" in second.output
