"""The one place that turns a plain-text summary into gaia-eval's per-criterion scores and grade, so that the
scorer behind meta-eval can change in one file.

A rated summary is one free text, scored exactly as `eval` scores a free-text output against human references
(`scoring.rubric.score_summary_output`): reference overlap and content coverage against the references (the
best over several), source coverage and consistency against the source, and conciseness. A criterion whose
input is missing is None (not applicable), and the grade is the rubric's formula over the criteria that apply.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gaia_eval.scoring.rubric import FREE_TEXT_CRITERIA, score_summary_output

CRITERIA: tuple[str, ...] = tuple(FREE_TEXT_CRITERIA)


@dataclass(frozen=True)
class SummaryScores:
    criteria: dict[str, float | None]  # criterion id -> value 0..1; None = not applicable
    grade: float | None  # quality score 0..100; None when no criterion applies


def score_summary(output: str, source: str | None, references: Sequence[str] = ()) -> SummaryScores:
    """Every criterion (None where its input is missing) and the grade of one free-text summary."""
    usable = [r for r in references if r.strip()]
    scored = score_summary_output(output, source if source and source.strip() else None, usable)
    return SummaryScores({name: scored.values.get(name) for name in CRITERIA}, scored.grade)
