"""Benchmark: shards' throughput and the memory a shard's stages take (run by hand, not by pytest).

    .venv/bin/python tests/perf/bench_shards.py [--items 2000] [--latency 0.2] [--mem-items 10000] [--no-memory]

Throughput: the local fake OpenAI-compatible server answers every call after `--latency` seconds; batch-experiment
runs N qa items once as one process at concurrency 16, then as 4 shard processes at once (`--shard K/4`,
concurrency 16 each) followed by the consolidation (the same command without --shard, which must make no call).
Items/s of each, end to end (process start-up included), and the ratio (the issue's goal: >= 3.6x). The
consolidated experiment's items are checked equal to the single process's, timing fields aside.

Memory: peak RSS (os.wait4: the child's own) of groundtruth with a model (the fake server, no latency), batch-
experiment (the lead baseline) and eval over `--mem-items` items of meeting-sized documents (about 5 kB each),
each run as a child process. The issue's goal: <= 300 MB each at 10,000 items.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.fakeserver import FakeLLMServer  # noqa: E402
from tests.perf.bench_batch_experiment import make_groundtruth  # noqa: E402

TIMING = {"latency_s", "time_to_success_s"}
SHARDS = 4
CONCURRENCY = 16


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "gaia_eval", *args]


def experiment_args(config: Path, gt: Path, out: Path, *extra: str) -> list[str]:
    return cli("batch-experiment", "-c", str(config), "-i", str(gt), "-o", str(out), "--concurrency",
               str(CONCURRENCY), "--quiet", "--no-cache", *extra)


def comparable(path: Path) -> list[dict]:
    items = orjson.loads(path.read_bytes())["items"]
    return [{k: v for k, v in item.items() if k not in TIMING} for item in items]


def cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def throughput(work: Path, items: int, latency: float) -> tuple[float, float]:
    server = FakeLLMServer(latency_s=latency).start()
    try:
        work.mkdir(parents=True, exist_ok=True)
        config = work / "c.json"
        config.write_bytes(orjson.dumps({"experiments": [
            {"name": "bench", "provider": "vllm", "model": "m", "base_url": server.openai_base_url}]}))
        gt = make_groundtruth(work / "gt", items)
        start, cpu0, server0 = time.perf_counter(), cpu(resource.RUSAGE_CHILDREN), cpu(resource.RUSAGE_SELF)
        subprocess.run(experiment_args(config, gt, work / "single"), check=True, capture_output=True)
        single = time.perf_counter() - start
        cpu_single, server_single = cpu(resource.RUSAGE_CHILDREN) - cpu0, cpu(resource.RUSAGE_SELF) - server0
        calls_single = server.request_count
        start, cpu0, server0 = time.perf_counter(), cpu(resource.RUSAGE_CHILDREN), cpu(resource.RUSAGE_SELF)
        procs = [subprocess.Popen(experiment_args(config, gt, work / "sharded", "--shard", f"{k}/{SHARDS}"),
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for k in range(1, SHARDS + 1)]
        for proc in procs:
            _, err = proc.communicate()
            if proc.returncode != 0:
                raise SystemExit(f"a shard failed: {err.decode()}")
        shards_done = time.perf_counter() - start
        cpu_shards, server_shards = cpu(resource.RUSAGE_CHILDREN) - cpu0, cpu(resource.RUSAGE_SELF) - server0
        calls_shards = server.request_count - calls_single
        subprocess.run(experiment_args(config, gt, work / "sharded"), check=True, capture_output=True)
        with_consolidation = time.perf_counter() - start
        extra = server.request_count - calls_single - calls_shards
        arrivals = [r["arrived_at"] for r in server.requests]
    finally:
        server.stop()
    span_single = arrivals[calls_single - 1] - arrivals[0] + latency
    span_shards = max(arrivals[calls_single:calls_single + calls_shards]) - min(
        arrivals[calls_single:calls_single + calls_shards]) + latency
    same = comparable(work / "single" / "bench.experiment.json") == comparable(
        work / "sharded" / "bench.experiment.json")
    print(f"throughput: {items} qa items, fake server latency {latency * 1000:.0f} ms, concurrency {CONCURRENCY} per "
          "process, end to end (process start-up included)")
    print("| run | wall s | items/s | calls | CLI CPU s | fake server CPU s |")
    print("|---|---:|---:|---:|---:|---:|")
    print(f"| 1 process | {single:.2f} | {items / single:.1f} | {calls_single} | {cpu_single:.1f} | "
          f"{server_single:.1f} |")
    print(f"| {SHARDS} shards | {shards_done:.2f} | {items / shards_done:.1f} | {calls_shards} | {cpu_shards:.1f} | "
          f"{server_shards:.1f} |")
    print(f"| {SHARDS} shards + consolidation | {with_consolidation:.2f} | {items / with_consolidation:.1f} | "
          f"{calls_shards + extra} | | |")
    print(f"calling phase (first request to last reply at the server): 1 process {items / span_single:.1f} items/s, "
          f"{SHARDS} shards {items / span_shards:.1f} items/s: {span_single / span_shards:.2f}x")
    print(f"CPU cores: {os.cpu_count()}, load average {os.getloadavg()[0]:.1f}: when the CPU the shards and the "
          "server need per second of wall time reaches the cores free, the shards wait on CPU, not on the server")
    print(f"speed-up: {single / shards_done:.2f}x shards alone, {single / with_consolidation:.2f}x with the "
          f"consolidation (goal >= 3.6x); consolidation calls {extra}; items equal to one process's: {same}",
          flush=True)
    return single / shards_done, single / with_consolidation


def make_meetings(folder: Path, count: int) -> None:
    """`count` meeting transcripts of about 5 kB: the offline generator's meetings, each followed by the
    transcript the fake model's summaries are true of (so ground truth with a model passes its checks) and a
    line of its own (so no two are alike)."""
    from gaia_eval.stages.generate import run_generate
    from tests.test_groundtruth_llm import TRANSCRIPT

    run_generate("meeting", folder.parent / "seed", count_per_type=1, seed=11)
    seeds = [p.read_text() for p in sorted((folder.parent / "seed").rglob("*.txt"))]
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(count):
        text = f"{seeds[n % len(seeds)]}\n{TRANSCRIPT}\nMinutes {n}: ticket {n * 7 + 3} logged by Ana Costa.\n"
        (folder / f"meeting_{n:05d}.txt").write_text(text)


def measure(label: str, args: list[str], env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    proc = subprocess.Popen(cli(*args), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"{label} failed (status {status}): {proc.stderr.read().decode() if proc.stderr else ''}")
    peak = usage.ru_maxrss / 1024
    print(f"| {label} | {peak:.0f} | {wall:.1f} |", flush=True)
    return peak


def memory(work: Path, items: int) -> None:
    from tests.test_groundtruth_llm import SUMMARIES

    work.mkdir(parents=True, exist_ok=True)
    server = FakeLLMServer().start()
    server.responder = lambda req: {"json": SUMMARIES}
    try:
        make_meetings(work / "docs", items)
        env = {**os.environ, "OPENAI_API_KEY": "sk-bench", "GAIA_EVAL_NO_CACHE": "1"}
        config = work / "lead.json"
        config.write_text('{"experiments": [{"name": "lead", "provider": "baseline", "model": "lead"}]}')
        size = sum(p.stat().st_size for p in (work / "docs").iterdir()) / items / 1000
        print(f"memory: {items} meeting transcripts of {size:.1f} kB on average; peak RSS of each stage as a child "
              "process")
        print("| stage | peak RSS MB | wall s |")
        print("|---|---:|---:|")
        measure("groundtruth --provider vllm (fake server)",
                ["groundtruth", "-d", str(work / "docs"), "-o", str(work / "gt"), "--provider", "vllm", "--model",
                 "m", "--base-url", server.openai_base_url, "--concurrency", "32", "--quiet"], env)
        measure("groundtruth --shard 1/4", ["groundtruth", "-d", str(work / "docs"), "-o", str(work / "gt2"),
                                            "--provider", "vllm", "--model", "m", "--base-url",
                                            server.openai_base_url, "--concurrency", "32", "--quiet",
                                            "--shard", "1/4"], env)
        measure("batch-experiment (lead baseline)",
                ["batch-experiment", "-c", str(config), "-i", str(work / "gt"), "-o", str(work / "exp"), "--quiet"])
        measure("eval", ["eval", "-d", str(work / "exp"), "-o", str(work / "ev")])
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=2000, help="qa items of the throughput run")
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--mem-items", type=int, default=10_000)
    parser.add_argument("--no-memory", action="store_true")
    parser.add_argument("--no-throughput", action="store_true")
    parser.add_argument("--keep", type=Path, help="work in this folder and keep it (default: a temp folder)")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="gaia-eval-shards-"))
    try:
        if not args.no_throughput:
            throughput(work / "throughput", args.items, args.latency)
        if not args.no_memory:
            memory(work / "memory", args.mem_items)
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
