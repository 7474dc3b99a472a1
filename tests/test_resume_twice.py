"""Resume under harder conditions than one kill (issue 19): a run killed twice in a row pays each item once, and
journaled answers made under another system prompt are never kept under the new one (the changed prompt is
paid again), whether they come from a killed run's journal or a finished experiment file."""

from __future__ import annotations

import itertools
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
from gaia_eval.stages.groundtruth.run import run_groundtruth
from tests.fakeserver import last_user_text


@pytest.fixture(scope="module")
def qa_gt(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("qa")
    run_generate("meeting", root / "docs", types=["standup", "planning"], count_per_type=2, seed=11)
    run_groundtruth(input_dir=root / "docs", use_case="qa", output_dir=root / "gt")
    return root / "gt"


class _Gate:
    """The server answers requests up to `allowed` (counted over the server's life) and holds later ones until
    `allowed` is raised or `release` is set, so a run is certainly mid-way when the test kills it."""

    def __init__(self, server, allowed: int) -> None:
        self.allowed = allowed
        self.release = threading.Event()
        self._count = itertools.count()
        server.responder = self.respond

    def respond(self, req):
        number = next(self._count)
        while number >= self.allowed and not self.release.wait(0.01):
            pass
        system = next((m["content"] for m in req["body"]["messages"] if m["role"] == "system"), "")
        return {"text": f"[{system[:12]}] {last_user_text(req['body'])[-20:]}"}


def _config(path: Path, base_url: str, system_prompt: str) -> Path:
    path.write_bytes(orjson.dumps({"experiments": [
        {"name": "local", "provider": "vllm", "model": "m", "base_url": base_url, "system_prompt": system_prompt},
    ]}))
    return path


def _args(config: Path, gt: Path, out: Path) -> list[str]:
    return [sys.executable, "-m", "gaia_eval", "batch-experiment", "-c", str(config), "-i", str(gt), "-o", str(out),
            "--concurrency", "4", "--quiet"]


def _lines(journal: Path) -> int:
    return journal.read_bytes().count(b"\n") if journal.exists() else 0


def _run_until_journaled(args: list[str], journal: Path, lines: int) -> None:
    """Start the run, wait until `lines` items are journaled (an observed event, not a delay), then kill -9."""
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while _lines(journal) < lines:
        assert proc.poll() is None, f"the run ended before {lines} items were journaled: {proc.stderr.read()}"
        assert time.monotonic() < deadline, f"{lines} items were never journaled (have {_lines(journal)})"
        time.sleep(0.005)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()


def test_a_run_killed_twice_pays_each_item_once(fake_llm, qa_gt, tmp_path):
    """Killed once, resumed and killed again: the third run calls only what neither killed run journaled. A
    second run that dropped the first run's journal lines (a journal reopened for writing from empty) would
    be killed holding only its own, and the third would pay the first run's items again."""
    gate = _Gate(fake_llm, allowed=6)
    config = _config(tmp_path / "c.json", fake_llm.openai_base_url, "Answer briefly.")
    out = tmp_path / "exp"
    journal = out / "local.experiment.journal.jsonl"
    _run_until_journaled(_args(config, qa_gt, out), journal, 6)
    assert _lines(journal) == 6
    gate.allowed = fake_llm.request_count + 6  # the second run gets 6 answers, then waits
    _run_until_journaled(_args(config, qa_gt, out), journal, 12)
    assert _lines(journal) == 12  # the first run's six and the second's six
    gate.release.set()
    final = subprocess.run(_args(config, qa_gt, out), capture_output=True, text=True, timeout=300)
    assert final.returncode == 0, final.stderr
    items = read_artifact(out / "local.experiment.json", Experiment).items
    assert all(i.status == "ok" for i in items) and len(items) > 12
    assert f"{len(items) - 12} requests sent to models" in final.stdout, final.stdout


def test_journaled_answers_under_another_system_prompt_are_paid_again(fake_llm, qa_gt, tmp_path):
    """Killed under prompt A with items journaled, resumed under prompt B: every item is asked under B; none of
    A's journaled answers is kept (the journal's fingerprints say which prompt made them)."""
    gate = _Gate(fake_llm, allowed=6)
    out = tmp_path / "exp"
    journal = out / "local.experiment.journal.jsonl"
    _run_until_journaled(_args(_config(tmp_path / "a.json", fake_llm.openai_base_url, "PROMPT-A"), qa_gt, out),
                         journal, 6)
    gate.release.set()
    before = fake_llm.request_count
    resumed = subprocess.run(_args(_config(tmp_path / "b.json", fake_llm.openai_base_url, "PROMPT-B"), qa_gt, out),
                             capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    items = read_artifact(out / "local.experiment.json", Experiment).items
    assert all(i.answer.startswith("[PROMPT-B]") for i in items), [i.answer for i in items]
    assert f"{len(items)} requests sent to models" in resumed.stdout
    assert fake_llm.request_count - before >= len(items)


def test_a_finished_experiment_under_another_system_prompt_is_paid_again(fake_llm, qa_gt, tmp_path):
    from gaia_eval.stages.experiment.run import run_batch_experiment

    out = tmp_path / "exp"
    run_batch_experiment(_config(tmp_path / "a.json", fake_llm.openai_base_url, "PROMPT-A"), qa_gt, out,
                         show_progress=False)
    paid = fake_llm.request_count
    _Gate(fake_llm, allowed=10**9)  # answers with the system prompt it was sent
    summary = run_batch_experiment(_config(tmp_path / "b.json", fake_llm.openai_base_url, "PROMPT-B"), qa_gt, out,
                                   show_progress=False)
    items = read_artifact(out / "local.experiment.json", Experiment).items
    assert summary.redone == 1 and fake_llm.request_count == paid + len(items)
    assert all(i.answer.startswith("[PROMPT-B]") for i in items)
