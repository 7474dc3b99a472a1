"""check-answer's input and output contract (issue 29): its JSON is valid JSON whatever an answer holds (C1
controls, ESC, bidi overrides come out as JSON escapes, still inert on a terminal); standard input is read like a
file (a BOM dropped, nothing to check is exit 2); a user's regex that backtracks for ever is one line, not a hang."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gaia_eval.cli import cli
from gaia_eval.safe_text import json_line

HOSTILE = "Paris \x1b[2J\x1b]0;pwned\x07 \x85\x9b31m \u202eedoc \x7f \u2028 end"


def test_every_jsonl_result_is_valid_json_holding_the_answer_as_given(tmp_path: Path) -> None:
    rows = [{"id": f"r{i}", "expected": "Paris", "answer": HOSTILE[: 10 + i * 5]} for i in range(8)]
    (tmp_path / "a.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = CliRunner().invoke(cli, ["check-answer", "--jsonl", str(tmp_path / "a.jsonl")])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == len(rows)
    assert [json.loads(line)["id"] for line in lines] == [r["id"] for r in rows]
    for line in lines:  # nothing a terminal would obey is printed raw
        assert not any(c in line for c in "\x1b\x07\x85\x9b\u202e\x7f")


def test_check_answer_json_round_trips_the_compared_text() -> None:
    result = CliRunner().invoke(cli, ["check-answer", "--json", "Paris", HOSTILE])
    parsed = json.loads(result.stdout)
    assert result.exit_code in (0, 1) and HOSTILE.strip().startswith(parsed["extracted"][:5])
    assert json.loads(json_line({"a": HOSTILE}))["a"] == HOSTILE


def test_empty_standard_input_is_refused_like_an_empty_file(tmp_path: Path) -> None:
    (tmp_path / "empty.jsonl").write_text("")
    from_file = CliRunner().invoke(cli, ["check-answer", "--jsonl", str(tmp_path / "empty.jsonl")])
    from_stdin = CliRunner().invoke(cli, ["check-answer", "--jsonl", "-"], input="\n  \n")
    assert from_file.exit_code == from_stdin.exit_code == 2
    assert "holds no lines to check" in from_stdin.stderr and len(from_stdin.stderr.strip().splitlines()) == 1


def test_standard_input_with_a_bom_is_read_like_a_file_with_one() -> None:
    line = json.dumps({"expected": "Paris", "answer": "paris"})
    result = CliRunner().invoke(cli, ["check-answer", "--jsonl", "-"], input="\ufeff" + line + "\n")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["correct"] is True


def test_a_backtracking_regex_is_one_line_not_a_hang(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from gaia_eval.scoring.answers import modes

    monkeypatch.setattr(modes, "REGEX_TIMEOUT_S", 0.05)  # the bound, not a speed claim: the search never ends
    rows = [{"expected": "^19(27|28)$", "answer": "1927", "mode": "regex", "fullmatch": True},
            {"expected": "(x+x+)+y", "answer": "x" * 5000, "mode": "regex"}]
    (tmp_path / "a.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = CliRunner().invoke(cli, ["check-answer", "--jsonl", str(tmp_path / "a.jsonl")])
    assert result.exit_code == 2
    assert "line 2: the regex '(x+x+)+y' ran over" in result.stderr and "catastrophic backtracking" in result.stderr
    assert json.loads(result.stdout.splitlines()[0])["correct"] is True


def test_bench_regex_kind_is_bounded_too(monkeypatch: pytest.MonkeyPatch) -> None:
    from gaia_eval.bench.checkers import check_regex
    from gaia_eval.errors import UsageError
    from gaia_eval.scoring.answers import modes

    monkeypatch.setattr(modes, "REGEX_TIMEOUT_S", 0.05)
    assert check_regex("the year 1927", r"19(27|28)").passed
    with pytest.raises(UsageError, match="catastrophic backtracking"):
        check_regex("x" * 5000, "(x+x+)+y")
