"""`gaia-eval bench`: everything the command does (resolve suite, runner and baseline, run, print, save, gate),
as one function returning the exit code, so cli/tools.py only declares the click options.

Exit codes: 0 OK (or skipped: the runner's API key is not set), 1 REGRESSION, 2 bad input or a runner that
cannot run (every attempt raised), or a skip under --strict.
"""

from __future__ import annotations

import os
from pathlib import Path

from gaia_eval.bench.gate import (
    DEFAULT_TOLERANCE,
    Baseline,
    baseline_notes,
    check_fingerprint,
    load_baseline,
    regression_gate,
    save_baseline,
)
from gaia_eval.bench.metrics import DEFAULT_BENCH_CONCURRENCY, run_suite
from gaia_eval.bench.report import render_report
from gaia_eval.bench.runners import DEFAULT_RUNNER, resolve_runner
from gaia_eval.bench.suites import Suite, builtin_paths, load_builtin, resolve_suite
from gaia_eval.errors import MissingCredentialsError, UsageError
from gaia_eval.safe_text import echo

EXIT_OK = 0
EXIT_REGRESSION = 1
EXIT_USAGE = 2


def list_builtin_suites() -> int:
    """`gaia-eval bench list`: each builtin suite with its task count and whether a baseline ships with it."""
    for name in builtin_paths():
        suite = load_builtin(name)
        baseline = suite.default_baseline_path
        note = "baseline shipped" if baseline is not None and baseline.is_file() else "no baseline"
        echo(f"{name:<12} {len(suite.tasks):>3} tasks  {note}")
    return EXIT_OK


def _check_options(tolerance: float, repeats: int, concurrency: int, limits: dict[str, float | None]) -> None:
    if not 0 <= tolerance <= 1:
        raise UsageError(f"tolerance {tolerance} is not a rate", field="--tolerance", fix="use e.g. 0.05 for 5 points")
    if repeats < 1:
        raise UsageError(f"repeats must be at least 1, got {repeats}", field="--repeats")
    if concurrency < 1:
        raise UsageError(f"concurrency must be at least 1, got {concurrency}", field="--concurrency")
    for option, value in limits.items():
        if value is not None and value < 0:
            raise UsageError(f"{option} must not be negative, got {value}", field=option)


def _pick_baseline(
    suite: Suite, baseline: str | Path | None, save_to: str | Path | None
) -> tuple[Baseline, Path] | None:
    """The explicit --baseline, else `baselines/<suite>.json` next to the suite unless this run re-baselines."""
    if baseline is not None:
        path = Path(baseline)
    elif save_to is None and suite.default_baseline_path is not None and suite.default_baseline_path.is_file():
        path = suite.default_baseline_path
    else:
        return None
    loaded = load_baseline(path)
    # Refused before running: an LLM run against a baseline it cannot be compared with is wasted money.
    check_fingerprint(loaded, suite.fingerprint, path, suite.name)
    return loaded, path


def _check_runner(picked: tuple[Baseline, Path], runner_spec: str) -> None:
    """Gate like with like: a baseline made by one runner says nothing about another."""
    loaded, path = picked
    if loaded.runner is not None and loaded.runner != runner_spec:
        raise UsageError(
            f"baseline was made with runner '{loaded.runner}', this run uses '{runner_spec}'",
            file=path,
            field="runner",
            fix=f"pass --runner {loaded.runner}, or re-baseline deliberately with --save-baseline PATH for this runner",
        )
    for note in baseline_notes(loaded):
        echo(f"bench: {path}: {note}", err=True)


def _write_results(output: Path, report, picked: tuple[Baseline, Path] | None, tolerance: float) -> None:
    """The results, with the baseline's numbers when there is one (so a viewer can chart the run against it
    later), plus the chart and the JUnit XML beside them."""
    from gaia_eval.artifacts.store import write_json
    from gaia_eval.bench.exports import baseline_summary, write_bench_exports

    results = report.to_dict()
    if picked is not None:
        results["baseline"] = baseline_summary(picked[0], picked[1], tolerance)
    write_json(output, results)
    write_bench_exports(output, results)


def run_bench_command(
    suite: str,
    runner: str | None = None,
    baseline: str | Path | None = None,
    save_baseline_to: str | Path | None = None,
    tolerance: float = DEFAULT_TOLERANCE,
    repeats: int = 1,
    concurrency: int = DEFAULT_BENCH_CONCURRENCY,
    output: str | Path | None = None,
    strict: bool = False,
    max_steps_increase: float | None = None,
    max_tool_error_increase: float | None = None,
    react_options: dict | None = None,
    allow_skip: bool = False,
) -> int:
    """Run `gaia-eval bench`; returns the exit code. Bad input raises UsageError (the CLI maps it to 2)."""
    if suite == "list":
        return list_builtin_suites()
    _check_options(
        tolerance,
        repeats,
        concurrency,
        {"--max-steps-increase": max_steps_increase, "--max-tool-error-increase": max_tool_error_increase},
    )
    loaded_suite = resolve_suite(suite)
    runner_spec = runner or DEFAULT_RUNNER
    picked = _pick_baseline(loaded_suite, baseline, save_baseline_to)
    if picked is not None:
        _check_runner(picked, runner_spec)
    try:
        runner_fn = resolve_runner(runner_spec, react_options)
    except MissingCredentialsError as exc:
        echo(f"bench: not run: runner {runner_spec}: {exc.one_line()}", err=True)
        in_ci = bool(os.environ.get("CI")) and not allow_skip
        if strict or in_ci:
            why = "--strict" if strict else "CI is set (pass --allow-skip to let CI pass without a key)"
            echo(f"bench: {why}: a skipped benchmark is a failure", err=True)
            return EXIT_USAGE
        echo("bench: nothing was gated; exit 0 (use --strict to make this exit 2)", err=True)
        return EXIT_OK

    # With -o, each finished attempt is journaled beside the output until the results file is written.
    journal = Path(f"{output}.partial.jsonl") if output is not None else None
    report = run_suite(runner_fn, loaded_suite, concurrency=concurrency, repeats=repeats, runner_name=runner_spec,
                       journal_path=journal)
    echo(render_report(report))
    if output is not None and journal is not None:
        _write_results(Path(output), report, picked, tolerance)
        journal.unlink(missing_ok=True)
        echo(f"results written to {output} (with its chart against the baseline and JUnit XML beside it)")
    if report.attempts and report.runner_errors == len(report.attempts):
        first = next(attempt.error for attempt in report.attempts if attempt.error)
        echo(f"bench: the runner could not run: every attempt failed with an error (first: {first})", err=True)
        return EXIT_USAGE
    if save_baseline_to is not None:
        save_baseline(report, save_baseline_to, runner=runner_spec)
        echo(f"baseline written to {save_baseline_to} (success {report.success_rate:.0%}, n={report.n})")
    if picked is None:
        if save_baseline_to is None:
            hint = loaded_suite.default_baseline_path or Path("baselines") / f"{loaded_suite.name}.json"
            echo(f"no baseline to gate against; save one deliberately with --save-baseline {hint}")
        return EXIT_OK
    loaded_baseline, path = picked
    ok, message = regression_gate(
        report,
        loaded_baseline,
        tolerance,
        max_steps_increase=max_steps_increase,
        max_tool_error_increase=max_tool_error_increase,
        baseline_path=path,
    )
    echo(f"\ngate vs {path}:\n{message}")
    return EXIT_OK if ok else EXIT_REGRESSION
