"""Writing one synthetic document with an LLM: the prompt made from its brief, the draft, at most one length
turn and at most one repair turn, and the checked result.

The model's draft is checked (llm_checks). A draft with problems gets one repair turn that lists them; a
draft under 80 % of the target length gets one length turn (a meeting is continued, never wrapped up; an
e-mail or PDF document is rewritten longer), and what comes back is checked again. A document still failing
its checks after the repair turn is a failure, never written. The model does not report planted facts: its
documents get ground truth from the `groundtruth` stage run with an LLM.
"""

from __future__ import annotations

from dataclasses import dataclass

from gaia_eval.artifacts.documents import EmailHeaders
from gaia_eval.generation.llm.checks import check_email, check_meeting_dialogue, check_pdf_document, clean_reply
from gaia_eval.generation.llm.pdf import Block, document_title, parse_markup, pdf_safe_text, plain_text
from gaia_eval.generation.llm.scenario import Brief
from gaia_eval.generation.llm.session import CallFailed, Session, UnreadableReply, follow_up
from gaia_eval.generation.llm.tokens import TokenCount, count_tokens, words_for_tokens
from gaia_eval.prompts import prompts_fingerprint, render
from gaia_eval.providers.base import Message

GENERATE_TEMPLATES = (
    "generate_system.j2",
    "generate_meeting.j2",
    "generate_email.j2",
    "generate_pdf.j2",
    "generate_continue.j2",
    "generate_repair.j2",
)
LENGTH_FLOOR = 0.8  # under this share of the target, the document gets its one length turn
MAX_OUTPUT_TOKENS = 16_000  # what current cloud and local models accept as max_tokens for one reply
OUTPUT_HEADROOM = 1.6  # max_tokens per target token: room for a draft that runs long, never a cut-off draft
TEMPERATURE = 0.8  # documents of one type should differ in wording, not only in cast


def generate_prompts_fingerprint() -> str:
    return prompts_fingerprint(*GENERATE_TEMPLATES)


def output_budget(target_tokens: int) -> int:
    return min(MAX_OUTPUT_TOKENS, int(target_tokens * OUTPUT_HEADROOM) + 512)


@dataclass(frozen=True)
class WrittenDocument:
    text: str  # the document as written to disk (for a PDF: its plain-text twin)
    title: str
    tokens: TokenCount
    headers: EmailHeaders | None = None
    blocks: tuple[Block, ...] = ()  # PDF documents: what is rendered


@dataclass(frozen=True)
class Outcome:
    document: WrittenDocument | None = None
    error: str | None = None


@dataclass(frozen=True)
class _Reply:
    text: str
    problem: str | None = None  # set when the reply is no usable document at all (unreadable, refused, empty)


def system_prompt() -> str:
    return render("generate_system.j2")


def document_prompt(brief: Brief) -> str:
    common = {
        "doc_type": brief.doc_type,
        "label": brief.label,
        "company": brief.company,
        "date": brief.long_date,
        "target_words": words_for_tokens(brief.target_tokens),
    }
    if brief.kind == "meeting":
        participants = [{"name": p.name, "role": p.role} for p in brief.people]
        return render(
            "generate_meeting.j2", **common, title=brief.title, minutes=brief.minutes, participants=participants,
            topics=list(brief.topics), header=brief.header.rstrip("\n"),
        )
    if brief.kind == "email":
        return render(
            "generate_email.j2", **common, sender=brief.sender, recipients=list(brief.recipients),
            copied=list(brief.copied), subject=brief.title, topics=list(brief.topics),
        )
    return render("generate_pdf.j2", **common, subject=brief.title, author=brief.sender)


def assemble(brief: Brief, body: str) -> tuple[WrittenDocument, list[str]]:
    """The document made from the model's text, and what is wrong with it (empty when it can be written)."""
    if brief.kind == "meeting":
        text = brief.header + body + "\n"
        return WrittenDocument(text, brief.title, count_tokens(text)), check_meeting_dialogue(body, brief)
    if brief.kind == "email":
        headers, problems = check_email(body, brief)
        text = body + "\n"
        title = headers.subject if headers else brief.title
        return WrittenDocument(text, title, count_tokens(text), headers=headers), problems
    markup = pdf_safe_text(body)
    blocks = parse_markup(markup)
    text = plain_text(blocks)
    document = WrittenDocument(text, document_title(blocks), count_tokens(text), blocks=tuple(blocks))
    return document, check_pdf_document(markup, blocks)


async def write_document(session: Session, brief: Brief) -> Outcome:
    """Draft, then at most one length turn and one repair turn. Provider failures end the document too."""
    try:
        return await _converse(session, brief, document_prompt(brief))
    except CallFailed as exc:
        return Outcome(error=exc.reason)


async def _ask(session: Session, messages: tuple[Message, ...]) -> _Reply:
    try:
        response = await session.send(messages)
    except UnreadableReply as exc:
        return _Reply("", f"the reply could not be read ({exc.problem})")
    if response.finish_reason == "refusal":
        return _Reply("", f"the model declined to write it ({' '.join(response.text.split())[:200]}); it is "
                          "fictional test data")
    text = clean_reply(response.text, truncated=response.finish_reason == "length")
    if not text.strip():
        return _Reply("", "the reply was empty")
    return _Reply(text)


async def _converse(session: Session, brief: Brief, prompt: str) -> Outcome:
    reply = await _ask(session, (Message(role="user", content=prompt),))
    body = reply.text
    lengthened = repaired = False
    while True:
        if reply.problem is None:
            document, problems = assemble(brief, body)
            if not problems:
                if lengthened or document.tokens.tokens >= LENGTH_FLOOR * brief.target_tokens:
                    return Outcome(document=document)
                lengthened = True
                longer = await _ask(session, follow_up(prompt, body, _length_request(brief, document)))
                if longer.problem is None:  # a failed length turn keeps the short but valid document
                    body = f"{body}\n{longer.text}" if brief.kind == "meeting" else longer.text
                continue
        else:
            problems = [reply.problem]
        if repaired:
            return Outcome(error="still invalid after one repair turn: " + "; ".join(problems))
        repaired = True
        repair = render("generate_repair.j2", kind=brief.kind, label=_noun(brief), problems=problems)
        reply = await _ask(session, follow_up(prompt, body or None, repair))
        if reply.problem is None:
            body = reply.text


def _noun(brief: Brief) -> str:
    if brief.kind == "meeting":
        return "transcript"
    return "e-mail" if brief.kind == "email" else brief.label


def _length_request(brief: Brief, document: WrittenDocument) -> str:
    target_words = words_for_tokens(brief.target_tokens)
    return render(
        "generate_continue.j2",
        kind=brief.kind,
        label=_noun(brief),
        words=document.tokens.words,
        target_words=target_words,
        missing_words=max(50, target_words - document.tokens.words),
    )
