"""check-answer --mode judge (issue 27): the answer-equivalence judge through a real local OpenAI-compatible
server (tests/fakeserver.py on 127.0.0.1) driven by the real SDK, behind the response cache and through the batch
API; a reply that is not a verdict is never one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gaia_eval.cli import cli
from gaia_eval.scoring.answers import match_answer
from tests.fakeserver import last_user_text


def grader(req):
    """A judge that knows its trivia: correct when the candidate names the first reference answer's last word."""
    prompt = last_user_text(req["body"])
    reference = prompt.split("Reference answer(s):\n- ", 1)[1].split("\n", 1)[0]
    candidate = prompt.split("Candidate's answer:\n", 1)[1].rsplit("\n\nIs the candidate", 1)[0]
    return {"json": {"correct": reference.split()[-1].lower() in candidate.lower()}}


def _judge_args(server, *args: str) -> list[str]:
    return ["check-answer", "--mode", "judge", "--judge", "openai:gpt-4o-mini", "--judge-base-url",
            server.openai_base_url, *args]


def test_the_judge_grades_one_answer_from_the_question_and_references_and_asks_once(fake_llm, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    fake_llm.responder = grader
    args = _judge_args(fake_llm, "--question", "Who wrote MacArthur Park?", "Senator Jim Webb",
                       "The song was written by Jimmy Webb.")
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0 and result.output.startswith("CORRECT (mode judge, openai:gpt-4o-mini)"), result.output
    body = fake_llm.requests[0]["body"]
    prompt = last_user_text(body)
    assert "Who wrote MacArthur Park?" in prompt and "- Senator Jim Webb" in prompt and "Jimmy Webb" in prompt
    assert body["response_format"]["type"] == "json_schema" and body["temperature"] == 0
    again = CliRunner().invoke(cli, args)
    assert again.exit_code == 0 and fake_llm.request_count == 1  # the response cache answers the second run
    wrong = CliRunner().invoke(cli, _judge_args(fake_llm, "Senator Jim Webb", "Richard Harris sang it."))
    assert wrong.exit_code == 1 and wrong.output.startswith("INCORRECT"), wrong.output


def test_a_jsonl_file_is_judged_in_order_and_a_line_of_another_mode_is_matched_without_a_call(fake_llm, monkeypatch,
                                                                                              tmp_path: Path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    fake_llm.responder = grader
    lines = [{"id": "a", "expected": ["Jim Webb", "Senator Webb"], "answer": "Jimmy Webb", "question": "Who?"},
             {"id": "b", "expected": "Colombia", "answer": "He is Peruvian."},
             {"id": "c", "expected": "1927", "answer": "FINAL ANSWER: 1,927", "mode": "gaia"}]
    path = tmp_path / "answers.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = CliRunner().invoke(cli, _judge_args(fake_llm, "--jsonl", str(path)))
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["id"], r["correct"], r["mode"]) for r in rows] == [("a", True, "judge"), ("b", False, "judge"),
                                                                   ("c", True, "gaia")]
    assert fake_llm.request_count == 2


def test_the_judges_jsonl_is_read_as_every_other_modes(fake_llm, monkeypatch, tmp_path: Path):
    """A raw U+2028 inside a string is valid JSON Lines and a BOM on standard input is dropped, as for the other
    modes: the judge mode reads --jsonl through the same reader, not a `splitlines()` of its own."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    fake_llm.responder = grader
    line = json.dumps({"id": "a", "expected": "Jim Webb", "answer": "Jimmy\u2028Webb wrote it"}, ensure_ascii=False)
    path = tmp_path / "answers.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    result = CliRunner().invoke(cli, _judge_args(fake_llm, "--jsonl", str(path)))
    assert result.exit_code == 0, result.output
    assert [json.loads(row)["correct"] for row in result.stdout.split("\n") if row] == [True]
    piped = CliRunner().invoke(cli, _judge_args(fake_llm, "--jsonl", "-"), input="\ufeff" + line + "\n")
    assert piped.exit_code == 0, piped.output
    assert [json.loads(row)["id"] for row in piped.stdout.split("\n") if row] == ["a"]


def test_a_reply_that_is_no_verdict_is_asked_again_once_then_fails_with_its_reason(fake_llm, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    fake_llm.responder = lambda req: {"json": {"verdict": "maybe"}}
    result = CliRunner().invoke(cli, _judge_args(fake_llm, "Paris", "It is Paris."))
    assert result.exit_code == 1 and "no usable verdict" in result.output and "CORRECT" not in result.output
    assert fake_llm.request_count == 2  # the request, then one repair request quoting the problem
    assert "could not be read" in last_user_text(fake_llm.requests[1]["body"])


def test_the_judge_answers_through_the_batch_api(batch_server, tmp_path: Path):
    batch_server.responder = grader
    path = tmp_path / "answers.jsonl"
    path.write_text(json.dumps({"expected": "Colombia", "answer": "Colombia, surely."}) + "\n"
                    + json.dumps({"expected": "Colombia", "answer": "Peru."}) + "\n")
    result = CliRunner().invoke(cli, _judge_args(batch_server, "--jsonl", str(path), "--batch", "--no-cache"))
    assert result.exit_code == 0, result.output
    assert [json.loads(line)["correct"] for line in result.stdout.splitlines()] == [True, False]
    assert batch_server.batches and batch_server.request_count == 0  # only the batch API was used
    assert not list(tmp_path.glob("*.batches.jsonl"))  # every batch answered: no journal left behind


@pytest.mark.parametrize(("args", "message"), [
    (["check-answer", "--mode", "judge", "Paris", "Paris"], "--mode judge needs the model that grades"),
    (["check-answer", "--judge", "openai:gpt-4o-mini", "Paris", "Paris"], "add --mode judge"),
    (["check-answer", "--mode", "judge", "--judge", "nosuch:model", "Paris", "Paris"], "unknown provider 'nosuch'"),
])
def test_a_judge_without_its_model_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


def test_match_answer_names_the_command_for_the_judge_mode() -> None:
    from gaia_eval.errors import UsageError

    with pytest.raises(UsageError, match="asks a model"):
        match_answer("Paris", "Paris", "judge")
