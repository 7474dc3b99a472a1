"""The cluster tier: shards as Ray tasks on a one-node Ray cluster started by the test.

Runs only when asked for (`pytest -m cluster`); otherwise its tests are skipped with the reason shown. It needs
the extra `cluster` (ray); without it the tests are skipped saying so.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "cluster" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="cluster tier: run it with `pytest -m cluster` (needs pip install '.[cluster]')")
    for item in items:
        if "cluster" in item.keywords:
            item.add_marker(skip)
