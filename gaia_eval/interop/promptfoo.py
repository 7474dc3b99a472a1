"""promptfoo results files (`promptfoo eval -o results.json`, results format version 3 and later), read into
`ForeignRun`s: one per prompt and provider, each test case a sample.

The expected answer is the test's variable named by `target_var` when given, else the value of its first
string-matching assertion (`equals`, `contains`, `icontains`, `starts-with`); the test's pass/fail (`success`) is
the score `pass`, each assertion a score of its own (`<type>`, `<type>#2` for a second of one type).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gaia_eval.errors import InputError
from gaia_eval.interop.records import ForeignRun, ForeignSample, ForeignScore, score_number, shaped, token_count

TARGET_ASSERTIONS = ("equals", "contains", "icontains", "starts-with")
ERROR_FAILURE = 2  # promptfoo's failureReason for a test that errored (1: an assertion failed)
_EXACT = ("testIdx", "success", "score")


def is_promptfoo_results(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("results"), dict) and "prompts" in data["results"]


def read_promptfoo(path: Path, data: dict[str, Any], *, target_var: str | None = None) -> list[ForeignRun]:
    body = data["results"]
    rows = body.get("results")
    if not isinstance(rows, list):
        raise InputError("has no list of results (results.results)", file=path, field="results.results",
                         fix="pass a file written by `promptfoo eval -o results.json`")
    prompts = body.get("prompts") or []
    config = data.get("config") or {}
    description = str(config.get("description") or "promptfoo")
    run_extra = {k: v for k, v in data.items() if k != "results"}
    run_extra.update({k: v for k, v in body.items() if k not in ("results", "prompts")})
    runs: dict[tuple[int, str], ForeignRun] = {}
    samples: dict[tuple[int, str], list[ForeignSample]] = {}
    for number, row in enumerate(rows):
        if not isinstance(row, dict):
            raise InputError("holds a result that is not an object", file=path, field="results.results",
                             fix="pass a file written by `promptfoo eval -o results.json`")
        shaped(path, f"results.results[{number}]", _add_row, path, row, prompts, description, run_extra, runs, samples,
               target_var)
    for key, run in runs.items():
        run.read_samples = samples[key].copy
    return list(runs.values())


def _add_row(path: Path, row: dict[str, Any], prompts: list[Any], description: str, run_extra: dict[str, Any],
             runs: dict[tuple[int, str], ForeignRun], samples: dict[tuple[int, str], list[ForeignSample]],
             target_var: str | None) -> None:
    """The row's sample added to the run of its prompt and provider (the run made on its first row)."""
    prompt_idx = int(row.get("promptIdx") or 0)
    provider = row.get("provider") or {}
    model = str(provider.get("label") or provider.get("id") or "unknown") if isinstance(provider, dict) \
        else str(provider)
    key = (prompt_idx, model)
    if key not in runs:
        prompt = prompts[prompt_idx] if 0 <= prompt_idx < len(prompts) else {}
        task = description if len(prompts) <= 1 else f"{description} [{prompt.get('label') or prompt_idx}]"
        metrics = prompt.get("metrics") or {}
        samples[key] = []
        runs[key] = ForeignRun(tool="promptfoo", task=task, model=model, read_samples=samples[key].copy,
                               aggregates=_aggregates(metrics), extra={**run_extra, "prompt": prompt})
    samples[key].append(_sample(path, row, target_var))


def _aggregates(metrics: dict[str, Any]) -> dict[str, float]:
    counts = [metrics.get(k) for k in ("testPassCount", "testFailCount", "testErrorCount")]
    if all(isinstance(c, int) for c in counts) and sum(counts):  # type: ignore[arg-type]
        return {"pass/pass_rate": counts[0] / sum(counts)}  # type: ignore[arg-type,operator]
    return {}


def _sample(path: Path, row: dict[str, Any], target_var: str | None) -> ForeignSample:
    test = row.get("testCase") or {}
    variables = row.get("vars") or test.get("vars") or {}
    response = row.get("response") or {}
    output = response.get("output", "")
    grading = row.get("gradingResult") or {}
    scores = [ForeignScore(name="pass", value=1.0 if row.get("success") else 0.0, passed=bool(row.get("success")),
                           raw={"success": row.get("success"), "score": row.get("score")},
                           explanation=grading.get("reason") if isinstance(grading.get("reason"), str) else None)]
    seen: dict[str, int] = {}
    for component in grading.get("componentResults") or []:
        kind = str((component.get("assertion") or {}).get("type") or "assertion")
        seen[kind] = seen.get(kind, 0) + 1
        scores.append(ForeignScore(
            name=kind if seen[kind] == 1 else f"{kind}#{seen[kind]}", value=score_number(component.get("score")),
            passed=component.get("pass") if isinstance(component.get("pass"), bool) else None, raw=component,
            explanation=component.get("reason") if isinstance(component.get("reason"), str) else None))
    usage = response.get("tokenUsage") or row.get("tokenUsage") or {}
    cost, latency = row.get("cost"), row.get("latencyMs")
    extra = {k: v for k, v in row.items() if k not in _EXACT}
    if isinstance(response.get("output"), str):  # the output is the item's answer: kept once
        extra["response"] = {k: v for k, v in response.items() if k != "output"}
    if grading.get("componentResults"):  # each component is a score's raw value
        extra["gradingResult"] = {k: v for k, v in grading.items() if k != "componentResults"}
    errored = row.get("failureReason") == ERROR_FAILURE
    return ForeignSample(
        sample_id=str(row.get("testIdx", len(extra))),
        input=str((row.get("prompt") or {}).get("raw") or ""),
        targets=_targets(path, test, variables, target_var),
        output=output if isinstance(output, str) else json.dumps(output, ensure_ascii=False),
        scores=scores,
        input_tokens=token_count(usage.get("prompt")),
        output_tokens=token_count(usage.get("completion")),
        cost_usd=float(cost) if isinstance(cost, (int, float)) and cost >= 0 else None,
        latency_s=latency / 1000 if isinstance(latency, (int, float)) and latency >= 0 else None,
        error=str(row.get("error") or "failed") if errored else None,
        extra=extra,
    )


def _targets(path: Path, test: dict[str, Any], variables: dict[str, Any], target_var: str | None) -> list[str]:
    if target_var is not None:
        if target_var not in variables:
            raise InputError(f"a test has no variable '{target_var}'", file=path, field=f"vars.{target_var}",
                             fix="name a variable every test sets with --target-var")
        value = variables[target_var]
        return [str(v) for v in value] if isinstance(value, list) else [str(value)]
    for assertion in test.get("assert") or []:
        if isinstance(assertion, dict) and assertion.get("type") in TARGET_ASSERTIONS:
            value = assertion.get("value")
            if isinstance(value, str):
                return [value]
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                return list(value)
    return []


def restore_row(sample: ForeignSample) -> dict[str, Any]:
    """The result row as the file held it, from what the import keeps (the proof that nothing was lost)."""
    row = dict(sample.extra)
    passed = next(s for s in sample.scores if s.name == "pass").raw
    assert isinstance(passed, dict)
    components = [s.raw for s in sample.scores if s.name != "pass"]
    if components and isinstance(row.get("gradingResult"), dict):
        row["gradingResult"] = {**row["gradingResult"], "componentResults": components}
    if isinstance(row.get("response"), dict) and "output" not in row["response"]:
        row["response"] = {**row["response"], "output": sample.output}
    return {**row, "testIdx": int(sample.sample_id), "success": passed["success"], "score": passed["score"]}
