"""What makes a number in an answer claim something other than the exact expected number, as a careful grader
reads it: an approximation ("about 40", "~40", "40ish", "40 or so"), a decade for a year ("1980s" is not 1980),
or a measurement unit that the expected answer does not carry ("12 km" for a bare 12, unless the question asks
in kilometres). Used by the gaia mode only; the numeric and official modes keep their own rules."""

from __future__ import annotations

import re

from gaia_eval.scoring.answers.numbers import MEASUREMENT_UNITS, Quantity, unit_aliases
from gaia_eval.scoring.answers.text import tokens

_APPROX_BEFORE = re.compile(
    r"(?:~|\u2248|\u223c|\babout|\baround|\bapprox(?:imately|\.)?|\broughly|\bcirca|\bca\.|\bc\.|\bnearly|\balmost"
    r"|\bclose to|\bsome|\ban estimated|\bestimated|\bin the region of|\bupwards of|\bjust (?:over|under)"
    r"|\bmore or less)\s*$",
    re.IGNORECASE,
)
_APPROX_AFTER = re.compile(
    r"^(?:-?ish\b|\s*(?:\u00b1|\+/-|\+-)|\s+or so\b|\s+or thereabouts\b|\s+give or take\b|\s*\(approx(?:imately|\.)?\)"
    r"|\s+approximately\b|\s+roughly\b|\s+or more\b|\s+or less\b|\s*\+(?!\d))",
    re.IGNORECASE,
)
_DECADE = re.compile(r"(?<![\w'])(?:(?P<full>[12]\d{2}0)|'(?P<short>\d0))'?s\b", re.IGNORECASE)


def approximation_cue(text: str, number_text: str, expected_text: str) -> str | None:
    """The words that make `number_text` (as it stands in `text`) an approximation, unless the expected answer
    is itself approximate."""
    if _has_approximation(expected_text, expected_text):
        return None
    return _has_approximation(text, number_text)


# Any of the cues anywhere: most answers have none, and one scan of them settles it.
_ANY_CUE = re.compile(
    r"[~\u2248\u223c\u00b1+]|ish\b|\b(?:about|around|approx|roughly|circa|ca\.|c\.|nearly|almost|close to|some|"
    r"estimated|region|upwards|just|more or less|or so|thereabouts|give or take|or more|or less)", re.IGNORECASE)


def _has_approximation(text: str, number_text: str) -> str | None:
    if not number_text or _ANY_CUE.search(text) is None:
        return None
    start = 0
    while (at := text.find(number_text, start)) >= 0:
        end = at + len(number_text)
        inner = _APPROX_BEFORE.search(number_text) or re.match(r"^\s*(~|\u2248)", number_text)
        before = _APPROX_BEFORE.search(text[max(0, at - 40):at])  # the cue stands right before the number
        after = _APPROX_AFTER.match(text[end:end + 40]) or re.search(r"(?:-?ish|\+)$", number_text)
        found = inner or before or after
        if found is not None:
            return found.group(0).strip()
        start = end
    # The number's own text may carry the word ("about 40" parsed as one quantity)
    own = re.match(r"^\s*(~|\u2248|about|around|approximately|roughly|circa|nearly|almost)\b", number_text, re.I)
    return own.group(1) if own else None


def decade(text: str) -> int | None:
    """The decade a text names ("1980s", "the 1980's", "'80s" -> 1980), or None."""
    match = _DECADE.search(text)
    if match is None:
        return None
    return int(match["full"]) if match["full"] else 1900 + int(match["short"])


def foreign_unit(expected: Quantity, chosen: Quantity, question: str | None) -> str | None:
    """A measurement unit the answer gives that the bare expected number does not carry and the question does
    not ask in, or None. Currency and percent are notation, not another answer; count nouns ("3 apples") are
    not units."""
    if expected.unit:
        return None
    measured = sorted(chosen.unit & MEASUREMENT_UNITS)
    if not measured:
        return None
    asked = set(tokens(question.casefold())) if question else set()
    asked_text = f" {' '.join(tokens(question.casefold()))} " if question else ""
    for unit in measured:
        if any((" " in alias and f" {alias} " in asked_text) or alias in asked for alias in unit_aliases(unit)):
            continue
        if unit == "year" and asked & {"old", "age", "aged"}:
            continue
        return unit
    return None
