"""import-outputs' memory stays bounded by the file, not by its rows: measured in child processes, never assumed.

Three children run `gaia-eval import-outputs`: on a 30-row file (the floor: interpreter, imports), on a large
file as import-outputs reads it (rows made one at a time, twice), and on the same file with its rows held in a
list (what import-outputs did before it streamed). Each child reports its own peak resident set (VmHWM; see
tests/test_eval_memory.py for why not ru_maxrss). The test asserts a ratio of what each run adds above the floor,
never a time.
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

# The planted behaviour the streamed run is compared with: every row held with its item result and source for the
# whole run (as import-outputs did before it streamed).
_HELD = """
import gaia_eval.stages.imports.outputs as outputs
check = outputs._RowReader.check
def holding_check(self):
    self.held = [(row, self._result(row)) for row in outputs.iter_rows(self.file)]
    return check(self)
outputs._RowReader.check = holding_check
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


def _peak_kb(mode: str, rows: Path, out: Path) -> int:
    return cli_peak_kb(["import-outputs", str(rows), "-o", str(out)], out.parent / f"{out.name}.peak",
                       prelude=_HELD if mode == "held" else "", cwd=ROOT)


def test_import_outputs_makes_rows_one_at_a_time_in_a_fraction_of_the_memory_holding_them_takes(
    tmp_path: Path,
) -> None:
    """Bug planted: the rows kept with their item results and sources (a list built in `check`, as
    `_systems_of` did before): the streamed run then costs as much as the held one and the ratio fails."""
    bench = _bench()
    large = bench.write_rows(tmp_path / "large.jsonl", 15_000)
    floor = _peak_kb("streamed", bench.write_rows(tmp_path / "small.jsonl", 30), tmp_path / "small")
    streamed = _peak_kb("streamed", large, tmp_path / "streamed")
    held = _peak_kb("held", large, tmp_path / "held")
    for system in ("alpha", "beta", "gamma"):  # the same bytes either way, but the time of the run
        name = f"{system}.experiment.json"
        assert _untimed(tmp_path / "streamed" / name) == _untimed(tmp_path / "held" / name)
    added_streamed, added_held = max(streamed - floor, 0), held - floor
    figures = f"floor {floor} kB, streamed {streamed} kB, held {held} kB ({large.stat().st_size // 1024} kB file)"
    assert added_held > 60_000, figures  # holding 15,000 rows costs about 8 kB a row: the comparison means something
    assert added_streamed < 0.3 * added_held, figures  # measured: 10 MB against 92 MB (0.11) at 15,000 rows
