"""Benchmark of `gaia-eval import-results` on a big Inspect log: an .eval zip of N samples (default 10,000), each a
copy of a real sample of tests/data/interop/inspect_capitals.eval (with its messages and events, about 8 KB) under
its own id. The goal of issue 32: 10,000 samples in under 10 s, at most
300 MB of memory.

Run: python tests/perf/bench_import_results.py [--samples 10000]. Prints the import's wall and CPU time (on a loaded
machine CPU time is the steadier figure), its peak memory (the child process's maximum resident set), and the
ratios achieved / goal.
"""

from __future__ import annotations

import argparse
import copy
import json
import resource
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

LOG = Path(__file__).resolve().parents[1] / "data" / "interop" / "inspect_capitals.eval"
GOAL_S, GOAL_MB = 10.0, 300.0


def write_log(path: Path, n: int) -> None:
    """A version-2 .eval of n samples (deflate members: Python's zipfile writes no zstd before 3.14; reading either
    costs about the same next to parsing the JSON)."""
    from gaia_eval.interop.inspect_log import _read_fallback

    header, samples = _read_fallback(LOG)
    originals = list(samples)
    header["eval"]["dataset"].update(samples=n, sample_ids=[f"s{i}" for i in range(n)])
    right = 0
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as log:
        for i in range(n):
            sample = copy.deepcopy(originals[i % len(originals)])
            sample["id"] = f"s{i}"
            right += sample["scores"]["includes"]["value"] == "C"
            log.writestr(f"samples/s{i}_epoch_1.json", json.dumps(sample))
        for score in header["results"]["scores"]:
            if "accuracy" in score["metrics"]:
                score["metrics"]["accuracy"]["value"] = right / n
        log.writestr("header.json", json.dumps(header))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "big.eval"
        write_log(log, args.samples)
        started, cpu = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run([sys.executable, "-m", "gaia_eval", "import-results", str(log), "-o",
                               str(Path(tmp) / "out")], capture_output=True, text=True)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode:
            sys.exit(done.stdout + done.stderr)
        cpu_s = (after.ru_utime - cpu.ru_utime) + (after.ru_stime - cpu.ru_stime)
        peak_mb = after.ru_maxrss / 1024
        print(f"import-results, {args.samples} Inspect samples ({log.stat().st_size / 1e6:.0f} MB log):")
        print(f"  wall {wall:.1f} s, CPU {cpu_s:.1f} s, peak memory {peak_mb:.0f} MB")
        print(f"  ratio to goal (lower is better): time {cpu_s / GOAL_S:.2f} (CPU), memory {peak_mb / GOAL_MB:.2f}")


if __name__ == "__main__":
    main()
