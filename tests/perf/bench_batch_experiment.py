"""Benchmark: batch-experiment throughput, CPU per item, and resume after SIGKILL (run by hand, not by pytest).

    .venv/bin/python tests/perf/bench_batch_experiment.py [--items 1000] [--concurrency 64] [--latency 0.2]

Starts the local fake OpenAI-compatible server with a fixed latency, runs batch-experiment over N qa items
as a subprocess, and prints achieved throughput / ideal throughput (ideal = concurrency / latency), the
CLI process's CPU time per item (marginal: measured against a run of a fifth of the items, so one-time
start-up and SDK imports are not spread over the items), and the calls made. Then it kills a second run at about half way with
SIGKILL, resumes it, and prints how many calls the resumed run made against how many items were missing.
"""

from __future__ import annotations

import argparse
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from gaia_eval.artifacts.groundtruth import ConsolidatedGroundTruth, GroundTruth, QAPair, SourceDocument  # noqa: E402
from gaia_eval.artifacts.store import fingerprint_bytes, write_artifact  # noqa: E402
from tests.fakeserver import FakeLLMServer  # noqa: E402


def make_groundtruth(folder: Path, items: int) -> Path:
    """N qa items over N/10 small documents, written as one consolidated ground-truth file."""
    folder.mkdir(parents=True, exist_ok=True)
    docs = []
    for d in range((items + 9) // 10):
        text = "\n".join(f"Speaker{k}: item {d}-{k} is owned by person {k} and due on day {k + 1}." for k in range(10))
        pairs = [
            QAPair(id=f"q{k:02d}", query=f"Who owns item {d}-{k}?", answer=f"person {k}", answer_type="string")
            for k in range(min(10, items - 10 * d))
        ]
        docs.append(
            GroundTruth(
                use_case="qa",
                item_id=f"doc{d:04d}",
                source=SourceDocument(path=f"doc{d:04d}.txt", fingerprint=fingerprint_bytes(text.encode()), text=text),
                method="bench",
                qa_pairs=pairs,
            )
        )
    path = folder / "consolidated_qa_groundtruth.json"
    write_artifact(path, ConsolidatedGroundTruth(use_case="qa", source_files=[], items=docs))
    return path


def cli(config: Path, gt: Path, out: Path, concurrency: int) -> list[str]:
    return [sys.executable, "-m", "gaia_eval", "batch-experiment", "-c", str(config), "-i", str(gt), "-o", str(out),
            "--concurrency", str(concurrency), "--quiet"]


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--latency", type=float, default=0.2)
    args = parser.parse_args()

    server = FakeLLMServer(latency_s=args.latency).start()
    work = Path(tempfile.mkdtemp(prefix="gaia-bench-"))
    gt = make_groundtruth(work, args.items)
    config = work / "config.json"
    config.write_bytes(orjson.dumps({"experiments": [
        {"name": "bench", "provider": "vllm", "model": "bench-model", "base_url": server.openai_base_url,
         "max_concurrency": args.concurrency}
    ]}))
    try:
        # A small run first: the difference to the full run is the per-item cost, without start-up and imports.
        small = max(1, args.items // 5)
        small_gt = make_groundtruth(work / "small", small)
        cpu0 = child_cpu()
        subprocess.run(cli(config, small_gt, work / "run0", args.concurrency), check=True, capture_output=True)
        small_cpu = child_cpu() - cpu0

        cpu0, calls0, t0 = child_cpu(), server.request_count, time.perf_counter()
        subprocess.run(cli(config, gt, work / "run1", args.concurrency), check=True)
        wall = time.perf_counter() - t0
        cpu = child_cpu() - cpu0
        calls = server.request_count - calls0
        ideal = args.concurrency / args.latency
        achieved = args.items / wall
        marginal = (cpu - small_cpu) / (args.items - small)
        print(f"items {args.items}, concurrency {args.concurrency}, server latency {args.latency * 1000:.0f} ms")
        print(f"wall time {wall:.2f} s, model calls {calls}")
        totals = orjson.loads((work / "run1" / "bench.experiment.json").read_bytes())["totals"]
        engine = args.items / totals["wall_time_s"]
        print(f"throughput {engine:.1f} items/s over the calling phase ({totals['wall_time_s']:.2f} s), ideal "
              f"{ideal:.1f} items/s, ratio {engine / ideal:.3f}")
        print(f"end to end, with process start-up and imports: {achieved:.1f} items/s, ratio {achieved / ideal:.3f}")
        print(f"CLI CPU {cpu:.2f} s in all ({1000 * cpu / args.items:.2f} ms/item with start-up and imports); "
              f"per item, from the {small}-item run's difference: {1000 * marginal:.2f} ms/item")

        out = work / "run2"
        journal = out / "bench.experiment.journal.jsonl"
        proc = subprocess.Popen(cli(config, gt, out, args.concurrency))
        while not (journal.exists() and journal.read_bytes().count(b"\n") >= args.items // 2):
            time.sleep(0.01)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        journaled = sum(1 for line in journal.read_bytes().splitlines() if line.endswith(b"}"))
        calls0 = server.request_count
        subprocess.run(cli(config, gt, out, args.concurrency), check=True)
        resumed_calls = server.request_count - calls0
        missing = args.items - journaled
        print(f"killed with SIGKILL after {journaled} journaled items; resumed run made {resumed_calls} calls "
              f"for {missing} missing items (extra: {resumed_calls - missing})")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
