"""One run per output folder: a second run stops at once with one line naming the holder, and nothing is paid
twice; the lock dies with its holder, kill -9 included."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import orjson
from click.testing import CliRunner

from gaia_eval.cli import cli
from gaia_eval.stages.generate import run_generate
from gaia_eval.stages.groundtruth.run import run_groundtruth

HOLDER = """
import sys
from pathlib import Path
from gaia_eval.artifacts.lock import folder_lock
with folder_lock(Path(sys.argv[1])):
    print("held", flush=True)
    sys.stdin.read()
"""


def _hold(folder: Path) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)
    assert proc.stdout.readline().strip() == "held"  # the observed event: the lock is taken
    return proc


def _project(tmp_path: Path) -> Path:
    run_generate("meeting", tmp_path / "docs", types=["standup"], seed=1)
    run_groundtruth(input_dir=tmp_path / "docs", use_case="summarization", output_dir=tmp_path / "gt")
    config = tmp_path / "c.json"
    config.write_bytes(orjson.dumps({"experiments": [{"name": "lead", "provider": "baseline", "model": "lead"}]}))
    return config


def test_a_second_run_on_a_busy_folder_stops_with_one_line_naming_the_holder(tmp_path):
    config = _project(tmp_path)
    holder = _hold(tmp_path / "exp")
    try:
        result = CliRunner().invoke(cli, ["batch-experiment", "-c", str(config), "-i", str(tmp_path / "gt"),
                                          "-o", str(tmp_path / "exp"), "--quiet"])
        assert result.exit_code == 2
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in result.output
        assert f"pid {holder.pid}" in lines[0] and "exp" in lines[0] and "another output folder" in lines[0]
        assert not (tmp_path / "exp").exists()  # refused before anything was written
    finally:
        holder.communicate("")
    assert holder.returncode == 0
    result = CliRunner().invoke(cli, ["batch-experiment", "-c", str(config), "-i", str(tmp_path / "gt"),
                                      "-o", str(tmp_path / "exp"), "--quiet"])
    assert result.exit_code == 0, result.output  # released on exit


def test_a_lock_whose_holder_was_killed_is_free_at_once(tmp_path):
    config = _project(tmp_path)
    holder = _hold(tmp_path / "exp")
    os.kill(holder.pid, signal.SIGKILL)
    assert holder.wait() == -signal.SIGKILL
    result = CliRunner().invoke(cli, ["batch-experiment", "-c", str(config), "-i", str(tmp_path / "gt"),
                                      "-o", str(tmp_path / "exp"), "--quiet"])
    assert result.exit_code == 0, result.output


def test_every_stage_that_writes_a_folder_holds_it(tmp_path):
    _project(tmp_path)
    (tmp_path / "exp").mkdir()
    commands = {
        "gen": ["generate", "--meeting-transcript", "-o", str(tmp_path / "gen")],
        "gt2": ["groundtruth", "-d", str(tmp_path / "docs"), "-o", str(tmp_path / "gt2")],
        "ev": ["eval", "-d", str(tmp_path / "exp"), "-o", str(tmp_path / "ev")],
    }
    for folder, args in commands.items():
        holder = _hold(tmp_path / folder)
        try:
            result = CliRunner().invoke(cli, args)
            assert result.exit_code == 2 and f"pid {holder.pid}" in result.output, (args, result.output)
        finally:
            holder.communicate("")


def test_two_concurrent_runs_on_one_folder_never_pay_an_item_twice(fake_llm, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("GAIA_EVAL_NO_CACHE", "1")  # what is measured here is the lock, not the cache
    run_generate("meeting", tmp_path / "docs", types=["standup", "planning"], count_per_type=2, seed=4)
    run_groundtruth(input_dir=tmp_path / "docs", use_case="qa", output_dir=tmp_path / "gt")
    fake_llm.latency_s = 0.05
    config = tmp_path / "c.json"
    config.write_bytes(orjson.dumps({"experiments": [
        {"name": "gpt", "provider": "openai", "model": "gpt-4o-mini", "base_url": fake_llm.openai_base_url, "max_concurrency": 2},
    ]}))
    args = [sys.executable, "-m", "gaia_eval", "batch-experiment", "-c", str(config), "-i", str(tmp_path / "gt"),
            "-o", str(tmp_path / "exp"), "--quiet"]
    procs = [subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=300) for p in procs]
    codes = sorted(p.returncode for p in procs)
    assert (tmp_path / "exp" / "gpt.experiment.json").exists(), outs
    items = len(orjson.loads((tmp_path / "exp" / "gpt.experiment.json").read_bytes())["items"])
    if codes == [0, 2]:  # they overlapped: one ran, the other was turned away
        assert any("is writing this folder" in err for _, err in outs), outs
        assert fake_llm.request_count == items
    else:  # the second started after the first had finished: it found everything done
        assert codes == [0, 0], outs
        assert fake_llm.request_count == items
