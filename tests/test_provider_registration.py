"""Adding a provider is two files, as ARCHITECTURE.md says ("Where a new thing goes", Provider): its module
(tests/echo_api.py, the `Provider` protocol) and its registration (one `ProviderEntry`, here put among the built-in
entries of gaia_eval.registry.PROVIDERS, with its key variable and its prices). Nothing else names it: generate,
groundtruth, summarize, batch-experiment, eval --judge and bench's react runner accept it and charge its own
prices, and an unknown provider is one line and exit 2 listing it among the known ones."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gaia_eval.cli import cli
from gaia_eval.generation.llm.scenario import make_brief
from gaia_eval.providers.pricing import batch_quote, lookup_price
from gaia_eval.registry import PROVIDERS, BatchPrice, ModelPrice, ProviderEntry, provider_names
from gaia_eval.stages.generate import run_generate
from tests import echo_api
from tests.test_generate_llm import SEED, TARGET, email_reply

# One call of the echo provider: 1,000 input tokens at $2 and 200 output tokens at $10 per million.
CALL_COST = 1_000 * 2.0 / 1e6 + 200 * 10.0 / 1e6


@pytest.fixture
def echo(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The registration: the echo provider's ProviderEntry among the built-in ones, its key in the environment."""
    monkeypatch.setitem(PROVIDERS.builtin, "echo", echo_api.ENTRY)
    monkeypatch.setattr(PROVIDERS, "_loaded", {})
    monkeypatch.setenv("ECHO_API_KEY", "echo-key")
    monkeypatch.chdir(tmp_path)
    echo_api.CALLS.clear()
    echo_api.SCRIPT.clear()


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


def _calls() -> list[tuple[str, str | None]]:
    return [(model, key) for model, key, _ in echo_api.CALLS]


def test_every_command_that_takes_a_provider_lists_it(echo: None) -> None:
    assert provider_names()[-1] == "echo" and "echo" in provider_names(follows_prompts=True)
    for command in ("generate", "groundtruth", "summarize"):
        result = run(command, "--help")
        assert result.exit_code == 0 and "|echo]" in result.output.replace("\n", "").replace(" ", ""), command


def test_summarize_calls_it_with_its_key_and_charges_its_price(echo: None, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("Ana: we ship on Friday.\nBo: I will write the release notes.\n")
    result = run("summarize", "-i", "notes.txt", "--styles", "brief", "--provider", "echo", "--model", "echo-large",
                 "-o", "summary.json")
    assert result.exit_code == 0, result.output
    assert _calls() == [("echo-large", "echo-key")]
    written = json.loads((tmp_path / "summary.json").read_text())
    assert (written["cost_status"], written["cost_usd"]) == ("priced", pytest.approx(CALL_COST))


def test_generate_writes_a_document_with_its_cost(echo: None, tmp_path: Path) -> None:
    echo_api.SCRIPT.append(email_reply(make_brief("email", "project_update", 1, SEED, TARGET)))
    result = run("generate", "--email", "--email-types", "project_update", "-o", "docs", "--seed", str(SEED),
                 "--target-tokens", str(TARGET), "--provider", "echo", "--model", "echo-large", "--quiet")
    assert result.exit_code == 0, result.output
    assert _calls() == [("echo-large", "echo-key")]
    meta = json.loads((tmp_path / "docs" / "project_update_email.meta.json").read_text())
    assert meta["generator"] == "echo:echo-large" and meta["cost_usd"] == pytest.approx(CALL_COST)


def test_groundtruth_batch_experiment_and_the_judge_use_it_at_its_price(echo: None, tmp_path: Path) -> None:
    run_generate("meeting", tmp_path / "docs", types=["standup"], count_per_type=1, seed=2)
    result = run("groundtruth", "-d", "docs", "-o", "gt_llm", "--quiet", "--provider", "echo", "--model", "echo-xl")
    assert result.exit_code == 0, result.output
    assert _calls() == [("echo-xl", "echo-key")]  # an alias of echo-large: its price
    gt = json.loads((tmp_path / "gt_llm" / "standup_meeting.summarization.groundtruth.json").read_text())
    assert gt["cost_usd"] == pytest.approx(CALL_COST)

    assert run("groundtruth", "-d", "docs", "-o", "gt", "--quiet").exit_code == 0  # offline, for the experiment
    config = {"experiments": [{"name": "echo-run", "provider": "echo", "model": "echo-large-20261101"}]}
    (tmp_path / "config.json").write_text(json.dumps(config))
    echo_api.CALLS.clear()
    result = run("batch-experiment", "-c", "config.json", "-i", "gt", "-o", "exp", "--quiet")
    assert result.exit_code == 0, result.output
    calls = len(echo_api.CALLS)
    assert calls > 0 and set(_calls()) == {("echo-large-20261101", "echo-key")}  # a dated snapshot: same price
    experiment = json.loads(next((tmp_path / "exp").rglob("echo-run*.experiment.json")).read_text())
    assert experiment["totals"]["cost_status"] == "priced"
    assert experiment["totals"]["cost_usd"] == pytest.approx(calls * CALL_COST)
    assert "Echo list price (test)" in json.dumps(experiment)  # the source of the figure travels with it

    echo_api.CALLS.clear()
    result = run("eval", "-d", "exp", "-o", "ev", "--judge", "echo:echo-large")
    assert result.exit_code == 0, result.output
    assert set(_calls()) == {("echo-large", "echo-key")}
    assert f"judge cost of these evaluations ${len(echo_api.CALLS) * CALL_COST:.4f}" in result.output


def test_the_react_runner_takes_it(echo: None) -> None:
    result = run("bench", "arithmetic", "--runner", "react:echo:echo-large", "--max-steps", "1")
    assert result.exit_code in (0, 1), result.output  # run (the echo answers are wrong), not refused
    assert echo_api.CALLS and set(_calls()) == {("echo-large", "echo-key")}


def test_its_missing_key_and_an_unknown_provider_are_one_line_exit_2(echo: None, monkeypatch, tmp_path) -> None:
    (tmp_path / "notes.txt").write_text("Ana: we ship on Friday.\n")
    monkeypatch.delenv("ECHO_API_KEY")
    result = run("summarize", "-i", "notes.txt", "--provider", "echo", "--model", "echo-large")
    assert result.exit_code == 2 and "ECHO_API_KEY" in result.output and len(result.output.splitlines()) == 1
    for args in (["summarize", "-i", "notes.txt", "--provider", "ehco", "--model", "m"],
                 ["generate", "--email", "-o", "docs", "--provider", "ehco", "--model", "m"],
                 ["groundtruth", "-d", ".", "-o", "gt", "--provider", "ehco", "--model", "m"],
                 ["eval", "-d", ".", "-o", "ev", "--judge", "ehco:m"]):
        result = run(*args)
        assert result.exit_code == 2, (args, result.output)
        line, = result.output.splitlines()
        assert "ehco" in line and "anthropic" in line and "echo" in line, line
    (tmp_path / "config.json").write_text(json.dumps({"experiments": [{"name": "a", "provider": "ehco",
                                                                       "model": "m"}]}))
    result = run("batch-experiment", "-c", "config.json", "-i", ".", "-o", "exp")
    assert result.exit_code == 2 and "ehco" in result.output and "echo" in result.output
    assert echo_api.CALLS == []


def test_an_unpriced_model_of_it_is_unpriced_and_its_batch_price_is_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    batch = BatchPrice(0.25, source="Echo batch terms (test)", date="2026-11")
    monkeypatch.setitem(PROVIDERS.builtin, "echo", ProviderEntry(echo_api.ENTRY.factory, prices=echo_api.ENTRY.prices,
                                                                 batch_price=batch))
    monkeypatch.setattr(PROVIDERS, "_loaded", {})
    assert lookup_price("echo", "echo-small").status == "unpriced"
    assert lookup_price("echo", "echo-large-mini").status == "unpriced"  # not a dated snapshot of echo-large
    assert lookup_price("openai", "echo-large").status == "unpriced"  # its price is its own provider's
    quote = batch_quote(lookup_price("echo", "ECHO-LARGE"))
    assert quote.entry is not None and (quote.entry.input_per_mtok, quote.entry.output_per_mtok) == (0.5, 2.5)
    assert "Echo batch terms (test)" in quote.describe()
    # The built-in cloud providers keep their shipped prices and batch terms.
    assert batch_quote(lookup_price("openai", "gpt-4o-mini")).entry.input_per_mtok == pytest.approx(0.075)


@pytest.mark.parametrize(("prices", "message"), [
    ((ModelPrice("echo-large", -1.0, 1.0, "list", "2026-11"),), "needs non-negative prices, a source and a date"),
    ((ModelPrice("echo-large", 1.0, 1.0, "", "2026-11"),), "needs non-negative prices, a source and a date"),
    ((ModelPrice("e", 1.0, 1.0, "list", "2026-11"), ModelPrice("E", 2.0, 2.0, "list", "2026-11")), "priced twice"),
])
def test_a_bad_declared_price_is_one_line_naming_the_provider(echo: None, monkeypatch, tmp_path, prices,
                                                             message) -> None:
    monkeypatch.setitem(PROVIDERS.builtin, "echo", ProviderEntry(echo_api.ENTRY.factory, key_env="ECHO_API_KEY",
                                                                 prices=prices))
    (tmp_path / "notes.txt").write_text("Ana: we ship on Friday.\n")
    result = run("summarize", "-i", "notes.txt", "--styles", "brief", "--provider", "echo", "--model", "echo-large")
    assert result.exit_code == 2
    line, = result.output.splitlines()
    assert message in line and "provider 'echo'" in line and "prices[" in line, line


def test_a_built_in_provider_cannot_price_a_model_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    from gaia_eval.errors import ConfigError

    again = ModelPrice("GPT-4o", 1.0, 1.0, "elsewhere", "2026-11")
    monkeypatch.setitem(PROVIDERS.builtin, "openai", replace(PROVIDERS.entry("openai"), prices=(again,)))
    monkeypatch.setattr(PROVIDERS, "_loaded", {})
    with pytest.raises(ConfigError, match=r"'GPT-4o' is priced twice \(the ProviderEntry of provider 'openai', "
                                          r"gaia_eval/data/pricing\.json\)"):
        lookup_price("openai", "gpt-4o")
