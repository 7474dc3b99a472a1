"""Long-form question answering: answers whose reference is prose are scored with the free-text criteria, never by
the short-answer matcher; import-outputs takes answers keyed by question id and says which use case it built."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from gaia_eval.artifacts.groundtruth import QAPair
from gaia_eval.cli import cli
from gaia_eval.scoring.rubric import is_long_form

QMSUM = Path(__file__).parent / "data" / "qmsum"
MEETING = "ES2009b"


def _run(*args: str):
    return CliRunner().invoke(cli, list(args))


def _rows(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.fixture()
def qa_gt(tmp_path: Path) -> Path:
    """import-groundtruth of one QMSum meeting: its summarization and qa consolidated files in gt/."""
    data = tmp_path / "data"
    data.mkdir()
    for name in (f"{MEETING}.txt", f"{MEETING}.references.json"):
        shutil.copy(QMSUM / name, data / name)
    result = _run("import-groundtruth", str(data / f"{MEETING}.references.json"), "--source-file", "{item_id}.txt",
                  "--references-field", "general_queries.answer", "--qa-field", "specific_queries",
                  "--question-key", "query", "-o", str(tmp_path / "gt"))
    assert result.exit_code == 0, result.output
    assert (
        "qa: 6 questions, 6 with long-form answers (scored with the free-text criteria), 0 with short" in result.output
    )
    return tmp_path / "gt" / "consolidated_qa_groundtruth.json"


def _answers() -> list[str]:
    return [q["answer"] for q in json.loads((QMSUM / f"{MEETING}.references.json").read_text())["specific_queries"]]


def test_a_prose_reference_is_long_form_and_a_short_or_listed_one_is_not() -> None:
    def pair(answer: str, answer_type: str = "string") -> QAPair:
        return QAPair(id="q01", query="?", answer=answer, answer_type=answer_type)

    assert all(is_long_form(pair(a)) for a in _answers())
    assert not is_long_form(pair("Alice Moreau and Bongani Dlamini"))
    assert not is_long_form(pair("the remote control will use a kinetic battery"))  # 8 words: a short phrase
    names = "Alice Moreau, Bongani Dlamini, Chen Wei, Dmitri Volkov, Eva Lind, Farah Khan, Gus Ortiz, Hana Sato"
    assert not is_long_form(pair(names))  # 16 words, but a list of short items
    assert not is_long_form(pair(" ".join(["1"] * 20), "number"))
    assert is_long_form(pair("The group agreed that the remote should be curved and that the buttons should be rubber "
                             "so that it feels soft."))


def test_import_outputs_takes_answers_keyed_by_question_id_and_scores_them_as_long_form(
    tmp_path: Path, qa_gt: Path
) -> None:
    """Regression: the rows were refused with "no source text for item 'ES2009b#q01' (fix: ... pass -g ...)"
    although -g was passed; the human answers then graded Poor through the short-answer matcher."""
    answers = _answers()
    rows = [{"item_id": f"{MEETING}#q{n:02d}", "system": "human", "output": a} for n, a in enumerate(answers, 1)]
    rows += [
        {"item_id": f"{MEETING}#q{n:02d}", "system": "terse", "output": a.split(".")[0]}
        for n, a in enumerate(answers, 1)
    ]
    result = _run(
        "import-outputs", str(_rows(tmp_path / "answers.jsonl", rows)), "-g", str(qa_gt), "-o", str(tmp_path / "exp")
    )
    assert result.exit_code == 0, result.output
    assert "use case: qa (from the ground truth consolidated_qa_groundtruth.json)" in result.output
    exp = json.loads((tmp_path / "exp" / "human.experiment.json").read_text())
    assert exp["use_case"] == "qa" and exp["groundtruth"] == "embedded" and set(exp["sources"]) == {MEETING}
    first = exp["items"][0]
    assert first["item_id"] == f"{MEETING}#q01" and first["source"] == MEETING
    assert (
        first["groundtruth_answer"]["answer"] == answers[0] and first["query"] == first["groundtruth_answer"]["query"]
    )

    result = _run("eval", "-d", str(tmp_path / "exp"), "-g", str(qa_gt), "-o", str(tmp_path / "ev"))
    assert result.exit_code == 0, result.output
    assert "scored as long-form answers" in result.output
    human = json.loads((tmp_path / "ev" / "human.experiment.eval.json").read_text())
    terse = json.loads((tmp_path / "ev" / "terse.experiment.eval.json").read_text())
    assert [c["criterion"] for c in human["criteria"]] == [
        "reference_overlap",
        "content_coverage",
        "source_consistency",
        "conciseness",
    ]
    assert "long-form answers" in human["mode_note"]
    assert human["grade"]["pass_rate"] is None and all(i["passed"] is None for i in human["items"])
    assert not any("list:" in c["explanation"] for i in human["items"] for c in i["criteria"])
    by_id = {c["criterion"]: c for c in human["criteria"]}
    assert by_id["reference_overlap"]["mean_value"] == 1.0 and by_id["content_coverage"]["mean_value"] == 1.0
    assert human["grade"]["quality_score"] > terse["grade"]["quality_score"] + 20

    assert _run("report", "-d", str(tmp_path / "ev"), "-o", str(tmp_path / "r.md")).exit_code == 0
    report = (tmp_path / "r.md").read_text()
    assert "## Question answering — long-form answers" in report
    assert "| Pass rate |" not in report and "pass rate 0%" not in report
    assert f"| {MEETING}#q01 | 100 |" in report  # per-item scores, not pass/fail


def test_questions_with_short_and_long_answers_carry_both_kinds_of_criteria(tmp_path: Path) -> None:
    source = (QMSUM / f"{MEETING}.txt").read_text()
    long_answer = _answers()[0]
    gt_file = _rows(tmp_path / "gt.jsonl", [{"item_id": "m", "source": source, "qa": [
        {"question": "Who is the project manager?", "answer": "Sarah"},
        {"question": "Summarize the presentations.", "answer": long_answer}]}])
    imported = _run("import-groundtruth", str(gt_file), "-o", str(tmp_path / "gt"))
    assert "qa: 2 questions, 1 with long-form answers" in imported.output
    qa_gt = tmp_path / "gt" / "consolidated_qa_groundtruth.json"
    rows = [
        {"item_id": "m#q01", "system": "s", "output": "Sarah"},
        {"item_id": "m#q02", "system": "s", "output": long_answer},
    ]
    assert (
        _run(
            "import-outputs", str(_rows(tmp_path / "a.jsonl", rows)), "-g", str(qa_gt), "-o", str(tmp_path / "exp")
        ).exit_code
        == 0
    )
    result = _run("eval", "-d", str(tmp_path / "exp"), "-o", str(tmp_path / "ev"))
    assert result.exit_code == 0, result.output
    ev = json.loads((tmp_path / "ev" / "s.experiment.eval.json").read_text())
    assert [c["criterion"] for c in ev["criteria"]] == ["correctness", "reference_overlap", "content_coverage",
                                                        "source_consistency", "conciseness"]
    short, long_ = ({c["criterion"]: c["rating"] for c in i["criteria"]} for i in ev["items"])
    assert short["correctness"] == "Excellent" and short["reference_overlap"] == "N/A"
    assert long_["correctness"] == "N/A" and long_["content_coverage"] == "Excellent"
    assert ev["items"][0]["passed"] is True and ev["items"][1]["passed"] is None
    assert ev["grade"]["pass_rate"] == 1.0  # over the questions that have a pass/fail


def test_a_source_column_never_turns_answers_into_a_summarization_experiment(tmp_path: Path, qa_gt: Path) -> None:
    """Regression: with a source column the rows became a summarization experiment that eval then refused."""
    rows = [{"item_id": f"{MEETING}#q01", "system": "s", "output": _answers()[0], "source": "the meeting"}]
    result = _run(
        "import-outputs", str(_rows(tmp_path / "a.jsonl", rows)), "-g", str(qa_gt), "-o", str(tmp_path / "exp")
    )
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "exp" / "s.experiment.json").read_text())["use_case"] == "qa"
    assert _run("eval", "-d", str(tmp_path / "exp"), "-g", str(qa_gt), "-o", str(tmp_path / "ev")).exit_code == 0


def test_without_ground_truth_the_use_case_taken_is_said(tmp_path: Path) -> None:
    rows = [{"item_id": "doc", "system": "s", "output": "A summary.", "source": "The document."}]
    result = _run("import-outputs", str(_rows(tmp_path / "a.jsonl", rows)), "-o", str(tmp_path / "exp"))
    assert result.exit_code == 0, result.output
    assert "use case: summarization (the default without -g" in result.output
    bad = _run("import-outputs", str(tmp_path / "a.jsonl"), "--use-case", "qa", "-o", str(tmp_path / "exp2"))
    assert bad.exit_code == 2 and "pass -g consolidated_qa_groundtruth.json" in bad.output
    assert len(bad.output.strip().splitlines()) == 1 and not (tmp_path / "exp2").exists()


@pytest.mark.parametrize(
    "item_id, use_case, expected",
    [
        (MEETING, "qa", f"field 'item_id': line 1: item_id '{MEETING}' names a document, not one of its questions"),
        (f"{MEETING}#q99", "qa", f"item_id '{MEETING}#q99' is no question of consolidated_qa_groundtruth.json"),
        (
            f"{MEETING}#q01",
            "summarization",
            "looks like a question id but consolidated_summarization_groundtruth.json holds summaries",
        ),
        (
            "other",
            "summarization",
            "item 'other' is not in consolidated_summarization_groundtruth.json and the row has no source column",
        ),
    ],
)
def test_a_row_the_ground_truth_does_not_cover_says_which_column_is_wrong(
    tmp_path: Path, qa_gt: Path, item_id: str, use_case: str, expected: str
) -> None:
    """Regression: the message told to pass -g although -g was passed."""
    gt = qa_gt.with_name(f"consolidated_{use_case}_groundtruth.json")
    rows = [{"item_id": item_id, "system": "s", "output": "x"}]
    result = _run("import-outputs", str(_rows(tmp_path / "a.jsonl", rows)), "-g", str(gt), "-o", str(tmp_path / "exp"))
    assert result.exit_code == 2 and expected in result.output, result.output
    assert "pass -g with" not in result.output and len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "exp").exists()


def test_use_case_that_contradicts_the_ground_truth_is_refused(tmp_path: Path, qa_gt: Path) -> None:
    rows = [{"item_id": f"{MEETING}#q01", "system": "s", "output": "x"}]
    result = _run(
        "import-outputs",
        str(_rows(tmp_path / "a.jsonl", rows)),
        "-g",
        str(qa_gt),
        "--use-case",
        "summarization",
        "-o",
        str(tmp_path / "exp"),
    )
    assert result.exit_code == 2 and "holds qa ground truth but --use-case is summarization" in result.output


def test_long_form_answers_are_judged_when_asked_against_the_whole_reference_answer(
    fake_llm, tmp_path: Path, qa_gt: Path, monkeypatch
) -> None:
    from gaia_eval.artifacts.evaluation import Evaluation
    from gaia_eval.artifacts.store import read_artifact
    from gaia_eval.scoring.judge.criteria import COMPARATIVE_QA
    from gaia_eval.stages.eval.run import run_eval
    from tests.fakeserver import last_user_text
    from tests.test_judge import judge_responder, judge_settings

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-openai")
    fake_llm.responder = judge_responder
    answers = _answers()
    rows = [{"item_id": f"{MEETING}#q{n:02d}", "system": "human", "output": a} for n, a in enumerate(answers, 1)]
    assert (
        _run(
            "import-outputs", str(_rows(tmp_path / "a.jsonl", rows)), "-g", str(qa_gt), "-o", str(tmp_path / "exp")
        ).exit_code
        == 0
    )
    run_eval(experiment_dir=tmp_path / "exp", output_dir=tmp_path / "ev", judge=judge_settings(fake_llm))
    ev = read_artifact(tmp_path / "ev" / "human.experiment.eval.json", Evaluation)
    prompts = [last_user_text(r["body"]) for r in fake_llm.requests]
    assert len(prompts) == len(answers) and all("<expected_answer>" in p for p in prompts)
    assert any(answers[0] in p for p in prompts)  # the whole paragraph, not a short answer
    assert ev.judge is not None and [c.criterion for c in ev.judge.criteria] == [c.id for c in COMPARATIVE_QA]
    versus = ev.judge.judge_vs_rubric
    assert versus is not None and versus.criteria == {
        "completeness": "content_coverage",
        "faithfulness": "source_consistency",
    }


def test_eval_takes_the_summaries_and_the_questions_ground_truth_of_the_same_documents_at_once(
    tmp_path: Path, qa_gt: Path
) -> None:
    """Regression: `eval -g consolidated_*_groundtruth.json` merged import-groundtruth's two files by item id (a
    document's summaries and its questions share it), so one use case's experiments were refused."""
    refs = json.loads((QMSUM / f"{MEETING}.references.json").read_text())
    summaries = _rows(
        tmp_path / "s.jsonl", [{"item_id": MEETING, "system": "writer", "output": refs["general_queries"][0]["answer"]}]
    )
    answers = _rows(
        tmp_path / "a.jsonl", [{"item_id": f"{MEETING}#q01", "system": "answerer", "output": _answers()[0]}]
    )
    summary_gt = qa_gt.with_name("consolidated_summarization_groundtruth.json")
    assert (
        _run("import-outputs", str(summaries), "-g", str(summary_gt), "-o", str(tmp_path / "exp" / "s")).exit_code == 0
    )
    assert _run("import-outputs", str(answers), "-g", str(qa_gt), "-o", str(tmp_path / "exp" / "q")).exit_code == 0
    for order in ((qa_gt, summary_gt), (summary_gt, qa_gt)):
        out = tmp_path / f"ev-{order[0].name}"
        result = _run("eval", "-d", str(tmp_path / "exp"), "-g", str(order[0]), "-g", str(order[1]), "-o", str(out))
        assert result.exit_code == 0, result.output
        writer = json.loads((out / "s" / "writer.experiment.eval.json").read_text())
        answerer = json.loads((out / "q" / "answerer.experiment.eval.json").read_text())
        assert {c["criterion"]: c["mean_value"] for c in writer["criteria"]}[
            "reference_overlap"
        ] == 1.0  # its references
        assert (
            answerer["items"][0]["criteria"][0]["criterion"] == "reference_overlap"
            and answerer["grade"]["n_items"] == 1
        )
