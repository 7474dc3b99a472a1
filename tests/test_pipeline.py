"""The five stages called from Python: outputs, skip on unchanged inputs, and redo of exactly what changed."""

from __future__ import annotations

import os
from pathlib import Path

import orjson
import pytest

from gaia_eval.artifacts.evaluation import Evaluation
from gaia_eval.artifacts.experiment import Experiment
from gaia_eval.artifacts.groundtruth import ConsolidatedGroundTruth
from gaia_eval.artifacts.store import read_artifact
from gaia_eval.stages.eval.run import run_eval
from gaia_eval.stages.experiment.run import run_batch_experiment
from gaia_eval.stages.generate import run_generate
from gaia_eval.stages.groundtruth.run import run_groundtruth
from gaia_eval.stages.report.run import run_report

QA_CONFIG = {
    "description": "qa baselines",
    "experiments": [
        {"name": "retrieval", "provider": "baseline", "model": "retrieval"},
        {"name": "lead", "provider": "baseline", "model": "lead"},
    ],
}
SUM_CONFIG = {
    "description": "summarization baselines",
    "experiments": [
        {"name": "textrank", "provider": "baseline", "model": "textrank"},
        {"name": "lead", "provider": "baseline", "model": "lead"},
    ],
}


def snapshot(folder: Path) -> dict[str, int]:
    """mtime_ns of every file, after backdating them so a rewrite is always visible."""
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            os.utime(p, ns=(1_000_000_000, 1_000_000_000))
            out[p.relative_to(folder).as_posix()] = 1_000_000_000
    return out


def mtimes(folder: Path) -> dict[str, int]:
    return {p.relative_to(folder).as_posix(): p.stat().st_mtime_ns for p in sorted(folder.rglob("*")) if p.is_file()}


def write_config(path: Path, config: dict) -> Path:
    path.write_bytes(orjson.dumps(config))
    return path


@pytest.fixture()
def docs(tmp_path: Path) -> Path:
    out = tmp_path / "test_data"
    run_generate("meeting", out, types=["standup", "budget_planning"], seed=3)
    return out


def test_generate_writes_documents_metas_and_index_then_skips(tmp_path: Path):
    out = tmp_path / "docs"
    first = run_generate("email", out, types=["project_update", "sales_outreach"], count_per_type=2, seed=1)
    assert (first.made, first.skipped) == (4, 0)
    names = sorted(p.name for p in out.iterdir())
    assert "project_update_email.txt" in names and "project_update_email_2.meta.json" in names
    assert "email_metadata.json" in names
    before = snapshot(out)
    again = run_generate("email", out, types=["project_update", "sales_outreach"], count_per_type=2, seed=1)
    assert (again.made, again.skipped, again.redone) == (0, 4, 0)
    assert mtimes(out) == before


def test_generate_same_seed_same_bytes_and_more_count_keeps_files(tmp_path: Path):
    a, b = tmp_path / "a", tmp_path / "b"
    run_generate("meeting", a, types=["planning"], seed=5)
    run_generate("meeting", b, types=["planning"], count_per_type=2, seed=5)
    assert (a / "planning_meeting.txt").read_bytes() == (b / "planning_meeting.txt").read_bytes()
    assert (b / "planning_meeting_2.txt").exists()


def test_edited_document_is_regenerated(tmp_path: Path):
    out = tmp_path / "d"
    run_generate("meeting", out, types=["standup"])
    original = (out / "standup_meeting.txt").read_text()
    (out / "standup_meeting.txt").write_text("edited")
    summary = run_generate("meeting", out, types=["standup"])
    assert summary.redone == 1
    assert (out / "standup_meeting.txt").read_text() == original


def test_groundtruth_redoes_exactly_the_changed_input(docs: Path, tmp_path: Path):
    gt = tmp_path / "gt"
    first = run_groundtruth(input_dir=docs, use_case="qa", output_dir=gt)
    assert first.made == 2
    consolidated = read_artifact(gt / "consolidated_qa_groundtruth.json", ConsolidatedGroundTruth)
    assert [i.item_id for i in consolidated.items] == ["budget_planning_meeting", "standup_meeting"]
    assert all(len(i.qa_pairs or []) >= 5 for i in consolidated.items)
    snapshot(gt)
    # Regenerate one document differently: only its ground truth (and the consolidation) change.
    run_generate("meeting", docs, types=["standup"], seed=99)
    second = run_groundtruth(input_dir=docs, use_case="qa", output_dir=gt)
    assert (second.made, second.skipped, second.redone) == (0, 1, 1)
    changed = {k for k, v in mtimes(gt).items() if v != 1_000_000_000}
    assert changed == {"standup_meeting.qa.groundtruth.json", "consolidated_qa_groundtruth.json"}


def test_consolidated_groundtruth_ignores_files_from_other_input_folders(docs: Path, tmp_path: Path):
    gt = tmp_path / "gt"
    other = tmp_path / "other"
    run_generate("email", other, types=["meeting_request"])
    run_groundtruth(input_dir=other, use_case="summarization", output_dir=gt)
    run_groundtruth(input_dir=docs, use_case="summarization", output_dir=gt)
    consolidated = read_artifact(gt / "consolidated_summarization_groundtruth.json", ConsolidatedGroundTruth)
    assert [i.item_id for i in consolidated.items] == ["budget_planning_meeting", "standup_meeting"]


def test_full_pipeline_qa_and_rerun_rewrites_nothing(docs: Path, tmp_path: Path):
    gt, exp, ev = tmp_path / "gt", tmp_path / "exp", tmp_path / "ev"
    config = write_config(tmp_path / "qa.json", QA_CONFIG)
    run_groundtruth(input_dir=docs, use_case="qa", output_dir=gt)
    batch = run_batch_experiment(config, gt, exp, show_progress=False)
    assert (batch.made, batch.items_error) == (2, 0)
    experiment = read_artifact(exp / "retrieval.experiment.json", Experiment)
    assert experiment.use_case == "qa" and experiment.totals.items >= 10
    assert all(i.groundtruth_answer is not None for i in experiment.items)
    assert (exp / "consolidated_experiments_report.json").exists()
    assert not list(exp.glob("*.journal.jsonl"))
    evals = run_eval(experiment_dir=exp, output_dir=ev)
    assert evals.made == 2
    evaluation = read_artifact(ev / "retrieval.experiment.eval.json", Evaluation)
    assert evaluation.mode == "comparative" and evaluation.grade.pass_rate is not None
    lead = read_artifact(ev / "lead.experiment.eval.json", Evaluation)
    assert evaluation.grade.pass_rate > lead.grade.pass_rate  # a real baseline beats a weak one on merit
    report = tmp_path / "reports" / "r.md"
    run_report(ev, report)
    text = report.read_text()
    assert "Model Performance Summary" in text and "Best model: retrieval" in text
    assert report.with_suffix(".csv").exists() and report.with_suffix(".json").exists()

    before = snapshot(tmp_path)
    run_groundtruth(input_dir=docs, use_case="qa", output_dir=gt)
    again = run_batch_experiment(config, gt, exp, show_progress=False)
    assert again.skipped == 2 and again.calls_made == 0
    assert run_eval(experiment_dir=exp, output_dir=ev).skipped == 2
    run_report(ev, report)
    assert mtimes(tmp_path) == before


def test_changing_one_config_entry_redoes_only_that_experiment(docs: Path, tmp_path: Path):
    gt, exp, ev = tmp_path / "gt", tmp_path / "exp", tmp_path / "ev"
    run_groundtruth(input_dir=docs, use_case="summarization", output_dir=gt)
    config = write_config(tmp_path / "s.json", SUM_CONFIG)
    run_batch_experiment(config, gt, exp, show_progress=False)
    run_eval(experiment_dir=exp, output_dir=ev)
    snapshot(tmp_path)
    changed_config = orjson.loads(orjson.dumps(SUM_CONFIG))
    changed_config["experiments"][1]["system_prompt"] = "Be brief."
    write_config(config, changed_config)
    batch = run_batch_experiment(config, gt, exp, show_progress=False)
    assert (batch.skipped, batch.redone) == (1, 1)
    evals = run_eval(experiment_dir=exp, output_dir=ev)
    assert (evals.skipped, evals.redone) == (1, 1)
    changed = {k for k, v in mtimes(tmp_path).items() if v != 1_000_000_000}
    assert "exp/lead.experiment.json" in changed and "exp/textrank.experiment.json" not in changed
    assert "ev/lead.experiment.eval.json" in changed and "ev/textrank.experiment.eval.json" not in changed


def test_summarization_scores_rank_textrank_above_lead(docs: Path, tmp_path: Path):
    gt, exp, ev = tmp_path / "gt", tmp_path / "exp", tmp_path / "ev"
    run_groundtruth(input_dir=docs, use_case="summarization", output_dir=gt)
    run_batch_experiment(write_config(tmp_path / "s.json", SUM_CONFIG), gt, exp, show_progress=False)
    run_eval(experiment_dir=exp, output_dir=ev)
    textrank = read_artifact(ev / "textrank.experiment.eval.json", Evaluation)
    lead = read_artifact(ev / "lead.experiment.eval.json", Evaluation)
    assert textrank.grade.quality_score > lead.grade.quality_score
    for item in textrank.items:
        assert len(item.criteria) == 6
        assert all(c.measure and c.explanation for c in item.criteria)


def test_raw_documents_run_standalone_or_with_external_groundtruth(docs: Path, tmp_path: Path):
    exp, ev, gt = tmp_path / "exp", tmp_path / "ev", tmp_path / "gt"
    raw = tmp_path / "raw"
    raw.mkdir()
    for p in docs.glob("*.txt"):
        (raw / p.name).write_text(p.read_text())
    run_batch_experiment(write_config(tmp_path / "s.json", SUM_CONFIG), raw, exp, show_progress=False)
    standalone = run_eval(experiment_dir=exp, output_dir=ev)
    assert standalone.standalone == 2
    evaluation = read_artifact(ev / "textrank.experiment.eval.json", Evaluation)
    assert evaluation.mode == "standalone" and "not verified against facts" in evaluation.mode_note
    run_groundtruth(input_dir=docs, use_case="summarization", output_dir=gt)
    external = run_eval(
        experiment_dir=exp, output_dir=tmp_path / "ev2", groundtruth=gt / "consolidated_summarization_groundtruth.json"
    )
    assert external.standalone == 0
    compared = read_artifact(tmp_path / "ev2" / "textrank.experiment.eval.json", Evaluation)
    assert compared.mode == "comparative" and compared.groundtruth_source.startswith("external:")


def test_consolidated_evaluations_keep_entries_and_hash_content(docs: Path, tmp_path: Path):
    gt, exp, ev = tmp_path / "gt", tmp_path / "exp", tmp_path / "ev"
    run_groundtruth(input_dir=docs, use_case="qa", output_dir=gt)
    config = write_config(tmp_path / "qa.json", {"experiments": QA_CONFIG["experiments"][:1]})
    run_batch_experiment(config, gt, exp, show_progress=False)
    run_eval(experiment_dir=exp, output_dir=ev)
    write_config(config, QA_CONFIG)
    run_batch_experiment(config, gt, exp, show_progress=False)
    run_eval(experiment_dir=exp, output_dir=ev)
    index = orjson.loads((ev / "consolidated_evaluations_report.json").read_bytes())
    assert sorted(e["file_path"] for e in index["evaluation_files"]) == [
        "lead.experiment.eval.json",
        "retrieval.experiment.eval.json",
    ]
    assert all(e["fingerprint"].startswith("sha256:") for e in index["evaluation_files"])
    assert len({tuple(sorted(e)) for e in index["evaluations"]}) == 1  # one entry shape for all
    first_added = {e["file_path"]: e["added_at"] for e in index["evaluation_files"]}
    run_eval(experiment_dir=exp, output_dir=ev, regenerate_report=True)
    index = orjson.loads((ev / "consolidated_evaluations_report.json").read_bytes())
    assert len(index["evaluations"]) == 2
    run_eval(experiment_dir=exp, output_dir=ev)
    again = orjson.loads((ev / "consolidated_evaluations_report.json").read_bytes())
    assert {e["file_path"]: e["added_at"] for e in again["evaluation_files"]} == {
        e["file_path"]: e["added_at"] for e in index["evaluation_files"]
    }
    assert set(first_added) == {e["file_path"] for e in again["evaluation_files"]}


def test_a_real_long_transcript_runs_standalone(tmp_path: Path):
    """A real QMSum meeting (no planted facts, no ground truth): baselines run and eval says it is standalone."""
    raw = Path(__file__).parent / "data" / "qmsum"
    exp, ev = tmp_path / "exp", tmp_path / "ev"
    batch = run_batch_experiment(write_config(tmp_path / "s.json", SUM_CONFIG), raw, exp, show_progress=False)
    assert batch.items_error == 0
    experiment = read_artifact(exp / "textrank.experiment.json", Experiment)
    summaries = experiment.items[0].summaries
    assert summaries is not None and summaries.executive_summary and len(summaries.participants) >= 3
    assert run_eval(experiment_dir=exp, output_dir=ev).standalone == 2
    run_report(ev, tmp_path / "r.md")
    assert "Standalone — not verified against facts" in (tmp_path / "r.md").read_text()


def test_groundtruth_never_takes_its_own_sidecar_files_as_inputs(docs: Path, tmp_path: Path):
    summary = run_groundtruth(input_dir=docs, pattern="*", use_case="qa", output_dir=tmp_path / "gt")
    assert sorted(p.name for p in summary.outputs) == [
        "budget_planning_meeting.qa.groundtruth.json",
        "standup_meeting.qa.groundtruth.json",
    ]


def test_report_keeps_standalone_apart_and_words_comparisons_from_the_data(docs: Path, tmp_path: Path):
    gt, ev = tmp_path / "gt", tmp_path / "ev"
    run_groundtruth(input_dir=docs, use_case="summarization", output_dir=gt)
    config = write_config(tmp_path / "s.json", SUM_CONFIG)
    run_batch_experiment(config, gt, tmp_path / "exp", show_progress=False)
    run_batch_experiment(config, docs, tmp_path / "raw", show_progress=False)  # no ground truth: standalone
    run_eval(experiment_dir=tmp_path / "exp", output_dir=ev / "comparative")
    run_eval(experiment_dir=tmp_path / "raw", output_dir=ev / "raw")
    # Two qa models scored on different documents share no item.
    other = tmp_path / "other_docs"
    run_generate("email", other, types=["meeting_request"], seed=1)
    run_groundtruth(input_dir=other, use_case="qa", output_dir=tmp_path / "gt_a")
    run_groundtruth(input_dir=docs, use_case="qa", output_dir=tmp_path / "gt_b")
    run_batch_experiment(write_config(tmp_path / "a.json", {"experiments": [QA_CONFIG["experiments"][0]]}),
                         tmp_path / "gt_a", tmp_path / "qa", show_progress=False)
    run_batch_experiment(write_config(tmp_path / "b.json", {"experiments": [QA_CONFIG["experiments"][1]]}),
                         tmp_path / "gt_b", tmp_path / "qa_b", show_progress=False)
    run_eval(experiment_dir=tmp_path / "qa", output_dir=ev / "qa")
    run_eval(experiment_dir=tmp_path / "qa_b", output_dir=ev / "qa")
    run_report(ev, tmp_path / "r.md")
    text = (tmp_path / "r.md").read_text()
    assert "## Summarization\n" in text and "## Summarization (standalone)" in text
    assert "was scored on other items, so the two cannot be compared item by item" in text
    sections = orjson.loads((tmp_path / "r.json").read_bytes())["sections"]
    clear_somewhere = any(s["comparison"] and s["comparison"]["lead_is_clear"] for s in sections)
    assert ("the lead is clear" in text) == clear_somewhere  # the sentence follows the data, not a default
