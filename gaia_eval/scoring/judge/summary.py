"""The LLM judge's summary of one experiment: rating counts per criterion, the judge grade, how often the judge
could not score, how far its samples agree with each other and with the deterministic rubric, and its cost.

Judge grade: the rubric's formula, quality_score = ((4E + 3G + 2F + 1P) / N - 1) * 100 / 3, over the median
ratings of the judged items, where an item the model failed counts as Poor on every criterion (no call is
made). Items the judge could not score (unscored or failed) are judge failures, not model failures: they are
left out of N and reported as counts beside the grade.
"""

from __future__ import annotations

from gaia_eval.artifacts.base import Usage
from gaia_eval.artifacts.evaluation import (
    RATINGS,
    CriterionSummary,
    Grade,
    ItemEvaluation,
    JudgeSummary,
    RubricAgreement,
    SampleAgreement,
)
from gaia_eval.providers.pricing import PriceQuote, batch_quote, cost_of
from gaia_eval.scoring import rubric
from gaia_eval.scoring.judge.agreement import Alpha, ordinal_alpha, paired_agreement, unanimous_share
from gaia_eval.scoring.judge.core import MEDIAN_RULE, JudgeSettings
from gaia_eval.scoring.judge.criteria import FREE_TEXT_RUBRIC_IDS, RANK, JudgeCriterion
from gaia_eval.scoring.judge.prompt import judge_prompts_fingerprint


def _median_ratings(item: ItemEvaluation, criteria: tuple[JudgeCriterion, ...]) -> dict[str, str] | None:
    """The judge's rating per criterion for an item that enters the grade; None for one that does not."""
    if item.status == "error":
        return {c.id: "Poor" for c in criteria}
    if item.judge is None or item.judge.status != "scored":
        return None
    return {r.criterion: r.rating for r in item.judge.criteria}


def judge_grade(
    items: list[ItemEvaluation], criteria: tuple[JudgeCriterion, ...]
) -> tuple[list[CriterionSummary], Grade | None]:
    """Rating counts per criterion and the grade over the judged items (see the module docstring)."""
    counts = {c.id: dict.fromkeys(RATINGS, 0) for c in criteria}
    judged = 0
    for item in items:
        ratings = _median_ratings(item, criteria)
        if ratings is None:
            continue
        judged += 1
        for c in criteria:
            counts[c.id][ratings[c.id]] += 1
    summaries = [CriterionSummary(criterion=c.id, counts=counts[c.id], mean_value=None) for c in criteria]
    if judged == 0:
        return summaries, None
    totals = {r: sum(counts[c.id][r] for c in criteria) for r in RATINGS}
    grade = Grade(
        quality_score=rubric.quality_score(totals),
        overall_rating=rubric.overall_rating(totals),
        counts=totals,
        n_ratings=sum(totals.values()),
        n_items=judged,
        n_errors=sum(1 for item in items if item.status == "error"),
    )
    return summaries, grade


def sample_agreement(
    items: list[ItemEvaluation], criteria: tuple[JudgeCriterion, ...], samples_per_item: int
) -> SampleAgreement:
    """Agreement between the scored samples of each item: the share of items whose samples agree on every
    criterion, and ordinal Krippendorff's alpha with (item, criterion) as units and samples as coders."""
    per_item: list[list[tuple[str, ...]]] = []  # per item: each scored sample's ratings in criterion order
    for item in items:
        if item.judge is None:
            continue
        scored = [s for s in item.judge.samples if s.status == "scored"]
        if len(scored) >= 2:
            per_item.append([tuple(s.verdicts[c.id].rating for c in criteria) for s in scored])
    if samples_per_item < 2:
        note = "one sample per item: run with --judge-samples 2 or more to measure agreement between samples"
        return SampleAgreement(items_compared=0, unanimous_share=None, krippendorff_alpha=None, alpha_note=note)
    if not per_item:
        note = "no item has two scored samples to compare"
        return SampleAgreement(items_compared=0, unanimous_share=None, krippendorff_alpha=None, alpha_note=note)
    units = [[RANK[sample[i]] for sample in samples] for samples in per_item for i in range(len(criteria))]
    alpha = ordinal_alpha(units)
    return SampleAgreement(
        items_compared=len(per_item),
        unanimous_share=unanimous_share(per_item),
        krippendorff_alpha=alpha.value,
        alpha_note=alpha.reason,
    )


def rubric_agreement(
    items: list[ItemEvaluation], criteria: tuple[JudgeCriterion, ...], rubric_criteria: list[str]
) -> RubricAgreement | None:
    """Judge median vs rubric rating on the criteria both measure, over items both rated. Items the model
    failed are left out: both would call them Poor by rule, which says nothing about agreement; so is a criterion
    the rubric rated N/A (a human reference that lists no action items). The free-text rubric's criteria are
    compared through FREE_TEXT_RUBRIC_IDS."""
    mapping = {}
    for c in criteria:
        rubric_id = c.rubric_id if c.rubric_id in rubric_criteria else FREE_TEXT_RUBRIC_IDS.get(c.id)
        if rubric_id is not None and rubric_id in rubric_criteria:
            mapping[c.id] = rubric_id
    if not mapping:
        return None
    pairs: list[tuple[int, int]] = []
    compared: set[str] = set()
    for item in items:
        if item.status != "scored" or item.judge is None or item.judge.status != "scored":
            continue
        judged = {r.criterion: r.rating for r in item.judge.criteria}
        measured = {r.criterion: r.rating for r in item.criteria}
        for judge_id, rubric_id in mapping.items():
            if judged.get(judge_id) in RANK and measured.get(rubric_id) in RANK:
                pairs.append((RANK[judged[judge_id]], RANK[measured[rubric_id]]))
                compared.add(judge_id)
    if pairs:
        mapping = {k: v for k, v in mapping.items() if k in compared}
    exact, within_one = paired_agreement(pairs)
    alpha = ordinal_alpha([list(pair) for pair in pairs])
    if not pairs:
        alpha = Alpha(None, "no item was rated by both the judge and the rubric", 0)
    return RubricAgreement(
        criteria=mapping,
        pairs=len(pairs),
        exact_agreement=exact,
        within_one=within_one,
        krippendorff_alpha=alpha.value,
        alpha_note=alpha.reason,
    )


def summarize_judgements(
    items: list[ItemEvaluation],
    criteria: tuple[JudgeCriterion, ...],
    rubric_criteria: list[str],
    settings: JudgeSettings,
    mode: str,
    mode_note: str,
    quote: PriceQuote,
) -> JudgeSummary:
    """The experiment's JudgeSummary from items whose `judge` is filled in (or that the model failed)."""
    criterion_summaries, grade = judge_grade(items, criteria)
    judgements = [item.judge for item in items if item.judge is not None]
    samples = [s for j in judgements for s in j.samples]
    usage = Usage()
    paid, paid_in_batch = Usage(), Usage()
    for s in samples:
        usage = usage + s.usage
        if s.batch_id:
            paid_in_batch = paid_in_batch + (s.usage - s.cached_usage)
        else:
            paid = paid + (s.usage - s.cached_usage)
    cost, _, _ = cost_of(paid, quote)
    batch_cost, _, _ = cost_of(paid_in_batch, batch_quote(quote))
    cost = None if cost is None or batch_cost is None else cost + batch_cost
    batched = sum(1 for s in samples if s.batch_id)
    return JudgeSummary(
        spec=settings.spec,
        base_url=settings.base_url,
        mode=mode,  # type: ignore[arg-type]
        mode_note=mode_note,
        samples_per_item=settings.samples,
        median_rule=MEDIAN_RULE,
        prompts_fingerprint=judge_prompts_fingerprint(),
        criteria=criterion_summaries,
        grade=grade,
        judged_items=grade.n_items if grade is not None else 0,
        unscored_items=sum(1 for j in judgements if j.status == "unscored"),
        unscored_samples=sum(1 for s in samples if s.status == "unscored"),
        failed_samples=sum(1 for s in samples if s.status == "failed"),
        excerpted_items=sum(1 for j in judgements if j.source_excerpted),
        agreement=sample_agreement(items, criteria, settings.samples),
        judge_vs_rubric=rubric_agreement(items, criteria, rubric_criteria),
        usage=usage,
        calls=sum(s.calls for s in samples),
        cost_usd=cost,
        cost_status=quote.status,
        pricing=quote.describe() + (f"; batch: {batch_quote(quote).describe()}" if batched else ""),
        batched_samples=batched,
    )
