"""Scoring of a model's summaries when there is no ground truth: only what the source document can verify.

Each summary style gets one grounding criterion (see `rubric.STANDALONE_CRITERIA`): names must occur in the
source, listed items and summary sentences need a supporting source passage, the executive summary must use the
source's words and stay concise. None of this checks the answer against facts, so nothing here says it is
correct or complete; measures say "not verified against facts".
"""

from __future__ import annotations

import re
from collections import Counter

from rapidfuzz import fuzz, process

from gaia_eval.artifacts.evaluation import CriterionResult
from gaia_eval.artifacts.groundtruth import Summaries
from gaia_eval.errors import InputError
from gaia_eval.scoring.rubric.grading import criterion_result, not_applicable
from gaia_eval.scoring.text import (
    content_tokens,
    display_name,
    is_figure,
    name_tokens,
    quote_list,
    surface_forms,
    tokenize,
)

SUPPORT_SHARE = 0.5  # share of an item's content words that one source passage must hold
TOPIC_SHARE = 0.6  # share of a topic's content words found anywhere in the source
# A passage is the consecutive source sentences from one sentence on that reach this many words: a few turns of a
# meeting, since a claim often spans a question and its answers. Calibrated on three QMSum meetings: at 80 words and
# half of the content words, 60-85 % of the human reference sentences of the two well-grounded meetings are
# supported, against 2-7 % of sentences taken from the other meetings.
PASSAGE_WORDS = 80
CONCISE_WORDS = (1, 120)  # no lower bound: a short human summary is not penalized for being short (issue 12)
LENGTH_PENALTY = 0.25
# Words inside verbatim source spans of COPY_SPAN_WORDS+ words are copied, not summarized; each criterion that
# rewards grounding loses COPY_PENALTY x the copied share, so an extract never outranks a faithful rewording.
COPY_SPAN_WORDS = 12
COPY_PENALTY = 0.5
_FUZZY_WORD_RATIO = 85.0
_FUZZY_MIN_LEN = 5

_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+")


def _sentences(text: str) -> list[str]:
    return [s for s in (p.strip() for p in _SENTENCE_SPLIT.split(text)) if s]


class SourceIndex:
    """The source as overlapping passages of about PASSAGE_WORDS words, indexed by content token, so that finding
    the best supporting passage for an item costs one lookup per item token instead of a scan of the document."""

    def __init__(self, source_text: str) -> None:
        sentences = _sentences(source_text)
        sentence_tokens = [frozenset(content_tokens(s)) for s in sentences]
        lengths = [len(s.split()) for s in sentences]
        self.passages: list[frozenset[str]] = []
        for start in range(len(sentences)):
            end, words = start, 0
            while end < len(sentences) and words < PASSAGE_WORDS:
                words += lengths[end]
                end += 1
            self.passages.append(frozenset().union(*sentence_tokens[start:end]))
            if end == len(sentences):
                break  # later passages would be subsets of this one
        self.postings: dict[str, list[int]] = {}
        for index, passage in enumerate(self.passages):
            for token in passage:
                self.postings.setdefault(token, []).append(index)
        self.vocabulary: frozenset[str] = frozenset(self.postings)
        # Sorted: with ties, which near spellings extract() returns must not depend on set order.
        self._fuzzy_pool = sorted(t for t in self.vocabulary if len(t) >= _FUZZY_MIN_LEN and not is_figure(t))
        self.words: frozenset[str] = frozenset(tokenize(source_text))  # unstemmed, for names
        self._aliases: dict[str, tuple[str, ...]] = {}
        self._source_words = tokenize(source_text)
        self._spans: frozenset[tuple[str, ...]] | None = None

    def copied_share(self, text: str) -> float:
        """Share of `text`'s words inside verbatim source spans of COPY_SPAN_WORDS words or more."""
        words, n = tokenize(text), COPY_SPAN_WORDS
        if len(words) < n:
            return 0.0
        if self._spans is None:
            src = self._source_words
            self._spans = frozenset(tuple(src[i : i + n]) for i in range(len(src) - n + 1))
        copied = [False] * len(words)
        for i in range(len(words) - n + 1):
            if tuple(words[i : i + n]) in self._spans:
                copied[i : i + n] = [True] * n
        return sum(copied) / len(words)

    def aliases(self, token: str) -> tuple[str, ...]:
        """The source tokens that count as `token`: itself, or for words of 5+ letters its near spellings."""
        if token not in self._aliases:
            found: list[str] = [token] if token in self.vocabulary else []
            if not found and len(token) >= _FUZZY_MIN_LEN and not is_figure(token):
                found = [
                    match
                    for match, _, _ in process.extract(
                        token, self._fuzzy_pool, scorer=fuzz.ratio, score_cutoff=_FUZZY_WORD_RATIO, limit=3
                    )
                ]
            self._aliases[token] = tuple(found)
        return self._aliases[token]

    def in_source(self, token: str) -> bool:
        return bool(self.aliases(token))

    def support(self, text: str, ignore: frozenset[str] = frozenset()) -> float:
        """The largest share of `text`'s content words (those in `ignore` left out) that one passage holds (0 for
        no content words)."""
        tokens = [t for t in content_tokens(text) if t not in ignore]
        if not tokens:
            return 0.0
        hits: Counter[int] = Counter()
        for token in tokens:
            passages: set[int] = set()
            for alias in self.aliases(token):
                passages.update(self.postings[alias])
            hits.update(passages)
        return max(hits.values(), default=0) / len(tokens)


def _supported_share(
    criterion: str, noun: str, items: list[str], index: SourceIndex, what: str
) -> CriterionResult:
    items = [i for i in items if i.strip()]
    if not items:
        return criterion_result(criterion, 0.0, f"the answer's {what} is empty")
    unsupported = [i for i in items if index.support(i) < SUPPORT_SHARE]
    supported = len(items) - len(unsupported)
    explanation = f"{supported} of {len(items)} {noun} have a supporting source passage" + (
        f" (unsupported: {quote_list(unsupported)})" if unsupported else ""
    )
    copied = index.copied_share(" ".join(items))
    if copied:
        explanation += (
            f"; {copied:.0%} copied verbatim in spans of {COPY_SPAN_WORDS}+ words, −{COPY_PENALTY * copied:.2f}"
        )
    return criterion_result(criterion, max(0.0, supported / len(items) - COPY_PENALTY * copied), explanation)


def _executive_summary(answer: Summaries, index: SourceIndex) -> CriterionResult:
    criterion = "grounded_executive_summary"
    text = answer.executive_summary.strip()
    if not text:
        return criterion_result(criterion, 0.0, "the answer's executive summary is empty")
    tokens = content_tokens(text)
    if not tokens:
        return criterion_result(criterion, 0.0, "the answer's executive summary has no content words")
    absent = [t for t in tokens if not index.in_source(t)]
    grounded = 1 - len(absent) / len(tokens)
    n_words = len(text.split())
    low, high = CONCISE_WORDS
    concise = low <= n_words <= high
    copied = index.copied_share(text)
    value = max(0.0, grounded - (0 if concise else LENGTH_PENALTY) - COPY_PENALTY * copied)
    explanation = f"{len(tokens) - len(absent)} of {len(tokens)} content words are in the source" + (
        f" (not found: {quote_list([surface_forms(text).get(t, t) for t in absent], limit=5)})" if absent else ""
    )
    explanation += f"; {n_words} words" + ("" if concise else f", over {high}, so −{LENGTH_PENALTY}")
    if copied:
        explanation += (
            f"; {copied:.0%} copied verbatim in spans of {COPY_SPAN_WORDS}+ words, −{COPY_PENALTY * copied:.2f}"
        )
    return criterion_result(criterion, value, explanation)


def _participants(answer: Summaries, index: SourceIndex) -> CriterionResult:
    criterion = "grounded_participants"
    names = [n for n in answer.participants if n.strip()]
    if not names:
        return criterion_result(criterion, 0.0, "the answer's participants list is empty")
    # Every word of the name must be in the source: an invented surname on a real first name is still invented.
    invented = [n for n in names if not name_tokens(n) or not all(w in index.words for w in name_tokens(n))]
    explanation = f"{len(names) - len(invented)} of {len(names)} participants are named in the source" + (
        f" (not in the source: {quote_list([display_name(n) for n in invented])})" if invented else ""
    )
    return criterion_result(criterion, (len(names) - len(invented)) / len(names), explanation)


def _topics(answer: Summaries, index: SourceIndex) -> CriterionResult:
    criterion = "grounded_topics"
    topics = [t for t in answer.topics_discussed if t.strip()]
    if not topics:
        return criterion_result(criterion, 0.0, "the answer's topic list is empty")
    absent = []
    for topic in topics:
        tokens = content_tokens(topic)
        if not tokens or sum(index.in_source(t) for t in tokens) / len(tokens) < TOPIC_SHARE:
            absent.append(topic)
    explanation = f"{len(topics) - len(absent)} of {len(topics)} topics use the source's words" + (
        f" (not found: {quote_list(absent)})" if absent else ""
    )
    return criterion_result(criterion, (len(topics) - len(absent)) / len(topics), explanation)


# What a document is decides which criteria fit it. A conversation (a meeting transcript, an email thread) has
# people who decide and assign; a plot synopsis, an article or a report has none, and a summary that lists no
# action items, decisions or participants for it is right, not Poor. A conversation shows speaker turns: lines
# opening with a short name and a colon ("Ann:", "From:").
_TURN = re.compile(r"^[^\W\d_][\w .'’-]{0,40}:\s", re.MULTILINE)
MIN_TURNS = 3
_CONVERSATION_LISTS = {"grounded_action_items": "action_items", "grounded_key_decisions": "key_decisions",
                       "grounded_participants": "participants"}


def is_conversation(source_text: str) -> bool:
    return len(_TURN.findall(source_text)) >= MIN_TURNS


def _fitted_to_document(results: list[CriterionResult], answer: Summaries, source_text: str) -> list[CriterionResult]:
    """The results with the conversation criteria not applicable where the source is no conversation and the
    answer rightly lists nothing for them (a list it does give is still checked against the source)."""
    if is_conversation(source_text):
        return results
    return [
        not_applicable(r.criterion, "the source is no meeting or conversation (no speaker turns), and the summary "
                                    "lists none")
        if r.criterion in _CONVERSATION_LISTS
        and not [x for x in getattr(answer, _CONVERSATION_LISTS[r.criterion]) if x.strip()]
        else r
        for r in results
    ]


def score_summaries_standalone(
    answer: Summaries, source_text: str, index: SourceIndex | None = None
) -> list[CriterionResult]:
    """One result per standalone criterion, in `rubric.STANDALONE_CRITERIA` order. Pass `index` to reuse one
    SourceIndex when several answers are scored against the same source."""
    if not source_text.strip():
        raise InputError(
            "the source document is empty, so nothing can be checked against it",
            field="source.text",
            fix="give the experiment a non-empty source document",
        )
    index = index or SourceIndex(source_text)
    return _fitted_to_document([
        _executive_summary(answer, index),
        _supported_share(
            "grounded_detailed_summary", "sentences", _sentences(answer.detailed_summary), index, "detailed summary"
        ),
        _supported_share("grounded_action_items", "action items", answer.action_items, index, "action item list"),
        _supported_share("grounded_key_decisions", "decisions", answer.key_decisions, index, "decisions list"),
        _participants(answer, index),
        _topics(answer, index),
    ], answer, source_text)
