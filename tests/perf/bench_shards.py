"""Benchmark: shards' throughput and the memory a shard's stages take (run by hand, not by pytest).

    .venv/bin/python tests/perf/bench_shards.py [--items 2000] [--latency 0.2] [--mem-items 10000] [--no-memory]

Throughput: tests/perf/latency_server.py, in a process of its own, answers every call after `--latency` seconds
(it is the "200 ms server", not what is measured). batch-experiment runs N qa items as one process at
concurrency 16, then as 4 shard processes at once (`--shard K/4`, concurrency 16 each) followed by the
consolidation (the same command without --shard, which must make no call), then the largest shard alone (what
each shard does with a machine of its own). Each row prints items/s against the ideal (processes x concurrency
/ latency) and the ratio, end to end (process start-up included) and over the calling phase only (first request
in to last reply out, at the server), with our processes' CPU (os.wait4) and the server's. Below the table: our
CPU per item (marginal: a run of 16 items is the start-up) and per process start-up, the cores the shard phase
kept busy, and the speed-ups (the issue's goal: >= 3.6x), beside the most the partition allows at this item
count. The consolidated experiment's items are checked equal to the single process's, timing fields aside. The
children keep byte-compiled modules (an installed package has them; PYTHONDONTWRITEBYTECODE=1 would make each
process compile gaia-eval again). On a shared machine, run it when `uptime` is lowest and quote the load.

Memory: peak RSS (os.wait4: the child's own) of groundtruth with a model (the fake server, no latency), batch-
experiment (the lead baseline) and eval over `--mem-items` items of meeting-sized documents (about 5 kB each),
each run as a child process. The issue's goal: <= 300 MB each at 10,000 items.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.fakeserver import FakeLLMServer  # noqa: E402
from tests.perf.bench_batch_experiment import make_groundtruth  # noqa: E402
from tests.perf.latency_server import LatencyServer  # noqa: E402

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


def children_env(work: Path) -> dict[str, str]:
    """The children's environment: byte-compiled modules kept (in `work`), as an installed package has them; a
    PYTHONDONTWRITEBYTECODE=1 in the caller's environment would otherwise make every process compile
    gaia-eval's modules again (about 0.1 s of CPU each)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPYCACHEPREFIX": str(work / "pycache")}


@dataclass
class Ran:
    wall: float
    cpu: float  # the child's own user + system CPU seconds (os.wait4)
    spawned: float  # time.monotonic() when it was started


def start(args: list[str], env: dict[str, str], log: Path) -> tuple[subprocess.Popen, float]:
    with open(log, "wb") as err:
        return subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=err, env=env), time.monotonic()


def finish(proc: subprocess.Popen, spawned: float, log: Path) -> Ran:
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(proc.args)} failed: {log.read_text()}")  # type: ignore[arg-type]
    return Ran(time.monotonic() - spawned, usage.ru_utime + usage.ru_stime, spawned)


def finish_all(started: list[tuple[subprocess.Popen, float]], logs: list[Path]) -> list[Ran]:
    """Each process's wall time up to its own exit: reaped in the order they end, not the order started."""
    ran: dict[int, Ran] = {}
    index = {proc.pid: k for k, (proc, _) in enumerate(started)}
    while len(ran) < len(started):
        pid, status, usage = os.wait4(-1, 0)
        if pid not in index:
            continue
        k = index[pid]
        proc, spawned = started[k]
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(proc.args)} failed: {logs[k].read_text()}")  # type: ignore[arg-type]
        ran[k] = Ran(time.monotonic() - spawned, usage.ru_utime + usage.ru_stime, spawned)
    return [ran[k] for k in range(len(started))]


def run(args: list[str], env: dict[str, str], log: Path) -> Ran:
    return finish(*start(args, env, log), log)


def shard_sizes(gt: Path) -> list[int]:
    from gaia_eval.artifacts.shards import Shard
    from gaia_eval.stages.experiment.inputs import load_workload

    items = load_workload(gt).items
    return [sum(Shard(k, SHARDS).owns(i.content_fingerprint) for i in items) for k in range(1, SHARDS + 1)]


def calls_span(stats: dict) -> float:
    """First request in to last reply out, at the server."""
    return max(stats["replied"]) - min(stats["arrived"])


def throughput(work: Path, items: int, latency: float) -> dict[str, float]:
    work.mkdir(parents=True, exist_ok=True)
    env, log = children_env(work), work / "stderr.txt"
    gt = make_groundtruth(work / "gt", items)
    small_items = CONCURRENCY
    small = make_groundtruth(work / "gt-small", small_items)
    sizes = shard_sizes(gt)
    largest = max(range(SHARDS), key=lambda k: sizes[k]) + 1
    server = LatencyServer(latency)
    load_before = os.getloadavg()[0]
    try:
        config = work / "c.json"
        config.write_bytes(orjson.dumps({"experiments": [
            {"name": "bench", "provider": "vllm", "model": "m", "base_url": server.base_url}]}))
        run(experiment_args(config, small, work / "warm-up"), env, log)  # compiles the modules once
        server.stats()
        probe = run(experiment_args(config, small, work / "small"), env, log)
        probe_stats = server.stats()
        single = run(experiment_args(config, gt, work / "single"), env, log)
        single_stats = server.stats()
        started = [start(experiment_args(config, gt, work / "sharded", "--shard", f"{k}/{SHARDS}"), env,
                         work / f"stderr-{k}.txt") for k in range(1, SHARDS + 1)]
        shards = finish_all(started, [work / f"stderr-{k}.txt" for k in range(1, SHARDS + 1)])
        shards_wall = max(r.spawned + r.wall for r in shards) - min(r.spawned for r in shards)
        shards_stats = server.stats()
        consolidation = run(experiment_args(config, gt, work / "sharded"), env, log)
        consolidation_stats = server.stats()
        alone = run(experiment_args(config, gt, work / "alone", "--shard", f"{largest}/{SHARDS}"), env, log)
        alone_stats = server.stats()
    finally:
        server.stop()
    load_after = os.getloadavg()[0]
    same = comparable(work / "single" / "bench.experiment.json") == comparable(
        work / "sharded" / "bench.experiment.json")
    per_item = (single.cpu - probe.cpu) / (items - small_items)  # marginal: start-up is in both
    startup_cpu = probe.cpu - small_items * per_item
    first_request = min(probe_stats["arrived"]) - probe.spawned
    last_reply_to_exit = single.spawned + single.wall - max(single_stats["replied"])
    shards_cpu = sum(r.cpu for r in shards)
    ideal1, ideal4 = CONCURRENCY / latency, SHARDS * CONCURRENCY / latency
    with_consolidation = shards_wall + consolidation.wall

    def row(label: str, wall: float, count: int, ideal: float, cpu: float | str, server_cpu: float | str) -> None:
        rate = count / wall
        cpu_text = f"{cpu:.2f}" if isinstance(cpu, float) else cpu
        server_text = f"{server_cpu:.2f}" if isinstance(server_cpu, float) else server_cpu
        print(f"| {label} | {count} | {wall:.2f} | {rate:.1f} | {ideal:.0f} | {rate / ideal:.2f} | {cpu_text} | "
              f"{server_text} |")

    print(f"throughput: {items} qa items, server latency {latency * 1000:.0f} ms (tests/perf/latency_server.py, a "
          f"process of its own), concurrency {CONCURRENCY} per process; ideal = processes x {CONCURRENCY} / latency")
    print("| run | items | wall s | items/s | ideal items/s | achieved/ideal | our CPU s | server CPU s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    row("1 process, end to end", single.wall, items, ideal1, single.cpu, single_stats["cpu_s"])
    row("1 process, calls only", calls_span(single_stats), items, ideal1, "", "")
    row(f"{SHARDS} shards, end to end", shards_wall, items, ideal4, shards_cpu, shards_stats["cpu_s"])
    row(f"{SHARDS} shards, calls only", calls_span(shards_stats), items, ideal4, "", "")
    row(f"{SHARDS} shards + consolidation", with_consolidation, items, ideal4, shards_cpu + consolidation.cpu,
        shards_stats["cpu_s"] + consolidation_stats["cpu_s"])
    row(f"largest shard ({largest}/{SHARDS}) alone", alone.wall, sizes[largest - 1], ideal1, alone.cpu,
        alone_stats["cpu_s"])
    print(f"our CPU: {per_item * 1000:.2f} ms per item (marginal), start-up {startup_cpu:.2f} s per process (first "
          f"request {first_request:.2f} s after the process started; exit {last_reply_to_exit:.2f} s after the last "
          f"reply); server {single_stats['cpu_s'] / items * 1000:.2f} ms per request; consolidation "
          f"{consolidation.cpu:.2f} s CPU, {consolidation.wall:.2f} s wall, {consolidation_stats['requests']} calls")
    shards_first = min(shards_stats["arrived"]) - min(r.spawned for r in shards)
    shards_exit = max(r.spawned + r.wall for r in shards) - max(shards_stats["replied"])
    print(f"{SHARDS} shards started together: the first request {shards_first:.2f} s after, the last exit "
          f"{shards_exit:.2f} s after the last reply")
    print("each shard: " + ", ".join(f"{k}/{SHARDS} {sizes[k - 1]} items {r.wall:.2f} s wall {r.cpu:.2f} s CPU"
                                     for k, r in enumerate(shards, 1)))
    busy = (shards_cpu + shards_stats["cpu_s"]) / shards_wall
    print(f"CPU cores: {os.cpu_count()}, load average {load_before:.1f} before, {load_after:.1f} after (other "
          f"users); the shards and the server kept {busy:.2f} cores busy on average while the shards ran")
    rounds = math.ceil(items / CONCURRENCY) / math.ceil(max(sizes) / CONCURRENCY)
    machines = single.wall / (alone.wall + consolidation.wall)
    speedups = {"end to end": single.wall / shards_wall, "with consolidation": single.wall / with_consolidation,
                "calls only": calls_span(single_stats) / calls_span(shards_stats), "one machine per shard": machines}
    print(f"speed-up ({SHARDS} shards over 1 process; goal >= 3.6x): "
          + ", ".join(f"{k} {v:.2f}x" for k, v in speedups.items())
          + f"; at most {rounds:.2f}x at this item count with no start-up at all (shards of {sizes} items take "
          f"{math.ceil(max(sizes) / CONCURRENCY)} rounds of {CONCURRENCY} calls, one process "
          f"{math.ceil(items / CONCURRENCY)}); one machine per shard = 1 process / (largest shard alone + "
          f"consolidation); consolidation calls {consolidation_stats['requests']}; items equal to one process's: "
          f"{same}", flush=True)
    return speedups


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
