"""The response cache never serves a wrong answer (issue 19): keys follow the request as sent, base URL from the
environment included; an entry that is not this request's whole reply (edited, copied from another request,
malformed, a symlink, a FIFO) is a miss with a warning, never an answer, a crash or a hang; --retry-errors and
--force ask the model again; a degenerate reply is never stored; and callers sharing a cache wait for the reply
one of them is already fetching instead of paying for it twice."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import subprocess
import sys
import threading
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from gaia_eval.artifacts.base import Usage
from gaia_eval.artifacts.experiment import Experiment
from gaia_eval.artifacts.response_cache import CachedReply, ResponseStore, encode_entry
from gaia_eval.artifacts.store import read_artifact
from gaia_eval.cli import cli
from gaia_eval.providers import ProviderSettings
from gaia_eval.providers.base import ChatRequest, ChatResponse, Message, TaskContext, ToolSpec
from gaia_eval.providers.cache import CacheOptions, CachingProvider, request_key
from gaia_eval.stages.experiment.run import run_batch_experiment
from gaia_eval.stages.generate import run_generate
from gaia_eval.stages.groundtruth.run import run_groundtruth
from tests.fakeserver import FakeLLMServer, last_user_text

LOOP = "and so on " * 200  # a reply that repeats itself: degenerate


@pytest.fixture(autouse=True)
def keys(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-openai")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


@pytest.fixture(scope="module")
def qa_gt(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("qa")
    run_generate("meeting", root / "docs", types=["standup"], seed=5)
    run_groundtruth(input_dir=root / "docs", use_case="qa", output_dir=root / "gt")
    return root / "gt"


def _config(path: Path, base_url: str | None = None, timeout_s: float = 10.0) -> Path:
    spec = {"name": "gpt", "provider": "openai", "model": "gpt-4o-mini", "timeout_s": timeout_s, "max_retries": 0}
    path.write_bytes(orjson.dumps({"experiments": [{**spec, **({"base_url": base_url} if base_url else {})}]}))
    return path


def _signed(server: FakeLLMServer, tag: str) -> None:
    server.responder = lambda req: {"text": f"{tag}: {last_user_text(req['body'])[-30:]}"}


def _entry_files() -> list[Path]:
    return sorted(CacheOptions().directory.rglob("*.json"))


# -- keys ------------------------------------------------------------------------------------------------------

def test_a_base_url_from_the_environment_is_part_of_the_key_and_recorded(fake_llm, qa_gt, tmp_path, monkeypatch):
    """Server A then server B through OPENAI_BASE_URL, into new folders: B answers the second run (it got 0
    requests and A's answers came back, `cached: true`, before), and each file names its server."""
    other = FakeLLMServer().start()
    try:
        _signed(fake_llm, "A")
        _signed(other, "B")
        config = _config(tmp_path / "c.json")  # no base_url in the config
        monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_base_url)
        run_batch_experiment(config, qa_gt, tmp_path / "a", show_progress=False)
        monkeypatch.setenv("OPENAI_BASE_URL", other.openai_base_url)
        run_batch_experiment(config, qa_gt, tmp_path / "b", show_progress=False)
        a = read_artifact(tmp_path / "a" / "gpt.experiment.json", Experiment)
        b = read_artifact(tmp_path / "b" / "gpt.experiment.json", Experiment)
        assert other.request_count == len(b.items) == fake_llm.request_count
        assert all(i.answer.startswith("B:") and not i.cached for i in b.items)
        assert (a.base_url, b.base_url) == (fake_llm.openai_base_url, other.openai_base_url)
        # and the same folder, pointed at another server, is not "up to date" with the first server's answers
        monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_base_url)
        run_batch_experiment(config, qa_gt, tmp_path / "b", show_progress=False)
        again = read_artifact(tmp_path / "b" / "gpt.experiment.json", Experiment)
        assert again.base_url == fake_llm.openai_base_url and all(i.answer.startswith("A:") for i in again.items)
    finally:
        other.stop()


def test_the_artifact_records_the_sdk_default_url_when_nothing_names_one():
    from gaia_eval.providers import effective_base_url

    assert effective_base_url(ProviderSettings(provider="openai", model="m")) == "https://api.openai.com/v1"
    assert effective_base_url(ProviderSettings(provider="anthropic", model="m")) == "https://api.anthropic.com"
    assert effective_base_url(ProviderSettings(provider="ollama", model="m")) == "http://localhost:11434/v1"
    assert effective_base_url(ProviderSettings(provider="baseline", model="lead")) is None


def test_every_field_of_a_request_that_is_sent_changes_the_key():
    """A field added to ChatRequest is keyed unless it is declared not sent: each sent field, changed alone,
    gives a new key."""
    settings = ProviderSettings(provider="openai", model="m", base_url="http://127.0.0.1:9/v1")
    base = ChatRequest(messages=(Message(role="user", content="hi"),))
    changed = {
        "messages": (Message(role="user", content="hi!"),), "system": "s", "max_tokens": 7, "temperature": 0.5,
        "stop": ("x",), "top_p": 0.5, "seed": 3, "json_schema": {"type": "object"}, "schema_name": "other",
        "tools": (ToolSpec(name="t", description="d", parameters={}),), "sample_index": 1,
        "timeout_s": 5.0, "task": TaskContext(kind="generic"), "refresh": True, "top_logprobs": 5,
    }
    assert set(changed) == {f.name for f in dataclasses.fields(ChatRequest)}  # a new field needs a line here
    same = {"timeout_s", "task", "refresh"}
    for name, value in changed.items():
        key = request_key(settings, dataclasses.replace(base, **{name: value}))
        assert (key == request_key(settings, base)) == (name in same), name


# -- entries that are not this request's reply -------------------------------------------------------------------

class _Model:
    """A provider that counts its calls and answers with its count."""

    name, model, is_local = "openai", "m", False

    def __init__(self, text: str = "fresh") -> None:
        self.calls = 0
        self.text = text
        self.release: asyncio.Event | None = None

    async def complete(self, request: ChatRequest) -> ChatResponse:
        self.calls += 1
        if self.release is not None:
            await self.release.wait()
        return ChatResponse(text=f"{self.text} {self.calls}", usage=Usage(input_tokens=3, output_tokens=2),
                            latency_s=0.1, finish_reason="stop", model="m")

    async def aclose(self) -> None:
        pass


SETTINGS = ProviderSettings(provider="openai", model="m", base_url="http://127.0.0.1:9/v1")
REQUEST = ChatRequest(messages=(Message(role="user", content="what is 2 + 2?"),))


def _ask(tmp_path: Path, model: _Model, request: ChatRequest = REQUEST) -> ChatResponse:
    provider = CachingProvider(model, SETTINGS, ResponseStore(tmp_path))

    async def go() -> ChatResponse:
        try:
            return await provider.complete(request)
        finally:
            await provider.aclose()

    return asyncio.run(go())


def _entry(tmp_path: Path, request: ChatRequest = REQUEST) -> Path:
    return ResponseStore(tmp_path)._path(request_key(SETTINGS, request))


def _edit_text(path: Path) -> None:
    path.write_bytes(path.read_bytes().replace(b"fresh 1", b"wrong 1"))


def _copy_other_request(path: Path) -> None:
    other = ChatRequest(messages=(Message(role="user", content="what is 3 + 3?"),))
    key = request_key(SETTINGS, other)
    path.write_bytes(encode_entry(key, CachedReply(text="6", usage=Usage(), finish_reason="stop", model="m")))


def _recomputed_with_wrong_types(text_value):
    def damage(path: Path) -> None:
        key = path.parent.name + path.name.removesuffix(".json")
        body = orjson.dumps({"text": text_value, "usage": {"input_tokens": 1, "output_tokens": 1},
                             "finish_reason": "stop", "model": "m"})
        import hashlib

        path.write_bytes(orjson.dumps({"key": key, "sha256": hashlib.sha256(body).hexdigest()}) + b"\n" + body)
    return damage


def _symlink_outside(path: Path) -> None:
    outside = path.parents[2] / "outside.json"
    outside.write_bytes(path.read_bytes().replace(b"fresh 1", b"outside"))
    path.unlink()
    path.symlink_to(outside)


def _old_format(path: Path) -> None:  # the v1 layout: a bare reply object, no key, no checksum
    path.write_bytes(orjson.dumps({"text": "wrong", "usage": {"input_tokens": 1, "output_tokens": 1},
                                   "finish_reason": "stop", "model": "m"}))


@pytest.mark.parametrize("damage", [
    _edit_text, _copy_other_request, _recomputed_with_wrong_types(123), _recomputed_with_wrong_types(None),
    _symlink_outside, _old_format, lambda p: p.write_bytes(b"{not json"), lambda p: p.write_bytes(b""),
], ids=["edited", "other-request", "text-123", "text-null", "symlink", "no-key", "not-json", "empty"])
def test_an_entry_that_is_not_this_requests_reply_is_a_miss_with_a_warning_and_removed(tmp_path, capsys, damage):
    model = _Model()
    assert _ask(tmp_path, model).text == "fresh 1"
    path = _entry(tmp_path)
    assert _ask(tmp_path, model).cached  # the whole entry is served
    damage(path)
    capsys.readouterr()
    reply = _ask(tmp_path, model)
    assert (reply.text, reply.cached, model.calls) == ("fresh 2", False, 2)  # the model answered, not the entry
    warning = capsys.readouterr().err
    assert "warning: response cache entry" in warning and str(path) in warning and "Traceback" not in warning
    assert not path.is_symlink()
    assert _ask(tmp_path, model).text == "fresh 2"  # replaced by the new reply, which is served next time
    if damage is _symlink_outside:
        assert (tmp_path / "outside.json").exists()  # the link went, never what it pointed at


def test_a_fifo_in_place_of_an_entry_is_a_miss_not_a_hang(tmp_path, capsys):
    path = _entry(tmp_path)
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    model = _Model()
    result: list[ChatResponse] = []
    worker = threading.Thread(target=lambda: result.append(_ask(tmp_path, model)), daemon=True)
    worker.start()
    worker.join(timeout=60)
    assert not worker.is_alive(), "reading a FIFO entry hung"
    assert result[0].text == "fresh 1" and "not a regular file" in capsys.readouterr().err
    assert path.is_file()  # the FIFO was replaced by the reply


# -- what is never stored, and what asks the model again ---------------------------------------------------------

def test_a_degenerate_reply_is_never_stored_and_retry_errors_asks_the_model(fake_llm, qa_gt, tmp_path):
    """The issue: --retry-errors was answered from the cache with the same looping reply, and printed "N
    requests sent to models" while the server got none."""
    config = _config(tmp_path / "c.json", fake_llm.openai_base_url)
    fake_llm.script([{"text": LOOP}])  # the first request gets a looping reply
    args = ["batch-experiment", "-c", str(config), "-i", str(qa_gt), "-o", str(tmp_path / "exp"), "--quiet"]
    first = CliRunner().invoke(cli, args)
    assert first.exit_code == 1 and "degenerate" in first.output, first.output
    paid = fake_llm.request_count
    assert len(_entry_files()) == paid - 1  # every answer stored, the looping reply not
    retry = CliRunner().invoke(cli, [*args, "--retry-errors"])
    assert retry.exit_code == 0, retry.output
    assert fake_llm.request_count == paid + 1
    assert "1 requests sent to models" in retry.output


def test_retry_errors_asks_past_a_stored_reply_that_errored_later(fake_llm, qa_gt, tmp_path):
    """A stored reply that the run still took as an error (here: a reply written into the cache by an older
    version, that counts as degenerate now) is not what --retry-errors gets back."""
    config = _config(tmp_path / "c.json", fake_llm.openai_base_url)
    args = ["batch-experiment", "-c", str(config), "-i", str(qa_gt), "--quiet"]
    assert CliRunner().invoke(cli, [*args, "-o", str(tmp_path / "a")]).exit_code == 0
    paid = fake_llm.request_count
    store = ResponseStore(CacheOptions().directory)
    first = _entry_files()[0]
    key = first.parent.name + first.name.removesuffix(".json")
    store.put(key, CachedReply(text=LOOP, usage=Usage(input_tokens=5, output_tokens=5), finish_reason="stop",
                               model="gpt-4o-mini"))
    broken = CliRunner().invoke(cli, [*args, "-o", str(tmp_path / "b")])
    assert broken.exit_code == 1 and fake_llm.request_count == paid  # all from the cache, one degenerate
    assert "0 requests sent to models" in broken.output  # a cached reply is not a request, usable or not
    retry = CliRunner().invoke(cli, [*args, "-o", str(tmp_path / "b"), "--retry-errors"])
    assert retry.exit_code == 0 and fake_llm.request_count == paid + 1
    assert "1 requests sent to models" in retry.output


def test_force_asks_the_model_for_every_item_again(fake_llm, qa_gt, tmp_path):
    config = _config(tmp_path / "c.json", fake_llm.openai_base_url)
    args = ["batch-experiment", "-c", str(config), "-i", str(qa_gt), "-o", str(tmp_path / "exp"), "--quiet"]
    assert CliRunner().invoke(cli, args).exit_code == 0
    paid = fake_llm.request_count
    forced = CliRunner().invoke(cli, [*args, "--force"])
    assert forced.exit_code == 0 and fake_llm.request_count == 2 * paid
    assert f"{paid} requests sent to models" in forced.output and "response cache" not in forced.output


def test_eval_force_asks_the_judge_again(fake_llm, tmp_path):
    from gaia_eval.stages.eval.run import run_eval
    from tests.test_judge import _baseline_config, judge_responder, judge_settings

    run_generate("meeting", tmp_path / "docs", types=["standup"], seed=3)
    run_groundtruth(input_dir=tmp_path / "docs", use_case="summarization", output_dir=tmp_path / "gt")
    run_batch_experiment(_baseline_config(tmp_path / "b.json", "lead"), tmp_path / "gt", tmp_path / "exp",
                         show_progress=False)
    fake_llm.responder = judge_responder
    settings = judge_settings(fake_llm)
    run_eval(experiment_dir=tmp_path / "exp", output_dir=tmp_path / "ev", judge=settings)
    paid = fake_llm.request_count
    run_eval(experiment_dir=tmp_path / "exp", output_dir=tmp_path / "ev", judge=settings, force=True)
    assert fake_llm.request_count == 2 * paid > 0


# -- callers sharing a cache ----------------------------------------------------------------------------------

def test_a_caller_waits_for_the_reply_another_is_fetching_instead_of_paying_twice(tmp_path):
    """Two providers on one cache folder (as two processes are): the second asks while the first's call is in
    flight, waits for it, and is answered from what the first stored."""
    first, second = _Model("first"), _Model("second")
    first.release = asyncio.Event()

    async def go() -> tuple[ChatResponse, ChatResponse]:
        a = CachingProvider(first, SETTINGS, ResponseStore(tmp_path))
        b = CachingProvider(second, SETTINGS, ResponseStore(tmp_path))
        task_a = asyncio.create_task(a.complete(REQUEST))
        while first.calls == 0:  # the first call is in flight
            await asyncio.sleep(0.001)
        task_b = asyncio.create_task(b.complete(REQUEST))
        for _ in range(20):
            await asyncio.sleep(0.005)
        assert second.calls == 0 and not task_b.done()  # waiting, not paying
        first.release.set()
        replies = await task_a, await task_b
        await a.aclose()
        await b.aclose()
        return replies

    a_reply, b_reply = asyncio.run(go())
    assert (first.calls, second.calls) == (1, 0)
    assert b_reply.cached and b_reply.text == a_reply.text == "first 1"


HOLDER = """
import asyncio, sys
from pathlib import Path
from gaia_eval.artifacts.base import Usage
from gaia_eval.artifacts.response_cache import CachedReply, ResponseStore
store = ResponseStore(Path(sys.argv[1]))
lock = asyncio.run(store.lock(sys.argv[2]))
print("held", flush=True)
sys.stdin.readline()
store.put(sys.argv[2], CachedReply(text="from the other process", usage=Usage(), finish_reason="stop", model="m"))
lock.release()
"""


def test_a_process_waits_for_the_reply_another_process_is_fetching(tmp_path):
    key = request_key(SETTINGS, REQUEST)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(tmp_path), key], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        model = _Model()

        async def go() -> ChatResponse:
            provider = CachingProvider(model, SETTINGS, ResponseStore(tmp_path))
            task = asyncio.create_task(provider.complete(REQUEST))
            for _ in range(20):
                await asyncio.sleep(0.005)
            assert not task.done() and model.calls == 0
            holder.stdin.write("go\n")
            holder.stdin.flush()
            return await task

        reply = asyncio.run(go())
    finally:
        holder.communicate("", timeout=60)
    assert reply.cached and reply.text == "from the other process" and model.calls == 0


def test_a_failed_call_releases_the_key_for_the_next_caller(tmp_path):
    class Failing(_Model):
        async def complete(self, request: ChatRequest) -> ChatResponse:
            self.calls += 1
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        _ask(tmp_path, Failing())
    model = _Model()
    assert _ask(tmp_path, model).text == "fresh 1"  # not stuck behind a lock nobody will release


def test_the_reply_is_returned_before_its_entry_is_written(tmp_path):
    """Writing the cache is off the calling path: with the writer thread busy, a miss still returns its reply at
    once, and the entry appears when the writer gets to it (and before the run ends: aclose waits for it)."""
    from gaia_eval.artifacts import response_cache

    busy = threading.Event()
    response_cache._WRITER.submit(lambda key, data: busy.wait(60), "", b"", None)
    model = _Model()
    provider = CachingProvider(model, SETTINGS, ResponseStore(tmp_path))
    try:
        reply = asyncio.run(provider.complete(REQUEST))
        assert reply.text == "fresh 1" and not _entry(tmp_path).exists()  # answered, not yet written
    finally:
        busy.set()
    asyncio.run(provider.aclose())
    assert ResponseStore(tmp_path).get(request_key(SETTINGS, REQUEST)).text == "fresh 1"


def test_two_processes_on_one_cache_pay_once_for_what_is_in_flight(fake_llm, qa_gt, tmp_path):
    """The issue: two or three processes sharing a cache paid 1.8-2.6 times for the requests in flight. Here the
    first run's requests are all held at the server while the second run starts on the same cache: the second
    waits for them and sends nothing.

    Ordered by events, never by the clock: the first run's requests are released only once the second run is
    calling, and nothing may time out meanwhile (a 10 s request timeout failed the first run when starting the
    second process took longer on a loaded machine). The deadlines only bound a hang."""
    import time

    release = threading.Event()
    fake_llm.responder = lambda req: (release.wait(600), {"text": "held " + last_user_text(req["body"])[-20:]})[1]
    config = _config(tmp_path / "c.json", fake_llm.openai_base_url, timeout_s=900.0)
    items = sum(
        len(d["qa_pairs"]) for d in orjson.loads((qa_gt / "consolidated_qa_groundtruth.json").read_bytes())["items"]
    )

    def start(out: str) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-m", "gaia_eval", "batch-experiment", "-c", str(config), "-i",
                                 str(qa_gt), "-o", str(tmp_path / out), "--concurrency", str(items), "--quiet"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    first = start("a")
    second = None
    try:
        deadline = time.monotonic() + 600
        while fake_llm.request_count < items:  # every request of the first run is in flight, held
            assert first.poll() is None and time.monotonic() < deadline, first.stderr.read() if first.poll() else ""
            time.sleep(0.01)
        second = start("b")
        while not (tmp_path / "b" / "gpt.experiment.journal.run.json").exists():  # the second run is calling
            assert second.poll() is None and time.monotonic() < deadline, second.stderr.read() if second.poll() else ""
            time.sleep(0.01)
    finally:
        release.set()
    outs = [p.communicate(timeout=300) for p in (first, second) if p is not None]
    assert [p.returncode for p in (first, second)] == [0, 0], outs
    assert fake_llm.request_count == items  # the second run's replies came from what the first one fetched
    assert "0 requests sent to models" in outs[1][0] and f"{items} replies from the response cache" in outs[1][0]
