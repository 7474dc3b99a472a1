"""The ReAct runner against the local OpenAI-compatible fake server: scripted tool-calling conversations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gaia_eval.bench.cli_support import run_bench_command
from gaia_eval.bench.metrics import run_suite
from gaia_eval.bench.react import ReactRunner, parse_react_spec
from gaia_eval.bench.suites import load_builtin
from gaia_eval.bench.tasks import TaskSpec
from gaia_eval.concurrency import RetryPolicy
from gaia_eval.errors import UsageError
from gaia_eval.providers import ProviderSettings
from gaia_eval.scoring.answers.concise import CONCISE_ANSWER_SYSTEM_PROMPT


def runner_for(fake_llm, **options) -> ReactRunner:
    settings = ProviderSettings(provider="vllm", model="fake-agent", base_url=fake_llm.openai_base_url)
    return ReactRunner(settings, retry_policy=RetryPolicy(max_retries=0, timeout_s=10), **options)


def tool_call(name: str, **arguments: object) -> dict:
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


def test_scripted_tool_calling_conversation_solves_a_task(fake_llm) -> None:
    fake_llm.script(
        [
            tool_call("calculator", expression="17*23"),
            tool_call("calculator", expression="391 - 100"),
            {"text": "17 * 23 = 391, and 391 - 100 = 291.\nFINAL ANSWER: 291"},
        ]
    )
    task = load_builtin("arithmetic").tasks[0]
    report = run_suite(runner_for(fake_llm), [task], suite_name="arithmetic")
    row = report.tasks[0]
    attempt = row.attempts[0]
    assert row.passed and attempt.answer == "291"
    assert (report.avg_steps, report.tool_error_rate) == (3, 0)
    tool_results = [m["content"] for m in attempt.trajectory if m["role"] == "tool"]
    assert tool_results == ["391", "291"]
    assert attempt.usage is not None and attempt.usage.input_tokens > 0

    first, second = (request["body"] for request in fake_llm.requests[:2])
    assert [tool["function"]["name"] for tool in first["tools"]] == ["calculator", "lookup"]
    system = first["messages"][0]
    assert system["role"] == "system" and "calculator" in system["content"]
    assert CONCISE_ANSWER_SYSTEM_PROMPT in system["content"]
    assert first["messages"][-1] == {"role": "user", "content": task.prompt}
    assistant, tool_message = second["messages"][-2:]
    assert json.loads(assistant["tool_calls"][0]["function"]["arguments"]) == {"expression": "17*23"}
    assert tool_message == {"role": "tool", "tool_call_id": assistant["tool_calls"][0]["id"], "content": "391"}


def test_tool_errors_are_counted_and_the_agent_can_recover(fake_llm) -> None:
    fake_llm.script(
        [
            tool_call("lookup", key="cfo"),
            tool_call("lookup", key="ceo"),
            {"text": "FINAL ANSWER: Ilse Marrow"},
        ]
    )
    task = TaskSpec("ceo", "Who is the CEO of Orrery Dynamics?", "contains", ["Ilse Marrow"])
    report = run_suite(runner_for(fake_llm), [task])
    assert report.success_rate == 1.0
    assert report.tool_error_rate == pytest.approx(1 / 3)
    tool_results = [m["content"] for m in report.tasks[0].attempts[0].trajectory if m["role"] == "tool"]
    assert tool_results[0].startswith("error: no entry for 'cfo'") and tool_results[1] == "Ilse Marrow"


def test_step_limit_fails_the_task_and_keeps_the_trajectory(fake_llm) -> None:
    fake_llm.script([tool_call("calculator", expression="1+1")] * 2)
    report = run_suite(runner_for(fake_llm, max_steps=2), [TaskSpec("t", "loop forever", "numeric", 2)])
    attempt = report.tasks[0].attempts[0]
    assert not attempt.passed and attempt.steps == 2
    assert attempt.explanation == "runner gave up: no final answer within the step limit of 2"
    assert len([m for m in attempt.trajectory if m["role"] == "tool"]) == 2


def test_provider_failure_is_a_failed_task_not_a_crash(fake_llm) -> None:
    fake_llm.script([{"fault": "400"}, {"text": "FINAL ANSWER: 2"}])
    tasks = [TaskSpec("a", "one", "numeric", 2), TaskSpec("b", "two", "numeric", 2)]
    report = run_suite(runner_for(fake_llm), tasks, concurrency=1)
    rows = {row.task.id: row for row in report.tasks}
    assert rows["a"].errored and "BadRequestError" in rows["a"].attempts[0].error
    assert rows["b"].passed


def test_react_spec_parsing() -> None:
    assert parse_react_spec("ollama:qwen3:4b") == ProviderSettings(provider="ollama", model="qwen3:4b")
    with_url = parse_react_spec("vllm:my-org/model@http://gpu:8000/v1")
    assert (with_url.model, with_url.base_url) == ("my-org/model", "http://gpu:8000/v1")
    with pytest.raises(UsageError, match="cannot call tools"):
        parse_react_spec("baseline:echo")
    with pytest.raises(UsageError, match="react:PROVIDER:MODEL"):
        parse_react_spec("ollama")


def test_bench_command_with_a_react_runner_on_a_local_server(fake_llm, tmp_path: Path, capsys) -> None:
    suite = tmp_path / "one.jsonl"
    suite.write_text(json.dumps({"id": "q1", "prompt": "What is 6 * 7?", "kind": "numeric", "expected": 42}) + "\n")
    fake_llm.script([tool_call("calculator", expression="6 * 7"), {"text": "FINAL ANSWER: 42"}])
    code = run_bench_command(str(suite), runner=f"react:vllm:fake-agent@{fake_llm.openai_base_url}")
    out = capsys.readouterr().out
    assert code == 0
    assert "success rate     100.0% (1/1)" in out and "avg steps        2.00" in out


def test_a_task_over_its_wall_time_limit_fails_with_that_reason_and_keeps_its_trajectory(fake_llm) -> None:
    fake_llm.script([tool_call("calculator", expression="1+1"), {"fault": "hang"}])  # the second turn never answers
    # The limit must outlast the first (answered) turn on a loaded machine, which sets up the SDK client.
    runner = runner_for(fake_llm, task_timeout_s=3.0)
    report = run_suite(runner, [TaskSpec("t", "what is 1+1?", "numeric", 2)])
    attempt = report.tasks[0].attempts[0]
    assert not attempt.passed and "task time limit of 3s" in attempt.explanation
    assert attempt.steps == 1 and any(m["role"] == "tool" for m in attempt.trajectory)


def test_the_limits_a_slow_local_model_needs_are_options(fake_llm, tmp_path: Path, capsys) -> None:
    from click.testing import CliRunner

    from gaia_eval.cli import cli

    suite = tmp_path / "one.jsonl"
    suite.write_text(json.dumps({"id": "q1", "prompt": "What is 6 * 7?", "kind": "numeric", "expected": 42}) + "\n")
    fake_llm.script([tool_call("calculator", expression="6 * 7")] * 3)
    result = CliRunner().invoke(
        cli,
        [
            "bench",
            str(suite),
            "--runner",
            f"react:vllm:fake-agent@{fake_llm.openai_base_url}",
            "--max-steps",
            "1",
            "--reply-tokens",
            "77",
            "--attempt-timeout",
            "9",
            "--task-timeout",
            "60",
            "-o",
            str(tmp_path / "r.json"),
        ],
    )
    assert "step limit of 1" in result.output
    assert fake_llm.requests[0]["body"]["max_tokens"] == 77
    assert not (tmp_path / "r.json.partial.jsonl").exists() and (tmp_path / "r.json").exists()


def test_a_killed_bench_run_leaves_the_attempts_it_finished(fake_llm, tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    suite = tmp_path / "s.jsonl"
    suite.write_text("".join(json.dumps({"id": f"q{i}", "prompt": f"What is {i} + 1?", "kind": "numeric",
                                         "expected": i + 1}) + "\n" for i in range(6)))
    fake_llm.script([{"text": "FINAL ANSWER: 1"}, {"fault": "hang"}])  # one task finishes, the next hangs
    out = tmp_path / "r.json"
    proc = subprocess.Popen([sys.executable, "-m", "gaia_eval", "bench", str(suite), "--runner",
                             f"react:vllm:fake-agent@{fake_llm.openai_base_url}", "--concurrency", "1", "-o", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    partial = Path(f"{out}.partial.jsonl")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (partial.exists() and partial.read_bytes().count(b"\n") >= 1):
        time.sleep(0.02)  # wait for the observed event: the first attempt is journaled
    os.kill(proc.pid, signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL
    lines = [json.loads(line) for line in partial.read_text().splitlines()]
    assert len(lines) == 1 and lines[0]["task_id"] == "q0"
