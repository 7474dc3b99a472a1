"""Human-scale estimates from an evaluation and a rater's ratings of its annotation sample: per system and rated
dimension, what people would rate it over ALL its outputs, the automatic score on every output corrected by the
ratings (gaia_eval/metaeval/ppi.py), beside the ratings alone; and every pair of systems' difference.

The sample design `annotate` draws (gaia_eval/annotate/sample.py) decides the weights, so the estimate stays
unbiased for the mean over all outputs:
- stratified units: strata are (model, grade band) over the outputs the disagreement pick left; each rated output
  stands for N_h / n_h outputs of its stratum (the inverse of its inclusion probability);
- disagreement units (the outputs the scorers place furthest apart, picked on purpose, not at random): a stratum of
  their own, drawn whole, so each stands for itself only (weight 1) and, once rated, adds no sampling variance;
- repeats: the same output shown again; its ratings are averaged into that output's one value, never counted as a
  second output.
The score bands live here (`score_bands`) so that the sample's draw and this reading of it cannot drift apart.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import combinations

from gaia_eval.artifacts.metaeval import HumanEstimate, Interval, SystemDifference
from gaia_eval.artifacts.ratings import AnnotationSample
from gaia_eval.errors import UsageError
from gaia_eval.metaeval import ppi
from gaia_eval.metaeval.evaluated import GRADE, EvaluatedSet
from gaia_eval.metaeval.ratings import RatedOutput

SCORE_BANDS = 3  # low, middle, high grade: every band of every model is drawn from

Key = tuple[str, str]  # (item_id, model)


def percentiles(values: dict[Key, float]) -> dict[Key, float]:
    """Each output's mid-rank among the others, 0..1 (ties share their mean rank)."""
    ordered = sorted(values, key=lambda k: values[k])
    out: dict[Key, float] = {}
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and values[ordered[j + 1]] == values[ordered[i]]:
            j += 1
        for k in ordered[i:j + 1]:
            out[k] = ((i + j) / 2) / max(1, len(ordered) - 1)
        i = j + 1
    return out


def score_bands(evaluated: EvaluatedSet) -> dict[Key, int]:
    """Each output's grade band (0 low .. SCORE_BANDS - 1 high) among all outputs of the use case."""
    grades = percentiles({k: o.scores[GRADE] for k, o in evaluated.outputs.items()})
    return {k: min(SCORE_BANDS - 1, int(p * SCORE_BANDS)) for k, p in grades.items()}


def strata_of(evaluated: EvaluatedSet, sample: AnnotationSample) -> dict[Key, tuple[str, str]]:
    """Each output's stratum under the sample's design: (model, "disagreement") for the outputs picked for the
    scorers' disagreement, else (model, "band <b>")."""
    picked = {(u.item_id, u.model) for u in sample.units if u.reason == "disagreement"}
    bands = score_bands(evaluated)
    return {k: (k[1], "disagreement" if k in picked else f"band {bands[k]}") for k in evaluated.outputs}


def candidate_scorers(evaluated: EvaluatedSet) -> list[str]:
    """The scores that can be corrected: those with a finite value on every output."""
    return [s for s in evaluated.scorers
            if all(math.isfinite(o.scores.get(s, math.nan)) for o in evaluated.outputs.values())]


@dataclass
class Estimates:
    systems: list[HumanEstimate] = field(default_factory=list)
    differences: list[SystemDifference] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def within_r2(pairs_by_system: Iterable[list[tuple[float, float]]]) -> float:
    cov = var_y = var_f = 0.0
    for pairs in pairs_by_system:
        if len(pairs) < 2:
            continue
        my, mf = sum(p[0] for p in pairs) / len(pairs), sum(p[1] for p in pairs) / len(pairs)
        cov += sum((y - my) * (f - mf) for y, f in pairs)
        var_y += sum((y - my) ** 2 for y, _ in pairs)
        var_f += sum((f - mf) ** 2 for _, f in pairs)
    return cov * cov / (var_y * var_f) if var_y > 0 and var_f > 0 else 0.0


def _interval(estimate: ppi.Estimate, method: str) -> Interval:
    return Interval(value=round(estimate.value, 4), ci95=(round(estimate.ci95[0], 4), round(estimate.ci95[1], 4)),
                    method=method, n_rated=estimate.n_rated, n_outputs=estimate.n_outputs)


def human_estimates(
    evaluated: EvaluatedSet, sample: AnnotationSample, rows: list[RatedOutput], dimensions: list[str],
    scorer: str | None = None,
) -> Estimates:
    """Per dimension rated, each system's estimate with the best correctable score (the highest within-system R²
    with the ratings), or `scorer` when named; and each pair of systems' difference."""
    candidates = candidate_scorers(evaluated)
    if scorer is not None and scorer not in candidates:
        raise UsageError(f"--estimate-with {scorer}: not a score of every output here", field="--estimate-with",
                         fix=f"choose one of: {', '.join(candidates) or 'none'}")
    out = Estimates()
    if not candidates:
        out.notes.append("no score covers every output: no human-scale estimate")
        return out
    stratum = strata_of(evaluated, sample)
    members: dict[tuple[str, str], list[Key]] = {}
    for key, s in stratum.items():
        members.setdefault(s, []).append(key)
    for dimension in dimensions:
        human = {(r.item_id, r.system): sum(r.human[dimension]) / len(r.human[dimension])
                 for r in rows if r.human.get(dimension)}
        if not human:
            continue

        def pairs(name: str, model: str, human: dict[Key, float] = human) -> list[tuple[float, float]]:
            return [(y, evaluated.outputs[k].scores[name]) for k, y in human.items() if k[1] == model]

        chosen = scorer or max(candidates, key=lambda s: (within_r2(pairs(s, m) for m in evaluated.models),
                                                         s == GRADE))
        groups = [pairs(chosen, m) for m in evaluated.models]
        lam = ppi.power_tuned_lambda(groups)
        prior, prior_alone = ppi.pooled_residual_variance(groups, lam), ppi.pooled_residual_variance(groups, 0.0)
        found: dict[str, tuple[ppi.Estimate, ppi.Estimate]] = {}
        for model in evaluated.models:
            strata = [
                ppi.Stratum(
                    n_outputs=len(keys),
                    score_sum=sum(evaluated.outputs[k].scores[chosen] for k in keys),
                    human=[human[k] for k in keys if k in human],
                    scores=[evaluated.outputs[k].scores[chosen] for k in keys if k in human],
                )
                for (m, _), keys in sorted(members.items()) if m == model
            ]
            corrected = ppi.estimate_mean(strata, lam, prior_variance=prior)
            alone = ppi.estimate_mean(strata, 0.0, prior_variance=prior_alone)
            if corrected is None or alone is None:
                rated = sum(len(s.human) for s in strata)
                if strata:
                    out.notes.append(f"{model}: {rated} rated output(s) on {dimension}; an estimate needs "
                                     f"{ppi.MIN_RATED}")
                continue
            found[model] = (corrected, alone)
            out.systems.append(HumanEstimate(system=model, dimension=dimension, scorer=chosen,
                                             human_estimate=_interval(corrected, ppi.METHOD),
                                             human_only=_interval(alone, ppi.HUMAN_ONLY)))
        for a, b in combinations(found, 2):
            out.differences.append(SystemDifference(
                a=a, b=b, dimension=dimension, scorer=chosen,
                human_estimate=_interval(ppi.difference(found[a][0], found[b][0]), ppi.METHOD),
                human_only=_interval(ppi.difference(found[a][1], found[b][1]), ppi.HUMAN_ONLY),
            ))
    return out
