"""The linters CI runs: ruff (rules and line length in pyproject.toml) and mypy over gaia_eval, zero findings.

They run inside the test suite so that the README's one test command (and .ci/run, which runs exactly it) checks
them too. Both are pinned in the `test` extra, so a new release cannot turn a clean tree red."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=900)


def test_ruff_finds_nothing():
    result = _run("ruff", "check", "--no-cache", "gaia_eval", "tests")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_finds_nothing():
    result = _run("mypy", "--cache-dir", str(ROOT / ".mypy_cache"))
    assert result.returncode == 0, result.stdout + result.stderr
