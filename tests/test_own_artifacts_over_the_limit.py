"""The input size limit (--max-input-mb, 100 MB by default) is a guard on what a user hands us and on files a
command reads whole; it never makes a stage refuse an artifact it wrote itself because it is big. A 100,000-item
experiment file is ~110 MB: here a 0.05 MB limit stands for the default, over a sharded pipeline whose experiment
and evaluation files exceed it (each read by the streaming scan, which holds a chunk
whatever the size). The report, which reads its evaluations whole, refuses with the line that says so and how
to raise the limit (exit 2), and writes the whole report once the limit is raised."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from gaia_eval.artifacts.inputs import set_max_input_mb
from gaia_eval.cli import cli
from tests.perf.bench_batch_experiment import make_groundtruth

LIMIT = ("--max-input-mb", "0.05")  # over the ground truth (read whole by batch-experiment), under the rest
_CONFIG = '{"experiments": [{"name": "lead", "provider": "baseline", "model": "lead"}]}'


@pytest.fixture(autouse=True)
def _limit_reset():
    yield
    set_max_input_mb(None)  # the flag is the command's: the CLI invoked in-process leaves it set for the next test


def _run(*args: str):
    result = CliRunner().invoke(cli, [*LIMIT, *args])
    assert "Traceback" not in result.output
    return result


def test_a_sharded_run_reads_its_own_artifacts_past_the_input_limit(tmp_path: Path) -> None:
    gt = make_groundtruth(tmp_path / "gt", 150)
    (tmp_path / "lead.json").write_text(_CONFIG)
    exp, ev = tmp_path / "exp", tmp_path / "ev"
    batch = ("batch-experiment", "-c", str(tmp_path / "lead.json"), "-i", str(gt), "-o", str(exp), "--quiet")
    evaluate = ("eval", "-f", str(exp / "lead.experiment.json"), "-g", str(gt), "-o", str(ev))
    for shard in ("1/2", "2/2"):
        assert _run(*batch, "--shard", shard).exit_code == 0
    made = _run(*batch)  # the consolidation: reads the parts, writes the file one process writes
    assert made.exit_code == 0 and "failed 0" in made.output and "made 1" in made.output, made.output
    assert (exp / "lead.experiment.json").stat().st_size > 0.05e6 > gt.stat().st_size
    again = _run(*batch)  # its own file is up to date: not called stale (which redoes it, paying again)
    assert again.exit_code == 0 and "skipped 1 (up to date)" in again.output, again.output
    for shard in ("1/2", "2/2"):
        assert _run(*evaluate, "--shard", shard).exit_code == 0
    scored = _run(*evaluate)
    assert scored.exit_code == 0 and "made 1" in scored.output and "failed 0" in scored.output, scored.output
    assert (ev / "lead.experiment.eval.json").stat().st_size > 0.05e6
    assert "skipped 1 (up to date)" in _run(*evaluate).output

    report = tmp_path / "rep" / "report.md"
    refused = _run("report", "-d", str(ev), "-o", str(report))
    assert refused.exit_code == 2 and len(refused.stderr.strip().splitlines()) == 1, refused.output
    assert "lead.experiment.eval.json" in refused.stderr and "reads whole" in refused.stderr
    assert "--max-input-mb" in refused.stderr and not report.exists()
    written = CliRunner().invoke(cli, ["--max-input-mb", "1", "report", "-d", str(ev), "-o", str(report)])
    assert written.exit_code == 0, written.output
    assert "| lead" in report.read_text() and "150" in report.read_text()
