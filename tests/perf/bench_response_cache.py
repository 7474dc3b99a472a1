"""Benchmark: what writing the response cache costs the calling phase of batch-experiment (run by hand, not by pytest).

    .venv/bin/python tests/perf/bench_response_cache.py [--items 1072] [--concurrency 64] [--latency 0.2]
                                                       [--rounds 3] [--prefill 0]

Starts the local fake OpenAI server with a fixed latency and runs batch-experiment over N qa items with an
"openai" experiment (a cached provider) as a subprocess, alternately with --no-cache and with the cache on (a
fresh, empty cache folder each time, so every reply is a miss that is written), and prints for each run the
calling-phase throughput over the ideal one (ideal = concurrency / latency), then the median ratio of each mode
and their difference, beside the CLI process's CPU time per item (steadier than the ratio on a loaded
machine). `--prefill N` first fills each cache folder with N unrelated entries, as a cache in daily
use holds. A last run into a new folder with a warm cache checks that it sends no request. The figures are noisy
on a shared machine: the rounds alternate the two modes so that load hits both alike.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from gaia_eval.artifacts.base import Usage  # noqa: E402
from gaia_eval.artifacts.response_cache import CachedReply, ResponseStore  # noqa: E402
from tests.fakeserver import FakeLLMServer  # noqa: E402
from tests.perf.bench_batch_experiment import child_cpu, cli, make_groundtruth  # noqa: E402


def prefill(cache: Path, entries: int) -> None:
    store = ResponseStore(cache)
    body = CachedReply(text="an unrelated earlier reply " * 20, usage=Usage(input_tokens=100, output_tokens=50),
                       finish_reason="stop", model="m")
    for i in range(entries):
        store.put(f"{i:064x}", body)


def one_run(work: Path, tag: str, gt: Path, config: Path, server: FakeLLMServer, args: argparse.Namespace,
            cached: bool, cache_tag: str | None = None) -> tuple[float, int, float]:
    """(calling-phase ratio to ideal, requests the server got, the CLI's CPU ms per item) of one run."""
    cache = work / f"cache-{cache_tag or tag}"
    if cached and args.prefill and not cache.exists():
        prefill(cache, args.prefill)
    out = work / f"out-{tag}"
    env = {**os.environ, "GAIA_EVAL_CACHE_DIR": str(cache), "OPENAI_API_KEY": "sk-bench"}
    before, cpu_before = server.request_count, child_cpu()
    cmd = cli(config, gt, out, args.concurrency) + ([] if cached else ["--no-cache"])
    subprocess.run(cmd, check=True, capture_output=True, env=env)
    cpu_ms = 1000 * (child_cpu() - cpu_before) / args.items
    totals = orjson.loads((out / "bench.experiment.json").read_bytes())["totals"]
    ratio = args.items / totals["wall_time_s"] / (args.concurrency / args.latency)
    return ratio, server.request_count - before, cpu_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=1072)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--prefill", type=int, default=0, help="unrelated entries put in each cache first")
    args = parser.parse_args()

    server = FakeLLMServer(latency_s=args.latency).start()
    work = Path(tempfile.mkdtemp(prefix="gaia-cache-bench-"))
    config = work / "config.json"
    config.write_bytes(orjson.dumps({"experiments": [
        {"name": "bench", "provider": "openai", "model": "gpt-4o-mini", "base_url": server.openai_base_url,
         "max_concurrency": args.concurrency}
    ]}))
    ratios: dict[str, list[float]] = {"no-cache": [], "cache": []}
    cpu: dict[str, list[float]] = {"no-cache": [], "cache": []}
    try:
        gt = make_groundtruth(work / "gt", args.items)
        print(f"{args.items} items, concurrency {args.concurrency}, server latency {args.latency * 1000:.0f} ms, "
              f"{args.prefill} entries in the cache beforehand", flush=True)
        for round_ in range(args.rounds):
            order = [False, True] if round_ % 2 == 0 else [True, False]
            for cached in order:
                mode = "cache" if cached else "no-cache"
                ratio, requests, cpu_ms = one_run(work, f"{mode}{round_}", gt, config, server, args, cached)
                ratios[mode].append(ratio)
                cpu[mode].append(cpu_ms)
                print(f"  round {round_ + 1} {mode:8}: calling phase {ratio:.3f} of ideal ({requests} requests), "
                      f"CLI CPU {cpu_ms:.2f} ms/item", flush=True)
        med = {mode: statistics.median(values) for mode, values in ratios.items()}
        med_cpu = {mode: statistics.median(values) for mode, values in cpu.items()}
        print(f"median: --no-cache {med['no-cache']:.3f}, cache on {med['cache']:.3f} of ideal; "
              f"difference {100 * (med['no-cache'] - med['cache']) / med['no-cache']:+.1f} % (goal: under 3 %); "
              f"CLI CPU {med_cpu['no-cache']:.2f} vs {med_cpu['cache']:.2f} ms/item")
        _, requests, _ = one_run(work, "warm", gt, config, server, args, True, cache_tag="cache0")
        print(f"warm cache, new folder: {requests} requests sent (goal: 0)")
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
