"""What the matching modes share: the verdict, option and mode types, the expected answer parsed once (kind, value,
list readings; cached, since a dataset repeats its references across runs) and the answer's view (the span
that extraction picked: after a `FINAL ANSWER:` marker, an "the answer is" phrase, a self-correction, or
the whole response; a correction inside that span, "42 - no wait, 43" or "42 (correction: 43)", narrows it to
what follows the correction).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from gaia_eval.scoring.answers.dates import CalendarDate, parse_date
from gaia_eval.scoring.answers.extract import extract_marked, extract_phrase, may_have_sentences, sentences
from gaia_eval.scoring.answers.numbers import Quantity, parse_quantity
from gaia_eval.scoring.answers.text import clean_span, content_tokens, fold


class Verdict(NamedTuple):
    """A mode's decision on one expected answer, before it becomes a MatchResult.

    Fields: correct (bool: the answer gives the expected one), score (float 0-1: how close), explanation (str, one
    line shown to users), extracted (str: the part of the answer that was compared).

    Example:
        >>> Verdict(True, 1.0, "same initials", "J.R.R.T.")
        Verdict(correct=True, score=1.0, explanation='same initials', extracted='J.R.R.T.')
    """

    correct: bool
    score: float
    explanation: str
    extracted: str


@dataclass(frozen=True, slots=True)
class GaiaOptions:
    """The options of the number, list and extraction rules (shared by gaia, numeric, fuzzy and semantic)."""

    rel_tol: float | None = None  # None: float rounding only (see answers_numbers.quantities_equal)
    abs_tol: float = 0.0
    ordered: bool = True
    extract: bool = True
    # The question, when known: a unit it names ("how many miles ...") may stand in the answer even though the
    # expected answer is a bare number.
    question: str | None = None
    # gaia mode reads what the number claims (an approximation, a decade, a unit the expected answer lacks);
    # numeric mode compares the number alone.
    claims: bool = True


_DEFAULT_GAIA_OPTIONS = GaiaOptions()


def gaia_options(options: Mapping[str, Any]) -> GaiaOptions:
    """The number, list and extraction options among a mode's checked options (defaults for those not given)."""
    if not options:
        return _DEFAULT_GAIA_OPTIONS
    return GaiaOptions(rel_tol=options.get("rel_tol"), abs_tol=options.get("abs_tol", 0.0),
                       ordered=options.get("ordered", True), extract=options.get("extract", True),
                       question=options.get("question"))


@dataclass(frozen=True, slots=True)
class MatchMode:
    """An answer-matching mode, as gaia_eval.registry.MATCH_MODES names it (a package registers one under the
    entry-point group `gaia_eval.match_modes`).

    Fields:
        match: `(expected: str, answer: str | None, options: Mapping) -> Verdict`, deciding one expected
            alternative (`answer` is None when no answer was given; `options` were checked against `options`).
            An exception it raises is one line naming the mode (check-answer) or that task's error (bench).
        options: the option names it takes besides `alternatives_sep`.
        threshold: (default, lowest, highest) of its `threshold` option, when it has one.

    Example:
        >>> def initials(expected, answer, options):
        ...     same = (answer or "").replace(".", "").upper() == expected.replace(".", "").upper()
        ...     return Verdict(same, float(same), "same initials" if same else "other initials", answer or "")
        >>> MatchMode(initials).match("J.R.R.T.", "jrrt", {}).correct
        True
    """

    match: Callable[[str, str | None, Mapping[str, Any]], Verdict]
    options: frozenset[str] = frozenset()
    threshold: tuple[float, float, float] | None = None

    def threshold_of(self, options: Mapping[str, Any]) -> float:
        assert self.threshold is not None, "a mode with a threshold option declares its range"
        return options.get("threshold", self.threshold[0])


# --- the expected side -------------------------------------------------------------------------

class ExpectedValue(NamedTuple):
    """One expected value, parsed: a number (with its unit), a date, or a string's comparison tokens."""

    text: str
    kind: str  # "number", "date" or "string"
    toks: tuple[str, ...]  # the words compared (answer_words), for dates and strings
    quantity: Quantity | None = None
    date: CalendarDate | None = None

    @property
    def number_value(self) -> Quantity:
        """The quantity of a "number" value."""
        assert self.quantity is not None, f"{self.text!r} is a {self.kind}, not a number"
        return self.quantity

    @property
    def date_value(self) -> CalendarDate:
        """The date of a "date" value."""
        assert self.date is not None, f"{self.text!r} is a {self.kind}, not a date"
        return self.date

    @property
    def year_like(self) -> bool:
        q = self.quantity
        return q is not None and not q.unit and q.value.is_integer() and 1000 <= q.value <= 2999


class ExpectedSpec(NamedTuple):
    """An expected answer: one value, or a list when it holds , or ; and is not a number or a date."""

    text: str
    value: ExpectedValue  # the whole expected text as one value
    elements: tuple[tuple[ExpectedValue, ...], ...] = ()  # list readings: split on , ; (and also on "and")

    @property
    def is_list(self) -> bool:
        return bool(self.elements)


def expected_value(text: str) -> ExpectedValue:
    """Parse one expected value: a number if the whole text is a quantity, else a date, else a string."""
    span = clean_span(fold(text))
    quantity = parse_quantity(span)
    if quantity is not None:  # numbers compare by value: their words are never needed
        return ExpectedValue(text, "number", (), quantity=quantity)
    toks = content_tokens(span)
    date = parse_date(span)
    if date is not None:
        return ExpectedValue(text, "date", toks, date=date)
    return ExpectedValue(text, "string", toks)


@lru_cache(maxsize=16384)
def expected_spec(text: str) -> ExpectedSpec:
    """The parsed expected answer; "1,000" and "March 14, 2026" stay single values despite their comma."""
    value = expected_value(text)
    if value.kind == "string" and ("," in text or ";" in text):
        readings = list_readings(clean_span(fold(text)))
        elements = tuple(tuple(expected_value(e) for e in reading) for reading in readings)
        if any(len(reading) > 1 for reading in elements):
            return ExpectedSpec(text, value, elements)
    return ExpectedSpec(text, value)


# --- list splitting ------------------------------------------------------------------------------

_THOUSANDS_COMMA = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_BULLET = re.compile(r"^\s*(?:[-*\u2022\u00b7]|\d{1,2}[.)])\s+")
_LIST_SEPARATOR = re.compile(r"[,;]")
AND_SEPARATOR = re.compile(r"\s+(?:and|&)\s+", re.IGNORECASE)
_LEADING_AND = re.compile(r"^(?:and|&)\s+", re.IGNORECASE)


def split_elements(text: str) -> list[str]:
    """Items of a list: split on , ; and newlines, without bullets, a leading "and", or thousands commas."""
    protected = _THOUSANDS_COMMA.sub("\x00", text)
    parts: list[str] = []
    for line in protected.split("\n"):
        if line.strip():
            parts.extend(_LIST_SEPARATOR.split(_BULLET.sub("", line)))
    elements = [clean_span(_LEADING_AND.sub("", p.replace("\x00", ",").strip())) for p in parts]
    return [e for e in elements if e]


def list_readings(text: str) -> list[list[str]]:
    """Ways to read a span as a list: split on , ; newlines and bullets, and also on "and"."""
    text = clean_span(text)
    basic = split_elements(text)
    and_split = [piece for e in basic for piece in (AND_SEPARATOR.split(e)) if piece.strip()]
    return [basic] if and_split == basic else [basic, [clean_span(p) for p in and_split]]


# --- the answer side -----------------------------------------------------------------------------

WHOLE = "the whole answer"


class AnswerView(NamedTuple):
    """The part of an answer that is compared, and where extraction found it."""

    span: str  # the cleaned span compared
    how: str  # where it came from: WHOLE, or the marker / phrase that pointed at it
    context: str = ""  # the sentence around an "the answer is" phrase, read for hedges


@lru_cache(maxsize=1024)
def answer_view(answer: str, extract: bool) -> AnswerView:
    """The span to compare; with `extract`, the one a marker, an "answer is" phrase or a self-correction names
    (a correction inside the span, "42 - no wait, 43", wins over what the span opens with)."""
    text = fold(answer)
    lowered = text.casefold()
    if extract and ("answer" in lowered or "<" in text or "\\" in text or "#" in text):
        marked = extract_marked(text, lowered)
        if marked is not None:
            return _corrected_view(AnswerView(clean_span(marked[0]), marked[1]))
        phrase = extract_phrase(text) if "answer" in lowered else None
        if phrase is not None and clean_span(phrase[0]):
            return _corrected_view(AnswerView(clean_span(phrase[0]), "the 'the answer is' phrase", phrase[1]))
    if extract and may_have_sentences(text):
        corrected = _self_correction(text)
        if corrected is not None:
            return _corrected_view(AnswerView(corrected, "the self-correction"))
    view = AnswerView(clean_span(text), WHOLE)
    return _corrected_view(view) if extract else view


def _corrected_view(view: AnswerView) -> AnswerView:
    """The view itself, or what follows a correction inside its span ("42 - no wait, 43", "42 (correction: 43)")."""
    corrected = _inline_correction(view.span)
    return view if corrected is None else AnswerView(corrected, "the self-correction")


_RETRACTION = re.compile(
    r"^(?:(?:no|wait|actually|correction|sorry|oops|hmm|scratch that|on second thought|i mean|rather)\b"
    r"[\s,:;.!\u2014-]*)+", re.IGNORECASE)


# A correction inside one sentence: a dash, semicolon, bracket (or, for the unmistakable words, a comma) and then
# a correction word. "actually" and "rather" need a stronger break than a comma ("It's Paris, actually the
# capital"), "rather than" compares instead of correcting, and a bare "no" / "sorry" / "wait" must be followed by
# punctuation ("Paris (no doubt)", "12 (sorry for the delay)", "Paris (no-fly zone)" correct nothing).
_INLINE_RETRACTION = re.compile(
    r"(?:(?:\s-{1,2}|\u2014|;|[(\[])\s*(?:actually|rather(?!\s+than\b))\b"
    r"|(?:\s-{1,2}|\u2014|;|[(\[]|,)\s*(?:no,?\s+wait|wait,?\s+no|correction|i\s+mean|scratch\s+that|make\s+that"
    r"|on\s+second\s+thought|(?:no|wait|sorry|oops)(?=\s*[,:;!.\u2014]|\s+-))\b)"
    r"[\s,:;.!\u2014-]*", re.IGNORECASE)
# A cheap first look for any correction word, so most spans skip the full pattern.
_CORRECTION_WORD = re.compile(r"\b(?:wait|correction|actually|mean|sorry|rather|scratch|make|second|no|oops)\b",
                              re.IGNORECASE)
_CLOSERS = {"(": ")", "[": "]"}


def _inline_correction(span: str) -> str | None:
    """What follows the last correction inside a span, its bracket closed: "43" for "42 (correction: 43)"."""
    if _CORRECTION_WORD.search(span) is None:
        return None
    retractions = list(_INLINE_RETRACTION.finditer(span))
    if not retractions:
        return None
    last = retractions[-1]
    rest = span[last.end():]
    opener = last.group(0).lstrip()[:1]
    if opener in _CLOSERS:
        rest = rest.replace(_CLOSERS[opener], " ", 1)
    rest = clean_span(" ".join(rest.split()))
    return rest or None


def _self_correction(text: str) -> str | None:
    """What follows the last "Wait, no - ..." sentence after the first: the answer the response settles on."""
    parts = sentences(text)
    for part in reversed(parts[1:]):
        retraction = _RETRACTION.match(part)
        if retraction:
            rest = clean_span(part[retraction.end():])
            start = parts.index(part)
            return " ".join([rest, *parts[start + 1:]]).strip() or None
    return None
