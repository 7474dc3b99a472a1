"""Benchmark: the viewer at N evaluation files (run by hand, not by pytest).

    .venv/bin/python tests/perf/bench_viewer.py [--evals 1000] [--warm 5] [--charts] [--browser] [--keep DIR]

Makes a realistic workspace the short way: the offline quickstart writes six evaluations (three use cases, two
models each) with their experiments, and each is copied with the package's own writers (read_artifact +
write_artifact) under a new experiment name and model, its grade moved a little, until there are N evaluation
files and N experiments. Then starts `gaia-eval visualize` as a subprocess and times requests to it over HTTP:
the first /api/dashboard (every file read and indexed), warm ones (nothing changed), one after a single file was
rewritten, the grade intervals (asked for after the tables), the item page and the item x system matrix of one
use case (first and warm), and with --charts the charts of one use case. Prints each time and the server's RSS
(current and peak, from /proc), then the ratios against the bars: the tables' first load (a fresh server) under
1 s at any size (it took 7.7 s at 1,000 files while the intervals were worked out with them; 44-62 s per request
before the index), warm requests well under it. With --browser, a fresh server's dashboard is also opened in
headless chromium and the time until its tables are painted is measured the same way.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from gaia_eval.artifacts.evaluation import Evaluation  # noqa: E402
from gaia_eval.artifacts.experiment import Experiment  # noqa: E402
from gaia_eval.artifacts.store import read_artifact, write_artifact  # noqa: E402
from gaia_eval.stages.quickstart import run_quickstart  # noqa: E402


def make_workspace(work: Path, evals: int) -> tuple[int, int]:
    """N evaluation files and their experiments under work/; returns (files, bytes) of the evaluations."""
    run_quickstart(work, echo=lambda _: None)
    seeds = []
    for path in sorted((work / "evaluation").rglob("*.experiment.eval.json")):
        ev = read_artifact(path, Evaluation)
        exp_path = (
            work
            / "experiments"
            / path.relative_to(work / "evaluation").with_name(path.name.replace(".eval.json", ".json"))
        )
        seeds.append((ev, read_artifact(exp_path, Experiment)))
        path.unlink()
        exp_path.unlink()
    rng = random.Random(7)
    total = 0
    for n in range(evals):
        ev, exp = seeds[n % len(seeds)]
        name, model = f"{ev.experiment_name}-{n:04d}", f"{ev.model}-{n:04d}"
        grade = ev.grade.model_copy(
            update={"quality_score": max(0.0, min(100.0, ev.grade.quality_score + rng.uniform(-10, 10)))}
        )
        out = work / "evaluation" / ev.use_case / f"{name}.experiment.eval.json"
        write_artifact(out, ev.model_copy(update={"experiment_name": name, "model": model, "grade": grade}))
        total += out.stat().st_size
        spec = exp.spec.model_copy(update={"name": name, "model": model})
        write_artifact(work / "experiments" / ev.use_case / f"{name}.experiment.json",
                       exp.model_copy(update={"experiment_name": name, "spec": spec}))
    return evals, total


def rss_mb(pid: int) -> tuple[float, float]:
    status = Path(f"/proc/{pid}/status").read_text()
    field = {k: int(v.split()[0]) for k, v in re.findall(r"^(VmRSS|VmHWM):\s+(.+)$", status, re.M)}
    return field["VmRSS"] / 1024, field["VmHWM"] / 1024


def timed_get(url: str) -> tuple[float, int]:
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=3600) as response:
        body = response.read()
    return time.perf_counter() - start, len(body)


def start_viewer(work: Path) -> tuple[subprocess.Popen, str]:
    """`gaia-eval visualize` on the workspace in its own process, and its URL."""
    server = subprocess.Popen([sys.executable, "-m", "gaia_eval", "visualize", "--workspace", str(work), "--port", "0",
                               "--no-browser"], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    line = server.stdout.readline()
    return server, re.search(r"(http://\S+?)/? ", line).group(1)


def browser_first_paint(work: Path) -> float:
    """A fresh viewer (its own process, nothing indexed) and its dashboard in headless chromium: seconds from
    navigation until the tables are painted."""
    from tests.browser_support import CHROMIUM, FLAGS, sync_playwright

    if CHROMIUM is None or sync_playwright is None:
        raise SystemExit("--browser needs Debian's chromium and playwright")
    server, base = start_viewer(work)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
            page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            page.set_default_timeout(600_000)
            start = time.perf_counter()
            page.goto(base + "/", wait_until="commit")
            page.wait_for_selector("table.dash tbody tr")
            page.evaluate("new Promise(r => requestAnimationFrame(() => r()))")  # painted
            took = time.perf_counter() - start
            browser.close()
        return took
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--evals", type=int, default=1000)
    parser.add_argument("--warm", type=int, default=5, help="warm requests timed per page")
    parser.add_argument("--charts", action="store_true", help="also time the charts of one use case (slow: drawn once)")
    parser.add_argument("--browser", action="store_true", help="also time the tables' first paint in chromium")
    parser.add_argument("--keep", type=Path, default=None, help="write the workspace here and keep it")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="bench-viewer-"))
    started = time.perf_counter()
    files, size = make_workspace(work, args.evals)
    print(
        f"workspace: {files} evaluation files, {size / 1e6:.1f} MB, made in {time.perf_counter() - started:.0f} s "
        f"({work})"
    )
    server, base = start_viewer(work)
    try:
        print(f"viewer: {base} (pid {server.pid}), RSS at start {rss_mb(server.pid)[0]:.0f} MB")

        def page(label: str, path: str, warm: int) -> tuple[float, float | None]:
            first, nbytes = timed_get(base + path)
            times = sorted(timed_get(base + path)[0] for _ in range(warm))
            now, peak = rss_mb(server.pid)
            warm_text = (f"warm median {times[len(times) // 2]:6.3f} s  max {max(times):6.3f} s" if times
                         else f"{'(no warm request)':<34}")
            print(
                f"{label:<34} first {first:8.3f} s   {warm_text}   ({nbytes / 1e3:.0f} KB)   RSS {now:.0f} MB, peak "
                f"{peak:.0f} MB"
            )
            return first, (times[len(times) // 2] if times else None)

        tables, tables_warm = page("/api/dashboard (the tables)", "/api/dashboard", args.warm)
        one = next((work / "evaluation" / "qa").glob("*.experiment.eval.json"))
        ev = read_artifact(one, Evaluation)
        write_artifact(one, ev.model_copy(update={"grade": ev.grade.model_copy(update={"quality_score": 99.9})}))
        page("/api/dashboard, 1 changed", "/api/dashboard", 0)
        intervals, _ = page("/api/intervals?use_case=qa", "/api/intervals?use_case=qa", args.warm)
        page("/api/item?use_case=qa", "/api/item?use_case=qa", args.warm)
        matrix, matrix_warm = page("/api/matrix?use_case=qa", "/api/matrix?use_case=qa", args.warm)
        filtered = "/api/matrix?use_case=qa&filter=disagree&sort=spread&q=the"
        page("/api/matrix?…&filter=disagree&sort=spread&q=the", filtered, args.warm)
        page("/api/live", "/api/live", args.warm)
        if args.charts:
            page("/api/charts?use_case=email", "/api/charts?use_case=email", args.warm)
        target = 1.0
        print(f"ratio tables' first load / 1 s target: {tables / target:.2f}"
              + (f"; warm / target: {tables_warm / target:.3f}" if tables_warm is not None else ""))
        print(f"ratio qa intervals (after the tables) / tables' first load: {intervals / tables:.1f}")
        print(f"ratio matrix first page / 1 s target: {matrix / target:.2f}"
              + (f"; warm / target: {matrix_warm / target:.3f}" if matrix_warm is not None else ""))
    finally:
        server.terminate()
        server.wait(timeout=30)
    try:
        if args.browser:
            paint = browser_first_paint(work)
            print(f"browser: a fresh viewer's tables painted {paint:.3f} s after navigation; ratio / 1 s target: "
                  f"{paint / 1.0:.2f}")
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    print(f"machine: {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
