"""Benchmark: batch-experiment --batch against the fake batch APIs (run by hand, not by pytest).

    .venv/bin/python tests/perf/bench_batch_mode.py [--items 2000] [--batch-size 500] [--provider openai|anthropic|both]

For each provider: runs batch-experiment --batch over N qa items in a subprocess while the fake server holds the
batches in progress, and prints the requests per batch and the submission time (process start until every
request is in a batch whose id is journaled). Then it kills that process with SIGKILL, releases the batches,
runs the same command again and prints the re-attach time (the whole second run: start, journal read, status
checks, results download, artifacts written) and how many requests the second run submitted (must be 0).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "perf"))

from bench_batch_experiment import make_groundtruth  # noqa: E402

from tests.fakebatch import FakeBatchServer  # noqa: E402

MODELS = {"openai": "gpt-4o-mini", "anthropic": "claude-haiku-4-5"}


def _created_lines(journal: Path) -> int:
    return journal.read_bytes().count(b'"event":"created"') if journal.exists() else 0


def bench(provider: str, items: int, batch_size: int, folder: Path) -> dict[str, float | int | str]:
    server = FakeBatchServer().start()
    try:
        gt = make_groundtruth(folder / "gt", items)
        url = server.openai_base_url if provider == "openai" else server.anthropic_base_url
        config = folder / "config.json"
        config.write_bytes(orjson.dumps({"experiments": [
            {"name": "m", "provider": provider, "model": MODELS[provider], "base_url": url}]}))
        out = folder / "exp"
        args = [sys.executable, "-m", "gaia_eval", "batch-experiment", "-c", str(config), "-i", str(gt), "-o",
                str(out), "--quiet", "--no-cache", "--batch", "--batch-size", str(batch_size)]
        env = {**os.environ, "GAIA_EVAL_BATCH_POLL_S": "0.05", "GAIA_EVAL_BATCH_GATHER_S": "0.2",
               "OPENAI_API_KEY": "sk-bench", "ANTHROPIC_API_KEY": "sk-bench", "GAIA_EVAL_NO_CACHE": "1"}
        expected_batches = -(-items // batch_size)
        server.hold_batches = True
        started = time.perf_counter()
        first = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        journal = out / "m.batches.jsonl"
        while _created_lines(journal) < expected_batches or sum(server.submissions.values()) < items:
            if first.poll() is not None:
                raise SystemExit(f"the first run ended early: {first.stderr.read().decode()[-2000:]}")
            time.sleep(0.005)
        submission_s = time.perf_counter() - started
        first.send_signal(signal.SIGKILL)
        first.wait()
        assert first.returncode == -signal.SIGKILL
        sizes = [len(b["requests"]) for b in server.batches.values()]
        submitted = sum(server.submissions.values())

        server.release()
        started = time.perf_counter()
        second = subprocess.run(args, cwd=ROOT, env=env, capture_output=True)
        reattach_s = time.perf_counter() - started
        if second.returncode != 0:
            raise SystemExit(f"the re-attached run failed: {second.stdout.decode()[-2000:]}")
        return {
            "provider": provider, "items": items, "batches": len(sizes),
            "requests_per_batch": f"{min(sizes)}-{max(sizes)}" if len(set(sizes)) > 1 else str(sizes[0]),
            "submission_s": round(submission_s, 2), "reattach_s": round(reattach_s, 2),
            "resubmitted": sum(server.submissions.values()) - submitted,
            "max_submissions_per_request": max(server.submissions.values()),
        }
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=2000)
    parser.add_argument("--batch-size", type=int, default=500)
    parser.add_argument("--provider", choices=["openai", "anthropic", "both"], default="both")
    opts = parser.parse_args()
    providers = ["openai", "anthropic"] if opts.provider == "both" else [opts.provider]
    for provider in providers:
        with tempfile.TemporaryDirectory() as tmp:
            r = bench(provider, opts.items, opts.batch_size, Path(tmp))
        print(f"{r['provider']}: {r['items']} items in {r['batches']} batches of {r['requests_per_batch']} requests; "
              f"submission {r['submission_s']} s (start to every batch id journaled); "
              f"kill -9, then re-attach run {r['reattach_s']} s; requests resubmitted after the kill: "
              f"{r['resubmitted']} (max submissions of one request: {r['max_submissions_per_request']})")


if __name__ == "__main__":
    main()
