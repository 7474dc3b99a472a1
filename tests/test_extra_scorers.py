"""Extra scorers (`eval --scorer`): a user's function or a registered scorer rates every item beside the use
case's own criteria. Its values are rated by documented thresholds, its failures are that item's error with a
reason (never a crash), it never changes the grade, and the evaluation's inputs follow its source file."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import orjson
import pytest

from gaia_eval.artifacts.evaluation import CriterionResult, Evaluation
from gaia_eval.artifacts.store import read_artifact
from gaia_eval.errors import ConfigError
from gaia_eval.scoring.extra import DEFAULT_THRESHOLDS, load_extra_scorers, summarize_extra
from gaia_eval.scoring.scorers import Scorer, ScoringInput
from gaia_eval.stages.eval.run import run_eval
from gaia_eval.stages.experiment.run import run_batch_experiment
from gaia_eval.stages.generate import run_generate
from gaia_eval.stages.groundtruth.run import run_groundtruth
from gaia_eval.stages.report.run import run_report

ROOT = Path(__file__).resolve().parent.parent
USER_SCORER = '''
def brevity(item):
    """1.0 for an executive summary of at most 40 words, less the longer it gets."""
    return min(1.0, 40 / max(len(item.answer.executive_summary.split()), 1))


def checks(item):
    return {"mentions_money": 1.0 if "$" in item.answer.detailed_summary else 0.0, "tone": None}


def vandal(item):
    item.answer.executive_summary = ""
    return 0.0


def picky(item):
    if "budget" not in item.source_text.lower():
        raise ValueError("cannot read this one")
    return 1.7
'''


@pytest.fixture(scope="module")
def experiments(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two baseline experiments on two generated meetings, with embedded ground truth."""
    root = tmp_path_factory.mktemp("extra")
    run_generate("meeting", root / "docs", types=["standup", "budget_planning"], seed=3)
    run_groundtruth(input_dir=root / "docs", use_case="summarization", output_dir=root / "gt")
    config = root / "config.json"
    config.write_bytes(orjson.dumps({"experiments": [{"name": "textrank", "provider": "baseline", "model": "textrank"},
                                                     {"name": "lead", "provider": "baseline", "model": "lead"}]}))
    run_batch_experiment(config, root / "gt", root / "exp", show_progress=False)
    return root / "exp"


@pytest.fixture()
def scorer_file(tmp_path: Path) -> Path:
    path = tmp_path / "my_scorer.py"
    path.write_text(USER_SCORER)
    return path


def _evaluation(folder: Path, name: str = "textrank") -> Evaluation:
    return read_artifact(next(folder.rglob(f"{name}.experiment.eval.json")), Evaluation)


def _item(**answer) -> ScoringInput:
    from gaia_eval.artifacts.groundtruth import Summaries

    return ScoringInput(answer=Summaries(**answer), expected=None, source_text="Ticket #1234: the printer is on fire.")


def _fn(value, name="fn"):
    def fn(_item):
        if isinstance(value, BaseException):
            raise value
        return value

    fn.__name__ = name
    return fn


def _scored(value, **attrs):
    fn = _fn(value)
    for k, v in attrs.items():
        setattr(fn, k, v)
    import gaia_eval.scoring.extra as extra

    scorer = extra.ExtraScorer("fn", "x:fn", "src", fn, extra._thresholds(getattr(fn, "thresholds", None), "x", "f"))
    return scorer.score(_item(executive_summary="Printer on fire (#1234)."))


@pytest.mark.parametrize(("value", "rating"), [
    (1.0, "Excellent"), (0.85, "Excellent"), (0.8499, "Good"), (0.67, "Good"), (0.6699, "Fair"), (0.33, "Fair"),
    (0.3299, "Poor"), (0.0, "Poor"), (True, "Excellent"), (Fraction(1, 2), "Fair"),
])
def test_a_value_is_rated_by_the_documented_default_thresholds(value, rating):
    assert DEFAULT_THRESHOLDS == (0.85, 0.67, 0.33)
    (result,), errors = _scored(value)
    assert (result.criterion, result.rating, errors) == ("fn", rating, [])
    assert result.value == float(value)


def test_thresholds_declared_on_the_function_replace_the_default():
    (result,), _ = _scored(0.9, thresholds=(0.95, 0.9, 0.5))
    assert result.rating == "Good"
    with pytest.raises(ConfigError, match="thresholds"):
        _scored(0.9, thresholds=(0.5, 0.9, 0.1))  # not from highest to lowest


@pytest.mark.parametrize(("value", "reason"), [
    (1.7, "is 1.7, not a value 0-1"), (-0.1, "is -0.1, not a value 0-1"), (math.nan, "is nan, not a value 0-1"),
    ("0.5", "returned str; return a float 0-1"), (ZeroDivisionError("division by zero"),
                                                   "raised ZeroDivisionError: division by zero"),
    (SystemExit(3), "raised SystemExit: 3"),
])
def test_a_bad_value_or_an_exception_is_that_criterion_s_error_with_its_reason(value, reason):
    (result,), errors = _scored(value)
    assert result.rating == "error" and result.value is None and reason in result.explanation
    assert len(errors) == 1 and reason in errors[0]


def test_a_dict_gives_one_criterion_per_key_none_is_na_and_one_bad_key_spares_the_others():
    results, errors = _scored({"a": 0.9, "b": None, "c": 2})
    assert [(r.criterion, r.rating) for r in results] == [("a", "Excellent"), ("b", "N/A"), ("c", "error")]
    assert errors == ["criterion 'c' is 2, not a value 0-1"]


def test_a_scorer_s_own_criterion_results_are_kept_as_it_rated_them():
    own = CriterionResult(criterion="fire", rating="Fair", measure="m", value=12.0, explanation="why")
    (result,), errors = _scored(([own], None))  # a Scorer's (criteria, passed)
    assert (result.criterion, result.rating, result.value, result.explanation, errors) == ("fire", "Fair", 12.0,
                                                                                             "why", [])


def test_the_summary_counts_model_errors_as_poor_and_scorer_errors_apart():
    from gaia_eval.artifacts.evaluation import ExtraCriterionResult, ItemEvaluation

    def item(status, *ratings):
        return ItemEvaluation(item_id="i", source="s", status=status, extra_criteria=[
            ExtraCriterionResult(scorer="fn", criterion="fn", rating=r, value=v, explanation="") for r, v in ratings])

    scorers = load_extra_scorers(["gaia_eval.scoring.extra:summarize_extra"])  # any function: only its name counts
    name = scorers[0].name
    items = [item("scored", ("Excellent", 1.0)), item("scored", ("Fair", 0.5)), item("error"),
             item("scored", ("error", None)), item("scored", ("N/A", None))]
    items = [i.model_copy(update={"extra_criteria": [c.model_copy(update={"scorer": name}) for c in i.extra_criteria]})
             for i in items]
    (summary,) = summarize_extra(items, scorers)
    assert summary.counts == {"Excellent": 1, "Good": 0, "Fair": 1, "Poor": 1, "N/A": 1, "error": 1}
    assert summary.mean_value == pytest.approx(0.5)  # (1.0 + 0.5 + 0 for the model's error) / 3


def test_extra_criteria_never_change_the_grade_and_sit_beside_the_use_case_s_own(experiments, scorer_file, tmp_path):
    run_eval(experiment_dir=experiments, output_dir=tmp_path / "plain", show_progress=False)
    summary = run_eval(experiment_dir=experiments, output_dir=tmp_path / "extra", show_progress=False,
                       scorers=[f"{scorer_file}:brevity", f"{scorer_file}:checks"])
    assert summary.scorer_errors == []
    plain, extra = _evaluation(tmp_path / "plain"), _evaluation(tmp_path / "extra")
    assert extra.grade == plain.grade and extra.criteria == plain.criteria
    assert [i.criteria for i in extra.items] == [i.criteria for i in plain.items]
    assert [(c.scorer, c.criterion) for c in extra.extra_criteria] == [
        ("brevity", "brevity"), ("checks", "mentions_money"), ("checks", "tone")]
    assert extra.extra_criteria[2].counts.get("N/A") == len(extra.items)
    for item in extra.items:
        brevity = item.extra_criteria[0]
        words = len(next(i for i in read_experiment_items(experiments) if i["item_id"] == item.item_id)[
            "summaries"]["executive_summary"].split())
        assert brevity.value == round(min(1.0, 40 / words), 4)
    # Without --scorer the file is what it was: no extra_criteria key anywhere.
    text = next((tmp_path / "plain").rglob("textrank.experiment.eval.json")).read_text()
    assert "extra_criteria" not in text


def read_experiment_items(experiments: Path) -> list[dict]:
    return json.loads(next(experiments.rglob("textrank.experiment.json")).read_text())["items"]


def test_the_inputs_follow_the_scorers_source_file(experiments, scorer_file, tmp_path):
    out = tmp_path / "ev"
    spec = [f"{scorer_file}:brevity"]
    assert run_eval(experiment_dir=experiments, output_dir=out, show_progress=False).made == 2
    assert run_eval(experiment_dir=experiments, output_dir=out, show_progress=False, scorers=spec).redone == 2
    assert run_eval(experiment_dir=experiments, output_dir=out, show_progress=False, scorers=spec).skipped == 2
    scorer_file.write_text(USER_SCORER.replace("40 /", "30 /"))  # the scorer changed: scored again
    assert run_eval(experiment_dir=experiments, output_dir=out, show_progress=False, scorers=spec).redone == 2
    assert _evaluation(out).items[0].extra_criteria[0].value is not None


def test_a_failing_scorer_is_each_item_s_error_and_the_evaluation_is_never_current(experiments, scorer_file, tmp_path):
    out = tmp_path / "ev"
    summary = run_eval(experiment_dir=experiments, output_dir=out, show_progress=False,
                       scorers=[f"{scorer_file}:picky", f"{scorer_file}:brevity"])
    evaluation = _evaluation(out)
    assert all(i.extra_criteria[0].rating == "error" for i in evaluation.items)
    assert all(i.extra_criteria[1].rating != "error" for i in evaluation.items)  # the other scorer still rated
    assert len(summary.scorer_errors) == 2 * len(evaluation.items)
    assert any("textrank: scorer 'picky' failed on item" in line and "raised ValueError: cannot read this one" in line
               for line in summary.scorer_errors)
    assert any("is 1.7, not a value 0-1" in line for line in summary.scorer_errors)
    assert evaluation.extra_criteria[0].counts["error"] == len(evaluation.items)
    again = run_eval(experiment_dir=experiments, output_dir=out, show_progress=False,
                     scorers=[f"{scorer_file}:picky", f"{scorer_file}:brevity"])
    assert again.skipped == 0 and len(again.scorer_errors) == len(summary.scorer_errors)


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests" / "plugins"),
                                                       os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "gaia_eval", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


@pytest.mark.parametrize(("spec", "says"), [
    ("nosuch", "unknown scorer 'nosuch'"),
    ("missing.py:f", "scorer file not found: missing.py"),
    ("my_scorer.py:nosuch", "my_scorer.py has no 'nosuch'"),
    ("broken.py:f", "cannot load scorer 'broken.py:f': SyntaxError"),
    ("my_scorer.py:USER", "is a str, not a function or a Scorer"),
    ("nosuchmodule:f", "cannot import scorer 'nosuchmodule:f'"),
])
def test_a_bad_spec_is_one_line_naming_scorer_and_exit_2(experiments, tmp_path, spec, says):
    (tmp_path / "my_scorer.py").write_text(USER_SCORER + "USER = 'me'\n")
    (tmp_path / "broken.py").write_text("def f(item:\n")
    result = _cli("eval", "-d", str(experiments), "-o", "ev", "--scorer", spec, cwd=tmp_path)
    assert result.returncode == 2 and says in result.stderr, result.stderr
    assert "--scorer" in result.stderr and "fix:" in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and not (tmp_path / "ev").exists()


def test_two_scorers_with_one_name_are_refused(tmp_path):
    (tmp_path / "a.py").write_text("def score(item):\n    return 1.0\n")
    (tmp_path / "b.py").write_text("def score(item):\n    return 0.0\n")
    with pytest.raises(ConfigError, match="two scorers are named 'score'"):
        load_extra_scorers([f"{tmp_path}/a.py:score", f"{tmp_path}/b.py:score"])


def test_the_cli_scores_with_a_file_s_function_and_a_package_s_scorer_and_the_report_shows_them(experiments,
                                                                                                   scorer_file):
    folder = scorer_file.parent
    result = _cli("eval", "-d", str(experiments), "-o", "ev", "--scorer", "my_scorer.py:brevity",
                  "--scorer", "acme_ticket_ref", cwd=folder)
    assert result.returncode == 0, result.stderr
    evaluation = _evaluation(folder / "ev")
    assert [(c.scorer, c.criterion) for c in evaluation.extra_criteria] == [("brevity", "brevity"),
                                                                            ("acme_ticket_ref", "ticket_ref")]
    assert evaluation.extra_criteria[1].counts.get("N/A") == len(evaluation.items)  # meetings have no ticket number
    run_report(folder / "ev", folder / "report.md")
    report = (folder / "report.md").read_text()
    assert "### Extra scorers (not in the grade)" in report and "| brevity | acme_ticket_ref: ticket_ref |" in report
    cell = evaluation.extra_criteria[0]
    assert f", mean {cell.mean_value:.2f}" in report


def test_a_failing_scorer_exits_1_with_one_line_per_item_naming_scorer_and_item(experiments, scorer_file):
    result = _cli("eval", "-d", str(experiments), "-o", "ev", "--scorer", "my_scorer.py:picky",
                  cwd=scorer_file.parent)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if "scorer 'picky' failed on item" in line]
    assert len(lines) == 4 and any("raised ValueError: cannot read this one" in line for line in lines)
    assert "a scorer failed on 4 item(s)" in result.stderr


def test_a_use_case_may_name_its_scorer_as_module_attr():
    from gaia_eval.scoring.scorers import resolve_scorer

    assert resolve_scorer("gaia_eval.scoring.scorers:QA").name == "qa"
    with pytest.raises(ConfigError, match="is not a Scorer"):
        resolve_scorer("gaia_eval.scoring.extra:summarize_extra")


def test_a_scorer_declares_its_thresholds(tmp_path):
    path = tmp_path / "s.py"
    path.write_text("from gaia_eval.scoring.scorers import Scorer\n"
                    "S = Scorer('strict', ('x',), lambda item: {'x': 0.9}, thresholds=(0.95, 0.9, 0.5))\n")
    (scorer,) = load_extra_scorers([f"{path}:S"])
    assert scorer.thresholds == (0.95, 0.9, 0.5) and scorer.criteria == ("x",)
    (result,), _ = scorer.score(_item())
    assert result.rating == "Good"
    assert isinstance(Scorer, type)


def test_the_viewer_shows_extra_criteria_beside_the_grade(experiments, scorer_file, tmp_path):
    from gaia_eval.visualize import data

    out = tmp_path / "ev"
    run_eval(experiment_dir=experiments, output_dir=out, show_progress=False, scorers=[f"{scorer_file}:checks"])
    (use_case,) = data.dashboard(out)["use_cases"]
    textrank = next(m for m in use_case["models"] if m["experiment_name"] == "textrank")
    evaluation = _evaluation(out)
    assert textrank["grade"] == round(evaluation.grade.quality_score, 1)
    assert textrank["extra"][0].startswith("checks: mentions_money ") and textrank["extra"][1] == "checks: tone N/A"
    item_id = evaluation.items[0].item_id
    view = data.item_view(out, experiments, "summarization", item_id)
    shown = next(m for m in view["models"] if m["experiment_name"] == "textrank")
    assert [(c["label"], c["rating"]) for c in shown["extra"]] == [
        (f"checks: {c.criterion}", c.rating) for c in evaluation.items[0].extra_criteria]
    assert all(c["criterion"] in {"mentions_money", "tone"} for c in shown["extra"])
    assert not any(c["criterion"] == "tone" for c in shown["criteria"])  # the use case's checks stay its own


def test_a_scorer_that_edits_its_input_changes_nothing_else(experiments, scorer_file, tmp_path):
    run_eval(experiment_dir=experiments, output_dir=tmp_path / "plain", show_progress=False,
             scorers=[f"{scorer_file}:brevity"])
    run_eval(experiment_dir=experiments, output_dir=tmp_path / "vandal", show_progress=False,
             scorers=[f"{scorer_file}:vandal", f"{scorer_file}:brevity"])
    plain, vandal = _evaluation(tmp_path / "plain"), _evaluation(tmp_path / "vandal")
    assert vandal.grade == plain.grade
    assert [i.extra_criteria[1] for i in vandal.items] == [i.extra_criteria[0] for i in plain.items]
