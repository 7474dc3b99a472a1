"""`generate` with an LLM, through the real SDKs against the local fake server: documents and metas that
validate, one repair turn for a document that summarizes itself (then failure, nothing written), one length
turn for a short draft, PDFs with their .txt twin, skipping on rerun, and the usage errors."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from gaia_eval.artifacts.documents import DocumentMeta, GenerationIndex, PdfDocumentMeta, PdfIndex
from gaia_eval.artifacts.store import fingerprint_bytes, read_artifact
from gaia_eval.cli import cli
from gaia_eval.generation.llm import tokens as llm_tokens
from gaia_eval.generation.llm.checks import check_email, forbidden_sections
from gaia_eval.generation.llm.generate import generate_prompts_fingerprint
from gaia_eval.generation.llm.scenario import Brief, make_brief
from gaia_eval.generation.llm.tokens import count_tokens
from gaia_eval.stages.generate import run_generate

MODEL = "gpt-4o-mini"
SEED = 4
TARGET = 400

_TALK = (
    "Morning, everyone. Let's start with the {topic}, since that's the one with a deadline.",
    "I looked at the numbers for the {topic} yesterday. We're at 72% of what we planned, about $18,400 so far.",
    "That's lower than I expected. Is the vendor still on track for the March 14 delivery?",
    "They confirmed on Tuesday, but they asked for the final specs by Friday, March 6.",
    "Then let's agree to send them the specs this week rather than wait for the review.",
    "Agreed. I can write the specs up and send them by Thursday, March 5.",
    "One concern on the {topic}: the test environment still isn't stable, we lost two days last sprint.",
    "Can you open a ticket with the platform team and chase it before Monday?",
    "Sure, I'll do that today and report back on Monday.",
    "Good. Moving on, anything blocking anyone else?",
)


def meeting_reply(brief: Brief, lines: int = 36) -> str:
    """What a model writes for a meeting brief: dialogue lines spoken by the brief's participants."""
    names = [p.name for p in brief.people]
    out = []
    for i in range(lines):
        topic = brief.topics[(i // len(_TALK)) % len(brief.topics)]
        out.append(f"{names[i % len(names)]}: {_TALK[i % len(_TALK)].format(topic=topic)}")
    return "\n".join(out)


def email_reply(brief: Brief, paragraphs: int = 6) -> str:
    head = [f"From: {brief.sender.mailbox}", "To: " + ", ".join(p.mailbox for p in brief.recipients)]
    if brief.copied:
        head.append("Cc: " + ", ".join(p.mailbox for p in brief.copied))
    head += [f"Subject: {brief.title}", f"Date: {brief.long_date} 9:12 AM"]
    first = brief.recipients[0].name.split()[0]
    body = [f"Hi {first},"]
    for i in range(paragraphs):
        topic = brief.topics[i % len(brief.topics)]
        body.append(
            f"On the {topic}: we have spent $12,{i}00 of the $30,000 set aside, and the work is about 60% done. "
            f"The supplier confirmed the next delivery for April {10 + i}, which keeps us ahead of the review. "
            f"{first}, could you confirm the revised scope for the {topic} by April {20 + i}?"
        )
    body.append(f"Thanks,\n{brief.sender.name}\n{brief.sender.role}, {brief.company}")
    return "\n".join(head) + "\n\n" + "\n\n".join(body)


def pdf_reply(brief: Brief) -> str:
    section = (
        "The {subject} serves 48,500 monthly users across three regions. Requests peak at 1,200 per second on "
        "Mondays, and the current p95 latency is 340 ms against a target of 250 ms. The team of six engineers led "
        "by {author} owns the service until the migration completes on September 30, 2026."
    )
    text = section.format(subject=brief.title, author=brief.sender.name)
    return (
        f"# {brief.label.title()}: {brief.title.removeprefix('the ')}\n\n"
        f"## Background\n\n{text}\n\n{text}\n\n"
        "## Requirements\n\n- Latency: p95 under 250 ms.\n- Availability: 99.9% per month.\n\n"
        f"## Rollout\n\n{text}\n\n{text}\n"
    )


def prompt_of(req: dict) -> str:
    """The first user message of a request (the document prompt), for either protocol."""
    message = next(m for m in req["body"]["messages"] if m["role"] == "user")
    content = message["content"]
    return content if isinstance(content, str) else " ".join(b.get("text", "") for b in content)


def last_user(req: dict) -> str:
    message = [m for m in req["body"]["messages"] if m["role"] == "user"][-1]
    content = message["content"]
    return content if isinstance(content, str) else " ".join(b.get("text", "") for b in content)


def realistic(kind: str, doc_types: list[str], count: int = 1, target: int = TARGET):
    """A responder that answers each document prompt with a realistic document for its brief."""
    briefs = [make_brief(kind, t, v, SEED, target) for t in doc_types for v in range(1, count + 1)]

    def respond(req: dict) -> dict:
        prompt = prompt_of(req)
        brief = next(b for b in briefs if all(p.name in prompt for p in b.people) and b.title in prompt)
        return {"text": {"meeting": meeting_reply, "email": email_reply, "pdf": pdf_reply}[kind](brief)}

    return respond


@pytest.fixture()
def openai_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-generate")


def generate(fake_llm, out: Path, kind: str, types: list[str], **extra):
    return run_generate(kind, out, types=types, seed=SEED, target_tokens=TARGET, provider="openai", model=MODEL,
                        base_url=fake_llm.openai_base_url, **extra)


def test_llm_meetings_and_emails_end_to_end_with_valid_metas_then_rerun_makes_no_call(fake_llm, tmp_path, openai_key):
    out = tmp_path / "docs"
    fake_llm.responder = realistic("meeting", ["standup", "client_call"])
    meetings = generate(fake_llm, out, "meeting", ["standup", "client_call"])
    fake_llm.responder = realistic("email", ["project_update"])
    emails = generate(fake_llm, out, "email", ["project_update"])
    assert (meetings.made, meetings.failed, emails.made, emails.failed) == (2, 0, 1, 0)
    assert fake_llm.request_count == 3

    brief = make_brief("meeting", "standup", 1, SEED, TARGET)
    text = (out / "standup_meeting.txt").read_text()
    assert text.startswith(brief.header) and text.endswith("\n")  # our exact header, then the model's dialogue
    meta = read_artifact(out / "standup_meeting.meta.json", DocumentMeta)
    assert meta.generator == f"openai:{MODEL}" and meta.facts is None and meta.doc_kind == "meeting"
    assert meta.document_fingerprint == fingerprint_bytes(text.encode())
    assert meta.usage is not None and meta.usage.input_tokens > 0 and meta.usage.output_tokens > 0
    assert meta.cost_usd is not None and meta.cost_usd > 0  # gpt-4o-mini is priced
    assert meta.inputs["prompts"] == generate_prompts_fingerprint()
    counted = count_tokens(text)
    assert (meta.token_method, meta.estimated_tokens) == (counted.method, counted.tokens)
    assert meta.word_count == counted.words
    assert meta.token_method in ("tiktoken:cl100k_base", "words*1.33")

    email = read_artifact(out / "project_update_email.meta.json", DocumentMeta)
    email_brief = make_brief("email", "project_update", 1, SEED, TARGET)
    assert email.headers is not None and email.headers.sender == email_brief.sender.mailbox
    assert email.headers.subject == email_brief.title

    index = read_artifact(out / "transcript_metadata.json", GenerationIndex)
    assert sorted(e.file for e in index.files) == ["client_call_meeting.txt", "standup_meeting.txt"]
    assert index.generation_info.generator == f"openai:{MODEL}"

    prompt = prompt_of(fake_llm.requests[0])
    assert "must not contain its own summary" in prompt and "Full Name: what they say" in prompt

    again = generate(fake_llm, out, "meeting", ["standup", "client_call"])
    assert (again.made, again.skipped) == (0, 2) and fake_llm.request_count == 3


def test_anthropic_writes_an_email_through_the_cli(fake_llm, tmp_path, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    fake_llm.responder = realistic("email", ["customer_support"])
    out = tmp_path / "mail"
    result = CliRunner().invoke(cli, [
        "generate", "--email", "--email-types", "customer_support", "-o", str(out), "--seed", str(SEED),
        "--target-tokens", str(TARGET), "--provider", "anthropic", "--model", "claude-haiku-4-5",
        "--base-url", fake_llm.anthropic_base_url, "--quiet",
    ])
    assert result.exit_code == 0, result.output
    assert fake_llm.requests[0]["protocol"] == "anthropic"
    meta = read_artifact(out / "customer_support_email.meta.json", DocumentMeta)
    assert meta.generator == "anthropic:claude-haiku-4-5" and meta.cost_usd and meta.cost_usd > 0


def _with_action_items(brief: Brief) -> str:
    owner = brief.people[1].name
    return meeting_reply(brief) + f"\n\nAction items:\n- {owner}: send the specs by March 5\n- Open a platform ticket"


def test_a_document_with_its_own_action_items_gets_one_repair_turn_then_is_written(fake_llm, tmp_path, openai_key):
    brief = make_brief("meeting", "planning", 1, SEED, TARGET)
    fake_llm.script([{"text": _with_action_items(brief)}, {"text": meeting_reply(brief)}])
    summary = generate(fake_llm, tmp_path / "docs", "meeting", ["planning"])
    assert (summary.made, summary.failed) == (1, 0)
    assert fake_llm.request_count == 2
    repair = fake_llm.requests[1]["body"]["messages"]
    assert [m["role"] for m in repair] == ["system", "user", "assistant", "user"]
    assert "Action items:" in repair[-1]["content"] and "cannot be used yet" in repair[-1]["content"]
    text = (tmp_path / "docs" / "planning_meeting.txt").read_text()
    assert "Action items" not in text and forbidden_sections(text, speaker_lines=True) == []


def test_a_document_that_summarizes_itself_twice_fails_and_nothing_is_written(fake_llm, tmp_path, openai_key):
    brief = make_brief("meeting", "planning", 1, SEED, TARGET)
    fake_llm.script([{"text": _with_action_items(brief)}, {"text": _with_action_items(brief)}])
    out = tmp_path / "docs"
    result = CliRunner().invoke(cli, [
        "generate", "--meeting-transcript", "--meeting-types", "planning", "-o", str(out), "--seed", str(SEED),
        "--target-tokens", str(TARGET), "--provider", "openai", "--model", MODEL,
        "--base-url", fake_llm.openai_base_url, "--quiet",
    ])
    assert result.exit_code == 1, result.output
    assert "failed 1" in result.output and "run the same command again" in result.output
    assert "planning_meeting: still invalid after one repair turn" in result.output
    assert fake_llm.request_count == 2
    assert not (out / "planning_meeting.txt").exists() and not (out / "planning_meeting.meta.json").exists()
    assert read_artifact(out / "transcript_metadata.json", GenerationIndex).files == []


def test_a_short_draft_gets_one_continue_turn_that_is_appended(fake_llm, tmp_path, openai_key):
    brief = make_brief("meeting", "standup", 1, SEED, TARGET)
    full = meeting_reply(brief).split("\n")
    fake_llm.script([{"text": "\n".join(full[:8])}, {"text": "\n".join(full[8:])}])
    summary = generate(fake_llm, tmp_path / "docs", "meeting", ["standup"])
    assert (summary.made, summary.failed, fake_llm.request_count) == (1, 0, 2)
    follow_up = fake_llm.requests[1]["body"]["messages"][-1]["content"]
    assert "too short" in follow_up and "Do not wrap up" in follow_up
    assert (tmp_path / "docs" / "standup_meeting.txt").read_text() == brief.header + "\n".join(full) + "\n"


def test_a_refused_draft_gets_one_repair_turn(fake_llm, tmp_path, openai_key):
    brief = make_brief("email", "sales_outreach", 1, SEED, TARGET)
    fake_llm.script([{"fault": "refusal"}, {"text": email_reply(brief)}])
    summary = generate(fake_llm, tmp_path / "docs", "email", ["sales_outreach"])
    assert (summary.made, summary.failed, fake_llm.request_count) == (1, 0, 2)
    assert "declined" in fake_llm.requests[1]["body"]["messages"][-1]["content"]


def test_a_provider_failure_fails_only_that_document_and_the_rerun_makes_only_it(fake_llm, tmp_path, openai_key):
    briefs = [make_brief("meeting", t, 1, SEED, TARGET) for t in ("standup", "design_review")]
    fake_llm.script([{"text": meeting_reply(briefs[0])}, {"fault": "400", "message": "model overloaded"}])
    out = tmp_path / "docs"
    first = generate(fake_llm, out, "meeting", ["standup", "design_review"], concurrency=1)
    assert (first.made, first.failed) == (1, 1)
    assert "design_review_meeting: bad_request" in first.failures[0]
    assert not (out / "design_review_meeting.txt").exists()
    fake_llm.script([{"text": meeting_reply(briefs[1])}])
    second = generate(fake_llm, out, "meeting", ["standup", "design_review"], concurrency=1)
    assert (second.made, second.skipped, second.failed, fake_llm.request_count) == (1, 1, 0, 3)


def test_pdf_documents_render_with_a_txt_twin_meta_and_index_then_skip(fake_llm, tmp_path, openai_key):
    out = tmp_path / "pdfs"
    fake_llm.responder = realistic("pdf", ["technical_spec", "white_paper"])
    summary = run_generate("pdf", out, types=["technical_spec", "white_paper"], seed=SEED, target_tokens=TARGET,
                           provider="openai", model=MODEL, base_url=fake_llm.openai_base_url)
    assert (summary.made, summary.failed) == (2, 0)
    meta = read_artifact(out / "technical_spec.meta.json", PdfDocumentMeta)
    pdf_bytes = (out / "technical_spec.pdf").read_bytes()
    twin = (out / "technical_spec.txt").read_text()
    assert meta.document_fingerprint == fingerprint_bytes(pdf_bytes) and meta.pages >= 1
    assert meta.text_fingerprint == fingerprint_bytes(twin.encode())
    assert meta.title == "Technical Specification: " + make_brief("pdf", "technical_spec", 1, SEED, TARGET).title[4:]
    assert "## " not in twin and twin.startswith(meta.title + "\n\nBackground\n")
    extracted = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf_bytes)).pages)
    assert extracted.split() == twin.split()  # the twin holds exactly the words the PDF shows
    index = read_artifact(out / "pdf_metadata.json", PdfIndex)
    assert [(e.file, e.text_file) for e in index.files] == [
        ("technical_spec.pdf", "technical_spec.txt"), ("white_paper.pdf", "white_paper.txt")
    ]
    calls = fake_llm.request_count  # 2, or 4 when the word-count method asks for a length turn
    again = run_generate("pdf", out, types=["technical_spec", "white_paper"], seed=SEED, target_tokens=TARGET,
                         provider="openai", model=MODEL, base_url=fake_llm.openai_base_url)
    assert (again.skipped, fake_llm.request_count) == (2, calls)  # up to date: no call at all


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pdf"], "PDF documents are written by an LLM"),
        (["--meeting-transcript", "--provider", "openai"], "--model"),
        (["--email", "--provider", "anthropic", "--model", "claude-haiku-4-5"], "ANTHROPIC_API_KEY is not set"),
    ],
)
def test_usage_errors_exit_2_before_any_call(fake_llm, tmp_path, monkeypatch, args, message):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    result = CliRunner().invoke(cli, ["generate", *args, "-o", str(tmp_path / "out"), "--base-url", fake_llm.url])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert fake_llm.request_count == 0
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").glob("*.txt"))


def test_token_counts_fall_back_to_the_word_heuristic_without_an_offline_tokenizer(monkeypatch):
    monkeypatch.setattr(llm_tokens, "_offline_encoding", lambda: None)
    counted = count_tokens("one two three four five six")
    assert (counted.words, counted.tokens, counted.method) == (6, 8, "words*1.33")


def test_self_summaries_are_caught_in_any_form_and_ordinary_sentences_are_not():
    caught = [
        "## Action Items", "**Key Takeaways:**", "Summary:", "3. Next steps", "Decisions: keep the date",
        "Here is a recap of the decisions:\n- keep the date",
    ]
    for text in caught:
        assert forbidden_sections(text), text
    assert forbidden_sections("Tom Berg: Action items: Priya sends the deck.", speaker_lines=True)
    fine = ["Next steps are simple: I send the deck on Friday.", "Tom Berg: We decided to keep the date.",
            "Participants:\n- Tom Berg (Lead)"]
    for text in fine:
        assert forbidden_sections(text, speaker_lines=True) == [], text


def test_an_email_without_its_headers_is_rejected_with_the_fix_to_make():
    brief = make_brief("email", "project_update", 1, SEED, TARGET)
    headers, problems = check_email("Hi team,\n\nThe launch moved to June 3.", brief)
    assert headers is None
    assert any("`From:` header" in p for p in problems) and any("`Subject:`" in p for p in problems)
