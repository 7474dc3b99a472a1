"""The rubric: thresholds at their exact boundaries, the grade formula, the overall rating, aggregation."""

from __future__ import annotations

import pytest

from gaia_eval import usecases
from gaia_eval.artifacts.evaluation import CriterionResult, ItemEvaluation
from gaia_eval.scoring.rubric.grading import (
    QA_CRITERIA,
    REFERENCE_CRITERIA,
    STANDALONE_CRITERIA,
    SUMMARY_CRITERIA,
    aggregate,
    bootstrap_ci,
    criterion_result,
    item_points,
    overall_rating,
    quality_score,
    rate,
    rubric_markdown,
)
from gaia_eval.scoring.scorers import FREE_TEXT, LONG_FORM_QA, QA, SUMMARIES, SUMMARIES_STANDALONE, criteria_of

# Every built-in criterion, as the built-in scorers carry them (there is no table of them elsewhere)
CRITERIA = {c.id: c for s in (SUMMARIES, SUMMARIES_STANDALONE, FREE_TEXT, QA, LONG_FORM_QA) for c in s.criteria}


def _item(item_id: str, ratings: dict[str, str], passed: bool | None = None) -> ItemEvaluation:
    return ItemEvaluation(
        item_id=item_id,
        source=f"{item_id}.txt",
        status="scored",
        criteria=[
            CriterionResult(criterion=c, rating=r, measure="m", value={"Excellent": 1.0, "Poor": 0.0}.get(r, 0.5),
                            explanation="e")
            for c, r in ratings.items()
        ],
        passed=passed,
    )


def _error(item_id: str) -> ItemEvaluation:
    return ItemEvaluation(item_id=item_id, source=f"{item_id}.txt", status="error", error="timeout")


@pytest.mark.parametrize("criterion_id", list(CRITERIA))
def test_each_threshold_is_inclusive_and_the_value_just_below_drops_a_level(criterion_id: str) -> None:
    c = CRITERIA[criterion_id]
    assert c.excellent >= c.good >= c.fair > 0
    assert rate(criterion_id, c.excellent) == "Excellent"
    assert rate(criterion_id, c.good) == "Good"
    assert rate(criterion_id, c.fair) == "Fair"
    assert rate(criterion_id, c.excellent - 0.0001) == "Good"
    assert rate(criterion_id, c.good - 0.0001) == "Fair"
    assert rate(criterion_id, c.fair - 0.0001) == "Poor"
    assert rate(criterion_id, None) == "Poor"


def test_criterion_result_rates_the_stored_rounded_value() -> None:
    good = CRITERIA["action_items"].good
    result = criterion_result("action_items", good - 0.00001, "x")
    assert result.value == good and result.rating == "Good"  # what a reader sees is what was rated
    assert result.measure == CRITERIA["action_items"].measure


def test_quality_score_formula() -> None:
    assert quality_score({"Excellent": 5}) == 100.0
    assert quality_score({"Poor": 7}) == 0.0
    assert quality_score({"Good": 3}) == pytest.approx(200 / 3)
    assert quality_score({"Fair": 1}) == pytest.approx(100 / 3)
    assert quality_score({}) == 0.0
    assert quality_score({"Excellent": 0, "Good": 0, "Fair": 0, "Poor": 0}) == 0.0
    # The reference tool's defect: 1 Excellent and 9 failed items scored 100 %. Here failures are Poor in N.
    assert quality_score({"Excellent": 1, "Poor": 9}) == 10.0


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        ({"Excellent": 7, "Poor": 3}, "Good"),  # grade 70
        ({"Excellent": 6, "Good": 1, "Poor": 3}, "Good"),  # 66.7: all-Good level
        ({"Excellent": 6, "Poor": 4}, "Fair"),  # 60
        ({"Good": 3, "Fair": 4, "Poor": 3}, "Fair"),  # 33.3: all-Fair level (rubric 7)
        ({"Fair": 26, "Poor": 1}, "Poor"),  # 32.1
        ({"Excellent": 2, "Good": 2, "Fair": 2, "Poor": 4}, "Fair"),  # 40
        ({"Excellent": 7, "Good": 1}, "Excellent"),  # 95.8
        ({}, "Poor"),
    ],
)
def test_overall_rating_is_the_band_of_the_grade(counts: dict[str, int], expected: str) -> None:
    assert overall_rating(counts) == expected


@pytest.mark.parametrize(
    ("grade", "expected"),
    [(100, "Excellent"), (87.5, "Excellent"), (84.6, "Excellent"), (84.4, "Good"), (80.1, "Good"), (66.7, "Good"),
     (66.4, "Fair"), (34, "Fair"), (33.3, "Fair"), (32.4, "Poor"), (0, "Poor")],
)
def test_documented_rating_bands(grade: float, expected: str) -> None:
    from gaia_eval.scoring.rubric.grading import rating_band

    assert rating_band(grade) == expected


def test_criteria_per_use_case_and_mode() -> None:
    """Which criteria an item is scored on is its use case's scorer's say (scorers.criteria_of)."""
    qa, summarization, email = (usecases.get(n) for n in ("qa", "summarization", "email"))
    assert list(criteria_of(qa, "comparative")) == ["correctness"] == list(QA_CRITERIA)
    assert list(criteria_of(summarization, "comparative")) == [
        "executive_summary_accuracy", "completeness", "action_items", "key_decisions", "participants",
        "topic_coverage",
    ]  # fmt: skip
    assert list(criteria_of(email, "comparative")) == list(SUMMARY_CRITERIA)
    assert list(criteria_of(summarization, "standalone")) == list(STANDALONE_CRITERIA)
    assert criteria_of(qa, "standalone") == ()  # an answer needs its expected answer
    assert list(criteria_of(email, "comparative", free_text=True)) == [
        *REFERENCE_CRITERIA, "action_items", "key_decisions", "participants"]
    for c in STANDALONE_CRITERIA:
        assert "not verified against facts" in CRITERIA[c].measure


def test_errored_items_count_as_poor_everywhere_and_fail_the_pass_rate() -> None:
    items = [_item("a", {"correctness": "Excellent"}, passed=True)] + [_error(f"e{i}") for i in range(9)]
    summaries, grade = aggregate(items, ["correctness"], pass_rate=True)
    assert grade.quality_score == 10.0
    assert grade.counts == {"Excellent": 1, "Good": 0, "Fair": 0, "Poor": 9}
    assert (grade.n_ratings, grade.n_items, grade.n_errors) == (10, 10, 9)
    assert grade.passed == 1 and grade.pass_rate == 0.1
    assert grade.overall_rating == "Poor"
    assert summaries[0].counts["Poor"] == 9
    assert summaries[0].mean_value == pytest.approx(0.1)  # errors count 0 in the mean, not skipped


def test_aggregate_summarization_counts_every_rating_of_every_item() -> None:
    criteria = list(SUMMARY_CRITERIA)
    perfect = _item("a", dict.fromkeys(criteria, "Excellent"))
    mixed = _item("b", dict(zip(criteria, ["Excellent", "Good", "Good", "Fair", "Poor", "Poor"], strict=True)))
    summaries, grade = aggregate([perfect, mixed, _error("c")], criteria, pass_rate=False)
    assert grade.n_ratings == 18
    assert grade.counts == {"Excellent": 7, "Good": 2, "Fair": 1, "Poor": 8}
    assert grade.quality_score == pytest.approx(((4 * 7 + 3 * 2 + 2 + 8) / 18 - 1) * 100 / 3)
    assert grade.pass_rate is None and grade.passed is None
    assert [s.criterion for s in summaries] == criteria
    assert summaries[0].counts == {"Excellent": 2, "Good": 0, "Fair": 0, "Poor": 1}


def test_aggregate_of_no_items_is_a_zero_grade_not_a_crash() -> None:
    _, grade = aggregate([], ["correctness"], pass_rate=True)
    assert grade.quality_score == 0.0 and grade.overall_rating == "Poor" and grade.pass_rate == 0.0


def test_a_scored_item_missing_a_criterion_is_a_bug_not_a_silent_poor() -> None:
    with pytest.raises(ValueError, match="without criteria"):
        aggregate([_item("a", {"completeness": "Good"})], ["completeness", "participants"], pass_rate=False)


def test_item_points_and_bootstrap_are_deterministic() -> None:
    criteria = ["correctness"]
    items = [_item(str(i), {"correctness": "Excellent" if i % 3 else "Poor"}) for i in range(30)]
    points = [item_points(item, criteria) for item in items]
    assert set(points) == {0.0, 100.0}
    assert item_points(_error("x"), criteria) == 0.0
    low, high = bootstrap_ci(points, seed=0)
    assert bootstrap_ci(points, seed=0) == (low, high)
    assert low < sum(points) / len(points) < high
    assert bootstrap_ci([]) is None and bootstrap_ci([50.0]) == (50.0, 50.0)


def test_rubric_markdown_lists_every_criterion_with_its_thresholds() -> None:
    text = rubric_markdown()
    for c in CRITERIA.values():
        assert f"`{c.id}`" in text and f"≥ {c.excellent:.2f}" in text
    assert "((4E + 3G + 2F + 1P) / N − 1) × 100 / 3" in text
