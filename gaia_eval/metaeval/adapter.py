"""The one place that turns a plain-text summary into gaia-eval's per-criterion scores and grade, so that the
scorer behind meta-eval can change in one file.

A rated summary is one free text, scored exactly as `eval` scores a free-text output against human references
(`scoring.rubric.score_summary_output`): reference overlap and content coverage against the references (the
best over several), source coverage and consistency against the source, and conciseness. A criterion whose
input is missing is None (not applicable), and the grade is the weighted mean of the values that apply
(`scoring.rubric.weights`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gaia_eval.scoring.rubric import FREE_TEXT_CRITERIA, score_summary_output
from gaia_eval.scoring.scorers import FREE_TEXT

# The free-text scorer's criteria that a lone summary is measured on (its structured-list ones are N/A on free text)
CRITERIA: tuple[str, ...] = tuple(c.id for c in FREE_TEXT.criteria if c.id in FREE_TEXT_CRITERIA)


@dataclass(frozen=True)
class SummaryScores:
    criteria: dict[str, float | None]  # criterion id -> value 0..1 as measured; None = not applicable
    grade: float | None  # quality score 0..100; None when no criterion applies
    degenerate: bool  # the grade rated the output Poor as not a summary (empty, loop, copy, ...)


def score_summary(output: str, source: str | None, references: Sequence[str] = ()) -> SummaryScores:
    """Every criterion as measured (None where its input is missing) and the grade of one free-text summary."""
    usable = [r for r in references if r.strip()]
    scored = score_summary_output(output, source if source and source.strip() else None, usable)
    measured = scored.measured or scored.values
    values = {name: measured.get(name) for name in CRITERIA}
    degenerate = scored.degenerate is not None or not output.strip()
    return SummaryScores(values, scored.grade, degenerate)
