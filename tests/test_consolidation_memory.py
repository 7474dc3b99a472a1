"""The consolidation of a sharded run (the same command without --shard once the shards have finished) streams
the shards' parts: measured in child processes, never assumed.

For batch-experiment and eval, 4 shards run in this process on a small and a large input, then each
consolidation runs as a child that reports its own peak resident set (tests/peak_memory.py), and the large one
once more with a planted prelude that loads every part whole (what consolidation did before it streamed: every
line kept, as a model or as bytes). The test asserts ratios of what each run adds above the small run, never a
time; the large input is sized so that the parts are several times the noise of a peak RSS.
"""

from __future__ import annotations

import shutil
import tracemalloc
from pathlib import Path

import orjson
import pytest

from gaia_eval.artifacts.shards import Shard
from gaia_eval.stages.eval.parts import scored_earlier
from gaia_eval.stages.eval.run import run_eval
from gaia_eval.stages.experiment.run import run_batch_experiment
from tests.peak_memory import cli_peak_kb
from tests.perf.bench_batch_experiment import make_groundtruth

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="peak RSS is read from /proc (Linux only)"),
]

# The planted behaviour: the old consolidation, which loaded every part line and kept it (an experiment's as its
# record: here its parsed JSON).
_WHOLE = """
import orjson
from gaia_eval.artifacts.shards import LineIndex
_add = LineIndex.add
def _add_whole(self, path, key, flags=None):
    _add(self, path, key, flags)
    self.whole = {k: orjson.loads(self.get(k)) for k in self.list_keys()}
LineIndex.add = _add_whole
"""

_CONFIG = '{"experiments": [{"name": "lead", "provider": "baseline", "model": "lead"}]}'


def _experiment_shards(work: Path, items: int) -> None:
    """qa ground truth of `items` items and 4 batch-experiment shards over it (the lead baseline)."""
    gt = make_groundtruth(work / "gt", items)
    (work / "lead.json").write_text(_CONFIG)
    for k in range(1, 5):
        run_batch_experiment(work / "lead.json", gt, work / "exp", show_progress=False, shard=Shard(k, 4))


def _consolidation_kb(work: Path, *, whole: bool = False) -> int:
    exp = work / "exp"
    args = ["batch-experiment", "-c", str(work / "lead.json"), "-i", str(work / "gt"), "-o", str(exp), "--quiet"]
    peak = cli_peak_kb(args, work / "exp.peak", prelude=_WHOLE if whole else "", cwd=ROOT)
    assert (exp / "lead.experiment.json").exists() and not list(exp.glob("*.part.jsonl"))  # it did consolidate
    return peak


def test_the_batch_experiment_consolidation_grows_a_fraction_of_what_loading_the_parts_whole_does(
        tmp_path: Path) -> None:
    """Bug planted: the consolidation keeps every part line (through LineIndex, as the old one kept each as an
    ItemResult): its growth from 400 to 6,000 items is then the whole-load run's, and the ratio fails. The ratio
    leaves room for what the run holds besides the parts (the ground truth it reads whole: the same in a run
    without shards). The run after it, finding the file up to date, and one given a new price, which takes every
    item from the file, stay as flat (a freshness check or a reuse that reads the 6,000 items whole fails it)."""
    _experiment_shards(tmp_path / "small", 400)
    _experiment_shards(tmp_path / "large", 6000)
    shutil.copytree(tmp_path / "large", tmp_path / "whole")
    floor, streamed = _consolidation_kb(tmp_path / "small"), _consolidation_kb(tmp_path / "large")
    whole = _consolidation_kb(tmp_path / "whole", whole=True)
    # once consolidated, the same command finds the file up to date: it reads its header, not its items
    current = _consolidation_kb(tmp_path / "large")
    # a price given in the config makes the file stale but not its answers: every item is taken from the file,
    # streamed (and written again with the new cost)
    (tmp_path / "large" / "lead.json").write_text(_CONFIG.replace(
        '"lead"}', '"lead", "price": {"input_per_mtok": 1.0, "output_per_mtok": 2.0}}'))
    repriced = _consolidation_kb(tmp_path / "large")
    assert b'"cost_usd": null' not in (tmp_path / "large" / "exp" / "lead.experiment.json").read_bytes()[:4000]
    figures = (f"400 items {floor} kB, 6000 items {streamed} kB, 6000 items loading the parts whole {whole} kB, "
               f"6000 items up to date {current} kB, repriced {repriced} kB")
    added_streamed, added_whole = max(streamed - floor, 0), whole - floor
    assert added_whole > 30_000, figures  # the parts loaded whole cost tens of MB: the comparison means something
    assert added_streamed < 0.75 * added_whole, figures  # measured: 15 to 22 MB against 45 MB (0.34 to 0.50)
    # measured: about as much as the consolidation; 64 MB when its freshness was judged by reading it whole
    assert max(current - floor, 0) < 0.75 * added_whole, figures
    assert max(repriced - floor, 0) < 0.75 * added_whole, figures  # measured: 23 MB; 64 MB with the file read whole


def _index_bytes(work: Path, items: int) -> tuple[int, int]:
    """(bytes the eval consolidation's index of 4 shards' parts holds, bytes of the parts) at `items` qa items:
    the index measured by tracemalloc (exact: every allocation it keeps, none of the process's others)."""
    _experiment_shards(work, items)
    run_batch_experiment(work / "lead.json", work / "gt", work / "exp", show_progress=False)
    for k in range(1, 5):
        run_eval(experiment_dir=work / "exp", output_dir=work / "ev", show_progress=False, shard=Shard(k, 4))
    parts = sorted((work / "ev").glob("*.part.jsonl"))
    inputs_fp = orjson.loads(parts[0].read_bytes().splitlines()[0])["inputs"]
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        index = scored_earlier(work / "ev" / "lead.experiment.eval.json", inputs_fp)
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(index) == items and index.get(index.list_keys()[0])  # every item found, and its line read back
    index.close()
    return held, sum(p.stat().st_size for p in parts)


def test_the_eval_consolidation_holds_where_each_scored_line_is_not_the_line(tmp_path: Path) -> None:
    """Bug planted: `scored_earlier` keeps every line's bytes (what it did before): the index then grows by more
    than a part line per item and the bound fails."""
    small_held, _ = _index_bytes(tmp_path / "small", 200)
    large_held, large_parts = _index_bytes(tmp_path / "large", 1400)
    per_item = (large_held - small_held) / 1200
    line = large_parts / 1400
    assert line > 300, line  # the lines are worth not holding
    assert per_item < 0.5 * line, f"{per_item:.0f} bytes per item held, part lines of {line:.0f} bytes"
