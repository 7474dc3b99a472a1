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
        summaries, grade = aggregate(items, names, pass_rate=False)
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
    intervals = viewer_data.intervals(folder, use_case["use_case"])  # asked for after the tables
    for model in use_case["models"]:
        assert model["grade"] == 100.0 and intervals[model["file"]] == [100.0, 100.0], model


# -- the bench gate at its boundary ---------------------------------------------------------------------------------

def _report(passed: int, total: int = 20):
    from gaia_eval.bench.metrics import run_suite
    from gaia_eval.bench.runs import EvalRun
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


# -- when the report and meta-eval say a judge is not to be trusted --------------------------------------------------

def _judge(alpha: float | None, pairs: int, judged: int = 10, unscored: int = 0):
    from types import SimpleNamespace

    from gaia_eval.artifacts.evaluation import RubricAgreement

    versus = RubricAgreement(criteria={"faithfulness": "hallucination"}, pairs=pairs, exact_agreement=0.5,
                             within_one=0.9, krippendorff_alpha=alpha,
                             alpha_note=None if alpha is not None else "every rating has the same value")
    return SimpleNamespace(judge_vs_rubric=versus, judged_items=judged, unscored_items=unscored)


@pytest.mark.parametrize(("alpha", "pairs", "distrusted"), [
    (0.4, 5, False),     # exactly the threshold: trusted
    (0.39, 5, True),     # just below it
    (None, 5, True),     # alpha undefined (every rating the same): agreement cannot be shown, so no trust
    (0.1, 4, False),     # fewer pairs than the minimum: too few to judge, nothing said
    (None, 4, False),
])
def test_the_judge_agreement_warning_is_pinned_at_its_threshold(alpha, pairs, distrusted) -> None:
    """Bugs planted: `alpha <= JUDGE_TRUST_MIN_ALPHA` (a judge at exactly 0.4 distrusted), `alpha is not None and
    alpha < ...` (an undefined alpha trusted silently), `pairs > JUDGE_TRUST_MIN_PAIRS`."""
    from gaia_eval.reporting.data import JUDGE_TRUST_MIN_ALPHA, JUDGE_TRUST_MIN_PAIRS, _judge_distrust

    assert (JUDGE_TRUST_MIN_ALPHA, JUDGE_TRUST_MIN_PAIRS) == (0.4, 5)  # the documented numbers this test pins
    reasons = _judge_distrust(_judge(alpha, pairs))
    assert bool(reasons) is distrusted, reasons
    if distrusted:
        shown = "undefined" if alpha is None else f"{alpha:.2f}"
        assert reasons == [f"its ratings agree with the deterministic rubric at Krippendorff's α {shown} over "
                           f"{pairs} ratings (trust needs at least 0.4)"]


@pytest.mark.parametrize(("judged", "unscored", "distrusted"), [(8, 2, False), (7, 3, True)])
def test_the_unscored_share_warning_is_pinned_at_its_threshold(judged, unscored, distrusted) -> None:
    """Bug planted: `>=` for `>` on JUDGE_TRUST_MAX_UNSCORED (exactly 20 % unscored warned)."""
    from gaia_eval.reporting.data import _judge_distrust

    reasons = _judge_distrust(_judge(0.9, 10, judged=judged, unscored=unscored))
    assert reasons == ([f"it could not score {unscored} of 10 items"] if distrusted else [])


def _scorer(name: str, kendall: float | None, summary_level: float | None):
    from gaia_eval.artifacts.metaeval import ScorerAgreement

    return ScorerAgreement(scorer=name, dimension="coherence", system_kendall=kendall, system_spearman=kendall,
                           system_pearson=kendall, summary_level=summary_level, pairwise_accuracy=None)


@pytest.mark.parametrize(("judge_kendall", "judge_summary", "warned"), [
    (0.5, 0.3, False),    # exactly as good as the grade: no warning
    (0.49, 0.3, True),    # below at the system level
    (0.5, 0.29, True),    # below at the summary level
    (None, 0.3, True),    # undefined for the judge (a constant judge) while defined for the grade
    (0.9, 0.9, False),
])
def test_meta_eval_warns_when_a_judge_agrees_less_than_the_grade(judge_kendall, judge_summary, warned) -> None:
    """Bugs planted: `mine <= theirs` (a judge exactly as good as the grade was called worse), and
    `mine is not None and mine < theirs` (a judge whose correlation is undefined passed without a word)."""
    from gaia_eval.metaeval.render import judge_warnings

    rows = [_scorer("grade", 0.5, 0.3), _scorer("judge:gemma", judge_kendall, judge_summary),
            _scorer("judge:gemma:g-eval", judge_kendall, judge_summary)]
    warnings = judge_warnings(rows)
    assert len(warnings) == (2 if warned else 0), warnings
    if warned:
        assert warnings[0].startswith("The judge `judge:gemma` agrees with the human coherence ratings less than")
    assert judge_warnings([_scorer("judge:gemma", None, None)]) == []  # no grade row: nothing to compare with


# -- the answer matcher's sentence-length bound ---------------------------------------------------------------------

_PADDING = ("having read the whole passage twice over with some care and then checked every name and every place "
            "it mentions against what the question asks for and what the text says about the city in the end I am "
            "fairly sure now that the one it means").split()


def _unmarked_sentence(words: int) -> str:
    """An unmarked answer sentence of exactly `words` words, the answer last."""
    tail = ["it", "is", "Paris"]
    return " ".join(_PADDING[: words - len(tail)] + tail) + "."


@pytest.mark.parametrize(("words", "strict"), [(3, True), (40, True), (41, False)])
def test_an_unmarked_answer_is_searched_up_to_forty_words_and_no_further(words: int, strict: bool) -> None:
    """Bugs planted: `>=` for `>` (a 40-word sentence refused), and the bound read in characters instead of words
    (`len(segment)`: every sentence over 40 characters refused). The strict reading stops at 40 words; past it the
    prose reading (issue 27: the answer anywhere in a paragraph, as a careful grader reads it) finds the answer, and
    says so."""
    from gaia_eval.scoring.answers.match import match_answer
    from gaia_eval.scoring.answers.text import tokens

    sentence = _unmarked_sentence(words)
    assert len(tokens(sentence)) == words
    result = match_answer("Paris", sentence)
    assert result.correct, result.explanation
    assert result.explanation.startswith("prose:") is not strict, result.explanation
    # a marked answer is read by the strict reading whatever the length of what surrounds it
    marked = match_answer("Paris", sentence[:-1] + ", so the final answer is Paris.")
    assert marked.correct and not marked.explanation.startswith("prose:"), marked.explanation


def test_the_gate_message_names_every_problem_and_the_baseline_file(tmp_path: Path) -> None:
    """Mutation survivors in gate.py: the baseline's path dropped from a refusal (or an object put in its place),
    the suite's name dropped, the efficiency limits' detail lines and problems, the problems' separator, the paired
    line's place, a task the baseline lacks ending the paired count (`break` for `continue`), the "+N more" of a
    long list, a dict baseline's validation message."""
    import json

    from gaia_eval.bench.gate import Baseline, regression_gate
    from gaia_eval.errors import UsageError

    report = _report(1, total=4)  # t0 passes; 25 %
    fields = {"suite": report.suite, "suite_fingerprint": report.suite_fingerprint, "avg_steps": 0.5,
              "tool_error_rate": 0.0, "tasks": {"t0": True, "t2": True, "t3": False}}  # t1 not in the baseline
    ok, message = regression_gate(report, {**fields, "success_rate": 0.5}, max_steps_increase=0.5,
                                  max_tool_error_increase=0.0)
    lines = message.splitlines()
    assert not ok and lines[0] == "[REGRESSION] success 25% vs baseline 50% (tol 5%): success dropped more than 5%"
    assert lines[1] == "  paired (3 tasks): 1 newly failing (t2), 0 newly passing; exact McNemar p=1"
    assert lines[2:] == ["  avg steps 1.00 vs baseline 0.50 (+0.50, limit +0.5)",
                         "  tool error rate 0.0% vs baseline 0.0% (+0.0 points, limit +0)"]  # both at their limit: pass
    ok, message = regression_gate(report, {**fields, "success_rate": 0.5}, max_steps_increase=0.4)
    assert message.splitlines()[0].endswith(": success dropped more than 5%; avg steps rose by 0.50 (limit +0.4)")
    bare = {"suite": report.suite, "suite_fingerprint": report.suite_fingerprint, "success_rate": 0.25}
    ok, message = regression_gate(report, bare, max_steps_increase=1, max_tool_error_increase=0.1)
    assert not ok and message.splitlines()[0].endswith(
        ": --max-steps-increase needs a baseline with avg_steps; "
        "--max-tool-error-increase needs a baseline with tool_error_rate")
    with pytest.raises(UsageError, match="field 'success_rate': not a bench baseline"):
        regression_gate(report, {**fields, "success_rate": 2})

    many = _report(0, total=12)
    ok, message = regression_gate(many, {"suite": many.suite, "suite_fingerprint": many.suite_fingerprint,
                                         "success_rate": 0.0, "tasks": {f"t{i}": True for i in range(12)}})
    listed = ", ".join(f"t{i}" for i in range(10))
    assert f"12 newly failing ({listed}, +2 more), 0 newly passing" in message
    ten = _report(0, total=10)  # exactly the number listed: no "+0 more"
    ok, message = regression_gate(ten, {"suite": ten.suite, "suite_fingerprint": ten.suite_fingerprint,
                                        "success_rate": 0.0, "tasks": {f"t{i}": True for i in range(10)}})
    assert f"10 newly failing ({listed}), 0 newly passing" in message

    stale = {**fields, "success_rate": 0.25, "suite_fingerprint": "sha256:" + "0" * 64}
    path = tmp_path / "base.json"
    path.write_text(json.dumps(stale))
    with pytest.raises(UsageError) as caught:
        regression_gate(report, path)
    assert str(caught.value).startswith(f"{path}: baseline was made on a different version of suite")
    with pytest.raises(UsageError) as caught:
        regression_gate(report, Baseline.model_validate(stale), baseline_path="named.json")
    assert str(caught.value).startswith("named.json: baseline was made on a different version")
    with pytest.raises(UsageError) as caught:
        regression_gate(report, Baseline.model_validate(stale))  # no file to name
    assert str(caught.value).startswith("baseline was made on a different version")
    with pytest.raises(UsageError, match=f"baseline is for suite 'other', but this run is suite '{report.suite}'"):
        regression_gate(report, {**stale, "suite": "other"})
