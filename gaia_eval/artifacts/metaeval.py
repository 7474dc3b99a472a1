"""`meta_eval.json`: how well each scorer agreed with human ratings (written by `gaia-eval meta-eval -o`, read by
the report to say how far its ranking can be trusted)."""

from __future__ import annotations

from pydantic import Field

from gaia_eval.artifacts.base import Artifact, Strict
from gaia_eval.artifacts.evaluation import JudgeSample


class ScorerAgreement(Strict):
    """One scorer against one human dimension. Correlations are None when undefined (a constant scorer)."""

    scorer: str
    dimension: str
    baseline: bool = False  # one of the trivial baselines (length, rouge1_recall)
    system_kendall: float | None
    system_kendall_ci: tuple[float, float] | None = None
    system_spearman: float | None
    system_spearman_ci: tuple[float, float] | None = None
    system_pearson: float | None
    system_pearson_ci: tuple[float, float] | None = None
    summary_level: float | None  # Kendall tau per item across systems, averaged over items
    summary_level_spearman: float | None = None
    summary_level_pearson: float | None = None
    summary_level_items: int = 0  # items where the per-item correlation is defined
    pairwise_accuracy: float | None
    beats_length: bool | None = None  # system Kendall above the length baseline's
    # Over every rated output at once (item bootstrap): what a user's own ratings of two or three models can
    # measure when the system level (one point per model) has too few points. Only from `meta-eval --evaluations`.
    output_kendall: float | None = None
    output_kendall_ci: tuple[float, float] | None = None
    n_outputs: int = 0


class AnnotatorAgreement(Strict):
    """The humans' own agreement on one dimension: the ceiling a scorer can hope to reach."""

    n_annotators: int
    krippendorff_alpha: float | None = None  # ordinal, over (item, system) units
    alpha_metric: str = "ordinal"
    # One annotator against the mean of the others, averaged over annotators: comparable with the scorers' rows.
    loo_system_kendall: float | None = None
    loo_summary_level: float | None = None
    reason: str | None = None  # why a value is missing (e.g. the file holds only the annotators' mean)


class PreferenceAgreement(Strict):
    """Pairwise human preferences (A, B or tie for two outputs of one item) one scorer reproduces."""

    scorer: str
    baseline: bool = False
    share: float | None  # preferences where the scorer ranks the preferred output higher (a scorer tie: half)
    share_ci: tuple[float, float] | None = None  # 95 % percentile bootstrap over preferences
    preferences: int  # human preferences compared (ties left out)


class RaterConsistency(Strict):
    """A rater's ratings of the same output shown twice (the sample's repeats)."""

    rater: str
    pairs: int  # (repeat, dimension) pairs rated both times
    exact: float | None  # share rated the same both times
    within_one: float | None


class Interval(Strict):
    """An estimate of a mean human rating (1-5) or of a difference between two, with its 95 % interval."""

    value: float
    ci95: tuple[float, float]
    method: str  # "ppi++" (the automatic score corrected by the ratings) or "human-only" (the ratings alone)
    n_rated: int  # rated outputs it rests on
    n_outputs: int  # outputs it speaks for


class HumanEstimate(Strict):
    """What people would rate one system on one dimension, over all its outputs (gaia_eval/metaeval/ppi.py)."""

    system: str
    dimension: str
    scorer: str  # the automatic score the ratings correct
    human_estimate: Interval
    human_only: Interval  # the same ratings alone, for comparison


class SystemDifference(Strict):
    """System a minus system b on one dimension, with its interval: the ranking is sure when it excludes 0."""

    a: str
    b: str
    dimension: str
    scorer: str
    human_estimate: Interval
    human_only: Interval


class MetaEvaluation(Artifact):
    ratings_file: str
    n_items: int
    n_systems: int
    n_summaries: int
    systems: list[str]
    excluded_systems: list[str] = Field(default_factory=list)
    dimensions: list[str]
    scorers: list[str]
    # What `grade` measured: "comparative" (against references) or "standalone" (against the source only).
    grade_mode: str | None = None
    bootstrap: dict[str, float] = Field(default_factory=dict)  # resamples, seed, confidence
    results: list[ScorerAgreement]
    annotator_agreement: dict[str, AnnotatorAgreement] = Field(default_factory=dict)
    best: dict[str, str] = Field(default_factory=dict)  # dimension -> non-baseline scorer with the highest system tau
    notes: list[str] = Field(default_factory=list)
    # Only from `meta-eval --evaluations` (the user's own ratings of an evaluation's outputs):
    raters: list[str] = Field(default_factory=list)
    preferences: list[PreferenceAgreement] = Field(default_factory=list)
    rater_consistency: list[RaterConsistency] = Field(default_factory=list)
    stale_ratings: int = 0  # ratings of an output that has changed since: not used
    # Why no scorer is named best on a dimension (too few rated outputs, not separated from the runner-up).
    best_withheld: dict[str, str] = Field(default_factory=dict)
    human_estimates: list[HumanEstimate] = Field(default_factory=list)
    system_differences: list[SystemDifference] = Field(default_factory=list)


class JudgedSampleEntry(Strict):
    """One line of a meta-eval shard's part (`--shard K/N`): a finished judge sample of a rated summary, for the
    judge request it answered, with its G-Eval expected ratings (they live outside the sample)."""

    item_id: str
    fingerprint: str
    sample: JudgeSample
    expected: dict[str, float] = Field(default_factory=dict)
