"""Benchmark of `gaia-eval import-groundtruth`: milliseconds per item for N small items with a reference summary
and two question-answer pairs each (the goal of issue 21: at most 1 ms per item at 10,000 items).

Run: python tests/perf/bench_import.py [--items 10000]. Prints the wall and CPU time of a first import and of a
second one that finds everything up to date, per item (on a loaded machine the CPU time is the steadier figure).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from gaia_eval.stages.imports.groundtruth import run_import_groundtruth


def write_rows(path: Path, n: int) -> None:
    with path.open("w") as fh:
        for i in range(n):
            fh.write(
                json.dumps(
                    {
                        "item_id": f"doc{i:05d}",
                        "source": f"Meeting {i}. Ana will send the budget by Friday. "
                        f"The team chose the blue design for item {i}.",
                        "references": [f"The team chose the blue design; Ana sends the budget by Friday ({i})."],
                        "qa": [
                            {"question": "Who sends the budget?", "answer": "Ana"},
                            {"question": "Which design was chosen?", "answer": "the blue design"},
                        ],
                    }
                )
                + "\n"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "rows.jsonl"
        write_rows(data, args.items)
        for run in ("first import", "again (nothing new)"):
            start, cpu = time.perf_counter(), time.process_time()
            summary = run_import_groundtruth([data], Path(tmp) / "gt")
            elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
            print(f"{run}: {args.items} items in {elapsed:.2f} s = {1000 * elapsed / args.items:.3f} ms per item "
                  f"(CPU {1000 * cpu / args.items:.3f} ms per item; {summary.made} files written)")


if __name__ == "__main__":
    main()
