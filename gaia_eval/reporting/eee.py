"""An evaluation as Every Eval Ever records (schema 0.3.0, the `every-eval-ever` package): one aggregate record
(`eval.schema.json`) and, when the experiment it scored is at hand, one instance-level record per item and result
(`instance_level_eval.schema.json`), laid out as that project's datastore wants them
(`data/<collection>/<developer>/<model>/<uuid>.json` and `<uuid>_samples.jsonl`).

What maps where:
- the grade (`quality_score`, 0-100) with its bootstrap interval over the items' points, the pass rate (answers
  to questions), each rubric criterion's score (0-100, its rating counts in `details`), the LLM judge's grade
  (with `llm_scoring`) and each extra scorer's mean value are `evaluation_results`;
- per item: its points on the grade's scale (`quality_score`, correct when they rate Good or better) and, where it
  has one, its pass/fail (`pass_rate`), with the question, the expected answers, the model's answer, tokens and
  latency; its criteria's ratings and values are in `metadata` (strings, as the schema wants).
Every value is taken from the files; the UUID is made from the evaluation's fingerprint, so the same evaluation
gives the same bytes.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from gaia_eval import __version__
from gaia_eval.artifacts.evaluation import Evaluation, ItemEvaluation
from gaia_eval.artifacts.experiment import ItemResult
from gaia_eval.artifacts.groundtruth import Summaries
from gaia_eval.scoring import rubric

EEE_SCHEMA_VERSION = "0.3.0"
GOOD_OR_BETTER = ("Excellent", "Good")
BOOTSTRAP_RESAMPLES = 1000  # rubric.bootstrap_ci's default, as the report uses it
_UNSAFE = re.compile(r'[<>:"\\|?*\x00-\x1f]')  # what the datastore's path check refuses in a component


def record_uuid(evaluation_fingerprint: str) -> str:
    """A version-4-shaped UUID made from the evaluation file's fingerprint: stable across runs (the datastore
    names files by UUID4; a random one would rewrite the export every time)."""
    digest = hashlib.sha256(evaluation_fingerprint.encode()).digest()[:16]
    return str(uuid.UUID(bytes=digest, version=4))


def model_id(ev: Evaluation) -> str:
    """`developer/model` as the datastore files a model: the model as named when it has a prefix, else the
    provider's name before it (`openai/gpt-4o-mini`)."""
    return ev.model if "/" in ev.model.strip("/") else f"{ev.provider}/{ev.model}"


def _component(value: str) -> str:
    cleaned = _UNSAFE.sub("_", value.replace(":", "_")).rstrip(". ")
    return cleaned if cleaned not in ("", ".", "..", "data") else f"_{cleaned}_"


def datastore_folder(ev: Evaluation) -> tuple[str, str, str]:
    """(collection, developer, model): the datastore's folders, as its own publisher derives them from the id
    (a `:` becomes `_`, the model's own `/` too)."""
    developer, _, name = model_id(ev).strip("/").partition("/")
    return _component(f"gaia-eval_{ev.use_case}"), _component(developer), _component(name.replace("/", "_"))


def _unix(moment: datetime) -> str:
    return str(int(moment.timestamp()))


def _metric(description: str, *, high: float, kind: str, unit: str) -> dict[str, Any]:
    return {"evaluation_description": description, "lower_is_better": False, "score_type": "continuous",
            "min_score": 0, "max_score": high, "metric_kind": kind, "metric_unit": unit}


def _result(ev: Evaluation, result_id: str, name: str, metric: dict[str, Any], score: float,
            details: dict[str, str] | None = None, uncertainty: dict[str, Any] | None = None) -> dict[str, Any]:
    score_details: dict[str, Any] = {"score": score}
    if details:
        score_details["details"] = details
    if uncertainty:
        score_details["uncertainty"] = uncertainty
    return {
        "evaluation_result_id": result_id,
        "evaluation_name": name,
        "source_data": {"dataset_name": f"gaia-eval {ev.use_case} ground truth", "source_type": "other",
                        "additional_details": {"groundtruth_source": ev.groundtruth_source}},
        "evaluation_timestamp": _unix(ev.evaluated_at),
        "metric_config": {**metric, "metric_id": f"gaia_eval.{result_id}", "metric_name": name},
        "score_details": score_details,
    }


def _counts(counts: dict[str, int]) -> dict[str, str]:
    return {rating: str(n) for rating, n in counts.items()}


def _item_points(ev: Evaluation) -> list[float]:
    names = [c.criterion for c in ev.criteria]
    return [rubric.item_points(item, names) for item in ev.items]


def evaluation_results(ev: Evaluation) -> list[dict[str, Any]]:
    g = ev.grade
    ci = rubric.bootstrap_ci(_item_points(ev), n=BOOTSTRAP_RESAMPLES)
    uncertainty: dict[str, Any] = {"num_samples": g.n_items}
    if ci is not None:
        uncertainty |= {"num_bootstrap_samples": BOOTSTRAP_RESAMPLES, "confidence_interval": {
            "lower": ci[0], "upper": ci[1], "confidence_level": 0.95,
            "method": "percentile bootstrap of the items' points (seed 0)"}}
    results = [_result(
        ev, "quality_score", "gaia-eval grade",
        _metric(f"gaia-eval's rubric grade ({ev.scorer}) on a 0-100 scale: the items' criterion ratings (a "
                "free-text summary's: its weighted criterion values), errors as Poor", high=100, kind="grade",
                unit="points"),
        g.quality_score, {"overall_rating": g.overall_rating, "n_errors": str(g.n_errors), **_counts(g.counts)},
        uncertainty)]
    if g.pass_rate is not None:
        results.append(_result(
            ev, "pass_rate", "gaia-eval pass rate",
            _metric("share of answers that say the expected answer (errors fail)", high=1, kind="pass_rate",
                    unit="proportion"),
            g.pass_rate, {"passed": str(g.passed)}, {"num_samples": g.n_items}))
    for c in ev.criteria:
        details = _counts(c.counts) | ({"mean_value": repr(c.mean_value)} if c.mean_value is not None else {})
        results.append(_result(ev, f"criterion.{c.criterion}", f"gaia-eval {c.criterion}", _metric(
            f"rubric criterion {c.criterion}: its ratings on the grade's scale", high=100, kind="grade",
            unit="points"), rubric.quality_score(c.counts), details))
    judge = ev.judge
    if judge is not None and judge.grade is not None:
        judge_grade = judge.grade
        provider, _, name = judge.spec.partition(":")
        metric = _metric(f"the LLM judge's grade ({judge.mode}, {judge.samples_per_item} samples per item, "
                         f"{judge.median_rule})", high=100, kind="grade", unit="points")
        metric["llm_scoring"] = {
            "judges": [{"model_info": {"name": name or judge.spec, "id": f"{provider}/{name}" if name else judge.spec,
                                       "additional_details": {"deployment_type": "unknown",
                                                              "model_availability": "unknown"}}}],
            "input_prompt": f"gaia-eval judge prompts {judge.prompts_fingerprint}",
            "aggregation_method": "median",
        }
        results.append(_result(ev, "judge.quality_score", "gaia-eval judge grade", metric, judge_grade.quality_score,
                               _counts(judge_grade.counts)))
    for x in ev.extra_criteria:
        if x.mean_value is not None:
            results.append(_result(ev, f"extra.{x.scorer}.{x.criterion}", f"{x.scorer}: {x.criterion}", _metric(
                f"extra scorer {x.scorer} (eval --scorer), beside the grade, not in it", high=1, kind="mean",
                unit="proportion"), x.mean_value, _counts(x.counts)))
    return results


def aggregate_record(ev: Evaluation, samples_path: str | None, total_rows: int, checksum: str | None) -> dict[str, Any]:
    developer = model_id(ev).partition("/")[0]
    record: dict[str, Any] = {
        "schema_version": EEE_SCHEMA_VERSION,
        "evaluation_id": evaluation_id(ev),
        "evaluation_timestamp": _unix(ev.evaluated_at),
        "retrieved_timestamp": _unix(ev.evaluated_at),
        "source_metadata": {"source_name": "gaia-eval", "source_type": "evaluation_run",
                            "source_organization_name": "unknown", "evaluator_relationship": "third_party",
                            "additional_details": {"experiment_name": ev.experiment_name,
                                                   "experiment_file": ev.experiment_file, "mode": ev.mode}},
        "eval_library": {"name": "gaia-eval", "version": __version__, "additional_details": {"scorer": ev.scorer}},
        "model_info": {"name": ev.model, "id": model_id(ev), "developer": developer, "inference_platform": ev.provider,
                       "additional_details": {"deployment_type": "unknown", "model_availability": "unknown",
                                              "provider": ev.provider}},
        "evaluation_results": evaluation_results(ev),
    }
    if samples_path is not None:
        record["detailed_evaluation_results"] = {"format": "jsonl", "file_path": samples_path,
                                                 "hash_algorithm": "sha256", "checksum": checksum,
                                                 "total_rows": total_rows}
    return record


def evaluation_id(ev: Evaluation) -> str:
    """`<eval name>/<model id>/<timestamp>`, the form the schema asks for."""
    return f"gaia-eval_{ev.use_case}/{model_id(ev).replace('/', '_')}/{_unix(ev.evaluated_at)}"


def item_texts(item: ItemResult) -> tuple[str, list[str], str]:
    """(input, references, output) of an experiment's item as text."""
    pair = item.groundtruth_answer
    question = item.query or (pair.query if pair else "") or item.source
    references = [pair.answer] if pair else ([_summary_text(item.groundtruth_summaries)]
                                             if item.groundtruth_summaries else [])
    output = item.answer if item.answer is not None else _summary_text(item.summaries)
    return question, references, output


def _summary_text(summaries: Summaries | None) -> str:
    if summaries is None:
        return ""
    return "\n".join([summaries.executive_summary, summaries.detailed_summary,
                      *(f"- {a}" for a in summaries.action_items)]).strip()


def _item_metadata(item: ItemEvaluation) -> dict[str, str]:
    meta = {"source": item.source, "status": item.status}
    for c in item.criteria:
        meta[f"criterion.{c.criterion}"] = c.rating
        if c.value is not None:
            meta[f"criterion.{c.criterion}.value"] = repr(c.value)
    for x in item.extra_criteria:
        meta[f"extra.{x.scorer}.{x.criterion}"] = x.rating
    return meta


def instance_records(ev: Evaluation, results: dict[str, ItemResult]) -> Iterator[dict[str, Any]]:
    """One record per item for the grade and, for an item with a pass/fail, one for the pass rate; `results`:
    the experiment's items by id."""
    names = [c.criterion for c in ev.criteria]
    for item in ev.items:
        answered = results.get(item.item_id)
        question, references, output = item_texts(answered) if answered else (item.source, [], "")
        base: dict[str, Any] = {
            "schema_version": EEE_SCHEMA_VERSION, "evaluation_id": evaluation_id(ev), "model_id": model_id(ev),
            "sample_id": item.item_id,
            "sample_hash": hashlib.sha256((question + "".join(references)).encode()).hexdigest(),
            "interaction_type": "single_turn", "input": {"raw": question, "reference": references},
            "output": {"raw": [output]}, "messages": None,
            "answer_attribution": [{"turn_idx": 0, "source": "output.raw", "extracted_value": output,
                                    "extraction_method": "gaia-eval rubric", "is_terminal": True}],
            "error": item.error, "metadata": _item_metadata(item),
        }
        if answered is not None:
            base["token_usage"] = {"input_tokens": answered.usage.input_tokens,
                                   "output_tokens": answered.usage.output_tokens,
                                   "total_tokens": answered.usage.input_tokens + answered.usage.output_tokens}
            base["performance"] = {"latency_ms": answered.latency_s * 1000}
        points = rubric.item_points(item, names)
        yield {**base, "evaluation_name": "gaia-eval grade", "evaluation_result_id": "quality_score",
               "evaluation": {"score": points, "is_correct": rubric.rating_band(points) in GOOD_OR_BETTER}}
        if ev.grade.pass_rate is not None and (item.status == "error" or item.passed is not None):
            passed = item.status == "scored" and bool(item.passed)
            yield {**base, "evaluation_name": "gaia-eval pass rate", "evaluation_result_id": "pass_rate",
                   "evaluation": {"score": 1.0 if passed else 0.0, "is_correct": passed}}
