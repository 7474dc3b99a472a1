"""How far a report's ranking can be trusted: the meta-evaluation of the scorer it ranks by, when one was saved
beside the evaluations (`gaia-eval meta-eval RATINGS -o evaluation/meta_eval.json`, or
`meta_eval.<use_case>.json` for one use case, which `meta-eval --evaluations` writes from your own ratings)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gaia_eval import usecases
from gaia_eval.artifacts.metaeval import MetaEvaluation, SystemDifference
from gaia_eval.artifacts.store import read_artifact
from gaia_eval.metaeval.own_render import estimate_sentence

FILE_NAME = "meta_eval.json"


def meta_eval_file(eval_dir: Path, use_case: str) -> Path | None:
    """`meta_eval.<use_case>.json`, else `meta_eval.json` for a use case that writes summaries (ratings files
    hold summaries)."""
    summaries = not usecases.get(use_case).asks_questions
    for name in (f"meta_eval.{use_case}.json", FILE_NAME if summaries else None):
        if name and (Path(eval_dir) / name).is_file():
            return Path(eval_dir) / name
    return None


def _ranking_scorer(result: MetaEvaluation, mode: str) -> str | None:
    wanted = ["grade_standalone", "grade"] if mode == "standalone" else ["grade"]
    if mode == "standalone" and result.grade_mode == "comparative":
        wanted = ["grade_standalone"]
    if mode != "standalone" and result.grade_mode == "standalone":
        return None  # the file measured only the source-grounded grade, not the one this section ranks by
    return next((s for s in wanted if s in result.scorers), None)


def trust_for(eval_dir: Path, use_case: str, mode: str) -> dict[str, Any] | None:
    """Per human dimension, the ranking scorer's system-level Kendall tau (with its interval), summary-level tau
    and pairwise accuracy, beside the length baseline's; None when no meta-evaluation applies."""
    path = meta_eval_file(eval_dir, use_case)
    if path is None:
        return None
    result = read_artifact(path, MetaEvaluation)
    scorer = _ranking_scorer(result, mode)
    if scorer is None:
        return None
    rows = []
    for dimension in result.dimensions:
        row = next((r for r in result.results if r.scorer == scorer and r.dimension == dimension), None)
        length = next((r for r in result.results if r.scorer == "length" and r.dimension == dimension), None)
        if row is None:
            continue
        human = result.annotator_agreement.get(dimension)
        rows.append(
            {
                "dimension": dimension,
                "system_kendall": row.system_kendall,
                "system_kendall_ci": row.system_kendall_ci,
                "summary_level": row.summary_level,
                "pairwise_accuracy": row.pairwise_accuracy,
                "length_kendall": length.system_kendall if length else None,
                "beats_length": row.beats_length,
                "annotators_kendall": human.loo_system_kendall if human else None,
                # From your own ratings of this evaluation (meta-eval --evaluations): every rated output at once,
                # the raters' agreement as the ceiling, and the score that agrees with them best.
                "output_kendall": row.output_kendall,
                "output_kendall_ci": row.output_kendall_ci,
                "alpha": human.krippendorff_alpha if human else None,
                "best": result.best.get(dimension) if result.raters else None,
                "best_kendall": (best_kendall := _output_kendall(result, result.best.get(dimension), dimension)),
                "best_n": _best_n(result, result.best.get(dimension), dimension),
                # why no score is named best: too few rated outputs, or not separated from the runner-up (with n)
                "best_withheld": result.best_withheld.get(dimension) if result.raters else None,
                # meta-eval's own caveat, carried to the report and the viewer: a best score no better than length
                "best_above_length": None if best_kendall is None or length is None or length.output_kendall is None
                else best_kendall > length.output_kendall,
            }
        )
    return {
        "file": path.name,
        "ratings_file": result.ratings_file,
        "scorer": scorer,
        "n_items": result.n_items,
        "n_systems": result.n_systems,
        "rows": rows,
        "raters": result.raters,
        "n_outputs": result.n_summaries,
        # what people would rate each model (meta-eval --evaluations): one sentence each, with the n behind it
        "estimates": [
            {"system": e.system, "dimension": e.dimension, "value": e.human_estimate.value,
             "ci95": e.human_estimate.ci95, "n_rated": e.human_estimate.n_rated,
             "n_outputs": e.human_estimate.n_outputs, "scorer": e.scorer, "sentence": estimate_sentence(e)}
            for e in result.human_estimates
        ],
        # the pairs of models whose order on a dimension the ratings make sure (the interval excludes 0)
        "sure_differences": [_difference_sentence(d) for d in result.system_differences
                             if d.human_estimate.ci95[0] > 0 or d.human_estimate.ci95[1] < 0],
        "n_differences": len(result.system_differences),
    }


def _difference_sentence(d: SystemDifference) -> str:
    h = d.human_estimate
    first, second, sign = (d.a, d.b, 1) if h.value > 0 else (d.b, d.a, -1)
    low, high = sorted((sign * h.ci95[0], sign * h.ci95[1]))
    return f"{first} above {second} on {d.dimension} by {abs(h.value):.1f} ({low:.1f}–{high:.1f})"


def _best_n(result: MetaEvaluation, scorer: str | None, dimension: str) -> int | None:
    row = next((r for r in result.results if r.scorer == scorer and r.dimension == dimension), None)
    return row.n_outputs if row else None


def _output_kendall(result: MetaEvaluation, scorer: str | None, dimension: str) -> float | None:
    row = next((r for r in result.results if r.scorer == scorer and r.dimension == dimension), None)
    return row.output_kendall if row else None


def packaged_trust() -> list[dict[str, Any]]:
    """The free-text grade's own measured agreement, from the weights file's provenance (held-out figures per
    dataset), for a report whose folder holds no meta-evaluation of the user's own: one entry per grade (with a
    reference, from the source only) and dataset, with the length baseline beside it."""
    from gaia_eval.scoring.rubric import weights_file

    document = weights_file()
    out = []
    for grade, label in (("with_reference", "with a reference"), ("source_only", "from the source only")):
        for dataset, figures in document[grade]["cross_validated"].items():
            out.append({
                "grade": label,
                "dataset": dataset,
                "fitted": document["fitted"],
                "rows": [
                    {"dimension": dimension, "grade": row["grade"], "length": row.get("length")}
                    for dimension, row in figures.items()
                ],
            })
    return out
