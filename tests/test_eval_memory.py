"""eval's memory stays bounded while it streams a large experiment: measured in child processes, never assumed.

Three children run `gaia-eval eval`: on a tiny experiment (the floor: interpreter, imports, scoring code), on a
large one as eval reads it (streamed), and on the same large one with the experiment read whole (what eval did
before it streamed). Each child reports its own peak resident set (VmHWM: the high-water mark of the process's
own address space; getrusage's ru_maxrss would also count the pytest worker's pages, inherited at fork). The
test asserts a ratio of what each run adds above the floor, never a time.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.peak_memory import cli_peak_kb

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="peak RSS is read from /proc (Linux only)"),
]

# The planted behaviour the streamed run is compared with: the experiment read whole.
_WHOLE = """
import gaia_eval.stages.eval.inputs as inputs
from gaia_eval.artifacts.experiment import Experiment
from gaia_eval.artifacts.store import read_artifact
inputs.read_experiment = lambda path: read_artifact(path, Experiment)
"""


def _make_experiment(work: Path, items: int) -> Path:
    """The benchmark's generator (tests/perf/bench_eval_memory.py): distinct copies of realistic summaries."""
    spec = importlib.util.spec_from_file_location("bench_eval_memory", ROOT / "tests" / "perf" / "bench_eval_memory.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench.make_experiment(work, items)


def _peak_kb(mode: str, experiment: Path, out: Path) -> int:
    return cli_peak_kb(["eval", "-d", str(experiment.parent), "-o", str(out)], out.with_suffix(".peak"),
                       prelude=_WHOLE if mode == "whole" else "", cwd=ROOT)


def test_eval_streams_a_large_experiment_in_a_fraction_of_the_memory_reading_it_whole_takes(tmp_path: Path) -> None:
    """Bug planted: eval's inputs read the experiment whole (`read_artifact(path, Experiment)` for
    `read_experiment(path)`): the streamed run then costs as much as the whole read and the ratio fails."""
    large = _make_experiment(tmp_path / "large", 1200)
    small = _make_experiment(tmp_path / "small", 6)
    assert large.stat().st_size > 10_000_000  # about 11 MB of JSON
    floor = _peak_kb("streamed", small, tmp_path / "ev-small")
    streamed = _peak_kb("streamed", large, tmp_path / "ev-streamed")
    whole = _peak_kb("whole", large, tmp_path / "ev-whole")
    assert (tmp_path / "ev-streamed" / "lead.experiment.eval.json").read_bytes()  # it did evaluate
    added_streamed, added_whole = max(streamed - floor, 0), whole - floor
    figures = f"floor {floor} kB, streamed {streamed} kB, whole {whole} kB"
    assert added_whole > 30_000, figures  # reading ~11 MB whole costs tens of MB: the comparison means something
    assert added_streamed < 0.6 * added_whole, figures  # measured: 17 MB against 39 MB (0.44) at 1,200 items
