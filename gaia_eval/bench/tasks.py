"""TaskSpec: one benchmark task (prompt, checker kind, expected answer), validated when it is built. A kind is one
of the bench's own checkers or any answer-matching mode (gaia_eval.registry.MATCH_MODES)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from gaia_eval.bench.checkers import Verdict, parse_number, run_check
from gaia_eval.registry import MATCH_MODES

BENCH_KINDS: tuple[str, ...] = ("numeric", "contains", "regex", "exact")  # the bench's own checkers


def kinds() -> tuple[str, ...]:
    """Every task kind: the bench's own checkers, then every answer-matching mode (gaia first) not among them."""
    return (*BENCH_KINDS, *(mode for mode in MATCH_MODES.names() if mode not in BENCH_KINDS))


class TaskSpecError(ValueError):
    """A task does not validate; loaders add the file and line to the message."""


def _aliases(kind: str, expected: Any) -> list[str]:
    values = expected if isinstance(expected, list) else [expected]
    if not values:
        raise TaskSpecError(f"kind '{kind}' needs at least one expected string")
    aliases = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise TaskSpecError(f"kind '{kind}' expects a string or a list of strings, got {value!r}")
        text = str(value)
        if not text.strip():
            raise TaskSpecError(f"kind '{kind}' has an empty expected string")
        aliases.append(text)
    return aliases


MAX_METADATA_DEPTH = 64  # far beyond any real task's; the results file nests it a few levels down


def _depth(value: Any) -> int:
    """How deeply `value` nests, counted without recursion (a 1,000-level value must not overflow the stack)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def normalize_expected(kind: str, expected: Any, metadata: dict[str, Any]) -> Any:
    """The expected value in the form its checker uses; raises TaskSpecError with what is wrong."""
    if not isinstance(kind, str) or (kind not in BENCH_KINDS and kind not in MATCH_MODES):
        raise TaskSpecError(f"unknown kind '{kind}' (use one of: {', '.join(kinds())})")
    if kind == "numeric":
        value = expected if isinstance(expected, (int, float)) and not isinstance(expected, bool) else None
        if isinstance(expected, str):
            value = parse_number(expected)
        if value is None:
            raise TaskSpecError(f"kind 'numeric' needs a number as expected, got {expected!r}")
        if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
            value = int(value)  # "18" and 18 are the same task (and the same fingerprint)
        tolerance = metadata.get("tolerance", 0.0)
        if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or tolerance < 0:
            raise TaskSpecError(f"metadata.tolerance must be a non-negative number, got {tolerance!r}")
        return value
    if kind == "regex":
        if not isinstance(expected, str):
            raise TaskSpecError(f"kind 'regex' needs a pattern string, got {expected!r}")
        try:
            re.compile(expected)
        except re.error as exc:
            raise TaskSpecError(f"invalid regex {expected!r}: {exc}") from None
        return expected
    return _aliases(kind, expected)


@dataclass(frozen=True)
class TaskSpec:
    """One task. `expected` is normalized on construction: a number for `numeric`, a pattern for `regex`,
    a list of accepted strings (aliases) for `contains`, `exact` and every match mode (`gaia`, ...)."""

    id: str
    prompt: str
    kind: str
    expected: Any
    metadata: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id.strip():
            raise TaskSpecError(f"task id must be a non-empty string, got {self.id!r}")
        if not isinstance(self.prompt, str) or not self.prompt.strip():
            raise TaskSpecError(f"task '{self.id}': prompt must be a non-empty string")
        if not isinstance(self.metadata, dict):
            raise TaskSpecError(f"task '{self.id}': metadata must be an object")
        if _depth(self.metadata) > MAX_METADATA_DEPTH:
            # orjson reads 1,024 levels but writes 255: the results file (which keeps the metadata) would fail.
            raise TaskSpecError(f"task '{self.id}': metadata nests deeper than {MAX_METADATA_DEPTH} levels")
        try:
            normalized = normalize_expected(self.kind, self.expected, self.metadata)
        except TaskSpecError as exc:
            raise TaskSpecError(f"task '{self.id}': {exc}") from None
        object.__setattr__(self, "expected", normalized)

    def judge(self, answer: str) -> Verdict:
        """Whether `answer` passes, with the reason in words."""
        return run_check(self.kind, answer, self.expected, self.metadata)

    def check(self, answer: str) -> bool:
        return self.judge(answer).passed

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "prompt": self.prompt,
            "kind": self.kind,
            "expected": self.expected,
            "metadata": self.metadata,
        }
