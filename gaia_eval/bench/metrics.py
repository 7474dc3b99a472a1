"""Running a suite and aggregating it: per-attempt results, per-task rows, and the suite's headline metrics
(success rate, average steps, tool-error rate, and pass^k when tasks are repeated)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gaia_eval.artifacts.base import Usage
from gaia_eval.artifacts.journal import JournalWriter
from gaia_eval.artifacts.store import write_json
from gaia_eval.bench.runs import Runner, coerce_run
from gaia_eval.bench.suites import Suite, suite_fingerprint
from gaia_eval.bench.tasks import TaskSpec
from gaia_eval.concurrency import map_concurrent, run_async
from gaia_eval.errors import GaiaEvalError, UsageError
from gaia_eval.progress import Progress

DEFAULT_BENCH_CONCURRENCY = 4


@dataclass
class Attempt:
    """One run of one task. `error` is set when the runner raised (the attempt fails); a runner that gave up
    (EvalRun.error) fails with the reason in `explanation`."""

    task_id: str
    repeat: int
    passed: bool
    answer: str
    explanation: str
    steps: int
    tool_errors: int
    latency: float
    trajectory: list[dict[str, Any]] = field(default_factory=list)
    usage: Usage | None = None
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "repeat": self.repeat,
            "passed": self.passed,
            "answer": self.answer,
            "explanation": self.explanation,
            "steps": self.steps,
            "tool_errors": self.tool_errors,
            "latency_s": round(self.latency, 4),
            "usage": self.usage.model_dump() if self.usage else None,
            "error": self.error,
            "trajectory": self.trajectory,
        }


@dataclass
class TaskResult:
    """A task's row: its attempts (one per repeat) and what they add up to."""

    task: TaskSpec
    attempts: list[Attempt]

    @property
    def successes(self) -> int:
        return sum(attempt.passed for attempt in self.attempts)

    @property
    def pass_rate(self) -> float:
        return self.successes / len(self.attempts)

    @property
    def passed(self) -> bool:
        """Pass/fail for paired comparisons: passed in more than half of the repeats (ties fail)."""
        return self.pass_rate > 0.5

    @property
    def all_passed(self) -> bool:
        return self.successes == len(self.attempts)

    @property
    def steps(self) -> float:
        return sum(attempt.steps for attempt in self.attempts) / len(self.attempts)

    @property
    def tool_errors(self) -> int:
        return sum(attempt.tool_errors for attempt in self.attempts)

    @property
    def latency(self) -> float:
        return sum(attempt.latency for attempt in self.attempts) / len(self.attempts)

    @property
    def errored(self) -> bool:
        return any(attempt.error for attempt in self.attempts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.task.id,
            "kind": self.task.kind,
            "expected": self.task.expected,
            "passed": self.passed,
            "pass_rate": self.pass_rate,
            "steps": self.steps,
            "tool_errors": self.tool_errors,
            "latency_s": round(self.latency, 4),
            "attempts": [attempt.to_dict() for attempt in self.attempts],
        }


@dataclass
class EvalReport:
    suite: str
    suite_fingerprint: str
    runner: str
    repeats: int
    tasks: list[TaskResult]

    @property
    def n(self) -> int:
        return len(self.tasks)

    @property
    def attempts(self) -> list[Attempt]:
        return [attempt for task in self.tasks for attempt in task.attempts]

    @property
    def success_rate(self) -> float:
        """Passed attempts / all attempts (the mean of per-task pass rates)."""
        attempts = self.attempts
        return sum(attempt.passed for attempt in attempts) / len(attempts) if attempts else 0.0

    @property
    def total_steps(self) -> int:
        return sum(attempt.steps for attempt in self.attempts)

    @property
    def total_tool_errors(self) -> int:
        return sum(attempt.tool_errors for attempt in self.attempts)

    @property
    def avg_steps(self) -> float:
        """Mean steps of the attempts that ran: a crashed attempt took no steps, and counting it as 0 would make
        a crashing agent look more efficient."""
        ran = [attempt for attempt in self.attempts if not attempt.error]
        return sum(attempt.steps for attempt in ran) / len(ran) if ran else 0.0

    @property
    def tool_error_rate(self) -> float:
        """Tool errors / total steps; 0 when nothing took a step."""
        return self.total_tool_errors / self.total_steps if self.total_steps else 0.0

    @property
    def pass_hat_k(self) -> float | None:
        """pass^k: the share of tasks that passed in every one of the k repeats; None when k = 1."""
        if self.repeats == 1 or not self.tasks:
            return None
        return sum(task.all_passed for task in self.tasks) / len(self.tasks)

    @property
    def runner_errors(self) -> int:
        return sum(1 for attempt in self.attempts if attempt.error)

    @property
    def usage(self) -> Usage:
        total = Usage()
        for attempt in self.attempts:
            if attempt.usage is not None:
                total = total + attempt.usage
        return total

    def to_dict(self) -> dict[str, Any]:
        return {
            "suite": self.suite,
            "suite_fingerprint": self.suite_fingerprint,
            "runner": self.runner,
            "repeats": self.repeats,
            "n": self.n,
            "success_rate": self.success_rate,
            "avg_steps": self.avg_steps,
            "tool_error_rate": self.tool_error_rate,
            "pass_hat_k": self.pass_hat_k,
            "runner_errors": self.runner_errors,
            "usage": self.usage.model_dump(),
            "tasks": [task.to_dict() for task in self.tasks],
        }

    def to_json(self, path: str | Path) -> None:
        """Write everything, trajectories included, as canonical JSON (atomically)."""
        write_json(Path(path), self.to_dict())


async def _attempt(runner: Runner, task: TaskSpec, repeat: int) -> Attempt:
    started = time.perf_counter()
    try:
        run = coerce_run(await asyncio.to_thread(runner, task.prompt))
    except (Exception, SystemExit) as exc:  # a runner crash (even sys.exit) is that task's failure, never the suite's
        error = f"{type(exc).__name__}: {exc}"
        return Attempt(
            task_id=task.id,
            repeat=repeat,
            passed=False,
            answer="",
            explanation=f"runner error: {error}",
            steps=0,
            tool_errors=0,
            latency=time.perf_counter() - started,
            error=error,
        )
    latency = run.latency if run.latency is not None else time.perf_counter() - started
    try:
        verdict = task.judge(run.answer)
    except (Exception, SystemExit) as exc:  # a package's match mode that raises fails this task, not the suite
        reason = str(exc) if isinstance(exc, GaiaEvalError) else f"{type(exc).__name__}: {exc}"
        return Attempt(task_id=task.id, repeat=repeat, passed=False, answer=run.answer,
                       explanation=f"check error: {reason}", steps=run.steps, tool_errors=run.tool_errors,
                       latency=latency, trajectory=run.trajectory, usage=run.usage, error=f"check error: {reason}")
    return Attempt(
        task_id=task.id,
        repeat=repeat,
        passed=verdict.passed and run.error is None,
        answer=run.answer,
        explanation=f"runner gave up: {run.error}" if run.error else verdict.explanation,
        steps=run.steps,
        tool_errors=run.tool_errors,
        latency=latency,
        trajectory=run.trajectory,
        usage=run.usage,
    )


def run_suite(
    runner: Runner,
    tasks: Suite | Sequence[TaskSpec],
    concurrency: int = DEFAULT_BENCH_CONCURRENCY,
    repeats: int = 1,
    *,
    suite_name: str | None = None,
    runner_name: str | None = None,
    show_progress: bool | None = None,
    journal_path: Path | None = None,
) -> EvalReport:
    """Run every task `repeats` times with at most `concurrency` runner calls in flight; never raises for a
    runner failure (it becomes a failed attempt with its error)."""
    if repeats < 1:
        raise UsageError(f"repeats must be at least 1, got {repeats}", field="--repeats")
    if concurrency < 1:
        raise UsageError(f"concurrency must be at least 1, got {concurrency}", field="--concurrency")
    suite_tasks = tuple(tasks.tasks if isinstance(tasks, Suite) else tasks)
    name = suite_name or (tasks.name if isinstance(tasks, Suite) else "custom")
    ids = [task.id for task in suite_tasks]
    if len(set(ids)) != len(ids):
        raise UsageError("task ids must be unique within a suite", fix="rename the duplicated task ids")
    items = [(task, repeat) for task in suite_tasks for repeat in range(repeats)]

    async def worker(item: tuple[TaskSpec, int]) -> Attempt:
        return await _attempt(runner, *item)

    progress = Progress(len(items), enabled=show_progress, label="tasks")
    journal = JournalWriter(journal_path, truncate=True) if journal_path is not None else None

    def on_result(item: tuple[TaskSpec, int], attempt: Attempt) -> None:
        progress.advance(error=not attempt.passed)
        if journal is not None:  # a killed run leaves what it finished, one fsynced line per attempt
            journal.append({"task_id": attempt.task_id, **attempt.to_dict()})

    try:
        attempts = run_async(map_concurrent(items, worker, limit=concurrency, on_result=on_result))
    finally:
        progress.close()
        if journal is not None:
            journal.close()
    by_task: dict[str, list[Attempt]] = {task.id: [] for task in suite_tasks}
    for attempt in attempts:
        by_task[attempt.task_id].append(attempt)
    return EvalReport(
        suite=name,
        suite_fingerprint=suite_fingerprint(suite_tasks),
        runner=runner_name or str(getattr(runner, "__name__", type(runner).__name__)),
        repeats=repeats,
        tasks=[TaskResult(task, by_task[task.id]) for task in suite_tasks],
    )
