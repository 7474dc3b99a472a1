"""Question answering: a model answers each question about a document in words. A short expected answer (a
number, a name, a list) is checked by the answer matcher; a long-form one (prose) by the free-text criteria."""

from __future__ import annotations

from gaia_eval.usecases.base import UseCase

USE_CASE = UseCase(
    name="qa",
    title="Question answering",
    description="answers to questions about a document (short or long-form)",
    answers="answer",
    # No standalone slot: an answer is checked against its expected answer.
    scorers={("comparative", False): "qa", ("comparative", True): "long_form_qa"},
    # The answer-format instructions (concise_answer_instructions) follow this line in the solver's prompt.
    system_prompt="Answer the question from the document only.",
    judge_task="answers to questions about a document",
    rating_dimensions=("correctness", "completeness"),
    baseline="retrieval",
    template_instructions="Paste your system's answer to each record's `query` (asked about `input_text`) into "
    "`response`. An empty response counts as an error.",
    answers_instructions="Answer each item's `query` from its document (in `documents`, under the item's `source`) "
    "and write the bare answer into `answer`. Leave an item blank only if your system gave no answer: blanks count "
    "as errors.",
    groundtruth_prompt="groundtruth_qa.j2",
)
