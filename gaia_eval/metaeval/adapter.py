"""The one place that turns a plain-text summary into gaia-eval's per-criterion scores and grade, so that the
scorer behind meta-eval can change in one file.

Today the rubric scores structured summaries; a rated summary is one text, so it stands in as both the executive
and the detailed summary, and only the criteria that read prose are kept (the list criteria have nothing to
read). With references the comparative criteria apply (the best over the references counts) and the grade is
theirs, as in `eval` with ground truth; with a source the source-grounded criteria are measured too, and without
references the grade is theirs. A criterion whose input is missing is None (not applicable).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from gaia_eval.artifacts.groundtruth import Summaries
from gaia_eval.scoring.rubric.grading import POINTS
from gaia_eval.scoring.rubric.standalone import SourceIndex, score_summaries_standalone
from gaia_eval.scoring.rubric.summaries import score_summaries

REFERENCE_CRITERIA = ("executive_summary_accuracy", "completeness")
SOURCE_CRITERIA = ("grounded_executive_summary", "grounded_detailed_summary")
CRITERIA = (*REFERENCE_CRITERIA, *SOURCE_CRITERIA)


@dataclass(frozen=True)
class SummaryScores:
    criteria: dict[str, float | None]  # criterion id -> value 0..1; None = not applicable
    grade: float | None  # quality score 0..100; None when no criterion applies


def _as_summaries(text: str) -> Summaries:
    return Summaries(executive_summary=text, detailed_summary=text)


def _grade(ratings: list[str]) -> float:
    return (sum(POINTS[r] for r in ratings) / len(ratings) - 1) * 100 / 3


@lru_cache(maxsize=64)
def _index(source: str) -> SourceIndex:
    """One index per source: the summaries of one item share it."""
    return SourceIndex(source)


def _against_references(output: str, references: Sequence[str]) -> tuple[dict[str, float], float]:
    best: dict[str, float] = {}
    best_grade = 0.0
    for reference in references:
        results = [r for r in score_summaries(_as_summaries(output), _as_summaries(reference)) if r.criterion in REFERENCE_CRITERIA]
        for r in results:
            best[r.criterion] = max(best.get(r.criterion, 0.0), r.value or 0.0)
        best_grade = max(best_grade, _grade([r.rating for r in results]))
    return best, best_grade


def _against_source(output: str, source: str) -> tuple[dict[str, float], float]:
    results = [
        r for r in score_summaries_standalone(_as_summaries(output), source, _index(source)) if r.criterion in SOURCE_CRITERIA
    ]
    return {r.criterion: r.value or 0.0 for r in results}, _grade([r.rating for r in results])


def score_summary(output: str, source: str | None, references: Sequence[str] = ()) -> SummaryScores:
    """Every criterion (None where its input is missing) and the grade of one free-text summary."""
    values: dict[str, float | None] = dict.fromkeys(CRITERIA)
    grade = None
    if source and source.strip():
        found, grade = _against_source(output, source)
        values.update(found)
    references = [r for r in references if r.strip()]
    if references:
        found, grade = _against_references(output, references)
        values.update(found)
    return SummaryScores(values, grade)
