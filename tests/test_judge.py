"""The LLM judge in `gaia-eval eval`, end to end through the real anthropic and openai SDKs against the local
fake server: realistic judgements, unusable replies (repair request, then unscored with the raw text), K samples
with their median and agreement, cost kept apart from the model's, resume and skip, and the report."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import orjson
import pytest
from click.testing import CliRunner

from gaia_eval.artifacts.evaluation import ConsolidatedEvaluations, Evaluation
from gaia_eval.artifacts.experiment import Experiment
from gaia_eval.artifacts.store import read_artifact, write_artifact
from gaia_eval.cli import cli
from gaia_eval.concurrency import RetryPolicy
from gaia_eval.errors import UsageError
from gaia_eval.providers.pricing import cost_of, lookup_price
from gaia_eval.scoring.judge.core import JudgeSettings, median_rating, parse_judge_spec
from gaia_eval.scoring.judge.criteria import COMPARATIVE_QA, COMPARATIVE_SUMMARY, STANDALONE_SUMMARY
from gaia_eval.scoring.judge.prompt import GAP_MARK, source_for_judge
from gaia_eval.scoring.judge.run import judge_journal_path
from gaia_eval.stages.eval import run as eval_stage
from gaia_eval.stages.eval.run import run_eval
from gaia_eval.stages.experiment.run import run_batch_experiment
from gaia_eval.stages.generate import run_generate
from gaia_eval.stages.groundtruth.run import run_groundtruth
from gaia_eval.stages.report.run import run_report
from tests.fakeserver import REFUSAL_TEXT, last_user_text, requested_schema

FAST_RETRY = RetryPolicy(max_retries=1, base_delay_s=0.01, timeout_s=10)
SUMMARY_IDS = [c.id for c in COMPARATIVE_SUMMARY]


# -- a judge that reads the prompt it is given ---------------------------------------------------------------

def _block(prompt: str, tag: str) -> str:
    found = re.search(rf"<{tag}>\n(.*?)\n</{tag}>", prompt, re.DOTALL)
    return found.group(1) if found else ""


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9$,.]+", text.lower()) if len(w) > 2 or w[:1].isdigit()}


def _rating(share: float) -> str:
    return "Excellent" if share >= 0.6 else "Good" if share >= 0.4 else "Fair" if share >= 0.2 else "Poor"


def realistic_verdicts(prompt: str, criteria: list[str]) -> dict[str, Any]:
    """What a careful judge would say: ratings follow how much of the reference (or source) the answer holds."""
    document = _words(_block(prompt, "document"))
    if "<answer_to_evaluate>" in prompt:
        answer = _block(prompt, "answer_to_evaluate").strip().lower()
        expected = _block(prompt, "expected_answer").strip().lower()
        hedged = re.search(r"\b(?:about|around|approximately|roughly|nearly)\s+" + re.escape(expected), answer)
        correct = bool(answer) and (answer == expected or expected in answer.replace(",", "")) and not hedged
        ratings = {
            "correctness": "Excellent" if correct else "Poor",
            "completeness": "Excellent" if correct else "Fair" if answer else "Poor",
            "conciseness": "Excellent" if len(answer.split()) <= 6 else "Fair",
            "relevance": "Good" if answer else "Poor",
            "faithfulness": "Excellent" if _words(answer) <= document else "Fair",
        }
        reason = f"The answer '{answer[:40]}' {'matches' if correct else 'differs from'} the expected '{expected}'."
    else:
        answer_words = _words(_block(prompt, "summary_to_evaluate"))
        reference = _words(_block(prompt, "reference_summary")) or document
        overlap = len(answer_words & reference) / max(1, len(reference))
        supported = len(answer_words & document) / max(1, len(answer_words))
        ratings = {c: _rating(overlap) for c in criteria}
        ratings["faithfulness"] = _rating(supported)
        reason = (
            f"The summary holds {overlap:.0%} of the reference terms; {supported:.0%} of its terms are in the source."
        )
    return {c: {"explanation": reason, "rating": ratings.get(c, "Good")} for c in criteria}


def judge_responder(req: dict[str, Any]) -> dict[str, Any]:
    _, schema = requested_schema(req)
    return {"json": realistic_verdicts(last_user_text(req["body"]), schema["required"]),
            "usage": {"input_tokens": 1000, "output_tokens": 100}}


def uniform(criteria: list[str], rating: str = "Good") -> dict[str, Any]:
    return {c: {"explanation": f"{c} is {rating.lower()}.", "rating": rating} for c in criteria}


# -- projects --------------------------------------------------------------------------------------------------

def _baseline_config(path: Path, *names: str) -> Path:
    path.write_bytes(orjson.dumps({"experiments": [{"name": n, "provider": "baseline", "model": n} for n in names]}))
    return path


@pytest.fixture(scope="module")
def pipeline_outputs(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("summ")
    run_generate("meeting", root / "docs", types=["standup", "planning"], seed=3)
    run_groundtruth(input_dir=root / "docs", use_case="summarization", output_dir=root / "gt")
    run_batch_experiment(
        _baseline_config(root / "c.json", "textrank", "lead"), root / "gt", root / "exp", show_progress=False
    )
    run_batch_experiment(
        _baseline_config(root / "c.json", "textrank"), root / "docs", root / "raw_exp", show_progress=False
    )
    run_groundtruth(input_dir=root / "docs", use_case="qa", output_dir=root / "qa_gt")
    run_batch_experiment(
        _baseline_config(root / "q.json", "retrieval"), root / "qa_gt", root / "qa_exp", show_progress=False
    )
    return root


@pytest.fixture()
def project(pipeline_outputs: Path, tmp_path: Path) -> Path:
    """A private copy, so a test may edit experiments and write evaluations freely."""
    shutil.copytree(pipeline_outputs, tmp_path / "p")
    return tmp_path / "p"


def judge_settings(fake_llm, provider: str = "openai", model: str = "gpt-4o-mini", **extra) -> JudgeSettings:
    base_url = fake_llm.anthropic_base_url if provider == "anthropic" else fake_llm.openai_base_url
    return JudgeSettings(provider=provider, model=model, base_url=base_url, retry=FAST_RETRY, **extra)


@pytest.fixture(autouse=True)
def keys(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-openai")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")


# -- end to end ------------------------------------------------------------------------------------------------

def test_summaries_judged_end_to_end_through_the_cli_beside_the_rubric(fake_llm, project: Path):
    fake_llm.responder = judge_responder
    out = project / "ev"
    result = CliRunner().invoke(
        cli,
        [
            "eval",
            "-d",
            str(project / "exp"),
            "-o",
            str(out),
            "--judge",
            "openai:gpt-4o-mini",
            "--judge-base-url",
            fake_llm.openai_base_url,
        ],
    )
    assert result.exit_code == 0, result.output
    assert "judge openai:gpt-4o-mini: 4 calls made" in result.output

    body = fake_llm.requests[0]["body"]
    assert body["temperature"] == 0.0
    assert body["response_format"]["json_schema"]["schema"]["required"] == SUMMARY_IDS
    prompt = body["messages"][-1]["content"]
    assert "<document>" in prompt and "<reference_summary>" in prompt and "<summary_to_evaluate>" in prompt

    textrank = read_artifact(out / "textrank.experiment.eval.json", Evaluation)
    lead = read_artifact(out / "lead.experiment.eval.json", Evaluation)
    for ev in (textrank, lead):
        assert ev.judge is not None and ev.judge.mode == "comparative" and ev.judge.spec == "openai:gpt-4o-mini"
        assert [c.criterion for c in ev.judge.criteria] == SUMMARY_IDS
        assert ev.grade.n_items == 2 and len(ev.criteria) == 6  # the deterministic rubric ran too
        for item in ev.items:
            assert item.judge is not None and item.judge.status == "scored"
            assert all(c.explanation.startswith("The summary holds") for c in item.judge.criteria)
        assert ev.judge.judge_vs_rubric is not None and ev.judge.judge_vs_rubric.pairs == 12
    # The realistic judge, like the rubric, prefers textrank's summaries to the first sentences.
    assert textrank.judge.grade.quality_score > lead.judge.grade.quality_score  # type: ignore[union-attr]

    report = project / "r" / "report.md"
    run_report(out, report)
    text = report.read_text()
    assert "### LLM judge" in text and "Faithfulness" in text and "Judge vs rubric" in text
    judge_rows = [line for line in text.splitlines() if line.startswith("| textrank | openai:gpt-4o-mini |")]
    assert len(judge_rows) == 1 and "| $0 (local) |" not in judge_rows[0]  # the judge's cost, not the model's
    assert "judge:openai:gpt-4o-mini" in report.with_suffix(".csv").read_text()


def test_qa_judged_through_the_anthropic_sdk_agrees_with_the_rubric_on_correctness(fake_llm, project: Path):
    fake_llm.responder = judge_responder
    out = project / "ev"
    run_eval(
        experiment_dir=project / "qa_exp",
        output_dir=out,
        judge=judge_settings(fake_llm, "anthropic", "claude-haiku-4-5"),
    )
    ev = read_artifact(out / "retrieval.experiment.eval.json", Evaluation)
    body = fake_llm.requests[0]["body"]
    assert body["tool_choice"] == {"type": "tool", "name": "judgement"}
    assert "<expected_answer>" in last_user_text(body) and "<question>" in last_user_text(body)
    assert ev.judge is not None and [c.criterion for c in ev.judge.criteria] == [c.id for c in COMPARATIVE_QA]
    versus = ev.judge.judge_vs_rubric
    assert versus is not None and versus.criteria == {"correctness": "correctness"}
    assert versus.pairs == len(ev.items) and versus.exact_agreement is not None and versus.exact_agreement >= 0.5
    for item in ev.items:  # an answer the judge finds exactly right, the rubric passes too
        judged = {c.criterion: c.rating for c in item.judge.criteria}  # type: ignore[union-attr]
        if judged["correctness"] == "Excellent":
            assert item.passed


def test_judge_cost_and_tokens_are_kept_apart_from_the_tested_models(fake_llm, project: Path, monkeypatch):
    # The tested model runs through the fake server too, so it has a real (priced) cost of its own.
    config = project / "m.json"
    config.write_bytes(orjson.dumps({"experiments": [{"name": "gpt", "provider": "openai", "model": "gpt-4o",
                                                      "base_url": fake_llm.openai_base_url}]}))
    run_batch_experiment(config, project / "gt", project / "m_exp", show_progress=False)
    exp = read_artifact(project / "m_exp" / "gpt.experiment.json", Experiment)
    fake_llm.responder = judge_responder
    run_eval(experiment_dir=project / "m_exp", output_dir=project / "ev",
             judge=judge_settings(fake_llm, "anthropic", "claude-haiku-4-5"))
    ev = read_artifact(project / "ev" / "gpt.experiment.eval.json", Evaluation)
    assert ev.inference.cost_usd == exp.totals.cost_usd and ev.inference.usage == exp.totals.usage
    assert ev.judge is not None and ev.judge.usage.input_tokens == 2 * 1000 and ev.judge.usage.output_tokens == 2 * 100
    expected, _, _ = cost_of(ev.judge.usage, lookup_price("anthropic", "claude-haiku-4-5"))
    assert ev.judge.cost_usd == pytest.approx(expected) and ev.judge.cost_status == "priced"
    index = read_artifact(project / "ev" / "consolidated_evaluations_report.json", ConsolidatedEvaluations)
    entry = index.evaluations[0]
    assert entry.inference.cost_usd == exp.totals.cost_usd and entry.judge is not None
    assert entry.judge.cost_usd == pytest.approx(expected)


def test_standalone_judge_is_marked_not_verified_everywhere(fake_llm, project: Path):
    fake_llm.responder = judge_responder
    out = project / "ev"
    run_eval(experiment_dir=project / "raw_exp", output_dir=out, judge=judge_settings(fake_llm))
    ev = read_artifact(out / "textrank.experiment.eval.json", Evaluation)
    assert ev.judge is not None and ev.judge.mode == "standalone" and "not verified against facts" in ev.judge.mode_note
    assert [c.criterion for c in ev.judge.criteria] == [c.id for c in STANDALONE_SUMMARY]
    assert ev.judge.judge_vs_rubric is None  # no judge criterion measures what the grounding checks measure
    assert "<reference_summary>" not in last_user_text(fake_llm.requests[0]["body"])
    run_report(out, project / "r" / "report.md")
    assert "LLM judge standalone — not verified against facts" in (project / "r" / "report.md").read_text()


# -- unusable replies ----------------------------------------------------------------------------------------

def _missing_criterion() -> dict[str, Any]:
    return {"json": {k: v for k, v in uniform(SUMMARY_IDS).items() if k != "faithfulness"}}


def _bad_rating() -> dict[str, Any]:
    return {"json": {**uniform(SUMMARY_IDS), "completeness": {"explanation": "fine", "rating": "Great"}}}


UNUSABLE = {
    # name: (reply, what the repair request and the kept raw text say)
    "malformed body": ({"fault": "malformed"}, "not one complete JSON object"),
    "prose instead of JSON": ({"text": "All criteria look excellent to me."}, "All criteria look excellent"),
    "truncated": ({"fault": "truncated"}, "cut off"),
    # a reply stopped at max_tokens whose JSON still parses (a server that closes it, or a cut at the last brace)
    # is not a judgement: the explanation was cut short, so it is not scored either
    "complete JSON stopped at length": ({"json": uniform(SUMMARY_IDS), "finish_reason": "length"}, "cut off"),
    "missing criterion": (_missing_criterion(), "'faithfulness' is missing"),
    "unknown rating": (_bad_rating(), "'Great'"),
    "refusal": ({"fault": "refusal"}, REFUSAL_TEXT),
}


# A forced Anthropic tool call cannot answer in prose, and the fake server replays a scripted finish_reason on
# the OpenAI protocol only, so those cases are OpenAI-only.
UNUSABLE_CASES = [
    (case, provider)
    for case in UNUSABLE
    for provider in ("openai", "anthropic")
    if provider == "openai" or case not in ("prose instead of JSON", "complete JSON stopped at length")
]


@pytest.mark.parametrize(("case", "provider"), UNUSABLE_CASES)
def test_unusable_reply_gets_one_repair_request_then_is_unscored_with_its_raw_text(
    fake_llm, project: Path, case: str, provider: str
):
    reply, evidence = UNUSABLE[case]
    fake_llm.script([reply, reply])  # the first item's call and its repair; everything after is answered well
    fake_llm.responder = judge_responder
    out = project / "ev"
    summary = run_eval(
        experiment_file=project / "exp" / "textrank.experiment.json",
        output_dir=out,
        judge=judge_settings(
            fake_llm, provider, "gpt-4o-mini" if provider == "openai" else "claude-haiku-4-5", concurrency=1
        ),
    )
    assert summary.failed == 0
    ev = read_artifact(out / "textrank.experiment.eval.json", Evaluation)
    first, second = ev.items
    assert first.judge is not None and first.judge.status == "unscored" and first.judge.criteria == []
    sample = first.judge.samples[0]
    assert sample.status == "unscored" and sample.repaired and sample.calls == 2
    assert sample.raw and evidence in sample.raw + (sample.error or "")
    assert second.judge is not None and second.judge.status == "scored"
    assert ev.judge is not None and ev.judge.unscored_items == 1 and ev.judge.judged_items == 1
    assert ev.judge.grade is not None and ev.judge.grade.n_items == 1  # the judge's failure is not the model's
    repair = last_user_text(fake_llm.requests[1]["body"])
    assert "Your previous reply could not be used" in repair
    run_report(out, project / "r" / "report.md")
    assert "The judge could not score 1 of 2 items of textrank" in (project / "r" / "report.md").read_text()


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_tokens_of_unusable_judge_replies_are_counted_in_the_judge_cost(fake_llm, project: Path, provider: str):
    # Every reply is billed prose: no sample is scored, yet each of the 4 calls (2 items, each with a repair) cost.
    fake_llm.responder = lambda req: {
        "text": "All good, I would say.",
        "usage": {"input_tokens": 1000, "output_tokens": 500},
    }
    model = "gpt-4o-mini" if provider == "openai" else "claude-haiku-4-5"
    run_eval(experiment_file=project / "exp" / "textrank.experiment.json", output_dir=project / "ev",
             judge=judge_settings(fake_llm, provider, model))
    ev = read_artifact(project / "ev" / "textrank.experiment.eval.json", Evaluation)
    assert fake_llm.request_count == 4 and ev.judge is not None and ev.judge.unscored_items == 2
    assert (ev.judge.usage.input_tokens, ev.judge.usage.output_tokens) == (4000, 2000)
    assert [item.judge.usage.input_tokens for item in ev.items] == [2000, 2000]  # type: ignore[union-attr]
    assert ev.judge.cost_usd == pytest.approx(cost_of(ev.judge.usage, lookup_price(provider, model))[0])
    assert ev.judge.cost_usd > 0


def test_a_repaired_reply_is_scored(fake_llm, project: Path):
    fake_llm.script([_bad_rating()])
    fake_llm.responder = judge_responder
    run_eval(experiment_file=project / "exp" / "lead.experiment.json", output_dir=project / "ev",
             judge=judge_settings(fake_llm, concurrency=1))
    ev = read_artifact(project / "ev" / "lead.experiment.eval.json", Evaluation)
    sample = ev.items[0].judge.samples[0]  # type: ignore[union-attr]
    assert sample.status == "scored" and sample.repaired and sample.raw is None
    assert ev.judge is not None and ev.judge.unscored_items == 0


# -- samples, medians, agreement ---------------------------------------------------------------------------

def test_three_samples_take_the_median_and_report_their_agreement(fake_llm, project: Path):
    seen: dict[str, int] = {}

    def split_judge(req: dict[str, Any]) -> dict[str, Any]:
        # The planning meeting gets Good / Excellent / Poor on faithfulness, in arrival order; all else is Good.
        prompt = last_user_text(req["body"])
        verdicts = uniform(SUMMARY_IDS)
        if "Planning" in _block(prompt, "document").splitlines()[0]:
            seen["planning"] = seen.get("planning", 0) + 1
            rating = ["Good", "Excellent", "Poor"][seen["planning"] - 1]
            verdicts["faithfulness"] = {"explanation": f"faithfulness {rating}", "rating": rating}
        return {"json": verdicts}

    fake_llm.responder = split_judge
    run_eval(experiment_file=project / "exp" / "textrank.experiment.json", output_dir=project / "ev",
             judge=judge_settings(fake_llm, samples=3))
    ev = read_artifact(project / "ev" / "textrank.experiment.eval.json", Evaluation)
    planning = next(i for i in ev.items if i.item_id.startswith("planning"))
    faithfulness = next(c for c in planning.judge.criteria if c.criterion == "faithfulness")  # type: ignore[union-attr]
    assert sorted(faithfulness.sample_ratings) == ["Excellent", "Good", "Poor"]
    assert faithfulness.rating == "Good" and faithfulness.explanation == "faithfulness Good"
    agreement = ev.judge.agreement  # type: ignore[union-attr]
    assert agreement.items_compared == 2 and agreement.unanimous_share == pytest.approx(0.5)
    # 14 units of 3 values: 13 all Good, one Good/Excellent/Poor. Checked with the `krippendorff` package: so
    # little variety makes the one split count heavily against chance agreement.
    assert agreement.krippendorff_alpha == pytest.approx(-0.4642857142857142, abs=1e-9)
    assert len(fake_llm.requests) == 6


def test_median_of_an_even_count_is_the_lower_middle_rating():
    assert median_rating(["Excellent", "Poor"]) == "Poor"
    assert median_rating(["Good", "Excellent", "Excellent", "Fair"]) == "Good"
    assert median_rating(["Fair"]) == "Fair"


def test_items_the_model_failed_are_poor_for_the_judge_without_a_call(fake_llm, project: Path):
    path = project / "exp" / "lead.experiment.json"
    exp = read_artifact(path, Experiment)
    failed = exp.items[0].model_copy(update={"status": "error", "error": "server_error: HTTP 500", "summaries": None})
    write_artifact(path, exp.model_copy(update={"items": [failed, *exp.items[1:]]}))
    fake_llm.responder = judge_responder
    run_eval(experiment_file=path, output_dir=project / "ev", judge=judge_settings(fake_llm))
    ev = read_artifact(project / "ev" / "lead.experiment.eval.json", Evaluation)
    assert len(fake_llm.requests) == 1
    assert ev.items[0].judge is not None and ev.items[0].judge.status == "model_error"
    assert ev.judge is not None and ev.judge.grade is not None and ev.judge.grade.n_errors == 1
    assert ev.judge.grade.counts["Poor"] >= len(SUMMARY_IDS)
    assert ev.judge.judge_vs_rubric is not None and ev.judge.judge_vs_rubric.pairs == 6  # failed item left out


# -- skip, redo, resume ------------------------------------------------------------------------------------

def test_rerun_skips_changed_samples_redo_and_no_judge_keeps_judgements(fake_llm, project: Path):
    fake_llm.responder = judge_responder
    out = project / "ev"
    without = run_eval(experiment_dir=project / "exp", output_dir=out)
    plain_inputs = read_artifact(out / "lead.experiment.eval.json", Evaluation).inputs
    assert "judge" not in plain_inputs and without.made == 2

    first = run_eval(experiment_dir=project / "exp", output_dir=out, judge=judge_settings(fake_llm))
    assert (first.redone, fake_llm.request_count) == (2, 4)
    again = run_eval(experiment_dir=project / "exp", output_dir=out, judge=judge_settings(fake_llm))
    assert (again.skipped, fake_llm.request_count) == (2, 4)  # nothing paid twice

    more = run_eval(experiment_dir=project / "exp", output_dir=out, judge=judge_settings(fake_llm, samples=2))
    assert more.redone == 2 and fake_llm.request_count == 8  # only sample 2 of each item is new
    ev = read_artifact(out / "lead.experiment.eval.json", Evaluation)
    assert ev.judge is not None and ev.judge.samples_per_item == 2
    assert all(len(i.judge.samples) == 2 for i in ev.items)  # type: ignore[union-attr]

    plain = run_eval(experiment_dir=project / "exp", output_dir=out)
    assert plain.skipped == 2 and read_artifact(out / "lead.experiment.eval.json", Evaluation).judge is not None
    assert not list(out.glob("*.journal.jsonl"))


def test_a_killed_eval_resumes_from_the_judge_journal_without_paying_again(fake_llm, project: Path, monkeypatch):
    fake_llm.responder = judge_responder
    out = project / "ev"
    real_write = eval_stage.write_streamed

    def killed(path, artifact, big):
        raise KeyboardInterrupt  # killed after every judgement came back, before any evaluation was written

    monkeypatch.setattr(eval_stage, "write_streamed", killed)
    with pytest.raises(KeyboardInterrupt):
        run_eval(experiment_dir=project / "exp", output_dir=out, judge=judge_settings(fake_llm))
    assert judge_journal_path(out / "lead.experiment.eval.json").exists()
    calls = fake_llm.request_count
    monkeypatch.setattr(eval_stage, "write_streamed", real_write)
    summary = run_eval(experiment_dir=project / "exp", output_dir=out, judge=judge_settings(fake_llm))
    assert summary.made == 2 and fake_llm.request_count == calls
    assert not judge_journal_path(out / "lead.experiment.eval.json").exists()


def test_failed_judge_calls_are_not_kept_as_done_and_the_next_run_makes_only_them(fake_llm, project: Path):
    fake_llm.script([{"fault": "500"}, {"fault": "500"}])  # one call fails after its retry
    fake_llm.responder = judge_responder
    out = project / "ev"
    experiment = project / "exp" / "lead.experiment.json"
    summary = run_eval(experiment_file=experiment, output_dir=out, judge=judge_settings(fake_llm, concurrency=1))
    assert summary.failed == 1 and "judge calls failed" in summary.failures[0]
    ev = read_artifact(out / "lead.experiment.eval.json", Evaluation)
    assert ev.judge is not None and ev.judge.failed_samples == 1 and ev.items[0].judge.status == "failed"  # type: ignore[union-attr]
    calls = fake_llm.request_count
    second = CliRunner().invoke(cli, ["eval", "-f", str(experiment), "-o", str(out), "--judge", "openai:gpt-4o-mini",
                                      "--judge-base-url", fake_llm.openai_base_url])
    assert second.exit_code == 0, second.output
    assert fake_llm.request_count == calls + 1
    assert read_artifact(out / "lead.experiment.eval.json", Evaluation).judge.failed_samples == 0  # type: ignore[union-attr]


def test_consolidated_index_keeps_earlier_evaluations_in_one_shape(fake_llm, project: Path):
    fake_llm.responder = judge_responder
    out = project / "ev"
    run_eval(
        experiment_file=project / "exp" / "textrank.experiment.json", output_dir=out, judge=judge_settings(fake_llm)
    )
    run_eval(experiment_file=project / "exp" / "lead.experiment.json", output_dir=out)
    index = orjson.loads((out / "consolidated_evaluations_report.json").read_bytes())
    entries = {e["experiment_name"]: e for e in index["evaluations"]}
    assert set(entries) == {"textrank", "lead"}
    assert entries["textrank"]["judge"]["spec"] == "openai:gpt-4o-mini" and entries["lead"]["judge"] is None
    assert entries["textrank"].keys() == entries["lead"].keys()


# -- command line and settings ---------------------------------------------------------------------------

def test_missing_judge_key_exits_2_before_any_call_or_write(fake_llm, project: Path, monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    out = project / "ev"
    result = CliRunner().invoke(cli, ["eval", "-d", str(project / "exp"), "-o", str(out), "--judge",
                                      "anthropic:claude-haiku-4-5", "--judge-base-url", fake_llm.anthropic_base_url])
    assert result.exit_code == 2 and "ANTHROPIC_API_KEY" in result.output
    assert fake_llm.request_count == 0 and not out.exists()


@pytest.mark.parametrize(
    ("spec", "words"),
    [("nosuch:model", ["--judge", "unknown provider 'nosuch'", "anthropic, openai"]),
     ("baseline:lead", ["--judge", "baselines cannot judge"]),
     ("gpt-4o", ["--judge", "PROVIDER:MODEL"])],
)
def test_bad_judge_spec_is_a_usage_error(project: Path, spec: str, words: list[str]):
    result = CliRunner().invoke(cli, ["eval", "-d", str(project / "exp"), "-o", str(project / "ev"), "--judge", spec])
    assert result.exit_code == 2
    for word in words:
        assert word in result.output


def test_judge_spec_splits_on_the_first_colon_and_options_need_judge(project: Path):
    settings = parse_judge_spec("ollama:llama3.2:3b", samples=3)
    assert (settings.provider, settings.model, settings.samples) == ("ollama", "llama3.2:3b", 3)
    with pytest.raises(UsageError):
        parse_judge_spec("openai:gpt-4o", samples=0)
    result = CliRunner().invoke(
        cli, ["eval", "-d", str(project / "exp"), "-o", str(project / "ev"), "--judge-samples", "3"]
    )
    assert result.exit_code == 2 and "need --judge" in result.output


def test_a_long_source_is_cut_to_the_excerpts_that_matter():
    filler = [f"Line {i}: the weather and parking were discussed at length without outcome." for i in range(400)]
    filler[250] = "Priya approved the Q3 budget of 48500 for the vendor migration."
    source = "\n".join(filler)
    text, excerpted = source_for_judge(
        source, ["Q3 budget 48500 vendor migration approved"], budget_words=300, window_words=60
    )
    assert excerpted and "Priya approved the Q3 budget" in text and GAP_MARK in text
    assert len(text.split()) <= 300 + 10
    whole, cut = source_for_judge("short source", ["x"], budget_words=300)
    assert (whole, cut) == ("short source", False)


def test_a_rerun_asks_again_for_unscored_items_past_the_cache_and_reuses_the_scored(fake_llm, project: Path):
    fake_llm.script([{"text": "All good."}, {"text": "Still all good."}])  # item 1: call and repair unusable
    fake_llm.responder = judge_responder
    out = project / "ev"
    settings = judge_settings(fake_llm, concurrency=1)
    run_eval(experiment_file=project / "exp" / "textrank.experiment.json", output_dir=out, judge=settings)
    first_run_calls = fake_llm.request_count
    ev = read_artifact(out / "textrank.experiment.eval.json", Evaluation)
    assert [i.judge.status for i in ev.items] == ["unscored", "scored"]

    summary = run_eval(experiment_file=project / "exp" / "textrank.experiment.json", output_dir=out, judge=settings)
    assert summary.skipped == 0  # an evaluation with unscored replies is not up to date
    # Only the unscored item is asked again, and it reaches the model (the cache holds the unusable reply).
    assert fake_llm.request_count == first_run_calls + 1
    ev = read_artifact(out / "textrank.experiment.eval.json", Evaluation)
    assert [i.judge.status for i in ev.items] == ["scored", "scored"]
    again = run_eval(experiment_file=project / "exp" / "textrank.experiment.json", output_dir=out, judge=settings)
    assert again.skipped == 1 and fake_llm.request_count == first_run_calls + 1


def test_judge_timeout_is_an_option_and_a_hung_call_is_retried_after_it(fake_llm, project: Path):
    fake_llm.script([{"fault": "hang"}])  # the first judge call never answers
    fake_llm.responder = judge_responder
    exp = project / "exp" / "textrank.experiment.json"
    result = CliRunner().invoke(cli, ["eval", "-f", str(exp), "-o", str(project / "ev"), "--judge",
                                      "openai:gpt-4o-mini", "--judge-base-url", fake_llm.openai_base_url,
                                      "--judge-timeout", "0.5", "--judge-concurrency", "1"])
    assert result.exit_code == 0, result.output
    ev = read_artifact(project / "ev" / "textrank.experiment.eval.json", Evaluation)
    first = ev.items[0].judge.samples[0]
    # Timed out once, then answered (a loaded machine may time out a second attempt too: at least two).
    assert first.status == "scored" and first.attempts >= 2 and fake_llm.requests[0]["fault"] == "hang"
    bad = CliRunner().invoke(cli, ["eval", "-f", str(exp), "-o", str(project / "ev2"), "--judge-timeout", "5"])
    assert bad.exit_code == 2 and "need --judge" in bad.output


def test_user_defined_judge_criteria_replace_the_meeting_ones(fake_llm, project: Path):
    fake_llm.responder = judge_responder
    out = project / "ev"
    result = CliRunner().invoke(
        cli,
        [
            "eval",
            "-d",
            str(project / "exp"),
            "-o",
            str(out),
            "--judge",
            "openai:gpt-4o-mini",
            "--judge-base-url",
            fake_llm.openai_base_url,
            "--judge-criteria",
            "coherence,consistency,fluency,relevance",
        ],
    )
    assert result.exit_code == 0, result.output
    body = fake_llm.requests[0]["body"]
    assert body["response_format"]["json_schema"]["schema"]["required"] == [
        "coherence",
        "consistency",
        "fluency",
        "relevance",
    ]
    assert "factually aligned with the source" in body["messages"][-1]["content"]
    ev = read_artifact(out / "lead.experiment.eval.json", Evaluation)
    assert [c.criterion for c in ev.judge.criteria] == ["coherence", "consistency", "fluency", "relevance"]
    run_report(out, project / "r" / "report.md")
    assert "Coherence" in (project / "r" / "report.md").read_text()
    own = project / "criteria.json"
    own.write_text('[{"id": "politeness", "label": "Politeness", "question": "Is the summary polite?"}]')
    result = CliRunner().invoke(
        cli,
        [
            "eval",
            "-d",
            str(project / "exp"),
            "-o",
            str(out),
            "--judge",
            "openai:gpt-4o-mini",
            "--judge-base-url",
            fake_llm.openai_base_url,
            "--judge-criteria",
            str(own),
        ],
    )
    assert result.exit_code == 0, result.output
    assert [c.criterion for c in read_artifact(out / "lead.experiment.eval.json", Evaluation).judge.criteria] == [
        "politeness"
    ]
    bad = CliRunner().invoke(cli, ["eval", "-d", str(project / "exp"), "-o", str(out), "--judge", "openai:gpt-4o-mini",
                                   "--judge-criteria", "charm"])
    assert bad.exit_code == 2 and "--judge-criteria" in bad.output and "coherence" in bad.output


def test_a_judge_that_rates_everything_excellent_is_called_untrustworthy_in_words(fake_llm, project: Path):
    def flatterer(req):
        _, schema = requested_schema(req)
        return {"json": uniform(schema["required"], "Excellent")}

    fake_llm.responder = flatterer
    run_eval(experiment_dir=project / "qa_exp", output_dir=project / "ev", judge=judge_settings(fake_llm))
    ev = read_artifact(project / "ev" / "retrieval.experiment.eval.json", Evaluation)
    assert any(not item.passed for item in ev.items)  # the rubric fails some answers the judge calls Excellent
    run_report(project / "ev", project / "r" / "report.md")
    text = (project / "r" / "report.md").read_text()
    assert "The judge's grades for retrieval are not trustworthy" in text
    assert "agree with the deterministic rubric at Krippendorff's α" in text


def test_a_judge_that_tracks_the_answers_is_not_called_untrustworthy(fake_llm, project: Path):
    fake_llm.responder = judge_responder
    run_eval(experiment_dir=project / "qa_exp", output_dir=project / "ev", judge=judge_settings(fake_llm))
    run_report(project / "ev", project / "r" / "report.md")
    assert "not trustworthy" not in (project / "r" / "report.md").read_text()
