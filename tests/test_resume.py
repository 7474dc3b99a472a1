"""Kill -9 at any moment, start again: the run finishes, reuses journaled items, and no file is ever torn."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import orjson
import pytest

from gaia_eval.artifacts.experiment import Experiment
from gaia_eval.artifacts.store import read_artifact
from gaia_eval.stages.generate import run_generate
from gaia_eval.stages.groundtruth import run_groundtruth

TIMING_FIELDS = {"latency_s", "time_to_success_s"}


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "gaia_eval", *args]


class TornFileWatcher(threading.Thread):
    """Parses every JSON artifact in a folder, over and over, while a run writes into it."""

    def __init__(self, folder: Path) -> None:
        super().__init__(daemon=True)
        self.folder = folder
        self.stop = threading.Event()
        self.torn: list[str] = []
        self.reads = 0

    def run(self) -> None:
        while not self.stop.is_set():
            for path in list(self.folder.rglob("*.json")):
                try:
                    data = path.read_bytes()
                except FileNotFoundError:
                    continue
                try:
                    orjson.loads(data)
                    self.reads += 1
                except orjson.JSONDecodeError:
                    self.torn.append(path.name)
            time.sleep(0.005)


@pytest.fixture()
def qa_groundtruth(tmp_path: Path) -> Path:
    run_generate("meeting", tmp_path / "docs", types=["standup", "planning", "client_call"], count_per_type=2, seed=4)
    run_groundtruth(input_dir=tmp_path / "docs", use_case="qa", output_dir=tmp_path / "gt")
    return tmp_path / "gt"


def _config(path: Path, base_url: str) -> Path:
    path.write_bytes(
        orjson.dumps(
            {"experiments": [{"name": "local-model", "provider": "vllm", "model": "m", "base_url": base_url}]}
        )
    )
    return path


def _comparable(exp: Experiment) -> list[dict]:
    return [{k: v for k, v in i.model_dump(mode="json").items() if k not in TIMING_FIELDS} for i in exp.items]


def test_sigkill_mid_run_then_resume_calls_only_missing_items(fake_llm, qa_groundtruth: Path, tmp_path: Path):
    fake_llm.latency_s = 0.05
    config = _config(tmp_path / "c.json", fake_llm.openai_base_url)
    out = tmp_path / "exp"
    out.mkdir()
    args = _cli("batch-experiment", "-c", str(config), "-i", str(qa_groundtruth), "-o", str(out), "--concurrency", "4", "--quiet")
    watcher = TornFileWatcher(out)
    watcher.start()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    journal = out / "local-model.experiment.journal.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if journal.exists() and journal.read_bytes().count(b"\n") >= 12:
            break
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    journaled = journal.read_bytes().count(b"\n")
    assert not (out / "local-model.experiment.json").exists()
    calls_before = fake_llm.request_count

    resumed = subprocess.run(args, capture_output=True, text=True, timeout=120)
    watcher.stop.set()
    watcher.join()
    assert resumed.returncode == 0, resumed.stderr
    assert watcher.torn == [] and watcher.reads > 0
    final = read_artifact(out / "local-model.experiment.json", Experiment)
    total = len(final.items)
    resumed_calls = fake_llm.request_count - calls_before
    # Only the missing items are called (a journaled item is never called again).
    assert resumed_calls == total - journaled
    assert not journal.exists()

    # The resumed file equals an uninterrupted run's, timing fields aside.
    clean = tmp_path / "clean"
    done = subprocess.run(
        _cli("batch-experiment", "-c", str(config), "-i", str(qa_groundtruth), "-o", str(clean), "--quiet", "--no-cache"),
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert _comparable(read_artifact(clean / "local-model.experiment.json", Experiment)) == _comparable(final)


@pytest.mark.parametrize("stage", ["generate", "groundtruth"])
def test_killed_offline_stages_never_leave_a_torn_file(tmp_path: Path, stage: str):
    docs = tmp_path / "docs"
    if stage == "generate":
        args = _cli("generate", "--meeting-transcript", "-o", str(docs), "--count-per-type", "3", "--target-tokens", "3000")
        watched = docs
    else:
        run_generate("meeting", docs, count_per_type=2)
        args = _cli("groundtruth", "-d", str(docs), "-u", "qa", "-o", str(tmp_path / "gt"))
        watched = tmp_path / "gt"
    watched.mkdir(parents=True, exist_ok=True)
    watcher = TornFileWatcher(watched)
    watcher.start()
    for delay in (0.3, 0.5, 0.8):
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    final = subprocess.run(args, capture_output=True, text=True, timeout=120)
    watcher.stop.set()
    watcher.join()
    assert final.returncode == 0, final.stderr
    assert watcher.torn == []
    for path in watched.rglob("*.json"):
        orjson.loads(path.read_bytes())


def test_ctrl_c_stops_cleanly_and_the_same_command_resumes(fake_llm, qa_groundtruth: Path, tmp_path: Path):
    fake_llm.latency_s = 0.05
    config = _config(tmp_path / "c.json", fake_llm.openai_base_url)
    out = tmp_path / "exp"
    args = _cli("batch-experiment", "-c", str(config), "-i", str(qa_groundtruth), "-o", str(out), "--concurrency", "4", "--quiet")
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    journal = out / "local-model.experiment.journal.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (journal.exists() and journal.read_bytes().count(b"\n") >= 8):
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert "interrupted" in stderr and "Traceback" not in stderr
    lines = journal.read_bytes().splitlines()
    assert lines and all(orjson.loads(line) for line in lines)  # every journaled item is whole
    calls_before = fake_llm.request_count
    resumed = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    final = read_artifact(out / "local-model.experiment.json", Experiment)
    assert fake_llm.request_count - calls_before == len(final.items) - len(lines)
