"""Artifacts of the generate stage: the planted facts of a synthetic document and the folder index."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from gaia_eval.artifacts.base import Artifact, Count, Finite, NonNegative, Strict, Usage

MEETING_TYPES = (
    "standup",
    "planning",
    "client_call",
    "design_review",
    "performance_review",
    "all_hands",
    "budget_planning",
    "product_roadmap",
)
EMAIL_TYPES = (
    "project_update",
    "meeting_request",
    "customer_support",
    "sales_outreach",
    "internal_announcement",
    "technical_discussion",
    "vendor_communication",
    "performance_feedback",
)
# Longer documents written by an LLM and rendered to PDF (with a .txt twin of the rendered text).
PDF_TYPES = (
    "technical_spec",
    "business_proposal",
    "research_report",
    "project_plan",
    "policy_document",
    "white_paper",
    "user_manual",
    "financial_report",
)

DocKind = Literal["meeting", "email"]


class Participant(Strict):
    name: str
    role: str


class ActionItem(Strict):
    owner: str
    task: str
    due: str  # ISO date, YYYY-MM-DD


class KeyFigure(Strict):
    label: str  # what the figure is, e.g. "approved budget for the vendor migration"
    value: str  # as written in the document, e.g. "$48,500"
    kind: Literal["amount", "date", "count", "percent", "duration"]
    number: Finite | None = None  # numeric value for amounts, counts, percents
    unit: str | None = None


class PlantedFacts(Strict):
    """The facts the generator put into the document on purpose; the offline ground truth is built from them."""

    title: str
    summary: str  # one or two sentences on what the document is about, written from the facts
    participants: list[Participant]
    topics: list[str]
    decisions: list[str]
    action_items: list[ActionItem]
    key_figures: list[KeyFigure]


class EmailHeaders(Strict):
    sender: str
    recipients: list[str]
    subject: str
    date: str


class DocumentMeta(Artifact):
    """`<stem>.meta.json` beside each generated document."""

    kind: Literal["document_meta"] = "document_meta"
    document: str  # file name of the document in the same folder
    document_fingerprint: str
    doc_kind: DocKind
    doc_type: str  # standup, project_update, ...
    generator: str  # "offline" or "<provider>:<model>"
    seed: int
    variant: Count  # 1 for <type>_meeting.txt, 2 for <type>_meeting_2.txt, ...
    target_tokens: Count
    word_count: Count
    estimated_tokens: Count
    token_method: str  # "words*1.33" or a tokenizer name
    facts: PlantedFacts | None = None
    headers: EmailHeaders | None = None
    usage: Usage | None = None
    cost_usd: NonNegative | None = None


class IndexEntry(Strict):
    file: str
    meta_file: str
    doc_type: str
    fingerprint: str
    estimated_tokens: Count


class GenerationInfo(Strict):
    generator: str
    total_files: Count
    target_tokens_per_file: Count
    types: list[str]


class GenerationIndex(Artifact):
    """`transcript_metadata.json` / `email_metadata.json`, rebuilt from the per-file metas of the folder."""

    kind: Literal["generation_index"] = "generation_index"
    doc_kind: DocKind
    generation_info: GenerationInfo
    files: list[IndexEntry] = Field(default_factory=list)


class PdfDocumentMeta(Artifact):
    """`<stem>.meta.json` beside each generated PDF and its `.txt` twin (the text the PDF was rendered from)."""

    kind: Literal["pdf_document_meta"] = "pdf_document_meta"
    document: str  # file name of the PDF in the same folder
    document_fingerprint: str
    text_document: str  # file name of the .txt twin
    text_fingerprint: str
    doc_type: str  # technical_spec, white_paper, ...
    title: str
    generator: str  # "<provider>:<model>"
    seed: int
    variant: Count
    target_tokens: Count
    word_count: Count
    estimated_tokens: Count
    token_method: str
    pages: Count
    usage: Usage | None = None
    cost_usd: NonNegative | None = None


class PdfIndexEntry(Strict):
    file: str
    text_file: str
    meta_file: str
    doc_type: str
    fingerprint: str
    text_fingerprint: str
    estimated_tokens: Count
    pages: Count


class PdfIndex(Artifact):
    """`pdf_metadata.json`, rebuilt from the per-file PDF metas of the folder."""

    kind: Literal["pdf_index"] = "pdf_index"
    generation_info: GenerationInfo
    files: list[PdfIndexEntry] = Field(default_factory=list)
