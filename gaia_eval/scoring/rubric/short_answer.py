"""Scoring of one short answer to a question: the `correctness` criterion and pass/fail, from the answer matcher.

Excellent and passed when the matcher's `gaia` mode (or the mode `eval --match-mode` names) accepts the answer
against any of the question's reference answers (a list answer in any order unless the expected answer is a
sequence). Otherwise the SQuAD token F1 says how close it came: Good for a near miss,
Fair for a partial answer, Poor for the rest (thresholds in `grading.py`). A near miss never passes.
"""

from __future__ import annotations

from gaia_eval.artifacts.evaluation import CriterionResult
from gaia_eval.artifacts.groundtruth import QAPair
from gaia_eval.errors import InputError, UsageError
from gaia_eval.registry import MATCH_MODES
from gaia_eval.scoring.answers import match_answer
from gaia_eval.scoring.rubric.grading import criterion_result


def score_qa(answer: str, expected: QAPair, mode: str = "gaia") -> tuple[list[CriterionResult], bool]:
    """([correctness result], passed) for the model's `answer` to `expected.query`, by match mode `mode`."""
    # Only a "list" answer type may come back in any order; a string like "a, then b" keeps its order.
    # The question lets a unit it asks in stand in the answer ("how many miles": "12 miles" for "12").
    wanted = {"ordered": expected.answer_type != "list", "question": expected.query}
    accepted: frozenset[str] = getattr(MATCH_MODES.entry(mode), "options", frozenset()) if mode in MATCH_MODES \
        else frozenset()
    try:
        verdict = match_answer(expected.answers, answer, mode=mode,
                               **{k: v for k, v in wanted.items() if k in accepted})
    except UsageError as exc:
        raise InputError(
            f"the expected answer of question {expected.id!r} cannot be matched: {exc.message}",
            field="qa_pairs.answer",
            fix=exc.fix or "regenerate the ground truth for this item",
        ) from exc
    if verdict.correct:
        return [criterion_result("correctness", 1.0, f"correct: {verdict.explanation}")], True
    overlap = match_answer(expected.answers, answer, mode="f1")
    result = criterion_result(
        "correctness", overlap.score, f"not correct: {verdict.explanation}; token F1 {overlap.score:.2f}"
    )
    if result.rating == "Excellent":
        # Every token is there but the matcher rejects it (e.g. a list out of order): a near miss, not a pass.
        result = result.model_copy(update={"rating": "Good"})
    return [result], False


def score_judged(answer: str, expected: QAPair, correct: bool, explanation: str) -> tuple[list[CriterionResult], bool]:
    """([correctness result], passed) from the answer-equivalence judge's verdict (eval --match-mode judge): the
    model decided; a rejected answer keeps its token F1 as how close it came, never a pass."""
    if correct:
        return [criterion_result("correctness", 1.0, f"correct: {explanation}")], True
    overlap = match_answer(expected.answers, answer, mode="f1")
    result = criterion_result("correctness", overlap.score, f"not correct: {explanation}; token F1 {overlap.score:.2f}")
    return [result.model_copy(update={"rating": "Good"}) if result.rating == "Excellent" else result], False
