"""Documents longer than the model's context are chunked (map-reduce for summaries, retrieval for questions) and
say so; one that cannot fit even in chunks is an error naming its size and the context."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import orjson
import pytest

from gaia_eval.artifacts.experiment import Experiment
from gaia_eval.artifacts.store import read_artifact
from gaia_eval.stages.experiment.long_documents import estimate_tokens, server_context_tokens, split_into_chunks
from gaia_eval.stages.experiment.run import run_batch_experiment
from gaia_eval.stages.generate import run_generate
from gaia_eval.stages.groundtruth.run import run_groundtruth


@pytest.fixture(autouse=True)
def _no_cache(monkeypatch):
    monkeypatch.setenv("GAIA_EVAL_NO_CACHE", "1")


def _gt(tmp_path: Path, use_case: str) -> Path:
    run_generate("meeting", tmp_path / "docs", types=["standup"], seed=6, target_tokens=1500)
    run_groundtruth(input_dir=tmp_path / "docs", use_case=use_case, output_dir=tmp_path / "gt")
    return tmp_path / "gt"


def _run(fake_llm, tmp_path: Path, gt: Path, **spec) -> Experiment:
    config = tmp_path / "c.json"
    config.write_bytes(orjson.dumps({"experiments": [
        {"name": "small", "provider": "llamacpp", "model": "m", "base_url": fake_llm.openai_base_url, **spec},
    ]}))
    run_batch_experiment(config, gt, tmp_path / "exp", show_progress=False)
    return read_artifact(tmp_path / "exp" / "small.experiment.json", Experiment)


def test_a_summary_of_a_document_over_the_context_is_a_map_reduce_over_chunks(fake_llm, tmp_path):
    exp = _run(fake_llm, tmp_path, _gt(tmp_path, "summarization"), context_tokens=1200, max_tokens=200)
    item = exp.items[0]
    assert item.status == "ok", item.error
    document = exp.sources[item.source].text
    assert estimate_tokens(document) > 1200
    parts = int(item.chunked.split("over ")[1].split()[0])
    assert item.chunked == f"map-reduce over {parts} chunks" and parts >= 2
    assert item.calls == parts + 6  # a call per chunk, then the six styles from the part summaries
    for request in fake_llm.requests:
        assert estimate_tokens(json.dumps(request["body"]["messages"])) < 1200  # nothing sent blind


def test_a_question_on_a_long_document_gets_the_relevant_chunks(fake_llm, tmp_path):
    exp = _run(fake_llm, tmp_path, _gt(tmp_path, "qa"), context_tokens=1000, max_tokens=64)
    assert all(item.status == "ok" for item in exp.items)
    assert all(item.chunked and "chunks retrieved for the question" in item.chunked for item in exp.items)
    assert fake_llm.request_count == len(exp.items)  # one call per question, no map step


def test_a_context_too_small_for_any_chunk_is_an_error_naming_the_sizes(fake_llm, tmp_path):
    exp = _run(fake_llm, tmp_path, _gt(tmp_path, "summarization"), context_tokens=300, max_tokens=256)
    item = exp.items[0]
    assert item.status == "error" and item.error.startswith("context_overflow: document 'standup_meeting' (")
    assert "300-token context" in item.error and fake_llm.request_count == 0


def test_a_document_that_fits_is_sent_whole(fake_llm, tmp_path):
    exp = _run(fake_llm, tmp_path, _gt(tmp_path, "summarization"), context_tokens=100_000)
    assert exp.items[0].chunked is None and exp.items[0].calls == 6


def test_the_context_of_a_llama_cpp_server_is_asked_of_the_server():
    class Props(BaseHTTPRequestHandler):
        def do_GET(self):
            body = json.dumps({"default_generation_settings": {"n_ctx": 4096}}).encode()
            self.send_response(200 if self.path == "/props" else 404)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = HTTPServer(("127.0.0.1", 0), Props)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        assert server_context_tokens(f"http://127.0.0.1:{server.server_address[1]}/v1") == 4096
    finally:
        server.shutdown()
    assert server_context_tokens("http://127.0.0.1:9/v1") is None  # nothing there: unknown, not a crash


def test_chunks_keep_whole_lines_and_cover_the_document():
    document = "".join(f"Speaker {i}: line number {i} of the meeting.\n" for i in range(200))
    chunks = split_into_chunks(document, 100)
    assert "".join(chunks) == document and all(estimate_tokens(c) <= 100 for c in chunks)
    assert all(c.endswith("\n") for c in chunks)
