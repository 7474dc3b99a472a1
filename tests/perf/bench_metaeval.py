"""Benchmark of `gaia-eval meta-eval` on human-rated summaries: which gaia-eval scorer agrees best with each human
dimension, side by side with ROUGE and the two baselines, and how long the run takes.

Run: python tests/perf/bench_metaeval.py [--datasets ../shared/datasets] [--judge PROVIDER:MODEL]. It reads
`dialsummeval_dev/ratings.jsonl` (system A, the human reference itself, is excluded: its ROUGE would be 1) and
`summeval/summeval_expert.jsonl` (no references: source-grounded scorers only, ROUGE not applicable). Those files
are not part of the repository (licences); the benchmark only measures. Prints markdown tables.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from gaia_eval.artifacts.metaeval import MetaEvaluation, ScorerAgreement
from gaia_eval.metaeval.scorers import BASELINES, ROUGE
from gaia_eval.scoring.judge.core import parse_judge_spec
from gaia_eval.stages.meta_eval import run_meta_eval

DATASETS = (
    ("DialSummEval (dev half)", "dialsummeval_dev/ratings.jsonl", ["A"]),
    ("SummEval (expert)", "summeval/summeval_expert.jsonl", []),
)
# The free-text scorer's settings were tuned on the first 25 DialSummEval dialogues of the file: the last 25 are
# also measured alone, as held-out data.
TUNED_ITEMS = 25
# DialSummEval's extractive baselines (longest-3, lead-3): the goal is also measured among abstractive systems only.
EXTRACTIVE = ["B", "C"]
# The default grade's goal (issue 12): a higher summary-level correlation with human relevance and consistency than
# ROUGE-L and output length (and, among abstractive systems, than ROUGE-1 F1), on data it was not tuned on.
GOAL_DIMENSIONS = ("relevance", "consistency")
GOAL_RIVALS = ("rougeL", "length", "rouge1")


def _tau(row: ScorerAgreement | None) -> str:
    if row is None:
        return "n/a"
    if row.system_kendall is None:
        return "–"
    ci = f" [{row.system_kendall_ci[0]:.2f}, {row.system_kendall_ci[1]:.2f}]" if row.system_kendall_ci else ""
    summary = "–" if row.summary_level is None else f"{row.summary_level:.2f}"
    return f"{row.system_kendall:.2f}{ci} / {summary}"


def table(result: MetaEvaluation) -> str:
    """One line per dimension: the best gaia-eval scorer, the grade, ROUGE, the baselines, the human ceiling."""
    def row(scorer: str, dimension: str) -> ScorerAgreement | None:
        return next((r for r in result.results if r.scorer == scorer and r.dimension == dimension), None)

    ours = [s for s in result.scorers if s not in BASELINES and s not in ROUGE]
    lines = [
        "| Dimension | Best gaia-eval scorer (system) | its τ sys [CI] / summ | Best (summary level) | grade | rouge1 "
        "| rouge2 | rougeL | length (baseline) | rouge1_recall (baseline) | annotators (α; one vs rest τ sys / summ) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for dimension in result.dimensions:
        candidates = [r for r in (row(s, dimension) for s in ours) if r is not None and r.system_kendall is not None]
        best = max(candidates, key=lambda r: (r.system_kendall, r.summary_level or -1.0), default=None)
        at_summary = max((r for r in candidates if r.summary_level is not None), key=lambda r: r.summary_level,
                         default=None)
        human = result.annotator_agreement.get(dimension)
        if human is not None and human.krippendorff_alpha is not None:
            ceiling = f"α {human.krippendorff_alpha:.2f}; {human.loo_system_kendall:.2f} / {human.loo_summary_level:.2f}"
        else:
            ceiling = "n/a (means only)"
        cells = [
            dimension,
            best.scorer if best else "–",
            _tau(best),
            f"{at_summary.scorer} {at_summary.summary_level:.2f}" if at_summary else "–",
            *(_tau(row(s, dimension)) for s in ("grade", *ROUGE, *BASELINES)),
            ceiling,
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def goal(result: MetaEvaluation) -> str:
    """Summary-level Kendall τ of the grade beside ROUGE-L, length and ROUGE-1 F1, for relevance and consistency."""
    def tau(scorer: str, dimension: str) -> float | None:
        row = next((r for r in result.results if r.scorer == scorer and r.dimension == dimension), None)
        return None if row is None else row.summary_level

    lines = [
        "| Dimension (summary-level τ) | grade | " + " | ".join(GOAL_RIVALS) + " | grade above all? |",
        "|---|---|---|---|---|---|",
    ]
    for dimension in GOAL_DIMENSIONS:
        grade = tau("grade", dimension)
        rivals = [tau(s, dimension) for s in GOAL_RIVALS]
        known = [r for r in rivals if r is not None]
        verdict = "–" if grade is None else ("yes" if all(grade > r for r in known) else "no")
        cells = ["n/a" if v is None else f"{v:.2f}" for v in (grade, *rivals)]
        lines.append(f"| {dimension} | " + " | ".join(cells) + f" | {verdict} |")
    return "\n".join(lines)


def _held_out(path: Path, scratch: Path) -> Path:
    """The lines of the items after the first TUNED_ITEMS, as a file of their own."""
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    items = list(dict.fromkeys(json.loads(line)["item_id"] for line in lines))
    keep = set(items[TUNED_ITEMS:])
    out = scratch / "held_out.jsonl"
    out.write_text("".join(line + "\n" for line in lines if json.loads(line)["item_id"] in keep))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=Path, default=Path("../shared/datasets"))
    parser.add_argument("--judge", default=None, help="also measure this judge (PROVIDER:MODEL); costs calls")
    args = parser.parse_args()
    judge = parse_judge_spec(args.judge) if args.judge else None
    found = 0
    scratch = Path(tempfile.mkdtemp(prefix="bench_metaeval_"))
    runs = []
    for title, relative, exclude in DATASETS:
        path = args.datasets / relative
        if not path.is_file():
            print(f"skipped {title}: {path} not found (pass --datasets)", file=sys.stderr)
            continue
        runs.append((title, path, exclude))
        if relative.startswith("dialsummeval"):
            held = _held_out(path, scratch)
            runs.append((title.replace("dev half", f"held-out: dialogues {TUNED_ITEMS + 1}-50"), held, exclude))
            runs.append((title.replace("dev half", "held-out, abstractive systems only"), held, exclude + EXTRACTIVE))
    for title, path, exclude in runs:
        found += 1
        started = time.perf_counter()
        result = run_meta_eval(path, exclude_systems=exclude, judge=judge).result
        elapsed = time.perf_counter() - started
        print(f"## {title}: {result.n_summaries} summaries, {result.n_items} items × {result.n_systems} systems"
              + (f" (excluded: {', '.join(exclude)})" if exclude else "") + f"; meta-eval took {elapsed:.1f} s\n")
        print("Cells: system-level Kendall τ [95 % bootstrap CI] / summary-level Kendall τ; n/a = not applicable.\n")
        print(table(result))
        print()
        print(goal(result))
        for note in result.notes:
            print(f"\n- {note}")
        print()
    return 0 if found else 1


if __name__ == "__main__":
    sys.exit(main())
