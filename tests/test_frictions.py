"""Frictions a new user meets (issue 21): a missing key reported before any SDK loads, a report with nothing
new that draws nothing, help with an example, and the reason of a failed run printed where it is seen."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gaia_eval.stages.quickstart import run_quickstart

HEAVY = ("anthropic", "openai", "matplotlib", "scipy", "numpy", "rouge_score")


def run_cli_in_subprocess(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[int, str, set[str]]:
    """Run the CLI in a fresh interpreter; its exit code, stderr and which heavy modules it imported."""
    code = (
        "import sys\nfrom gaia_eval.cli import main\n"
        f"sys.argv = ['gaia-eval', *{args!r}]\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    code = exc.code\nelse:\n    code = 0\n"
        f"print('MODULES', ' '.join(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)\n"
        "sys.exit(code)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={**os.environ, **(env or {})})
    modules_line = [line for line in done.stderr.splitlines() if line.startswith("MODULES")][-1]
    return done.returncode, done.stderr, set(modules_line.split()[1:])


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("frictions") / "qs"
    run_quickstart(out, echo=lambda _line: None)
    return out


def test_a_missing_judge_key_fails_before_the_sdk_is_imported_or_anything_scored(workspace: Path, tmp_path: Path):
    env = {k: v for k, v in os.environ.items() if k != "ANTHROPIC_API_KEY"}
    out = tmp_path / "judged"
    code = (
        "import sys\nfrom gaia_eval.cli import main\n"
        f"sys.argv = ['gaia-eval', 'eval', '-d', {str(workspace / 'experiments' / 'summarization')!r}, '-o', {str(out)!r},"
        " '--judge', 'anthropic:claude-sonnet-4-5']\n"
        "import gaia_eval.stages.eval as stage\n"
        "scored = []\noriginal = stage._score_items\n"
        "stage._score_items = lambda *a, **k: scored.append(1) or original(*a, **k)\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    print('EXIT', exc.code, 'anthropic' in sys.modules, len(scored))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env)
    assert "ANTHROPIC_API_KEY is not set" in done.stderr and "Traceback" not in done.stderr
    assert done.stdout.split() == ["EXIT", "2", "False", "0"]  # no SDK import, no item scored
    assert not out.exists()


def test_a_report_with_nothing_new_draws_nothing_and_imports_no_plotting(workspace: Path):
    report = workspace / "reports" / "report.md"
    charts = sorted((workspace / "reports" / "report_charts").glob("*.svg"))
    assert charts
    before = {p: p.stat().st_mtime_ns for p in charts}
    code, err, modules = run_cli_in_subprocess(["report", "-d", "evaluation", "-o", "reports/report.md"], workspace)
    assert code == 0, err
    assert not modules & {"matplotlib", "numpy", "scipy", "rouge_score"}, modules
    assert {p: p.stat().st_mtime_ns for p in charts} == before
    # A changed evaluation redraws the charts of its section (the comment records what each was drawn from).
    grade = workspace / "reports" / "report_charts" / "summarization-grade.svg"
    grade.write_bytes(grade.read_bytes().replace(b"chart inputs: sha256:", b"chart inputs: stale", 1))
    code, err, modules = run_cli_in_subprocess(["report", "-d", "evaluation", "-o", "reports/report.md"], workspace)
    assert code == 0 and "matplotlib" in modules
    assert b"chart inputs: stale" not in grade.read_bytes()
    assert report.exists()


def test_a_quickstart_run_again_imports_no_heavy_library(workspace: Path):
    code, err, modules = run_cli_in_subprocess(["quickstart", "-o", "."], workspace)
    assert code == 0, err
    assert not modules, modules
