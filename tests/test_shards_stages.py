"""`--shard K/N` on groundtruth with a model and on eval --judge: each shard pays only for its own items, and
the same command without --shard then pays nothing and writes exactly what one process writes."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from gaia_eval.artifacts.evaluation import Evaluation
from gaia_eval.artifacts.groundtruth import ConsolidatedGroundTruth
from gaia_eval.artifacts.shards import Shard
from gaia_eval.artifacts.store import read_artifact
from gaia_eval.errors import UsageError
from gaia_eval.scoring.judge.core import JudgeSettings
from gaia_eval.stages.eval.run import run_eval
from gaia_eval.stages.experiment.run import run_batch_experiment
from gaia_eval.stages.generate import run_generate
from gaia_eval.stages.groundtruth.run import run_groundtruth
from tests.test_groundtruth_llm import SUMMARIES, TRANSCRIPT
from tests.test_judge import FAST_RETRY, judge_responder


@pytest.fixture(autouse=True)
def keys(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-openai")


@pytest.fixture(scope="module")
def docs(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("shard_stages")
    run_generate("meeting", root / "docs", types=["standup", "planning", "client_call"], count_per_type=2, seed=5)
    return root / "docs"


def _groundtruth(fake_llm, docs: Path, out: Path, shard: Shard | None = None):
    return run_groundtruth(input_dir=docs, use_case="summarization", output_dir=out, provider="vllm", model="m",
                           base_url=fake_llm.openai_base_url, show_progress=False, shard=shard)


def test_groundtruth_shards_then_consolidation_pays_nothing(fake_llm, tmp_path: Path):
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(6):  # six different documents the fake model's summary is true of
        (docs / f"sync_{i}.txt").write_text(f"{TRANSCRIPT}\nMinutes taken by note-taker {i}.\n")
    fake_llm.responder = lambda req: {"json": SUMMARIES}
    single, sharded = tmp_path / "single", tmp_path / "sharded"
    _groundtruth(fake_llm, docs, single)
    total = fake_llm.request_count
    assert total == 6
    for k in (1, 2, 3):
        summary = _groundtruth(fake_llm, docs, sharded, Shard(k, 3))
        assert any(f"shard {k}/3" in note for note in summary.notes)
    assert fake_llm.request_count == 2 * total  # the shards together paid what one process paid
    assert not list(sharded.glob("consolidated_*"))
    before = fake_llm.request_count
    _groundtruth(fake_llm, docs, sharded)
    assert fake_llm.request_count == before
    name = "consolidated_summarization_groundtruth.json"
    # identical files: the consolidated file and every item's (no timing field in ground truth)
    assert sorted(p.relative_to(single).as_posix() for p in single.rglob("*.json")) == sorted(
        p.relative_to(sharded).as_posix() for p in sharded.rglob("*.json"))
    for path in single.rglob("*.json"):
        assert path.read_bytes() == (sharded / path.relative_to(single)).read_bytes(), path.name
    assert len(read_artifact(sharded / name, ConsolidatedGroundTruth).items) == 6


def _judge(fake_llm) -> JudgeSettings:
    return JudgeSettings(provider="openai", model="gpt-4o-mini", base_url=fake_llm.openai_base_url,
                         retry=FAST_RETRY, samples=2)


def _judged_items(path: Path) -> list[dict]:
    evaluation = read_artifact(path, Evaluation)
    items = [i.model_dump(mode="json") for i in evaluation.items]
    for item in items:
        for sample in (item.get("judge") or {}).get("samples") or []:
            sample.pop("latency_s", None)
    return items


def test_eval_judge_shards_then_consolidation_pays_nothing(fake_llm, docs: Path, tmp_path: Path, monkeypatch):
    monkeypatch.setenv("GAIA_EVAL_NO_CACHE", "1")  # every judge call reaches the server: counts mean payments
    run_groundtruth(input_dir=docs, use_case="summarization", output_dir=tmp_path / "gt")
    config = tmp_path / "c.json"
    config.write_bytes(orjson.dumps({"experiments": [{"name": n, "provider": "baseline", "model": n}
                                                     for n in ("textrank", "lead")]}))
    run_batch_experiment(config, tmp_path / "gt", tmp_path / "exp", show_progress=False)
    fake_llm.responder = judge_responder
    run_eval(experiment_dir=tmp_path / "exp", output_dir=tmp_path / "single", judge=_judge(fake_llm))
    total = fake_llm.request_count
    for k in (1, 2):
        summary = run_eval(experiment_dir=tmp_path / "exp", output_dir=tmp_path / "sharded", judge=_judge(fake_llm),
                           shard=Shard(k, 2))
        assert not list((tmp_path / "sharded").glob("*.eval.json"))  # a shard writes only its parts
        assert summary.failed == 0
    assert fake_llm.request_count == 2 * total
    again = fake_llm.request_count
    run_eval(experiment_dir=tmp_path / "exp", output_dir=tmp_path / "sharded", judge=_judge(fake_llm),
             shard=Shard(2, 2))
    assert fake_llm.request_count == again  # a finished shard is not paid again
    run_eval(experiment_dir=tmp_path / "exp", output_dir=tmp_path / "sharded", judge=_judge(fake_llm))
    assert fake_llm.request_count == again  # the consolidation pays nothing
    for name in ("textrank.experiment.eval.json", "lead.experiment.eval.json"):
        assert _judged_items(tmp_path / "sharded" / name) == _judged_items(tmp_path / "single" / name)
        a, b = (read_artifact(tmp_path / f / name, Evaluation) for f in ("sharded", "single"))
        assert a.judge is not None and b.judge is not None
        assert (a.grade, a.judge.model_dump()) == (b.grade, b.judge.model_dump())
    assert sorted(p.name for p in (tmp_path / "sharded").iterdir()) == sorted(
        p.name for p in (tmp_path / "single").iterdir())  # parts and journals gone


def test_eval_shard_of_the_index_alone_is_refused(tmp_path: Path):
    with pytest.raises(UsageError, match="--regenerate-report"):
        run_eval(experiment_dir=tmp_path, output_dir=tmp_path / "ev", shard=Shard(1, 2), regenerate_report=True)


def test_meta_eval_judge_shards_then_consolidation_pays_nothing(fake_llm, tmp_path: Path, monkeypatch):
    from click.testing import CliRunner

    from gaia_eval.cli import cli
    from tests.test_metaeval import _fixture_rows, _write
    from tests.test_metaeval_judge import _always_good, _judge_args

    monkeypatch.setenv("GAIA_EVAL_NO_CACHE", "1")
    fake_llm.responder = _always_good(lambda n: min(0.95, 0.05 + n / 16))
    path = _write(tmp_path / "ratings.jsonl", _fixture_rows())
    single = CliRunner().invoke(cli, _judge_args(path, fake_llm, "-o", str(tmp_path / "single" / "m.json")))
    assert single.exit_code == 0, single.output
    total = fake_llm.request_count
    out = tmp_path / "sharded" / "m.json"
    for k in (1, 2):
        result = CliRunner().invoke(cli, _judge_args(path, fake_llm, "-o", str(out), "--shard", f"{k}/2"))
        assert result.exit_code == 0, result.output
        assert f"shard {k}/2" in result.output and not out.exists()
    assert fake_llm.request_count == 2 * total
    done = CliRunner().invoke(cli, _judge_args(path, fake_llm, "-o", str(out)))
    assert done.exit_code == 0, done.output
    assert fake_llm.request_count == 2 * total  # every judgement came from the shards' parts
    saved, expected = (orjson.loads(p.read_bytes()) for p in (out, tmp_path / "single" / "m.json"))
    assert saved["results"] == expected["results"]
    assert sorted(p.name for p in out.parent.iterdir()) == ["m.json", "m.md"]  # the parts are gone
    no_judge = CliRunner().invoke(cli, ["meta-eval", str(path), "-o", str(out), "--shard", "1/2"])
    assert no_judge.exit_code == 2 and "--judge" in no_judge.output
