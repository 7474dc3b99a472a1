"""A use case that gaia-eval does not ship (a plugin's `UseCase`, registered here by patching the registry) is
scored by `eval` through its own scorers and judged in its own words, with no branch on its name anywhere: the
same answers score the same as under the built-in use case whose scorers it borrows, the judge is told what it
grades ("summaries of support tickets") and what the document is ("support ticket"), and a use case that asks
questions gets a pass rate whatever it is called."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from gaia_eval import usecases
from gaia_eval.artifacts.evaluation import Evaluation
from gaia_eval.artifacts.experiment import Experiment
from gaia_eval.artifacts.store import read_artifact, write_artifact
from gaia_eval.concurrency import RetryPolicy
from gaia_eval.errors import InputError
from gaia_eval.metaeval.trust import meta_eval_file
from gaia_eval.registry import USE_CASES
from gaia_eval.scoring.judge.core import JudgeSettings, judge_request
from gaia_eval.scoring.judge.criteria import COMPARATIVE_QA, COMPARATIVE_SUMMARY
from gaia_eval.scoring.scorers import LONG_FORM_QA, QA, SUMMARIES
from gaia_eval.stages.eval.run import run_eval
from gaia_eval.stages.experiment.run import run_batch_experiment
from gaia_eval.stages.generate import run_generate
from gaia_eval.stages.groundtruth.run import run_groundtruth
from gaia_eval.usecases import UseCase
from gaia_eval.usecases.qa import USE_CASE as QA_USE_CASE
from tests.fakeserver import last_user_text, requested_schema
from tests.plugin_use_cases import TICKETS

# Answers to questions, under a name that is not "qa": its pass rate must come from what it is, not its name.
POLICY_QA = UseCase(
    name="policy_questions",
    title="Policy questions",
    answers="answer",
    scorers=QA_USE_CASE.scorers,
    doc_label="policy document",
    judge_task="answers to questions about a company policy",
)


@pytest.fixture
def plugin_use_cases(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(USE_CASES.builtin, TICKETS.name, TICKETS)
    monkeypatch.setitem(USE_CASES.builtin, POLICY_QA.name, POLICY_QA)
    yield
    USE_CASES.refresh()  # forget the loaded plugin use cases with their registration


@pytest.fixture(scope="module")
def built_in_experiments(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Baseline experiments of the built-in summarization and qa use cases, with embedded ground truth, and one
    run on the documents alone (`documents_only`)."""
    root = tmp_path_factory.mktemp("plugin_uc")
    run_generate("meeting", root / "docs", types=["standup", "planning"], seed=3)
    config = root / "c.json"
    config.write_bytes(orjson.dumps({"experiments": [{"name": "textrank", "provider": "baseline",
                                                      "model": "textrank"}]}))
    run_groundtruth(input_dir=root / "docs", use_case="summarization", output_dir=root / "gt")
    run_batch_experiment(config, root / "gt", root / "summarization", show_progress=False)
    run_batch_experiment(config, root / "docs", root / "documents_only", show_progress=False)  # no ground truth
    config.write_bytes(orjson.dumps({"experiments": [{"name": "retrieval", "provider": "baseline",
                                                      "model": "retrieval"}]}))
    run_groundtruth(input_dir=root / "docs", use_case="qa", output_dir=root / "qa_gt")
    run_batch_experiment(config, root / "qa_gt", root / "qa", show_progress=False)
    return root


def _as_use_case(source: Path, target: Path, use_case: str, *, failed_first: bool = False) -> Path:
    """The experiments of `source`, rewritten (through the artifacts layer) as experiments of `use_case`; with
    `failed_first`, their first item is one the model failed."""
    target.mkdir(parents=True)
    for path in sorted(source.glob("*.experiment.json")):
        experiment = read_artifact(path, Experiment)
        items = list(experiment.items)
        if failed_first:
            items[0] = items[0].model_copy(update={"status": "error", "error": "timeout: no reply", "answer": None})
        write_artifact(target / path.name, experiment.model_copy(update={"use_case": use_case, "items": items}))
    return target


def _good_judge(req: dict[str, Any]) -> dict[str, Any]:
    found = requested_schema(req)
    assert found is not None
    return {"json": {c: {"explanation": f"{c} holds.", "rating": "Good"} for c in found[1]["required"]},
            "usage": {"input_tokens": 100, "output_tokens": 10}}


def test_a_plugin_use_case_is_scored_by_its_scorers_and_judged_in_its_own_words(
    plugin_use_cases: None, built_in_experiments: Path, tmp_path: Path, fake_llm, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-openai")
    fake_llm.responder = _good_judge
    tickets = _as_use_case(built_in_experiments / "summarization", tmp_path / "tickets", "tickets")
    judge = JudgeSettings(provider="openai", model="gpt-4o-mini", base_url=fake_llm.openai_base_url,
                          retry=RetryPolicy(max_retries=1, base_delay_s=0.01, timeout_s=10))
    summary = run_eval(experiment_dir=tickets, output_dir=tmp_path / "ev", judge=judge, show_progress=False)
    assert summary.failed == 0 and summary.made == 1, summary.line()

    ev = read_artifact(tmp_path / "ev" / "textrank.experiment.eval.json", Evaluation)
    assert ev.use_case == "tickets" and ev.mode == "comparative"
    assert [c.criterion for c in ev.criteria] == list(SUMMARIES.criterion_ids)  # its scorer's criteria
    assert ev.grade.pass_rate is None and ev.grade.passed is None  # summaries have no pass/fail
    # The same summaries score the same as under summarization, whose scorers it borrows.
    run_eval(experiment_dir=built_in_experiments / "summarization", output_dir=tmp_path / "builtin",
             show_progress=False)
    builtin = read_artifact(tmp_path / "builtin" / "textrank.experiment.eval.json", Evaluation)
    assert ev.grade.quality_score == builtin.grade.quality_score and ev.criteria == builtin.criteria

    # The judge is told what it grades and what the document is, in the use case's words.
    assert ev.judge is not None and [c.criterion for c in ev.judge.criteria] == [c.id for c in COMPARATIVE_SUMMARY]
    bodies = [r["body"] for r in fake_llm.requests]
    assert len(bodies) == 2  # one call per item (two documents)
    for body in bodies:
        system = next(m["content"] for m in body["messages"] if m["role"] == "system")
        assert system.startswith("You are a strict, impartial evaluator of summaries of support tickets.")
        assert "summaries of business meetings" not in system
        assert last_user_text(body).startswith("Here is the source support ticket:")


def test_a_plugin_use_case_that_asks_questions_has_a_pass_rate_and_its_own_judge_words(
    plugin_use_cases: None, built_in_experiments: Path, tmp_path: Path
) -> None:
    policy = _as_use_case(built_in_experiments / "qa", tmp_path / "policy", "policy_questions", failed_first=True)
    run_eval(experiment_dir=policy, output_dir=tmp_path / "ev", show_progress=False)
    ev = read_artifact(tmp_path / "ev" / "retrieval.experiment.eval.json", Evaluation)
    # The same answers (and the same failed one) as a built-in qa experiment score the same.
    qa = _as_use_case(built_in_experiments / "qa", tmp_path / "qa", "qa", failed_first=True)
    run_eval(experiment_dir=qa, output_dir=tmp_path / "builtin", show_progress=False)
    builtin = read_artifact(tmp_path / "builtin" / "retrieval.experiment.eval.json", Evaluation)
    assert builtin.grade.pass_rate is not None  # the built-in qa experiment has one to compare with
    assert ev.grade.pass_rate == builtin.grade.pass_rate and ev.grade.passed == builtin.grade.passed
    assert {c.criterion for c in ev.criteria} <= {*QA.criterion_ids, *LONG_FORM_QA.criterion_ids}
    assert ev.criteria == builtin.criteria and ev.mode_note == builtin.mode_note
    assert ev.items[0].status == "error" and ev.items[0].passed is False  # an unanswered question fails
    assert ev.items == builtin.items

    experiment = read_artifact(policy / "retrieval.experiment.json", Experiment)
    item = next(i for i in experiment.items if i.status == "ok")
    settings = JudgeSettings(provider="openai", model="gpt-4o-mini")
    request = judge_request(settings, usecases.get("policy_questions"), "comparative", item,
                            experiment.sources[item.source].text, None)
    assert request.criteria == COMPARATIVE_QA
    assert request.prompt.system.startswith("You are a strict, impartial evaluator of answers to questions about a "
                                            "company policy.")
    assert request.prompt.user.startswith("Here is the source policy document:")
    # Its judge request differs from qa's only by those words: the prompt is the use case's, not its name's.
    qa_request = judge_request(settings, usecases.get("qa"), "comparative", item, experiment.sources[item.source].text,
                               None)
    assert qa_request.prompt.user == request.prompt.user.replace("policy document", "document", 1)


def test_a_use_case_that_writes_summaries_reads_the_shared_meta_evaluation(plugin_use_cases: None,
                                                                          tmp_path: Path) -> None:
    """`meta_eval.json` (made from ratings files, which hold summaries) applies to a use case writing summaries
    whatever its name, never to one answering questions; `meta_eval.<name>.json` to its own use case."""
    shared = tmp_path / "meta_eval.json"
    shared.write_text("{}")
    assert meta_eval_file(tmp_path, "tickets") == shared
    assert meta_eval_file(tmp_path, "policy_questions") is None
    own = tmp_path / "meta_eval.policy_questions.json"
    shutil.copyfile(shared, own)
    assert meta_eval_file(tmp_path, "policy_questions") == own


def test_ground_truth_from_g_serves_the_use_cases_that_share_it_and_no_other(
    plugin_use_cases: None, built_in_experiments: Path, tmp_path: Path
) -> None:
    """-g summarization ground truth scores an email experiment (email's kin) comparatively, exactly as it scores
    the summarization one; a plugin use case that shares no data with summarization is refused it."""
    gt = built_in_experiments / "gt" / "consolidated_summarization_groundtruth.json"
    runs = built_in_experiments / "documents_only"
    run_eval(experiment_dir=runs, output_dir=tmp_path / "summarization", groundtruth=gt, show_progress=False)
    email = _as_use_case(runs, tmp_path / "email", "email")
    run_eval(experiment_dir=email, output_dir=tmp_path / "ev_email", groundtruth=gt, show_progress=False)
    summarization, as_email = (read_artifact(folder / "textrank.experiment.eval.json", Evaluation)
                               for folder in (tmp_path / "summarization", tmp_path / "ev_email"))
    assert as_email.mode == summarization.mode == "comparative"
    assert as_email.criteria == summarization.criteria and as_email.items == summarization.items

    tickets = _as_use_case(runs, tmp_path / "tickets", "tickets")
    with pytest.raises(InputError, match=r"is a tickets experiment but the ground truth .* is summarization"):
        run_eval(experiment_dir=tickets, output_dir=tmp_path / "ev_tickets", groundtruth=gt, show_progress=False)
    assert not (tmp_path / "ev_tickets").exists()
