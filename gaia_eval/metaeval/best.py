"""Which score agrees best with a user's own ratings, said only when the ratings show it: the top non-baseline
score over every rated output must rest on at least MIN_BEST_OUTPUTS rated outputs of MIN_BEST_ITEMS items, rank
above every other score (baselines included), and beat the runner-up by a paired item-bootstrap interval of the
difference in Kendall τ that excludes 0. Otherwise the pick is withheld, with the reason and the n."""

from __future__ import annotations

from typing import Any

from gaia_eval.artifacts.metaeval import ScorerAgreement
from gaia_eval.metaeval import stats

MIN_BEST_OUTPUTS = 10  # rated outputs a "best" score must rest on (τ from 4 outputs of 2 items is noise)
# Rated items they must come from: the interval resamples items, and 2 items give 3 distinct draws, so any lead of
# 12 systems' answers to 2 questions would "separate".
MIN_BEST_ITEMS = 5


def _difference_ci(a: list[float], b: list[float], human: list[float], items: list[str]) -> tuple[float, float] | None:
    """95 % interval of τ(a) − τ(b) over the rows where both scored, both resampled on the same item draws."""
    from gaia_eval.metaeval.own import tau_resamples

    np = stats._np()
    x, z, y = (np.asarray(v, dtype=float) for v in (a, b, human))
    keep = ~(np.isnan(x) | np.isnan(z) | np.isnan(y))
    kept = [i for i, k in zip(items, keep, strict=False) if k]
    if keep.sum() < 3 or np.ptp(x[keep]) == 0 or np.ptp(y[keep]) == 0:
        return None
    _, first = tau_resamples(x[keep], y[keep], kept)
    _, second = tau_resamples(z[keep], y[keep], kept)
    if first is None or second is None:
        return None
    diff = first - np.nan_to_num(second, nan=0.0)  # a constant runner-up has τ 0 there
    diff = diff[np.isfinite(diff)]
    alpha = (1 - stats.CONFIDENCE) / 2
    low, high = np.quantile(diff, [alpha, 1 - alpha])
    return round(float(low), 4), round(float(high), 4)


def pick_best(
    results: list[ScorerAgreement], scores: dict[str, list[float]], human: dict[str, list[float]], items: list[str],
    dimensions: list[str],
) -> tuple[dict[str, str], dict[str, str]]:
    """Per dimension: the best score when the ratings show it, else why not (always with the n)."""
    best: dict[str, str] = {}
    withheld: dict[str, str] = {}
    for dimension in dimensions:
        rows = sorted((r for r in results if r.dimension == dimension and r.output_kendall is not None),
                      key=lambda r: -(r.output_kendall or 0.0))
        top = next((r for r in rows if not r.baseline), None)
        if top is None:
            continue
        others: list[Any] = [r for r in rows if r is not top]
        rival = others[0] if others else None
        name = f"{top.scorer} (τ {top.output_kendall:.2f} over {top.n_outputs} rated outputs)"
        n_items = len({i for i, x, y in zip(items, scores[top.scorer], human[dimension], strict=False)
                       if x == x and y == y})  # not NaN
        if top.n_outputs < MIN_BEST_OUTPUTS:
            withheld[dimension] = (f"not enough ratings to name a best score: {name}; a best pick needs at least "
                                   f"{MIN_BEST_OUTPUTS} rated outputs it scored")
        elif n_items < MIN_BEST_ITEMS:
            withheld[dimension] = (f"not enough ratings to name a best score: {name} of {n_items} rated items; a "
                                   f"best pick needs at least {MIN_BEST_ITEMS} rated items it scored")
        elif rival is not None and (rival.output_kendall or 0.0) >= (top.output_kendall or 0.0):
            kind = "the baseline " if rival.baseline else ""
            withheld[dimension] = (f"no clear best score: {kind}{rival.scorer} agrees at least as well "
                                   f"(τ {rival.output_kendall:.2f}) as {name}")
        elif rival is not None:
            ci = _difference_ci(scores[top.scorer], scores[rival.scorer], human[dimension], items)
            if ci is None or ci[0] <= 0:
                shown = f"[{ci[0]:.2f}, {ci[1]:.2f}]" if ci else "undefined"
                withheld[dimension] = (f"no clear best score: {name} is not separated from {rival.scorer} "
                                       f"(τ {rival.output_kendall:.2f}; difference 95 % interval {shown})")
            else:
                best[dimension] = top.scorer
        else:
            best[dimension] = top.scorer
    return best, withheld
