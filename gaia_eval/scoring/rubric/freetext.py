"""Scoring of one free-text summary against human-written reference summaries and/or its source.

Four criteria (thresholds in `grading.CRITERIA`, mode "reference"), each None (not applicable) when what it
needs is missing:
- `reference_overlap`: ROUGE-1/2/L recall with stemming (Google's `rouge-score`), their mean; needs references.
  Recall, as ROUGE was first defined (Lin, 2004): precision and length are the business of `conciseness`, and
  on DialSummEval (tuning half) the recall mean tracks human relevance better (summary-level tau 0.33 vs 0.10).
- `content_coverage`: share of the reference's sentences whose content words the output carries; needs references.
- `source_consistency`: names, numbers, dates and sentences of the output that the source supports; needs the
  source.
- `conciseness`: length and copying do not buy score: redundancy (repeated word trigrams), length far beyond
  the reference's (or, without a reference, beyond a compression ratio of the source) and verbatim copying of
  long source spans all lower it.

Several references: each reference-based measure is taken against every reference and the best value is kept
(`multi_reference="best"`, the default: a summary agreeing with any one human is as good as that human) or their
mean (`"mean"`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, Sequence

from gaia_eval.artifacts.evaluation import CriterionResult
from gaia_eval.scoring.rubric.grading import POINTS, criterion_result, not_applicable
from gaia_eval.scoring.text import content_tokens, is_figure, quote_list, tokenize

FREE_TEXT_CRITERIA: tuple[str, ...] = ("reference_overlap", "content_coverage", "source_consistency", "conciseness")

MultiReference = Literal["best", "mean"]

# A reference sentence's credit is the share of its content words in the output, full from this share on
# (1.0: linear; tuned on the DialSummEval tuning half, where any lower cap ranked no better).
SENTENCE_FOUND_SHARE = 1.0
# A source span of this many words or more copied verbatim is copying, not summarizing.
COPY_SPAN_WORDS = 12
# A sentence is supported when one source passage holds this share of its content words: lower than the
# standalone rubric's 0.5 because human abstractive summaries reword a disfluent transcript heavily.
CLAIM_SUPPORT_SHARE = 0.4
# Without a reference, a summary longer than this share of the source is not a summary.
MAX_SOURCE_SHARE = 0.35
# A summary up to this many times the reference's length is not penalized; beyond it the penalty grows.
# Generous: human raters reward informative summaries longer than the reference (DialSummEval's extractive
# longest-3 baseline, 2.8x the reference on average, is rated most relevant), so only padding well beyond that is penalized.
LENGTH_SLACK = 3.0

_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+")
_NAME_RE = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]+)\b")


@dataclass(frozen=True)
class SummaryScore:
    """The deterministic scores of one summary output."""

    values: dict[str, float | None]  # criterion id -> measured value 0..1; None = not applicable
    results: list[CriterionResult]  # the stored results, with ratings and explanations (N/A included)
    grade: float | None  # 0..100, the quality_score formula over the applicable criteria; None if none applies
    # "rouge1", "rouge2", "rougeL": F1, and "<key>_recall": recall (best or mean over references); {} without refs
    rouge: dict[str, float]


@lru_cache(maxsize=1)
def _rouge_scorer():  # noqa: ANN202 - the library's own type
    from rouge_score import rouge_scorer  # lazy: pulls nltk, numpy and absl

    return rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=True)


def rouge_scores(output: str, references: Sequence[str], multi_reference: MultiReference = "best") -> dict[str, float]:
    """ROUGE-1/2/L F1 with the Porter stemmer (rouge-score), best or mean over references; {} without references."""
    references = [r for r in references if r.strip()]
    if not references:
        return {}
    per_ref = [_rouge_scorer().score(r, output) for r in references]
    out = {}
    for key in ("rouge1", "rouge2", "rougeL"):
        values = [s[key].fmeasure for s in per_ref]
        out[key] = max(values) if multi_reference == "best" else sum(values) / len(values)
        values = [s[key].recall for s in per_ref]
        out[key + "_recall"] = max(values) if multi_reference == "best" else sum(values) / len(values)
    return out


def _sentences(text: str) -> list[str]:
    return [s for s in (p.strip() for p in _SENTENCE_SPLIT.split(text)) if s]


def _pick(values: list[float], multi_reference: MultiReference) -> float:
    return max(values) if multi_reference == "best" else sum(values) / len(values)


def _coverage_of(reference: str, output_tokens: frozenset[str]) -> tuple[float, list[str]]:
    sentences = [s for s in _sentences(reference) if content_tokens(s)]
    if not sentences:
        return 0.0, []
    credits, missed = [], []
    for sentence in sentences:
        tokens = content_tokens(sentence)
        share = sum(t in output_tokens for t in tokens) / len(tokens)
        credits.append(min(1.0, share / SENTENCE_FOUND_SHARE))
        if share < SENTENCE_FOUND_SHARE / 2:
            missed.append(sentence)
    return sum(credits) / len(credits), missed


def _content_coverage(output: str, references: list[str], multi_reference: MultiReference) -> CriterionResult:
    output_tokens = frozenset(content_tokens(output))
    scored = [_coverage_of(r, output_tokens) for r in references]
    value = _pick([v for v, _ in scored], multi_reference)
    best_missed = max(scored, key=lambda s: s[0])[1]
    explanation = f"carries {value:.0%} of the reference sentences' content" + (
        f" (missed: {quote_list(best_missed)})" if best_missed else ""
    )
    return criterion_result("content_coverage", value, explanation)


def _names(text: str) -> set[str]:
    """Capitalized words not at a sentence start: the output's names (lowercased)."""
    names = set()
    for sentence in _sentences(text):
        words = re.findall(r"[^\W\d_]+", sentence)
        names.update(w.lower() for w in words[1:] if w[:1].isupper() and w[1:].islower() and len(w) > 1)
    return names


def _source_consistency(output: str, source: str) -> CriterionResult:
    from gaia_eval.scoring.rubric.standalone import SourceIndex  # shares the passage index and fuzzy aliases

    index = SourceIndex(source)
    source_words = frozenset(tokenize(source))
    figures = sorted({t for t in tokenize(output) if is_figure(t)})
    bad_figures = [f for f in figures if f not in source_words]
    names = sorted(_names(output))
    bad_names = [n for n in names if n not in source_words and not index.in_source(content_tokens(n)[0] if content_tokens(n) else n)]
    sentences = [s for s in _sentences(output) if content_tokens(s)]
    unsupported = [s for s in sentences if index.support(s) < CLAIM_SUPPORT_SHARE]
    sentence_share = 1 - len(unsupported) / len(sentences) if sentences else 1.0
    hard = len(figures) + len(names)
    hard_share = 1 - (len(bad_figures) + len(bad_names)) / hard if hard else 1.0
    value = min(sentence_share, hard_share) if hard else sentence_share
    parts = [f"{len(sentences) - len(unsupported)} of {len(sentences)} sentences supported by the source"]
    if unsupported:
        parts[0] += f" (unsupported: {quote_list(unsupported)})"
    if bad_figures or bad_names:
        parts.append(f"not in the source: {quote_list(bad_figures + bad_names, limit=5)}")
    return criterion_result("source_consistency", value, "; ".join(parts))


def _redundancy(tokens: list[str]) -> float:
    trigrams = [tuple(tokens[i : i + 3]) for i in range(len(tokens) - 2)]
    if not trigrams:
        return 0.0
    return 1 - len(set(trigrams)) / len(trigrams)


def _copied_share(tokens: list[str], source_tokens: list[str]) -> float:
    """Share of the output's words inside verbatim source spans of COPY_SPAN_WORDS words or more."""
    if len(tokens) < COPY_SPAN_WORDS or len(source_tokens) < COPY_SPAN_WORDS:
        return 0.0
    n = COPY_SPAN_WORDS
    source_grams = {tuple(source_tokens[i : i + n]) for i in range(len(source_tokens) - n + 1)}
    copied = [False] * len(tokens)
    for i in range(len(tokens) - n + 1):
        if tuple(tokens[i : i + n]) in source_grams:
            copied[i : i + n] = [True] * n
    return sum(copied) / len(tokens)


def _conciseness(output: str, source: str | None, references: list[str]) -> CriterionResult:
    tokens = tokenize(output)
    redundancy = _redundancy(tokens)
    value = 1.0 - 2 * redundancy
    parts = [f"{len(tokens)} words", f"{redundancy:.0%} repeated trigrams"]
    if references:
        ref_len = min(len(tokenize(r)) for r in references) or 1
        ratio = len(tokens) / ref_len
        parts.append(f"{ratio:.1f}× the reference's length")
        if ratio > LENGTH_SLACK:
            value -= min(0.5, (ratio - LENGTH_SLACK) / (2 * LENGTH_SLACK))
    elif source:
        share = len(tokens) / max(1, len(tokenize(source)))
        parts.append(f"{share:.0%} of the source's length")
        if share > MAX_SOURCE_SHARE:
            value -= min(0.5, share - MAX_SOURCE_SHARE)
    if source and not references:
        # Against references, copying buys nothing (coverage is measured on the reference's content); against
        # the source alone every grounding check favours a copy, so copying is what must cost here.
        copied = _copied_share(tokens, tokenize(source))
        if copied:
            parts.append(f"{copied:.0%} copied verbatim in spans of {COPY_SPAN_WORDS}+ words")
        value -= 0.5 * copied
    return criterion_result("conciseness", max(0.0, min(1.0, value)), "; ".join(parts))


def score_summary_output(
    output: str,
    source: str | None = None,
    references: Sequence[str] = (),
    *,
    multi_reference: MultiReference = "best",
) -> SummaryScore:
    """Score one free-text summary. `source` is the summarized text (None when unknown); `references` are
    human-written reference summaries (empty when there are none). A criterion whose input is missing is N/A:
    stored with rating "N/A", left out of the grade."""
    references = [r for r in references if r.strip()]
    rouge = rouge_scores(output, references, multi_reference)
    if not output.strip():
        results = [criterion_result(c, 0.0, "the output is empty") for c in FREE_TEXT_CRITERIA]
    else:
        results = [
            criterion_result(
                "reference_overlap",
                sum(rouge[k + "_recall"] for k in ("rouge1", "rouge2", "rougeL")) / 3,
                "ROUGE-1/2/L recall "
                + " / ".join(f"{rouge[k + '_recall']:.2f}" for k in ("rouge1", "rouge2", "rougeL"))
                + "; F1 "
                + " / ".join(f"{rouge[k]:.2f}" for k in ("rouge1", "rouge2", "rougeL")),
            )
            if references
            else not_applicable("reference_overlap", "no reference summary"),
            _content_coverage(output, references, multi_reference)
            if references
            else not_applicable("content_coverage", "no reference summary"),
            _source_consistency(output, source) if source and source.strip()
            else not_applicable("source_consistency", "no source text"),
            _conciseness(output, source, references),
        ]
    values = {r.criterion: (r.value if r.rating != "N/A" else None) for r in results}
    rated = [r.rating for r in results if r.rating != "N/A"]
    grade = (sum(POINTS[r] for r in rated) / len(rated) - 1) * 100 / 3 if rated else None
    return SummaryScore(values=values, results=results, grade=grade, rouge=rouge)


# Structured criteria a human reference is silent on: shown as N/A beside the free-text criteria.
SILENT_LIST_CRITERIA: tuple[str, ...] = ("action_items", "key_decisions", "participants")


def score_against_references(answer_text: str, source: str | None, references: Sequence[str]) -> list[CriterionResult]:
    """The eval stage's results for a summary scored against free-text human references: the four free-text
    criteria, then the list criteria as N/A (a free-text reference lists no action items, decisions or people)."""
    results = list(score_summary_output(answer_text, source, references).results)
    results += [not_applicable(c, "the human reference is free text and lists none") for c in SILENT_LIST_CRITERIA]
    return results
