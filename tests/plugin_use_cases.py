"""Use cases a plugin could add (gaia-eval ships none of them), for the tests that check a new use case flows
through eval, the report, the viewer and annotate with no branch on its name; and their registration, by patching
`gaia_eval.registry.USE_CASES.builtin` (the entry-point route is tests/test_plugins.py's)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from gaia_eval.registry import USE_CASES
from gaia_eval.usecases import UseCase
from gaia_eval.usecases.summarization import SUMMARY_SCORERS

TICKETS = UseCase(
    name="tickets",
    title="Support ticket summaries",
    answers="summaries",
    scorers=SUMMARY_SCORERS,
    description="summaries of customer support tickets",
    doc_label="support ticket",
    judge_task="summaries of support tickets",
    rating_dimensions=("accuracy", "tone"),
)


@contextmanager
def registered(*use_cases: UseCase) -> Iterator[None]:
    """The use cases installed for the block, and forgotten after it (their loaded entries too)."""
    try:
        with pytest.MonkeyPatch.context() as mp:
            for use_case in use_cases:
                mp.setitem(USE_CASES.builtin, use_case.name, use_case)
            yield
    finally:
        USE_CASES.refresh()
