"""The viewer's dashboard data: every evaluation under the evaluation folder (subfolders included), grouped by use
case, with the numbers a person picks a model by; and the report's charts drawn from the same data. Reads the
artifacts through the report stage's loader, so the dashboard and report.md can never disagree."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gaia_eval.stages.report import build_report_data
from gaia_eval.stages.report_charts import CHARTS


def dashboard(evaluation_dir: Path) -> dict[str, Any]:
    """{"sections": [{"title", "use_case", "mode", "models": [row ...]}]}: empty when there is nothing yet."""
    if not evaluation_dir.is_dir() or not any(evaluation_dir.rglob("*.experiment.eval.json")):
        return {"sections": [], "total_evaluations": 0}
    data = build_report_data(evaluation_dir)
    sections = []
    for index, section in enumerate(data["sections"]):
        models = []
        for row in section["models"]:
            judge = row.get("judge") or {}
            models.append({
                "experiment": row["experiment_name"], "model": f"{row['provider']}:{row['model']}",
                "grade": row["quality_score"], "ci_low": row["ci_low"], "ci_high": row["ci_high"],
                "rating": row["overall_rating"], "pass_rate": row["pass_rate"], "items": row["n_items"],
                "errors": row["errors"], "unscored_judge_items": judge.get("unscored_items"),
                "cost": row["cost_text"], "judge_cost": judge.get("cost_text"),
                "tokens_in": row.get("input_tokens"), "tokens_out": row.get("output_tokens"),
                "latency_mean_s": row["latency_mean_s"], "latency_p95_s": row["latency_p95_s"],
                "evaluation_file": row["evaluation_file"],
            })
        sections.append({"index": index, "title": section["title"], "use_case": section["use_case"],
                         "charts": [{"kind": key, "title": title} for key, title, _ in CHARTS], "models": models})
    return {"sections": sections, "total_evaluations": data["total_evaluations"]}


def chart_svg(evaluation_dir: Path, section_index: int, kind: str) -> bytes | None:
    data = build_report_data(evaluation_dir)
    if not 0 <= section_index < len(data["sections"]):
        return None
    draw = {key: fn for key, _, fn in CHARTS}.get(kind)
    return draw(data["sections"][section_index]) if draw is not None else None
