"""The extra scorers' criteria (`eval --scorer`) as the report and the viewer show them: beside the grade, one
cell per criterion with the band of its own score, never part of the grade or the ranking."""

from __future__ import annotations

from typing import Any

from gaia_eval.artifacts.evaluation import NOT_APPLICABLE, RATINGS, Evaluation, ExtraCriterionSummary
from gaia_eval.scoring import rubric


def extra_id(c: Any) -> str:
    return f"{c.scorer}/{c.criterion}"


def extra_label(c: Any) -> str:
    """The criterion's name, after its scorer's when they differ ("tone: politeness")."""
    return c.criterion if c.criterion == c.scorer else f"{c.scorer}: {c.criterion}"


def extra_cell(c: ExtraCriterionSummary) -> dict[str, Any]:
    """The band of the criterion's own score (the grade's formula and bands; N/A and errors left out), its mean
    value and how many items the scorer failed on."""
    rated = any(c.counts.get(r) for r in RATINGS)
    score = round(rubric.quality_score(c.counts), 1) if rated else None
    errors = c.counts.get("error", 0)
    rating = rubric.rating_band(score) if score is not None else NOT_APPLICABLE if c.counts.get(NOT_APPLICABLE) else "—"
    failed = f"{errors} error{'s' if errors != 1 else ''}"
    if score is None:
        text = f"{failed} (no rating)" if errors else rating
    else:
        text = f"{rating} ({score:.0f})" + (f", mean {c.mean_value:.2f}" if c.mean_value is not None else "")
        text += f", {failed}" if errors else ""
    return {"label": extra_label(c), "rating": rating, "score": score, "mean_value": c.mean_value, "errors": errors,
            "counts": c.counts, "text": text}


def extra_cells(ev: Evaluation) -> dict[str, dict[str, Any]]:
    """Each extra criterion of an evaluation, by id (empty without --scorer)."""
    return {extra_id(c): extra_cell(c) for c in ev.extra_criteria}


def extra_line(ev: Evaluation) -> str | None:
    """One line for eval's summary: the experiment's extra criteria, or None without --scorer."""
    if not ev.extra_criteria:
        return None
    cells = "; ".join(f"{extra_label(c)} {extra_cell(c)['text']}" for c in ev.extra_criteria)
    grade = f"{ev.grade.quality_score:.1f} ({rubric.rating_band(ev.grade.quality_score)})"
    return f"{ev.experiment_name}: grade {grade}; extra scorers, not in the grade: {cells}"


def add_extra_criteria(evaluations: list[Evaluation], rows: list[dict[str, Any]]) -> list[dict[str, str]]:
    """Each model row gets its extra criteria (`extra_criteria`, only when it has some, so a report made without
    --scorer is unchanged); the section's columns are their union, in the order first met."""
    columns: dict[str, str] = {}
    for ev, row in zip(evaluations, rows, strict=True):
        if ev.extra_criteria:
            row["extra_criteria"] = extra_cells(ev)
            for cid, cell in row["extra_criteria"].items():
                columns.setdefault(cid, cell["label"])
    return [{"id": cid, "label": label} for cid, label in columns.items()]
