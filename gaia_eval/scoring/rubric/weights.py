"""The weights of the free-text summary grade, read from `gaia_eval/data/freetext_weights.json`, where they were
written with their provenance (datasets, folds, date, method and the cross-validated agreement with human
ratings) by `tests/perf/bench_metaeval.py --write-weights`; and the weighted grade of one item.

A free-text summary's grade is the weighted mean of its criteria's measured values (0..1), times 100: each
criterion enters with its exact value, not only its rating, so two summaries rated alike on every criterion are
still ordered by how much each carries (the four-level ratings threw that ordering away, and with it agreement
with human rankings of summaries of one document). The ratings (Excellent .. Poor, by the thresholds) are shown
beside the grade as before. Criteria that are N/A drop out and the others' weights are renormalized. With a
reference the `with_reference` weights apply, from the source alone the `source_only` ones. Every other use case
weighs its criteria's rating points equally (the reference tool's formula, unchanged), and so does a long-form qa
answer (scored with four of the free-text criteria, never fit on its own ratings).
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


def grade_inputs() -> dict[str, dict[str, float]]:
    """Both weight sets: with the rubric version, what eval's scorer fingerprint is made of, so that weights fit
    again re-score the evaluations graded with the old ones instead of reading as current."""
    return {name: weight_set(name) for name in ("with_reference", "source_only")}


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


def by_value(criterion: str, learned: bool = True) -> bool:
    """Whether `criterion` enters an item's grade by its measured value (a free-text summary's criteria: their
    weights were fit on those values) rather than by its rating's points (every other criterion, and all of a
    long-form qa answer's: `learned` False)."""
    return learned and criterion in _free_text_criteria()


def share(value: float | None) -> float:
    """A measured value as it enters the grade: 0..1 (an errored or unmeasured criterion 0)."""
    return 0.0 if value is None else min(1.0, max(0.0, value))


def weighted_grade(values: dict[str, float | None]) -> float | None:
    """0..100 from criterion id -> measured value (0..1) of a free-text summary's applicable criteria: their
    weighted mean times 100; None when none applies."""
    if not values:
        return None
    weights = criterion_weights(values)
    total = sum(weights.values())
    return sum(weights[c] * share(v) for c, v in values.items()) * 100 / total
