"""Committed baselines and the regression gate: save/load a baseline, compare a report with it (success rate
within a tolerance, paired per-task changes with an exact McNemar test, optional efficiency limits).

A baseline is written only by `save_baseline`, which only runs on explicit request; nothing here updates one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from gaia_eval.artifacts.base import Count, NonNegative, Share
from gaia_eval.artifacts.store import describe_validation_error, load_json_file, write_json
from gaia_eval.bench.metrics import EvalReport
from gaia_eval.errors import InputError, UsageError

DEFAULT_TOLERANCE = 0.05
_EPSILON = 1e-9  # rates are ratios of small integers; do not let float noise flip a decision at the boundary
_MAX_LISTED_TASKS = 10


class Baseline(BaseModel):
    """The committed reference numbers of one suite under one runner. Only `success_rate` is required: the
    documented minimal baseline `{"success_rate": 0.6667, "avg_steps": 2.0, "tool_error_rate": 0.15, "n": 6}`
    gates as it is (without a suite fingerprint or runner, so those checks are skipped, with a note)."""

    model_config = ConfigDict(extra="forbid")

    success_rate: Share
    avg_steps: NonNegative | None = None
    tool_error_rate: NonNegative | None = None
    n: Count | None = None
    suite: str | None = None
    suite_fingerprint: str | None = None
    runner: str | None = None  # the runner that produced it: a run with another runner is not comparable
    tasks: dict[str, bool] | None = None  # per-task pass/fail, for the paired comparison


def baseline_notes(baseline: Baseline) -> list[str]:
    """One line per check a minimal baseline cannot support."""
    notes = []
    if baseline.suite_fingerprint is None:
        notes.append("note: this baseline carries no suite fingerprint, so a changed suite cannot be detected "
                     "(re-save it with --save-baseline to add one)")
    return notes


def baseline_from_report(report: EvalReport, runner: str | None = None) -> Baseline:
    return Baseline(
        runner=runner,
        suite=report.suite,
        suite_fingerprint=report.suite_fingerprint,
        success_rate=report.success_rate,
        avg_steps=report.avg_steps,
        tool_error_rate=report.tool_error_rate,
        n=report.n,
        tasks={task.task.id: task.passed for task in report.tasks},
    )


def save_baseline(report: EvalReport, path: str | Path, runner: str | None = None) -> Baseline:
    """Write the report's numbers as the new baseline (canonical JSON, atomic): a superset of the documented
    minimal format, which a reader of that format still understands."""
    baseline = baseline_from_report(report, runner)
    write_json(Path(path), baseline)
    return baseline


def load_baseline(path: str | Path) -> Baseline:
    data = load_json_file(Path(path))
    try:
        return Baseline.model_validate(data)
    except ValidationError as exc:
        field, message = describe_validation_error(exc)
        raise InputError(
            f"not a bench baseline: {message}",
            file=path,
            field=field,
            fix="write baselines with `gaia-eval bench SUITE --save-baseline PATH`",
        ) from None


def as_baseline(baseline: Baseline | dict | str | Path) -> Baseline:
    """A Baseline from itself, its dict form, or the path of its file."""
    if isinstance(baseline, Baseline):
        return baseline
    if isinstance(baseline, dict):
        try:
            return Baseline.model_validate(baseline)
        except ValidationError as exc:
            field, message = describe_validation_error(exc)
            raise UsageError(f"not a bench baseline: {message}", field=field) from None
    return load_baseline(baseline)


def check_fingerprint(
    baseline: Baseline, suite_fingerprint: str, path: str | Path | None = None, suite_name: str | None = None
) -> None:
    """Refuse to compare runs of different task sets: the numbers would not mean anything. A baseline without
    a fingerprint (the documented minimal format) cannot be checked; see `baseline_notes`. A baseline of another
    suite's tasks is named as such, not as another version of its own suite (same tasks under another file
    name still compare)."""
    changed = baseline.suite_fingerprint is not None and baseline.suite_fingerprint != suite_fingerprint
    if changed and baseline.suite is not None and suite_name is not None and baseline.suite != suite_name:
        raise UsageError(
            f"baseline is for suite '{baseline.suite}', but this run is suite '{suite_name}'",
            file=path,
            fix=f"pass the baseline made on suite '{suite_name}' (or none: baselines/{suite_name}.json next to the "
            "suite is the default), or make one with --save-baseline PATH",
        )
    if changed:
        raise UsageError(
            f"baseline was made on a different version of suite '{baseline.suite}' "
            f"({(baseline.suite_fingerprint or '')[:19]}, now {suite_fingerprint[:19]}): the suite changed",
            file=path,
            fix="re-run with --save-baseline PATH to re-baseline deliberately, and commit it",
        )


def mcnemar_exact_p(newly_failing: int, newly_passing: int) -> float:
    """Two-sided exact McNemar test: a binomial(b + c, 1/2) test on the discordant pairs; 1.0 when none."""
    discordant = newly_failing + newly_passing
    if discordant == 0:
        return 1.0
    tail = sum(math.comb(discordant, i) for i in range(min(newly_failing, newly_passing) + 1))
    return min(1.0, 2 * tail / 2**discordant)


@dataclass(frozen=True)
class PairedComparison:
    newly_failing: list[str]
    newly_passing: list[str]
    compared: int

    @property
    def p_value(self) -> float:
        return mcnemar_exact_p(len(self.newly_failing), len(self.newly_passing))

    def describe(self) -> str:
        def listed(ids: list[str]) -> str:
            shown = ", ".join(ids[:_MAX_LISTED_TASKS])
            more = f", +{len(ids) - _MAX_LISTED_TASKS} more" if len(ids) > _MAX_LISTED_TASKS else ""
            return f" ({shown}{more})" if ids else ""

        return (
            f"paired ({self.compared} tasks): {len(self.newly_failing)} newly failing"
            f"{listed(self.newly_failing)}, {len(self.newly_passing)} newly passing{listed(self.newly_passing)}; "
            f"exact McNemar p={self.p_value:.3g}"
        )


def paired_comparison(report: EvalReport, baseline: Baseline) -> PairedComparison | None:
    if not baseline.tasks:
        return None
    failing, passing, compared = [], [], 0
    for task in report.tasks:
        before = baseline.tasks.get(task.task.id)
        if before is None:
            continue
        compared += 1
        if before and not task.passed:
            failing.append(task.task.id)
        elif task.passed and not before:
            passing.append(task.task.id)
    return PairedComparison(failing, passing, compared)


def regression_gate(
    report: EvalReport,
    baseline: Baseline | dict | str | Path,
    tolerance: float = DEFAULT_TOLERANCE,
    *,
    max_steps_increase: float | None = None,
    max_tool_error_increase: float | None = None,
    baseline_path: str | Path | None = None,
) -> tuple[bool, str]:
    """(ok, message). Fails when the success rate is more than `tolerance` below the baseline's, or when an
    efficiency limit is given and exceeded: avg steps up by more than `max_steps_increase` steps, tool-error
    rate up by more than `max_tool_error_increase` (a rate, 0.05 = 5 points). The first message line is the
    verdict; the following lines are the details."""
    if baseline_path is None and isinstance(baseline, (str, Path)):
        baseline_path = baseline
    baseline = as_baseline(baseline)
    check_fingerprint(baseline, report.suite_fingerprint, baseline_path, report.suite)
    problems = []
    success_ok = report.success_rate + _EPSILON >= baseline.success_rate - tolerance
    if not success_ok:
        problems.append(f"success dropped more than {tolerance:.0%}")
    details = []
    if baseline.avg_steps is None:
        details.append(f"avg steps {report.avg_steps:.2f} (the baseline has none)")
        if max_steps_increase is not None:
            problems.append("--max-steps-increase needs a baseline with avg_steps")
    else:
        steps_delta = report.avg_steps - baseline.avg_steps
        steps_line = f"avg steps {report.avg_steps:.2f} vs baseline {baseline.avg_steps:.2f} ({steps_delta:+.2f}"
        if max_steps_increase is not None:
            steps_line += f", limit +{max_steps_increase:g}"
            if steps_delta > max_steps_increase + _EPSILON:
                problems.append(f"avg steps rose by {steps_delta:.2f} (limit +{max_steps_increase:g})")
        details.append(steps_line + ")")
    if baseline.tool_error_rate is None:
        details.append(f"tool error rate {report.tool_error_rate:.1%} (the baseline has none)")
        if max_tool_error_increase is not None:
            problems.append("--max-tool-error-increase needs a baseline with tool_error_rate")
    else:
        errors_delta = report.tool_error_rate - baseline.tool_error_rate
        errors_line = (
            f"tool error rate {report.tool_error_rate:.1%} vs baseline {baseline.tool_error_rate:.1%} "
            f"({errors_delta * 100:+.1f} points"
        )
        if max_tool_error_increase is not None:
            errors_line += f", limit +{max_tool_error_increase * 100:g}"
            if errors_delta > max_tool_error_increase + _EPSILON:
                problems.append(f"tool error rate rose by {errors_delta * 100:.1f} points")
        details.append(errors_line + ")")
    paired = paired_comparison(report, baseline)
    if paired is not None:
        details.insert(0, paired.describe())
    ok = not problems
    headline = (
        f"[{'OK' if ok else 'REGRESSION'}] success {report.success_rate:.0%} vs baseline "
        f"{baseline.success_rate:.0%} (tol {tolerance:.0%})"
    )
    if problems:
        headline += ": " + "; ".join(problems)
    return ok, "\n".join([headline, *("  " + line for line in details)])
