"""The rubric: the criteria (which of them an item is scored on is its use case's scorer's say), the thresholds
that turn a measurement into Excellent/Good/Fair/Poor, and the grade of a model computed from those ratings.

Grade (the reference tool's formula, with its defect fixed): quality_score = ((4E + 3G + 2F + 1P) / N - 1) * 100 / 3
over every rating of every item, where an item the model failed (status "error") counts as Poor on every criterion;
the reference left failed items out of N, so a model failing 9 of 10 items could score 100 %.
Free-text summaries (mode "reference") weigh their criteria's measured values by weights fit on human ratings
(weights.py): their grade is the mean over items of each item's weighted mean of values, times 100, so it keeps
the order of summaries inside a rating band; the criteria's ratings are shown beside it as for any use case.
"""

from __future__ import annotations

import math
import random

from gaia_eval.artifacts.evaluation import (
    NOT_APPLICABLE,
    RATINGS,
    CriterionResult,
    CriterionSummary,
    Grade,
    ItemEvaluation,
    Rating,
)
from gaia_eval.scoring.criteria import Criterion
from gaia_eval.scoring.rubric.weights import by_value, criterion_weights, share

# Bump on any change to a threshold, a measure or the tokenizer: it is part of the eval fingerprint, so
# evaluations made under an older rubric are recomputed instead of being compared with new ones.
# 2: the overall rating is the band of the grade (85/67/34); 3: N/A criteria, free-text references; 4: qa answers
# read with their question; 5: free-text consistency reads narration and spoken numbers, source coverage ignores
# repeated speaker labels, a short source allows a summary of 50 words; 6: a qa answer whose reference is prose
# is scored with the free-text criteria (long-form answers), not the short-answer matcher; 7: free-text criteria
# weighted by weights fit on human ratings (data/freetext_weights.json), degenerate outputs (degenerate.py) Poor;
# 8: Fair starts at 33, so a grade made of Fair ratings alone (33.3) is Fair, as one of Good ratings alone (66.7)
# is Good; 9: a free-text summary's grade is the weighted mean of its criteria's measured values, not of their
# rating points (it keeps the order inside a band), with weights refit on that grade; 10: a long-form answer
# carrying none of its reference's content (reference overlap and content coverage Poor) earns nothing for
# consistency and conciseness, and is checked against every reference answer of its question
RUBRIC_VERSION = "10"

POINTS: dict[str, int] = {"Excellent": 4, "Good": 3, "Fair": 2, "Poor": 1}


_F1_WHY = (
    "Excellent allows about one slip in five (4 of 5 found, none extra: F1 0.89); "
    "Fair needs roughly a third of the items right with few extras (F1 ≥ 0.4)."
)

# The built-in scorers' criteria, by id: read by the rubric's own scoring functions (`criterion_result`) and
# carried by the built-in `Scorer`s (`builtin_criteria`); anything else asks a use case's scorer.
_CRITERIA: dict[str, Criterion] = {
    c.id: c
    for c in (
        Criterion(
            "executive_summary_accuracy",
            "Executive summary accuracy",
            "comparative",
            "0.75 × key-fact recall (names, figures, dates and content words of the expected executive summary "
            "found in the answer's; figures and names weigh half when present) + 0.25 × ROUGE-L F1, "
            "minus 0.1 per figure (amount ≥ 10, percent or date; not a year) absent from the ground truth, "
            "at most 0.3",
            0.70,
            0.50,
            0.30,
            "A faithful paraphrase keeps the facts but few exact words (ROUGE-L F1 ≈ 0.3–0.5), so 0.70 is reached "
            "by recalling ~85 % of the facts; 0.30 is about a third of them.",
        ),
        Criterion(
            "completeness",
            "Completeness",
            "comparative",
            "recall of planted items (decisions, action items, key figures, topics) found in the answer's detailed "
            "and executive summaries; a text item counts when 60 % of its content words are there, a figure "
            "when its normalized value is",
            0.85,
            0.65,
            0.40,
            "A detailed summary should carry nearly everything (one miss in seven is still Excellent); "
            "below 40 % most of the document is lost.",
        ),
        Criterion(
            "action_items",
            "Action items",
            "comparative",
            "F1 of action items matched one-to-one by task wording (similarity ≥ 0.5) with the right owner; "
            "a match without the due date earns half credit",
            0.80,
            0.60,
            0.40,
            _F1_WHY,
        ),
        Criterion(
            "key_decisions",
            "Key decisions",
            "comparative",
            "F1 of decisions matched one-to-one by wording (similarity ≥ 0.5)",
            0.80,
            0.60,
            0.40,
            _F1_WHY,
        ),
        Criterion(
            "participants",
            "Participants",
            "comparative",
            "F1 of participant names (first name or full name is the same person; role text ignored)",
            0.90,
            0.75,
            0.50,
            "Names are easy to copy, so Excellent needs all of them (one slip in ten); "
            "one missing of four (F1 0.86) is Good.",
        ),
        Criterion(
            "topic_coverage",
            "Topic coverage",
            "comparative",
            "recall of expected topics found anywhere in the answer (60 % of a topic's content words present)",
            0.80,
            0.60,
            0.40,
            "One missed topic in five is still Excellent; fewer than two in five is Poor.",
        ),
        Criterion(
            "grounded_executive_summary",
            "Executive summary grounded and concise",
            "standalone",
            "share of the executive summary's content words found in the source, minus 0.25 when it is over 120 "
            "words, minus half the share of its words copied in verbatim source spans of 12+ words (not verified "
            "against facts)",
            0.85,
            0.70,
            0.50,
            "Summaries reword, so some 10–15 % of content words are legitimately new; under half is invention.",
        ),
        Criterion(
            "grounded_detailed_summary",
            "Detailed summary grounded",
            "standalone",
            "share of the detailed summary's sentences supported by a source passage (half of their content words "
            "in one source passage of about 80 words; minus half the share of words copied in verbatim source "
            "spans of 12+ words; not verified against facts)",
            0.90,
            0.75,
            0.50,
            "A grounded summary has at most one unsupported sentence in ten.",
        ),
        Criterion(
            "grounded_action_items",
            "Action items grounded",
            "standalone",
            "share of action items supported by a source passage (half of their content words in one source "
            "passage of about 80 words; minus half the share of words copied in verbatim source spans of 12+ words; "
            "not verified against facts)",
            0.90,
            0.70,
            0.50,
            "Every listed task should be traceable to the source; one in ten unsupported is tolerated.",
        ),
        Criterion(
            "grounded_key_decisions",
            "Key decisions grounded",
            "standalone",
            "share of decisions supported by a source passage (half of their content words in one source "
            "passage of about 80 words; minus half the share of words copied in verbatim source spans of 12+ words; "
            "not verified against facts)",
            0.90,
            0.70,
            0.50,
            "Every listed decision should be traceable to the source; one in ten unsupported is tolerated.",
        ),
        Criterion(
            "grounded_participants",
            "Participants grounded",
            "standalone",
            "share of listed participants named in the source (not verified against facts)",
            1.00,
            0.80,
            0.50,
            "A participant who is not in the source is invented, so Excellent allows none.",
        ),
        Criterion(
            "grounded_topics",
            "Topics grounded",
            "standalone",
            "share of listed topics whose content words are found in the source (60 %; not verified against facts)",
            0.90,
            0.70,
            0.50,
            "Topics are short labels, usually in the document's own words; one in ten may be a rewording.",
        ),
        Criterion(
            "reference_overlap",
            "Reference overlap (ROUGE)",
            "reference",
            "mean of ROUGE-1, ROUGE-2 and ROUGE-L recall (rouge-score, Porter stemming) against the human reference "
            "summaries, best over references (F1 shown beside it; length is checked by conciseness)",
            0.50,
            0.35,
            0.20,
            "Two human summaries of the same text reach ROUGE-1 ≈ 0.4–0.5 and ROUGE-2 ≈ 0.15–0.25; a recall mean of "
            "0.50 is human-like agreement, below 0.20 little of the reference's wording is there (thresholds tuned on "
            "DialSummEval's first 25 dialogues).",
        ),
        Criterion(
            "content_coverage",
            "Content coverage",
            "reference",
            "mean over the reference's sentences of the share of their content words (stemmed) that the output "
            "carries, best over references",
            0.90,
            0.70,
            0.45,
            "A summary that carries three quarters of what the human wrote is as complete as a second human "
            "summary; under a third of it misses most of the content.",
        ),
        Criterion(
            "source_coverage",
            "Covers the source's main content",
            "reference",
            "share of the source's 30 most frequent content words (stemmed; names included; fillers of speech, "
            "contraction fragments and honorifics left out, a speaker label counted once) that the output carries",
            0.65,
            0.45,
            0.25,
            "A summary cannot carry every frequent word; two thirds of the 30 is a full summary, under a quarter "
            "misses what the source is about (tuned on DialSummEval's first 25 dialogues).",
        ),
        Criterion(
            "source_consistency",
            "Consistent with the source",
            "reference",
            "share of the output's sentences supported by one source passage (40 % of their content words; words "
            "that narrate a conversation, such as talked, suggested or members, left out), lowered to the share of "
            "its names, numbers and dates found in the source (also spelled out: 'twelve fifty' is 12.5 or 1250) "
            "when that is smaller",
            0.95,
            0.80,
            0.60,
            "Every sentence and every name or figure should be traceable to the source; one unsupported claim in "
            "five is Fair.",
        ),
        Criterion(
            "conciseness",
            "Concise, not copied",
            "reference",
            "1 − 2 × the share of repeated word trigrams, minus a penalty for length beyond 3× the reference's; "
            "without a reference, minus a penalty for length beyond 35 % of the source's (50 words for a short "
            "source) that takes everything from 85 % on (a copy of the document is not a summary)",
            0.90,
            0.75,
            0.50,
            "Length and copying must not buy score: a summary over three times the reference's length, with "
            "repeated phrases, or most of the source copied is no longer Excellent.",
        ),
        Criterion(
            "correctness",
            "Correctness",
            "answer",
            "1.0 when the answer matcher (mode gaia, or eval --match-mode) accepts the answer against any of the "
            "question's reference answers; otherwise the best SQuAD token F1 against them (a near miss such as a "
            "partial list scores high, a wrong number scores 0)",
            1.00,
            0.80,
            0.50,
            "Excellent only for a correct answer; Good is a near miss (most of the expected tokens, e.g. a list "
            "missing one of five); Fair is a partial answer. Only Excellent passes.",
        ),
    )
}

SUMMARY_CRITERIA: tuple[str, ...] = tuple(c.id for c in _CRITERIA.values() if c.mode == "comparative")
STANDALONE_CRITERIA: tuple[str, ...] = tuple(c.id for c in _CRITERIA.values() if c.mode == "standalone")
REFERENCE_CRITERIA: tuple[str, ...] = tuple(c.id for c in _CRITERIA.values() if c.mode == "reference")
QA_CRITERIA: tuple[str, ...] = ("correctness",)
# A GAIA-style answer is "a number or as few words as possible": an expected answer longer than this is prose, and
# the answer is scored as long-form (longform.py).
SHORT_ANSWER_WORDS = 12


def builtin_criteria(ids: tuple[str, ...]) -> tuple[Criterion, ...]:
    """The built-in criteria of these ids, for the built-in scorers to carry."""
    return tuple(_CRITERIA[c] for c in ids)


def rate(criterion_id: str, value: float | None) -> Rating:
    return _CRITERIA[criterion_id].rate(value)


def criterion_result(criterion_id: str, value: float | None, explanation: str) -> CriterionResult:
    """The stored result: the rating read from `value` by the criterion's thresholds, with its measure."""
    criterion = _CRITERIA[criterion_id]
    stored = None if value is None else round(value, 4)  # rated as stored, so a reader can check the rating
    return CriterionResult(
        criterion=criterion_id,
        rating=criterion.rate(stored),
        measure=criterion.measure,
        value=stored,
        explanation=explanation,
    )


def not_applicable(criterion_id: str, why: str) -> CriterionResult:
    """A criterion the ground truth gives nothing to check against: N/A, outside the grade's denominator."""
    return CriterionResult(
        criterion=criterion_id,
        rating=NOT_APPLICABLE,
        measure=_CRITERIA[criterion_id].measure,
        value=None,
        explanation=f"not applicable: {why}",
    )


def quality_score(counts: dict[str, int]) -> float:
    """((4E + 3G + 2F + 1P) / N - 1) * 100 / 3, in integer arithmetic until the last division so that, e.g.,
    1 Excellent + 9 Poor is exactly 10.0. N = 0 gives 0.0."""
    n = sum(counts.get(r, 0) for r in RATINGS)
    if n == 0:
        return 0.0
    points = sum(POINTS[r] * counts.get(r, 0) for r in RATINGS)
    return (points - n) * 100 / (3 * n)


# The documented bands of the grade (0-100), best first: 85-100 Excellent, 67-84 Good, 33-66 Fair, 0-32 Poor. A
# grade made of one rating alone lands in that rating's band (Good 66.7 -> 67, Fair 33.3 -> 33), so an item rated
# Fair is in the Fair band wherever an item is banded by its points (the items chart, the viewer).
RATING_BANDS: tuple[tuple[int, Rating], ...] = ((85, "Excellent"), (67, "Good"), (33, "Fair"), (0, "Poor"))


def rating_band(grade: float) -> Rating:
    """The rating of a grade, by the documented bands on the grade rounded half up to a whole number (all
    Good ratings, 66.7, are Good; 87.5 is Excellent; 80.1 is Good)."""
    whole = math.floor(grade + 0.5)
    for floor_, rating in RATING_BANDS:
        if whole >= floor_:
            return rating
    return "Poor"


def overall_rating(counts: dict[str, int]) -> Rating:
    """The overall rating of rating counts: the band of their grade, so a grade and its rating always agree."""
    return rating_band(quality_score(counts))


def with_not_applicable(results: list[CriterionResult], wanted: tuple[str, ...], why: str) -> list[CriterionResult]:
    """`results` plus N/A (because `why`) for each criterion of `wanted` they do not hold, in `wanted`'s order:
    an item of an experiment whose items need more than one scorer carries every one's criteria."""
    if not wanted:
        return results
    by_id = {r.criterion: r for r in results}
    return [by_id.get(c) or not_applicable(c, why) for c in wanted]


def _ratings_of(item: ItemEvaluation, criteria: list[str]) -> list[tuple[str, str, float | None]]:
    """(criterion, rating, value) for each criterion; an errored item is Poor with no value on every one."""
    if item.status == "error":
        return [(c, "Poor", None) for c in criteria]
    by_id = {r.criterion: r for r in item.criteria}
    missing = [c for c in criteria if c not in by_id]
    if missing:
        raise ValueError(f"item {item.item_id!r} was scored without criteria {missing}")
    return [(c, by_id[c].rating, by_id[c].value) for c in criteria]


def _weighted_points(item: ItemEvaluation, criteria: list[str]) -> tuple[float, float]:
    """(sum of weight x (points - 1), sum of weights) over the item's applicable ratings (weights.py: the free-text
    criteria's fitted weights, summing to 1 per item, for a summary's free-text criteria (source_coverage among
    them; a long-form qa answer has none); every other criterion 1.0). A summary's free-text criterion counts its
    measured value instead of its rating: 3 x value on the same 0..3 scale (an errored item's None is 0)."""
    rated = {c: (r, v) for c, r, v in _ratings_of(item, criteria) if r != NOT_APPLICABLE}
    learned = "source_coverage" in criteria
    weights = criterion_weights(rated, learned=learned)
    points = sum(
        weights[c] * (3 * share(v) if by_value(c, learned) else POINTS[r] - 1) for c, (r, v) in rated.items()
    )
    return points, sum(weights.values())


def item_points(item: ItemEvaluation, criteria: list[str]) -> float:
    """The item's score on the quality_score scale (0..100): the (weighted) mean of its ratings, errors as Poor."""
    points, weight = _weighted_points(item, criteria)
    return points * 100 / (3 * weight) if weight else 0.0


def aggregate(
    items: list[ItemEvaluation], criteria: list[str], *, pass_rate: bool
) -> tuple[list[CriterionSummary], Grade]:
    """Per-criterion rating counts and mean values, and the model's grade, with a pass rate when `pass_rate`
    (answers to questions: passed / items with a pass/fail; a long-form answer has none). Errored items are Poor
    on every criterion, count 0 in mean_value and fail in the pass rate."""
    per_criterion: dict[str, dict[str, int]] = {c: dict.fromkeys(RATINGS, 0) for c in criteria}
    not_applicable_counts: dict[str, int] = dict.fromkeys(criteria, 0)
    value_sums: dict[str, float] = dict.fromkeys(criteria, 0.0)
    value_counts: dict[str, int] = dict.fromkeys(criteria, 0)
    for item in items:
        for criterion, rating, value in _ratings_of(item, criteria):
            if rating == NOT_APPLICABLE:
                not_applicable_counts[criterion] += 1
                continue
            per_criterion[criterion][rating] += 1
            if item.status == "error" or value is not None:
                value_sums[criterion] += value or 0.0
                value_counts[criterion] += 1
    summaries = [
        CriterionSummary(
            criterion=c,
            # "N/A" appears only when some item made the criterion not applicable (older files stay unchanged).
            counts={
                **per_criterion[c],
                **({NOT_APPLICABLE: not_applicable_counts[c]} if not_applicable_counts[c] else {}),
            },
            mean_value=value_sums[c] / value_counts[c] if value_counts[c] else None,
        )
        for c in criteria
    ]
    totals = {r: sum(per_criterion[c][r] for c in criteria) for r in RATINGS}
    weighted = [_weighted_points(item, criteria) for item in items]
    points, weight = sum(p for p, _ in weighted), sum(w for _, w in weighted)
    score = points * 100 / (3 * weight) if weight else 0.0
    n_not_applicable = sum(not_applicable_counts.values())
    passed = sum(1 for item in items if item.status == "scored" and item.passed) if pass_rate else None
    # Long-form answers have no pass/fail: the pass rate is over the items that have one (errors fail), and
    # there is none when every answered item is long-form.
    verdicts = sum(1 for item in items if item.status == "error" or item.passed is not None)
    if (
        passed is not None
        and verdicts < len(items)
        and not any(i.status == "scored" and i.passed is not None for i in items)
    ):
        passed = None
    grade = Grade(
        quality_score=score,
        overall_rating=rating_band(score),
        counts={**totals, **({NOT_APPLICABLE: n_not_applicable} if n_not_applicable else {})},
        n_ratings=sum(totals.values()),
        n_items=len(items),
        n_errors=sum(1 for item in items if item.status == "error"),
        pass_rate=(passed / verdicts if verdicts else 0.0) if passed is not None else None,
        passed=passed,
    )
    return summaries, grade


def bootstrap_ci(
    values: list[float], n: int = 1000, seed: int = 0, level: float = 0.95
) -> tuple[float, float] | None:
    """Percentile bootstrap confidence interval of the mean of `values` (e.g. item_points per item, or 1/0 per
    qa item for the pass rate). Deterministic: the resampling uses its own Random(seed). None for no values."""
    if not values:
        return None
    if len(values) == 1:
        return values[0], values[0]
    rng = random.Random(seed)
    size = len(values)
    means = sorted(sum(rng.choices(values, k=size)) / size for _ in range(n))
    tail = (1 - level) / 2
    low = means[int(tail * (n - 1))]
    high = means[round((1 - tail) * (n - 1))]
    return low, high


def _weights_text(name: str) -> str:
    from gaia_eval.scoring.rubric.weights import weight_set

    return ", ".join(f"{_CRITERIA[c].label.lower()} {w:g}" for c, w in weight_set(name).items() if w > 0)


def rubric_markdown() -> str:
    """The rubric as markdown tables (one per mode) for the README and the report: measure and thresholds."""
    titles = {
        "comparative": "Summarization and email, against ground truth",
        "standalone": "Summarization and email without ground truth (checked against the source only)",
        "reference": "Free-text summaries against human-written references and/or the source (a criterion "
        "whose input is missing is N/A)",
        "answer": "Question answering",
    }
    lines = [f"Rubric version {RUBRIC_VERSION}. A value ≥ the Excellent threshold is Excellent, else ≥ Good is "
             "Good, else ≥ Fair is Fair, else Poor; an empty answer field is Poor.", ""]
    for mode, title in titles.items():
        lines += [f"**{title}**", "", "| Criterion | Measure (value 0–1) | Excellent | Good | Fair | Why |",
                  "|---|---|---|---|---|---|"]
        for c in _CRITERIA.values():
            if c.mode == mode:
                lines.append(f"| {c.label} (`{c.id}`) | {c.measure} | ≥ {c.excellent:.2f} | ≥ {c.good:.2f} "
                             f"| ≥ {c.fair:.2f} | {c.why} |")
        lines.append("")
    lines += [
        "Grade: quality_score = ((4E + 3G + 2F + 1P) / N − 1) × 100 / 3 over every rating of every item, where an "
        "item the model failed counts as Poor on every criterion (N includes it) and an N/A rating (the ground "
        "truth gives nothing to check, e.g. no action items in a human reference) is left out of N. Free-text "
        "summaries weigh their criteria's measured values instead (weights fit on human ratings, "
        "gaia_eval/data/freetext_weights.json: with a reference "
        f"{_weights_text('with_reference')}; from the source only {_weights_text('source_only')}): their grade is "
        "the mean over items of each item's weighted mean of values (0–1) × 100, so two summaries rated alike are "
        "still told apart by how much each carries, and an output "
        "that is not a summary (empty, under 3 words, a repetition loop, cut off mid-sentence, transcript speech, "
        "a verbatim copy of a source of 60+ words) is Poor on every criterion. Overall rating, "
        "from the grade rounded to a whole number: 85–100 Excellent, 67–84 Good, 33–66 Fair, 0–32 Poor. QA pass "
        "rate = passed / the items that have a pass/fail (failed items count as not passed; a long-form answer has "
        f"none). A qa answer whose expected answers are all prose (more than {SHORT_ANSWER_WORDS} words, not a list "
        "of short items nor a number) is a long-form answer: scored on the free-text criteria reference overlap, "
        "content coverage, consistency with the source and conciseness (their ratings' points, equal weights; the "
        "not-a-summary rules apply; against the reference answer it comes closest to), never by the short-answer "
        "matcher; one whose reference overlap and content coverage are both Poor is Poor on consistency and "
        "conciseness too."
    ]
    return "\n".join(lines) + "\n"

