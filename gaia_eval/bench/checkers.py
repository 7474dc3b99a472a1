"""Deterministic answer checkers, one per task kind: each returns a Verdict (passed + a human explanation). The
bench's own kinds are numeric, contains, regex and exact; any other kind names an answer-matching mode
(gaia_eval.registry.MATCH_MODES: gaia, f1, fuzzy, ... and those other packages add).

The semantics are strict on purpose: `numeric` reads the number the answer gives with the GAIA matcher's
numeric mode (gaia_eval.scoring.answers.match: the marked, leading, concluding or only number, never a negated,
bounded or hedged one), so "The answer is 12" never passes for 2, "12, not 2" never passes for 2, and
"FINAL ANSWER: 42 (checked 3 times)" passes for 42; `contains` matches whole tokens, so "19270" never
passes for "1927".
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from gaia_eval.scoring.answers import match_answer, regex_search

DEFAULT_NUMERIC_TOLERANCE = 1e-6


@dataclass(frozen=True)
class Verdict:
    passed: bool
    explanation: str

    def __bool__(self) -> bool:
        return self.passed


def parse_number(text: str) -> float | None:
    """A number written the way people write them ("70,000", "−4", "1e3"), or None."""
    cleaned = text.strip().replace(",", "").replace("−", "-")
    try:
        value = float(cleaned)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _show(value: float) -> str:
    """A number as the matcher reads it back exactly: 12, not 12.0; 0.1 + 0.2 as 0.30000000000000004."""
    value = float(value)
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


def check_numeric(answer: str, expected: float, tolerance: float = DEFAULT_NUMERIC_TOLERANCE) -> Verdict:
    """The number the answer gives equals `expected` within `tolerance` (absolute; float rounding is absorbed
    relatively, as before)."""
    result = match_answer(_show(expected), answer, mode="numeric", abs_tol=tolerance)
    return Verdict(result.correct, f"{result.explanation}; tolerance {tolerance:g}")


def _normalize_text(text: str) -> str:
    return " ".join(text.casefold().split())


def check_contains(answer: str, aliases: list[str]) -> Verdict:
    text = _normalize_text(answer)
    for alias in aliases:
        words = _normalize_text(alias).split(" ")
        pattern = r"(?<!\w)" + r"\s+".join(re.escape(word) for word in words) + r"(?!\w)"
        if re.search(pattern, text):
            return Verdict(True, f"contains {alias!r}")
    return Verdict(False, f"none of {aliases!r} appears as whole words")


def check_regex(answer: str, pattern: str) -> Verdict:
    if regex_search(pattern, answer) is not None:  # bounded in time: a backtracking pattern is an error, not a hang
        return Verdict(True, f"matches /{pattern}/")
    return Verdict(False, f"no match for /{pattern}/")


def check_exact(answer: str, aliases: list[str]) -> Verdict:
    got = answer.strip()
    for alias in aliases:
        if got == alias.strip():
            return Verdict(True, f"equals {alias!r}")
    return Verdict(False, f"{_clip(got)!r} is not exactly one of {aliases!r}")


def check_with_mode(mode: str, answer: str, aliases: list[str]) -> Verdict:
    """An answer-matching mode of gaia_eval.scoring (gaia, f1, fuzzy, ... or another package's); any alias may
    match."""
    explanations = []
    for alias in aliases:
        result = match_answer(alias, answer, mode=mode)
        if result.correct:
            return Verdict(True, result.explanation)
        explanations.append(result.explanation)
    return Verdict(False, "; ".join(explanations))


def _clip(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def run_check(kind: str, answer: str, expected: Any, metadata: dict[str, Any]) -> Verdict:
    """Dispatch on kind; `expected` is already normalized by TaskSpec (float, list of str, or pattern). A kind
    that is not one of the bench's own checkers is a match mode (TaskSpec checked that it is registered)."""
    if kind == "numeric":
        return check_numeric(answer, expected, float(metadata.get("tolerance", DEFAULT_NUMERIC_TOLERANCE)))
    if kind == "contains":
        return check_contains(answer, expected)
    if kind == "regex":
        return check_regex(answer, expected)
    if kind == "exact":
        return check_exact(answer, expected)
    return check_with_mode(kind, answer, expected)
