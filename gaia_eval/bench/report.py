"""Plain-text rendering of an EvalReport: the per-task table and the headline metrics."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gaia_eval.bench.metrics import EvalReport, TaskResult

ANSWER_WIDTH = 28
EXPLANATION_WIDTH = 60


def _clip(text: str, width: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def _pass_cell(task: TaskResult, repeats: int) -> str:
    if repeats > 1:
        return f"{task.successes}/{repeats}"
    if task.errored and not task.passed:
        return "ERROR"
    return "pass" if task.passed else "FAIL"


def _row(task: TaskResult, repeats: int) -> list[str]:
    # With repeats, the last attempt's answer and reason stand for the row; the JSON output has them all.
    last = task.attempts[-1]
    return [
        task.task.id,
        _pass_cell(task, repeats),
        f"{task.steps:.1f}",
        str(task.tool_errors),
        f"{task.latency:.2f}s",
        _clip(last.answer, ANSWER_WIDTH),
        _clip(last.explanation, EXPLANATION_WIDTH),
    ]


def render_table(report: EvalReport) -> str:
    header = ["task", "pass", "steps", "tool err", "latency", "answer", "explanation"]
    rows = [header] + [_row(task, report.repeats) for task in report.tasks]
    widths = [max(len(row[col]) for row in rows) for col in range(len(header))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(lines)


def render_metrics(report: EvalReport) -> str:
    attempts = len(report.attempts)
    passed = sum(attempt.passed for attempt in report.attempts)
    lines = [
        f"suite {report.suite} ({report.n} tasks, {report.suite_fingerprint[:19]}), runner {report.runner}"
        + (f", {report.repeats} repeats" if report.repeats > 1 else ""),
        f"success rate     {report.success_rate:.1%} ({passed}/{attempts})",
        f"avg steps        {report.avg_steps:.2f}",
        f"tool error rate  {report.tool_error_rate:.1%} ({report.total_tool_errors} errors / "
        f"{report.total_steps} steps)",
    ]
    if report.pass_hat_k is not None:
        lines.append(f"{f'pass^{report.repeats}':<17}{report.pass_hat_k:.1%} (tasks passed in every repeat)")
    if report.runner_errors:
        lines.append(f"runner errors    {report.runner_errors} attempt(s) failed with an error (see the table)")
    return "\n".join(lines)


def render_report(report: EvalReport) -> str:
    return f"{render_table(report)}\n\n{render_metrics(report)}"
