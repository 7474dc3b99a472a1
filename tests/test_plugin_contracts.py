"""A package's extension that misbehaves breaks only itself, and says so in one line (exit 2) or as that item's
error: a module that calls sys.exit() while imported, a provider factory that raises (in a batch the healthy
experiment beside it still runs), a UseCase whose fields are wrong (checked when it is first loaded, before any
paid stage), a match mode or a bench runner that raises, and a use case's own scorer returning any of the values
`eval --scorer` accepts, or failing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gaia_eval.artifacts.evaluation import CriterionResult
from gaia_eval.cli import cli
from gaia_eval.registry import BENCH_RUNNERS, MATCH_MODES, PROVIDERS, SCORERS, USE_CASES
from gaia_eval.scoring.criteria import Criterion
from gaia_eval.scoring.scorers import Scorer, ScorerFailed, ScoringInput
from tests.registry_support import fake_entry_points

PACKAGE = '''
import sys
from gaia_eval.registry import ProviderEntry
from gaia_eval.scoring.answers import Verdict
from gaia_eval.scoring.criteria import Criterion
from gaia_eval.scoring.scorers import Scorer
from gaia_eval.usecases import UseCase

def factory(settings, api_key):
    raise RuntimeError("the acme SDK\\nis missing")

BROKEN = ProviderEntry("acme_contract_plugin:factory", local=True)

def boom_mode(expected, answer, options):
    raise ZeroDivisionError("boom")

def exiting_runner(prompt):
    sys.exit(4)

SLOTS = {("comparative", False): "summaries", ("standalone", False): "summaries_standalone"}
BULLETS = UseCase(name="bullets_case", title="B", answers="bullets", scorers=SLOTS)
TYPO = UseCase(name="typo_case", title="T", answers="summaries", scorers={("standalone", False): "summariez"})
RENAMED = UseCase(name="other_name", title="R", answers="summaries", scorers=SLOTS)

def half(item):
    return 0.5

def raises(item):
    raise ValueError("no idea")

ONE = Scorer("acme_one", (Criterion("acme_c", "Acme C"),), half)
RAISING = Scorer("acme_raising", (Criterion("acme_c", "Acme C"),), raises)
RAISES = UseCase(name="raises_case", title="Raises", answers="summaries",
                 scorers={("standalone", False): "acme_raising"})
'''


@pytest.fixture
def package(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    (tmp_path / "acme_contract_plugin.py").write_text(PACKAGE)
    (tmp_path / "exiting_gaia_plugin.py").write_text("import sys\nsys.exit('the plugin quit')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "notes.txt").write_text("Ana: we ship on Friday.\nBo: I will write the release notes.\n")
    return tmp_path


def run(*args: str) -> Any:
    result = CliRunner().invoke(cli, list(args))
    assert not isinstance(result.exception, SystemExit) or result.exception.code in (0, 1, 2), result.exception
    return result


def one_line(result: Any) -> str:
    line, = result.output.splitlines()
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    return line


def test_a_plugin_that_calls_sys_exit_while_imported_is_one_line_not_the_end_of_the_cli(package: Path, monkeypatch):
    fake_entry_points(monkeypatch, PROVIDERS, quitter="exiting_gaia_plugin:ENTRY")
    line = one_line(run("summarize", "-i", "docs/notes.txt", "--provider", "quitter", "--model", "m"))
    assert "SystemExit: the plugin quit" in line and "entry point quitter" in line and "fix:" in line


def test_a_provider_factory_that_raises_is_one_line(package: Path, monkeypatch):
    fake_entry_points(monkeypatch, PROVIDERS, acme="acme_contract_plugin:BROKEN")
    line = one_line(run("summarize", "-i", "docs/notes.txt", "--provider", "acme", "--model", "m"))
    assert "provider 'acme' (acme_contract_plugin:factory) failed to start: RuntimeError: the acme SDK is missing" \
        in line


def test_one_broken_experiment_does_not_stop_the_healthy_one_beside_it(package: Path, monkeypatch):
    fake_entry_points(monkeypatch, PROVIDERS, acme="acme_contract_plugin:BROKEN")
    config = {"experiments": [{"name": "broken", "provider": "acme", "model": "m"},
                              {"name": "healthy", "provider": "fake", "model": "echo"}]}
    (package / "config.json").write_text(json.dumps(config))
    result = run("batch-experiment", "-c", "config.json", "-i", "docs", "-o", "exp", "--quiet", "--no-cache")
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and "broken: provider 'acme'" in result.output
    assert "RuntimeError: the acme SDK is missing" in result.output
    assert [p.name for p in (package / "exp").rglob("*.experiment.json")] == ["healthy.experiment.json"]


@pytest.mark.parametrize(("name", "said"), [
    ("bullets_case", "answers='bullets' is not a kind gaia-eval knows"),
    ("typo_case", "unknown scorer 'summariez'"),
    ("renamed", "is named 'other_name'"),
])
def test_a_use_case_is_checked_when_first_loaded_before_any_paid_stage(package: Path, monkeypatch, name, said):
    fake_entry_points(monkeypatch, USE_CASES, bullets_case="acme_contract_plugin:BULLETS",
                      typo_case="acme_contract_plugin:TYPO", renamed="acme_contract_plugin:RENAMED")
    for args in (["groundtruth", "-d", "docs", "-u", name, "-o", "gt", "--provider", "fake", "--model", "echo"],
                 ["create-template", "-d", "docs", "-u", name, "-o", "tpl"]):
        line = one_line(run(*args))
        assert said in line and f"entry point {name}" in line, line
    assert not (package / "gt").exists() and not (package / "tpl").exists()


def test_a_match_mode_that_raises_is_one_line_in_check_answer_and_that_task_s_error_in_bench(package: Path,
                                                                                             monkeypatch):
    fake_entry_points(monkeypatch, MATCH_MODES, boom="acme_contract_plugin:boom_mode")
    line = one_line(run("check-answer", "--mode", "boom", "42", "42"))
    assert "match mode 'boom' (acme_contract_plugin:boom_mode) failed: ZeroDivisionError: boom" in line
    tasks = [{"id": "a", "prompt": "What is 2 + 2?", "kind": "boom", "expected": "4"},
             {"id": "b", "prompt": "What is 3 + 3?", "kind": "numeric", "expected": 6}]
    (package / "suite.jsonl").write_text("".join(json.dumps(t) + "\n" for t in tasks))
    result = run("bench", "suite.jsonl", "--runner", "calculator", "-o", "out.json")
    assert "Traceback" not in result.output and result.exit_code in (0, 1), result.output
    report = json.loads((package / "out.json").read_text())
    by_id = {t["id"]: t for t in report["tasks"]}
    assert "ZeroDivisionError: boom" in by_id["a"]["attempts"][0]["error"] and by_id["b"]["passed"] is True


def test_a_runner_that_calls_sys_exit_fails_its_task_not_the_bench(package: Path, monkeypatch):
    fake_entry_points(monkeypatch, BENCH_RUNNERS, quitter="acme_contract_plugin:exiting_runner")
    result = run("bench", "arithmetic", "--runner", "quitter", "-o", "out.json")
    assert "Traceback" not in result.output and "runner error: SystemExit: 4" in result.output
    report = json.loads((package / "out.json").read_text())
    assert report["tasks"] and all(t["attempts"][0]["error"] == "SystemExit: 4" for t in report["tasks"])


CRITERIA = (Criterion("a", excellent=0.9, good=0.6, fair=0.3), Criterion("b"))


@pytest.mark.parametrize(("returned", "expected"), [
    ({"a": 0.95, "b": None}, {"a": "Excellent", "b": "N/A"}),
    ({"a": 0.5}, {"a": "Fair", "b": "N/A"}),  # a declared criterion left out is N/A
    ([CriterionResult(criterion="b", rating="Good", measure="m", value=0.7, explanation="x")],
     {"b": "Good", "a": "N/A"}),
    (([CriterionResult(criterion="a", rating="Poor", measure="m", value=0.1, explanation="x")], True),
     {"a": "Poor", "b": "N/A"}),
])
def test_a_grader_takes_whatever_eval_scorer_takes(returned, expected):
    scorer = Scorer("s", CRITERIA, lambda item: returned)
    results, _ = scorer.grade(ScoringInput(answer="x", expected=None))
    assert {r.criterion: r.rating for r in results} == expected


def test_a_one_criterion_grader_may_return_a_bare_value_rated_by_its_thresholds():
    scorer = Scorer("s", (Criterion("only", excellent=0.9, good=0.8, fair=0.7),), lambda item: 0.85)
    (result,), passed = scorer.grade(ScoringInput(answer="x", expected=None))
    assert (result.criterion, result.rating, result.value, passed) == ("only", "Good", 0.85, None)
    assert Scorer("t", ("bare",), lambda item: None).grade(ScoringInput(answer="", expected=None))[0][0].rating == "N/A"


@pytest.mark.parametrize("returned", [{"a": 1.5}, {"a": float("nan")}, {"zzz": 0.5}, "text", {"a": True}])
def test_a_grader_value_outside_the_contract_is_that_item_s_error(returned):
    with pytest.raises(ScorerFailed):
        Scorer("s", CRITERIA, lambda item: returned).grade(ScoringInput(answer="x", expected=None))


def test_eval_makes_a_failing_grader_that_item_s_error_and_goes_on(package: Path, monkeypatch):
    fake_entry_points(monkeypatch, SCORERS, acme_raising="acme_contract_plugin:RAISING")
    monkeypatch.setattr(USE_CASES, "_plugins", {"raises_case": "acme_contract_plugin:RAISES"})
    result = run("create-template", "-d", "docs", "-u", "raises_case", "-o", "tpl")
    assert result.exit_code == 0, result.output
    path = next((package / "tpl").glob("*.template.json"))
    template = json.loads(path.read_text())
    template["records"][0]["response"] = "Executive summary: we ship on Friday.\nDetailed summary: Bo writes notes."
    path.write_text(json.dumps(template))
    result = run("eval", "-d", "tpl", "-o", "ev")
    assert "Traceback" not in result.output and "scorer 'acme_raising' failed on item" in result.output
    assert "ValueError: no idea" in result.output
    evaluation = json.loads(next((package / "ev").rglob("*.eval.json")).read_text())
    (item,) = evaluation["items"]
    assert item["status"] == "error" and "ValueError: no idea" in item["error"]


def test_eval_scorer_rates_a_scorer_s_criteria_by_their_own_thresholds_as_a_grader_does():
    from gaia_eval.scoring.extra import ExtraScorer

    strict = Scorer("s", (Criterion("a", excellent=0.99, good=0.9, fair=0.5),), lambda item: {"a": 0.95})
    graded, _ = strict.grade(ScoringInput(answer="x", expected=None))
    extra = ExtraScorer("s", "s", "src", strict.score, criteria=strict.criterion_ids, declared=strict.criteria)
    (beside, ), _ = extra.score(ScoringInput(answer="x", expected=None))
    assert graded[0].rating == beside.rating == "Good"  # the default thresholds would say Excellent
