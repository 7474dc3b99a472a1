"""Settings from the environment that crashed deep inside an SDK (issue 29) are one line naming the variable: a
key with a CR, LF, space or non-ASCII character (never echoed: it is a secret), a base URL that does not parse."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gaia_eval.cli import cli
from gaia_eval.errors import ConfigError
from gaia_eval.providers.registry import ProviderSettings, api_key_for, chosen_base_url

SECRET = "sk-secret-0123456789"


@pytest.mark.parametrize("key, what", [(SECRET + "\r", "a carriage return"), (SECRET + "\n", "a line break"),
                                       (SECRET[:5] + "\u2019" + SECRET[5:], "a non-ASCII character"),
                                       (SECRET + " x", "a space")])
def test_a_malformed_key_names_the_variable_and_never_shows_the_key(monkeypatch, key: str, what: str) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", key)
    with pytest.raises(ConfigError) as caught:
        api_key_for(ProviderSettings("openai", "gpt-4o-mini"))
    line = str(caught.value)
    assert "OPENAI_API_KEY is malformed" in line and what in line
    assert SECRET[:8] not in line and SECRET[-6:] not in line


def test_a_well_formed_key_is_used_as_given(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    assert api_key_for(ProviderSettings("openai", "gpt-4o-mini")) == SECRET


def test_a_base_url_from_the_environment_that_does_not_parse_is_one_line(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://[::1")
    with pytest.raises(ConfigError, match="OPENAI_BASE_URL"):
        chosen_base_url(ProviderSettings("openai", "gpt-4o-mini"))
    monkeypatch.setenv("OPENAI_BASE_URL", "http://[::1]:8080/v1")
    assert chosen_base_url(ProviderSettings("openai", "gpt-4o-mini")) == "http://[::1]:8080/v1"


def test_batch_experiment_with_a_malformed_key_stops_before_any_file(monkeypatch, tmp_path: Path) -> None:
    rows = [{"item_id": "m0", "source": "Ann: we ship on Friday.", "references": ["They ship on Friday."]}]
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert CliRunner().invoke(cli, ["import-groundtruth", str(tmp_path / "rows.jsonl"), "-o",
                                    str(tmp_path / "gt")]).exit_code == 0
    (tmp_path / "c.json").write_text(json.dumps({"experiments": [{"name": "x", "provider": "openai",
                                                                  "model": "gpt-4o-mini"}]}))
    monkeypatch.setenv("OPENAI_API_KEY", SECRET + "\r")
    result = CliRunner().invoke(cli, ["batch-experiment", "-c", str(tmp_path / "c.json"), "-i",
                                      str(tmp_path / "gt" / "consolidated_summarization_groundtruth.json"),
                                      "-o", str(tmp_path / "out"), "--quiet"])
    assert result.exit_code == 2 and "OPENAI_API_KEY is malformed" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and SECRET not in result.output
    assert not (tmp_path / "out").exists()
