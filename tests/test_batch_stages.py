"""--batch in the other stages that call models: the LLM judge of `eval --judge`, LLM ground truth and LLM
document generation give what a synchronous run gives (timing and cost aside), through the batch APIs only."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from gaia_eval.cli import cli
from tests.fakebatch import FakeBatchServer
from tests.test_generate_llm import MODEL as GEN_MODEL
from tests.test_generate_llm import SEED, TARGET, realistic
from tests.test_groundtruth_llm import SUMMARIES, TRANSCRIPT
from tests.test_judge import judge_responder, pipeline_outputs, project  # noqa: F401 - fixtures

VOLATILE = {"latency_s", "time_to_success_s", "cost_usd", "batch_id", "wall_time_s", "started_at", "finished_at",
            "created_at", "evaluated_at", "pricing", "batched_samples"}


@pytest.fixture()
def server(batch_server: FakeBatchServer) -> FakeBatchServer:
    return batch_server


def _stable(value):
    if isinstance(value, dict):
        return {k: _stable(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_stable(v) for v in value]
    return value


def _folder(path: Path, pattern: str) -> dict[str, object]:
    return {p.name: _stable(orjson.loads(p.read_bytes())) for p in sorted(path.glob(pattern))}


def _sync_then_batch(server: FakeBatchServer, args) -> tuple[Path, Path]:
    """Run the same command synchronously into `sync` and with --batch into `batch` (no cache, so both ask)."""
    sync_out, batch_out = args("sync"), args("batch")
    first = CliRunner().invoke(cli, [*sync_out, "--no-cache"])
    assert first.exit_code == 0, first.output
    calls = server.request_count
    second = CliRunner().invoke(cli, [*batch_out, "--no-cache", "--batch"])
    assert second.exit_code == 0, second.output
    assert server.request_count == calls and server.batches  # the batch run used only the batch API
    assert set(server.submissions.values()) == {1}
    return Path(sync_out[sync_out.index("-o") + 1]), Path(batch_out[batch_out.index("-o") + 1])


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_judge_through_a_batch_equals_the_synchronous_judge(server, project, provider):  # noqa: F811 - fixture
    server.responder = judge_responder
    url = server.openai_base_url if provider == "openai" else server.anthropic_base_url
    spec = "openai:gpt-4o-mini" if provider == "openai" else "anthropic:claude-haiku-4-5"

    def args(name: str) -> list[str]:
        return ["eval", "-d", str(project / "exp"), "-o", str(project / name), "--judge", spec, "--judge-base-url", url]

    sync, batch = _sync_then_batch(server, args)
    assert _folder(batch, "*.eval.json") == _folder(sync, "*.eval.json")
    ev = orjson.loads(next(batch.glob("*.eval.json")).read_bytes())
    assert ev["judge"]["batched_samples"] > 0 and "batch" in ev["judge"]["pricing"]
    assert all(s["batch_id"] in server.batches for i in ev["items"] for s in i["judge"]["samples"])
    sync_ev = orjson.loads(next(sync.glob("*.eval.json")).read_bytes())
    assert ev["judge"]["cost_usd"] == pytest.approx(sync_ev["judge"]["cost_usd"] / 2)
    assert not list(batch.glob("*.batches.jsonl"))


def test_llm_ground_truth_through_a_batch_equals_the_synchronous_one(server, tmp_path):
    server.responder = lambda req: {"json": SUMMARIES}
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "harbor_sync.txt").write_text(TRANSCRIPT)

    def args(name: str) -> list[str]:
        return ["groundtruth", "-d", str(docs), "-o", str(tmp_path / name), "--provider", "openai", "--model",
                "gpt-4o-mini", "--base-url", server.openai_base_url, "--quiet"]

    sync, batch = _sync_then_batch(server, args)
    # (the consolidated file differs only in the fingerprints of these files, which hold their cost)
    assert _folder(batch, "*.groundtruth.json") == _folder(sync, "*.groundtruth.json")
    assert orjson.loads((batch / "harbor_sync.summarization.groundtruth.json").read_bytes())["cost_usd"] > 0


def test_llm_documents_through_a_batch_equal_the_synchronous_ones(server, tmp_path):
    server.responder = realistic("meeting", ["standup", "client_call"])

    def args(name: str) -> list[str]:
        return [
            "generate",
            "--meeting-transcript",
            "--meeting-types",
            "standup,client_call",
            "-o",
            str(tmp_path / name),
            "--seed",
            str(SEED),
            "--target-tokens",
            str(TARGET),
            "--provider",
            "openai",
            "--model",
            GEN_MODEL,
            "--base-url",
            server.openai_base_url,
            "--quiet",
        ]

    sync, batch = _sync_then_batch(server, args)
    assert _folder(batch, "*.meta.json") == _folder(sync, "*.meta.json")
    assert {p.name: p.read_text() for p in batch.glob("*.txt")} == {p.name: p.read_text() for p in sync.glob("*.txt")}
