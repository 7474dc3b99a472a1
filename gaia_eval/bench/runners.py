"""Runners: what answers a task. A runner is any `Callable[[str], EvalRun]` (see bench.runs); this module
turns the CLI's runner specs into runners: a name from the open registry gaia_eval.registry.BENCH_RUNNERS
(`calculator`, also spelled `builtin:calculator`; another package adds names under the entry-point group
`gaia_eval.bench_runners`), a function named `module.path:function` or `path/to/file.py:function` (also spelled
`python:...`) and loaded by gaia_eval.registry.load, `cmd:...` and `react:PROVIDER:MODEL`.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

from gaia_eval.bench.runs import EvalRun, Runner, RunnerOutputError, coerce_run, eval_run_from_dict
from gaia_eval.errors import UsageError
from gaia_eval.registry import BENCH_RUNNERS, load

DEFAULT_RUNNER = "builtin:calculator"
CMD_TIMEOUT_S = 600.0
RUNNER_SPEC_HELP = (
    "NAME (calculator) | [python:]module:function | [python:]file.py:function | cmd:'shell command' | "
    "react:PROVIDER:MODEL[@BASE_URL]"
)


@dataclass(frozen=True)
class CommandRunner:
    """Runs a shell command per task: the prompt on stdin, the answer on stdout (plain text or JSON)."""

    command: str
    timeout_s: float = CMD_TIMEOUT_S

    def __call__(self, prompt: str) -> EvalRun:
        try:
            done = subprocess.run(
                self.command, shell=True, input=prompt, capture_output=True, text=True, timeout=self.timeout_s
            )
        except subprocess.TimeoutExpired:
            raise RunnerOutputError(f"command did not finish within {self.timeout_s:g}s") from None
        if done.returncode != 0:
            tail = " ".join(done.stderr.strip().splitlines()[-3:])
            raise RunnerOutputError(f"command exited with status {done.returncode}: {tail or '(no stderr)'}")
        output = done.stdout.strip()
        if output.startswith("{"):
            try:
                data = orjson.loads(output)
            except orjson.JSONDecodeError:
                data = None
            if isinstance(data, dict) and "answer" in data:
                return eval_run_from_dict(data)
        return EvalRun(answer=output)


@dataclass(frozen=True)
class PythonRunner:
    """Wraps a user function so that a str or dict result becomes an EvalRun."""

    function: Callable[[str], Any]

    def __call__(self, prompt: str) -> EvalRun:
        return coerce_run(self.function(prompt))

    @property
    def __name__(self) -> str:  # what run_suite records when no runner name is given: the function's own
        return getattr(self.function, "__name__", type(self.function).__name__)


def _importable_from_here() -> None:
    # Like `python -m`: a module in the current folder is importable even from the installed entry point.
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())


def _names_code(module_name: str) -> bool:
    """Whether a spec's part before its last colon is a .py file's path or an importable module (so `ssh:host`
    is an unknown spec, not a missing module)."""
    if module_name.endswith(".py"):
        return True
    _importable_from_here()
    try:
        return importlib.util.find_spec(module_name) is not None
    except (ImportError, ValueError):
        return False


def import_python_runner(target: str) -> PythonRunner:
    """The function `module:function` or `path/to/file.py:function` names, through gaia_eval.registry.load."""
    module_name, _, function_name = target.rpartition(":")
    if not module_name or not function_name:
        raise UsageError(f"bad runner 'python:{target}'", field="--runner",
                         fix="write python:module.path:function or python:path/to/file.py:function")
    _importable_from_here()
    function = load(target, what="runner module", field="--runner")
    if not callable(function):
        raise UsageError(
            f"module '{module_name}' has no function '{function_name}' (it is a {type(function).__name__})",
            field="--runner",
            fix="name a callable taking the prompt and returning an EvalRun or a str",
        )
    return PythonRunner(function)


def named_runner(name: str) -> Runner:
    """The runner registered under `name` (built in, or another package's `gaia_eval.bench_runners` entry point)."""
    if name not in BENCH_RUNNERS:
        raise UsageError(f"unknown runner '{name}'", field="--runner",
                         fix=f"use one of: {', '.join(BENCH_RUNNERS.names())} (or {RUNNER_SPEC_HELP})")
    function = BENCH_RUNNERS.entry(name)
    if not callable(function):
        raise UsageError(f"runner '{name}' ({BENCH_RUNNERS.target(name)}) is a {type(function).__name__}, not a "
                         "function", field="--runner",
                         fix="point the gaia_eval.bench_runners entry point at a function prompt -> EvalRun | str")
    return PythonRunner(function)


def _unquoted(command: str) -> str:
    """`'python agent.py'` -> `python agent.py`: the quotes of `cmd:'...'` survive when a CI file quotes twice."""
    if len(command) >= 2 and command[0] == command[-1] and command[0] in "'\"":
        try:
            parts = shlex.split(command)
        except ValueError:
            return command
        if len(parts) == 1:
            return parts[0]
    return command


def resolve_runner(spec: str, react_options: dict[str, Any] | None = None) -> Runner:
    """The runner a CLI spec names. A react runner whose cloud key is missing raises MissingCredentialsError
    here, before any task runs; every other bad spec is a UsageError."""
    kind, colon, rest = spec.partition(":")
    if not colon:
        return named_runner(spec)
    if kind == "builtin":
        return named_runner(rest)
    if kind == "python":
        return import_python_runner(rest)
    if kind == "cmd":
        command = _unquoted(rest.strip())
        if not command:
            raise UsageError("empty command in runner 'cmd:'", field="--runner", fix="write cmd:'your command'")
        return CommandRunner(command)
    if kind == "react":
        from gaia_eval.bench.react import react_runner_from_spec

        return react_runner_from_spec(rest, **(react_options or {}))
    if _names_code(spec.rpartition(":")[0]):  # module.path:function or path/to/file.py:function
        return import_python_runner(spec)
    raise UsageError(f"unknown runner spec '{spec}'", field="--runner", fix=f"use {RUNNER_SPEC_HELP}")
