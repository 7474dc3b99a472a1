"""What one agent run produced (`EvalRun`) and how a runner's raw result becomes one: shared by the runners,
the ReAct loop, the reference solver and the metrics, so each of them imports it from here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gaia_eval.artifacts.base import Usage


class RunnerOutputError(ValueError):
    """A runner returned something that is not an EvalRun; the task is recorded as failed with this."""


@dataclass
class EvalRun:
    """What a runner did for one prompt: a bench runner (`bench --runner NAME`, or a package's entry point under
    `gaia_eval.bench_runners`) is a function `prompt -> EvalRun | str | dict`.

    Fields: answer (str); steps (int: actions, model turns or tool calls); tool_errors (int); trajectory (list of
    message dicts); usage (Usage | None: tokens); latency (float seconds | None: the harness measures wall time
    when left None); error (str | None: the run ended without an answer, e.g. a step limit, keeping its
    trajectory). A runner that raises (even SystemExit) fails that task with the reason; the suite goes on.

    Example:
        >>> def adder(prompt: str) -> EvalRun:
        ...     return EvalRun(answer=str(2 + 2), steps=1)
        >>> adder("What is 2 + 2?").answer
        '4'
    """

    answer: str
    steps: int = 1
    tool_errors: int = 0
    trajectory: list[dict[str, Any]] = field(default_factory=list)
    usage: Usage | None = None
    latency: float | None = None
    error: str | None = None


Runner = Callable[[str], EvalRun]


def count_tool_errors(trajectory: list[dict[str, Any]]) -> int:
    """Tool results whose content starts with `error:` (the convention the bench tools follow)."""
    return sum(
        1
        for message in trajectory
        if message.get("role") == "tool" and str(message.get("content", "")).lstrip().startswith("error:")
    )


def _non_negative_int(data: dict[str, Any], key: str, default: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RunnerOutputError(f"'{key}' must be a non-negative integer, got {value!r}")
    return value


def eval_run_from_dict(data: dict[str, Any]) -> EvalRun:
    """Validate a JSON-shaped result ({answer, steps?, tool_errors?, trajectory?, usage?, latency?})."""
    answer = data.get("answer")
    if not isinstance(answer, str):
        raise RunnerOutputError(f"'answer' must be a string, got {answer!r}")
    trajectory = data.get("trajectory", [])
    if not isinstance(trajectory, list) or not all(isinstance(item, dict) for item in trajectory):
        raise RunnerOutputError("'trajectory' must be a list of objects")
    usage = data.get("usage")
    latency = data.get("latency")
    if latency is not None and (isinstance(latency, bool) or not isinstance(latency, (int, float))):
        raise RunnerOutputError(f"'latency' must be a number of seconds, got {latency!r}")
    try:
        parsed_usage = Usage.model_validate(usage) if usage is not None else None
    except ValueError as exc:
        raise RunnerOutputError(f"'usage' is not {{input_tokens, output_tokens}}: {exc}") from None
    return EvalRun(
        answer=answer,
        steps=_non_negative_int(data, "steps", 1),
        tool_errors=_non_negative_int(data, "tool_errors", count_tool_errors(trajectory)),
        trajectory=trajectory,
        usage=parsed_usage,
        latency=float(latency) if latency is not None else None,
    )


def coerce_run(result: Any) -> EvalRun:
    """Accept what a Python runner naturally returns: an EvalRun, a plain answer string, or a dict."""
    if isinstance(result, EvalRun):
        return result
    if isinstance(result, str):
        return EvalRun(answer=result)
    if isinstance(result, dict):
        return eval_run_from_dict(result)
    raise RunnerOutputError(f"runner returned {type(result).__name__}; return an EvalRun, a str or a dict")
