"""Every model call's per-attempt timeout is an option: batch-experiment's config `timeout_s`, eval's
--judge-timeout (tests/test_judge.py), and --timeout of generate, groundtruth and summarize with an LLM; a call
silent for longer is retried."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import gaia_eval.concurrency as concurrency
import gaia_eval.generation.llm.session as session
import gaia_eval.stages.experiment.solvers as solvers
from gaia_eval.cli import cli
from gaia_eval.stages.generate import run_generate


@pytest.fixture(autouse=True)
def key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-timeouts")


@pytest.fixture()
def timeouts(monkeypatch) -> list[float | None]:
    """The per-attempt timeout of every model call the stages make (a spy on call_with_retries)."""
    seen: list[float | None] = []

    async def spy(make_call, gate, policy, **kwargs):
        seen.append(policy.timeout_s)
        return await concurrency.call_with_retries(make_call, gate, policy, **kwargs)

    monkeypatch.setattr(session, "call_with_retries", spy)
    monkeypatch.setattr(solvers, "call_with_retries", spy)
    return seen


def _llm(fake_llm) -> list[str]:
    return ["--provider", "openai", "--model", "gpt-4o-mini", "--base-url", fake_llm.openai_base_url]


def test_generate_and_groundtruth_with_an_llm_take_timeout(fake_llm, tmp_path: Path, timeouts):
    CliRunner().invoke(cli, ["generate", "--email", "--email-types", "project_update", "-o", str(tmp_path / "d"),
                             "--quiet", "--timeout", "7", *_llm(fake_llm)])
    assert timeouts and set(timeouts) == {7.0}
    run_generate("meeting", tmp_path / "docs", types=["standup"], count_per_type=1, seed=2)
    timeouts.clear()
    CliRunner().invoke(cli, ["groundtruth", "-d", str(tmp_path / "docs"), "-o", str(tmp_path / "gt"), "--quiet",
                             "--timeout", "9", *_llm(fake_llm)])
    assert timeouts and set(timeouts) == {9.0}
    timeouts.clear()
    CliRunner().invoke(cli, ["groundtruth", "-d", str(tmp_path / "docs"), "-o", str(tmp_path / "gt2"), "--quiet",
                             *_llm(fake_llm)])
    assert timeouts and set(timeouts) == {300.0}  # the default for long LLM replies


def test_summarize_retries_a_call_silent_past_its_timeout(fake_llm, tmp_path: Path, timeouts):
    doc = tmp_path / "meeting.txt"
    doc.write_text("Ana: we ship on Friday.\nBo: I will write the release notes.\n")
    fake_llm.hang_s = 120
    fake_llm.script([{"fault": "hang"}])  # the first call never answers
    result = CliRunner().invoke(cli, ["summarize", "-i", str(doc), "--styles", "brief", "--timeout", "0.5",
                                      *_llm(fake_llm)])
    assert result.exit_code == 0, result.output
    assert timeouts == [0.5] and fake_llm.request_count == 2 and fake_llm.requests[0]["fault"] == "hang"
