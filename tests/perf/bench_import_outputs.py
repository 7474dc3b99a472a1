"""Benchmark of `gaia-eval import-outputs` memory: the peak resident set of a child process importing N rows
(item_id, system, output, source, numbers) for three systems, next to the floor of a 30-row import.

Run: python tests/perf/bench_import_outputs.py [--rows 20000 200000] [--format jsonl|json|csv] [--groundtruth].
Prints rows, file size, peak RSS (VmHWM of the child) and what the rows add above the floor. Linux only (reads
/proc/self/status).
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.peak_memory import cli_peak_kb

SYSTEMS = ("alpha", "beta", "gamma")


def write_rows(path: Path, rows: int, *, source: bool = True) -> Path:
    """`rows` rows of about 70 bytes of source and output each (a 200,000-row file is about 50 MB), as JSON Lines,
    a JSON array or CSV by the path's suffix."""
    with path.open("w", newline="") as fh:
        writer = None
        fh.write("[" if path.suffix == ".json" else "")
        for i in range(rows):
            system = SYSTEMS[i % len(SYSTEMS)]
            row = {
                "item_id": f"doc{i // len(SYSTEMS):06d}", "system": system,
                "output": f"Ana sends the budget by Friday; blue design ({i}).",
                "source": f"Meeting {i // len(SYSTEMS)}. Ana will send the budget by Friday.",
                "input_tokens": 40 + i % 7, "output_tokens": 12, "cost_usd": 0.0001 * (i % 5), "latency_s": 0.5,
            }
            if not source:
                del row["source"]
            if path.suffix == ".csv":
                writer = writer or csv.DictWriter(fh, fieldnames=list(row))
                if not i:
                    writer.writeheader()
                writer.writerow(row)
            else:
                fh.write(("," if i and path.suffix == ".json" else "") + json.dumps(row) + "\n")
        fh.write("]" if path.suffix == ".json" else "")
    return path


def write_groundtruth(work: Path, rows: int) -> Path:
    """A consolidated ground truth (import-groundtruth) of the documents of `rows` rows, each with a source of
    about 300 bytes (200,000 rows: a 117 MB file, so the import runs with the input cap lifted): the rows'
    sources come from it when they have no source column (`--groundtruth`)."""
    data = work / f"gt{rows}.jsonl"
    with data.open("w") as fh:
        for i in range((rows + len(SYSTEMS) - 1) // len(SYSTEMS)):
            fh.write(json.dumps({"item_id": f"doc{i:06d}", "references": ["Ana sends the budget by Friday."],
                                 "source": f"Meeting {i}. " + "Ana will send the budget by Friday. " * 8}) + "\n")
    subprocess.run([sys.executable, "-m", "gaia_eval", "import-groundtruth", str(data), "-o", str(work / f"gt{rows}")],
                   check=True, stdout=subprocess.DEVNULL)
    return work / f"gt{rows}" / "consolidated_summarization_groundtruth.json"


def peak_kb(rows_file: Path, out: Path, cwd: Path | None = None, groundtruth: Path | None = None) -> int:
    """The child's own peak (VmHWM, tests/peak_memory.py) importing `rows_file`; no input limit, as large runs need."""
    extra = ["-g", str(groundtruth)] if groundtruth else []
    return cli_peak_kb(["import-outputs", str(rows_file), "-o", str(out), *extra], out.parent / f"{out.name}.peak",
                       prelude='import os; os.environ["GAIA_EVAL_MAX_INPUT_MB"] = "inf"', cwd=cwd)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[20_000, 200_000])
    parser.add_argument("--format", choices=["jsonl", "json", "csv"], default="jsonl", help="the rows file's kind")
    parser.add_argument("--groundtruth", action="store_true",
                        help="rows without a source column, their sources from a -g ground truth of rows/3 documents")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        floor = peak_kb(write_rows(work / "floor.jsonl", 30), work / "out-floor")
        print(f"floor (30 rows): {floor / 1024:.0f} MB")
        gt_title = "  ground truth MB" if args.groundtruth else ""
        print(f"rows     file MB  peak MB  added MB  bytes/row  wall s{gt_title}")
        for rows in args.rows:
            data = write_rows(work / f"rows{rows}.{args.format}", rows, source=not args.groundtruth)
            groundtruth = write_groundtruth(work, rows) if args.groundtruth else None
            start = time.perf_counter()
            peak = peak_kb(data, work / f"out{rows}", groundtruth=groundtruth)
            wall = time.perf_counter() - start
            added = max(peak - floor, 0)
            print(f"{rows:<8} {data.stat().st_size / 1e6:7.1f}  {peak / 1024:7.0f}  {added / 1024:8.0f}"
                  f"  {added * 1024 / rows:9.0f}  {wall:6.1f}"
                  + (f"  {groundtruth.stat().st_size / 1e6:15.1f}" if groundtruth else ""))


if __name__ == "__main__":
    main()
