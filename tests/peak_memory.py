"""The peak memory of one CLI run: `gaia-eval ARGS` in a child process, which reports its own VmHWM (its pages,
not the parent's), optionally after a `prelude` of Python that plants the behaviour a memory test compares with."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

_CHILD = """
import sys
report, prelude, args = sys.argv[1], sys.argv[2], sys.argv[3:]
exec(prelude)
from gaia_eval.cli import main
sys.argv = ["gaia-eval", *args]
try:
    main()
except SystemExit as exc:
    if exc.code:
        raise
peak = next(line for line in open("/proc/self/status") if line.startswith("VmHWM:"))
open(report, "w").write(peak.split()[1])
"""


def cli_peak_kb(args: list[str], report: Path, *, prelude: str = "", cwd: Path | None = None) -> int:
    """Run the CLI with `args` in a child; its peak resident set in kB (written to `report` by the child)."""
    subprocess.run([sys.executable, "-c", _CHILD, str(report), prelude, *args], check=True,
                   stdout=subprocess.DEVNULL, cwd=cwd)
    return int(report.read_text())
