"""The qa use case on a user's own questions (NarrativeQA-style: two human answers per question, mostly short,
some prose), end to end through import-groundtruth, import-outputs, eval and report, on the set in
tests/data/own_questions; and the report saying how far a pass rate can be trusted (packaged figures of the
answer matcher on public data, or the user's own labels)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from gaia_eval.artifacts.groundtruth import QAPair
from gaia_eval.cli import cli
from gaia_eval.scoring.rubric import score_long_answer, score_qa
from tests.test_readme_examples import fresh_clone  # noqa: F401 - the fixture

DATA = Path(__file__).parent / "data" / "own_questions"
LONG_QUESTION = "attic#q25"


def _invoke(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    """The set imported, the two systems' answers imported and evaluated (default match mode), reported."""
    root = tmp_path_factory.mktemp("own")
    for name in ("story.txt", "questions.jsonl", "outputs.jsonl"):
        shutil.copy(DATA / name, root / name)
    _invoke("import-groundtruth", str(root / "questions.jsonl"), "-o", str(root / "gt"))
    gt = root / "gt" / "consolidated_qa_groundtruth.json"
    _invoke("import-outputs", str(root / "outputs.jsonl"), "-g", str(gt), "-o", str(root / "exp"))
    root.joinpath("eval.out").write_text(
        _invoke("eval", "-d", str(root / "exp"), "-g", str(gt), "-o", str(root / "eval")), encoding="utf-8")
    _invoke("report", "-d", str(root / "eval"), "-o", str(root / "report.md"))
    return root


def _evaluation(root: Path, system: str, folder: str = "eval") -> dict:
    return json.loads((root / folder / f"{system}.experiment.eval.json").read_text(encoding="utf-8"))


# --- several reference answers --------------------------------------------------------------------------------

def test_a_question_with_two_reference_answers_is_imported_with_both(workspace):
    gt = json.loads((workspace / "gt" / "attic.qa.groundtruth.json").read_text(encoding="utf-8"))
    first = gt["qa_pairs"][0]
    assert first["answer"] == "the telephone" and first["other_answers"] == ["the attic telephone"]


def test_a_question_with_one_answer_keeps_the_file_it_had(tmp_path):
    """One answer, as before: no other_answers key, so existing ground truth keeps its bytes and fingerprint."""
    (tmp_path / "story.txt").write_text("Tobias lit the stove.", encoding="utf-8")
    row = {"item_id": "s", "source": "story.txt", "qa": [{"question": "Who lit the stove?", "answer": "Tobias"}]}
    (tmp_path / "q.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    _invoke("import-groundtruth", str(tmp_path / "q.jsonl"), "-o", str(tmp_path / "gt"))
    assert "other_answers" not in (tmp_path / "gt" / "s.qa.groundtruth.json").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("pair", "field", "fix"),
    [
        ({"question": "Who?", "answer": ["Tobias", 3]}, "qa[1].answer", "every acceptable one"),
        ({"question": "Who?", "answer": []}, "qa[1].answer", "every acceptable one"),
        ({"question": "Who?", "reply": "Tobias"}, "qa[1].answer", "--answer-key"),
        ({"question": "", "answer": "Tobias"}, "qa[1].question", "question's text"),
        ({"query": "Who?", "answer": "Tobias"}, "qa[1].question", "--question-key"),
    ],
)
def test_a_bad_answer_or_question_names_its_field_and_the_right_fix(tmp_path, pair, field, fix):
    (tmp_path / "story.txt").write_text("Tobias lit the stove.", encoding="utf-8")
    (tmp_path / "q.jsonl").write_text(json.dumps({"item_id": "s", "source": "story.txt", "qa": [pair]}) + "\n",
                                      encoding="utf-8")
    result = CliRunner().invoke(cli, ["import-groundtruth", str(tmp_path / "q.jsonl"), "-o", str(tmp_path / "gt")])
    assert result.exit_code == 2, result.output
    assert field in result.output and fix in result.output and "Traceback" not in result.output
    if fix != "--answer-key":  # the keys were right: the fix must not send the user to rename them
        assert "--answer-key" not in result.output
    assert not (tmp_path / "gt").exists()


def test_an_answer_giving_the_second_reference_is_correct():
    pair = QAPair(id="q", query="Who finds Margaret in the attic?", answer="Tobias", answer_type="string",
                  other_answers=["her servant"])
    assert score_qa("Her servant.", pair)[1] is True
    assert score_qa("Her servant.", pair.model_copy(update={"other_answers": []}))[1] is False


def test_a_long_form_answer_is_scored_against_the_reference_it_comes_closest_to():
    source = (DATA / "story.txt").read_text(encoding="utf-8")
    pair = QAPair(id="q", query="Why does Margaret destroy the telephone?", answer_type="string",
                  answer="Because she believes the call was a cruel trick, since her brother Edmund drowned long "
                         "ago and could not be coming home.",
                  other_answers=["She realises Edmund is dead and the voice that claimed the ship was coming home "
                                 "was a cruel trick played on her."])
    answer = "She realises Edmund is dead, so the voice claiming the ship was coming home was a cruel trick."
    both = {r.criterion: r.value for r in score_long_answer(answer, pair, source)}
    first_only = {r.criterion: r.value
                  for r in score_long_answer(answer, pair.model_copy(update={"other_answers": []}), source)}
    assert both["reference_overlap"] > first_only["reference_overlap"]


# --- a wrong long answer is not half right ----------------------------------------------------------------------

def test_a_correct_and_a_wrong_long_answer_to_one_question_do_not_score_alike(workspace):
    points = {}
    for system in ("good", "bad"):
        item = next(i for i in _evaluation(workspace, system)["items"] if i["item_id"] == LONG_QUESTION)
        ratings = {c["criterion"]: c["rating"] for c in item["criteria"] if c["rating"] != "N/A"}
        points[system] = ratings
    # the wrong answer is consistent with the story and concise, but says nothing the references say
    assert set(points["bad"].values()) == {"Poor"}
    assert points["good"]["reference_overlap"] != "Poor" and points["good"]["source_consistency"] == "Excellent"
    report = (workspace / "report.md").read_text(encoding="utf-8")
    assert f"| {LONG_QUESTION} | " in report
    row = next(line for line in report.splitlines() if line.startswith(f"| {LONG_QUESTION} | "))
    good_cell, bad_cell = (cell.strip() for cell in row.strip("|").split("|")[1:3])
    assert bad_cell == "0" and float(good_cell) >= 50


# --- what the set is called, and what each column covers --------------------------------------------------------

def test_a_set_of_mostly_short_answers_is_not_titled_long_form(workspace):
    report = (workspace / "report.md").read_text(encoding="utf-8")
    assert "## Question answering — short and long-form answers" in report
    assert "— long-form answers" not in report
    assert "24 of 25 questions have a short reference answer" in report
    assert "| Pass rate (24 of 25 items) |" in report and "| Correctness (24 of 25 items) |" in report
    assert "| Reference overlap (ROUGE) (1 of 25 items) |" in report
    charts = sorted(p.name for p in (workspace / "report_charts").iterdir())
    assert charts and all(name.startswith("question-answering-short-and-long-form-answers") for name in charts)
    eval_out = (workspace / "eval.out").read_text(encoding="utf-8")
    assert "2 of 50 answers scored as long-form answers" in eval_out


# --- eval --match-mode --------------------------------------------------------------------------------------------

def test_eval_takes_the_match_mode_records_it_and_redoes_an_evaluation_made_with_another(workspace, tmp_path):
    gt = workspace / "gt" / "consolidated_qa_groundtruth.json"
    default = _evaluation(workspace, "good")
    assert "match_mode" not in default  # files made without --match-mode keep their bytes
    out = tmp_path / "eval"
    _invoke("eval", "-d", str(workspace / "exp"), "-g", str(gt), "-o", str(out), "--match-mode", "gaia")
    assert "match_mode" not in json.loads((out / "good.experiment.eval.json").read_text(encoding="utf-8"))
    again = _invoke("eval", "-d", str(workspace / "exp"), "-g", str(gt), "-o", str(out), "--match-mode", "exact")
    assert "redone 2" in again
    exact = json.loads((out / "good.experiment.eval.json").read_text(encoding="utf-8"))
    assert exact["match_mode"] == "exact"
    # the good system answers in sentences: exact match refuses what gaia accepts
    assert exact["grade"]["pass_rate"] < default["grade"]["pass_rate"]
    refused = CliRunner().invoke(cli, ["eval", "-d", str(workspace / "exp"), "-o", str(out), "--match-mode", "nope"])
    assert refused.exit_code == 2 and "gaia" in refused.output
    pointless = CliRunner().invoke(cli, ["eval", "-o", str(out), "--regenerate-report", "--match-mode", "exact"])
    assert pointless.exit_code == 2 and "--match-mode does nothing with --regenerate-report" in pointless.output


# --- how far to trust the pass rate --------------------------------------------------------------------------------

def test_the_report_quotes_the_packaged_agreement_per_shape_of_answer(workspace):
    report = (workspace / "report.md").read_text(encoding="utf-8")
    paragraph = next(line for line in report.splitlines() if line.startswith("**How far to trust these pass rates**"))
    assert "`evouna_tq`" in paragraph and "mode `gaia`" in paragraph
    for shape in ("short", "sentence", "paragraph"):
        assert f"{shape} answers (n = " in paragraph
    assert "earlier version of the matcher" not in paragraph  # the packaged figures are current (see below)


def test_the_users_own_labels_replace_the_packaged_figures_for_the_mode_the_evaluation_used(workspace, tmp_path):
    eval_dir = tmp_path / "eval"
    shutil.copytree(workspace / "eval", eval_dir)
    labels = tmp_path / "labels.jsonl"
    lines = [{"question": "Who finds Margaret?", "expected": ["Tobias", "her servant"], "output": output,
              "system": system, "human": {"correct": correct}}
             for output, system, correct in (("Tobias finds her.", "good", True), ("Edmund.", "bad", False))]
    labels.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    _invoke("meta-eval", str(labels), "-o", str(eval_dir / "answer_agreement.json"))
    _invoke("report", "-d", str(eval_dir), "-o", str(tmp_path / "report.md"))
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "**How far to trust these pass rates, by your own labels**" in report
    assert "mode `gaia`) agreed with your correct/incorrect judgments of 2 answers (`labels.jsonl`" in report
    assert "`evouna_tq`" not in report


def test_packaged_figures_measured_with_another_matcher_say_so(workspace, tmp_path, monkeypatch):
    from gaia_eval.metaeval import answer_trust

    monkeypatch.setattr(answer_trust, "matcher_fingerprint", lambda: "changed")
    _invoke("report", "-d", str(workspace / "eval"), "-o", str(tmp_path / "report.md"))
    assert "with an earlier version of the matcher" in (tmp_path / "report.md").read_text(encoding="utf-8")


# --- the README's blocks, run as written -----------------------------------------------------------------------------

def _readme_block(heading: str) -> str:
    import re

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index(heading):]
    return re.search(r"```bash\n(.*?)```", section, re.S).group(1)


def test_the_readme_blocks_on_own_questions_and_answer_labels_run_as_written(fresh_clone, tmp_path):  # noqa: F811
    import os
    import subprocess
    import sys

    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "GAIA_EVAL_CACHE_DIR": str(tmp_path / "cache")}
    for heading in ("## Your own questions", "### Answers judged correct or incorrect"):
        run = subprocess.run(["bash", "-euo", "pipefail", "-c", _readme_block(heading)], cwd=fresh_clone, env=env,
                             capture_output=True, text=True, timeout=600)
        assert run.returncode == 0, run.stdout + run.stderr
    report = (fresh_clone / "byod" / "own" / "report.md").read_text(encoding="utf-8")
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    quoted = readme[readme.index('here "the answer matcher (mode `lenient`)') + 6:].split('"')[0]
    assert " ".join(quoted.split()) in report  # the figures the README quotes are the run's
    assert "| Pass rate (24 of 25 items) |" in report
    assert (fresh_clone / "byod" / "answer_agreement.json").is_file()
    status = subprocess.run(["git", "status", "--porcelain"], cwd=fresh_clone, capture_output=True, text=True,
                            check=True).stdout
    assert status == ""
