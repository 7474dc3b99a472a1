"""The agent benchmark harness offline: checkers, tools, suite loading, runners, metrics, baselines, the gate
and the `bench` command logic."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gaia_eval.bench.arithmetic_solver import expression_for, solve_arithmetic
from gaia_eval.bench.cli_support import run_bench_command
from gaia_eval.bench.gate import (
    Baseline,
    load_baseline,
    mcnemar_exact_p,
    regression_gate,
    save_baseline,
)
from gaia_eval.bench.metrics import run_suite
from gaia_eval.bench.report import render_report
from gaia_eval.bench.runners import CommandRunner, resolve_runner
from gaia_eval.bench.runs import EvalRun
from gaia_eval.bench.suites import load_builtin, load_suite, resolve_suite
from gaia_eval.bench.tasks import TaskSpec, TaskSpecError
from gaia_eval.bench.tools import calculator_tool, execute_tool, lookup_tool
from gaia_eval.errors import InputError, UsageError

STUBS = Path(__file__).parent / "data" / "bench"


def write_jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def task(task_id: str = "t1", kind: str = "numeric", expected: object = 2, **metadata: object) -> TaskSpec:
    return TaskSpec(id=task_id, prompt="q?", kind=kind, expected=expected, metadata=dict(metadata))


@pytest.fixture
def stubs_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(STUBS))


# --- checkers --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "expected", "passed"),
    [
        ("The answer is 12", 2, False),
        ("The answer is 12", 12, True),
        ("19270", 1927, False),
        ("1927", 19270, False),
        ("It was 19,270 people.", 19270, True),
        ("17 * 23 = 391, minus 100 gives 291.", 291, True),
        ("17-23 = -6", -6, True),  # the 23 of "17-23" is no negative number
        ("The answer is 12, not 2", 2, False),  # a denied number is not the answer, though it comes last
        ("FINAL ANSWER: 42 (checked 3 times)", 42, True),  # the marked answer, not the last number
        ("It is at least 2.", 2, False),
        ("$70,000", 70000, True),
        ("20.25", 20.25, True),
        ("The parcel weighs 12kg", 12, True),
        ("no idea", 3, False),
    ],
)
def test_numeric_compares_the_number_the_answer_gives(answer: str, expected: float, passed: bool) -> None:
    assert task(expected=expected).check(answer) is passed


def test_numeric_tolerance_comes_from_metadata_and_is_explained() -> None:
    assert task(expected=3.14, tolerance=0.01).check("pi is about 3.14159")
    verdict = task(expected=3.14).judge("pi is about 3.14159")
    assert not verdict.passed
    assert "3.14159 != expected 3.14" in verdict.explanation
    assert "no number" in task(expected=3).judge("I refuse").explanation


@pytest.mark.parametrize(
    ("answer", "expected", "passed"),
    [
        ("It is PARIS.", "Paris", True),
        ("Parisian food", "Paris", False),
        ("founded in 19270", "1927", False),
        ("founded in 1927.", "1927", True),
        ("in new\n york city", "New York", True),
        ("the Big Apple", ["New York", "big apple"], True),
        ("Boston", ["New York", "NYC"], False),
    ],
)
def test_contains_matches_whole_tokens_case_insensitively(answer: str, expected: object, passed: bool) -> None:
    assert task(kind="contains", expected=expected).check(answer) is passed


def test_regex_and_exact_kinds() -> None:
    assert task(kind="regex", expected=r"\b(?:Mon|Tues)day\b").check("It was a Tuesday")
    assert not task(kind="regex", expected=r"^\d+$").check("12 apples")
    assert task(kind="exact", expected="Ilse Marrow").check("  Ilse Marrow\n")
    assert not task(kind="exact", expected="Ilse Marrow").check("ilse marrow")
    assert task(kind="exact", expected=["A", "B"]).check("B")


def test_gaia_kind_uses_the_answer_matcher() -> None:
    gaia = task(kind="gaia", expected="Paris")
    assert gaia.check("Paris")
    assert not gaia.check("London")


@pytest.mark.parametrize(
    ("kind", "expected", "message"),
    [
        ("numerc", 2, "unknown kind 'numerc'"),
        ("numeric", "two", "needs a number"),
        ("regex", "(", "invalid regex"),
        ("contains", [], "at least one expected"),
    ],
)
def test_bad_task_specs_are_rejected_with_the_reason(kind: str, expected: object, message: str) -> None:
    with pytest.raises(TaskSpecError, match=message):
        task(kind=kind, expected=expected)


# --- tools and the builtin solver ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "result"),
    [
        ("17 * 23 - 100", "291"),
        ("2^10", "1024"),
        ("sqrt(7056) + 12**3", "1812"),
        ("round(37 / 270 * 100, 1)", "13.7"),
        ("max(3, -4) % 2", "1"),
        ("81 / 4", "20.25"),
    ],
)
def test_calculator_computes(expression: str, result: str) -> None:
    assert calculator_tool(expression) == result


@pytest.mark.parametrize(
    ("expression", "reason"),
    [
        ("__import__('os').system('true')", "unknown function"),
        ("open('x')", "unknown function 'open'"),
        ("(2).real", "Attribute is not allowed"),
        ("2 ** 100000", "exponent"),
        ("1 / 0", "division by zero"),
        ("1,000 + 1", "thousands separators"),
        ("3 & 1", "not supported"),
        ("True + 1", "unsupported value"),
        ("sqrt(-1)", "sqrt()"),
        ("(1", "cannot parse"),
    ],
)
def test_calculator_refuses_with_an_error_message(expression: str, reason: str) -> None:
    result = calculator_tool(expression)
    assert result.startswith("error:")
    assert reason in result


def test_lookup_tool_and_tool_dispatch() -> None:
    assert lookup_tool("Engineering  Headcount") == "148"
    missing = lookup_tool("cfo")
    assert missing.startswith("error: no entry for 'cfo'") and "engineering headcount" in missing
    assert execute_tool("calculator", {"expression": "1+1"}) == "2"
    assert execute_tool("calculator", {}).startswith("error:")
    assert execute_tool("search", {"q": "x"}).startswith("error: unknown tool")


def test_builtin_solver_rewrites_questions_and_admits_defeat() -> None:
    assert expression_for("What is 5 plus 3, multiplied by 2?") == "(5 + 3) * 2"
    assert expression_for("What is 15% of 240, plus 4?") == "((15 / 100) * 240) + 4"
    run = solve_arithmetic("What is 17 * 23 minus 100?")
    assert (run.answer, run.steps, run.tool_errors) == ("291", 1, 0)
    assert run.trajectory[-1] == {"role": "tool", "tool_call_id": "call_1", "name": "calculator", "content": "291"}
    story = solve_arithmetic("Tom has 3 bags with 14 apples each. How many apples?")
    assert "cannot" in story.answer


# --- suites ----------------------------------------------------------------------------------------


def test_builtin_suites_load() -> None:
    arithmetic = load_builtin("arithmetic")
    assert len(arithmetic.tasks) >= 20
    first = arithmetic.tasks[0]
    assert (first.prompt, first.expected) == ("What is 17 * 23 minus 100?", 291)
    tool_use = load_builtin("tool_use")
    assert {t.kind for t in tool_use.tasks} == {"numeric", "contains"}
    assert arithmetic.fingerprint.startswith("sha256:") and arithmetic.fingerprint != tool_use.fingerprint
    with pytest.raises(UsageError, match="no builtin suite 'nope'"):
        load_builtin("nope")


def test_native_json_and_jsonl_suites(tmp_path: Path) -> None:
    records = [
        {"id": "a", "prompt": "1+1?", "kind": "numeric", "expected": "2"},
        {"id": "b", "prompt": "capital?", "kind": "contains", "expected": ["Paris"], "metadata": {"level": 1}},
    ]
    jsonl = load_suite(write_jsonl(tmp_path / "mine.jsonl", records))
    (tmp_path / "list.json").write_text(json.dumps(records))
    (tmp_path / "obj.json").write_text(json.dumps({"tasks": records}))
    as_list, as_obj = load_suite(tmp_path / "list.json"), load_suite(tmp_path / "obj.json")
    assert jsonl.name == "mine" and [t.id for t in jsonl.tasks] == ["a", "b"]
    assert (
        jsonl.tasks[0].expected == 2
        and isinstance(jsonl.tasks[0].expected, int)
        and jsonl.tasks[1].metadata == {"level": 1}
    )
    assert jsonl.fingerprint == as_list.fingerprint == as_obj.fingerprint
    records[0]["expected"] = 3
    assert load_suite(write_jsonl(tmp_path / "mine.jsonl", records)).fingerprint != jsonl.fingerprint


def test_gaia_metadata_and_gsm8k_files(tmp_path: Path) -> None:
    gaia = load_suite(
        write_jsonl(
            tmp_path / "metadata.jsonl",
            [
                {"task_id": "c61d", "Question": "Which city?", "Level": 1, "Final answer": "Paris", "file_name": ""},
                {"task_id": "e1f2", "Question": "How many?", "Level": "2", "Final answer": 17, "file_name": "t.xlsx"},
            ],
        )
    )
    assert [(t.id, t.kind, t.expected) for t in gaia.tasks] == [("c61d", "gaia", ["Paris"]), ("e1f2", "gaia", ["17"])]
    assert gaia.tasks[1].metadata == {"level": "2", "file_name": "t.xlsx"}
    gsm = load_suite(
        write_jsonl(
            tmp_path / "gsm8k.jsonl",
            [
                {"question": "Eggs?", "answer": "16 - 3 - 4 = 9\n9 * 2 = 18\n#### 18"},
                {"question": "Q", "answer": "#### 1,200"},
            ],
        )
    )
    assert [(t.id, t.kind, t.expected) for t in gsm.tasks] == [
        ("gsm8k-0001", "numeric", 18),
        ("gsm8k-0002", "numeric", 1200),
    ]
    assert gsm.tasks[0].check("She makes $18 a day.")


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (['{"id": "a", "prompt": "p", "kind": "numeric", "expected": 1}', "{not json"], "mine.jsonl:2: not valid JSON"),
        (
            ['{"id": "a", "prompt": "p", "kind": "vibes", "expected": 1}'],
            "mine.jsonl:1: task 'a': unknown kind 'vibes'",
        ),
        (['{"id": "a", "prompt": "p", "kind": "numeric"}'], "mine.jsonl:1: missing key(s) expected"),
        (['{"id": "a", "prompt": "p", "kind": "numeric", "expected": 1, "answer": 1}'], "unknown key(s) answer"),
        (["", '{"question": "q", "answer": "no final line"}'], "mine.jsonl:2: GSM8K 'answer' must end with"),
        (['{"id": "a", "prompt": "p", "kind": "exact", "expected": "x"}'] * 2, "mine.jsonl:2: duplicate task id 'a'"),
        (
            ['{"task_id": "g1", "Question": "q", "Final answer": "?"}'],
            "mine.jsonl:1: GAIA task 'g1' has no 'Final answer'",
        ),
        (["[1, 2]"], "mine.jsonl:1: a task must be a JSON object"),
        (['{"title": "x"}'], "mine.jsonl:1: not a task"),
        ([""], "suite has no tasks"),
    ],
)
def test_bad_suite_files_name_the_file_and_line(tmp_path: Path, lines: list[str], message: str) -> None:
    path = tmp_path / "mine.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError) as caught:
        load_suite(path)
    assert message in str(caught.value)


def test_bad_json_suite_names_the_task_index(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"tasks": [{"id": "a", "prompt": "p", "kind": "numeric", "expected": "x"}]}))
    with pytest.raises(InputError, match=r"s.json: tasks\[0\]: task 'a': kind 'numeric' needs a number"):
        load_suite(path)
    path.write_text('{"tasks": 3}')
    with pytest.raises(InputError, match="a list of tasks"):
        load_suite(path)


def test_resolve_suite_prefers_files_and_explains_unknown_names(tmp_path: Path) -> None:
    assert resolve_suite("arithmetic").name == "arithmetic"
    with pytest.raises(UsageError, match=r"unknown suite 'arithmetik'.*arithmetic"):
        resolve_suite("arithmetik")
    with pytest.raises(InputError, match="suite file not found"):
        resolve_suite(str(tmp_path / "missing.jsonl"))


# --- runners ---------------------------------------------------------------------------------------


def test_cmd_runner_plain_text_and_json(tmp_path: Path) -> None:
    plain = CommandRunner("tr -d '?' | wc -w")("What is 17 * 23 minus 100?")
    assert (plain.answer, plain.steps, plain.tool_errors) == ("7", 1, 0)
    payload = {
        "answer": "291",
        "steps": 3,
        "trajectory": [{"role": "tool", "content": "error: bad key"}, {"role": "tool", "content": "4"}],
    }
    script = tmp_path / "agent.json"
    script.write_text(json.dumps(payload))
    structured = resolve_runner(f"cmd:'cat {script}'")("ignored")
    assert (structured.answer, structured.steps, structured.tool_errors) == ("291", 3, 1)
    assert structured.trajectory == payload["trajectory"]


def test_cmd_runner_failures_become_failed_tasks() -> None:
    tasks = [task("a"), task("b")]
    report = run_suite(resolve_runner("cmd:echo oops >&2; exit 3"), tasks)
    assert report.success_rate == 0 and report.runner_errors == 2
    assert "command exited with status 3: oops" in report.tasks[0].attempts[0].error
    bad_json = run_suite(resolve_runner("""cmd:echo '{"answer": 2, "steps": -1}'"""), [task("a")])
    assert "'answer' must be a string" in bad_json.tasks[0].attempts[0].error


def test_python_runner_spec(stubs_on_path: None) -> None:
    runner = resolve_runner("python:stub_runners:answer_one")
    assert runner("What is 17 * 23 minus 100?") == EvalRun(answer="291")
    for spec, message in [
        ("python:no_such_module_xyz:run", "cannot import runner module"),
        ("python:stub_runners:missing", "stub_runners has no 'missing'"),
        ("python:stub_runners:NOT_CALLABLE", "has no function"),
        ("python:stub_runners", "write python:module.path:function"),
        ("builtin:oracle", "unknown runner 'oracle'.*use one of: calculator"),
        ("ssh:host", "unknown runner spec"),
        ("react:nosuch:model", "unknown provider 'nosuch'"),
    ]:
        with pytest.raises(UsageError, match=message):
            resolve_runner(spec)


# --- metrics ---------------------------------------------------------------------------------------


def test_run_suite_aggregates_rows_and_survives_runner_exceptions() -> None:
    tasks = [
        TaskSpec("ok", "ok", "numeric", 4),
        TaskSpec("wrong", "wrong", "numeric", 5),
        TaskSpec("crash", "crash", "numeric", 6),
    ]
    answers = {"ok": EvalRun("4", steps=3, tool_errors=1), "wrong": EvalRun("the answer is 15", steps=1)}

    def runner(prompt: str) -> EvalRun:
        if prompt == "crash":
            raise ValueError("model exploded")
        return answers[prompt]

    report = run_suite(runner, tasks, concurrency=2)
    assert report.success_rate == pytest.approx(1 / 3)
    assert report.avg_steps == pytest.approx(4 / 2)  # the crashed attempt took no steps and is not averaged in
    assert report.tool_error_rate == pytest.approx(1 / 4)
    rows = {row.task.id: row for row in report.tasks}
    assert rows["wrong"].attempts[0].explanation == (
        "number: the answer 15 != expected 5 (read after the 'the answer is' phrase); tolerance 1e-06")
    assert rows["crash"].attempts[0].error == "ValueError: model exploded" and not rows["crash"].passed
    text = render_report(report)
    assert "ERROR" in text and "success rate     33.3% (1/3)" in text
    assert "avg steps        2.00" in text and "tool error rate  25.0% (1 errors / 4 steps)" in text


def test_repeats_give_pass_rates_and_pass_hat_k(tmp_path: Path) -> None:
    flaky_answers = iter(["2", "0", "2"])

    def runner(prompt: str) -> str:
        return "1" if prompt == "steady" else next(flaky_answers)

    tasks = [TaskSpec("steady", "steady", "numeric", 1), TaskSpec("flaky", "flaky", "numeric", 2)]
    report = run_suite(runner, tasks, concurrency=1, repeats=3)
    rates = {row.task.id: row.pass_rate for row in report.tasks}
    assert rates == {"steady": 1.0, "flaky": pytest.approx(2 / 3)}
    assert report.pass_hat_k == 0.5 and report.success_rate == pytest.approx(5 / 6)
    assert "pass^3           50.0%" in render_report(report) and "2/3" in render_report(report)
    report.to_json(tmp_path / "results.json")
    saved = json.loads((tmp_path / "results.json").read_text())
    assert saved["pass_hat_k"] == 0.5 and len(saved["tasks"][1]["attempts"]) == 3


def test_results_json_keeps_trajectories(tmp_path: Path) -> None:
    report = run_suite(solve_arithmetic, load_builtin("arithmetic").tasks[:2], suite_name="arithmetic")
    report.to_json(tmp_path / "out.json")
    saved = json.loads((tmp_path / "out.json").read_text())
    attempt = saved["tasks"][0]["attempts"][0]
    assert attempt["trajectory"][0]["tool_calls"][0]["arguments"] == {"expression": "17 * 23 - 100"}
    assert {"success_rate", "avg_steps", "tool_error_rate", "suite_fingerprint"} <= saved.keys()


# --- baselines and the gate ------------------------------------------------------------------------


def report_with(passes: list[bool], steps: int = 1, tool_errors: int = 0):
    tasks = [TaskSpec(f"t{i}", f"t{i}", "exact", "yes") for i in range(len(passes))]
    outcome = {f"t{i}": ok for i, ok in enumerate(passes)}
    return run_suite(lambda p: EvalRun("yes" if outcome[p] else "no", steps=steps, tool_errors=tool_errors), tasks)


def baseline_for(report, success_rate: float, tasks: dict[str, bool] | None = None, **fields: float) -> Baseline:
    values = {"avg_steps": 1.0, "tool_error_rate": 0.0, **fields}
    return Baseline(
        suite=report.suite,
        suite_fingerprint=report.suite_fingerprint,
        success_rate=success_rate,
        n=report.n,
        tasks=tasks,
        **values,
    )


def test_gate_decisions_and_messages() -> None:
    report = report_with([True] * 5 + [False])
    ok, message = regression_gate(report, baseline_for(report, 0.66))
    assert ok and message.splitlines()[0] == "[OK] success 83% vs baseline 66% (tol 5%)"
    ok, message = regression_gate(report, baseline_for(report, 0.95))
    assert not ok
    assert message.splitlines()[0] == "[REGRESSION] success 83% vs baseline 95% (tol 5%): success dropped more than 5%"
    assert regression_gate(report, baseline_for(report, 0.88))[0]  # 5 points down: inside the tolerance
    assert not regression_gate(report, baseline_for(report, 0.88), tolerance=0.01)[0]


def test_gate_paired_comparison_and_mcnemar() -> None:
    assert mcnemar_exact_p(0, 0) == 1.0
    assert mcnemar_exact_p(0, 5) == pytest.approx(0.0625)
    assert mcnemar_exact_p(1, 9) == pytest.approx(2 * 11 / 1024)
    assert mcnemar_exact_p(3, 3) == 1.0
    report = report_with([True, True, False, False])
    before = {"t0": True, "t1": False, "t2": True, "t3": True}
    ok, message = regression_gate(report, baseline_for(report, 0.75, before), tolerance=0.3)
    assert ok
    assert "paired (4 tasks): 2 newly failing (t2, t3), 1 newly passing (t1); exact McNemar p=1" in message


def test_gate_efficiency_limits_fail_at_flat_success() -> None:
    report = report_with([True, True], steps=4, tool_errors=1)
    baseline = baseline_for(report, 1.0, avg_steps=2.0, tool_error_rate=0.1)
    assert regression_gate(report, baseline)[0]  # no limits given: efficiency is reported, not gated
    ok, message = regression_gate(report, baseline, max_steps_increase=1.0)
    assert not ok and "avg steps rose by 2.00 (limit +1)" in message.splitlines()[0]
    ok, message = regression_gate(report, baseline, max_tool_error_increase=0.1)
    assert not ok and "tool error rate 25.0% vs baseline 10.0% (+15.0 points, limit +10)" in message
    assert "tool error rate rose by 15.0 points" in message.splitlines()[0]
    assert regression_gate(report, baseline, max_tool_error_increase=0.2, max_steps_increase=3)[0]


def test_baseline_round_trip_and_fingerprint_refusal(tmp_path: Path) -> None:
    report = report_with([True, False, True])
    path = tmp_path / "baselines" / "custom.json"
    save_baseline(report, path)
    on_disk = json.loads(path.read_text())
    assert set(on_disk) == {"suite", "suite_fingerprint", "success_rate", "avg_steps", "tool_error_rate", "n", "tasks",
                            "runner"}
    assert on_disk["tasks"] == {"t0": True, "t1": False, "t2": True}
    loaded = load_baseline(path)
    assert loaded.success_rate == pytest.approx(2 / 3) and loaded.n == 3
    assert regression_gate(report, path)[0]
    other = report_with([True, False, True, True])
    with pytest.raises(UsageError, match=r"the suite changed.*--save-baseline"):
        regression_gate(other, loaded)
    path.write_text('{"suite": "x"}')
    with pytest.raises(InputError, match="not a bench baseline"):
        load_baseline(path)


# --- the bench command -----------------------------------------------------------------------------


def test_stub_runner_answering_one_task_fails_the_gate(
    tmp_path: Path, stubs_on_path: None, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = load_builtin("arithmetic")
    report = run_suite(resolve_runner("python:stub_runners:answer_one"), suite)
    assert report.success_rate == pytest.approx(1 / len(suite.tasks))
    baseline = tmp_path / "arithmetic.json"
    baseline.write_text(
        json.dumps(
            {"suite": "arithmetic", "suite_fingerprint": suite.fingerprint, "success_rate": 0.66,
             "avg_steps": 1.0, "tool_error_rate": 0.0, "n": len(suite.tasks)}
        )
    )
    code = run_bench_command("arithmetic", runner="python:stub_runners:answer_one", baseline=str(baseline))
    out = capsys.readouterr().out
    assert code == 1
    assert "[REGRESSION] success 4% vs baseline 66% (tol 5%)" in out


def test_default_run_gates_on_the_shipped_baseline(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_bench_command("arithmetic") == 0
    out = capsys.readouterr().out
    assert "runner builtin:calculator" in out
    assert "[OK] success 75% vs baseline 75% (tol 5%)" in out


def test_save_baseline_then_gate_a_suite_file(tmp_path: Path, stubs_on_path: None, capsys) -> None:
    suite_path = write_jsonl(
        tmp_path / "mini.jsonl",
        [{"id": "m1", "prompt": "What is 17 * 23 minus 100?", "kind": "numeric", "expected": 291},
         {"id": "m2", "prompt": "What is 2 plus 2?", "kind": "numeric", "expected": 4}],
    )
    default_baseline = tmp_path / "baselines" / "mini.json"
    results = tmp_path / "results.json"
    assert run_bench_command(str(suite_path), save_baseline_to=str(default_baseline), output=str(results)) == 0
    assert load_baseline(default_baseline).success_rate == 1.0 and results.is_file()
    # The baseline records its runner: a run with another runner is refused, not compared.
    assert json.loads(default_baseline.read_text())["runner"] == "builtin:calculator"
    with pytest.raises(UsageError, match="made with runner 'builtin:calculator'"):
        run_bench_command(str(suite_path), runner="python:stub_runners:answer_one")
    data = json.loads(default_baseline.read_text())
    del data["runner"]
    default_baseline.write_text(json.dumps(data))
    # The next run finds baselines/mini.json next to the suite by itself.
    assert run_bench_command(str(suite_path), runner="python:stub_runners:answer_one") == 1
    out = capsys.readouterr().out
    assert f"gate vs {default_baseline}" in out and "1 newly failing (m2)" in out
    # Editing the suite invalidates the baseline: refused before the runner is called.
    stub_module = __import__("stub_runners")
    stub_module.CALLS.clear()
    write_jsonl(suite_path, [{"id": "m1", "prompt": "What is 17 * 23 minus 99?", "kind": "numeric", "expected": 292}])
    with pytest.raises(UsageError, match="the suite changed"):
        run_bench_command(str(suite_path), runner="python:stub_runners:recording")
    assert stub_module.CALLS == []


def test_missing_api_key_skips_unless_strict(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    assert run_bench_command("tool_use", runner="react:openai:gpt-4o-mini") == 0
    err = capsys.readouterr().err
    assert "OPENAI_API_KEY is not set" in err and "export OPENAI_API_KEY" in err and "nothing was gated" in err
    assert run_bench_command("tool_use", runner="react:openai:gpt-4o-mini", strict=True) == 2


def test_runner_that_cannot_run_exits_2(stubs_on_path: None, capsys) -> None:
    assert run_bench_command("arithmetic", runner="python:stub_runners:broken") == 2
    assert "the runner could not run" in capsys.readouterr().err
    with pytest.raises(UsageError, match="--tolerance"):
        run_bench_command("arithmetic", tolerance=5)
    with pytest.raises(UsageError, match="--repeats"):
        run_bench_command("arithmetic", repeats=0)


def test_bench_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_bench_command("list") == 0
    out = capsys.readouterr().out
    assert "arithmetic" in out and "24 tasks  baseline shipped" in out and "tool_use" in out


def test_with_ci_set_a_missing_key_fails_unless_skipping_is_allowed(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setenv("CI", "true")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    assert run_bench_command("tool_use", runner="react:openai:gpt-4o-mini") == 2
    assert "CI is set" in capsys.readouterr().err
    assert run_bench_command("tool_use", runner="react:openai:gpt-4o-mini", allow_skip=True) == 0


def test_documented_minimal_baseline_gates_with_a_note(tmp_path: Path, capsys) -> None:
    path = tmp_path / "arithmetic.json"
    path.write_text('{"success_rate": 0.6667, "avg_steps": 2.0, "tool_error_rate": 0.15, "n": 6}')
    assert run_bench_command("arithmetic", baseline=str(path)) == 0
    captured = capsys.readouterr()
    assert "[OK]" in captured.out and "no suite fingerprint" in captured.err
    path.write_text('{"success_rate": 0.99}')
    assert run_bench_command("arithmetic", baseline=str(path)) == 1
    assert "REGRESSION" in capsys.readouterr().out


def test_gating_a_suite_on_another_suites_baseline_names_the_other_suite():
    """It said "made on a different version of suite 'arithmetic'" when the run was suite tool_use."""
    from click.testing import CliRunner

    from gaia_eval.cli import cli

    baseline = (
        Path(__file__).resolve().parent.parent / "gaia_eval" / "bench" / "suites" / "baselines" / "arithmetic.json"
    )
    result = CliRunner().invoke(cli, ["bench", "tool_use", "--baseline", str(baseline)])
    assert result.exit_code == 2
    assert "baseline is for suite 'arithmetic', but this run is suite 'tool_use'" in result.output
    assert "different version" not in result.output
