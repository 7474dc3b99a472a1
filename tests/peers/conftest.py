"""The peers tier: the real Inspect, promptfoo and lm-eval run a small task against the fake OpenAI server on
127.0.0.1, and what they write is imported (`pytest -m peers`). Each tool that is missing skips its test with how to
install it: inspect-ai and lm-eval[api] from PyPI (in this venv, or named by GAIA_EVAL_LM_EVAL for an `lm_eval` of
another venv), promptfoo from npm (`npm install promptfoo`, found on PATH or named by GAIA_EVAL_PROMPTFOO)."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "peers" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="peers tier: run it with `pytest -m peers` (the real Inspect, promptfoo, lm-eval)")
    for item in items:
        if "peers" in item.keywords:
            item.add_marker(skip)
