"""The one place that turns a plain-text summary into gaia-eval's per-criterion scores and grade.

The rubric scores structured summaries; a rated summary is one text, so it stands in as both the executive and
the detailed summary, and only the criteria that read prose are kept (the list criteria have nothing to read).
With references the comparative criteria apply (the best of the references counts); with only a source, the
source-grounded ones. The grade is the rubric's quality score (0-100) over the kept criteria.
"""

from __future__ import annotations

from dataclasses import dataclass

from gaia_eval.artifacts.groundtruth import Summaries
from gaia_eval.scoring.rubric.grading import POINTS
from gaia_eval.scoring.rubric.standalone import SourceIndex, score_summaries_standalone
from gaia_eval.scoring.rubric.summaries import score_summaries

PROSE_COMPARATIVE = ("executive_summary_accuracy", "completeness")
PROSE_STANDALONE = ("grounded_executive_summary", "grounded_detailed_summary")


@dataclass(frozen=True)
class SummaryScores:
    criteria: dict[str, float]  # criterion id -> value 0..1
    grade: float  # quality score 0..100 over those criteria


def _as_summaries(text: str) -> Summaries:
    return Summaries(executive_summary=text, detailed_summary=text)


def _grade(ratings: list[str]) -> float:
    return (sum(POINTS[r] for r in ratings) / len(ratings) - 1) * 100 / 3


def score_comparative(output: str, references: tuple[str, ...]) -> SummaryScores:
    """Against each reference, keeping the best value per criterion and the best grade."""
    best: dict[str, float] = {}
    best_grade = 0.0
    for reference in references:
        results = [r for r in score_summaries(_as_summaries(output), _as_summaries(reference)) if r.criterion in PROSE_COMPARATIVE]
        for r in results:
            best[r.criterion] = max(best.get(r.criterion, 0.0), r.value or 0.0)
        best_grade = max(best_grade, _grade([r.rating for r in results]))
    return SummaryScores(best, best_grade)


def score_standalone(output: str, source: str, index: SourceIndex | None = None) -> SummaryScores:
    """Against the source only; pass `index` to reuse one SourceIndex for every summary of the same source."""
    results = [r for r in score_summaries_standalone(_as_summaries(output), source, index) if r.criterion in PROSE_STANDALONE]
    return SummaryScores({r.criterion: r.value or 0.0 for r in results}, _grade([r.rating for r in results]))
