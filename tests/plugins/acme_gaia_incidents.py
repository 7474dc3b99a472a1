"""A third-party use case graded by its own scorer, as another package would ship them, touching nothing in
gaia_eval/: the `incidents` use case (incident write-ups) and the `acme_incident` scorer, whose two criteria
(`names_ticket`, `states_next_step`) are the use case's, not the rubric's. The scorer returns a dict, as an
`eval --scorer` function may. Their entry points are declared in the dist-info beside this file."""

from __future__ import annotations

import re

from gaia_eval.scoring.criteria import Criterion
from gaia_eval.scoring.scorers import Scorer, ScoringInput
from gaia_eval.usecases import UseCase

TICKET_NUMBER = re.compile(r"#\d{3,}")
NEXT_STEP = re.compile(r"\b(will|next|until|by (monday|tuesday|wednesday|thursday|friday))\b", re.I)


def incident_scores(item: ScoringInput) -> dict[str, float | None]:
    """`names_ticket`: 1.0 when the executive summary names the ticket's number (N/A for a ticket without one);
    `states_next_step`: 1.0 when the detailed summary says what happens next."""
    answer = item.answer
    summary = answer.executive_summary if answer is not None else ""
    detailed = answer.detailed_summary if answer is not None else ""
    numbers = set(TICKET_NUMBER.findall(item.source_text))
    named = None if not numbers else 1.0 if numbers & set(TICKET_NUMBER.findall(summary)) else 0.0
    return {"names_ticket": named, "states_next_step": 1.0 if NEXT_STEP.search(detailed) else 0.0}


NAMES_TICKET = Criterion("names_ticket", "Names the ticket", measure="1 when the executive summary names the ticket's "
                         "number, else 0", excellent=1.0, good=0.5, fair=0.5,
                         why="the next agent finds the ticket by its number")
STATES_NEXT_STEP = Criterion("states_next_step", "States the next step", measure="1 when the detailed summary says "
                             "what happens next, else 0", excellent=1.0, good=1.0, fair=0.5,
                             why="a write-up without the next step leaves the incident open")
INCIDENT_SCORER = Scorer("acme_incident", (NAMES_TICKET, STATES_NEXT_STEP), incident_scores)

INCIDENTS = UseCase(
    name="incidents",
    title="Incident write-ups",
    description="write-ups of support incidents",
    answers="summaries",
    scorers={("comparative", False): "acme_incident", ("standalone", False): "acme_incident"},
    doc_label="support ticket",
    judge_task="write-ups of support incidents",
    rating_dimensions=("accuracy", "usefulness"),
)
