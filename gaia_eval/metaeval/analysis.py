"""From rated rows and their scores to the agreement table: (items x systems) matrices, every scorer against
every human dimension, and the annotators' own agreement as the ceiling."""

from __future__ import annotations

from typing import Any

from gaia_eval.artifacts.metaeval import AnnotatorAgreement, ScorerAgreement
from gaia_eval.metaeval import stats
from gaia_eval.metaeval.ratings import RatedOutput
from gaia_eval.metaeval.scorers import BASELINES


class Grid:
    """Where each row sits in the (items x systems) matrix, in first-seen order."""

    def __init__(self, rows: list[RatedOutput]) -> None:
        self.items = list(dict.fromkeys(r.item_id for r in rows))
        self.systems = list(dict.fromkeys(r.system for r in rows))
        item_index = {k: i for i, k in enumerate(self.items)}
        system_index = {s: j for j, s in enumerate(self.systems)}
        self.cells = [(item_index[r.item_id], system_index[r.system]) for r in rows]

    def matrix(self, values: list[float]) -> Any:
        np = stats._np()
        out = np.full((len(self.items), len(self.systems)), np.nan)
        for (i, j), v in zip(self.cells, values, strict=True):
            out[i, j] = v
        return out


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _ci(correlation: stats.Correlation) -> tuple[float, float] | None:
    return None if correlation.ci is None else (round(correlation.ci[0], 4), round(correlation.ci[1], 4))


def agreement(scorer: str, dimension: str, scores: Any, human: Any) -> ScorerAgreement:
    system = stats.system_level(scores, human)
    summary = {name: stats.summary_level(scores, human, name) for name in stats.STATISTICS}
    return ScorerAgreement(
        scorer=scorer,
        dimension=dimension,
        baseline=scorer in BASELINES,
        system_kendall=_rounded(system["kendall"].value),
        system_kendall_ci=_ci(system["kendall"]),
        system_spearman=_rounded(system["spearman"].value),
        system_spearman_ci=_ci(system["spearman"]),
        system_pearson=_rounded(system["pearson"].value),
        system_pearson_ci=_ci(system["pearson"]),
        summary_level=_rounded(summary["kendall"][0]),
        summary_level_spearman=_rounded(summary["spearman"][0]),
        summary_level_pearson=_rounded(summary["pearson"][0]),
        summary_level_items=summary["kendall"][1],
        pairwise_accuracy=_rounded(stats.pairwise_accuracy(stats.system_means(scores), stats.system_means(human))),
    )


def annotator_agreement(rows: list[RatedOutput], grid: Grid, dimension: str) -> AnnotatorAgreement:
    """Krippendorff's ordinal alpha over (item, system) units (the implementation the judge's agreement uses),
    and one annotator against the mean of the others, at system and summary level, averaged over annotators."""
    from gaia_eval.scoring.judge import ordinal_alpha

    np = stats._np()
    counts = {len(r.human[dimension]) for r in rows if dimension in r.human}
    most = max(counts)
    if most < 2:
        return AnnotatorAgreement(
            n_annotators=1, reason="the file holds one score per summary (or the annotators' mean)"
        )
    alpha = ordinal_alpha(list(r.human.get(dimension, ())) for r in rows)
    result = AnnotatorAgreement(n_annotators=most, krippendorff_alpha=_rounded(alpha.value), reason=alpha.reason)
    if len(counts) > 1:
        result.reason = "annotator counts differ between summaries: no leave-one-out comparison"
        return result
    system_taus, summary_taus = [], []
    for a in range(most):
        own = grid.matrix([r.human[dimension][a] if dimension in r.human else np.nan for r in rows])
        others = grid.matrix(
            [
                float(np.mean([v for b, v in enumerate(r.human[dimension]) if b != a]))
                if dimension in r.human
                else np.nan
                for r in rows
            ]
        )
        system_taus.append(stats.point_correlation(stats.system_means(own), stats.system_means(others), "kendall"))
        summary_taus.append(stats.summary_level(own, others)[0])
    result.loo_system_kendall = _rounded(_mean(system_taus))
    result.loo_summary_level = _rounded(_mean(summary_taus))
    return result


def _mean(values: list[float | None]) -> float | None:
    defined = [v for v in values if v is not None]
    return sum(defined) / len(defined) if defined else None


def compare(rows: list[RatedOutput], scores: dict[str, list[float]]) -> tuple[Grid, list[str], list[ScorerAgreement]]:
    """Every scorer against every human dimension (dimensions in first-seen order)."""
    grid = Grid(rows)
    dimensions = list(dict.fromkeys(d for r in rows for d in r.human))
    humans = {d: grid.matrix([r.human_mean(d) for r in rows]) for d in dimensions}
    matrices = {name: grid.matrix(values) for name, values in scores.items()}
    results = []
    for dimension in dimensions:
        rows_for_dim = [agreement(name, dimension, matrix, humans[dimension]) for name, matrix in matrices.items()]
        length = next((r.system_kendall for r in rows_for_dim if r.scorer == "length"), None)
        for r in rows_for_dim:
            if r.scorer != "length" and r.system_kendall is not None and length is not None:
                r.beats_length = r.system_kendall > length
        results += rows_for_dim
    return grid, dimensions, results


def best_scorers(results: list[ScorerAgreement], dimensions: list[str]) -> dict[str, str]:
    """Per dimension, the scorer (baselines excluded) with the highest system Kendall, ties by summary level."""
    best = {}
    for dimension in dimensions:
        candidates = [
            r for r in results if r.dimension == dimension and not r.baseline and r.system_kendall is not None
        ]
        if candidates:
            top = max(candidates, key=lambda r: (r.system_kendall, r.summary_level or -1.0))
            best[dimension] = top.scorer
    return best
