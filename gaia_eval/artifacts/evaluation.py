"""Artifacts of the eval stage: per-experiment scores with the measurements behind them, and their index."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from gaia_eval.artifacts.base import Artifact, Strict, Usage
from gaia_eval.artifacts.experiment import CostStatus
from gaia_eval.artifacts.groundtruth import UseCase

Rating = Literal["Excellent", "Good", "Fair", "Poor"]
RATINGS: tuple[str, ...] = ("Excellent", "Good", "Fair", "Poor")


class CriterionResult(Strict):
    criterion: str
    rating: Rating
    measure: str  # what was measured, e.g. "F1 of fuzzy-matched action items"
    value: float | None  # the measurement the rating was read from
    explanation: str  # what matched and what did not, in a sentence


class ItemEvaluation(Strict):
    item_id: str
    source: str
    status: Literal["scored", "error"]  # "error": the model failed this item; every criterion counts as Poor
    error: str | None = None
    criteria: list[CriterionResult] = Field(default_factory=list)
    passed: bool | None = None  # qa only


class CriterionSummary(Strict):
    criterion: str
    counts: dict[str, int]  # rating -> count, errors counted as Poor
    mean_value: float | None


class Grade(Strict):
    quality_score: float  # ((4E + 3G + 2F + 1P) / N - 1) * 100 / 3 over every rating, errors as Poor
    overall_rating: Rating
    counts: dict[str, int]
    n_ratings: int
    n_items: int
    n_errors: int
    pass_rate: float | None = None  # qa: passed / all items (errored items fail)
    passed: int | None = None


class InferenceSummary(Strict):
    usage: Usage
    cost_usd: float | None
    cost_status: CostStatus
    latency_mean_s: float
    latency_p50_s: float
    latency_p95_s: float
    wall_time_s: float


class Evaluation(Artifact):
    """`<SafeName>.experiment.eval.json`."""

    kind: Literal["evaluation"] = "evaluation"
    experiment_name: str
    provider: str
    model: str
    use_case: UseCase
    mode: Literal["comparative", "standalone"]
    mode_note: str
    scorer: str
    experiment_file: str
    experiment_fingerprint: str
    groundtruth_source: str  # "embedded", "external:<path>" or "none"
    items: list[ItemEvaluation]
    criteria: list[CriterionSummary]
    grade: Grade
    inference: InferenceSummary
    evaluated_at: datetime


class EvaluationFileEntry(Strict):
    file_path: str
    fingerprint: str  # content hash of the eval file, never its mtime
    added_at: datetime
    last_modified: datetime


class EvaluationSummaryEntry(Strict):
    experiment_name: str
    file_path: str
    provider: str
    model: str
    use_case: UseCase
    mode: str
    grade: Grade
    inference: InferenceSummary


class ConsolidatedEvaluations(Artifact):
    """`consolidated_evaluations_report.json`: one entry per evaluation file, one shape for all."""

    kind: Literal["consolidated_evaluations"] = "consolidated_evaluations"
    evaluation_files: list[EvaluationFileEntry]
    evaluations: list[EvaluationSummaryEntry]
