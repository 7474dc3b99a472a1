"""A user's own ratings of an evaluation's outputs against the scores the evaluation gave them: which ratings
still apply (a rating of an output that has changed since is stale and left out), the human value per output
(one per rater), every scorer (the grade, each criterion, the judge, the trivial baselines) correlated with it over
every rated output with an item bootstrap interval, the share of pairwise preferences each scorer reproduces, and
each rater's consistency on the repeated outputs.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gaia_eval.artifacts.metaeval import PreferenceAgreement, RaterConsistency
from gaia_eval.artifacts.ratings import TIE, AnnotationSample, live_records, read_ratings, read_ratings_sheet
from gaia_eval.metaeval import stats
from gaia_eval.metaeval.evaluated import EvaluatedSet
from gaia_eval.metaeval.ratings import RatedOutput

BASELINE_LENGTH = "length"


@dataclass(frozen=True)
class Rating:
    rater: str
    unit: str
    item_id: str
    model: str
    dimension: str
    value: int
    fingerprint: str | None


@dataclass(frozen=True)
class Preference:
    rater: str
    item_id: str
    models: tuple[str, str]
    fingerprints: tuple[str, str]
    winner: str  # a model, or "tie"


@dataclass
class OwnRatings:
    ratings: list[Rating] = field(default_factory=list)
    preferences: list[Preference] = field(default_factory=list)
    torn_lines: list[int] = field(default_factory=list)


def read_own_ratings(path: Path, sample: AnnotationSample) -> OwnRatings:
    """The ratings in force in a ratings log (`annotate`), or in a filled spreadsheet (`create-template
    --ratings`): the latest per rater, unit and dimension; preferences the latest per rater and pair."""
    path = Path(path)
    units = {u.id: u for u in sample.units}
    out = OwnRatings()
    if path.suffix.lower() == ".csv":
        for row in read_ratings_sheet(path, sample.dimensions):
            unit = units.get(row.unit)
            if unit is None:
                from gaia_eval.errors import InputError

                raise InputError(f"unit {row.unit!r} is not in the sample", file=f"{path}:{row.line}", field="unit",
                                 fix="rate the spreadsheet written from this evaluation's sample")
            rater = row.rater or path.stem.removesuffix(".ratings")
            for dimension, value in row.values.items():
                out.ratings.append(Rating(rater, unit.id, unit.item_id, unit.model, dimension, value, row.fingerprint))
        return out
    log = read_ratings(path)
    out.torn_lines = log.torn_lines
    latest: dict[tuple, Any] = {}
    for r in live_records(log.records):
        if r.kind == "rating" and r.unit in units and r.dimension in sample.dimensions:
            latest[("r", r.rater, r.unit, r.dimension)] = Rating(r.rater, r.unit, r.item_id or "", r.model or "",
                                                               r.dimension, int(r.value or 0), r.fingerprint)
        elif r.kind == "preference" and len(r.models) == 2 and r.winner:
            latest[("p", r.rater, r.unit)] = Preference(r.rater, r.item_id or "", (r.models[0], r.models[1]),
                                                       ([*r.fingerprints, "", ""])[:2], r.winner)  # type: ignore[arg-type]
    out.ratings = [v for v in latest.values() if isinstance(v, Rating)]
    out.preferences = [v for v in latest.values() if isinstance(v, Preference)]
    return out


def current(evaluated: EvaluatedSet, item_id: str, model: str, fingerprint: str | None) -> bool:
    output = evaluated.get(item_id, model)
    return output is not None and fingerprint == output.fingerprint


def rated_rows(evaluated: EvaluatedSet, ratings: list[Rating]) -> tuple[list[RatedOutput], list[str]]:
    """One row per rated output: per dimension, one value per rater (the mean of their ratings of it, repeats
    included). Raters in first-seen order."""
    raters = list(dict.fromkeys(r.rater for r in ratings))
    values: dict[tuple[str, str], dict[str, dict[str, list[int]]]] = {}
    for r in ratings:
        values.setdefault((r.item_id, r.model), {}).setdefault(r.dimension, {}).setdefault(r.rater, []).append(r.value)
    rows = []
    for (item_id, model), dims in values.items():
        output = evaluated.get(item_id, model)
        assert output is not None  # stale ratings were left out before
        human = {d: tuple(sum(v) / len(v) for v in by_rater.values()) for d, by_rater in dims.items()}
        rows.append(RatedOutput(line=0, item_id=item_id, system=model, output=output.text, source=output.source,
                                references=(output.reference,) if output.reference else (), human=human))
    return rows, raters


def scores_for(evaluated: EvaluatedSet, rows: list[RatedOutput]) -> tuple[dict[str, list[float]], list[str]]:
    """Per scorer, one value per row (NaN where it did not apply): the evaluation's scorers, then the baselines
    (`length` always; `rouge1_recall` when every rated output has a reference)."""
    from gaia_eval.metaeval.scorers import _rouge

    out: dict[str, list[float]] = {}
    for name in evaluated.scorers:
        values = [evaluated.outputs[(r.item_id, r.system)].scores.get(name, math.nan) for r in rows]
        if sum(1 for v in values if not math.isnan(v)) >= 3:
            out[name] = values
    out[BASELINE_LENGTH] = [float(len(r.output.split())) for r in rows]
    baselines = [BASELINE_LENGTH]
    if rows and all(r.references for r in rows):
        out["rouge1_recall"] = _rouge(rows)["rouge1_recall"]
        baselines.append("rouge1_recall")
    return out, baselines


def _sign_matrix(values: Any) -> Any:
    np = stats._np()
    return np.sign(values[:, None] - values[None, :])


def output_level(
    scores: list[float], human: list[float], items: list[str], seed: int = stats.BOOTSTRAP_SEED
) -> tuple[float | None, tuple[float, float] | None, int]:
    """Kendall tau-b between a scorer and the human value over every rated output, and its 95 % percentile
    bootstrap interval resampling items (an item's outputs stay together). The resamples are weighted pair sums,
    vectorised: an output drawn w times counts w times, and pairs of its own copies are ties, as in tau-b."""
    np = stats._np()
    x, y = np.asarray(scores, dtype=float), np.asarray(human, dtype=float)
    keep = ~(np.isnan(x) | np.isnan(y))
    x, y = x[keep], y[keep]
    kept_items = [i for i, k in zip(items, keep, strict=False) if k]
    n = len(x)
    if n < 3 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return None, None, n
    tau, resampled = tau_resamples(x, y, kept_items, seed)
    if resampled is None:
        return tau, None, n
    resampled = resampled[np.isfinite(resampled)]
    alpha = (1 - stats.CONFIDENCE) / 2
    low, high = np.quantile(resampled, [alpha, 1 - alpha])
    return tau, (round(float(low), 4), round(float(high), 4)), n


def tau_resamples(x: Any, y: Any, items: list[str], seed: int = stats.BOOTSTRAP_SEED) -> tuple[float, Any]:
    """Kendall tau-b of x and y (no NaN) and its item-bootstrap resamples (None with fewer than 2 items or too many
    undefined resamples). The draws depend only on the items and the seed: two scorers over the same rows are
    resampled alike, so their difference can be read resample by resample."""
    np = stats._np()
    sx, sy = _sign_matrix(x), _sign_matrix(y)
    concordance, ties_x, ties_y = sx * sy, sx * sx, sy * sy
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = float(concordance.sum() / math.sqrt(ties_x.sum() * ties_y.sum()))
    names = list(dict.fromkeys(items))
    if len(names) < 2:
        return tau, None
    index = np.array([names.index(i) for i in items])
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, len(names), size=(stats.BOOTSTRAP_RESAMPLES, len(names)))
    counts = np.zeros((stats.BOOTSTRAP_RESAMPLES, len(names)))
    np.add.at(counts, (np.arange(stats.BOOTSTRAP_RESAMPLES)[:, None], draws), 1.0)
    w = counts[:, index]

    def pair_sum(matrix: Any) -> Any:
        return np.einsum("ri,ij,rj->r", w, matrix, w)

    with np.errstate(invalid="ignore", divide="ignore"):
        resampled = pair_sum(concordance) / np.sqrt(pair_sum(ties_x) * pair_sum(ties_y))
    if np.isfinite(resampled).sum() < stats.BOOTSTRAP_RESAMPLES // 2:
        return tau, None
    return tau, resampled


def preference_agreement(
    evaluated: EvaluatedSet, preferences: list[Preference], scorers: Iterable[str], baselines: list[str]
) -> tuple[list[PreferenceAgreement], int]:
    """Per scorer, the share of (non-tie, current) human preferences it reproduces, with a bootstrap interval
    over preferences; and the number of human ties left out."""
    np = stats._np()
    decided = [p for p in preferences if p.winner != TIE]
    ties = len(preferences) - len(decided)
    out = []
    for name in scorers:
        credit = []
        for p in decided:
            loser = p.models[1] if p.winner == p.models[0] else p.models[0]
            a, b = evaluated.get(p.item_id, p.winner), evaluated.get(p.item_id, loser)
            sa = _score(a, name)
            sb = _score(b, name)
            if sa is None or sb is None:
                continue
            credit.append(1.0 if sa > sb else 0.5 if sa == sb else 0.0)
        if not credit:
            out.append(PreferenceAgreement(scorer=name, baseline=name in baselines, share=None, preferences=0))
            continue
        values = np.asarray(credit)
        ci = None
        if len(values) >= 2:
            rng = np.random.default_rng(stats.BOOTSTRAP_SEED)
            means = values[rng.integers(0, len(values), size=(stats.BOOTSTRAP_RESAMPLES, len(values)))].mean(axis=1)
            alpha = (1 - stats.CONFIDENCE) / 2
            ci = (round(float(np.quantile(means, alpha)), 4), round(float(np.quantile(means, 1 - alpha)), 4))
        out.append(PreferenceAgreement(scorer=name, baseline=name in baselines, share=round(float(values.mean()), 4),
                                       share_ci=ci, preferences=len(values)))
    return out, ties


def _score(output: Any, name: str) -> float | None:
    if output is None:
        return None
    if name == BASELINE_LENGTH:
        return float(len(output.text.split()))
    if name == "rouge1_recall":
        if not output.reference:
            return None
        from gaia_eval.metaeval.scorers import _rouge

        row = RatedOutput(0, output.item_id, output.model, output.text, None, (output.reference,), {})
        return _rouge([row])["rouge1_recall"][0]
    return output.scores.get(name)


def rater_consistency(sample: AnnotationSample, ratings: list[Rating]) -> list[RaterConsistency]:
    """Per rater, how often the rating of a repeated output equals (or is within one of) the first one."""
    repeats = {u.id: u.repeat_of for u in sample.units if u.repeat_of}
    if not repeats:
        return []
    by_key = {(r.rater, r.unit, r.dimension): r.value for r in ratings}
    out = []
    for rater in dict.fromkeys(r.rater for r in ratings):
        diffs = [abs(by_key[(rater, unit, d)] - by_key[(rater, first, d)])
                 for unit, first in repeats.items() for d in sample.dimensions
                 if (rater, unit, d) in by_key and (rater, first, d) in by_key]
        out.append(RaterConsistency(
            rater=rater, pairs=len(diffs),
            exact=round(sum(d == 0 for d in diffs) / len(diffs), 4) if diffs else None,
            within_one=round(sum(d <= 1 for d in diffs) / len(diffs), 4) if diffs else None,
        ))
    return out
