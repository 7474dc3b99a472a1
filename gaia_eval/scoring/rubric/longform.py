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
from gaia_eval.scoring.rubric.grading import SHORT_ANSWER_WORDS, not_applicable

LONG_FORM_CRITERIA: tuple[str, ...] = ("reference_overlap", "content_coverage", "source_consistency", "conciseness")
# A reference longer than SHORT_ANSWER_WORDS is still a short answer when it is a list of short items ("Alice
# Moreau, Bongani Dlamini, Chen Wei, ..."): each at most this long.
LIST_ITEM_WORDS = 4
_LIST_SEPARATORS = re.compile(r"[,;]|\n")


def is_long_form(expected: QAPair) -> bool:
    """True when the reference answer is prose (more than SHORT_ANSWER_WORDS words and not a list of short
    items); numbers and lists are short answers whatever their length."""
    if expected.answer_type in ("number", "list"):
        return False
    answer = expected.answer.strip()
    if len(answer.split()) <= SHORT_ANSWER_WORDS:
        return False
    parts = [p for p in _LIST_SEPARATORS.split(answer) if p.strip()]
    return not (len(parts) > 1 and all(len(p.split()) <= LIST_ITEM_WORDS for p in parts))


def score_long_answer(answer: str, expected: QAPair, source: str | None) -> list[CriterionResult]:
    """The four long-form criteria of `answer` against the reference answer and the source."""
    from gaia_eval.scoring.rubric.freetext import score_summary_output

    results = score_summary_output(answer, source, [expected.answer]).results
    by_id = {r.criterion: r for r in results}
    return [by_id[c] for c in LONG_FORM_CRITERIA]


def qa_criteria(short: bool, long_form: bool) -> list[str]:
    """The criteria of a qa experiment: correctness for short answers, the long-form criteria for long ones,
    both when its questions are of both kinds (each item N/A on the other kind's)."""
    return (["correctness"] if short or not long_form else []) + (list(LONG_FORM_CRITERIA) if long_form else [])


def mixed_qa_criteria(expected: list[QAPair | None]) -> tuple[str, ...]:
    """The criteria every item of a qa experiment must carry when its questions are of both kinds (short and
    long-form answers); () when they are of one kind, whose scorer gives every item the same criteria."""
    kinds = {is_long_form(e) for e in expected if e is not None}
    return tuple(qa_criteria(True, True)) if len(kinds) > 1 else ()


def with_other_kinds_not_applicable(results: list[CriterionResult], wanted: tuple[str, ...]) -> list[CriterionResult]:
    """`results` plus N/A for each criterion of `wanted` its scorer does not measure (a short answer's
    long-form criteria, a long-form answer's correctness), in `wanted`'s order."""
    if not wanted:
        return results
    by_id = {r.criterion: r for r in results}
    why = (
        "a short answer, matched by correctness"
        if "correctness" in by_id
        else "a long-form answer, scored by the free-text criteria"
    )
    return [by_id.get(c) or not_applicable(c, why) for c in wanted]
