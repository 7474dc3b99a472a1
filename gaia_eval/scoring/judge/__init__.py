"""The LLM judge: settings and requests (core), criteria, prompts, the judging run over experiments (run), its
summary, and agreement statistics.

The names below are the package's public surface; code outside the package imports them from here. Each is
loaded from its module on first use, so importing the package costs nothing until then.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "DEFAULT_JUDGE_CONCURRENCY": "core",
    "DEFAULT_JUDGE_TIMEOUT_S": "core",
    "JudgeOutcome": "run",
    "JudgeSettings": "core",
    "JudgeTarget": "run",
    "criterion_labels": "criteria",
    "judge_experiments": "run",
    "judge_journal_path": "run",
    "judge_request": "core",
    "parse_judge_spec": "core",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
