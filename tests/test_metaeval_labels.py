"""meta-eval on answers people judged correct or incorrect: every match mode and the substring / exact-match
baselines against the people's verdicts (agreement, Cohen's kappa, false accepts and rejects, per system, with
bootstrap intervals over questions), the cross-validated choice of rule, and the files it writes. Synthetic cases
give exact figures; the committed EVOUNA fixture (tests/data/evouna_tq) is real answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gaia_eval.artifacts.answer_agreement import AnswerAgreement
from gaia_eval.artifacts.store import read_artifact
from gaia_eval.cli import cli
from gaia_eval.metaeval.label_agreement import baseline_verdict, figures, normalise
from gaia_eval.metaeval.label_crossval import cross_validate, fold_of_items
from gaia_eval.metaeval.labels import LabelledAnswer, holds_answer_labels, load_answer_labels
from gaia_eval.scoring.answers import match_answer
from gaia_eval.stages.meta_eval_labels import run_meta_eval_labels

FIXTURE = Path(__file__).parent / "data" / "evouna_tq" / "answer_labels.jsonl"


def _line(question: str, expected, output: str, system: str, correct: bool, **extra) -> dict:
    return {"question": question, "expected": expected, "output": output, "system": system,
            "human": {"correct": correct}, **extra}


def _write(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


# Two systems, three questions. With `exact`: A is right on q1, wrongly accepted on q2 (people said incorrect:
# the answer is the gold but people judged it wrong), right to refuse q3; B is wrongly refused on q1 (people
# accepted a paraphrase), right on q2 and q3.
SYNTHETIC = [
    _line("Capital of France?", "Paris", "Paris", "A", True),
    _line("Capital of Italy?", "Rome", "Rome", "A", False),
    _line("Capital of Spain?", "Madrid", "Lisbon", "A", False),
    _line("Capital of France?", "Paris", "It is the city of Paris, France", "B", True),
    _line("Capital of Italy?", "Rome", "Rome", "B", True),
    _line("Capital of Spain?", "Madrid", "Barcelona", "B", False),
]


def _kappa(scorer: list[bool], human: list[bool]) -> float:
    n = len(scorer)
    observed = sum(s == h for s, h in zip(scorer, human, strict=True)) / n
    ps, ph = sum(scorer) / n, sum(human) / n
    chance = ps * ph + (1 - ps) * (1 - ph)
    return (observed - chance) / (1 - chance)


def test_exact_figures_per_scorer_and_system_on_a_synthetic_set(tmp_path):
    run = run_meta_eval_labels(_write(tmp_path / "labels.jsonl", SYNTHETIC), metrics=["exact"])
    result = run.result
    exact = result.result("exact")
    assert exact is not None and not exact.baseline
    # exact accepts: A q1, A q2, B q2 (B q1 is a sentence, not the bare name)
    scorer, human = [True, True, False, False, True, False], [line["human"]["correct"] for line in SYNTHETIC]
    assert exact.overall.n == 6 and exact.overall.agreement == pytest.approx(4 / 6)
    assert exact.overall.false_accepts == 1 and exact.overall.false_rejects == 1
    assert exact.overall.kappa == pytest.approx(_kappa(scorer, human))
    assert exact.systems["A"].false_accepts == 1 and exact.systems["A"].false_rejects == 0
    assert exact.systems["B"].false_accepts == 0 and exact.systems["B"].false_rejects == 1
    assert exact.systems["B"].agreement == pytest.approx(2 / 3)
    # the substring baseline finds "paris" inside B's sentence: one false reject fewer
    substring = result.result("substring")
    assert substring is not None and substring.baseline
    assert (substring.overall.false_accepts, substring.overall.false_rejects) == (1, 0)
    assert result.result("exact_match").overall.agreement == pytest.approx(4 / 6)
    assert result.n_items == 3 and result.n_answers == 6 and result.human_correct == 3
    assert "| exact | 6 | 66.7%" in run.markdown and "| substring (baseline) | 6 | 83.3%" in run.markdown


def test_an_answer_giving_any_of_several_expected_answers_is_correct(tmp_path):
    lines = [_line("Who wrote Hamlet?", ["William Shakespeare", "Shakespeare"], "Shakespeare", "A", True),
             _line("Who wrote Hamlet?", ["Marlowe", "Shakespeare"], "Shakespeare", "B", True, item_id="other")]
    result = run_meta_eval_labels(_write(tmp_path / "l.jsonl", lines), metrics=["exact"]).result
    assert result.result("exact").overall.agreement == 1.0
    assert result.n_items == 2  # an item_id makes its own item even when the question text repeats


def test_baselines_normalise_as_squad_does():
    assert normalise("The Beatles!") == "beatles"
    assert baseline_verdict("exact_match", ["the beatles"], "Beatles.")
    assert baseline_verdict("substring", ["Beatles"], "It was the Beatles, in 1963.")
    assert not baseline_verdict("exact_match", ["Beatles"], "It was the Beatles")
    assert not baseline_verdict("substring", ["Beatles"], "")
    assert not baseline_verdict("substring", ["the"], "anything")  # an expected answer of only an article


def test_the_bootstrap_draws_questions_not_answers():
    """10 questions with 10 answers each; the scorer agrees on every answer of 5 questions and on none of the
    other 5. Drawing questions, agreement varies like 5 of 10 coin flips (a wide interval); drawing answers it
    would vary like 50 of 100 (about +-10 points)."""
    scorer = [True] * 100
    human = [q < 5 for q in range(10) for _ in range(10)]
    items = [q for q in range(10) for _ in range(10)]
    result = figures(scorer, human, items)
    assert result.agreement == 0.5 and result.kappa == 0.0  # the scorer always says correct: no skill
    assert result.agreement_ci is not None
    low, high = result.agreement_ci
    assert low <= 0.3 and high >= 0.7
    assert figures(scorer, human, items) == result  # seeded: the same interval every run


def test_kappa_is_none_without_an_interval_when_both_sides_agree_on_everything():
    result = figures([True] * 6, [True] * 6, [0, 0, 1, 1, 2, 2])
    assert result.agreement == 1.0 and result.kappa is None and result.kappa_ci is None


def test_cross_validation_measures_the_rule_chosen_on_training_folds_on_the_held_out_fold():
    """Rule a is right everywhere but on fold 0 (wrong on all of it); rule b is wrong once in every fold. Held out
    fold 0, training sees a at 100 %: it picks a, which gets 0 % there. Elsewhere a's training figure carries
    fold 0's errors (75 %), b's is 90 %: b is picked and gets 90 %."""
    rows = [LabelledAnswer(line=k, item=f"q{k}", question=f"q{k}?", expected=("x",), output="x", system="S",
                           correct=True) for k in range(50)]
    fold = fold_of_items(rows)
    first_of_fold: dict[int, int] = {}
    for k, row in enumerate(rows):
        first_of_fold.setdefault(fold[row.item], k)
    a = [fold[r.item] != 0 for r in rows]
    b = [first_of_fold[fold[r.item]] != k for k, r in enumerate(rows)]
    result = cross_validate(rows, {"a": a, "b": b}, ["a"])
    assert result is not None
    assert [f.chosen for f in result.folds] == ["a", "b", "b", "b", "b"]
    assert result.folds[0].train_agreement == 1.0 and result.folds[0].held_out.agreement == 0.0
    assert [f.held_out.agreement for f in result.folds[1:]] == [0.9] * 4
    assert result.held_out.agreement == pytest.approx(36 / 50)
    assert result.compared["a"].agreement == pytest.approx(40 / 50)


def test_the_real_fixture_measures_every_offline_mode_beside_both_baselines(tmp_path):
    rows = load_answer_labels(FIXTURE)
    out = tmp_path / "evaluation" / "answer_agreement.json"
    run = run_meta_eval_labels(FIXTURE, output=out, cross_validate=True)
    result = read_artifact(out, AnswerAgreement)
    assert result == run.result and out.with_suffix(".md").read_text(encoding="utf-8") == run.markdown
    measured = {r.scorer for r in result.results}
    assert {"gaia", "lenient", "exact", "f1", "contains", "fuzzy", "substring", "exact_match"} <= measured
    assert measured.isdisjoint(result.not_measured)
    assert result.systems == ["fid", "gpt35", "chatgpt", "gpt4", "newbing"]
    assert result.n_answers == 195 and result.n_items == 39 and result.human_correct == 142
    # the default mode's figures are its own verdicts, counted independently
    gaia = result.result("gaia")
    verdicts = [match_answer(list(r.expected), r.output, "gaia", question=r.question).correct for r in rows]
    assert gaia.overall.false_accepts == sum(v and not r.correct for v, r in zip(verdicts, rows, strict=True))
    assert gaia.overall.false_rejects == sum(r.correct and not v for v, r in zip(verdicts, rows, strict=True))
    newbing = [(v, r) for v, r in zip(verdicts, rows, strict=True) if r.system == "newbing"]
    assert gaia.systems["newbing"].agreement == pytest.approx(sum(v == r.correct for v, r in newbing) / 39)
    substring = [baseline_verdict("substring", r.expected, r.output) == r.correct for r in rows]
    assert result.result("substring").overall.agreement == pytest.approx(sum(substring) / 195)
    cv = result.cross_validation
    assert cv is not None and len(cv.folds) == 5 and sum(f.test_items for f in cv.folds) == 39
    assert "f1 threshold=0.3" in cv.candidates and set(cv.compared) == {"gaia", "substring", "exact_match"}
    assert "## Cross-validation" in run.markdown and "## newbing" in run.markdown


def test_the_cli_recognises_answer_labels_and_refuses_what_does_not_apply(tmp_path):
    labels = _write(tmp_path / "labels.jsonl", SYNTHETIC)
    assert holds_answer_labels(labels) and not holds_answer_labels(tmp_path / "missing.jsonl")
    runner = CliRunner()
    done = runner.invoke(cli, ["meta-eval", str(labels), "--metrics", "exact", "-o", str(tmp_path / "a.json")])
    assert done.exit_code == 0, done.output
    assert "| exact | 6 | 66.7%" in done.output and (tmp_path / "a.md").is_file()
    refused = runner.invoke(cli, ["meta-eval", str(labels), "--judge", "anthropic:claude-sonnet-4-5"])
    assert refused.exit_code == 2 and "--judge does not apply to answer labels" in refused.output
    unknown = runner.invoke(cli, ["meta-eval", str(labels), "--metrics", "rouge1_recall"])
    assert unknown.exit_code == 2 and "no such match mode" in unknown.output


@pytest.mark.parametrize(
    ("line", "field"),
    [
        ({"human": {"correct": "yes"}}, "human.correct"),
        ({"human": {"correct": True, "fluency": 3}}, "human.fluency"),
        ({"expected": []}, "expected"),
        ({"expected": [1.5, None]}, "expected"),
        ({"output": None}, "output"),
        ({"system": ""}, "system"),
        ({"answer": "Paris"}, "answer"),
        ({"references": ["Paris"]}, "references"),
    ],
)
def test_a_bad_line_is_one_error_naming_the_line_and_the_field(tmp_path, line, field):
    bad = {**SYNTHETIC[1], **line}
    labels = _write(tmp_path / "labels.jsonl", [SYNTHETIC[0], bad])
    done = CliRunner().invoke(cli, ["meta-eval", str(labels), "-o", str(tmp_path / "out.json")])
    assert done.exit_code == 2, done.output
    assert "labels.jsonl:2" in done.output and field in done.output and "Traceback" not in done.output
    assert not (tmp_path / "out.json").exists()


def test_two_answers_by_one_system_to_one_question_are_refused(tmp_path):
    labels = _write(tmp_path / "labels.jsonl", [SYNTHETIC[0], SYNTHETIC[0]])
    done = CliRunner().invoke(cli, ["meta-eval", str(labels)])
    assert done.exit_code == 2 and "labels.jsonl:2" in done.output and "(line 1)" in done.output


# --- the packaged figures the report quotes (gaia_eval/data/answer_agreement.json) ---------------------------------

def test_answer_shapes():
    from gaia_eval.metaeval.answer_trust import answer_shape

    assert answer_shape("David Seville") == "short"
    assert answer_shape("Ross Bagdasarian Sr. (1919-1972)") == "short"
    assert answer_shape("The man behind The Chipmunks was Ross Bagdasarian Sr., known as David Seville") == "sentence"
    assert answer_shape("He was born in 1919. He created The Chipmunks in 1958 as David Seville.") == "paragraph"
    assert answer_shape("Ross Bagdasarian created them\n\nunder the stage name of David Seville") == "paragraph"


def test_the_packaged_figures_were_measured_with_the_current_matcher():
    """Fails when the answer matcher changed since the figures the report quotes were measured: run
    `python scripts/measure_answer_agreement.py --datasets ../shared/datasets` and commit the data file."""
    from gaia_eval.artifacts.answer_agreement import PackagedAnswerAgreement
    from gaia_eval.metaeval.answer_trust import matcher_fingerprint, packaged_file

    packaged = read_artifact(packaged_file(), PackagedAnswerAgreement)
    assert packaged.matcher_fingerprint == matcher_fingerprint(), (
        "the answer matcher changed since data/answer_agreement.json was measured: run "
        f"`{packaged.command}` and commit the file")
    assert packaged.modes[0] == "gaia" and {"lenient", "contains", "exact"} <= set(packaged.modes)
    for mode in packaged.modes:
        shapes = [s for s in packaged.shapes if s.mode == mode]
        assert [s.shape for s in shapes] == ["short", "sentence", "paragraph"]
        assert sum(s.figures.n for s in shapes) == packaged.n_answers == 9690
    assert packaged.dataset == "evouna_tq"


def test_one_command_measures_the_packaged_figures_again(tmp_path):
    """The script, run on data in the shared dataset's shape (here the fixture's answers), writes the file the
    report reads, and --check says it is current."""
    import subprocess
    import sys

    dataset = tmp_path / "datasets" / "evouna_tq"
    dataset.mkdir(parents=True)
    rows = load_answer_labels(FIXTURE)
    dataset.joinpath("answers.jsonl").write_text("".join(
        json.dumps({"id": f"{r.item}-{r.system}", "question": r.question, "expected": list(r.expected),
                    "answer": r.output, "model": r.system, "human": r.correct}) + "\n" for r in rows),
        encoding="utf-8")
    out = tmp_path / "answer_agreement.json"
    script = Path(__file__).parent.parent / "scripts" / "measure_answer_agreement.py"
    run = subprocess.run([sys.executable, str(script), "--datasets", str(tmp_path / "datasets"), "--output", str(out)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    from gaia_eval.artifacts.answer_agreement import PackagedAnswerAgreement
    from gaia_eval.metaeval.answer_trust import answer_shape

    packaged = read_artifact(out, PackagedAnswerAgreement)
    assert packaged.n_answers == 195 and packaged.inputs["dataset"].startswith("sha256:")
    short = [r for r in rows if answer_shape(r.output) == "short"]
    assert packaged.shapes[0].mode == "gaia" and packaged.shapes[0].shape == "short"
    figures_short = packaged.shapes[0].figures
    assert figures_short.n == len(short) and figures_short.human_correct == sum(r.correct for r in short)
    check = subprocess.run([sys.executable, str(script), "--check", "--output", str(out)], capture_output=True,
                           text=True, check=False)
    assert check.returncode == 0 and "current" in check.stdout


def test_answer_labels_in_a_csv_are_refused_with_the_jsonl_format(tmp_path):
    labels = tmp_path / "labels.csv"
    labels.write_text("question,expected,output,system,human.correct\nCapital?,Paris,Paris,A,true\n", encoding="utf-8")
    done = CliRunner().invoke(cli, ["meta-eval", str(labels)])
    assert done.exit_code == 2 and "read from JSONL" in done.output and "human.correct" in done.output


def test_too_few_questions_to_cross_validate_and_a_sample_are_said_not_hidden(tmp_path):
    labels = _write(tmp_path / "labels.jsonl", SYNTHETIC)
    result = run_meta_eval_labels(labels, metrics=["exact"], cross_validate=True).result
    assert result.cross_validation is None and any("cross-validation not run" in n for n in result.notes)
    sampled = run_meta_eval_labels(labels, metrics=["exact"], limit=2, seed=1).result
    assert sampled.n_items == 2 and sampled.n_answers == 4 and any("a sample of 2 of 3" in n for n in sampled.notes)
