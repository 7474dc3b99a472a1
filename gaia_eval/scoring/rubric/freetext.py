"""Scoring of one free-text summary against human-written reference summaries and/or its source.

Four criteria (thresholds in grading.py, mode "reference"), each None (not applicable) when what it
needs is missing:
- `reference_overlap`: ROUGE-1/2/L recall with stemming (Google's `rouge-score`), their mean; needs references.
  Recall, as ROUGE was first defined (Lin, 2004): precision and length are the business of `conciseness`, and
  on DialSummEval (tuning half) the recall mean tracks human relevance better (summary-level tau 0.33 vs 0.10).
- `content_coverage`: share of the reference's sentences whose content words the output carries; needs references.
- `source_coverage`: share of the source's most frequent content words the output carries (what the source is
  mostly about, without a reference); needs the source.
- `source_consistency`: names, numbers, dates and sentences of the output that the source supports; needs the
  source.
- `conciseness`: length and copying do not buy score: redundancy (repeated word trigrams) and length far
  beyond the reference's (or, without a reference, beyond a compression ratio of the source: a copy of the
  document scores 0) lower it.

Several references: each reference-based measure is taken against every reference and the best value is kept
(`multi_reference="best"`, the default: a summary agreeing with any one human is as good as that human) or their
mean (`"mean"`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from gaia_eval.artifacts.evaluation import CriterionResult
from gaia_eval.artifacts.groundtruth import Summaries
from gaia_eval.number_words import spelled_numbers
from gaia_eval.scoring.rubric.degenerate import degenerate_reason, repeated_trigram_share
from gaia_eval.scoring.rubric.grading import criterion_result, not_applicable
from gaia_eval.scoring.rubric.weights import weighted_grade
from gaia_eval.scoring.text import STOPWORDS, content_tokens, is_figure, quote_list, stem, surface_forms, tokenize

FREE_TEXT_CRITERIA: tuple[str, ...] = (
    "reference_overlap",
    "content_coverage",
    "source_coverage",
    "source_consistency",
    "conciseness",
)

MultiReference = Literal["best", "mean"]

# A reference sentence's credit is the share of its content words in the output, full from this share on
# (1.0: linear; tuned on the DialSummEval tuning half, where any lower cap ranked no better).
SENTENCE_FOUND_SHARE = 1.0
# A sentence is supported when one source passage holds this share of its content words: lower than the
# standalone rubric's 0.5 because human abstractive summaries reword a disfluent transcript heavily.
CLAIM_SUPPORT_SHARE = 0.4
# The source's this many most frequent content words stand for what it is mostly about.
SALIENT_WORDS = 30
# Words of spoken transcripts and chats that say nothing about their content (and transcript markup).
FILLERS = frozenset(
    """yeah yes okay ok um uh mm hmm mhm oh ah right well like just know think really actually gonna wanna
    gotta got get go going thing things something anything kind sort lot bit guess mean sure cool good great
    thanks thank please hi hello hey vocalsound disfmarker gap nonvocalsound laugh laughs lol xd
    cause kay basically guys""".split()
)
# Words a summary uses to narrate a conversation rather than to report its content ("the members shared their
# views", "she suggested", "later they talked about"): a transcript or chat seldom says them, so a sentence is
# checked against the source on its other content words (stemmed; several are stopwords already).
NARRATION = frozenset(
    """talk talked talking began begin begins start started present presented presentation presentations share
    shared view views member members speaker speakers attendee attendees conversation conversations chat dialogue
    explain explained explains suggest suggested suggests suggestion propose proposed proposes proposal mention
    mentions express expressed expresses ask asked asks tell told tells inform informed informs answer answered
    reply replied replies respond responded responds introduce introduced introduces describe described describes
    stress stressed emphasize emphasized recommend recommended recommends elaborate elaborated clarify clarified
    confirm confirmed confirms raise raised report reported state stated argue argued claim claimed later finally
    first afterwards then end beginning""".split()
)
# Fragments of contractions ("don't" is "don" + "t") and honorifics say nothing about a source's content.
CONTRACTION_FRAGMENTS = frozenset(
    "don didn doesn isn wasn aren weren won wouldn couldn shouldn haven hasn hadn ain m".split()
)
HONORIFICS = frozenset("mr mrs ms dr hon sir madam".split())
# "Name:" (or "Project Manager:", "The Chair (Hon. ...):") opening a line: a transcript's speaker label.
_SPEAKER_LABEL = re.compile(r"^\s*([^:\n]{1,120}?):(?=\s)", re.MULTILINE)
SPEAKER_LABEL_WORDS = 12
# Without a reference, a summary longer than this share of the source loses conciseness, down to nothing at
# NOT_A_SUMMARY_SHARE. Copying short spans is not penalized: human raters rate faithful extracts well (SummEval's
# extractive systems are among its most consistent), so copying costs only when it makes the output long.
MAX_SOURCE_SHARE = 0.35
NOT_A_SUMMARY_SHARE = 0.85
# ...but a summary of a short text (a chat of 80 words) needs some words of its own: up to this many are never too
# long, as for the recall budget; an output of NOT_A_SUMMARY_SHARE of the source or more is a copy all the same.
MIN_SUMMARY_WORDS = 50
# A summary up to this many times the reference's length is not penalized; beyond it the penalty grows.
# Generous: human raters reward informative summaries longer than the reference (DialSummEval's extractive
# longest-3 baseline, 2.8x the reference on average, is rated most relevant), so only padding well beyond that
# is penalized.
LENGTH_SLACK = 3.0

_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+")
_NAME_RE = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]+)\b")


@dataclass(frozen=True)
class SummaryScore:
    """The deterministic scores of one summary output."""

    values: dict[str, float | None]  # criterion id -> measured value 0..1; None = not applicable
    results: list[CriterionResult]  # the stored results, with ratings and explanations (N/A included)
    # 0..100, the weighted mean of the applicable criteria's values (weights.py); None if none applies
    grade: float | None
    # "rouge1", "rouge2", "rougeL": F1, and "<key>_recall": recall (best or mean over references); {} without refs
    rouge: dict[str, float]
    # the criteria as measured, before a degenerate output (degenerate.py) is rated Poor on every one
    measured: dict[str, float | None] | None = None
    degenerate: str | None = None  # why the output is not a summary, or None


@lru_cache(maxsize=1)
def _rouge_scorer():
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
    names: set[str] = set()
    for sentence in _sentences(text):
        words = re.findall(r"[^\W\d_]+", sentence)
        names.update(w.lower() for w in words[1:] if w[:1].isupper() and w[1:].islower() and len(w) > 1)
    return names


@lru_cache(maxsize=1)
def _narration() -> frozenset[str]:
    return frozenset(stem(w) for w in NARRATION)


def _source_consistency(output: str, source: str) -> CriterionResult:
    from gaia_eval.scoring.rubric.standalone import SourceIndex  # shares the passage index and fuzzy aliases

    index = SourceIndex(source)
    source_words = frozenset(tokenize(source)) | spelled_numbers(source)
    figures = sorted({t for t in tokenize(output) if is_figure(t)})
    bad_figures = [f for f in figures if f not in source_words]
    names = sorted(_names(output))
    bad_names = [
        n
        for n in names
        if n not in source_words and not index.in_source(content_tokens(n)[0] if content_tokens(n) else n)
    ]
    ignore = _narration()
    sentences = [s for s in _sentences(output) if any(t not in ignore for t in content_tokens(s))]
    unsupported = [s for s in sentences if index.support(s, ignore) < CLAIM_SUPPORT_SHARE]
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


def _without_repeated_labels(source: str) -> str:
    """The source with each speaker label kept at its first turn only: a label repeated on every turn of a
    transcript would otherwise outweigh what is said ("Project Manager" as the meeting's most frequent words)."""
    seen: set[str] = set()

    def once(match: re.Match[str]) -> str:
        label = match.group(1).strip()
        if len(label.split()) > SPEAKER_LABEL_WORDS:
            return match.group(0)
        if label in seen:
            return ""
        seen.add(label)
        return match.group(0)

    return _SPEAKER_LABEL.sub(once, source)


def _salient_token(token: str) -> bool:
    return not (
        token in STOPWORDS or token in FILLERS or token in CONTRACTION_FRAGMENTS or token in HONORIFICS
        or token.isdigit() or len(token) < 2
    )


def salient_words(source: str, n: int = SALIENT_WORDS) -> list[str]:
    """The source's `n` most frequent content words (stemmed), fillers of speech, contraction fragments,
    honorifics and repeated speaker labels left out; ties in order of first appearance."""
    counts = Counter(stem(t) for t in tokenize(_without_repeated_labels(source)) if _salient_token(t))
    return [t for t, _ in counts.most_common(n)]  # most_common keeps first-seen order among equal counts


def _source_coverage(output: str, source: str) -> CriterionResult:
    salient = salient_words(source)
    present = frozenset(content_tokens(output))
    missed = [t for t in salient if t not in present]
    value = (len(salient) - len(missed)) / len(salient) if salient else 0.0
    forms = surface_forms(source)
    explanation = f"carries {len(salient) - len(missed)} of the source's {len(salient)} most frequent content words" + (
        f" (missed: {quote_list([forms.get(t, t) for t in missed], limit=5)})" if missed else ""
    )
    return criterion_result("source_coverage", value, explanation)


def length_budget(source: str | None, references: Sequence[str]) -> int | None:
    """How many words of an output count for the recall-based criteria: LENGTH_SLACK × the longest reference,
    else MAX_SOURCE_SHARE of the source (at least 50 words); None when there is neither."""
    if references:
        return max(1, int(LENGTH_SLACK * max(len(r.split()) for r in references)))
    if source:
        return max(MIN_SUMMARY_WORDS, int(MAX_SOURCE_SHARE * len(source.split())))
    return None


def within_budget(output: str, budget: int | None) -> str:
    """The output cut to its first `budget` words, as DUC cut summaries before ROUGE, so that length cannot buy
    recall (nor coverage)."""
    words = output.split()
    return output if budget is None or len(words) <= budget else " ".join(words[:budget])


def _conciseness(output: str, source: str | None, references: list[str]) -> CriterionResult:
    tokens = tokenize(output)
    redundancy = repeated_trigram_share(tokens)
    value = 1.0 - 2 * redundancy
    parts = [f"{len(tokens)} words", f"{redundancy:.0%} repeated trigrams"]
    if references:
        ref_len = min(len(tokenize(r)) for r in references) or 1
        ratio = len(tokens) / ref_len
        parts.append(f"{ratio:.1f}× the reference's length")
        if ratio > LENGTH_SLACK:
            value -= (ratio - LENGTH_SLACK) / (2 * LENGTH_SLACK)  # nothing left at 3 × LENGTH_SLACK
    elif source:
        source_words = max(1, len(tokenize(source)))
        share = len(tokens) / source_words
        parts.append(f"{share:.0%} of the source's length")
        # A copy of most of the source is not a summary: nothing left at NOT_A_SUMMARY_SHARE of its length.
        allowed = max(MAX_SOURCE_SHARE, min(MIN_SUMMARY_WORDS / source_words, NOT_A_SUMMARY_SHARE))
        if share >= NOT_A_SUMMARY_SHARE:
            value = 0.0
        elif share > allowed:
            value -= (share - allowed) / (NOT_A_SUMMARY_SHARE - allowed)
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
    # Recall-based criteria see only the output's first words up to the budget: padding earns nothing.
    counted = within_budget(output, length_budget(source, references))
    counted_rouge = rouge_scores(counted, references, multi_reference) if counted != output else rouge
    cut = "" if counted == output else f" (first {len(counted.split())} words counted)"
    has_source = bool(source and source.strip())
    if not output.strip():
        results = [criterion_result(c, 0.0, "the output is empty") for c in FREE_TEXT_CRITERIA]
    else:
        results = [
            criterion_result(
                "reference_overlap",
                sum(counted_rouge[k + "_recall"] for k in ("rouge1", "rouge2", "rougeL")) / 3,
                "ROUGE-1/2/L recall "
                + " / ".join(f"{counted_rouge[k + '_recall']:.2f}" for k in ("rouge1", "rouge2", "rougeL"))
                + "; F1 "
                + " / ".join(f"{rouge[k]:.2f}" for k in ("rouge1", "rouge2", "rougeL"))
                + cut,
            )
            if references
            else not_applicable("reference_overlap", "no reference summary"),
            _content_coverage(counted, references, multi_reference)
            if references
            else not_applicable("content_coverage", "no reference summary"),
            _source_coverage(counted, source) if source and has_source
            else not_applicable("source_coverage", "no source text"),
            _source_consistency(output, source) if source and has_source
            else not_applicable("source_consistency", "no source text"),
            _conciseness(output, source, references),
        ]
    measured = {r.criterion: (r.value if r.rating != "N/A" else None) for r in results}
    reason = degenerate_reason(output, source) if output.strip() else None
    if reason is not None:
        results = [
            r
            if r.rating == "N/A"
            else criterion_result(r.criterion, 0.0, f"not a summary: {reason} (measured: {r.explanation})")
            for r in results
        ]
    values = {r.criterion: (r.value if r.rating != "N/A" else None) for r in results}
    grade = weighted_grade({r.criterion: r.value for r in results if r.rating != "N/A"})
    return SummaryScore(values=values, results=results, grade=grade, rouge=rouge, measured=measured, degenerate=reason)


# Structured criteria a human reference is silent on: shown as N/A beside the free-text criteria.
SILENT_LIST_CRITERIA: tuple[str, ...] = ("action_items", "key_decisions", "participants")


def score_against_references(answer_text: str, source: str | None, references: Sequence[str]) -> list[CriterionResult]:
    """The eval stage's results for a summary scored against free-text human references: the four free-text
    criteria, then the list criteria as N/A (a free-text reference lists no action items, decisions or people)."""
    results = list(score_summary_output(answer_text, source, references).results)
    results += [not_applicable(c, "the human reference is free text and lists none") for c in SILENT_LIST_CRITERIA]
    return results


# The provider name of experiments made by import-outputs: their outputs are free text, not the six styles.
IMPORTED_PROVIDER = "imported"


def free_text_references(
    human_references: list[str] | None, expected: Summaries | None, *, imported: bool
) -> list[str] | None:
    """The references a summary is scored against with the free-text criteria, or None for the structured rubric:
    human references when the ground truth has them; for an imported free-text output, the expected detailed (or
    executive) summary, or [] (source only) without ground truth."""
    if human_references:
        return list(human_references)
    if not imported:
        return None
    if expected is None:
        return []
    text = expected.detailed_summary.strip() or expected.executive_summary.strip()
    return [text] if text else []
