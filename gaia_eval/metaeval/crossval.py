"""Choosing the free-text grade's criterion weights from human ratings, cross-validated by document.

The method (what `tests/perf/bench_metaeval.py --write-weights` ran to write gaia_eval/data/freetext_weights.json,
and what `meta-eval --cross-validate` runs on one ratings file):
1. Each criterion of each summary is measured as the rubric measures it (its value 0..1; the rating the
   thresholds give it is for reading, the grade takes the value, so it keeps the order inside a rating band).
2. A candidate grade is the weighted mean of those values times 100; 0 for a degenerate output (degenerate.py).
3. Candidates: every weight vector on a grid over the simplex (weights >= 0 summing to 1; step 0.1 for five
   criteria, 0.05 for three).
4. Objective on a set of documents: the mean over relevance and consistency of the summary-level Kendall tau
   (per document across systems, averaged over documents), minus the same for output length (the baseline to
   beat); over several datasets, the smallest of them (weights must work on both, not on one).
5. Documents, never single summaries, are split into FOLDS folds: sorted ids, the i-th in fold i mod FOLDS.
6. For each fold: pick the candidate with the best objective on the other folds, grade the fold with it.
7. Report, per fold and over all held-out grades, system- and summary-level tau of the grade beside its
   components and the baselines, on documents the weights were not fit on.
8. The shipped weights: the candidate with the best objective on all documents.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from gaia_eval.metaeval import stats

FOLDS = 5
OBJECTIVE_DIMENSIONS = ("relevance", "consistency")
LENGTH = "length"  # the rival every dataset has: the objective is the margin over it
STEPS = {3: 0.05, 5: 0.1}  # grid step by number of criteria (about a thousand candidates at most)


@dataclass
class Dataset:
    """One ratings file as (documents x systems) matrices over the summaries the weights are fit on."""

    name: str
    documents: list[str]
    values: dict[str, Any]  # criterion -> measured value 0..1
    degenerate: Any  # True where the grade rates the output Poor as not a summary
    human: dict[str, Any]  # dimension -> mean human rating
    rivals: dict[str, Any] = field(default_factory=dict)  # components and baselines (LENGTH at least)


@dataclass
class Fold:
    index: int
    weights: dict[str, float]
    fit_documents: dict[str, list[str]]  # dataset -> the documents the weights were chosen on
    report_documents: dict[str, list[str]]  # dataset -> the documents the figures below come from
    figures: dict[
        str, dict[str, dict[str, tuple[float | None, float | None]]]
    ]  # dataset -> dim -> scorer -> (sys, summ)


@dataclass
class CrossValidation:
    criteria: list[str]
    step: float
    folds: list[Fold]
    held_out: dict[str, dict[str, dict[str, tuple[float | None, float | None]]]]  # over all held-out grades
    weights: dict[str, float]  # fit on every document: the weights to ship
    objective_all: dict[str, float | None]  # dataset -> objective of `weights` on all its documents (in-sample)


def simplex(n: int, step: float) -> list[tuple[float, ...]]:
    """Every vector of n non-negative multiples of `step` summing to 1, in lexicographic order."""
    k = round(1 / step)
    return [
        tuple(c / k for c in (*head, k - sum(head)))
        for head in itertools.product(range(k + 1), repeat=n - 1)
        if sum(head) <= k
    ]


def fold_of(documents: list[str], folds: int = FOLDS) -> dict[str, int]:
    """Document id -> fold: sorted ids, the i-th in fold i mod `folds`."""
    return {doc: i % folds for i, doc in enumerate(sorted(set(documents)))}


def grade_matrix(data: Dataset, criteria: list[str], weights: tuple[float, ...]) -> Any:
    """The grade of every summary under `weights`, as weights.weighted_grade computes it (equal weights when they
    sum to 0)."""
    np = stats._np()
    total = sum(weights)
    if not total:
        weights, total = (1.0,) * len(criteria), float(len(criteria))
    mean = sum(w * np.clip(data.values[c], 0.0, 1.0) for c, w in zip(criteria, weights, strict=False)) / total
    return np.where(data.degenerate, 0.0, mean * 100)


def _rows(data: Dataset, documents: list[str]) -> list[int]:
    index = {doc: i for i, doc in enumerate(data.documents)}
    return [index[doc] for doc in documents]


def objective(grades: Any, data: Dataset, documents: list[str]) -> float | None:
    rows = _rows(data, documents)
    found = [stats.summary_level(grades[rows], data.human[d][rows])[0] for d in OBJECTIVE_DIMENSIONS if d in data.human]
    taus = [t for t in found if t is not None]
    return sum(taus) / len(taus) if taus else None


def _best(datasets: list[Dataset], criteria: list[str], candidates: list, documents: dict[str, list[str]]) -> tuple:
    np = stats._np()
    length = {
        d.name: objective(np.asarray(d.rivals[LENGTH], dtype=float), d, documents[d.name]) or 0.0 for d in datasets
    }

    def worst(weights: tuple[float, ...]) -> float:
        values = [objective(grade_matrix(d, criteria, weights), d, documents[d.name]) for d in datasets]
        return min((v - length[d.name] for d, v in zip(datasets, values, strict=False) if v is not None), default=-2.0)

    return max(candidates, key=worst)  # the first of equals: the grid's order decides ties


def figures(
    data: Dataset, grades: Any, documents: list[str]
) -> dict[str, dict[str, tuple[float | None, float | None]]]:
    """Per human dimension, (system-level, summary-level) Kendall tau of the grade and of each rival."""
    rows = _rows(data, documents)
    out = {}
    for dimension, human in data.human.items():
        h = human[rows]
        out[dimension] = {
            name: (
                stats.point_correlation(stats.system_means(m[rows]), stats.system_means(h), "kendall"),
                stats.summary_level(m[rows], h)[0],
            )
            for name, m in {"grade": grades, **data.rivals}.items()
        }
    return out


def cross_validate(datasets: list[Dataset], criteria: list[str], folds: int = FOLDS) -> CrossValidation:
    """The method of the module docstring over `datasets` (each must rate every criterion of `criteria`)."""
    np = stats._np()
    step = STEPS.get(len(criteria), 0.1)
    candidates = simplex(len(criteria), step)
    fold_maps = {d.name: fold_of(d.documents, folds) for d in datasets}
    held = {d.name: np.full(d.degenerate.shape, np.nan) for d in datasets}
    results = []
    for k in range(folds):
        fit = {d.name: [doc for doc in d.documents if fold_maps[d.name][doc] != k] for d in datasets}
        report = {d.name: [doc for doc in d.documents if fold_maps[d.name][doc] == k] for d in datasets}
        chosen = _best(datasets, criteria, candidates, fit)
        per_dataset = {}
        for d in datasets:
            grades = grade_matrix(d, criteria, chosen)
            rows = _rows(d, report[d.name])
            held[d.name][rows] = grades[rows]
            per_dataset[d.name] = figures(d, grades, report[d.name])
        results.append(Fold(k, dict(zip(criteria, chosen, strict=False)), fit, report, per_dataset))
    everything = {d.name: list(d.documents) for d in datasets}
    final = _best(datasets, criteria, candidates, everything)
    return CrossValidation(
        criteria=list(criteria),
        step=step,
        folds=results,
        held_out={d.name: figures(d, held[d.name], d.documents) for d in datasets},
        weights=dict(zip(criteria, final, strict=False)),
        objective_all={d.name: objective(grade_matrix(d, criteria, final), d, d.documents) for d in datasets},
    )


def dataset_from(name: str, rows: list, scores: list, baselines: dict[str, list[float]]) -> Dataset:
    """A Dataset from rated rows, the adapter's scores of each row (metaeval.adapter.SummaryScores) and the
    baselines' values per row; components are the criteria as measured."""
    from gaia_eval.metaeval.analysis import Grid

    grid = Grid(rows)
    criteria = [c for c in scores[0].criteria if all(s.criteria.get(c) is not None for s in scores)]
    human = {
        d: grid.matrix([r.human_mean(d) for r in rows])
        for d in dict.fromkeys(d for r in rows for d in r.human)
    }
    rivals = {n: grid.matrix(v) for n, v in baselines.items()}
    rivals.update({c: grid.matrix([s.criteria[c] for s in scores]) for c in criteria})
    return Dataset(
        name=name,
        documents=grid.items,
        values={c: grid.matrix([float(s.criteria[c]) for s in scores]) for c in criteria},
        degenerate=grid.matrix([1.0 if s.degenerate else 0.0 for s in scores]) == 1.0,
        human=human,
        rivals=rivals,
    )


def goals(held_out: dict[str, dict[str, tuple[float | None, float | None]]], baselines: list[str],
          components: list[str]) -> list[str]:
    """In words, per dimension of OBJECTIVE_DIMENSIONS: whether the held-out grade is at or above every baseline
    and its best component at both levels, and by how much it falls short where it is not."""
    lines = []
    for dimension in OBJECTIVE_DIMENSIONS:
        row = held_out.get(dimension)
        if not row:
            continue
        for level, name in ((0, "system"), (1, "summary")):
            grade = row["grade"][level]
            rivals: dict[str, float] = {
                n: row[n][level] or 0.0 for n in (*baselines, *components) if n in row and row[n][level] is not None
            }
            if grade is None or not rivals:
                continue
            above = [n for n, v in rivals.items() if v > grade + 1e-9]
            if above:
                gaps = ", ".join(f"{n} {rivals[n]:.2f} (gap {rivals[n] - grade:.2f})" for n in above)
                lines.append(f"{dimension}, {name} level: grade {grade:.2f} below {gaps}")
            else:
                lines.append(f"{dimension}, {name} level: grade {grade:.2f} at or above every baseline and component")
    return lines


def _pair(value: tuple[float | None, float | None] | None) -> str:
    if value is None:
        return "n/a"
    return " / ".join("–" if v is None else f"{v:.2f}" for v in value)


def markdown(cv: CrossValidation, title: str, baselines: list[str]) -> str:
    """The fold figures: per dataset and dimension, held-out system / summary tau of the grade, its components and
    the baselines (over all held-out grades, then fold by fold), the weights each fold chose and the goals."""
    components = list(cv.criteria)
    lines = [
        f"### Cross-validated by document: {title}",
        "",
        f"{len(cv.folds)} folds of documents; weights chosen on the other folds from a grid of step {cv.step:g} over "
        f"{', '.join(cv.criteria)}; cells: system-level / summary-level Kendall τ on held-out documents.",
        "",
    ]
    for dataset, per_dim in cv.held_out.items():
        for dimension, row in per_dim.items():
            lines += [
                f"**{dataset}, {dimension}**",
                "",
                "| Scorer | all held-out | " + " | ".join(f"fold {f.index + 1}" for f in cv.folds) + " |",
                "|---|---|" + "---|" * len(cv.folds),
            ]
            for name in ["grade", *components, *baselines]:
                if name not in row:
                    continue
                label = f"{name} (baseline)" if name in baselines else name
                cells = [_pair(f.figures[dataset][dimension].get(name)) for f in cv.folds]
                lines.append(f"| {label} | {_pair(row[name])} | " + " | ".join(cells) + " |")
            lines.append("")
        lines += [f"- {g}" for g in goals(per_dim, baselines, components)] + [""]
    lines += ["| Fold | weights chosen on the other folds |", "|---|---|"]
    for f in cv.folds:
        lines.append(f"| {f.index + 1} | " + ", ".join(f"{c} {w:.2f}" for c, w in f.weights.items()) + " |")
    lines += [
        "",
        "Weights fit on every document: " + ", ".join(f"{c} {w:.2f}" for c, w in cv.weights.items()) + ".",
        "",
    ]
    return "\n".join(lines)
