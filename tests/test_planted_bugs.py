"""Tests aimed at bugs that were planted one at a time and survived the suite (issue 19, item 8): N/A criteria in
the per-item points and every consumer of them, and the answer matcher's sentence-length bound. Each test names
the one-line bug it was checked against."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gaia_eval.artifacts.evaluation import Evaluation
from gaia_eval.artifacts.store import read_artifact, write_artifact
from gaia_eval.reporting.data import build_report_data
from gaia_eval.scoring.rubric import aggregate, item_points
from gaia_eval.stages.quickstart import run_quickstart
from gaia_eval.stages.report.junit import junit_xml
from gaia_eval.visualize import data as viewer_data

NOT_APPLICABLE = ("key_decisions", "action_items")


@pytest.fixture(scope="module")
def summaries_all_excellent_but_two_na(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The quickstart's summarization evaluations, rewritten so every item is Excellent on each criterion except
    two that its reference made not applicable (N/A)."""
    workspace = tmp_path_factory.mktemp("na") / "qs"
    run_quickstart(workspace, echo=lambda _line: None)
    folder = tmp_path_factory.mktemp("na-eval") / "evaluation"
    shutil.copytree(workspace / "evaluation" / "summarization", folder / "summarization")
    for path in sorted((folder / "summarization").glob("*.eval.json")):
        ev = read_artifact(path, Evaluation)
        items = []
        for item in ev.items:
            criteria = [
                c.model_copy(update={"rating": "N/A", "value": None} if c.criterion in NOT_APPLICABLE
                             else {"rating": "Excellent", "value": 1.0})
                for c in item.criteria
            ]
            items.append(item.model_copy(update={"status": "scored", "error": None, "criteria": criteria}))
        names = [c.criterion for c in ev.criteria]
        summaries, grade = aggregate(items, names, ev.use_case)
        write_artifact(path, ev.model_copy(update={"items": items, "criteria": summaries, "grade": grade}))
    return folder


def test_na_criteria_stay_out_of_every_per_item_score(summaries_all_excellent_but_two_na: Path) -> None:
    """Bug planted: item_points divided by 3 x len(criteria) (N/A counted as 0): the grade stayed 100 while the
    per-item scores, their interval, the paired comparison, JUnit and the viewer showed 37.5-62.5."""
    folder = summaries_all_excellent_but_two_na
    evaluations = [(p, read_artifact(p, Evaluation)) for p in sorted((folder / "summarization").glob("*.eval.json"))]
    assert len(evaluations) >= 2
    for _path, ev in evaluations:
        names = [c.criterion for c in ev.criteria]
        assert set(NOT_APPLICABLE) <= set(names) and len(names) > len(NOT_APPLICABLE)
        assert ev.grade.quality_score == 100
        assert {item_points(item, names) for item in ev.items} == {100.0}

    [section] = build_report_data(folder)["sections"]
    for row in section["models"]:
        assert set(row["item_scores"]) == {100.0} and (row["ci_low"], row["ci_high"]) == (100.0, 100.0), row
    comparison = section["comparison"]
    assert comparison["shared_items"] > 0 and comparison["mean_difference"] == 0.0

    xml = junit_xml(evaluations, folder).decode()
    assert "<failure" not in xml and 'failures="0"' in xml

    [use_case] = viewer_data.dashboard(folder)["use_cases"]
    for model in use_case["models"]:
        assert model["grade"] == 100.0 and model["ci"] == [100.0, 100.0], model


# -- the bench gate at its boundary ---------------------------------------------------------------------------------

def _report(passed: int, total: int = 20):
    from gaia_eval.bench.runs import EvalRun
    from gaia_eval.bench.metrics import run_suite
    from gaia_eval.bench.tasks import TaskSpec

    tasks = [TaskSpec(f"t{i}", f"t{i}", "exact", "yes") for i in range(total)]
    return run_suite(lambda p: EvalRun("yes" if int(p[1:]) < passed else "no", steps=1, tool_errors=0), tasks)


@pytest.mark.parametrize(("baseline_rate", "tolerance", "ok"), [
    (0.90, 0.05, True),    # exactly `tolerance` below: passes, as documented ("more than tolerance below" fails)
    (0.91, 0.05, False),   # one point past the tolerance
    (0.95, 0.05, False),   # a 10-point drop (a tolerance applied twice let it pass)
    (0.85, 0.0, True),     # no tolerance: equal passes
    (0.86, 0.0, False),    # ... and one point below fails
    (0.95, 0.10, True),    # the boundary moves with the tolerance given
    (0.96, 0.10, False),
])
def test_the_gate_holds_exactly_at_the_tolerance(baseline_rate: float, tolerance: float, ok: bool) -> None:
    """Bugs planted: `baseline.success_rate - 2 * tolerance` (a 10-point drop passed at 5 %), and `>` for `>=`
    (a drop of exactly the tolerance failed)."""
    from gaia_eval.bench.gate import Baseline, regression_gate

    report = _report(17)  # 85 %, an exact ratio of small integers as the gate's epsilon assumes
    assert report.success_rate == pytest.approx(0.85)
    baseline = Baseline(success_rate=baseline_rate, suite=report.suite, suite_fingerprint=report.suite_fingerprint)
    passed, message = regression_gate(report, baseline, tolerance=tolerance)
    assert passed is ok, message
    assert message.startswith("[OK]" if ok else "[REGRESSION]")
