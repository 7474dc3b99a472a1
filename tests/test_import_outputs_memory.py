"""import-outputs' memory does not grow with its rows: measured in child processes, never assumed.

Children run `gaia-eval import-outputs` (tests/peak_memory.py) on a small and a 7.5 times larger file of rows
(the benchmark's generator, tests/perf/bench_import_outputs.py), and once more on the large file with a planted
behaviour. Each child reports its own peak resident set (VmHWM; see tests/test_eval_memory.py for why not
ru_maxrss). The test asserts what the extra rows add to the peak, never a time.

What still grows, and why: 16 bytes a row, held as machine numbers in sorted runs (stages/imports/tally.py): a
64-bit digest of each (system, item) pair, to refuse one given twice before anything is written, and each row's
latency, for the exact p50/p95 of the totals, which the experiment's header holds before its items. 26,000 rows
more add about 0.4 MB of those; the sources, written in name order, are spooled to disk (artifacts/keyed_spool.py),
and the buffers (a 256 kB piece of the file, runs of 4,096 numbers and of 2,048 spooled keys) are full from about
10,000 rows on: a fixed amount, which is why 4,000 rows is the floor compared with.
Measured (bench_import_outputs.py, 3 systems, one source a row; above a 30-row import's 40 MB):
  before (the file's text read whole, a line number per pair, sources indexed in a dict):
    20,000 rows 12 MB, 100,000 rows 55 MB, 200,000 rows 118 MB (about 600 bytes a row)
  now: 20,000 rows 2.5 MB, 100,000 rows 3.5 MB, 200,000 rows 4 MB (the 16 bytes a row)
Here (4,000 against 30,000 rows, a 7 MB file): 1.3 MB more; planted, the file read whole: 15 MB more; a set of the
pairs: 9 MB more. The other inputs, by the same benchmark (20,000 / 200,000 rows, above the floor):
  .json array: before 34 / 298 MB, now 2 / 4 MB;  .csv: before 19 / 196 MB, now 3 / 4 MB
  -g (rows without sources, a 12 / 117 MB ground truth): before 56 / 550 MB, now 12 / 52 MB; what remains grows with
  the ground truth's documents (a byte span each, and the items' index while it is checked), not with the rows
  (tests/test_import_streaming.py checks the ground truth is never read whole).
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

SMALL, LARGE = 4_000, 30_000

# The planted behaviour: the file's text read whole before its lines are split (what import-outputs did before it
# read a line at a time). Other per-row state fails the same bound: a set of every (system, item) pair kept during
# the check (what it kept before its digests; planted by hand through `outputs.pair_digest`) added 9 MB here.
_WHOLE_FILE = """
import gaia_eval.artifacts.inputs as inputs
inputs.iter_input_text = lambda path, what="a text file", piece=0: iter([inputs.read_input_text(path, what)])
"""

def _bench():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("bench_import_outputs", ROOT / "tests/perf/bench_import_outputs.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


def _untimed(path: Path) -> list[bytes]:
    return [line for line in path.read_bytes().splitlines() if not line.lstrip().startswith((b'"started_at"',
                                                                                             b'"finished_at"'))]


def _peak_kb(rows: Path, out: Path, prelude: str = "") -> int:
    return cli_peak_kb(["import-outputs", str(rows), "-o", str(out)], out.parent / f"{out.name}.peak",
                       prelude=prelude, cwd=ROOT)


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    work = tmp_path_factory.mktemp("import_memory")
    bench = _bench()
    small, large = bench.write_rows(work / "small.jsonl", SMALL), bench.write_rows(work / "large.jsonl", LARGE)
    return {"work": work, "large": large, "small_kb": _peak_kb(small, work / "small"),
            "large_kb": _peak_kb(large, work / "large")}


def _growth(measured: dict[str, object], planted_kb: int | None = None) -> tuple[int, str]:
    small_kb, large_kb = int(measured["small_kb"]), int(measured["large_kb"])  # type: ignore[call-overload]
    peak = large_kb if planted_kb is None else planted_kb
    size = Path(measured["large"]).stat().st_size // 1024  # type: ignore[arg-type]
    return peak - small_kb, f"{SMALL:,} rows {small_kb} kB, {LARGE:,} rows {peak} kB ({size} kB file)"


def test_seven_times_the_rows_leave_import_outputs_peak_memory_flat(measured: dict[str, object]) -> None:
    """26,000 rows more (a 6 MB file more) may add their 16 bytes a row, 0.4 MB, and no more than 3 MB in all (the
    rest is buffers filling up to their fixed size); measured: 1.3 MB. Bug planted: the file read whole
    (`read_text()`): the peak grows by 15 MB."""
    growth, figures = _growth(measured)
    assert growth < 3_000, figures
    planted, planted_figures = _growth(measured, _peak_kb(
        Path(measured["large"]), Path(measured["work"]) / "whole", _WHOLE_FILE))  # type: ignore[arg-type]
    assert planted > 8_000, planted_figures  # the comparison means something: holding the file is seen
    for system in ("alpha", "beta", "gamma"):  # the same bytes either way, but the time of the run
        name = f"{system}.experiment.json"
        work = Path(measured["work"])  # type: ignore[arg-type]
        assert _untimed(work / "large" / name) == _untimed(work / "whole" / name)

