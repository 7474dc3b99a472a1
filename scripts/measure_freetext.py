"""Measure the free-text summary grade against human ratings (development aid, not part of the product).

Summary level: Kendall tau between a metric and the mean human rating across the systems of one item, averaged
over items (SummEval/DialSummEval practice). System level: tau between system means.
Usage: python scripts/measure_freetext.py RATINGS.jsonl [--split tune|held|all] [--exclude A] [--systems D,E,...]
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import defaultdict

from scipy.stats import kendalltau

from gaia_eval.scoring.rubric.freetext import score_summary_output


def mean(v):
    return sum(v) / len(v)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("ratings")
    ap.add_argument("--split", default="all")
    ap.add_argument("--exclude", default="")
    ap.add_argument("--systems", default="")
    ap.add_argument("--no-refs", action="store_true")
    args = ap.parse_args()
    rows = [json.loads(line) for line in open(args.ratings)]
    items = sorted({r["item_id"] for r in rows})
    half = len(items) // 2
    keep = set(items[:half] if args.split == "tune" else items[half:] if args.split == "held" else items)
    excl = set(filter(None, args.exclude.split(",")))
    only = set(filter(None, args.systems.split(",")))
    rows = [r for r in rows if r["item_id"] in keep and r["system"] not in excl and (not only or r["system"] in only)]
    metrics = defaultdict(dict)  # metric -> (item, system) -> value
    humans = defaultdict(dict)
    for r in rows:
        key = (r["item_id"], r["system"])
        refs = [] if args.no_refs else r.get("references") or []
        s = score_summary_output(r["output"], r.get("source"), refs)
        metrics["grade"][key] = s.grade if s.grade is not None else 0.0
        for c, v in s.values.items():
            if v is not None:
                metrics[c][key] = v
        for k, v in s.rouge.items():
            metrics[k][key] = v
        metrics["length"][key] = len(r["output"].split())
        for dim, v in r["human"].items():
            humans[dim][key] = mean(v) if isinstance(v, list) else v
    print(f"{len(rows)} summaries, {len(keep)} items, split={args.split}")
    dims = ["relevance", "consistency", "coherence", "fluency"]
    print(f"{'metric':20s} " + " ".join(f"{d[:5]:>11s}" for d in dims) + "   (summary-level tau / system-level tau)")
    for m, vals in metrics.items():
        cells = []
        for d in dims:
            per_item = defaultdict(lambda: ([], []))
            for key, v in vals.items():
                per_item[key[0]][0].append(v)
                per_item[key[0]][1].append(humans[d][key])
            taus = [kendalltau(a, b).statistic for a, b in per_item.values() if len(a) > 2]
            taus = [t for t in taus if t == t]
            summ = mean(taus) if taus else float("nan")
            sys_m, sys_h = defaultdict(list), defaultdict(list)
            for key, v in vals.items():
                sys_m[key[1]].append(v)
                sys_h[key[1]].append(humans[d][key])
            names = sorted(sys_m)
            st = kendalltau([mean(sys_m[n]) for n in names], [mean(sys_h[n]) for n in names]).statistic
            cells.append(f"{summ:5.3f}/{st:5.2f}")
        print(f"{m:20s} " + " ".join(f"{c:>11s}" for c in cells))


if __name__ == "__main__":
    main()
