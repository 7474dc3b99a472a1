"""Bench runners are an open registry (gaia_eval.registry.BENCH_RUNNERS): a runner added by name (a built-in entry,
or an entry point of the group `gaia_eval.bench_runners`) runs `gaia-eval bench --runner NAME`; a function is named
as `module:function` or `path/to/file.py:function`, with or without today's `python:` prefix, and loaded by
gaia_eval.registry.load; an unknown runner is one line and exit 2 naming every registered one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gaia_eval.bench.runners import resolve_runner
from gaia_eval.bench.runs import EvalRun
from gaia_eval.cli import cli
from gaia_eval.errors import UsageError
from gaia_eval.registry import BENCH_RUNNERS
from tests.registry_support import fake_entry_points

ASKED: list[str] = []


def answer_42(prompt: str) -> str:
    ASKED.append(prompt)
    return "The answer is 42."


def answer_7(prompt: str) -> dict[str, Any]:
    return {"answer": "7", "steps": 2}


@pytest.fixture
def suite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two tasks whose answer is 42, in a folder of their own (the working directory)."""
    monkeypatch.chdir(tmp_path)
    ASKED.clear()
    path = tmp_path / "life.jsonl"
    path.write_text("\n".join(json.dumps({"id": f"q{n}", "prompt": f"Question {n}?", "kind": "numeric",
                                          "expected": 42}) for n in (1, 2)) + "\n")
    return path


def _bench(suite: Path, runner: str) -> Any:
    return CliRunner().invoke(cli, ["bench", str(suite), "--runner", runner])


def _passed(result: Any) -> bool:
    return result.exit_code == 0 and "success rate     100.0% (2/2)" in result.output


def test_a_registered_runner_runs_by_name(suite: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BENCH_RUNNERS.builtin, "deep-thought", "tests.test_bench_runners:answer_42")
    monkeypatch.setattr(BENCH_RUNNERS, "_loaded", {})
    for spec in ("deep-thought", "builtin:deep-thought"):
        ASKED.clear()
        result = _bench(suite, spec)
        assert _passed(result), result.output
        assert sorted(ASKED) == ["Question 1?", "Question 2?"]
    assert resolve_runner("calculator")("What is 6 * 7?").answer == "42"  # the built-in one is still there


def test_a_package_adds_a_runner_through_an_entry_point(suite: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_entry_points(monkeypatch, BENCH_RUNNERS, **{"deep-thought": "tests.test_bench_runners:answer_42",
                                                     "seven": "tests.test_bench_runners:answer_7",
                                                     "calculator": "tests.test_bench_runners:answer_7"})
    assert BENCH_RUNNERS.names() == ("calculator", "deep-thought", "seven")
    assert _passed(_bench(suite, "deep-thought"))
    assert resolve_runner("seven")("?") == EvalRun(answer="7", steps=2)
    assert resolve_runner("builtin:calculator")("What is 6 * 7?").answer == "42"  # not replaced by the plugin


def test_a_function_named_by_module_or_file_with_or_without_python_prefix(suite: Path, tmp_path: Path) -> None:
    agent = tmp_path / "agents" / "oracle.py"
    agent.parent.mkdir()
    agent.write_text("def run(prompt):\n    return {'answer': '42', 'steps': 3}\n")
    for spec in ("tests.test_bench_runners:answer_42", "python:tests.test_bench_runners:answer_42",
                 "agents/oracle.py:run", f"python:{agent}:run"):
        assert _passed(_bench(suite, spec)), spec
    with pytest.raises(UsageError, match=r"runner module file not found: nowhere\.py"):
        resolve_runner("nowhere.py:run")


@pytest.mark.parametrize("spec", ["deep-thougth", "builtin:deep-thougth"])
def test_an_unknown_runner_is_one_line_exit_2_naming_every_runner(suite: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  spec: str) -> None:
    fake_entry_points(monkeypatch, BENCH_RUNNERS, **{"deep-thought": "tests.test_bench_runners:answer_42"})
    result = _bench(suite, spec)
    assert result.exit_code == 2
    line, = result.output.splitlines()
    assert "unknown runner 'deep-thougth'" in line and "use one of: calculator, deep-thought" in line, line
    assert "--runner" in line


def test_a_spec_naming_no_runner_kind_and_no_module_is_an_unknown_spec(suite: Path) -> None:
    result = _bench(suite, "ssh:host")
    assert result.exit_code == 2 and "unknown runner spec 'ssh:host'" in result.output
    assert len(result.output.splitlines()) == 1
