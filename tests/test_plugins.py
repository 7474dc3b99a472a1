"""A provider added by another package (tests/plugins: a module and its entry point in a dist-info, nothing in
gaia_eval/) is listed and used by every command that takes a provider, through the real CLI in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gaia_eval.stages.generate import run_generate

PLUGINS = Path(__file__).resolve().parent / "plugins"


@pytest.fixture
def run(fake_llm, tmp_path: Path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(PLUGINS), os.environ.get("PYTHONPATH", "")]),
           "ACME_BASE_URL": fake_llm.openai_base_url, "GAIA_EVAL_CACHE_DIR": str(tmp_path / "cache")}

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "gaia_eval", *args], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=300)

    return run


def _models_asked(fake_llm) -> set[str]:
    return {r["body"].get("model") for r in fake_llm.requests}


def test_every_command_that_takes_a_provider_lists_the_plugin(run):
    for command in ("generate", "groundtruth", "summarize"):
        result = run(command, "--help")
        assert result.returncode == 0 and "|acme]" in result.stdout.replace("\n", "").replace(" ", ""), command
    unknown = run("summarize", "-i", "x.txt", "--provider", "nosuch")
    assert unknown.returncode == 2 and "acme" in unknown.stderr  # the plugin is among the choices offered


def test_summarize_generate_and_groundtruth_call_the_plugin_provider(run, fake_llm, tmp_path: Path):
    doc = tmp_path / "meeting.txt"
    doc.write_text("Ana: we ship on Friday.\nBo: I will write the release notes.\n")
    result = run("summarize", "-i", str(doc), "--styles", "brief", "--provider", "acme", "--model", "acme-small")
    assert result.returncode == 0, result.stderr
    assert _models_asked(fake_llm) == {"acme-small"}
    fake_llm.reset()
    result = run("generate", "--email", "--email-types", "project_update", "-o", "docs", "--quiet",
                 "--provider", "acme", "--model", "acme-writer")
    assert result.returncode != 2, result.stderr  # accepted (the echo server's documents may fail their checks)
    assert _models_asked(fake_llm) == {"acme-writer"}
    fake_llm.reset()
    run_generate("meeting", tmp_path / "offline", types=["standup"], count_per_type=1, seed=2)
    result = run("groundtruth", "-d", "offline", "-o", "gt", "--quiet", "--provider", "acme", "--model", "acme-gt")
    assert result.returncode != 2, result.stderr
    assert _models_asked(fake_llm) == {"acme-gt"}


def test_batch_experiment_and_the_judge_use_the_plugin_provider(run, fake_llm, tmp_path: Path):
    run_generate("meeting", tmp_path / "docs", types=["standup"], count_per_type=1, seed=2)
    assert run("groundtruth", "-d", "docs", "-o", "gt", "--quiet").returncode == 0
    config = {"experiments": [{"name": "acme-run", "provider": "acme", "model": "acme-large"}]}
    (tmp_path / "config.json").write_text(json.dumps(config))
    result = run("batch-experiment", "-c", "config.json", "-i", "gt", "-o", "exp", "--quiet")
    assert result.returncode == 0, result.stderr
    assert _models_asked(fake_llm) == {"acme-large"}
    experiment = json.loads(next((tmp_path / "exp").rglob("acme-run*.experiment.json")).read_text())
    assert experiment["totals"]["cost_status"] != "unpriced"  # a local plugin provider costs $0, like a preset
    fake_llm.reset()
    result = run("eval", "-d", "exp", "-o", "ev", "--judge", "acme:acme-judge")
    assert result.returncode != 2, result.stderr
    assert _models_asked(fake_llm) == {"acme-judge"}
