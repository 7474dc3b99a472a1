"""The free-text grade's weights: their provenance file, their use by the grade and by eval's aggregate, the
degenerate outputs the grade rates Poor, and the cross-validation that chose them (never fit and report on the
same document)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gaia_eval.artifacts.evaluation import ItemEvaluation
from gaia_eval.metaeval import crossval
from gaia_eval.scoring.rubric import (
    FREE_TEXT_CRITERIA,
    LONG_FORM_CRITERIA,
    aggregate,
    item_points,
    rating_band,
    score_against_references,
    score_summary_output,
)
from gaia_eval.scoring.rubric import weights as weights_module
from gaia_eval.scoring.rubric.degenerate import degenerate_reason
from gaia_eval.scoring.rubric.grading import criterion_result
from gaia_eval.scoring.scorers import FREE_TEXT, LONG_FORM_QA

CRITERIA = {c.id: c for s in (FREE_TEXT, LONG_FORM_QA) for c in s.criteria}  # as the free-text scorers carry them

DATA = Path(__file__).parent / "data" / "qmsum"
MEETING = (DATA / "ES2009b.txt").read_text()
MEETING_REFERENCE = json.loads((DATA / "ES2009b.references.json").read_text())["general_queries"][0]["answer"]
CHAT = (
    "Amanda: I baked cookies. Do you want some?\\n"
    "Jerry: Sure! How many did you make?\\n"
    "Amanda: About 30. I will bring you some tomorrow :-)\\n"
    "Jerry: Great, see you at the office then."
)
CHAT_REFERENCE = "Amanda baked about 30 cookies and will bring Jerry some tomorrow at the office."


# --- the weights file and its provenance -------------------------------------------------------------------------

def test_weights_file_names_its_source_method_folds_and_figures() -> None:
    document = weights_module.weights_file()
    assert document["fitted"][:4].isdigit() and "crossval" not in document["fitted"]
    assert "fold" in document["method"].lower() and "document" in document["method"].lower()
    assert document["folds"] >= 2
    assert any("DialSummEval" in name for name in document["datasets"])
    assert any("SummEval" in name and "Dial" not in name for name in document["datasets"])
    for name, fit_on in (("with_reference", {"DialSummEval"}), ("source_only", {"DialSummEval", "SummEval"})):
        entry = document[name]
        weights = entry["weights"]
        assert all(w >= 0 for w in weights.values()) and sum(weights.values()) == pytest.approx(1.0)
        assert {d["dataset"].split()[0] for d in entry["fit_on"]} == fit_on
        assert len(entry["fold_weights"]) == document["folds"]
        for dataset in entry["fit_on"]:
            figures = entry["cross_validated"][dataset["dataset"]]
            for dimension in ("relevance", "consistency"):
                assert {"grade", "length"} <= set(figures[dimension])
                assert figures[dimension]["grade"]["summary"] is not None
    assert set(document["with_reference"]["weights"]) == {
        "reference_overlap", "content_coverage", "source_coverage", "source_consistency", "conciseness"}
    assert set(document["source_only"]["weights"]) == {"source_coverage", "source_consistency", "conciseness"}


def test_the_grade_reads_its_weights_from_the_file(monkeypatch: pytest.MonkeyPatch) -> None:
    before = score_summary_output("Amanda baked cookies for Jerry.", CHAT, [CHAT_REFERENCE])
    document = json.loads(json.dumps(weights_module.weights_file()))
    document["with_reference"]["weights"] = {c: (1.0 if c == "source_consistency" else 0.0)
                                             for c in document["with_reference"]["weights"]}
    monkeypatch.setattr(weights_module, "weights_file", lambda: document)
    after = score_summary_output("Amanda baked cookies for Jerry.", CHAT, [CHAT_REFERENCE])
    consistency = next(r for r in after.results if r.criterion == "source_consistency")
    assert after.grade == pytest.approx(consistency.value * 100)
    assert after.grade != before.grade


def test_weights_renormalize_over_applicable_criteria_and_leave_other_use_cases_equal() -> None:
    with_reference = weights_module.criterion_weights(["reference_overlap", "content_coverage", "source_coverage",
                                                       "source_consistency", "conciseness"])
    assert sum(with_reference.values()) == pytest.approx(1.0)
    assert with_reference == {c: pytest.approx(w) for c, w in weights_module.weight_set("with_reference").items()}
    source_only = weights_module.criterion_weights(["source_coverage", "source_consistency", "conciseness"])
    assert source_only == {c: pytest.approx(w) for c, w in weights_module.weight_set("source_only").items()}
    assert weights_module.criterion_weights(["completeness", "topic_coverage"]) == {
        "completeness": 1.0,
        "topic_coverage": 1.0,
    }


def test_eval_aggregate_is_the_mean_of_the_weighted_item_grades() -> None:
    outputs = ["Amanda baked about 30 cookies and will bring Jerry some tomorrow.", "Jerry is at the office.",
               "Amanda and Jerry talked."]
    items = [
        ItemEvaluation(
            item_id=f"i{k}",
            source="chat",
            status="scored",
            criteria=score_against_references(text, CHAT, [CHAT_REFERENCE]),
        )
        for k, text in enumerate(outputs)
    ]
    items.append(ItemEvaluation(item_id="failed", source="chat", status="error", criteria=[]))
    names = [r.criterion for r in items[0].criteria]
    _, grade = aggregate(items, names, pass_rate=False)
    expected = [score_summary_output(text, CHAT, [CHAT_REFERENCE]).grade for text in outputs] + [0.0]
    assert [item_points(i, names) for i in items] == pytest.approx(expected)
    assert grade.quality_score == pytest.approx(sum(expected) / len(expected))
    assert grade.overall_rating == rating_band(grade.quality_score)


# --- the grade keeps the order inside a rating band --------------------------------------------------------------

def _item(item_id: str, values: dict[str, float]) -> ItemEvaluation:
    return ItemEvaluation(
        item_id=item_id, source="chat", status="scored",
        criteria=[criterion_result(c, v, "measured") for c, v in values.items()],
    )


def test_summaries_rated_alike_are_ordered_by_their_values_and_keep_their_ratings() -> None:
    names = list(FREE_TEXT_CRITERIA)
    at_floor = {c: CRITERIA[c].good for c in names}  # every criterion just Good
    inside = {c: (CRITERIA[c].good + CRITERIA[c].excellent) / 2 for c in names}  # still Good, carrying more
    low, high = _item("low", at_floor), _item("high", inside)
    assert {r.rating for r in low.criteria} == {r.rating for r in high.criteria} == {"Good"}
    assert item_points(high, names) > item_points(low, names)
    weights = weights_module.weight_set("with_reference")
    assert item_points(high, names) == pytest.approx(100 * sum(weights[c] * inside[c] for c in names))
    failed = ItemEvaluation(item_id="failed", source="chat", status="error", criteria=[])
    summaries, grade = aggregate([low, high, failed], names, pass_rate=False)
    assert grade.quality_score == pytest.approx((item_points(low, names) + item_points(high, names)) / 3)
    assert grade.counts["Good"] == 10 and grade.counts["Poor"] == 5  # the ratings shown are unchanged
    assert all(s.counts["Good"] == 2 for s in summaries)


def test_the_summary_grade_is_the_weighted_mean_of_its_values() -> None:
    scored = score_summary_output("Amanda baked about 30 cookies for Jerry.", CHAT, [CHAT_REFERENCE])
    weights = weights_module.weight_set("with_reference")
    assert scored.grade == pytest.approx(100 * sum(w * scored.values[c] for c, w in weights.items()), abs=1e-6)
    alone = score_summary_output("Amanda baked about 30 cookies for Jerry.", CHAT)  # from the source only
    weights = weights_module.weight_set("source_only")
    assert alone.grade == pytest.approx(100 * sum(w * alone.values[c] for c, w in weights.items()), abs=1e-6)


def test_a_long_form_answer_keeps_the_rating_points_with_equal_weights() -> None:
    names = list(LONG_FORM_CRITERIA)  # no weights were fit on long-form answers, nor on their values
    at_floor = _item("low", {c: CRITERIA[c].good for c in names})
    inside = _item("high", {c: (CRITERIA[c].good + CRITERIA[c].excellent) / 2 for c in names})
    assert item_points(at_floor, names) == item_points(inside, names) == pytest.approx(200 / 3)


def _free_text_experiment(folder: Path) -> Path:
    """An imported system's summaries of the chat, scored from the source alone (the source-only weights)."""
    from gaia_eval.stages.imports.outputs import run_import_outputs

    outputs = ["Amanda baked about 30 cookies and will bring Jerry some tomorrow.", "Jerry is at the office."]
    rows = folder / "outputs.jsonl"
    rows.write_text("".join(json.dumps({"item_id": f"chat{k}", "system": "mine", "output": text, "source": CHAT})
                            + "\n" for k, text in enumerate(outputs)))
    run_import_outputs(rows, folder / "exp")
    return folder / "exp"


def _grade(folder: Path) -> float:
    (path,) = folder.rglob("*.experiment.eval.json")
    return float(json.loads(path.read_text())["grade"]["quality_score"])


def test_an_evaluation_graded_under_other_weights_or_rubric_is_scored_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gaia_eval.scoring import rubric
    from gaia_eval.stages.eval.run import run_eval

    experiments, evaluations = _free_text_experiment(tmp_path), tmp_path / "eval"
    with monkeypatch.context() as older:  # written by the previous rubric
        older.setattr(rubric, "RUBRIC_VERSION", "8")
        run_eval(experiment_dir=experiments, output_dir=evaluations)
    rescored = run_eval(experiment_dir=experiments, output_dir=evaluations)
    assert (rescored.skipped, rescored.redone) == (0, 1)
    assert run_eval(experiment_dir=experiments, output_dir=evaluations).skipped == 1  # now current
    before = _grade(evaluations)
    document = json.loads(json.dumps(weights_module.weights_file()))
    document["source_only"]["weights"] = {"source_coverage": 0.0, "source_consistency": 1.0, "conciseness": 0.0}
    monkeypatch.setattr(weights_module, "weights_file", lambda: document)  # weights fit again, same rubric version
    refit = run_eval(experiment_dir=experiments, output_dir=evaluations)
    assert (refit.skipped, refit.redone) == (0, 1)
    assert _grade(evaluations) != before


# --- degenerate outputs grade Poor -------------------------------------------------------------------------------

FILLER_92 = " ".join(MEETING.splitlines()[0].split(":", 1)[1].split()[:92])
TRUNCATED = "The team agreed that the remote control will be for television only and that the"
LOOP = "The remote will be for television only. " + "The remote will be yellow and the remote will be " * 8
FIRST_LINES = "\\n".join(MEETING.splitlines()[:6])
LONG_SOURCE = MEETING_REFERENCE  # a clean text of 100+ words: only the copy rule can catch its copy
MEETING_START = " ".join(MEETING.split()[:300])

DEGENERATE = {
    "verbatim copy of the source": (LONG_SOURCE, LONG_SOURCE),
    "verbatim copy of a transcript, filler included": (MEETING_START, MEETING_START),
    "92 words of meeting filler": (FILLER_92, MEETING),
    "truncated sentence": (TRUNCATED, MEETING),
    "repetition loop": (LOOP, MEETING),
    "empty": ("", MEETING),
    "one word": ("Remote.", MEETING),
    "the source's first lines": (FIRST_LINES, MEETING),
}


@pytest.mark.parametrize("case", list(DEGENERATE))
@pytest.mark.parametrize("with_reference", [False, True], ids=["source-only", "with-reference"])
def test_degenerate_output_grades_poor(case: str, with_reference: bool) -> None:
    output, source = DEGENERATE[case]
    references = [MEETING_REFERENCE] if with_reference else []
    scored = score_summary_output(output, source, references)
    assert scored.grade is not None and rating_band(scored.grade) == "Poor", (case, scored.grade)
    if output.strip():
        assert scored.degenerate is not None
        assert all(r.explanation.startswith("not a summary") for r in scored.results if r.rating != "N/A")


def test_a_real_summary_is_not_taken_for_a_degenerate_one() -> None:
    scored = score_summary_output(MEETING_REFERENCE, MEETING, [MEETING_REFERENCE])
    assert scored.degenerate is None and rating_band(scored.grade) != "Poor"
    assert degenerate_reason(CHAT_REFERENCE, CHAT) is None
    assert degenerate_reason("Barca have no plans to replace Luis Enrique", None) is None  # no final stop: not cut
    assert degenerate_reason("Amanda and Jerry", None) is None  # three words


def test_each_rule_names_its_reason() -> None:
    assert "short" in degenerate_reason("Remote.", MEETING)
    assert "repetition" in degenerate_reason(LOOP, MEETING)
    assert "cut off" in degenerate_reason(TRUNCATED, MEETING)
    assert "speech" in degenerate_reason(FILLER_92, MEETING)
    assert "copy" in degenerate_reason(LONG_SOURCE, LONG_SOURCE)


# --- cross-validation by document --------------------------------------------------------------------------------

def _synthetic(name: str, documents: int, systems: int = 5, seed: int = 0) -> crossval.Dataset:
    import numpy as np

    rng = np.random.default_rng(seed)
    a = rng.random((documents, systems))
    b = rng.random((documents, systems))
    human = a + 0.5 * b + rng.normal(0, 0.1, (documents, systems))
    return crossval.Dataset(
        name=name,
        documents=[f"{name}-{k:02d}" for k in range(documents)],
        values={"x": a, "y": b},
        degenerate=np.zeros((documents, systems), dtype=bool),
        human={"relevance": human, "consistency": human},
        rivals={"length": rng.normal(size=(documents, systems)), "x": a},
    )


def test_no_document_is_both_fit_on_and_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    datasets = [_synthetic("dse", 23), _synthetic("se", 17, seed=1)]
    seen: list[list[str]] = []
    original = crossval.objective
    monkeypatch.setattr(crossval, "objective", lambda g, d, docs: seen.append(list(docs)) or original(g, d, docs))
    fitting: dict[int, set[str]] = {}
    original_best = crossval._best

    def best(ds, criteria, candidates, documents):
        seen.clear()
        chosen = original_best(ds, criteria, candidates, documents)
        fitting[len(fitting)] = {doc for docs in seen for doc in docs}
        return chosen

    monkeypatch.setattr(crossval, "_best", best)
    cv = crossval.cross_validate(datasets, ["x", "y"])
    reported: list[str] = []
    for fold in cv.folds:
        report = {doc for docs in fold.report_documents.values() for doc in docs}
        assert not report & fitting[fold.index], f"fold {fold.index} fit on documents it reports"
        assert not report & {doc for docs in fold.fit_documents.values() for doc in docs}
        reported += sorted(report)
    everything = [doc for d in datasets for doc in d.documents]
    assert sorted(reported) == sorted(everything)  # every document reported exactly once
    assert cv.weights["x"] > cv.weights["y"]  # the fit finds the planted signal


def test_folds_split_documents_not_summaries() -> None:
    folds = crossval.fold_of(["b", "a", "c", "a", "d", "e", "f"], 3)
    assert folds == {"a": 0, "b": 1, "c": 2, "d": 0, "e": 1, "f": 2}
    assert len(crossval.simplex(3, 0.05)) == 231 and all(abs(sum(w) - 1) < 1e-9 for w in crossval.simplex(3, 0.05))
