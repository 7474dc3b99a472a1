"""gaia-eval registers its own providers, use cases, scorers, match modes and bench runners through its own
entry-point groups (pyproject.toml), the route a package takes; reading them stays cheap (no importlib.metadata
scan for a built-in name) and a checkout whose installed metadata predates the groups still finds them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gaia_eval import registry
from gaia_eval.registry import GROUPS, MATCH_MODES, PROVIDERS, USE_CASES, _pyproject_entry_points

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def test_the_installed_metadata_declares_what_pyproject_declares():
    declared = _pyproject_entry_points(PYPROJECT)
    installed = registry.shipped_entry_points()
    stale = [g for g in GROUPS if installed.get(g) != declared.get(g)]
    assert stale == [], f"the venv's metadata is stale for {stale}: run `pip install -e .` again"


def test_without_metadata_a_checkout_reads_its_pyproject(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(sys, "path", [str(PYPROJECT.parent / "tests")])  # no gaia_eval-*.dist-info there
    registry.shipped_entry_points.cache_clear()
    try:
        found = registry.shipped_entry_points()
    finally:
        registry.shipped_entry_points.cache_clear()
    assert found == _pyproject_entry_points(PYPROJECT) and "fake" in found["gaia_eval.providers"]


def test_built_in_names_keep_their_documented_order():
    assert USE_CASES.names()[:3] == ("summarization", "email", "qa")
    assert PROVIDERS.names()[:3] == ("baseline", "anthropic", "openai") and "fake" in PROVIDERS.builtin
    assert MATCH_MODES.names()[0] == "gaia"


def test_a_built_in_name_is_found_without_scanning_every_package():
    script = ("import sys; from gaia_eval.registry import provider_entry, USE_CASES; provider_entry('openai');"
              "USE_CASES.entry('qa'); print('importlib.metadata' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "False"
