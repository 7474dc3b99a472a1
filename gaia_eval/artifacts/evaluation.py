"""Artifacts of the eval stage: per-experiment scores with the measurements behind them (and, when an LLM
judge was asked for, its ratings beside them), and their index."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import Field, SerializerFunctionWrapHandler, model_serializer

from gaia_eval.artifacts.base import SCHEMA_VERSION, Artifact, Count, Finite, NonNegative, Share, Strict, Usage
from gaia_eval.artifacts.experiment import CostStatus

Rating = Literal["Excellent", "Good", "Fair", "Poor"]
RATINGS: tuple[str, ...] = ("Excellent", "Good", "Fair", "Poor")
# "N/A": the ground truth gives nothing to check this criterion against (e.g. a human reference without action
# items); shown as N/A, counted apart, left out of the grade's denominator.
NOT_APPLICABLE: Literal["N/A"] = "N/A"
CriterionRating = Literal["Excellent", "Good", "Fair", "Poor", "N/A"]
# The use case an evaluation scored, as any name: unlike the files a stage takes as input (which must name an
# installed use case), an evaluation is only read to be shown, also where the package that declared its use case
# is not installed; the report and the viewer then title it with its name.
EvaluatedUseCase = Annotated[str, Field(min_length=1)]


class CriterionResult(Strict):
    criterion: str
    rating: CriterionRating
    measure: str  # what was measured, e.g. "F1 of fuzzy-matched action items"
    value: Finite | None  # the measurement the rating was read from
    explanation: str  # what matched and what did not, in a sentence


# A criterion of an extra scorer (`eval --scorer`) also reads "error": the scorer raised or returned a value outside
# 0-1 for that item (the explanation says which and why).
ExtraRating = Literal["Excellent", "Good", "Fair", "Poor", "N/A", "error"]


class ExtraCriterionResult(Strict):
    """A criterion rated by an extra scorer (`eval --scorer`): shown beside the use case's own criteria, never in
    the grade."""

    scorer: str  # the scorer's name (a registry name, or the function's name)
    criterion: str
    rating: ExtraRating
    value: Finite | None
    explanation: str


def _omit_when_empty(handler: SerializerFunctionWrapHandler, model: Strict, key: str) -> dict[str, Any]:
    # Written only when there is something in it, so files made without --scorer keep their bytes.
    data: dict[str, Any] = handler(model)
    if not data.get(key):
        data.pop(key, None)
    return data


class JudgeVerdict(Strict):
    rating: Rating
    explanation: str


class JudgeSample(Strict):
    """One independent judgement of an item: the judge's verdict per criterion, or why there is none."""

    index: Count  # 0..K-1; sample i is reused on a later run only for the same judged content and judge
    # "scored": every criterion has a valid verdict. "unscored": the reply was unusable (not JSON, wrong schema,
    # cut off, refused) even after one repair request; kept as done. "failed": the call itself failed after
    # retries (network, server, auth); never kept as done, so the next run calls it again.
    status: Literal["scored", "unscored", "failed"]
    verdicts: dict[str, JudgeVerdict] = Field(default_factory=dict)
    raw: str | None = None  # unscored only: the unusable reply (at most 2000 characters)
    error: str | None = None
    repaired: bool = False  # a repair request (the problem quoted back to the judge) was needed
    calls: Count = 0
    attempts: Count = 0
    usage: Usage = Field(default_factory=Usage)
    # Replies answered from the response cache cost nothing: `cached` when every one was, and their tokens.
    cached: bool = False
    cached_usage: Usage = Field(default_factory=Usage)
    batch_id: str | None = None  # the provider batch (--batch) that answered it, priced at the batch price


class JudgeCriterionResult(Strict):
    criterion: str
    rating: Rating  # median of the scored samples' ratings (the lower middle one for an even count)
    explanation: str  # the judge's reason, from the first sample that gave the median rating
    sample_ratings: list[Rating]


class ItemJudgement(Strict):
    # "scored": at least one sample scored. "unscored": none did and the judge's replies were unusable (a judge
    # failure, kept out of the judge grade). "failed": none did because calls failed; redone on the next run.
    # "model_error": the tested model failed the item, so there was nothing to judge; Poor on every criterion.
    status: Literal["scored", "unscored", "failed", "model_error"]
    fingerprint: str | None = None  # of the judge request (prompt, schema, judge model); None for model_error
    source_excerpted: bool = False  # the source was too long and the judge saw its most relevant excerpts
    criteria: list[JudgeCriterionResult] = Field(default_factory=list)
    samples: list[JudgeSample] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)


class ItemEvaluation(Strict):
    item_id: str
    source: str
    status: Literal["scored", "error"]  # "error": the model failed this item; every criterion counts as Poor
    error: str | None = None
    criteria: list[CriterionResult] = Field(default_factory=list)
    passed: bool | None = None  # qa only
    judge: ItemJudgement | None = None  # only when eval ran with --judge
    extra_criteria: list[ExtraCriterionResult] = Field(default_factory=list)  # only with eval --scorer

    @model_serializer(mode="wrap")
    def _serialize(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return _omit_when_empty(handler, self, "extra_criteria")


class ScoredItemRecord(Strict):
    """One line of an eval shard's journal or part (`eval --shard K/N`): an item's rubric scores, the fingerprint
    of the inputs they were made from (a line made from other inputs is not reused), and the messages of its
    scorers that failed on it (the evaluation then says so, as if the item were scored there)."""

    schema_version: int = SCHEMA_VERSION
    inputs: str
    item: ItemEvaluation
    errors: list[str] = Field(default_factory=list)


class CriterionSummary(Strict):
    criterion: str
    counts: dict[str, Count]  # rating -> count, errors counted as Poor
    mean_value: Finite | None


class ExtraCriterionSummary(Strict):
    """An extra scorer's criterion over the items: rating counts (the model's failed items as Poor, the scorer's
    failures as "error") and the mean value of the items it measured."""

    scorer: str
    criterion: str
    counts: dict[str, Count]
    mean_value: Finite | None


class Grade(Strict):
    # ((4E + 3G + 2F + 1P) / N - 1) * 100 / 3 over every rating, errors as Poor; a free-text summary's: the mean of
    # its items' weighted mean of criterion values x 100 (scoring/rubric/weights.py)
    quality_score: Finite
    overall_rating: Rating
    counts: dict[str, Count]
    n_ratings: Count
    n_items: Count
    n_errors: Count
    pass_rate: Share | None = (
        None  # qa: passed / items with a pass/fail (errored items fail; long-form answers have none)
    )
    passed: Count | None = None


class InferenceSummary(Strict):
    usage: Usage
    cost_usd: NonNegative | None
    cost_status: CostStatus
    latency_mean_s: NonNegative
    latency_p50_s: NonNegative
    latency_p95_s: NonNegative
    wall_time_s: NonNegative
    time_to_success_p50_s: NonNegative = 0.0  # retries, hangs and backoff included
    time_to_success_p95_s: NonNegative = 0.0
    retried_items: Count = 0
    latency_min_s: NonNegative = 0.0  # over the items the model answered
    latency_max_s: NonNegative = 0.0
    items_answered: Count = 0  # ok items: the denominator of cost per item
    batched_items: Count = 0  # items answered through a provider batch (--batch), at the batch price


class SampleAgreement(Strict):
    """How much the K judge samples of an item agree (defined from K = 2)."""

    items_compared: Count  # items with at least two scored samples
    unanimous_share: Share | None  # share of those items whose samples agree on every criterion
    krippendorff_alpha: Finite | None  # ordinal alpha; units are (item, criterion), coders are samples
    alpha_note: str | None = None  # why alpha is None


class RubricAgreement(Strict):
    """How the judge's ratings compare with the deterministic rubric's on the criteria both measure."""

    criteria: dict[str, str]  # judge criterion -> rubric criterion
    pairs: Count  # (item, criterion) pairs rated by both; items the model failed are left out (no judgement)
    exact_agreement: Share | None
    within_one: Share | None  # share of pairs at most one rating step apart
    krippendorff_alpha: Finite | None
    alpha_note: str | None = None


class JudgeSummary(Strict):
    """The LLM judge's view of one experiment, kept apart from the deterministic scores and the model's cost."""

    spec: str  # "provider:model"
    base_url: str | None
    mode: Literal["comparative", "standalone"]
    mode_note: str
    samples_per_item: Count
    median_rule: str
    prompts_fingerprint: str
    criteria: list[CriterionSummary]  # median ratings of judged items, model errors as Poor; unscored left out
    # Same formula as the rubric's grade over the judged ratings; None when no item could be judged.
    grade: Grade | None
    judged_items: Count  # items whose ratings enter the grade: scored ones plus model errors (as Poor)
    unscored_items: Count  # items no sample could score: judge failures, not model failures; outside the grade
    unscored_samples: Count
    failed_samples: Count  # calls that failed after retries; the evaluation is redone (only them) on the next run
    excerpted_items: Count
    agreement: SampleAgreement
    judge_vs_rubric: RubricAgreement | None  # None when no judge criterion has a rubric counterpart
    usage: Usage
    calls: Count
    cost_usd: NonNegative | None
    cost_status: CostStatus
    pricing: str
    batched_samples: Count = 0  # samples answered through a provider batch (--batch), at the batch price


class Evaluation(Artifact):
    """`<SafeName>.experiment.eval.json`."""

    kind: Literal["evaluation"] = "evaluation"
    experiment_name: str
    provider: str
    model: str
    use_case: EvaluatedUseCase
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
    judge: JudgeSummary | None = None  # only when eval ran with --judge; its cost is never in `inference`
    # Only with eval --scorer: the extra scorers' criteria, beside `criteria` and outside `grade`.
    extra_criteria: list[ExtraCriterionSummary] = Field(default_factory=list)
    # Only with eval --match-mode (answers to questions): the mode short answers were matched with; None: gaia.
    match_mode: str | None = None

    @model_serializer(mode="wrap")
    def _serialize(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data = _omit_when_empty(handler, self, "extra_criteria")
        if data.get("match_mode") is None:
            data.pop("match_mode", None)  # files made without --match-mode keep their bytes
        return data


class EvaluationFileEntry(Strict):
    file_path: str
    fingerprint: str  # content hash of the eval file, never its mtime
    added_at: datetime
    last_modified: datetime


class JudgeEntry(Strict):
    spec: str
    mode: str
    samples_per_item: Count
    grade: Grade | None
    unscored_items: Count
    usage: Usage
    cost_usd: NonNegative | None
    cost_status: CostStatus


class EvaluationSummaryEntry(Strict):
    experiment_name: str
    file_path: str
    provider: str
    model: str
    use_case: EvaluatedUseCase
    mode: str
    grade: Grade
    inference: InferenceSummary
    judge: JudgeEntry | None = None  # present (possibly None) in every entry: one shape for all


class ConsolidatedEvaluations(Artifact):
    """`consolidated_evaluations_report.json`: one entry per evaluation file, one shape for all."""

    kind: Literal["consolidated_evaluations"] = "consolidated_evaluations"
    evaluation_files: list[EvaluationFileEntry]
    evaluations: list[EvaluationSummaryEntry]
