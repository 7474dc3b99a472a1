"""The deterministic rubric: criteria with their thresholds, the grade and its bootstrap interval (grading), and
the summary, standalone, short-answer and long-form answer scorers.

The names below are the package's public surface; code outside the package imports them from here. Each is
loaded from its module on first use, so importing the package costs nothing until then.
"""

from __future__ import annotations

from gaia_eval.lazy import lazy_exports

_LAZY = {
    "rating_band": "grading",
    "rate": "grading",
    "weights_file": "weights",
    "weight_set": "weights",
    "grade_inputs": "weights",
    "degenerate_reason": "degenerate",
    "not_applicable": "grading",
    "with_not_applicable": "grading",
    "REFERENCE_CRITERIA": "grading",
    "rouge_scores": "freetext",
    "score_summary_output": "freetext",
    "score_against_references": "freetext",
    "free_text_references": "freetext",
    "FREE_TEXT_CRITERIA": "freetext",
    "IMPORTED_PROVIDER": "freetext",
    "builtin_criteria": "grading",
    "POINTS": "grading",
    "QA_CRITERIA": "grading",
    "RUBRIC_VERSION": "grading",
    "STANDALONE_CRITERIA": "grading",
    "SUMMARY_CRITERIA": "grading",
    "aggregate": "grading",
    "bootstrap_ci": "grading",
    "item_points": "grading",
    "overall_rating": "grading",
    "quality_score": "grading",
    "rubric_markdown": "grading",
    "score_qa": "short_answer",
    "score_judged": "short_answer",
    "is_long_form": "longform",
    "score_long_answer": "longform",
    "LONG_FORM_CRITERIA": "longform",
    "score_summaries": "summaries",
    "score_summaries_standalone": "standalone",
}

__getattr__, __all__ = lazy_exports(__name__, _LAZY)
