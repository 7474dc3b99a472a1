"""A third-party use case and scorer, as another package would ship them, touching nothing in gaia_eval/: the
`tickets` use case (support ticket summaries, scored by the built-in summary scorers) and the `acme_ticket_ref`
scorer (does the executive summary name the ticket's number?). Their entry points (groups `gaia_eval.usecases`
and `gaia_eval.scorers`) are declared in the dist-info beside this file."""

from __future__ import annotations

import re

from gaia_eval.scoring.scorers import Scorer, ScoringInput
from gaia_eval.usecases import UseCase

TICKETS = UseCase(
    name="tickets",
    title="Support ticket summaries",
    description="summaries of customer support tickets",
    answers="summaries",
    scorers={
        ("comparative", False): "summaries",
        ("standalone", False): "summaries_standalone",
        ("comparative", True): "free_text",
        ("standalone", True): "free_text",
    },
    doc_label="support ticket",
    system_prompt="You summarize customer support tickets for the next agent on shift: the customer's problem, "
    "what was tried, and what is still open.",
    judge_task="summaries of customer support tickets",
    rating_dimensions=("relevance", "consistency", "fluency", "coherence"),
    baseline="textrank",
    template_instructions="Paste your system's summary of each support ticket into `response`, one section per "
    "heading: 'Executive summary:', 'Detailed summary:', 'Action items:', 'Key decisions:', 'Participants:', "
    "'Topics discussed:'.",
    answers_instructions="Summarize each support ticket and fill every field of `summaries`.",
)

TICKET_NUMBER = re.compile(r"#\d{3,}")


def ticket_ref(item: ScoringInput) -> dict[str, float | None]:
    """1.0 when the executive summary names the ticket's number (#1234), 0.0 when it does not; N/A for a ticket
    without one."""
    numbers = set(TICKET_NUMBER.findall(item.source_text))
    if not numbers:
        return {"ticket_ref": None}
    summary = item.answer.executive_summary if item.answer is not None else ""
    return {"ticket_ref": 1.0 if numbers & set(TICKET_NUMBER.findall(summary)) else 0.0}


TICKET_REF = Scorer("acme_ticket_ref", ("ticket_ref",), ticket_ref, thresholds=(1.0, 0.5, 0.5))
