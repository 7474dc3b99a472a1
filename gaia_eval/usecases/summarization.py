"""Summarization: a model writes the six summary styles of a business document (meeting transcript, email,
report), scored against planted-fact ground truth, human reference summaries, or the source alone."""

from __future__ import annotations

from gaia_eval.usecases.base import UseCase

SUMMARY_SCORERS = {
    ("comparative", False): "summaries",
    ("standalone", False): "summaries_standalone",
    ("comparative", True): "free_text",
    ("standalone", True): "free_text",
}
SUMMARY_RATING_DIMENSIONS = ("relevance", "consistency", "fluency", "coherence")
SUMMARY_TEMPLATE_INSTRUCTIONS = (
    "Paste your system's summary of each record's `input_text` into `response`, one section per heading: "
    "'Executive summary:', 'Detailed summary:', 'Action items:', 'Key decisions:', 'Participants:', "
    "'Topics discussed:' (lists one item per line, starting with '- '); a JSON object with those six keys also "
    "works. A response without headings is scored as both summaries, with empty lists. An empty response counts "
    "as an error."
)
SUMMARY_ANSWERS_INSTRUCTIONS = (
    "Summarize each item's document (in `documents`, under the item's `source`) and fill every field of "
    "`summaries`: lists are JSON arrays of strings. Blank items count as errors."
)

USE_CASE = UseCase(
    name="summarization",
    title="Summarization",
    description="summaries of meetings, emails and reports (six styles)",
    answers="summaries",
    scorers=SUMMARY_SCORERS,
    system_prompt="You summarize business meetings and emails accurately and concisely, using only what the "
    "document says.",
    judge_task="summaries of business meetings and emails",
    kin=("email",),
    rating_dimensions=SUMMARY_RATING_DIMENSIONS,
    baseline="textrank",
    template_instructions=SUMMARY_TEMPLATE_INSTRUCTIONS,
    answers_instructions=SUMMARY_ANSWERS_INSTRUCTIONS,
    groundtruth_prompt="groundtruth_summaries.j2",
)
