"""Benchmark of the free-text grade against human ratings, cross-validated by document: per dataset and human
dimension, the held-out agreement of the grade (with a reference, and from the source alone), its components and
the baselines; `--write-weights` also writes the weights fit on every document, with this provenance, into
gaia_eval/data/freetext_weights.json (the method: gaia_eval/metaeval/crossval.py).

Then the human-scale estimate (gaia_eval/metaeval/ppi.py) simulated on the same ratings: the human mean rating over
all outputs of a system is the truth; n rated outputs per system are drawn at random (5 systems and 50 items drawn
per round); the estimate corrects the grade, computed on every output, with them. Printed: how often the 95 %
interval covers the truth, and its width against the human-only interval from the same ratings, at 5, 10 and 20
ratings per system (`--coverage-only` skips the cross-validation).

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


COVERAGE_RATED = (5, 10, 20)
COVERAGE_SYSTEMS, COVERAGE_ITEMS, COVERAGE_DRAWS = 5, 50, 2000
COVERAGE_DIMENSIONS = ("relevance", "consistency", "coherence", "fluency")


def _population(root: Path) -> list[tuple[str, str, dict[str, dict[tuple[str, str], float]], dict]]:
    """Per dataset: its title, whose rating is the truth, {dimension: {(item, system): rating}} and every score
    that covers all outputs {name: {(item, system): value}}."""
    import math

    out = []
    for title, relative, exclude in (DIALSUMMEVAL, SUMMEVAL):
        path = root / relative
        if not path.is_file():
            print(f"skipped {title}: {path} not found (pass --datasets)", file=sys.stderr)
            continue
        rows = [r for r in load_ratings(path) if r.system not in exclude]
        keys = [(r.item_id, r.system) for r in rows]
        scores = {name: dict(zip(keys, values, strict=True)) for name, values in score_rows(rows).values.items()
                  if all(math.isfinite(v) for v in values)}
        one_rater = all(len(r.human.get(d, ())) > 1 for r in rows for d in COVERAGE_DIMENSIONS if d in r.human)
        human = {d: {(r.item_id, r.system): float(r.human[d][0]) for r in rows if r.human.get(d)}
                 for d in COVERAGE_DIMENSIONS}
        who = "one rater: the first annotator" if one_rater else "the raters' mean: the file holds no single rater"
        out.append((title, who, human, scores))
    return out


def _simulate(human: dict[tuple[str, str], float], scores: dict[str, dict], rated: int, seed: int = 0) -> dict:
    """Coverage and width over COVERAGE_DRAWS rounds; with several scores, each round corrects the one that agrees
    best with that round's ratings (as meta-eval picks it)."""
    import numpy as np

    from gaia_eval.metaeval import ppi
    from gaia_eval.metaeval.estimate import within_r2

    rng = np.random.default_rng(seed)
    systems = sorted({k[1] for k in human})
    items = sorted({k[0] for k in human})
    hits = hits_alone = 0
    widths, widths_alone = [], []
    for _ in range(COVERAGE_DRAWS):
        chosen = rng.choice(systems, COVERAGE_SYSTEMS, replace=False)
        some = rng.choice(items, min(COVERAGE_ITEMS, len(items)), replace=False)
        population = {s: [(i, s) for i in some if (i, s) in human] for s in chosen}
        rated_keys = {s: [pop[j] for j in rng.choice(len(pop), rated, replace=False)] for s, pop in population.items()}

        def pairs(name: str, rated_keys: dict = rated_keys) -> list[list[tuple[float, float]]]:
            return [[(human[k], scores[name][k]) for k in keys] for keys in rated_keys.values()]

        name = max(scores, key=lambda n: within_r2(pairs(n)))
        lam = ppi.power_tuned_lambda(pairs(name))
        prior = ppi.pooled_residual_variance(pairs(name), lam)
        prior_alone = ppi.pooled_residual_variance(pairs(name), 0.0)
        for s, pop in population.items():
            truth = sum(human[k] for k in pop) / len(pop)
            stratum = [ppi.Stratum(len(pop), sum(scores[name][k] for k in pop), [human[k] for k in rated_keys[s]],
                                   [scores[name][k] for k in rated_keys[s]])]
            est = ppi.estimate_mean(stratum, lam, prior_variance=prior)
            alone = ppi.estimate_mean(stratum, 0.0, prior_variance=prior_alone)
            assert est is not None and alone is not None
            hits += est.ci95[0] <= truth <= est.ci95[1]
            hits_alone += alone.ci95[0] <= truth <= alone.ci95[1]
            widths.append(est.ci95[1] - est.ci95[0])
            widths_alone.append(alone.ci95[1] - alone.ci95[0])
    n = COVERAGE_DRAWS * COVERAGE_SYSTEMS
    return {"coverage": hits / n, "coverage_alone": hits_alone / n, "width": float(np.mean(widths)),
            "width_alone": float(np.mean(widths_alone))}


def coverage_markdown(root: Path) -> str | None:
    found = _population(root)
    if not found:
        return None
    lines = [
        "## Human-scale estimate (PPI++): coverage and width",
        "",
        f"{COVERAGE_DRAWS} draws of {COVERAGE_SYSTEMS} systems x {COVERAGE_ITEMS} items; truth = each system's mean "
        "rating over those items; n outputs per system rated at random. Corrected score: the grade, or the best of "
        "every score that covers all outputs (picked each draw from its ratings, as meta-eval does). Coverage: "
        "share of 95 % intervals holding the truth (goal >= 0.93 at n = 10); width ratio: the estimate's mean width "
        "/ the human-only interval's from the same ratings (goal <= 0.85).",
        "",
        "| Dataset (whose rating) | Dimension | Score | n | Coverage | Human-only coverage | Width | Human-only width "
        "| Width ratio |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for title, who, human, scores in found:
        for dimension in COVERAGE_DIMENSIONS:
            if not human[dimension]:
                continue
            for label, chosen in (("grade", {"grade": scores["grade"]}), (f"best of {len(scores)}", scores)):
                for rated in COVERAGE_RATED:
                    r = _simulate(human[dimension], chosen, rated)
                    lines.append(f"| {title} ({who}) | {dimension} | {label} | {rated} | {r['coverage']:.3f} | "
                                 f"{r['coverage_alone']:.3f} | {r['width']:.2f} | {r['width_alone']:.2f} | "
                                 f"{r['width'] / r['width_alone']:.2f} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=Path, default=Path("../shared/datasets"))
    parser.add_argument("--write-weights", action="store_true", help=f"write {WEIGHTS.name} (weights + provenance)")
    parser.add_argument("--coverage-only", action="store_true", help="only the human-scale estimate's coverage")
    args = parser.parse_args()
    started = time.perf_counter()
    if args.coverage_only:
        text = coverage_markdown(args.datasets)
        print(text or "no dataset found")
        print(f"(took {time.perf_counter() - started:.1f} s)")
        return 0 if text else 1
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
    print(coverage_markdown(args.datasets) or "")
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
