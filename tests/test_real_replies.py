"""Replies a real small model wrote (Gemma 3 270M on llama.cpp, saved in tests/data/realmodel_replies/), replayed
through the local fake server and the real SDK: each must end as what it is (truncated, degenerate, context
overflow, unscored) with its reason, never as a normal answer."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest

from gaia_eval.artifacts.evaluation import Evaluation
from gaia_eval.artifacts.experiment import Experiment
from gaia_eval.artifacts.store import read_artifact
from gaia_eval.stages.eval.run import run_eval
from gaia_eval.stages.experiment.run import run_batch_experiment
from gaia_eval.stages.generate import run_generate
from gaia_eval.stages.groundtruth.run import run_groundtruth
from tests.test_judge import judge_responder, judge_settings

REPLIES = json.loads((Path(__file__).parent / "data" / "realmodel_replies" / "gemma3_270m.json").read_text())


@pytest.fixture(scope="module")
def qa_gt(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("real")
    run_generate("meeting", root / "docs", types=["standup"], seed=2)
    run_groundtruth(input_dir=root / "docs", use_case="qa", output_dir=root / "gt")
    return root / "gt"


@pytest.fixture(autouse=True)
def _no_key_needed(monkeypatch):
    monkeypatch.setenv("GAIA_EVAL_NO_CACHE", "1")


def _replay(name: str, **overrides) -> dict:
    recorded = REPLIES[name]
    if "error_body" in recorded:
        return {"fault": str(recorded["status"]), "error_body": recorded["error_body"]}
    reply = {"text": recorded["text"], "finish_reason": recorded["finish_reason"], "usage": recorded["usage"]}
    reply.update(overrides)
    return reply


def _run(fake_llm, qa_gt: Path, tmp_path: Path, reply: dict, max_tokens: int) -> list:
    fake_llm.script([reply])
    config = tmp_path / "c.json"
    config.write_bytes(orjson.dumps({"experiments": [
        {"name": "gemma", "provider": "llamacpp", "model": "gemma-3-270m", "base_url": fake_llm.openai_base_url,
         "max_tokens": max_tokens, "max_concurrency": 1, "max_retries": 2},
    ]}))
    run_batch_experiment(config, qa_gt, tmp_path / "exp", show_progress=False)
    exp = read_artifact(tmp_path / "exp" / "gemma.experiment.json", Experiment)
    return [item for item in exp.items if item.status == "error"]


def test_a_loop_cut_at_max_tokens_is_a_truncated_error_not_an_answer(fake_llm, qa_gt, tmp_path):
    errors = _run(fake_llm, qa_gt, tmp_path, _replay("summary_loop_at_max_tokens"), 256)
    assert len(errors) == 1
    item = errors[0]
    assert item.error.startswith("truncated: the reply was cut off at max_tokens=256")
    assert item.finish_reason == "length" and item.answer is None and item.usage.output_tokens == 256


def test_a_context_that_filled_up_while_writing_says_so_not_max_tokens(fake_llm, qa_gt, tmp_path):
    errors = _run(fake_llm, qa_gt, tmp_path, _replay("context_filled_while_writing"), 3000)
    assert len(errors) == 1
    assert "context window filled up (prompt 3014 + reply 1082 tokens)" in errors[0].error
    assert "max_tokens=" not in errors[0].error


def test_a_prompt_over_the_context_is_a_context_overflow_named_with_its_sizes_and_not_retried(
    fake_llm, qa_gt, tmp_path
):
    errors = _run(fake_llm, qa_gt, tmp_path, _replay("prompt_over_context"), 64)
    assert len(errors) == 1
    item = errors[0]
    assert item.error.startswith("context_overflow:")
    assert "9813 tokens for a 4096-token context" in item.error
    assert item.attempts == 1 and item.retries == []  # the same request would fail the same way


def test_a_repeating_reply_that_stopped_on_its_own_is_degenerate(fake_llm, qa_gt, tmp_path):
    errors = _run(fake_llm, qa_gt, tmp_path, _replay("summary_loop_at_max_tokens", finish_reason="stop"), 256)
    assert len(errors) == 1 and errors[0].error.startswith("degenerate: the reply repeats itself")


def test_chat_template_tokens_in_a_loop_are_degenerate(fake_llm, qa_gt, tmp_path):
    loop = {
        "text": "The answer is<|im_end|>user\n<|im_end|>user\n<|im_end|>user\n<|im_end|>user\n",
        "finish_reason": "stop",
    }
    errors = _run(fake_llm, qa_gt, tmp_path, loop, 256)
    assert len(errors) == 1 and "chat-template tokens" in errors[0].error


def test_grammar_json_missing_criteria_is_unscored_with_the_raw_reply(fake_llm, tmp_path):
    from tests.test_judge import _baseline_config

    run_generate("meeting", tmp_path / "docs", types=["standup"], seed=3)
    run_groundtruth(input_dir=tmp_path / "docs", use_case="qa", output_dir=tmp_path / "gt")
    run_batch_experiment(_baseline_config(tmp_path / "b.json", "retrieval"), tmp_path / "gt", tmp_path / "exp",
                         show_progress=False)
    recorded = REPLIES["judge_json_from_grammar"]
    # The model's only criterion, twice (the first request and its repair): everything after is answered well.
    fake_llm.script([{"json": json.loads(recorded["text"])}] * 2)
    fake_llm.responder = judge_responder
    run_eval(experiment_dir=tmp_path / "exp", output_dir=tmp_path / "ev",
             judge=judge_settings(fake_llm, "llamacpp", "gemma-3-270m", concurrency=1))
    ev = read_artifact(tmp_path / "ev" / "retrieval.experiment.eval.json", Evaluation)
    first = ev.items[0].judge.samples[0]
    assert first.status == "unscored" and "3D model" in (first.raw or "")
    assert "missing" in (first.error or "")
