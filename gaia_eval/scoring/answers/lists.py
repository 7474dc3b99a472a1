"""Lists in gaia mode: an expected list against the answer's items (same length, each item by the single-value
rules, in order unless `ordered=False`), and the test for a single answer that lists several candidates.
"""

from __future__ import annotations

import re

from gaia_eval.scoring.answers.dates import parse_date
from gaia_eval.scoring.answers.numbers import parse_quantity, quantities_equal
from gaia_eval.scoring.answers.parse import (
    AND_SEPARATOR,
    WHOLE,
    AnswerView,
    ExpectedSpec,
    ExpectedValue,
    GaiaOptions,
    Verdict,
    list_readings,
    split_elements,
)
from gaia_eval.scoring.answers.text import answer_words, clean_span, is_non_answer, same_words, tokens

_LIST_LEAD_IN = re.compile(
    r"^(?:[^,;:\n]{0,80}?\b(?:are|is|were|was|include|includes|included)\s*:?\s+|[^,;:\n]{0,60}:\s*)",
    re.IGNORECASE)


def _element_equal(expected: ExpectedValue, answer: str, opts: GaiaOptions) -> bool:
    answer = clean_span(answer)
    if is_non_answer(answer):
        return False
    if expected.kind == "number":
        quantity = parse_quantity(answer)
        return quantity is not None and quantities_equal(expected.number_value, quantity, opts.rel_tol, opts.abs_tol)
    if expected.kind == "date":
        parsed = parse_date(answer)
        return parsed is not None and expected.date_value.accepts(parsed)
    return same_words(answer_words(answer), expected.toks)


def _count_matches(expected: tuple[ExpectedValue, ...], answer: list[str], opts: GaiaOptions) -> int:
    if opts.ordered:
        return sum(_element_equal(e, a, opts) for e, a in zip(expected, answer, strict=False))
    # Unordered: a maximum bipartite matching, so "b, a" matches "a, b" and duplicates are counted once.
    edges = [[j for j, a in enumerate(answer) if _element_equal(e, a, opts)] for e in expected]
    owner: dict[int, int] = {}

    def assign(i: int, seen: set[int]) -> bool:
        for j in edges[i]:
            if j not in seen:
                seen.add(j)
                if j not in owner or assign(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    return sum(assign(i, set()) for i in range(len(expected)))


def _list_spans(view: AnswerView) -> list[str]:
    """Where the list may be: the span, after a lead-in ("The colors are ..."), its first paragraph or line."""
    spans = [view.span]
    lead_in = _LIST_LEAD_IN.match(view.span)
    if lead_in and lead_in.end() < len(view.span):
        spans.append(view.span[lead_in.end():])
    if view.how == WHOLE and "\n" in view.span.strip():
        paragraphs = [p for p in re.split(r"\n\s*\n", view.span.strip()) if p.strip()]
        spans.append(paragraphs[0])
        spans.append(view.span.strip().split("\n", 1)[0])
    return spans


def match_list(spec: ExpectedSpec, view: AnswerView, opts: GaiaOptions) -> Verdict:
    """All items equal, same count; the score is the share of matching items of the best reading."""
    if same_words(answer_words(view.span), spec.value.toks):
        return Verdict(True, 1.0, f"list: the answer has the same words as the expected list "
                       f"({' '.join(spec.value.toks)!r})", view.span)
    best = (-1.0, "")
    order = "in order" if opts.ordered else "in any order"
    for span in _list_spans(view):
        for answer_elements in list_readings(span):
            for expected_elements in spec.elements:
                n_exp, n_ans = len(expected_elements), len(answer_elements)
                if n_exp != n_ans:  # explains the verdict only when no reading has the right length
                    if best[0] < -0.5:
                        best = (-0.5, f"list: the answer has {n_ans} item(s) {answer_elements!r}, expected {n_exp}")
                    continue
                matched = _count_matches(expected_elements, answer_elements, opts)
                if matched == n_exp:
                    return Verdict(True, 1.0, f"list: all {n_exp} items match {order}: {answer_elements!r}", span)
                score = matched / n_exp
                if score > best[0]:
                    best = (score, f"list: {matched} of {n_exp} items match {order} in {answer_elements!r}")
    return Verdict(False, max(best[0], 0.0), best[1], view.span)


# An item holding one of these is a clause ("Yes, it is"), not a listed candidate.
_CLAUSE_WORDS = frozenset({"is", "are", "was", "were", "it", "its", "has", "have", "had", "be"})
_DENIALS = frozenset({"not", "no", "never", "nor", "neither", "except"})
_DESCRIBING_OPENERS = frozenset({"in", "at", "on", "from", "by", "with", "for", "of", "near", "since", "during"})


def list_shaped(segment: str, expected_tokens: tuple[str, ...]) -> list[str] | None:
    """The candidates of an answer that names several short items ("Paris, Lyon", "Tokyo and Kyoto"). A phrase that
    opens with a preposition or a participle describes ("The Observer, published in London"): it names none; and
    items before a colon that one item follows lead in to it ("Bearoff, Nullo Play, Quadrant: Backgammon")."""
    after_colon = segment.rsplit(": ", 1)[1] if ": " in segment else ""
    if after_colon.strip() and len(split_elements(after_colon)) == 1 and not AND_SEPARATOR.search(after_colon):
        return None
    elements = split_elements(segment)
    if "and" not in expected_tokens:
        elements = [piece for element in elements for piece in AND_SEPARATOR.split(element) if piece.strip()]
    candidates = []
    for element in elements:
        element_tokens = tokens(element)
        if not element_tokens or (element_tokens[0] in _DENIALS and len(element_tokens) > 1):
            continue  # "Tokyo, not Kyoto" names one candidate
        if len(element_tokens) > 3 or _CLAUSE_WORDS.intersection(element_tokens):
            return None
        if element_tokens[0] in _DESCRIBING_OPENERS or (
                len(element_tokens[0]) > 4 and element_tokens[0].endswith(("ed", "ing"))
                and element.strip()[:1].islower()):
            continue
        candidates.append(element)
    return candidates if len(candidates) > 1 else None
