"""The weights of the free-text summary grade, read from `gaia_eval/data/freetext_weights.json`, where they were
written with their provenance (datasets, folds, date, method and the cross-validated agreement with human
ratings) by `tests/perf/fit_freetext_weights.py`; and the weighted grade of one item.

A free-text item's grade is the weighted mean of its criteria's rating points (Excellent 4 .. Poor 1), mapped to
0..100 as the rubric's formula maps them; criteria that are N/A drop out and the others' weights are renormalized.
With a reference the `with_reference` weights apply, from the source alone the `source_only` ones. Every other
use case weighs its criteria equally (the reference tool's formula, unchanged), and so does a long-form qa answer
(scored with four of the free-text criteria, never fit on its own ratings).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources
from typing import Any

WEIGHTS_FILE = "freetext_weights.json"
REFERENCE_READING = ("reference_overlap", "content_coverage")


@lru_cache(maxsize=1)
def weights_file() -> dict[str, Any]:
    """The packaged weights file, with its provenance."""
    return json.loads(resources.files("gaia_eval").joinpath("data").joinpath(WEIGHTS_FILE).read_text(encoding="utf-8"))


def weight_set(name: str) -> dict[str, float]:
    """`with_reference` or `source_only`: criterion id -> weight."""
    return dict(weights_file()[name]["weights"])


@lru_cache(maxsize=1)
def _free_text_criteria() -> frozenset[str]:
    return frozenset(weight_set("with_reference")) | frozenset(weight_set("source_only"))


def criterion_weights(applicable: Iterable[str], learned: bool = True) -> dict[str, float]:
    """The weight of each applicable criterion of one item, summing to 1 for a free-text summary (every criterion
    1.0 otherwise, and with `learned` False: a long-form qa answer, whose criteria were not fit on ratings).
    Criteria outside the free-text set weigh 0 beside free-text ones (an errored free-text item
    rates its N/A list criteria Poor too); a set whose applicable weights are all 0 falls back to equal weights."""
    applicable = list(dict.fromkeys(applicable))
    free = [c for c in applicable if c in _free_text_criteria()]
    if not free or not learned:
        return dict.fromkeys(applicable, 1.0)
    chosen = weight_set("with_reference" if any(c in REFERENCE_READING for c in free) else "source_only")
    raw = {c: float(chosen.get(c, 0.0)) for c in free}
    total = sum(raw.values())
    if total <= 0:
        raw, total = dict.fromkeys(free, 1.0), float(len(free))
    return {c: raw.get(c, 0.0) / total for c in applicable}


def weighted_grade(points: dict[str, int]) -> float | None:
    """0..100 from criterion id -> rating points (1..4) of the applicable criteria; None when there are none."""
    if not points:
        return None
    weights = criterion_weights(points)
    total = sum(weights.values())
    return sum(weights[c] * (p - 1) for c, p in points.items()) * 100 / (3 * total)
