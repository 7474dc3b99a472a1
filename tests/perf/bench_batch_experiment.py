"""Benchmark: batch-experiment throughput, CPU per item, and resume after SIGKILL (run by hand, not by pytest).

    .venv/bin/python tests/perf/bench_batch_experiment.py [--items 1000,5000] [--concurrency 64] [--latency 0.2]

Prints what importing the openai SDK alone costs (python -X importtime). Starts the local fake OpenAI-compatible
server with a fixed latency and, for each item count, runs batch-experiment over N qa items as a subprocess and
prints the throughput over the calling phase / ideal throughput (ideal = concurrency / latency), the same end to
end, the CLI process's CPU time per item (marginal: measured against a run of a fifth of the items, so one-time
start-up and SDK imports are not spread over the items), the calls made, and how long after the process
started its first request reached the server (to set beside the SDK's import time). Then it kills a run at
about half way with SIGKILL, resumes it, and prints how many calls the resumed run made against how many
items were missing. The figures are noisy on a shared machine: run it a few times and report ranges.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
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


def openai_import_s() -> float:
    """What importing the openai SDK alone costs a fresh interpreter (python -X importtime, cumulative)."""
    err = subprocess.run([sys.executable, "-X", "importtime", "-c", "import openai"], capture_output=True,
                         text=True, check=True).stderr
    line = next(x for x in reversed(err.splitlines()) if x.rstrip().endswith("| openai"))
    return int(line.split("|")[1]) / 1e6


def run_timed(cmd: list[str], server: FakeLLMServer) -> tuple[float, float, float, int]:
    """(wall s, CPU s, first-request delay s, calls) of one CLI run: the delay from starting the process to the
    first request reaching the server."""
    calls0, cpu0 = server.request_count, child_cpu()
    start_mono, start = time.monotonic(), time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    wall, cpu = time.perf_counter() - start, child_cpu() - cpu0
    arrived = [r["arrived_at"] for r in server.requests[calls0:]]
    return wall, cpu, (min(arrived) - start_mono) if arrived else float("nan"), server.request_count - calls0


def bench_size(work: Path, config: Path, server: FakeLLMServer, items: int, args: argparse.Namespace) -> None:
    # A small run first: the difference to the full run is the per-item cost, without start-up and imports.
    small = max(1, items // 5)
    _, small_cpu, first_small, _ = run_timed(cli(config, make_groundtruth(work / f"small{items}", small),
                                                 work / f"run{items}-small", args.concurrency), server)
    out = work / f"run{items}"
    wall, cpu, first, calls = run_timed(
        cli(config, make_groundtruth(work / f"gt{items}", items), out, args.concurrency), server
    )
    ideal = args.concurrency / args.latency
    marginal = (cpu - small_cpu) / (items - small)
    totals = orjson.loads((out / "bench.experiment.json").read_bytes())["totals"]
    engine = items / totals["wall_time_s"]
    print(f"items {items}, concurrency {args.concurrency}, server latency {args.latency * 1000:.0f} ms: "
          f"wall time {wall:.2f} s, model calls {calls}")
    print(f"  calling phase: {engine:.1f} items/s over {totals['wall_time_s']:.2f} s, ideal {ideal:.1f} items/s, "
          f"ratio {engine / ideal:.3f}")
    print(
        f"  end to end, with process start-up and imports: {items / wall:.1f} items/s, ratio {items / wall / ideal:.3f}"
    )
    print(f"  CLI CPU {cpu:.2f} s in all ({1000 * cpu / items:.2f} ms/item with start-up and imports); per item, from "
          f"the {small}-item run's difference: {1000 * marginal:.2f} ms/item (goal: 1 ms)")
    print(f"  first request {first:.2f} s after the process started ({first_small:.2f} s in the {small}-item run)",
          flush=True)


def bench_resume(work: Path, config: Path, server: FakeLLMServer, items: int, concurrency: int) -> None:
    gt = work / f"gt{items}" / "consolidated_qa_groundtruth.json"
    out = work / "killed"
    journal = out / "bench.experiment.journal.jsonl"
    proc = subprocess.Popen(cli(config, gt, out, concurrency))
    while not (journal.exists() and journal.read_bytes().count(b"\n") >= items // 2):
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    journaled = sum(1 for line in journal.read_bytes().splitlines() if line.endswith(b"}"))
    calls0 = server.request_count
    subprocess.run(cli(config, gt, out, concurrency), check=True)
    resumed_calls = server.request_count - calls0
    missing = items - journaled
    print(f"killed with SIGKILL after {journaled} journaled items; resumed run made {resumed_calls} calls "
          f"for {missing} missing items (extra: {resumed_calls - missing})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", default="1000,5000", help="item counts, comma-separated")
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--no-resume", action="store_true", help="skip the SIGKILL-and-resume check")
    args = parser.parse_args()
    sizes = [int(n) for n in args.items.split(",")]

    print(f"importing the openai SDK alone: {openai_import_s():.2f} s (python -X importtime, cumulative)", flush=True)
    server = FakeLLMServer(latency_s=args.latency).start()
    work = Path(tempfile.mkdtemp(prefix="gaia-bench-"))
    config = work / "config.json"
    config.write_bytes(orjson.dumps({"experiments": [
        {"name": "bench", "provider": "vllm", "model": "bench-model", "base_url": server.openai_base_url,
         "max_concurrency": args.concurrency}
    ]}))
    try:
        for items in sizes:
            bench_size(work, config, server, items, args)
        if not args.no_resume:
            bench_resume(work, config, server, sizes[0], args.concurrency)
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
