"""Benchmark: peak memory and time of `gaia-eval eval` and `gaia-eval report` on N summarization items (run by
hand, not by pytest).

    .venv/bin/python tests/perf/bench_eval_memory.py [--items 10000] [--keep DIR]

Makes a realistic experiment the short way: the offline generator writes one meeting per type, offline ground
truth and the lead baseline run on them, and their items are copied N times with each copy's document, answer
and expected summary made distinct (so no cache can serve one copy from another). Then runs eval (a first run
that scores everything, and a second one that finds it up to date) and report as subprocesses and prints each
one's peak RSS (from wait4), wall time and CPU time. The issue's bar: eval at most 300 MB at 10,000 items.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from gaia_eval.artifacts.experiment import Experiment  # noqa: E402
from gaia_eval.artifacts.store import fingerprint_bytes, read_artifact, write_artifact  # noqa: E402
from gaia_eval.stages.experiment.run import run_batch_experiment  # noqa: E402
from gaia_eval.stages.generate import run_generate  # noqa: E402
from gaia_eval.stages.groundtruth.run import run_groundtruth  # noqa: E402


def make_experiment(work: Path, items: int) -> Path:
    run_generate("meeting", work / "docs", count_per_type=1, seed=11)
    run_groundtruth(input_dir=work / "docs", use_case="summarization", output_dir=work / "gt")
    config = work / "lead.json"
    config.write_text('{"experiments": [{"name": "lead", "provider": "baseline", "model": "lead"}]}')
    run_batch_experiment(config, work / "gt", work / "seed", show_progress=False)
    seed = read_artifact(work / "seed" / "lead.experiment.json", Experiment)
    sources, results = {}, []
    for n in range(items):
        item = seed.items[n % len(seed.items)]
        doc = seed.sources[item.source]
        tag = f"Reference {n}: ticket {n * 7 + 3} was logged by Ana Reyes{n}."
        key = f"{item.source}_{n:05d}"
        text = f"{doc.text}\n{tag}"
        sources[key] = doc.model_copy(update={"path": f"{key}.txt", "text": text,
                                              "fingerprint": fingerprint_bytes(text.encode())})
        summaries = item.summaries.model_copy(update={"executive_summary": f"{item.summaries.executive_summary} {tag}"})
        expected = item.groundtruth_summaries.model_copy(
            update={"detailed_summary": f"{item.groundtruth_summaries.detailed_summary} {tag}"})
        results.append(item.model_copy(update={"item_id": key, "source": key, "summaries": summaries,
                                               "groundtruth_summaries": expected}))
    totals = seed.totals.model_copy(update={"items": items, "ok": items})
    path = work / "exp" / "lead.experiment.json"
    write_artifact(path, seed.model_copy(update={"sources": sources, "items": results, "totals": totals}))
    return path


def measure(label: str, args: list[str]) -> None:
    """Run the CLI as a child and print its peak RSS, wall and CPU time (os.wait4: this child's own figures)."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "gaia_eval", *args], stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"{label} failed (status {status})")
    print(f"{label}: peak RSS {usage.ru_maxrss / 1024:.0f} MB, wall {wall:.1f} s, "
          f"CPU {usage.ru_utime + usage.ru_stime:.1f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--keep", type=Path, help="make the data in this folder and keep it (default: a temp folder)")
    parser.add_argument("--make-only", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.make_only:
        make_experiment(args.make_only, args.items)
        return
    work = args.keep or Path(tempfile.mkdtemp(prefix="gaia-eval-mem-"))
    try:
        # The data is made by a child process: a child forked from a parent holding it would count the parent's
        # pages in its own peak RSS (Linux keeps the high-water mark across exec).
        subprocess.run([sys.executable, __file__, "--items", str(args.items), "--make-only", str(work)], check=True)
        path = work / "exp" / "lead.experiment.json"
        print(f"{args.items} summarization items, experiment file {path.stat().st_size / 1e6:.0f} MB", flush=True)
        measure("eval (scores every item)", ["eval", "-d", str(path.parent), "-o", str(work / "ev")])
        size = (work / "ev" / "lead.experiment.eval.json").stat().st_size
        print(f"  evaluation file {size / 1e6:.0f} MB", flush=True)
        measure("eval again (up to date)", ["eval", "-d", str(path.parent), "-o", str(work / "ev")])
        measure("report", ["report", "-d", str(work / "ev"), "-o", str(work / "report" / "report.md")])
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
