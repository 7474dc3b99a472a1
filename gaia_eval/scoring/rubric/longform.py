"""Scoring of a long-form answer: a question whose reference answer is more than a short phrase (QMSum's
"Summarize the discussion about the budget." answered in a paragraph) is scored like a free-text summary against
that reference, never by the GAIA short-answer matcher, which reads a sentence with "and" as a list.

Which kind an answer is follows from its reference alone (`is_long_form`), so the same ground truth always
gets the same scorer. Four of the free-text criteria apply (`LONG_FORM_CRITERIA`): reference overlap (ROUGE
recall), content coverage of the reference's sentences, consistency with the source and conciseness. Source
coverage is left out: an answer to one question is not meant to cover what the whole document is about.
A long-form answer has no pass/fail (`passed` is None); its grade says how good it is.
"""

from __future__ import annotations

import re

from gaia_eval.artifacts.evaluation import CriterionResult
from gaia_eval.artifacts.groundtruth import QAPair
from gaia_eval.scoring.rubric.grading import SHORT_ANSWER_WORDS

LONG_FORM_CRITERIA: tuple[str, ...] = ("reference_overlap", "content_coverage", "source_consistency", "conciseness")
_CONTENT_CRITERIA = ("reference_overlap", "content_coverage")  # does the answer say what the reference says
_FORM_CRITERIA = ("source_consistency", "conciseness")  # how it says it: credit only for an answer with content
# A reference longer than SHORT_ANSWER_WORDS is still a short answer when it is a list of short items ("Alice
# Moreau, Bongani Dlamini, Chen Wei, ..."): each at most this long.
LIST_ITEM_WORDS = 4
_LIST_SEPARATORS = re.compile(r"[,;]|\n")


def is_long_form(expected: QAPair) -> bool:
    """True when every reference answer is prose (more than SHORT_ANSWER_WORDS words and not a list of short
    items); numbers and lists are short answers whatever their length. One short reference among several makes
    the question a short one: the matcher can check an answer against it."""
    if expected.answer_type in ("number", "list"):
        return False
    return all(_prose(answer) for answer in expected.answers)


def _prose(answer: str) -> bool:
    answer = answer.strip()
    if len(answer.split()) <= SHORT_ANSWER_WORDS:
        return False
    parts = [p for p in _LIST_SEPARATORS.split(answer) if p.strip()]
    return not (len(parts) > 1 and all(len(p.split()) <= LIST_ITEM_WORDS for p in parts))


def score_long_answer(answer: str, expected: QAPair, source: str | None) -> list[CriterionResult]:
    """The four long-form criteria of `answer` against the reference answer and the source."""
    from gaia_eval.scoring.rubric.freetext import score_summary_output

    # Several references (two human answers): each criterion takes the reference the answer comes closest to.
    results = score_summary_output(answer, source, expected.answers).results
    by_id = {r.criterion: r for r in results}
    if all(by_id[c].rating == "Poor" for c in _CONTENT_CRITERIA):
        # An answer that says none of what the reference says is wrong, however short and faithful to the
        # source it is: crediting those would grade a wrong answer 50, like a right one worded differently.
        for c in _FORM_CRITERIA:
            by_id[c] = by_id[c].model_copy(update={
                "rating": "Poor",
                "explanation": f"not credited: the answer carries none of the reference answer's content "
                               f"(reference overlap and content coverage Poor); measured: {by_id[c].explanation}",
            })
    return [by_id[c] for c in LONG_FORM_CRITERIA]
