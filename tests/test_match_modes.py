"""Answer-matching modes are an open registry (gaia_eval.registry.MATCH_MODES): a mode added the way another
package adds one (a built-in entry, or an entry point of the group `gaia_eval.match_modes`) decides `match_answer`,
`check-answer --mode` (and its --jsonl lines) and a bench task of that kind; an unknown mode is one line and exit 2
naming every mode."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gaia_eval.bench import TaskSpec, load_suite, run_suite
from gaia_eval.cli import cli
from gaia_eval.errors import UsageError
from gaia_eval.registry import MATCH_MODES
from gaia_eval.scoring.answers import MatchMode, Verdict, match_answer
from gaia_eval.scoring.answers.match import mode_names
from tests.registry_support import fake_entry_points

BUILT_IN = ("gaia", "gaia-official", "lenient", "exact", "f1", "numeric", "contains", "regex", "fuzzy", "semantic",
            "judge")


def _initials(expected: str, answer: str | None, options: Mapping[str, Any]) -> Verdict:
    """Whether the answer's words start with the expected letters ("NYC" for "New York City")."""
    letters = "".join(word[0] for word in (answer or "").split())
    if not options.get("strict_case", False):
        letters, expected = letters.casefold(), expected.casefold()
    correct = letters == expected
    return Verdict(correct, float(correct), f"initials: {letters!r} {'==' if correct else '!='} {expected!r}",
                   letters)


INITIALS = MatchMode(_initials, frozenset({"strict_case"}))  # an option no built-in mode takes


def backwards(expected: str, answer: str | None, options: Mapping[str, Any]) -> Verdict:
    """A bare matching function (no MatchMode around it): the answer is the expected text reversed."""
    correct = (answer or "").strip()[::-1] == expected
    return Verdict(correct, float(correct), f"backwards: reversed {'equals' if correct else 'differs from'} "
                   f"{expected!r}", answer or "")


NOT_A_MODE = 42


@pytest.fixture
def initials(monkeypatch: pytest.MonkeyPatch) -> None:
    """`initials` registered beside the built-in modes, as gaia_eval/registry.py would list it."""
    monkeypatch.setitem(MATCH_MODES.builtin, "initials", "tests.test_match_modes:INITIALS")
    monkeypatch.setattr(MATCH_MODES, "_loaded", {})


def _check_answer(*args: str) -> Any:
    return CliRunner().invoke(cli, ["check-answer", *args])


def test_a_registered_mode_decides_match_answer_with_its_own_options(initials: None) -> None:
    assert match_answer("NYC", "New York City", "initials").correct
    assert not match_answer("NYC", "New Jersey City", "initials").correct
    assert not match_answer("NYC", "new york city", "initials", strict_case=True).correct
    either = match_answer("LA | NYC", "new york city", "initials", alternatives_sep="|")
    assert either.correct and "best of 2" in either.explanation and either.mode == "initials"
    with pytest.raises(UsageError, match=r"unknown option\(s\) threshold for match mode 'initials'.*accepts: "
                                         r"alternatives_sep, strict_case"):
        match_answer("NYC", "New York City", "initials", threshold=0.5)
    assert match_answer("1927", "1927", "gaia").mode == "gaia"  # the built-ins are untouched
    assert mode_names() == (*BUILT_IN, "initials")


def test_check_answer_offers_and_uses_a_registered_mode(initials: None, tmp_path: Path) -> None:
    assert "|semantic|judge|initials]" in _check_answer("--help").output
    result = _check_answer("--mode", "initials", "NYC", "New York City")
    assert result.exit_code == 0 and result.output.startswith("CORRECT (mode initials, score 1.00)"), result.output
    assert _check_answer("--mode", "initials", "NYC", "Nowhere Near").exit_code == 1
    answers = tmp_path / "answers.jsonl"
    answers.write_text("\n".join(json.dumps(line) for line in [
        {"id": 1, "expected": "NYC", "answer": "new york city", "mode": "initials"},
        {"id": 2, "expected": "NYC", "answer": "new york city", "mode": "initials", "strict_case": True},
        {"id": 3, "expected": "NYC", "answer": "new york city", "mode": "initials", "options": {"strict_case": True}},
        {"id": 4, "expected": "1927", "answer": "FINAL ANSWER: 1927"},
    ]) + "\n")
    result = _check_answer("--jsonl", str(answers))
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert [(row["id"], row["mode"], row["correct"]) for row in rows] == [
        (1, "initials", True), (2, "initials", False), (3, "initials", False), (4, "gaia", True)]


def test_a_package_adds_modes_through_entry_points(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake_entry_points(monkeypatch, MATCH_MODES, backwards="tests.test_match_modes:backwards",
                      acronym="tests.test_match_modes:INITIALS",
                      gaia="tests.test_match_modes:backwards")  # a plugin cannot replace a built-in mode
    assert mode_names() == (*BUILT_IN, "acronym", "backwards")
    assert match_answer("abc", "cba", "backwards").correct
    assert not match_answer("abc", "abc", "backwards").correct
    assert match_answer("abc", "abc", "gaia").correct
    with pytest.raises(UsageError, match="unknown option"):  # a bare function takes no options
        match_answer("abc", "cba", "backwards", extract=True)
    result = _check_answer("--mode", "backwards", "abc", "cba")
    assert result.exit_code == 0 and "mode backwards" in result.output, result.output
    answers = tmp_path / "answers.jsonl"
    answers.write_text(json.dumps({"expected": "NYC", "answer": "new york city", "mode": "acronym"}) + "\n"
                       + json.dumps({"expected": "NYC", "answer": "new york city", "mode": "acronym",
                                     "strict_case": True}) + "\n")
    result = _check_answer("--jsonl", str(answers))
    assert [json.loads(line)["correct"] for line in result.output.splitlines()] == [True, False], result.output
    assert TaskSpec(id="t", prompt="p", kind="backwards", expected="abc").judge("cba").passed


def test_a_bench_task_may_be_of_any_registered_mode(initials: None, tmp_path: Path) -> None:
    task = TaskSpec(id="city", prompt="Which city?", kind="initials", expected=["NYC", "LA"])
    assert task.judge("Los Angeles").passed and not task.judge("San Francisco").passed
    suite = tmp_path / "cities.jsonl"
    suite.write_text(json.dumps({"id": "c1", "prompt": "Spell out NYC", "kind": "initials", "expected": "NYC"}) + "\n"
                     + json.dumps({"id": "c2", "prompt": "Spell out LA", "kind": "f1", "expected": "Los Angeles"}))
    report = run_suite(lambda prompt: "New York City" if "NYC" in prompt else "in Los Angeles", load_suite(suite))
    assert report.success_rate == 1.0 and report.n == 2


def test_an_unknown_mode_is_one_line_exit_2_naming_every_mode(initials: None, tmp_path: Path) -> None:
    result = _check_answer("--mode", "initals", "NYC", "New York City")
    assert result.exit_code == 2
    line, = result.output.splitlines()
    assert "'initals'" in line and all(f"'{name}'" in line for name in (*BUILT_IN, "initials")), line
    answers = tmp_path / "answers.jsonl"
    answers.write_text(json.dumps({"expected": "NYC", "answer": "New York City", "mode": "initals"}) + "\n")
    result = _check_answer("--jsonl", str(answers))
    assert result.exit_code == 2
    line, = result.output.splitlines()
    assert "answers.jsonl" in line and "unknown match mode 'initals'" in line
    assert f"use one of: {', '.join((*BUILT_IN, 'initials'))}" in line
    with pytest.raises(ValueError, match=r"unknown kind 'initals'.*exact, gaia, gaia-official.*judge, initials"):
        TaskSpec(id="t", prompt="p", kind="initals", expected="NYC")


def test_an_entry_point_that_is_not_a_mode_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_entry_points(monkeypatch, MATCH_MODES, broken="tests.test_match_modes:NOT_A_MODE",
                      missing="tests.test_match_modes:NO_SUCH_NAME")
    result = _check_answer("--mode", "broken", "a", "a")
    assert result.exit_code == 2 and "is a int, not a mode" in result.output
    assert len(result.output.splitlines()) == 1
    result = _check_answer("--mode", "missing", "a", "a")
    assert result.exit_code == 2 and "has no 'NO_SUCH_NAME'" in result.output
    assert len(result.output.splitlines()) == 1
