"""Runners: what answers a task. A runner is any `Callable[[str], EvalRun]` (see bench.runs); this module
turns the CLI's runner specs (`builtin:calculator`, `python:module:function`, `cmd:...`, `react:PROVIDER:MODEL`)
into runners.
"""

from __future__ import annotations

import importlib
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

DEFAULT_RUNNER = "builtin:calculator"
CMD_TIMEOUT_S = 600.0
RUNNER_SPEC_HELP = (
    "builtin:calculator | python:module:function | cmd:'shell command' | react:PROVIDER:MODEL[@BASE_URL]"
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


def import_python_runner(target: str) -> PythonRunner:
    module_name, _, function_name = target.rpartition(":")
    if not module_name or not function_name:
        raise UsageError(f"bad runner 'python:{target}'", field="--runner", fix="write python:module.path:function")
    # Like `python -m`: a module in the current folder is importable even from the installed entry point.
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UsageError(
            f"cannot import runner module '{module_name}': {exc}",
            field="--runner",
            fix="run from the folder holding the module, or install it",
        ) from None
    function = getattr(module, function_name, None)
    if not callable(function):
        raise UsageError(
            f"module '{module_name}' has no function '{function_name}'",
            field="--runner",
            fix="name a callable taking the prompt and returning an EvalRun or a str",
        )
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
    kind, _, rest = spec.partition(":")
    if kind == "builtin":
        if rest != "calculator":
            raise UsageError(f"unknown builtin runner '{rest}'", field="--runner", fix="use builtin:calculator")
        from gaia_eval.bench.arithmetic_solver import solve_arithmetic

        return solve_arithmetic
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
    raise UsageError(f"unknown runner spec '{spec}'", field="--runner", fix=f"use {RUNNER_SPEC_HELP}")
