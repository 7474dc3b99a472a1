"""A gold range of years when the question asks for any one year in it ("Give a year in the reign of King Stephen."
-> "1135-1154"): an answer is correct when every year it states lies in the range, as a grader reads it."""

from __future__ import annotations

import re

from gaia_eval.scoring.answers.parse import Verdict

_ANY_YEAR = re.compile(r"\b(?:a|any|one)\s+year\b", re.IGNORECASE)
_YEAR_RANGE = re.compile(r"^\s*(\d{3,4})\s*[-\u2013\u2014]\s*(\d{3,4})\s*$")
_YEAR = re.compile(r"(?<![\d.,$\u00a3\u20ac])\b(\d{3,4})\b(?![.,]\d|\s*%)")


def year_in_range(expected: str, answer: str, question: str | None) -> Verdict | None:
    """A correct verdict when the question asks for a year, the gold is a range of years and every year the answer
    states lies in it; None otherwise (the other rules decide)."""
    if not question or not _ANY_YEAR.search(question):
        return None
    bounds = _YEAR_RANGE.match(expected)
    if bounds is None:
        return None
    first, last = int(bounds.group(1)), int(bounds.group(2))
    asked = {int(y) for y in _YEAR.findall(question)}
    years = [int(y) for y in _YEAR.findall(answer) if int(y) not in asked]
    if first >= last or not years or not all(first <= year <= last for year in years):
        return None
    return Verdict(True, 1.0, f"year: every year the answer states ({', '.join(map(str, years))}) lies in "
                   f"{first}-{last}, and the question asks for one", answer)
