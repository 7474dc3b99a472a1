"""lm-evaluation-harness sample files (`lm_eval ... --log_samples`: `samples_<task>_<date>.jsonl`, with the run's
`results_<date>.json` beside them), read into `ForeignRun`s: one per task, model and filter.

A generation task's answer is its filtered response; a multiple-choice task's is the choice with the highest
log-likelihood and its target the choice the target index names. Every per-sample metric is a score; the headline
figures are the results file's `<metric>,<filter>` values of metrics aggregated by mean.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

from gaia_eval.artifacts.inputs import parse_json, read_input_bytes, read_input_text
from gaia_eval.errors import InputError
from gaia_eval.interop.records import ForeignRun, ForeignSample, ForeignScore, score_number, shaped, text_of

SAMPLES_NAME = re.compile(r"samples_(?P<task>.+)_(?P<date>\d{4}-\d{2}-\d{2}T[\d.\-]+)\.jsonl$")
_EXACT = ("doc_id",)


def is_lm_eval_samples(path: Path) -> bool:
    return SAMPLES_NAME.match(path.name) is not None


def read_lm_eval(path: Path) -> list[ForeignRun]:
    """The runs of one samples file (one per filter), with the model and headline figures of the results file
    written with it (same date), when it is there."""
    match = SAMPLES_NAME.match(path.name)
    if match is None:
        raise InputError("is not an lm-eval samples file (samples_<task>_<date>.jsonl)", file=path,
                         fix="pass the samples_*.jsonl lm_eval writes with --log_samples")
    task = match["task"]
    results = _results(path, match["date"])
    model = str(results.get("model_name") or path.parent.name)
    by_filter: dict[str, list[ForeignSample]] = {}
    text = read_input_text(path, "an lm-eval samples file")
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        row = parse_json(path, line, where=f"line {number}: ", fix="one JSON object per line")
        if not isinstance(row, dict) or "doc_id" not in row:
            raise InputError(f"line {number}: not a sample (no doc_id)", file=path, field="doc_id",
                             fix="pass the samples_*.jsonl lm_eval writes with --log_samples")
        by_filter.setdefault(str(row.get("filter") or "none"), []).append(
            shaped(path, f"line {number}", _sample, row))
    means = _mean_metrics(results, task)
    runs = []
    for name, samples in by_filter.items():
        figures = (results.get("results") or {}).get(task) or {}
        aggregates = {f"{metric}/mean": float(figures[f"{metric},{name}"]) for metric in means
                      if isinstance(figures.get(f"{metric},{name}"), (int, float))}
        runs.append(ForeignRun(
            tool="lm-eval", task=task if len(by_filter) == 1 else f"{task} [{name}]", model=model,
            read_samples=samples.copy,
            aggregates=aggregates,
            extra={"results_file": {k: v for k, v in results.items() if k not in ("pretty_env_info",)}, "filter": name}
            if results else {"filter": name}))
    return runs


def _results(samples: Path, date: str) -> dict[str, Any]:
    path = samples.with_name(f"results_{date}.json")
    if not path.is_file():
        return {}
    data = parse_json(path, read_input_bytes(path, "an lm-eval results file"))
    return data if isinstance(data, dict) else {}


def _mean_metrics(results: dict[str, Any], task: str) -> list[str]:
    config = (results.get("configs") or {}).get(task) or {}
    return [str(m.get("metric")) for m in config.get("metric_list") or []
            if isinstance(m, dict) and m.get("aggregation") == "mean"]


def _sample(row: dict[str, Any]) -> ForeignSample:
    arguments = row.get("arguments") or {}
    calls = [arguments[k] for k in sorted(arguments, key=_arg_order)] if isinstance(arguments, dict) else []
    first = calls[0] if calls else {}
    prompt = _prompt_text(first.get("arg_0"))
    filtered = row.get("filtered_resps") or []
    target = row.get("target")
    metrics = [m for m in row.get("metrics") or [] if m in row]
    if _is_choice(filtered):
        best = max(range(len(filtered)), key=lambda i: _loglikelihood(filtered[i]) or -math.inf)
        output = str(calls[best].get("arg_1", "")).strip() if best < len(calls) else str(best)
        if isinstance(target, int) and 0 <= target < len(calls):
            targets = [str(calls[target].get("arg_1", "")).strip()]
        else:
            targets = [str(target)]
    else:
        output = filtered[0] if filtered and isinstance(filtered[0], str) else text_of(filtered)
        targets = [str(t) for t in target] if isinstance(target, list) else [str(target)]
    scores = [ForeignScore(name=m, value=score_number(row[m]), passed=None, raw=row[m]) for m in metrics]
    extra = {k: v for k, v in row.items() if k not in _EXACT and k not in metrics}
    return ForeignSample(sample_id=str(row["doc_id"]), input=prompt, targets=targets, output=output, scores=scores,
                         extra=extra)


def _arg_order(key: str) -> int:
    digits = key.rpartition("_")[2]
    return int(digits) if digits.isdigit() else 0


def _prompt_text(value: Any) -> str:
    """The prompt of a request: text, or a chat template's messages (a JSON list, as lm_eval logs it) as their
    contents."""
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    if isinstance(value, str) and value.startswith("[{"):
        try:
            messages = json.loads(value)
        except ValueError:
            return value
        return text_of(messages)
    return text_of(value)


def _is_choice(filtered: Any) -> bool:
    """A loglikelihood task's responses: one [log-likelihood, is_greedy] per choice. lm_eval writes them as strings
    (its sample logger turns every leaf into str: [["-4.5", "False"], ...]); numbers are read too."""
    return isinstance(filtered, list) and bool(filtered) and all(
        isinstance(f, list) and len(f) == 2 and _loglikelihood(f) is not None for f in filtered)


def _loglikelihood(response: list[Any]) -> float | None:
    value = response[0]
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    return number if number == number else None  # NaN is no log-likelihood


def restore_line(sample: ForeignSample) -> dict[str, Any]:
    """The samples-file line as written, from what the import keeps (the proof that nothing was lost)."""
    row: dict[str, Any] = {"doc_id": int(sample.sample_id) if sample.sample_id.isdigit() else sample.sample_id}
    row.update(sample.extra)
    row.update({score.name: score.raw for score in sample.scores})
    return row
