"""create-template / import-template: a person's filled-in answers are scored like any model's."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from gaia_eval.artifacts.evaluation import Evaluation
from gaia_eval.artifacts.groundtruth import ConsolidatedGroundTruth
from gaia_eval.artifacts.store import read_artifact
from gaia_eval.errors import InputError
from gaia_eval.stages.eval.run import run_eval
from gaia_eval.stages.templates.answers import run_create_template, run_import_template

ROOT = Path(__file__).resolve().parent.parent
QA_GT = ROOT / "groundtruth" / "qa" / "consolidated_qa_groundtruth.json"
SUM_GT = ROOT / "groundtruth" / "summarization"


def test_filled_template_is_scored_and_blanks_count_as_errors(tmp_path: Path):
    path = run_create_template(QA_GT, tmp_path, "Acme RAG", model="acme v2")
    data = orjson.loads(path.read_bytes())
    assert "answer_type" not in path.read_text() and data["items"][0]["answer"] == ""  # no expected answers leak
    expected = {
        f"{gt.item_id}#{qa.id}": qa.answer
        for gt in read_artifact(QA_GT, ConsolidatedGroundTruth).items
        for qa in gt.qa_pairs or []
    }
    for i, item in enumerate(data["items"]):
        item["answer"] = expected[item["item_id"]] if i % 2 == 0 else ""
    path.write_bytes(orjson.dumps(data))
    experiment, blanks = run_import_template(path, tmp_path)
    assert blanks == len(data["items"]) // 2
    run_eval(experiment_file=experiment, output_dir=tmp_path / "ev")
    ev = read_artifact(tmp_path / "ev" / "Acme_RAG.experiment.eval.json", Evaluation)
    assert ev.model == "acme v2" and ev.grade.n_errors == blanks
    assert ev.grade.pass_rate == pytest.approx((len(data["items"]) - blanks) / len(data["items"]))
    mtime = experiment.stat().st_mtime_ns
    assert run_import_template(path, tmp_path)[0].stat().st_mtime_ns == mtime  # same answers: not rewritten


def test_summarization_template_and_refusals(tmp_path: Path):
    path = run_create_template(SUM_GT, tmp_path, "notes-bot")
    data = orjson.loads(path.read_bytes())
    assert set(data["items"][0]["summaries"]) >= {"executive_summary", "action_items"}
    with pytest.raises(InputError, match="already exists"):
        run_create_template(SUM_GT, tmp_path, "notes-bot")
    with pytest.raises(InputError, match="summarization template"):
        run_import_template(path, tmp_path, groundtruth=QA_GT)
