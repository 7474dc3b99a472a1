"""The concise-answer instructions: a system prompt that asks a model for the bare answer and nothing else.

Used by default for qa experiments and agent benchmarks, so that answer matching compares a value, not a
sentence about it. `concise_answer_instructions(answer_type)` renders the template
`templates/prompts/concise_answer.j2`, which adds a hint for the expected kind of answer; and
`extract_final_answer` keeps only what an explicit marker (`FINAL ANSWER:`, `<answer>`, `\\boxed{}`, `####`)
points at, for models that add one anyway.
"""

from __future__ import annotations

from gaia_eval.errors import UsageError
from gaia_eval.scoring.answers.extract import extract_marked

CONCISE_ANSWER_SYSTEM_PROMPT = (
    "Reply with only the final answer: a number, a date, a name, a short phrase, or a comma-separated list. "
    'Do not write a sentence, do not start with "The answer is", do not explain or show your work, and do not '
    "repeat the question. Write numbers in digits, without thousands separators, units or currency symbols "
    "unless the question asks for them. Give one answer, not several candidates. If you cannot find the "
    "answer, reply exactly: unknown"
)
ANSWER_TYPES: tuple[str, ...] = ("number", "string", "list", "date")
TEMPLATE_NAME = "concise_answer.j2"


def concise_answer_instructions(answer_type: str | None = None) -> str:
    """The system prompt, with a hint for the kind of answer expected ("number", "string", "list", "date")."""
    if answer_type is not None and answer_type not in ANSWER_TYPES:
        raise UsageError(f"unknown answer type {answer_type!r}", field="answer_type",
                         fix=f"use one of: {', '.join(ANSWER_TYPES)}, or none")
    from gaia_eval.prompts import render  # jinja2 loads only when a prompt is rendered

    return render(TEMPLATE_NAME, instruction=CONCISE_ANSWER_SYSTEM_PROMPT, answer_type=answer_type)


def extract_final_answer(text: str) -> str:
    """The answer a reply marks explicitly (the last marker wins), else the whole reply, trimmed.

    Only explicit markers are cut here: the rest of the reply stays, because answer matching reads it for
    hedges and negations ("I'm not sure, but maybe 12").
    """
    marked = extract_marked(text, text.casefold())
    return (marked[0] if marked is not None else text).strip()
