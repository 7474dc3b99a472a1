"""Deterministic stub runners for the bench tests, imported through the `python:stub_runners:NAME` spec."""

from __future__ import annotations

from gaia_eval.bench import EvalRun

CALLS: list[str] = []


def answer_one(prompt: str) -> str:
    """Knows exactly one arithmetic task (17 * 23 - 100); says it does not know the rest."""
    return "291" if "17 * 23" in prompt else "I don't know."


def recording(prompt: str) -> EvalRun:
    CALLS.append(prompt)
    return EvalRun(answer="291", steps=2)


def broken(prompt: str) -> str:
    raise RuntimeError("agent crashed")


NOT_CALLABLE = 42
