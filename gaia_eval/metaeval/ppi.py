"""Prediction-powered inference of a human mean: what people would rate a system on average over ALL its outputs,
from an automatic score known on every output and human ratings of a sample of them (Angelopoulos et al. 2023,
"Prediction-powered inference", and its power-tuned variant PPI++, Angelopoulos, Duchi & Zrnic 2023).

With the score f known on every output of a finite population, PPI++'s estimator of a mean is the survey
statisticians' difference estimator

    θ̂ = mean_all(λ·f) + weighted mean over the rated outputs of (y − λ·f)

which is unbiased for any fixed λ (λ = 0 is the human-only mean). Power tuning picks λ to minimise the
variance: the within-system slope of y on f (`power_tuned_lambda`). A useless score gets λ ≈ 0, so the interval
stays valid and about as wide as the human-only one; a good score narrows it by √(1 − ρ²).

The sample is stratified (`Stratum`): each stratum's rated outputs stand for all of its outputs (weight N_h / n_h,
the inverse of the inclusion probability), which is what keeps the estimate unbiased when strata were drawn at
different rates; a stratum drawn whole (n_h = N_h) adds no sampling variance. The variance is the stratified one
with a common residual variance per system (conservative when stratification helps), the interval a Student t on
n − 1 degrees of freedom, clipped to the rating scale.

Pure functions on numbers: no artifact, no file.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

CONFIDENCE = 0.95
METHOD = "ppi++"  # power-tuned prediction-powered inference (difference estimator over the sample's strata)
HUMAN_ONLY = "human-only"  # the same design-weighted mean of the ratings alone (λ = 0)
MIN_RATED = 3  # fewer rated outputs of a system give no interval
PRIOR_DF = 4.0  # how many ratings' worth of the pooled variance a system's own variance is shrunk with


@dataclass(frozen=True)
class Stratum:
    """All N outputs of one stratum, and the rated ones among them: their human values and scores."""

    n_outputs: int  # N_h: outputs in the stratum
    score_sum: float  # Σ f over all N_h outputs
    human: Sequence[float]  # y of the rated outputs (n_h of them)
    scores: Sequence[float]  # f of the same rated outputs


@dataclass(frozen=True)
class Estimate:
    value: float
    ci95: tuple[float, float]
    n_rated: int
    n_outputs: int
    variance: float  # of the estimate
    df: int  # degrees of freedom of its t interval


@lru_cache(maxsize=256)
def _t(df: float) -> float:
    from scipy import stats

    return float(stats.t.ppf(1 - (1 - CONFIDENCE) / 2, max(1.0, df)))


def power_tuned_lambda(groups: Sequence[Sequence[tuple[float, float]]]) -> float:
    """The λ that minimises the estimate's variance: the slope of y on f within groups (systems), pooled, from
    (y, f) pairs of the rated outputs. 0 when f does not vary within any group."""
    cov = var = 0.0
    for pairs in groups:
        if len(pairs) < 2:
            continue
        my = sum(y for y, _ in pairs) / len(pairs)
        mf = sum(f for _, f in pairs) / len(pairs)
        cov += sum((y - my) * (f - mf) for y, f in pairs)
        var += sum((f - mf) ** 2 for _, f in pairs)
    return cov / var if var > 0 else 0.0


def pooled_residual_variance(groups: Sequence[Sequence[tuple[float, float]]], lam: float) -> float | None:
    """The variance of y − λ·f within groups (systems), pooled over them: the prior `estimate_mean` shrinks each
    system's own variance toward. None with fewer than two degrees of freedom."""
    total = df = 0.0
    for pairs in groups:
        if len(pairs) < 2:
            continue
        residuals = [y - lam * f for y, f in pairs]
        mean = sum(residuals) / len(residuals)
        total += sum((e - mean) ** 2 for e in residuals)
        df += len(residuals) - 1
    return total / df if df >= 2 else None


def estimate_mean(
    strata: Sequence[Stratum], lam: float, scale: tuple[float, float] = (1.0, 5.0), prior_variance: float | None = None,
) -> Estimate | None:
    """The design-weighted difference estimate of the mean human value over every output of all `strata` (one
    system), with its 95 % interval; None with fewer than MIN_RATED rated outputs. A stratum with no rated output
    is stood for by the others (their weights grow in proportion).

    Ratings are whole numbers on a short scale: ten ratings of a good system are often all 5, whose variance, 0,
    would give an interval of no width that misses the truth. With `prior_variance` (the residual variance pooled
    over the systems, `pooled_residual_variance`) the system's own variance is shrunk toward it as if PRIOR_DF
    more ratings had shown it (empirical Bayes); the t interval keeps n − 1 degrees of freedom."""
    total = sum(s.n_outputs for s in strata)
    rated = [s for s in strata if len(s.human)]
    n = sum(len(s.human) for s in rated)
    if n < MIN_RATED or total == 0:
        return None
    covered = sum(s.n_outputs for s in rated)
    grow = total / covered  # > 1 only when some stratum has no rated output
    residuals = [y - lam * f for s in rated for y, f in zip(s.human, s.scores, strict=True)]
    mean_residual = sum(residuals) / n
    spread = sum((e - mean_residual) ** 2 for e in residuals) / (n - 1)
    if prior_variance is not None:
        spread = ((n - 1) * spread + PRIOR_DF * prior_variance) / (n - 1 + PRIOR_DF)
    value = lam * sum(s.score_sum for s in strata) / total
    variance = 0.0
    for s in rated:
        weight = s.n_outputs * grow / total
        stratum_residual = sum(y - lam * f for y, f in zip(s.human, s.scores, strict=True)) / len(s.human)
        value += weight * stratum_residual
        finite = max(0.0, 1 - len(s.human) / s.n_outputs)  # a stratum rated whole is known exactly
        variance += weight**2 * finite * spread / len(s.human)
    half = _t(n - 1) * math.sqrt(variance)
    low, high = max(scale[0], value - half), min(scale[1], value + half)
    return Estimate(value, (min(low, value), max(high, value)), n, total, variance, n - 1)


def difference(a: Estimate, b: Estimate, span: float = 4.0) -> Estimate:
    """a − b with its 95 % interval (independent samples of two systems; Welch–Satterthwaite degrees of freedom)."""
    variance = a.variance + b.variance
    value = a.value - b.value
    if variance > 0:
        df = variance**2 / (a.variance**2 / max(1, a.df) + b.variance**2 / max(1, b.df))
    else:
        df = float(min(a.df, b.df))
    half = _t(df) * math.sqrt(variance)
    low, high = max(-span, value - half), min(span, value + half)
    return Estimate(value, (min(low, value), max(high, value)), a.n_rated + b.n_rated, a.n_outputs + b.n_outputs,
                    variance, int(df))
