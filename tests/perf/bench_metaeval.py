"""Benchmark of the free-text grade against human ratings, cross-validated by document: per dataset and human
dimension, the held-out agreement of the grade (with a reference, and from the source alone), its components and
the baselines; `--write-weights` also writes the weights fit on every document, with this provenance, into
gaia_eval/data/freetext_weights.json (the method: gaia_eval/metaeval/crossval.py).

Run: python tests/perf/bench_metaeval.py [--datasets ../shared/datasets] [--write-weights]. It reads
`dialsummeval_dev/ratings.jsonl` (system A, the human reference itself, is left out: its ROUGE would be 1) and
`summeval/summeval_expert.jsonl` (no references: the source-only grade only). Those files are not part of the
repository (licences); the benchmark only measures. Prints markdown.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from pathlib import Path

from gaia_eval.metaeval import crossval
from gaia_eval.metaeval.ratings import load_ratings
from gaia_eval.metaeval.scorers import score_rows

DIALSUMMEVAL = ("DialSummEval (dev half)", "dialsummeval_dev/ratings.jsonl", ["A"])
SUMMEVAL = ("SummEval (expert)", "summeval/summeval_expert.jsonl", [])
WITH_REFERENCE = ["reference_overlap", "content_coverage", "source_coverage", "source_consistency", "conciseness"]
SOURCE_ONLY = ["source_coverage", "source_consistency", "conciseness"]
REFERENCE_BASELINES = ["length", "rouge1_recall", "rougeL"]
WEIGHTS = Path(__file__).resolve().parents[2] / "gaia_eval" / "data" / "freetext_weights.json"


def _datasets(root: Path, grade: str) -> list[tuple[crossval.Dataset, list[str]]]:
    """(Dataset, baselines) for each file that has what `grade` needs ("grade": references; "grade_standalone":
    the source-only grade, which is "grade" on a file without references)."""
    out = []
    for title, relative, exclude in (DIALSUMMEVAL, SUMMEVAL):
        path = root / relative
        if not path.is_file():
            print(f"skipped {title}: {path} not found (pass --datasets)", file=sys.stderr)
            continue
        rows = [r for r in load_ratings(path) if r.system not in exclude]
        with_references = all(r.references for r in rows)
        if grade == "grade" and not with_references:
            continue
        table = score_rows(rows)
        key = "grade_standalone" if grade == "grade_standalone" and with_references else "grade"
        baselines = REFERENCE_BASELINES if key == "grade" and with_references else ["length"]
        data = crossval.dataset_from(title, rows, table.graded[key], {b: table.values[b] for b in baselines})
        out.append((data, baselines))
    return out


def _figures(cv: crossval.CrossValidation) -> dict:
    return {
        dataset: {
            dimension: {name: {"system": _round(pair[0]), "summary": _round(pair[1])} for name, pair in row.items()}
            for dimension, row in per_dim.items() if dimension in crossval.OBJECTIVE_DIMENSIONS
        }
        for dataset, per_dim in cv.held_out.items()
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def _entry(cv: crossval.CrossValidation, datasets: list[crossval.Dataset]) -> dict:
    return {
        "weights": {c: round(w, 4) for c, w in cv.weights.items()},
        "fit_on": [
            {"dataset": d.name, "documents": len(d.documents), "systems": d.degenerate.shape[1]} for d in datasets
        ],
        "fold_weights": [{c: round(w, 4) for c, w in f.weights.items()} for f in cv.folds],
        "cross_validated": _figures(cv),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=Path, default=Path("../shared/datasets"))
    parser.add_argument("--write-weights", action="store_true", help=f"write {WEIGHTS.name} (weights + provenance)")
    args = parser.parse_args()
    started = time.perf_counter()
    results = {}
    for name, grade, criteria in (
        ("with_reference", "grade", WITH_REFERENCE),
        ("source_only", "grade_standalone", SOURCE_ONLY),
    ):
        found = _datasets(args.datasets, grade)
        if not found:
            continue
        datasets = [d for d, _ in found]
        baselines = list(dict.fromkeys(b for _, bs in found for b in bs))
        cv = crossval.cross_validate(datasets, criteria)
        results[name] = (cv, datasets)
        title = "grade with a reference" if name == "with_reference" else "grade from the source only"
        print(crossval.markdown(cv, title, baselines))
    print(f"(took {time.perf_counter() - started:.1f} s)")
    if not results:
        return 1
    if args.write_weights:
        if set(results) != {"with_reference", "source_only"}:
            print("not written: both datasets are needed", file=sys.stderr)
            return 1
        document = {
            "what": "weights of the free-text summary grade's criteria (gaia_eval/scoring/rubric/weights.py)",
            "fitted": datetime.date.today().isoformat(),
            "method": crossval.__doc__.strip(),
            "folds": crossval.FOLDS,
            "objective": "mean summary-level Kendall tau over relevance and consistency, minus output length's; "
            "the smallest over the datasets",
            "datasets": {
                DIALSUMMEVAL[0]: "DialSummEval (Gao & Wan, NAACL 2022), the 50 SAMSum dialogues of its shared half "
                "x 13 systems (the human reference, system A, left out), mean of 3 annotators",
                SUMMEVAL[0]: "SummEval (Fabbri et al., TACL 2021): 100 CNN/DailyMail articles x 16 systems, mean of "
                "3 experts; no references, so it checks the source-only weights only",
            },
            "cells": "cross_validated: Kendall tau on held-out documents (each graded with weights fit without it); "
            "system = systems' mean scores, summary = per document across systems, averaged",
            **{name: _entry(cv, datasets) for name, (cv, datasets) in results.items()},
        }
        WEIGHTS.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {WEIGHTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
