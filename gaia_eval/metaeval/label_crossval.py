"""Choosing an answer-matching rule (a mode, a threshold, a baseline) on part of the labelled answers and
measuring it on the rest: folds of items (questions), so no question's answers are on both sides. What a user
learns: which rule their data picks, and the agreement to expect from it on questions it was not picked on."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from gaia_eval.artifacts.answer_agreement import LabelCrossValidation, LabelFold
from gaia_eval.metaeval.label_agreement import figures, item_indices
from gaia_eval.metaeval.labels import LabelledAnswer

FOLDS = 5
SEED = 0
# The thresholds tried for the modes that take one (besides their default, which runs as the plain mode).
THRESHOLDS = {"f1": (0.2, 0.3, 0.4, 0.6, 0.7, 0.8), "fuzzy": (60.0, 70.0, 80.0)}


def threshold_candidates(measured: Sequence[str]) -> list[tuple[str, dict[str, Any]]]:
    """(name, options) of each threshold variant of a measured mode, e.g. ("f1 threshold=0.3", {"threshold": 0.3})."""
    return [(f"{mode} threshold={value:g}", {"threshold": value})
            for mode, values in THRESHOLDS.items() if mode in measured for value in values]


def fold_of_items(rows: Sequence[LabelledAnswer], folds: int = FOLDS, seed: int = SEED) -> dict[str, int]:
    """Each item's fold: the sorted items shuffled by Random(seed), then dealt round-robin."""
    items = sorted({r.item for r in rows})
    random.Random(seed).shuffle(items)
    return {item: k % folds for k, item in enumerate(items)}


def _choose(candidates: Mapping[str, Any], human: Any, keep: Any) -> tuple[str, float]:
    """The candidate with the highest agreement on `keep`; ties go to fewer false accepts, then the first."""
    best: tuple[float, int, str] | None = None
    for name, verdicts in candidates.items():
        agreement = float((verdicts[keep] == human[keep]).mean())
        false_accepts = int((verdicts[keep] & ~human[keep]).sum())
        if best is None or (agreement, -false_accepts) > (best[0], -best[1]):
            best = (agreement, false_accepts, name)
    assert best is not None
    return best[2], best[0]


def cross_validate(rows: Sequence[LabelledAnswer], candidates: Mapping[str, Sequence[bool]],
                   compared: Sequence[str]) -> LabelCrossValidation | None:
    """Per fold, the candidate chosen on the other folds and its figures on this one; then every answer judged by
    the rule chosen without it, beside the `compared` candidates (fixed rules) on the same answers. None with
    fewer than two items per fold."""
    import numpy as np

    fold_of = fold_of_items(rows)
    if len(fold_of) < 2 * FOLDS:
        return None
    human = np.array([r.correct for r in rows], dtype=bool)
    verdicts = {name: np.asarray(v, dtype=bool) for name, v in candidates.items()}
    items = item_indices(rows)
    fold = np.array([fold_of[r.item] for r in rows])
    pooled = np.zeros(len(rows), dtype=bool)
    folds = []
    for k in range(FOLDS):
        test = fold == k
        chosen, train_agreement = _choose(verdicts, human, ~test)
        pooled[test] = verdicts[chosen][test]
        folds.append(LabelFold(
            fold=k + 1,
            train_items=len({r.item for r, t in zip(rows, test, strict=True) if not t}),
            test_items=len({r.item for r, t in zip(rows, test, strict=True) if t}),
            chosen=chosen,
            train_agreement=train_agreement,
            held_out=figures(verdicts[chosen][test], human[test], items[test], intervals=False),
        ))
    return LabelCrossValidation(
        folds=folds,
        candidates=list(verdicts),
        held_out=figures(pooled, human, items),
        compared={name: figures(verdicts[name], human, items) for name in compared if name in verdicts},
    )
