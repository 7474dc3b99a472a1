"""Agreement statistics between ratings: Krippendorff's alpha on an ordinal scale, the share of unanimous
groups, and exact / within-one agreement of paired ratings.

Alpha follows the coincidence-matrix formulation of Krippendorff (2011), "Computing Krippendorff's
Alpha-Reliability": every unit with at least two values contributes each ordered pair of its values,
weighted 1 / (m_u - 1), to the coincidence matrix o; with n_c its marginals and n their sum,

    alpha = 1 - (n - 1) * sum_ck o_ck * d2_ck / sum_ck n_c * n_k * d2_ck

and the ordinal difference d2_ck = (sum_{g=c..k} n_g - (n_c + n_k) / 2) ** 2 for c <= k (symmetric).
Values are any integers whose order is the scale's order (e.g. Poor=1 .. Excellent=4).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Alpha:
    """Krippendorff's alpha, or None with the reason it is undefined for these data."""

    value: float | None
    reason: str | None
    pairable_values: int  # n: values in units that hold at least two of them


def ordinal_alpha(units: Iterable[Sequence[int | None]]) -> Alpha:
    """Krippendorff's alpha, ordinal metric. Each unit lists the values its coders gave (None = missing).
    Units with fewer than two values are not pairable and are left out, as the method prescribes."""
    pairable = [values for values in ([v for v in unit if v is not None] for unit in units) if len(values) >= 2]
    categories = sorted({v for values in pairable for v in values})
    position = {c: i for i, c in enumerate(categories)}
    size = len(categories)
    coincidences = [[0.0] * size for _ in range(size)]
    for values in pairable:
        weight = 1.0 / (len(values) - 1)
        counts = Counter(values)
        for c, n_c in counts.items():
            for k, n_k in counts.items():
                pairs = n_c * (n_k - 1) if c == k else n_c * n_k
                coincidences[position[c]][position[k]] += pairs * weight
    marginals = [sum(row) for row in coincidences]
    n = sum(marginals)
    if not pairable:
        return Alpha(None, "no unit has two or more ratings to compare", 0)
    if size < 2:
        return Alpha(
            None,
            "every rating has the same value, so agreement beyond chance cannot be measured (alpha is 0/0)",
            round(n),
        )

    def d2(c: int, k: int) -> float:
        low, high = min(c, k), max(c, k)
        return (sum(marginals[low : high + 1]) - (marginals[low] + marginals[high]) / 2) ** 2

    observed = sum(coincidences[c][k] * d2(c, k) for c in range(size) for k in range(size))
    expected = sum(marginals[c] * marginals[k] * d2(c, k) for c in range(size) for k in range(size))
    return Alpha(1.0 - (n - 1) * observed / expected, None, round(n))


def unanimous_share(groups: Iterable[Sequence[Hashable]]) -> float | None:
    """Share of groups (with at least two members) whose members are all equal; None when there are none."""
    compared = [group for group in groups if len(group) >= 2]
    if not compared:
        return None
    return sum(1 for group in compared if len(set(group)) == 1) / len(compared)


def paired_agreement(pairs: Sequence[tuple[int, int]]) -> tuple[float | None, float | None]:
    """(exact, within_one): shares of pairs with equal values and with values at most one step apart."""
    if not pairs:
        return None, None
    exact = sum(1 for a, b in pairs if a == b) / len(pairs)
    within_one = sum(1 for a, b in pairs if abs(a - b) <= 1) / len(pairs)
    return exact, within_one
