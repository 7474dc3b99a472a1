"""Starting the CLI in a child process that a test will interrupt with SIGINT (Ctrl-C).

A process started with SIGINT ignored (a background job of a non-interactive shell, nohup, some CI runners)
passes that on to every child: Python then installs no KeyboardInterrupt handler, the test's SIGINT is
dropped, and the run goes on until the test's bound (30 s, 300 s) fails it. That is how the two Ctrl-C tests
failed in a full run and passed alone. `interruptible_cli` gives the child Python's own SIGINT handler back
before the CLI starts, whatever the test runner inherited (a preexec_fn would do it too, but is unsafe beside
the threads a test process runs, such as the fake server's).
"""

from __future__ import annotations

import sys

_START = ("import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
          "sys.argv = ['gaia-eval', *sys.argv[1:]]; runpy.run_module('gaia_eval', run_name='__main__', alter_sys=True)")


def interruptible_cli(*args: str) -> list[str]:
    """The argv of `python -m gaia_eval ARGS` with SIGINT raising KeyboardInterrupt in the child."""
    return [sys.executable, "-c", _START, *args]
