"""A closed standard output is not an error (issue 29): `gaia-eval report ... | head` and `annotate --help | head`
printed "error: Broken pipe (fix: check the path and its permissions)". The reader is gone before the command
writes (its end of the pipe closed first), so the broken pipe happens on every run, not by timing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from gaia_eval.cli import cli


def _with_closed_stdout(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([sys.executable, "-m", "gaia_eval", *args], stdout=write_end, stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL, text=True, cwd=cwd, timeout=120)
    finally:
        os.close(write_end)


@pytest.mark.parametrize("args", [["annotate", "--help"], ["--help"], ["check-answer", "Paris", "paris"]])
def test_help_and_answers_into_a_closed_pipe_say_nothing(args: list[str], tmp_path: Path) -> None:
    done = _with_closed_stdout(args, tmp_path)
    assert done.stderr == "" and done.returncode == 0


def test_report_into_a_closed_pipe_still_writes_the_report_and_exits_0(tmp_path: Path) -> None:
    rows = [{"item_id": "a", "source": "Ann: we ship on Friday.", "references": ["They ship on Friday."]}]
    (tmp_path / "gt.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp_path / "out.jsonl").write_text(json.dumps({"item_id": "a", "system": "s", "output": "Ship Friday."}) + "\n")
    gt = str(tmp_path / "gt" / "consolidated_summarization_groundtruth.json")
    for args in (["import-groundtruth", str(tmp_path / "gt.jsonl"), "-o", str(tmp_path / "gt")],
                 ["import-outputs", str(tmp_path / "out.jsonl"), "-g", gt, "-o", str(tmp_path / "exp")],
                 ["eval", "-d", str(tmp_path / "exp"), "-g", gt, "-o", str(tmp_path / "ev")]):
        assert CliRunner().invoke(cli, args).exit_code == 0
    done = _with_closed_stdout(["report", "-d", "ev", "-o", "rep/report.md"], tmp_path)
    assert done.stderr == "" and done.returncode == 0
    assert (tmp_path / "rep" / "report.md").is_file() and (tmp_path / "rep" / "report.json").is_file()
