"""An evaluation as an Inspect (inspect_ai) evaluation log, format version 2, the `.json` form: `read_eval_log`
opens it and `inspect view` lists it.

What maps where: the experiment's model is the log's model and gaia-eval's use case its task; each item is a
sample (input: the question, target: the expected answer, output: the model's answer, its tokens and time); each
rubric criterion is a scorer (an item's value of the measurement, its rating as the answer, the explanation), plus
`grade` (the item's points on the grade's 0-100 scale), `pass` (C/I, for answers to questions), each extra
scorer's criteria and, after `eval --judge`, each judge criterion (`judge/<criterion>`: its median rating, Poor 0
to Excellent 1); the results' metrics are the means of the values the samples carry (so a reader recomputes them
from the samples) beside gaia-eval's own figures (`quality_score`, a criterion's `score`).

The round trip: when the experiment file is at hand, the log also carries the gaia-eval artifacts it came from,
under `gaia_eval` in its metadata: the experiment's header and sources and the ground-truth files the evaluation
used (`eval.metadata`), each item's record (`samples[].metadata`). `import-results` of such a log writes those
files back as they were (canonical JSON), so `eval` on them gives the evaluation again.
"""

from __future__ import annotations

import hashlib
from typing import Any

from gaia_eval import __version__
from gaia_eval.artifacts.evaluation import Evaluation, ItemEvaluation
from gaia_eval.artifacts.experiment import ItemResult
from gaia_eval.reporting.eee import item_texts, model_id
from gaia_eval.scoring import rubric

CARRIED_KEY = "gaia_eval"  # the metadata key holding the artifacts a log was exported from
CARRIED_FORMAT = 1


def _id(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:22]


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _item_scores(ev: Evaluation, item: ItemEvaluation, names: list[str]) -> dict[str, dict[str, Any]]:
    scores: dict[str, dict[str, Any]] = {
        "grade": {"value": rubric.item_points(item, names),
                  "explanation": item.error or "the item's ratings on the grade's 0-100 scale"}}
    if ev.grade.pass_rate is not None and (item.status == "error" or item.passed is not None):
        passed = item.status == "scored" and bool(item.passed)
        scores["pass"] = {"value": "C" if passed else "I", "explanation": item.error or ""}
    for c in item.criteria:
        if c.value is not None:
            scores[c.criterion] = {"value": c.value, "answer": c.rating, "explanation": c.explanation,
                                   "metadata": {"rating": c.rating, "measure": c.measure}}
    for x in item.extra_criteria:
        if x.value is not None:
            scores[f"{x.scorer}/{x.criterion}"] = {"value": x.value, "answer": x.rating, "explanation": x.explanation}
    if item.judge is not None:  # the judge's median rating per criterion, as a share of the scale (Poor 0, Excellent 1)
        for j in item.judge.criteria:
            scores[f"judge/{j.criterion}"] = {"value": (rubric.POINTS[j.rating] - 1) / 3, "answer": j.rating,
                                              "explanation": j.explanation,
                                              "metadata": {"sample_ratings": list(j.sample_ratings)}}
    return scores


def _results(ev: Evaluation, samples: list[dict[str, Any]]) -> dict[str, Any]:
    values: dict[str, list[Any]] = {}
    for sample in samples:
        for name, score in sample["scores"].items():
            values.setdefault(name, []).append(score["value"])
    own = {"grade": {"quality_score": ev.grade.quality_score},
           **{c.criterion: {"score": rubric.quality_score(c.counts)} for c in ev.criteria}}
    scores = []
    for name, found in values.items():
        if name == "pass":
            metrics = {"accuracy": _mean([1.0 if v == "C" else 0.0 for v in found])}
        else:
            metrics = {"mean": _mean([float(v) for v in found]), **own.get(name, {})}
        scores.append({"name": name, "scorer": name, "scored_samples": len(found), "unscored_samples": 0,
                       "params": {}, "metrics": {m: {"name": m, "value": v, "params": {}} for m, v in metrics.items()}})
    return {"total_samples": len(samples), "completed_samples": len(samples), "scores": scores}


def _sample(ev: Evaluation, item: ItemEvaluation, answered: ItemResult | None, raw: dict[str, Any] | None,
            names: list[str]) -> dict[str, Any]:
    question, references, output = item_texts(answered) if answered else (item.source, [], "")
    usage = answered.usage if answered else None
    tokens = {"input_tokens": usage.input_tokens, "output_tokens": usage.output_tokens,
              "total_tokens": usage.input_tokens + usage.output_tokens} if usage else None
    sample: dict[str, Any] = {
        "id": item.item_id, "epoch": 1, "input": question,
        "target": references[0] if len(references) == 1 else references,
        "messages": [{"role": "user", "content": question, "source": "input"},
                     {"role": "assistant", "content": output, "source": "generate"}],
        "output": {"model": ev.model, "completion": output, "choices": [
            {"message": {"role": "assistant", "content": output, "source": "generate"}, "stop_reason": "stop"}],
            **({"usage": tokens, "time": answered.latency_s} if answered and tokens else {})},
        "scores": _item_scores(ev, item, names),
        "metadata": {CARRIED_KEY: {"item": raw}} if raw is not None else {},
        "model_usage": {model_id(ev): tokens} if tokens else {},
    }
    if item.status == "error":
        sample["error"] = {"message": item.error or "failed", "traceback": "", "traceback_ansi": ""}
    return sample


def inspect_log(ev: Evaluation, evaluation_fingerprint: str, experiment: dict[str, Any] | None,
                groundtruth: list[dict[str, Any]]) -> dict[str, Any]:
    """The log of `ev`. `experiment`: the experiment file's content (None when it is not found: the log then
    holds the evaluation only); `groundtruth`: the ground-truth files it was scored against, as
    `{"file": name, "content": ...}`."""
    names = [c.criterion for c in ev.criteria]
    raw_items = {i["item_id"]: i for i in (experiment or {}).get("items", [])}
    answered = {k: ItemResult.model_validate(v) for k, v in raw_items.items()}
    samples = [_sample(ev, item, answered.get(item.item_id), raw_items.get(item.item_id), names)
               for item in ev.items]
    created = ev.evaluated_at.isoformat()
    metadata: dict[str, Any] = {"experiment_name": ev.experiment_name, "provider": ev.provider, "mode": ev.mode,
                                "scorer": ev.scorer}
    if experiment is not None:
        header = {k: v for k, v in experiment.items() if k != "items"}
        metadata[CARRIED_KEY] = {"format": CARRIED_FORMAT, "experiment_file": ev.experiment_file,
                                 "experiment": header, "groundtruth": groundtruth}
    usage = ev.inference.usage
    return {
        "version": 2,
        "status": "success",
        "eval": {
            "eval_id": _id(evaluation_fingerprint), "run_id": _id("run " + evaluation_fingerprint), "created": created,
            "task": f"gaia-eval-{ev.use_case}", "task_id": _id(ev.use_case), "task_version": 0,
            "task_display_name": ev.experiment_name, "task_attribs": {}, "task_args": {},
            "dataset": {"name": f"gaia-eval {ev.use_case} ground truth", "samples": len(samples),
                        "sample_ids": [s["id"] for s in samples], "shuffled": False},
            "model": model_id(ev), "model_args": {}, "config": {"epochs": 1},
            "packages": {"gaia-eval": __version__},
            "scorers": [{"name": s["name"], "options": {}, "metrics": [], "metadata": {}}
                        for s in _results(ev, samples)["scores"]],
            "metadata": metadata,
        },
        "results": _results(ev, samples),
        "stats": {"started_at": (experiment or {}).get("started_at", created),
                  "completed_at": (experiment or {}).get("finished_at", created),
                  "model_usage": {model_id(ev): {"input_tokens": usage.input_tokens,
                                                 "output_tokens": usage.output_tokens,
                                                 "total_tokens": usage.input_tokens + usage.output_tokens}}},
        "samples": samples,
    }
