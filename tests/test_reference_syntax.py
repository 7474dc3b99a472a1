"""The reference tool's command-line shapes work as written (issue 11): lists as words or commas, and more."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from gaia_eval.cli import cli
from gaia_eval.cli_lists import fold_list_words


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_list_words_fold_into_one_value():
    opts = {"--meeting-types"}
    assert fold_list_words(["--meeting-types", "a", "b", "--count", "2"], opts) == ["--meeting-types", "a,b", "--count", "2"]
    assert fold_list_words(["--meeting-types", "a,b", "-o", "x"], opts) == ["--meeting-types", "a,b", "-o", "x"]
    assert fold_list_words(["-o", "a", "b"], opts) == ["-o", "a", "b"]


def test_meeting_types_as_words_and_commas_make_the_same_documents(tmp_path: Path):
    words = run("generate", "--meeting-transcript", "-o", str(tmp_path / "w"), "--meeting-types", "standup",
                "planning", "--count-per-type", "1", "--quiet")
    commas = run("generate", "--meeting-transcript", "-o", str(tmp_path / "c"), "--meeting-types", "standup,planning",
                 "--count-per-type", "1", "--quiet")
    assert words.exit_code == 0 and commas.exit_code == 0, words.output + commas.output
    names = sorted(p.name for p in (tmp_path / "w").glob("*.txt"))
    assert names == sorted(p.name for p in (tmp_path / "c").glob("*.txt")) and len(names) == 2


def test_unknown_list_name_is_a_usage_error_listing_valid_names(tmp_path: Path):
    result = CliRunner().invoke(cli, ["generate", "--email", "-o", str(tmp_path), "--email-types", "customer_support",
                                      "bogus"])
    assert result.exit_code == 2
    assert "bogus" in result.output and "project_update" in result.output
