"""Benchmark: peak memory of the consolidation step of sharded runs (run by hand, not by pytest).

    .venv/bin/python tests/perf/bench_consolidation.py [--items 10000] [--qa-items 100000] [--keep DIR]

For groundtruth with a model (the local fake OpenAI-compatible server), batch-experiment (the lead baseline) and
eval over `--items` meeting transcripts of about 5 kB (tests/perf/bench_shards.py makes them): 4 shard processes
(`--shard K/4`) run first, then the consolidation (the same command without --shard) runs as a child process
whose own peak RSS (VmHWM, tests/peak_memory.py: not the high-water mark a child forked from this process
inherits, which here holds the fake server's log of every request) and wall time are printed. Each
consolidation pays nothing: it merges the shards' parts into the files one process writes. The issue's goal:
<= 300 MB whatever the size. `--qa-items N`: batch-experiment and eval only, on N short qa items
(tests/perf/bench_batch_experiment.py makes them: 10 questions per small document), to reach 100,000 items
in minutes. `--judge-items N`: eval --judge (2 samples, on the fake server) over N qa items.

Measured (2 shared cores, peak RSS MB before -> after the consolidation streamed its parts): 10,000 meetings:
groundtruth 116 -> 70, batch-experiment 269 -> 175 (of which 161 is its input, the ground truth, loaded as any
run loads it), eval 83 -> 74; 100,000 qa items: batch-experiment 1068 -> 280 (input: 243), eval 185 -> 123.
eval --judge at 10,000 qa items x 2 samples: 533 -> 302 (the judge parts indexed, not loaded; the evaluation
written an item at a time).
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

from tests.fakeserver import FakeLLMServer  # noqa: E402
from tests.peak_memory import cli_peak_kb  # noqa: E402
from tests.perf.bench_shards import SHARDS, cli  # noqa: E402


def shards_then_consolidation(label: str, args: list[str], work: Path) -> float:
    """Run the 4 shards of `args` one after the other (memory is measured, not speed), then measure the
    consolidation."""
    for k in range(1, SHARDS + 1):
        subprocess.run(cli(*args, "--shard", f"{k}/{SHARDS}"), check=True, stdout=subprocess.DEVNULL)
    start = time.perf_counter()
    peak = cli_peak_kb(args, work / "peak.kb", cwd=ROOT) / 1024
    print(f"| {label} consolidation of {SHARDS} shards | {peak:.0f} | {time.perf_counter() - start:.1f} |",
          flush=True)
    return peak


def short_items(work: Path, items: int) -> None:
    # No GAIA_EVAL_MAX_INPUT_MB: the 100,000-item experiment file (~110 MB, over the 100 MB default) is streamed by
    # every stage that reads it; only a file read whole is bounded (the ground truth here: ~30 MB).
    subprocess.run([sys.executable, "-c", "import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]);"
                    "from tests.perf.bench_batch_experiment import make_groundtruth;"
                    "make_groundtruth(Path(sys.argv[2]), int(sys.argv[3]))", str(ROOT), str(work / "gt"), str(items)],
                   check=True)
    config = work / "lead.json"
    config.write_text('{"experiments": [{"name": "lead", "provider": "baseline", "model": "lead"}]}')
    print(f"consolidation memory: {items} qa items (10 questions per small document); peak RSS of the command "
          "without --shard after its 4 shards, as a child process")
    print("| stage | peak RSS MB | wall s |")
    print("|---|---:|---:|")
    shards_then_consolidation("batch-experiment (lead)", [
        "batch-experiment", "-c", str(config), "-i", str(work / "gt"), "-o", str(work / "exp"), "--quiet"], work)
    shards_then_consolidation("eval", ["eval", "-d", str(work / "exp"), "-o", str(work / "ev")], work)


def judged_items(work: Path, items: int) -> None:
    """eval --judge's consolidation over `items` qa items: the lead baseline answers, 4 judge shards call the
    fake server (2 samples per item), the command without --shard reuses every sample (0 calls)."""
    from tests.test_judge import judge_responder

    server = FakeLLMServer().start()
    server.responder = judge_responder
    try:
        subprocess.run([sys.executable, "-c", "import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]);"
                        "from tests.perf.bench_batch_experiment import make_groundtruth;"
                        "make_groundtruth(Path(sys.argv[2]), int(sys.argv[3]))", str(ROOT), str(work / "gt"),
                        str(items)], check=True)
        os.environ.update({"OPENAI_API_KEY": "sk-bench", "GAIA_EVAL_NO_CACHE": "1"})  # for the children
        config = work / "lead.json"
        config.write_text('{"experiments": [{"name": "lead", "provider": "baseline", "model": "lead"}]}')
        subprocess.run(cli("batch-experiment", "-c", str(config), "-i", str(work / "gt"), "-o", str(work / "exp"),
                           "--quiet"), check=True, stdout=subprocess.DEVNULL)
        print(f"consolidation memory: eval --judge over {items} qa items, 2 judge samples each; peak RSS of the "
              "command without --shard after its 4 shards, as a child process")
        print("| stage | peak RSS MB | wall s |")
        print("|---|---:|---:|")
        shards_then_consolidation("eval --judge", [
            "eval", "-d", str(work / "exp"), "-o", str(work / "ev"), "--judge", "openai:gpt-4o-mini",
            "--judge-base-url", server.openai_base_url, "--judge-samples", "2", "--judge-concurrency", "32"], work)
    finally:
        server.stop()


def main() -> None:
    from tests.test_groundtruth_llm import SUMMARIES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--qa-items", type=int, help="instead: batch-experiment and eval on this many qa items")
    parser.add_argument("--keep", type=Path, help="work in this folder and keep it (default: a temp folder)")
    parser.add_argument("--judge-items", type=int, help="instead: eval --judge on this many qa items")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="gaia-eval-consolidation-"))
    if args.qa_items or args.judge_items:
        try:
            if args.judge_items:
                judged_items(work, args.judge_items)
            else:
                short_items(work, args.qa_items)
        finally:
            if args.keep is None:
                shutil.rmtree(work, ignore_errors=True)
        return
    server = FakeLLMServer().start()
    server.responder = lambda req: {"json": SUMMARIES}
    try:
        # Made by a child: a child forked from a parent holding the data would count its pages (see measure).
        subprocess.run([sys.executable, "-c", "import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]);"
                        "from tests.perf.bench_shards import make_meetings; make_meetings(Path(sys.argv[2]), "
                        "int(sys.argv[3]))", str(ROOT), str(work / "docs"), str(args.items)], check=True)
        os.environ.update({"OPENAI_API_KEY": "sk-bench", "GAIA_EVAL_NO_CACHE": "1"})  # for the children
        config = work / "lead.json"
        config.write_text('{"experiments": [{"name": "lead", "provider": "baseline", "model": "lead"}]}')
        size = sum(p.stat().st_size for p in (work / "docs").iterdir()) / args.items / 1000
        print(f"consolidation memory: {args.items} meeting transcripts of {size:.1f} kB on average; peak RSS of the "
              "command without --shard after its 4 shards, as a child process")
        print("| stage | peak RSS MB | wall s |")
        print("|---|---:|---:|")
        shards_then_consolidation("groundtruth --provider vllm", [
            "groundtruth", "-d", str(work / "docs"), "-o", str(work / "gt"), "--provider", "vllm", "--model", "m",
            "--base-url", server.openai_base_url, "--concurrency", "32", "--quiet"], work)
        shards_then_consolidation("batch-experiment (lead)", [
            "batch-experiment", "-c", str(config), "-i", str(work / "gt"), "-o", str(work / "exp"), "--quiet"], work)
        shards_then_consolidation("eval", ["eval", "-d", str(work / "exp"), "-o", str(work / "ev")], work)
    finally:
        server.stop()
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
