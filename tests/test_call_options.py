"""Cache and batch settings are values handed to each run (providers/call_options.py), not module state: two runs
in one process, one after the other or at the same time, each see only their own; every stage that calls a model
uses the settings it was given, not the environment's defaults; the CLI's options reach the run and leave nothing
behind for the next invocation; and no module under providers/ or cli/ keeps settings of its own."""

from __future__ import annotations

import ast
import threading
from dataclasses import FrozenInstanceError
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from gaia_eval.artifacts.experiment import Experiment
from gaia_eval.artifacts.store import read_artifact
from gaia_eval.cli import cli
from gaia_eval.providers.batch import BatchOptions
from gaia_eval.providers.batch.options import DEFAULT_GATHER_S
from gaia_eval.providers.cache import CacheOptions
from gaia_eval.providers.call_options import CallOptions
from gaia_eval.scoring.judge import JudgeSettings
from gaia_eval.stages.eval.run import run_eval
from gaia_eval.stages.experiment.run import MAX_TOTAL_CONCURRENCY, run_batch_experiment
from gaia_eval.stages.generate import run_generate
from gaia_eval.stages.groundtruth.run import run_groundtruth
from gaia_eval.stages.meta_eval import run_meta_eval
from tests.fakebatch import FakeBatchServer
from tests.fakeserver import FakeLLMServer
from tests.test_cache_integrity import qa_gt  # noqa: F401 - fixture
from tests.test_generate_llm import MODEL, SEED, TARGET, realistic
from tests.test_groundtruth_llm import SUMMARIES, TRANSCRIPT
from tests.test_judge import judge_responder, judge_settings, pipeline_outputs, project  # noqa: F401 - fixtures
from tests.test_metaeval import _fixture_rows, _write
from tests.test_metaeval_judge import _always_good

PACKAGE = Path(__file__).resolve().parents[1] / "gaia_eval"


@pytest.fixture(autouse=True)
def keys(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-openai")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


@pytest.fixture()
def qa_workload(qa_gt: Path) -> Path:  # noqa: F811 - the fixture imported above
    """Ground truth of one offline standup meeting (qa): a few items to run experiments over."""
    return qa_gt


@pytest.fixture()
def env_cache(tmp_path, monkeypatch) -> Path:
    """The environment's cache folder: what a run given no settings would use, so a run given its own must not."""
    folder = tmp_path / "env-cache"
    monkeypatch.setenv("GAIA_EVAL_CACHE_DIR", str(folder))
    return folder


def _entries(folder: Path) -> list[Path]:
    """The replies stored in a response cache folder."""
    return sorted(folder.rglob("*.json")) if folder.exists() else []


def _config(path: Path, base_url: str) -> Path:
    # a long timeout: a call held open while the other run catches up must not be retried
    path.write_bytes(orjson.dumps({"experiments": [{"name": "gpt", "provider": "openai", "model": "gpt-4o-mini",
                                                    "base_url": base_url, "timeout_s": 120.0, "max_retries": 0}]}))
    return path


def _experiment(folder: Path) -> Experiment:
    return read_artifact(folder / "gpt.experiment.json", Experiment)


def _in_threads(*runs) -> None:
    """Each run in its own thread, all started before any is waited for; a run's exception is raised here."""
    errors: list[BaseException] = []

    def guarded(run):
        try:
            run()
        except BaseException as exc:  # handed to the test thread
            errors.append(exc)

    threads = [threading.Thread(target=guarded, args=(run,)) for run in runs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)  # a bound on a hang, not a timing assertion
    assert not any(t.is_alive() for t in threads), "a run did not finish"
    if errors:
        raise errors[0]


# -- two runs in one process -----------------------------------------------------------------------------------

def test_two_runs_one_after_the_other_each_see_only_their_own_cache_settings(fake_llm, qa_workload, tmp_path,
                                                                              env_cache):
    config = _config(tmp_path / "c.json", fake_llm.openai_base_url)
    cached = CallOptions(cache=CacheOptions(directory=tmp_path / "a"))
    off = CallOptions(cache=CacheOptions(enabled=False))

    run_batch_experiment(config, qa_workload, tmp_path / "1", show_progress=False, call_options=cached)
    paid = fake_llm.request_count
    stored = _entries(tmp_path / "a")
    assert paid > 0 and len(stored) == paid

    run_batch_experiment(config, qa_workload, tmp_path / "2", show_progress=False, call_options=off)
    assert fake_llm.request_count == 2 * paid  # the cache the first run filled is not read with the cache off
    assert _entries(tmp_path / "a") == stored and not _entries(env_cache)  # nor written, nor a default one

    run_batch_experiment(config, qa_workload, tmp_path / "3", show_progress=False, call_options=cached)
    assert fake_llm.request_count == 2 * paid  # the off run left no state behind: all from the cache again
    assert all(item.cached for item in _experiment(tmp_path / "3").items)

    run_batch_experiment(config, qa_workload, tmp_path / "4", show_progress=False, call_options=off)
    assert fake_llm.request_count == 3 * paid
    assert not any(item.cached for item in _experiment(tmp_path / "4").items)


def _meeting(first: threading.Event, other: threading.Event, overlapped: list[bool]):
    """An echo responder whose first reply waits until the other run's server has been asked too: both runs are
    then in flight at once."""

    def responder(req):
        first.set()
        overlapped.append(other.wait(timeout=300))  # a bound on a hang; the outcome is asserted by the test
        return {"text": "the team ships on friday"}

    return responder


def test_two_runs_at_the_same_time_each_see_only_their_own_cache_settings(qa_workload, tmp_path, env_cache):
    server_a, server_b = FakeLLMServer().start(), FakeLLMServer().start()
    asked_a, asked_b, overlapped = threading.Event(), threading.Event(), []
    server_a.responder = _meeting(asked_a, asked_b, overlapped)
    server_b.responder = _meeting(asked_b, asked_a, overlapped)
    config_a, config_b = (_config(tmp_path / f"{n}.json", s.openai_base_url)
                          for n, s in (("a", server_a), ("b", server_b)))
    cached = CallOptions(cache=CacheOptions(directory=tmp_path / "cache-a"))
    off = CallOptions(cache=CacheOptions(enabled=False))

    def both(round_: int) -> None:
        _in_threads(
            lambda: run_batch_experiment(config_a, qa_workload, tmp_path / f"a{round_}", show_progress=False,
                                         call_options=cached),
            lambda: run_batch_experiment(config_b, qa_workload, tmp_path / f"b{round_}", show_progress=False,
                                         call_options=off),
        )

    try:
        both(1)
        assert overlapped and all(overlapped)  # each run's first call waited for the other's
        paid_a, paid_b = server_a.request_count, server_b.request_count
        assert paid_a == paid_b > 0
        assert len(_entries(tmp_path / "cache-a")) == paid_a and not _entries(env_cache)

        both(2)
        assert server_a.request_count == paid_a  # run a: every reply from its own cache
        assert server_b.request_count == 2 * paid_b  # run b, at the same time: no cache at all
        assert all(item.cached for item in _experiment(tmp_path / "a2").items)
        assert not any(item.cached for item in _experiment(tmp_path / "b2").items)
        assert len(_entries(tmp_path / "cache-a")) == paid_a and not _entries(env_cache)
    finally:
        server_a.stop()
        server_b.stop()


def test_a_batched_run_and_a_synchronous_one_at_the_same_time_keep_their_own_mode(qa_workload, tmp_path,
                                                                                   batch_server: FakeBatchServer):
    """Run b goes through the batch API while run a, started beside it, calls its server directly: a's first call
    waits until b's batch exists, and b's batch is held until a's first call arrives."""
    batch_server.hold_batches = True
    sync_server = FakeLLMServer().start()
    overlapped: list[bool] = []

    def responder(req):
        overlapped.append(batch_server.batch_created.wait(timeout=300))  # a bound on a hang
        batch_server.release()
        return {"text": "the team ships on friday"}

    sync_server.responder = responder
    sync = CallOptions(cache=CacheOptions(enabled=False))
    batched = CallOptions(cache=CacheOptions(enabled=False), batch=BatchOptions(enabled=True))
    try:
        _in_threads(
            lambda: run_batch_experiment(_config(tmp_path / "a.json", sync_server.openai_base_url), qa_workload,
                                         tmp_path / "a", show_progress=False, call_options=sync),
            lambda: run_batch_experiment(_config(tmp_path / "b.json", batch_server.openai_base_url), qa_workload,
                                         tmp_path / "b", show_progress=False, call_options=batched),
        )
        assert overlapped and all(overlapped)
        sync_items, batch_items = _experiment(tmp_path / "a").items, _experiment(tmp_path / "b").items
        assert sync_server.request_count == len(sync_items) and all(i.batch_id is None for i in sync_items)
        assert all(i.status == "ok" and i.batch_id in batch_server.batches for i in batch_items)
        assert batch_server.request_count == 0  # run b made no synchronous call
    finally:
        sync_server.stop()


# -- every stage uses the settings it is given -----------------------------------------------------------------

def _generate(fake_llm, tmp_path: Path, options: CallOptions) -> None:
    # an e-mail: the fake meeting transcripts repeat their lines, which the cache refuses to store as degenerate
    fake_llm.responder = realistic("email", ["project_update"])
    run_generate("email", tmp_path / "docs", types=["project_update"], seed=SEED, target_tokens=TARGET,
                 provider="openai", model=MODEL, base_url=fake_llm.openai_base_url, call_options=options)


def _groundtruth(fake_llm, tmp_path: Path, options: CallOptions) -> None:
    fake_llm.responder = lambda req: {"json": SUMMARIES}
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "harbor_sync.txt").write_text(TRANSCRIPT)
    run_groundtruth(input_dir=tmp_path / "docs", output_dir=tmp_path / "gt", provider="openai", model=MODEL,
                    base_url=fake_llm.openai_base_url, call_options=options)


def _experiment_run(fake_llm, tmp_path: Path, options: CallOptions, qa_workload: Path) -> None:
    run_batch_experiment(_config(tmp_path / "c.json", fake_llm.openai_base_url), qa_workload, tmp_path / "exp",
                         show_progress=False, call_options=options)


def _judged_eval(fake_llm, tmp_path: Path, options: CallOptions, project: Path) -> None:  # noqa: F811 - fixture
    fake_llm.responder = judge_responder
    run_eval(experiment_dir=project / "exp", output_dir=tmp_path / "ev", judge=judge_settings(fake_llm),
             call_options=options)


def _judged_meta_eval(fake_llm, tmp_path: Path, options: CallOptions) -> None:
    fake_llm.responder = _always_good(lambda n: 0.5)
    ratings = _write(tmp_path / "ratings.jsonl", _fixture_rows(n_items=3))
    judge = JudgeSettings(provider="openai", model="gpt-4o-mini", base_url=fake_llm.openai_base_url)
    run_meta_eval(ratings, exclude_systems=["ref"], judge=judge, call_options=options)


STAGES = {
    "generate": lambda fake_llm, tmp_path, options, request: _generate(fake_llm, tmp_path, options),
    "groundtruth": lambda fake_llm, tmp_path, options, request: _groundtruth(fake_llm, tmp_path, options),
    "batch-experiment": lambda fake_llm, tmp_path, options, request: _experiment_run(
        fake_llm, tmp_path, options, request.getfixturevalue("qa_workload")),
    "eval --judge": lambda fake_llm, tmp_path, options, request: _judged_eval(
        fake_llm, tmp_path, options, request.getfixturevalue("project")),
    "meta-eval --judge": lambda fake_llm, tmp_path, options, request: _judged_meta_eval(fake_llm, tmp_path, options),
}


@pytest.mark.parametrize("stage", list(STAGES))
def test_each_stage_caches_where_it_is_told_and_not_where_the_environment_says(stage, fake_llm, tmp_path, env_cache,
                                                                                request):
    given = tmp_path / "given-cache"
    STAGES[stage](fake_llm, tmp_path, CallOptions(cache=CacheOptions(directory=given)), request)
    assert fake_llm.request_count > 0
    assert len(_entries(given)) == fake_llm.request_count  # every reply stored in the folder given
    assert not _entries(env_cache)  # and none in the environment's: the defaults were not used anywhere


@pytest.mark.parametrize("stage", list(STAGES))
def test_each_stage_given_the_cache_off_stores_nothing(stage, fake_llm, tmp_path, env_cache, request):
    STAGES[stage](fake_llm, tmp_path, CallOptions(cache=CacheOptions(enabled=False)), request)
    assert fake_llm.request_count > 0 and not _entries(env_cache)


def _batch_generate(server, out: Path, options: CallOptions, request) -> str:
    server.responder = realistic("email", ["project_update", "customer_support"])
    run_generate("email", out, types=["project_update", "customer_support"], seed=SEED, target_tokens=TARGET,
                 provider="openai", model=MODEL, base_url=server.openai_base_url, concurrency=1, call_options=options)
    return "*.meta.json"


def _batch_groundtruth(server, out: Path, options: CallOptions, request) -> str:
    server.responder = lambda req: {"json": SUMMARIES}
    docs = out.parent / "docs"
    docs.mkdir(exist_ok=True)
    for name in ("harbor_sync", "harbor_sync_2"):
        (docs / f"{name}.txt").write_text(TRANSCRIPT.replace("Harbor", name))
    run_groundtruth(input_dir=docs, output_dir=out, provider="openai", model=MODEL,
                    base_url=server.openai_base_url, concurrency=1, call_options=options)
    return "**/*.groundtruth.json"


def _batch_experiment(server, out: Path, options: CallOptions, request) -> str:
    run_batch_experiment(_config(out.parent / "c.json", server.openai_base_url), request.getfixturevalue("qa_workload"),
                         out, concurrency=1, show_progress=False, call_options=options)
    return "*.experiment.json"


def _batch_judge(server, out: Path, options: CallOptions, request) -> str:
    server.responder = judge_responder
    run_eval(experiment_dir=request.getfixturevalue("project") / "exp", output_dir=out,
             judge=judge_settings(server, concurrency=1), call_options=options)
    return "*.eval.json"


BATCH_STAGES = {"generate": _batch_generate, "groundtruth": _batch_groundtruth,
                "batch-experiment": _batch_experiment, "eval --judge": _batch_judge}


def _costs(value) -> float:
    """Every cost_usd in an artifact, summed."""
    if isinstance(value, dict):
        return sum(_costs(v) if k != "cost_usd" else (v or 0.0) for k, v in value.items())
    if isinstance(value, list):
        return sum(_costs(v) for v in value)
    return 0.0


@pytest.mark.parametrize("stage", list(BATCH_STAGES))
def test_each_stage_given_batch_mode_waits_for_one_batch_and_pays_its_price(stage, batch_server, tmp_path, request):
    """With one call at a time allowed, batch mode must still let every call wait at once (its gate), so all go in
    one batch; and what the run records costs half the synchronous price."""
    sync = CallOptions(cache=CacheOptions(enabled=False))
    batched = CallOptions(cache=CacheOptions(enabled=False), batch=BatchOptions(enabled=True, gather_s=1.0))
    pattern = BATCH_STAGES[stage](batch_server, tmp_path / "sync", sync, request)
    calls = batch_server.request_count
    assert calls >= 2 and not batch_server.batches
    BATCH_STAGES[stage](batch_server, tmp_path / "batch", batched, request)
    assert batch_server.request_count == calls  # nothing synchronous
    assert len(batch_server.batches) == 1 and sum(batch_server.submissions.values()) == calls

    def paid(folder: Path) -> float:
        return sum(_costs(orjson.loads(p.read_bytes())) for p in sorted(folder.glob(pattern)))

    assert paid(tmp_path / "sync") > 0
    assert paid(tmp_path / "batch") == pytest.approx(paid(tmp_path / "sync") / 2)


def test_a_batched_experiment_lets_every_item_wait_at_once_past_the_synchronous_ceiling(batch_server, tmp_path):
    """A synchronous run keeps at most MAX_TOTAL_CONCURRENCY items in flight; a batched one lets them all wait, so
    one more item than that still goes into the one batch."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(MAX_TOTAL_CONCURRENCY + 8):
        (docs / f"d{i:04}.txt").write_text(f"Anna: we ship release {i} on Friday.\nBen: agreed, once the tests pass.\n")
    config = tmp_path / "c.json"
    config.write_bytes(orjson.dumps({"experiments": [{
        "name": "gpt", "provider": "openai", "model": "gpt-4o-mini", "base_url": batch_server.openai_base_url,
        "parameters": {"combined_prompt": True}}]}))  # one call per item
    batched = BatchOptions(enabled=True, size=10 * MAX_TOTAL_CONCURRENCY, gather_s=1.0)
    summary = run_batch_experiment(config, docs, tmp_path / "exp", show_progress=False,
                                   call_options=CallOptions(cache=CacheOptions(enabled=False), batch=batched))
    assert summary.items_ok == MAX_TOTAL_CONCURRENCY + 8
    assert len(batch_server.batches) == 1 and sum(batch_server.submissions.values()) == MAX_TOTAL_CONCURRENCY + 8


def test_a_run_given_no_settings_reads_the_environment_when_it_starts(fake_llm, qa_workload, tmp_path, monkeypatch):
    monkeypatch.setenv("GAIA_EVAL_CACHE_DIR", str(tmp_path / "env-cache"))
    run_batch_experiment(_config(tmp_path / "c.json", fake_llm.openai_base_url), qa_workload, tmp_path / "exp",
                         show_progress=False)
    assert len(_entries(tmp_path / "env-cache")) == fake_llm.request_count > 0
    monkeypatch.setenv("GAIA_EVAL_NO_CACHE", "1")
    run_batch_experiment(_config(tmp_path / "c.json", fake_llm.openai_base_url), qa_workload, tmp_path / "exp2",
                         show_progress=False)
    assert fake_llm.request_count == 2 * len(_entries(tmp_path / "env-cache"))  # the cache was off this time


def test_a_value_reads_the_environment_once_when_it_is_made(fake_llm, qa_workload, tmp_path, monkeypatch):
    monkeypatch.setenv("GAIA_EVAL_CACHE_DIR", str(tmp_path / "then"))
    monkeypatch.setenv("GAIA_EVAL_CACHE_MAX_MB", "3")
    monkeypatch.setenv("GAIA_EVAL_BATCH_GATHER_S", "0.25")
    monkeypatch.setenv("GAIA_EVAL_BATCH_POLL_S", "0.5")
    options = CallOptions()
    monkeypatch.setenv("GAIA_EVAL_CACHE_DIR", str(tmp_path / "now"))
    monkeypatch.setenv("GAIA_EVAL_NO_CACHE", "1")
    monkeypatch.setenv("GAIA_EVAL_BATCH_GATHER_S", "9")
    assert options.cache == CacheOptions(enabled=True, directory=tmp_path / "then", max_bytes=3 * 1024 * 1024)
    assert (options.batch.gather_s, options.batch.first_poll_s, options.batch.enabled) == (0.25, 0.5, False)
    run_batch_experiment(_config(tmp_path / "c.json", fake_llm.openai_base_url), qa_workload, tmp_path / "exp",
                         show_progress=False, call_options=options)
    assert len(_entries(tmp_path / "then")) == fake_llm.request_count > 0 and not _entries(tmp_path / "now")
    with pytest.raises(FrozenInstanceError):
        options.cache.enabled = False  # type: ignore[misc]


def test_a_malformed_batch_timing_variable_falls_back_to_the_default(monkeypatch):
    """Every command that can batch makes BatchOptions, --batch or not: a stray value must not stop it."""
    monkeypatch.setenv("GAIA_EVAL_BATCH_GATHER_S", "soon")
    monkeypatch.setenv("GAIA_EVAL_BATCH_POLL_S", "")
    options = BatchOptions(poll_s=7.0)
    assert (options.gather_s, options.first_poll_s) == (DEFAULT_GATHER_S, 7.0)


# -- the CLI builds the value from its options ------------------------------------------------------------------

class _Captured(Exception):
    pass


COMMANDS = {  # command line (without the call options) -> the module and function it runs
    "generate": (["generate", "--meeting-transcript", "--provider", "openai", "--model", "m"],
                 "gaia_eval.stages.generate", "run_generate"),
    "groundtruth": (["groundtruth", "--provider", "openai", "--model", "m"],
                    "gaia_eval.stages.groundtruth.run", "run_groundtruth"),
    "batch-experiment": (["batch-experiment"], "gaia_eval.stages.experiment.run", "run_batch_experiment"),
    "eval": (["eval", "--judge", "openai:gpt-4o-mini"], "gaia_eval.stages.eval.run", "run_eval"),
}


def _options_given(monkeypatch, tmp_path: Path, command: str, *options: str) -> CallOptions:
    """What `command` passes to its run_<stage> as `call_options` (the run itself is replaced by a recorder)."""
    import importlib

    args, module, name = COMMANDS[command]
    seen: list[CallOptions] = []

    def record(*_args, **kwargs):
        seen.append(kwargs["call_options"])
        raise _Captured

    monkeypatch.setattr(importlib.import_module(module), name, record)
    if command == "batch-experiment":  # its command lists the inputs before calling the run
        (tmp_path / "gt").mkdir(exist_ok=True)
        args = [*args, "-i", str(tmp_path / "gt")]
    result = CliRunner().invoke(cli, [*args, "-o", str(tmp_path / "out"), *options])
    assert isinstance(result.exception, _Captured), result.output
    return seen[0]


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_passes_the_value_its_options_make(command, monkeypatch, tmp_path, env_cache):
    monkeypatch.setenv("GAIA_EVAL_CACHE_MAX_MB", "5")
    given = _options_given(monkeypatch, tmp_path, command, "--no-cache", "--cache-dir", str(tmp_path / "c"),
                           "--batch", "--batch-size", "7", "--batch-poll", "3")
    assert given.cache == CacheOptions(enabled=False, directory=tmp_path / "c", max_bytes=5 * 1024 * 1024)
    assert (given.batch.enabled, given.batch.size, given.batch.poll_s) == (True, 7, 3.0)

    plain = _options_given(monkeypatch, tmp_path, command)  # the same process, the next invocation
    assert plain.cache == CacheOptions(enabled=True, directory=env_cache, max_bytes=5 * 1024 * 1024)
    assert plain.batch == BatchOptions()

    only_dir = _options_given(monkeypatch, tmp_path, command, "--cache-dir", str(tmp_path / "d"), "--batch-size", "9")
    assert (only_dir.cache.enabled, only_dir.cache.directory) == (True, tmp_path / "d")
    assert (only_dir.batch.enabled, only_dir.batch.size) == (False, 9)


def test_the_environment_turns_the_cache_off_for_the_cli_too(monkeypatch, tmp_path, env_cache):
    monkeypatch.setenv("GAIA_EVAL_NO_CACHE", "1")
    given = _options_given(monkeypatch, tmp_path, "batch-experiment", "--cache-dir", str(tmp_path / "c"))
    assert (given.cache.enabled, given.cache.directory) == (False, tmp_path / "c")


@pytest.mark.parametrize("flag", ["--cache-dir", "--no-cache"])
def test_the_cache_options_reach_the_stage_end_to_end(flag, fake_llm, qa_workload, tmp_path, env_cache):
    config = _config(tmp_path / "c.json", fake_llm.openai_base_url)
    options = [flag, str(tmp_path / "given")] if flag == "--cache-dir" else [flag]
    result = CliRunner().invoke(cli, ["batch-experiment", "-c", str(config), "-i", str(qa_workload), "-o",
                                      str(tmp_path / "exp"), "--quiet", *options])
    assert result.exit_code == 0, result.output
    stored = len(_entries(tmp_path / "given"))
    assert stored == (fake_llm.request_count if flag == "--cache-dir" else 0) and not _entries(env_cache)


@pytest.mark.parametrize("batch", [True, False])
def test_ctrl_c_says_what_happens_to_the_batches_of_this_invocation_only(batch, monkeypatch, tmp_path):
    """The group's Ctrl-C line depends on whether this invocation ran with --batch, and an earlier --batch
    invocation in the same process changes nothing."""
    import gaia_eval.stages.experiment.run as experiment_run

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(experiment_run, "run_batch_experiment", interrupted)
    (tmp_path / "gt").mkdir()
    args = ["batch-experiment", "-i", str(tmp_path / "gt"), "-o", str(tmp_path / "out")]
    if not batch:
        CliRunner().invoke(cli, [*args, "--batch"])  # an earlier invocation with --batch
    result = CliRunner().invoke(cli, [*args, *(["--batch"] if batch else [])])
    assert result.exit_code == 130
    assert ("the submitted batches keep running at the provider" in result.output) is batch
    assert ("finished items are saved" in result.output) is not batch


# -- no module keeps settings ----------------------------------------------------------------------------------

def _module_state(path: Path) -> list[str]:
    """`global` statements, module-level mutable containers (lowercase names; __all__ aside) and `configure`
    functions: the shapes settings kept in a module take."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = [f"{path.name}:{n.lineno}: global {', '.join(n.names)}" for n in ast.walk(tree)
             if isinstance(n, ast.Global)]
    found += [f"{path.name}:{n.lineno}: def {n.name}" for n in ast.walk(tree)
              if isinstance(n, ast.FunctionDef) and n.name == "configure"]
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        mutable = isinstance(value, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)) or (
            isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
            and value.func.id in {"dict", "list", "set", "defaultdict", "OrderedDict"})
        found += [f"{path.name}:{node.lineno}: {t.id}" for t in targets
                  if isinstance(t, ast.Name) and mutable and t.id != "__all__" and not t.id.lstrip("_").isupper()]
    return found


def test_no_module_under_providers_or_cli_keeps_settings():
    modules = sorted([*(PACKAGE / "providers").rglob("*.py"), *(PACKAGE / "cli").rglob("*.py")])
    assert len(modules) > 20
    assert [line for path in modules for line in _module_state(path)] == []


def test_the_module_state_check_finds_what_the_old_code_had(tmp_path):
    old = tmp_path / "cache.py"
    old.write_text('_settings: dict = {"enabled": None}\n_current = [object()]\nKNOWN = {"a": 1}\n'
                   "def configure(**changes):\n    global _current\n")
    assert [line.split(": ", 1)[1] for line in _module_state(old)] == [
        "global _current", "def configure", "_settings", "_current"]
