"""The answer template: a file a person fills with a third-party system's answers, to score it like any model."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from gaia_eval.artifacts.base import Artifact, Strict
from gaia_eval.artifacts.groundtruth import Summaries, UseCase


class TemplateItem(Strict):
    item_id: str
    source: str  # key into AnswerTemplate.documents
    query: str | None = None  # qa: the question to answer
    answer: str = ""  # qa: fill in
    summaries: Summaries | None = None  # summarization/email: fill in every field


class AnswerTemplate(Artifact):
    """`<name>.template.json`. It holds the questions and documents, never the expected answers."""

    kind: Literal["answer_template"] = "answer_template"
    name: str  # the system being evaluated, as it will appear in reports
    model: str = "manual"  # free text: what produced the answers (e.g. "acme-rag v2")
    use_case: UseCase
    instructions: str
    groundtruth_file: str
    groundtruth_fingerprint: str
    documents: dict[str, str]
    items: list[TemplateItem] = Field(min_length=1)
