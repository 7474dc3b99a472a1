"""The report never overclaims or mislabels (issue 21): no clear lead below a stated number of shared items, a
warning when ranked models were scored on different items or ground truth, chart titles that say what is
plotted, one band rule for an item's score everywhere, and models left off a chart named."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from gaia_eval.artifacts.evaluation import Evaluation
from gaia_eval.artifacts.store import read_artifact, write_artifact
from gaia_eval.plotting import BANDS
from gaia_eval.reporting import charts as report_charts
from gaia_eval.reporting.data import MIN_ITEMS_FOR_CLEAR_LEAD, build_report_data
from gaia_eval.scoring.rubric import rating_band
from gaia_eval.stages.quickstart import run_quickstart
from gaia_eval.stages.report.run import run_report


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("semantics") / "qs"
    run_quickstart(out, echo=lambda _line: None)
    return out


def section(data: dict[str, Any], use_case: str) -> dict[str, Any]:
    return next(s for s in data["sections"] if s["use_case"] == use_case)


def test_no_clear_lead_below_the_stated_minimum_of_shared_items(workspace: Path):
    """'the lead is clear at this sample size' was said with n = 2 and n = 3."""
    text = (workspace / "reports" / "report.md").read_text()
    data = build_report_data(workspace / "evaluation")
    small = section(data, "summarization")["comparison"]
    assert small["shared_items"] < MIN_ITEMS_FOR_CLEAR_LEAD and small["ci_low"] > 0  # the interval alone says clear
    assert small["lead_is_clear"] is False
    assert (
        f"with {small['shared_items']} shared items (fewer than {MIN_ITEMS_FOR_CLEAR_LEAD}), no lead is called clear"
        in text
    )
    large = section(data, "qa")["comparison"]  # 104 shared items: the paired interval decides
    assert large["shared_items"] >= MIN_ITEMS_FOR_CLEAR_LEAD and large["lead_is_clear"] is (large["ci_low"] > 0)
    assert text.count("the lead is clear at this sample size") == 1


def _copy_evaluations(workspace: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "evaluation"
    shutil.copytree(workspace / "evaluation" / "qa", folder)
    return folder


def test_a_warning_names_models_scored_on_different_items(workspace: Path, tmp_path: Path):
    folder = _copy_evaluations(workspace, tmp_path)
    assert not section(build_report_data(folder), "qa")["warnings"]
    path = folder / "baseline-lead.experiment.eval.json"
    ev = read_artifact(path, Evaluation)
    write_artifact(path, ev.model_copy(update={"items": ev.items[:40]}))
    [warning] = section(build_report_data(folder), "qa")["warnings"]
    assert "scored on different items" in warning and "baseline-lead: 40 items" in warning
    assert "baseline-retrieval: 104 items" in warning and "40 shared by all" in warning
    run_report(folder, tmp_path / "r.md")
    assert "> **Warning:** the ranked models were scored on different items" in (tmp_path / "r.md").read_text()


def test_a_warning_names_models_scored_against_different_ground_truth(workspace: Path, tmp_path: Path):
    folder = _copy_evaluations(workspace, tmp_path)
    path = folder / "baseline-lead.experiment.eval.json"
    ev = read_artifact(path, Evaluation)
    write_artifact(path, ev.model_copy(update={"groundtruth_source": "external:other/consolidated_qa_groundtruth.json",
                                               "inputs": {**ev.inputs, "groundtruth": "sha256:" + "0" * 64}}))
    warnings = section(build_report_data(folder), "qa")["warnings"]
    assert any("against different ground truth" in w and "baseline-lead: external:other" in w for w in warnings), (
        warnings
    )


def test_an_items_band_follows_its_score_as_the_grades_does():
    """A single Fair item scores 33.3: the items chart counted it Poor while its rating said Fair; and Python's
    round() took 66.5 to 66 (Fair) where the grade's rule gives 67 (Good)."""
    names = [band[2] for band in BANDS]
    for score, rating in ((100 / 3, "Fair"), (200 / 3, "Good"), (66.5, "Good"), (32.4, "Poor"), (84.5, "Excellent"),
                          (0, "Poor"), (100, "Excellent")):
        assert rating_band(score) == rating, score
        assert names[report_charts._band_of(score)] == rating, score


class _Captured:
    def __init__(self) -> None:
        self.figures: list[Any] = []

    def __call__(self, fig: Any) -> bytes:
        self.figures.append(fig)
        return b"<svg/>"


def test_chart_titles_say_what_is_plotted_and_name_models_left_off(workspace: Path, monkeypatch):
    captured = _Captured()
    monkeypatch.setattr(report_charts, "svg_bytes", captured)
    data = build_report_data(workspace / "evaluation")
    qa = section(data, "qa")
    report_charts.heatmap_chart(qa)
    title = captured.figures[-1].axes[0].get_title(loc="left")
    assert "median" not in title and "score over all items" in title  # the cell is the band of that score
    # Two imported models without costs: named as left off, and "every model ran at no cost" is not said of them.
    models = [dict(m) for m in qa["models"]]
    for m in models:
        m["cost_usd"] = 0.0
    models.append({**models[0], "experiment_name": "human-import", "cost_usd": None})
    models.append({**models[0], "experiment_name": "vendor-import", "cost_usd": None, "latency_mean_s": None})
    report_charts.tradeoff_chart({**qa, "models": models})
    suptitle = captured.figures[-1]._suptitle.get_text()
    assert "no known cost, left off the cost panel: human-import, vendor-import" in suptitle
    assert "not timed, left off the latency panel: vendor-import" in suptitle
    assert "every other model ran at no cost" in suptitle and "every model ran at no cost" not in suptitle
    scored = [{**models[0], "item_scores": []}, models[1]]
    report_charts.distribution_chart({**qa, "models": scored})
    assert f"left off: {models[0]['experiment_name']}" in captured.figures[-1].axes[0].get_title(loc="left")


def test_the_same_ground_truth_embedded_or_given_with_g_raises_no_warning(tmp_path: Path):
    """Baselines run on a consolidated file (embedded) and an import scored with `eval -g` on that same file are
    scored against the same truth: no warning; a model scored against another file is named."""
    from gaia_eval.stages.eval.run import run_eval
    from gaia_eval.stages.experiment.run import run_batch_experiment
    from gaia_eval.stages.generate import run_generate
    from gaia_eval.stages.groundtruth.run import run_groundtruth
    from tests.test_pipeline import QA_CONFIG, write_config

    run_generate("meeting", tmp_path / "docs", types=["standup"], seed=3)
    run_groundtruth(input_dir=tmp_path / "docs", use_case="qa", output_dir=tmp_path / "gt")
    consolidated = tmp_path / "gt" / "consolidated_qa_groundtruth.json"
    config = write_config(tmp_path / "qa.json", QA_CONFIG)
    run_batch_experiment(config, consolidated, tmp_path / "exp", show_progress=False)
    run_eval(experiment_file=tmp_path / "exp" / "lead.experiment.json", output_dir=tmp_path / "ev")
    run_eval(experiment_file=tmp_path / "exp" / "retrieval.experiment.json", output_dir=tmp_path / "ev",
             groundtruth=consolidated)
    assert section(build_report_data(tmp_path / "ev"), "qa")["warnings"] == []
    run_generate("meeting", tmp_path / "docs2", types=["standup"], seed=4)
    run_groundtruth(input_dir=tmp_path / "docs2", use_case="qa", output_dir=tmp_path / "gt2")
    run_batch_experiment(config, tmp_path / "gt2" / "consolidated_qa_groundtruth.json", tmp_path / "exp2",
                         show_progress=False)
    shutil.copy(tmp_path / "exp2" / "lead.experiment.json", tmp_path / "exp" / "other-lead.experiment.json")
    run_eval(experiment_file=tmp_path / "exp" / "other-lead.experiment.json", output_dir=tmp_path / "ev")
    warnings = section(build_report_data(tmp_path / "ev"), "qa")["warnings"]
    assert any("against different ground truth" in w for w in warnings), warnings
