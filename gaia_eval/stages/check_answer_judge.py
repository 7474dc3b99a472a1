"""`check-answer --mode judge`: one answer, or every line of a JSONL file, graded by the answer-equivalence judge
(scoring/judge/equivalence.py) instead of a matching rule. A line naming another mode is matched by that mode.
Verdicts print in input order; a pair whose judge call failed prints `"correct": null` with the reason, and the
run then exits 1 (run it again: answered calls come from the response cache)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from gaia_eval.errors import InputError, RunFailed, UsageError
from gaia_eval.providers.call_options import CallOptions

JOURNAL_NAME = "check-answer-judge"


def judge_journal_folder(jsonl_path: str | None) -> Path:
    """Where --batch journals the judge's batches: beside the JSONL file, else the current folder."""
    return Path(jsonl_path).parent if jsonl_path and jsonl_path != "-" else Path.cwd()


def _settings(judge_spec: str | None, base_url: str | None, timeout: float | None, mode: str) -> Any:
    from gaia_eval.scoring.judge import parse_judge_spec

    if mode != "judge":
        raise UsageError(f"--judge grades with a model, which --mode {mode} does not", field="--judge",
                         fix="add --mode judge, or leave --judge out")
    if judge_spec is None:
        raise UsageError("--mode judge needs the model that grades", field="--judge",
                         fix="add --judge PROVIDER:MODEL, e.g. --judge openai:gpt-4o-mini")
    return parse_judge_spec(judge_spec, base_url=base_url, **({"timeout_s": timeout} if timeout is not None else {}))


def _expected(value: Any, where: str, source: str) -> tuple[str, ...]:
    items = value if isinstance(value, list) else [value]
    if not items or not all(isinstance(i, (str, int, float)) and not isinstance(i, bool) and str(i).strip()
                            for i in items):
        raise InputError(f"{where}: expected must be an answer or a non-empty list of answers", file=source,
                         field="expected", fix='write e.g. "expected": "Paris" or "expected": ["Paris", "Paree"]')
    return tuple(str(i) for i in items)


def _records(jsonl_path: str) -> list[tuple[int, dict[str, Any]]]:
    from gaia_eval.scoring.answers import jsonl_source

    source, lines = jsonl_source(jsonl_path)  # the same reading as every other mode's --jsonl
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            raise InputError(f"line {number}: not valid JSON ({exc})", file=source,
                             fix='write one JSON object per line, e.g. {"expected": "Paris", "answer": "paris"}'
                             ) from exc
        if not isinstance(record, dict) or "expected" not in record or "answer" not in record:
            raise InputError(f"line {number}: not an object with \"expected\" and \"answer\"", file=source,
                             fix='write one JSON object per line, e.g. {"expected": "Paris", "answer": "paris"}')
        record["expected"] = _expected(record["expected"], f"line {number}", source)
        if not isinstance(record["answer"], str) or not isinstance(record.get("question", ""), str):
            raise InputError(f"line {number}: answer and question must be text", file=source, field="answer",
                             fix="give the answer (and the question) as JSON strings")
        records.append((number, record))
    if not records:
        raise InputError("holds no lines to check", file=source,
                         fix='write one JSON object per line, e.g. {"expected": "Paris", "answer": "paris"}')
    return records


def run_check_answer_judge(expected: str | None, answer: str | None, jsonl_path: str | None, judge_spec: str | None,
                           base_url: str | None, timeout: float | None, question: str | None,
                           call_options: CallOptions, as_json: bool, mode: str,
                           echo: Callable[[str], None]) -> int:
    """Grade with the judge; returns the exit code (0 correct / all graded, 1 incorrect); RunFailed when a call
    failed."""
    from gaia_eval.scoring.answers import match_answer
    from gaia_eval.scoring.judge import EquivalencePair, judge_answers

    settings = _settings(judge_spec, base_url, timeout, mode)
    journal = judge_journal_folder(jsonl_path) / f"{JOURNAL_NAME}.batches.jsonl"
    if jsonl_path is None:
        if expected is None or answer is None:
            raise UsageError("give EXPECTED and ANSWER, or --jsonl FILE", fix="e.g. gaia-eval check-answer --mode "
                             "judge --judge openai:gpt-4o-mini Paris 'It is Paris.'")
        verdict = judge_answers([EquivalencePair((expected,), answer, question or "")], settings, call_options,
                                journal)[0]
        if verdict.correct is None:
            raise RunFailed(verdict.explanation)
        if as_json:
            echo(orjson.dumps(verdict.to_dict(answer, settings.spec)).decode())
        else:
            echo(f"{'CORRECT' if verdict.correct else 'INCORRECT'} (mode judge, {settings.spec})\n"
                 f"  why: {verdict.explanation}")
        return 0 if verdict.correct else 1
    records = _records(jsonl_path)
    judged = [(n, r) for n, r in records if r.get("mode", "judge") == "judge"]
    verdicts = iter(judge_answers([EquivalencePair(r["expected"], r["answer"], r.get("question", ""))
                                   for _, r in judged], settings, call_options, journal))
    failed = 0
    for number, record in records:
        row: dict[str, Any] = {"id": record["id"]} if "id" in record else {}
        if record.get("mode", "judge") == "judge":
            verdict = next(verdicts)
            failed += verdict.correct is None
            row.update(verdict.to_dict(record["answer"], settings.spec))
        else:
            try:
                row.update(match_answer(list(record["expected"]), record["answer"], record["mode"],
                                        **record.get("options", {})).to_dict())
            except UsageError as exc:
                raise InputError(f"line {number}: {exc.message}", file=jsonl_path, field=exc.field,
                                 fix=exc.fix) from exc
        echo(orjson.dumps(row).decode())
    if failed:
        raise RunFailed(f"{failed} judge call(s) failed; run the same command again (answered calls come from the "
                        "cache)")
    return 0
