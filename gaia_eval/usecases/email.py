"""Email summarization: summarization told the document is a business email (its prompts, judge and title); it
shares summarization's ground truth, scorers and templates."""

from __future__ import annotations

from dataclasses import replace

from gaia_eval.usecases.summarization import USE_CASE as SUMMARIZATION

USE_CASE = replace(
    SUMMARIZATION,
    name="email",
    title="Email summarization",
    description="summaries of business emails (six styles)",
    doc_label="business email",
    system_prompt="You summarize business emails accurately and concisely, using only what the email says.",
    judge_task="summaries of business emails",
    kin=("summarization",),
    participants_note="the sender, the recipients and anyone copied",
)
