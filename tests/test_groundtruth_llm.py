"""`groundtruth` with an LLM, through the real SDKs against the local fake server: artifacts that validate for
summarization, email and qa on .txt/.md/.html/.pdf inputs; malformed, cut-off, wrong-schema and refused replies
each get one repair turn and then fail without being written; evidence that is not in the document is never
kept; reruns skip; a custom prompt makes the artifacts stale; a missing key stops before any call."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from gaia_eval.artifacts.groundtruth import ConsolidatedGroundTruth, GroundTruth
from gaia_eval.artifacts.store import read_artifact
from gaia_eval.cli import cli
from gaia_eval.extract.quotes import QuoteFinder
from gaia_eval.generation.llm.pdf import parse_markup, pdf_safe_text, plain_text, render_pdf
from gaia_eval.stages.groundtruth.llm import check_qa
from gaia_eval.stages.groundtruth.run import run_groundtruth

MODEL = "gpt-4o-mini"

TRANSCRIPT = """Harbor Rollout Sync
Date: Tuesday, March 3, 2026

Transcript:

Priya Shah: Thanks for joining. The Lisbon pilot ran for two weeks and error rates stayed under 0.4%.
Tom Berg: Good. The vendor quoted $48,500 for the full rollout, down from $55,000.
Priya Shah: Then let's approve the $48,500 quote and start the rollout on April 6.
Tom Berg: Agreed. I'll send the signed order to the vendor by March 10.
Ana Costa: I can update the training guide for the support team by March 20.
Priya Shah: Perfect. Thanks, everyone.
"""

SUMMARIES = {
    "executive_summary": "The team reviewed the Lisbon pilot and approved the vendor's $48,500 quote, with the "
    "rollout starting on April 6.",
    "detailed_summary": "The two-week Lisbon pilot kept error rates under 0.4%. The vendor lowered its quote from "
    "$55,000 to $48,500, which the team approved, and the rollout starts on April 6. Tom Berg sends the signed "
    "order by March 10 and Ana Costa updates the training guide by March 20.",
    "action_items": ["Tom Berg: send the signed order to the vendor (due 2026-03-10)",
                     "Ana Costa: update the training guide for the support team (due 2026-03-20)"],
    "key_decisions": ["Approve the $48,500 quote", "Start the rollout on April 6"],
    "participants": ["Priya Shah", "Tom Berg", "Ana Costa"],
    "topics_discussed": ["Lisbon pilot results", "vendor quote", "rollout date"],
}

QA_PAIRS = [
    {"query": "What did the vendor quote for the full rollout?", "answer": "$48,500", "answer_type": "number",
     "evidence": "The vendor quoted $48,500 for the full rollout, down from $55,000."},
    {"query": "Who will send the signed order to the vendor?", "answer": "Tom Berg", "answer_type": "string",
     "evidence": "Tom Berg: Agreed. I'll send the signed order to the vendor by March 10."},
    {"query": "When does the rollout start?", "answer": "April 6", "answer_type": "string",
     "evidence": "Then let's approve the $48,500 quote and start the rollout on April 6."},
]
INVENTED = {"query": "What is the budget for Madrid?", "answer": "$12,000", "answer_type": "number",
            "evidence": "The Madrid budget is $12,000."}

# What each kind of bad reply looks like on the wire; each is a real fault of the fake server or a real reply.
BAD_REPLIES = {
    "malformed": {"text": "Sure! Here are the summaries: {executive_summary: The team met"},
    "truncated": {"json": SUMMARIES, "fault": "truncated"},
    "wrong_schema": {"json": {"summary": "The team approved the quote.", "tasks": ["send the order"]}},
    "refusal": {"fault": "refusal"},
}


@pytest.fixture()
def keys(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-groundtruth")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-groundtruth")


@pytest.fixture()
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "harbor_sync.txt").write_text(TRANSCRIPT)
    return folder


def base_url(fake_llm, provider: str) -> str:
    return fake_llm.openai_base_url if provider == "openai" else fake_llm.anthropic_base_url


def build(fake_llm, docs: Path, out: Path, use_case: str = "summarization", provider: str = "openai", **extra):
    model = MODEL if provider == "openai" else "claude-haiku-4-5"
    return run_groundtruth(input_dir=docs, use_case=use_case, output_dir=out, provider=provider, model=model,
                           base_url=base_url(fake_llm, provider), **extra)


def cli_args(fake_llm, docs: Path, out: Path, *extra: str, provider: str = "openai") -> list[str]:
    model = MODEL if provider == "openai" else "claude-haiku-4-5"
    return ["groundtruth", "-d", str(docs), "-o", str(out), "--provider", provider, "--model", model,
            "--base-url", base_url(fake_llm, provider), "--quiet", *extra]


def last_user_text(req: dict) -> str:
    message = [m for m in req["body"]["messages"] if m["role"] == "user"][-1]
    content = message["content"]
    return content if isinstance(content, str) else " ".join(b.get("text", "") for b in content)


def test_summarization_end_to_end_validates_and_rerun_makes_no_call(fake_llm, docs, tmp_path, keys):
    fake_llm.script([{"json": SUMMARIES}])
    out = tmp_path / "gt"
    summary = build(fake_llm, docs, out)
    assert (summary.made, summary.failed) == (1, 0)
    gt = read_artifact(out / "harbor_sync.summarization.groundtruth.json", GroundTruth)
    assert gt.method == f"llm:openai:{MODEL}" and gt.facts is None
    assert gt.summaries is not None and gt.summaries.key_decisions == SUMMARIES["key_decisions"]
    assert gt.source.text == TRANSCRIPT and gt.source.path == "harbor_sync.txt"
    assert gt.usage is not None and gt.usage.input_tokens > 0 and gt.cost_usd is not None and gt.cost_usd > 0
    assert {"source", "prompts", "provider", "model", "custom_prompt"} <= set(gt.inputs)
    assert (gt.inputs["provider"], gt.inputs["model"], gt.inputs["custom_prompt"]) == ("openai", MODEL, "none")
    request = fake_llm.requests[0]["body"]
    assert request["response_format"]["json_schema"]["schema"]["required"] == list(SUMMARIES)
    consolidated = read_artifact(out / "consolidated_summarization_groundtruth.json", ConsolidatedGroundTruth)
    assert [i.item_id for i in consolidated.items] == ["harbor_sync"]

    again = build(fake_llm, docs, out)
    assert (again.made, again.skipped, fake_llm.request_count) == (0, 1, 1)


def test_email_ground_truth_through_anthropic_and_the_cli(fake_llm, docs, tmp_path, keys):
    fake_llm.script([{"json": SUMMARIES}])
    result = CliRunner().invoke(cli, cli_args(fake_llm, docs, tmp_path / "gt", "-u", "email", provider="anthropic"))
    assert result.exit_code == 0, result.output
    assert fake_llm.requests[0]["protocol"] == "anthropic"
    assert fake_llm.requests[0]["body"]["tool_choice"] == {"type": "tool", "name": "summaries"}
    gt = read_artifact(tmp_path / "gt" / "harbor_sync.email.groundtruth.json", GroundTruth)
    assert gt.use_case == "email" and gt.method == "llm:anthropic:claude-haiku-4-5"
    assert "business email" in last_user_text(fake_llm.requests[0])


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
@pytest.mark.parametrize("bad", sorted(BAD_REPLIES))
def test_a_bad_reply_gets_one_repair_turn_that_says_what_was_wrong(fake_llm, docs, tmp_path, keys, bad, provider):
    fake_llm.script([BAD_REPLIES[bad], {"json": SUMMARIES}])
    summary = build(fake_llm, docs, tmp_path / "gt", provider=provider)
    assert (summary.made, summary.failed, fake_llm.request_count) == (1, 0, 2)
    repair = last_user_text(fake_llm.requests[1])
    assert "could not be used" in repair
    expected = {"malformed": "could not be read", "truncated": "cut off", "wrong_schema": "is missing",
                "refusal": "declined"}[bad]
    assert expected in repair
    first, second = (r["body"].get("max_tokens") for r in fake_llm.requests)
    # More room only for a reply cut off at its budget; a larger budget fixes nothing else (and would overflow a
    # context that had filled up).
    assert second == (2 * first if bad == "truncated" else first)


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
@pytest.mark.parametrize("bad", ["malformed", "truncated"])
def test_the_tokens_of_an_unreadable_reply_are_counted_in_the_ground_truth_cost(fake_llm, docs, tmp_path, keys,
                                                                              bad, provider):
    billed = {"input_tokens": 1000, "output_tokens": 500}
    fake_llm.script([{**BAD_REPLIES[bad], "usage": billed}, {"json": SUMMARIES, "usage": billed}])
    out = tmp_path / "gt"
    summary = build(fake_llm, docs, out, provider=provider)
    assert (summary.made, fake_llm.request_count) == (1, 2)
    gt = read_artifact(out / "harbor_sync.summarization.groundtruth.json", GroundTruth)
    assert gt.usage is not None and (gt.usage.input_tokens, gt.usage.output_tokens) == (2000, 1000)


def _drafts(*pairs: dict) -> dict:
    return {"qa_pairs": [{"query": "Q?", "answer_type": "string", **pair} for pair in pairs]}


def test_an_answer_must_occur_as_whole_words_in_its_own_evidence():
    document = "Founded in 2012.\nThe repair quote came in at $4,800 on Friday.\nTom Berg and Ana Costa signed off."
    quote = "the repair quote came in at $4,800"
    kept, problems = check_qa(_drafts(
        {"answer": "12", "evidence": quote},  # "12" only as part of "2012", elsewhere in the document
        {"answer": "4", "answer_type": "number", "evidence": quote},  # part of the number 4,800
        {"answer": "Tom Berg, Ana Costa", "answer_type": "list", "evidence": "Tom Berg and"},  # one item missing
        {"answer": "$4,800", "answer_type": "number", "evidence": quote},
        {"answer": "Tom Berg, Ana Costa", "answer_type": "list", "evidence": "Tom Berg and Ana Costa signed off"},
    ), QuoteFinder(document))
    assert [(p.answer, p.evidence) for p in kept] == [
        ("$4,800", "The repair quote came in at $4,800"),
        ("Tom Berg, Ana Costa", "Tom Berg and Ana Costa signed off"),
    ]
    assert len(problems) == 3 and all("does not occur as whole words in its evidence" in p for p in problems)


@pytest.mark.parametrize("bad", sorted(BAD_REPLIES))
def test_a_bad_reply_twice_fails_the_file_which_is_not_written(fake_llm, docs, tmp_path, keys, bad):
    (docs / "other.txt").write_text(TRANSCRIPT.replace("Lisbon", "Porto"))
    fake_llm.script([BAD_REPLIES[bad], BAD_REPLIES[bad], {"json": SUMMARIES}])
    out = tmp_path / "gt"
    result = CliRunner().invoke(cli, cli_args(fake_llm, docs, out, "--concurrency", "1"))
    assert result.exit_code == 1, result.output
    assert "made 1" in result.output and "failed 1" in result.output
    assert "harbor_sync.txt: still invalid after one repair turn" in result.output
    assert "run the same command again" in result.output
    assert not (out / "harbor_sync.summarization.groundtruth.json").exists()
    consolidated = read_artifact(out / "consolidated_summarization_groundtruth.json", ConsolidatedGroundTruth)
    assert [i.item_id for i in consolidated.items] == ["other"]  # only valid items


def test_a_provider_failure_fails_the_file_without_repair_and_the_rerun_makes_only_it(fake_llm, docs, tmp_path, keys):
    (docs / "other.txt").write_text(TRANSCRIPT.replace("Lisbon", "Porto"))
    fake_llm.script([{"fault": "400", "message": "context length exceeded"}, {"json": SUMMARIES}])
    out = tmp_path / "gt"
    first = build(fake_llm, docs, out, concurrency=1)
    assert (first.made, first.failed, fake_llm.request_count) == (1, 1, 2)  # no repair turn for a failed call
    assert "harbor_sync.txt: bad_request" in first.failures[0] and "context length exceeded" in first.failures[0]
    fake_llm.script([{"json": SUMMARIES}])
    second = build(fake_llm, docs, out, concurrency=1)
    assert (second.made, second.skipped, second.failed, fake_llm.request_count) == (1, 1, 0, 3)


def test_qa_on_md_and_html_keeps_only_grounded_pairs_with_verbatim_evidence(fake_llm, tmp_path, keys):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "sync.md").write_text("# Harbor sync\n\n" + TRANSCRIPT.split("Transcript:\n\n")[1])
    html = "".join(f"<p>{line}</p>\n" for line in TRANSCRIPT.split("Transcript:\n\n")[1].splitlines())
    (docs / "sync_page.html").write_text(f"<html><head><style>p {{}}</style></head><body>{html}</body></html>")
    # The model quotes with other whitespace and curly quotes; one pair invents its evidence.
    loose = {**QA_PAIRS[2],
             "evidence": "Then let\u2019s approve the $48,500   quote and\nstart the rollout on April 6."}
    fake_llm.script([
        {"json": {"qa_pairs": [QA_PAIRS[0], INVENTED, QA_PAIRS[1], loose]}},
        {"json": {"qa_pairs": QA_PAIRS}},
    ])
    out = tmp_path / "gt"
    summary = run_groundtruth(input_dir=docs, pattern="*", use_case="qa", output_dir=out, provider="openai",
                              model=MODEL, base_url=fake_llm.openai_base_url, num_samples=3, concurrency=1)
    assert (summary.made, summary.failed, fake_llm.request_count) == (2, 0, 2)
    for name in ("sync.qa.groundtruth.json", "sync_page.qa.groundtruth.json"):
        gt = read_artifact(out / name, GroundTruth)
        assert gt.qa_pairs is not None and len(gt.qa_pairs) == 3
        assert all(p.evidence and p.evidence in gt.source.text for p in gt.qa_pairs)
        assert "$12,000" not in {p.answer for p in gt.qa_pairs}
        assert [p.id[:3] for p in gt.qa_pairs] == ["q01", "q02", "q03"]
    page = read_artifact(out / "sync_page.qa.groundtruth.json", GroundTruth)
    assert page.source.path == "sync_page.html" and "<p>" not in page.source.text
    assert page.inputs["num_samples"] == "3"


def test_qa_with_too_few_grounded_pairs_after_the_repair_turn_fails(fake_llm, docs, tmp_path, keys):
    fake_llm.script([{"json": {"qa_pairs": [QA_PAIRS[0], INVENTED]}}, {"json": {"qa_pairs": [INVENTED]}}])
    out = tmp_path / "gt"
    summary = build(fake_llm, docs, out, use_case="qa", num_samples=3)
    assert (summary.made, summary.failed, fake_llm.request_count) == (0, 1, 2)
    assert "does not occur in the document" in last_user_text(fake_llm.requests[1])
    assert "only 1 of the 3 pairs are grounded" in summary.failures[0]
    assert not (out / "harbor_sync.qa.groundtruth.json").exists()


def test_pdf_input_text_is_extracted_and_every_evidence_span_is_found_in_it(fake_llm, tmp_path, keys):
    docs = tmp_path / "pdfs"
    docs.mkdir()
    paragraph = (
        "The audit team reviewed 1,240 invoices from January to March and found that 3.5% were paid twice, for a "
        "total of $61,300 in duplicate payments across eleven carriers in four regions."
    )
    markup = (
        "# Harbor Freight Audit 2026\n\n## Findings\n\n" + paragraph + "\n\n## Recovery\n\n"
        "Ingrid Alvarez will recover the duplicate payments from the carriers by June 30, 2026, starting with the "
        "three carriers that account for 70% of the total.\n\n## Controls\n\n"
        "- Invoices above $10,000 need a second approver.\n"
    )
    blocks = parse_markup(pdf_safe_text(markup))
    data, _ = render_pdf(blocks, author="Audit Team")
    (docs / "audit.pdf").write_bytes(data)
    (docs / "audit.txt").write_text(plain_text(blocks))  # the twin, left out by the pattern below
    pairs = [
        {"query": "How many invoices did the audit team review?", "answer": "1,240", "answer_type": "number",
         "evidence": paragraph},  # one line in the twin, several lines in the PDF's extracted text
        {"query": "Who will recover the duplicate payments?", "answer": "Ingrid Alvarez", "answer_type": "string",
         "evidence": "Ingrid Alvarez will recover the duplicate payments from the carriers by June 30, 2026"},
        {"query": "Which invoices need a second approver?", "answer": "Invoices above $10,000",
         "answer_type": "string", "evidence": "- Invoices above $10,000 need a second approver."},
    ]
    fake_llm.script([{"json": {"qa_pairs": pairs}}])
    out = tmp_path / "gt"
    summary = run_groundtruth(input_dir=docs, pattern="*.pdf", use_case="qa", output_dir=out, provider="openai",
                              model=MODEL, base_url=fake_llm.openai_base_url, num_samples=3)
    assert (summary.made, summary.failed) == (1, 0)
    gt = read_artifact(out / "audit.qa.groundtruth.json", GroundTruth)
    assert gt.source.path == "audit.pdf" and gt.source.text.split() == plain_text(blocks).split()
    assert paragraph not in gt.source.text  # extracted text breaks the paragraph where the PDF's lines end
    assert gt.qa_pairs is not None and len(gt.qa_pairs) == 3
    for pair in gt.qa_pairs:
        assert pair.evidence and pair.evidence in gt.source.text
    assert "\n" in gt.qa_pairs[0].evidence  # the span as the document has it, line breaks included
    assert "1,240 invoices" in last_user_text(fake_llm.requests[0])


def test_a_custom_prompt_replaces_the_default_and_makes_earlier_ground_truth_stale(fake_llm, docs, tmp_path, keys):
    out = tmp_path / "gt"
    fake_llm.script([{"json": SUMMARIES}] * 3)
    build(fake_llm, docs, out)
    custom = tmp_path / "risk_prompt.j2"
    custom.write_text("Summarize this {{ doc_label }} for a risk officer, stressing money at stake.")
    redone = build(fake_llm, docs, out, custom_prompt=custom)
    assert (redone.redone, fake_llm.request_count) == (1, 2)
    prompt = last_user_text(fake_llm.requests[1])
    assert prompt.startswith("Summarize this document for a risk officer")
    assert TRANSCRIPT.strip() in prompt  # the prompt did not place the document, so it is appended
    gt = read_artifact(out / "harbor_sync.summarization.groundtruth.json", GroundTruth)
    assert gt.inputs["custom_prompt"].startswith("sha256:")
    assert build(fake_llm, docs, out, custom_prompt=custom).skipped == 1
    custom.write_text("Risk view of this {{ doc_label }}:\n<doc>{{ document }}</doc>")
    assert build(fake_llm, docs, out, custom_prompt=custom).redone == 1
    assert last_user_text(fake_llm.requests[2]).count("Tom Berg: Agreed.") == 1


def test_a_failed_redo_keeps_the_earlier_valid_ground_truth_in_the_consolidated_file(fake_llm, docs, tmp_path, keys):
    out = tmp_path / "gt"
    fake_llm.script([{"json": SUMMARIES}])
    build(fake_llm, docs, out)
    before = (out / "harbor_sync.summarization.groundtruth.json").read_bytes()
    fake_llm.script([{"fault": "refusal"}, {"fault": "refusal"}])
    summary = build(fake_llm, docs, out, provider="anthropic")  # another model: stale, redone, fails
    assert (summary.failed, summary.redone) == (1, 0)
    assert (out / "harbor_sync.summarization.groundtruth.json").read_bytes() == before
    assert any("kept the earlier ground truth of harbor_sync.txt" in note for note in summary.notes)
    consolidated = read_artifact(out / "consolidated_summarization_groundtruth.json", ConsolidatedGroundTruth)
    assert [i.method for i in consolidated.items] == [f"llm:openai:{MODEL}"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--provider", "anthropic", "--model", "claude-haiku-4-5"], "ANTHROPIC_API_KEY is not set"),
        (["--provider", "openai"], "--model"),
        (["--custom-prompt", "PROMPT"], "needs an LLM provider"),
        (["--provider", "openai", "--model", MODEL, "--custom-prompt", "BAD_PROMPT"], "unknown variable 'question'"),
    ],
)
def test_usage_errors_exit_2_before_any_call_or_write(fake_llm, docs, tmp_path, monkeypatch, extra, message):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    (tmp_path / "p.j2").write_text("Summarize {{ document }}")
    (tmp_path / "bad.j2").write_text("Answer {{ question }} about {{ document }}")
    extra = [str(tmp_path / "p.j2") if a == "PROMPT" else str(tmp_path / "bad.j2") if a == "BAD_PROMPT" else a
             for a in extra]
    out = tmp_path / "gt"
    args = ["groundtruth", "-d", str(docs), "-o", str(out), "--base-url", fake_llm.url, *extra]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert fake_llm.request_count == 0 and not out.exists()


def test_llm_ground_truth_feeds_batch_experiment(fake_llm, docs, tmp_path, keys):
    """The artifact is the same schema the offline ground truth uses: the next stage reads it as it is."""
    from gaia_eval.artifacts.experiment import Experiment
    from gaia_eval.stages.experiment.run import run_batch_experiment

    fake_llm.script([{"json": {"qa_pairs": QA_PAIRS}}])
    out = tmp_path / "gt"
    build(fake_llm, docs, out, use_case="qa", num_samples=3)
    config = tmp_path / "qa.json"
    config.write_bytes(orjson.dumps({"experiments": [{"name": "lead", "provider": "baseline", "model": "lead"}]}))
    result = run_batch_experiment(config, out, tmp_path / "exp", show_progress=False)
    assert result.items_ok == 3
    experiment = read_artifact(tmp_path / "exp" / "lead.experiment.json", Experiment)
    expected = {i.groundtruth_answer.answer for i in experiment.items if i.groundtruth_answer}
    assert expected == {"$48,500", "Tom Berg", "April 6"}


JUNK_SUMMARIES = {  # what grammar-constrained JSON from a weak model looked like: schema-valid, no substance
    "executive_summary": ":{",
    "detailed_summary": "owner: key_decisions",
    "action_items": ["owner: key_decisions"],
    "key_decisions": ["owner: key_decisions"],
    "participants": ["owner: key_decisions"],
    "topics_discussed": ["owner: key_decisions"],
}


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_schema_valid_junk_is_repaired_or_refused_never_written(fake_llm, docs, tmp_path, keys, provider):
    fake_llm.script([{"json": JUNK_SUMMARIES}, {"json": JUNK_SUMMARIES}])
    summary = build(fake_llm, docs, tmp_path / "gt", provider=provider)
    assert (summary.made, summary.failed) == (0, 1)
    assert "not a summary" in summary.failures[0] and "placeholder text" in summary.failures[0]
    assert not (tmp_path / "gt" / "harbor_sync.summarization.groundtruth.json").exists()
    assert "placeholder text" in last_user_text(fake_llm.requests[1])  # the repair turn says what was wrong


def test_a_summary_of_another_text_is_not_accepted_as_this_documents(fake_llm, docs, tmp_path, keys):
    elsewhere = {**SUMMARIES, "executive_summary": "Quantum chromodynamics describes gluons binding quarks inside "
                 "hadrons through color charge and asymptotic freedom."}
    fake_llm.script([{"json": elsewhere}, {"json": SUMMARIES}])
    summary = build(fake_llm, docs, tmp_path / "gt")
    assert summary.made == 1 and fake_llm.request_count == 2
    assert "words the document does not use" in last_user_text(fake_llm.requests[1])
