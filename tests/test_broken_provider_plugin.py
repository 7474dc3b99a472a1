"""One installed package whose `gaia_eval.providers` entry point cannot load (its module is gone) breaks only
itself: every command that takes an LLM provider still accepts and calls the others, an unknown name is still the
one-line "unknown provider" listing them, and naming the broken one is one line saying why it cannot load (also when
its module raises while imported, for a provider or a use case)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gaia_eval.cli import cli
from gaia_eval.registry import PROVIDERS, provider_names
from tests import echo_api
from tests.registry_support import fake_entry_points


@pytest.fixture
def broken_beside_echo(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake_entry_points(monkeypatch, PROVIDERS, broken="nosuch_gaia_plugin_module:ENTRY", echo="tests.echo_api:ENTRY")
    monkeypatch.setenv("ECHO_API_KEY", "echo-key")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("Ana: we ship on Friday.\nBo: I will write the release notes.\n")
    echo_api.CALLS.clear()
    echo_api.SCRIPT.clear()


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args))


def test_the_broken_entry_is_listed_but_does_not_hide_the_others(broken_beside_echo: None) -> None:
    assert {"broken", "echo"} <= set(provider_names(follows_prompts=True))
    assert "baseline" not in provider_names(follows_prompts=True)


def test_commands_that_take_an_llm_provider_still_call_a_working_one(broken_beside_echo: None) -> None:
    for args in (["generate", "--email", "--email-types", "project_update", "-o", "docs", "--quiet"],
                 ["groundtruth", "-d", ".", "-o", "gt", "--quiet"]):
        result = run(*args, "--provider", "echo", "--model", "echo-large")
        assert "nosuch_gaia_plugin_module" not in result.output, (args, result.output)
        assert result.exit_code != 2, (args, result.output)
    assert {model for model, _, _ in echo_api.CALLS} == {"echo-large"}
    result = run("bench", "arithmetic", "--runner", "react:echo:echo-react", "--max-steps", "1")
    assert result.exit_code in (0, 1), result.output


def test_unknown_and_broken_names_are_one_line_exit_2(broken_beside_echo: None) -> None:
    for args in (["generate", "--email", "-o", "docs", "--provider", "ehco", "--model", "m"],
                 ["groundtruth", "-d", ".", "-o", "gt", "--provider", "ehco", "--model", "m"],
                 ["eval", "-d", ".", "-o", "ev", "--judge", "ehco:m"]):
        result = run(*args)
        line, = result.output.splitlines()
        assert result.exit_code == 2 and "ehco" in line and "echo" in line, (args, line)
    result = run("eval", "-d", ".", "-o", "ev", "--judge", "broken:m")
    line, = result.output.splitlines()
    assert result.exit_code == 2 and "entry point broken = 'nosuch_gaia_plugin_module:ENTRY'" in line, line
    assert echo_api.CALLS == []


def test_a_plugin_module_that_fails_while_imported_is_one_line_not_a_traceback(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from gaia_eval.registry import USE_CASES

    (tmp_path / "boom_gaia_plugin.py").write_text("raise RuntimeError('the plugin\\nbroke')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("Ana: we ship on Friday.\n")
    fake_entry_points(monkeypatch, PROVIDERS, boom="boom_gaia_plugin:ENTRY")
    fake_entry_points(monkeypatch, USE_CASES, boomcase="boom_gaia_plugin:USE_CASE")
    assert "boom" in provider_names(follows_prompts=True)  # listed; it fails only where named
    for args in (["summarize", "-i", "notes.txt", "--provider", "boom", "--model", "m"],
                 ["eval", "-d", ".", "-o", "ev", "--judge", "boom:m"],
                 ["create-template", "-d", ".", "-u", "boomcase", "-o", "tpl"]):
        result = run(*args)
        line, = result.output.splitlines()
        assert result.exit_code == 2 and "RuntimeError: the plugin broke" in line, (args, result.output)
        assert "boom_gaia_plugin" in line and "fix:" in line and "entry point boom" in line, line
