"""Opt-in test tiers (realmodel, peers, cluster): a tier's tests run only when `-m` names its marker; otherwise each
is skipped with the reason, which says how to run it."""

from __future__ import annotations

import pytest


def skip_unless_asked(config: pytest.Config, items: list[pytest.Item], marker: str, reason: str) -> None:
    if marker in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason=reason)
    for item in items:
        if marker in item.keywords:
            item.add_marker(skip)
