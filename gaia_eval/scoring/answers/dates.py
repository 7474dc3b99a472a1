"""Calendar dates in answers: parse a whole span as a date, or find the dates mentioned in running text.

Understood forms: ISO "2026-03-14", "2026/03/14", "14.03.2026" (when the day is above 12), "March 14, 2026",
"14 March 2026", "the 14th of March 2026", "Mar. 14th 2026", with an optional weekday, and month-level
"March 2026" / "2026-03", and year-less "March 14" / "14 March". A year-less reference accepts that day of
any year, since it did not say which; a reference with a year is not given by a year-less answer
(CalendarDate.accepts is directional: called on the expected date). A day/month order that cannot be told
apart ("03/04/2026") is not read as a date, so it is only equal to the same text.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache
from typing import NamedTuple

_MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4, "may": 5,
    "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9, "sept": 9, "sep": 9,
    "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}
_MONTH = "(?:" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY_SUFFIX = r"(?:st|nd|rd|th)?"
_DATE = (
    r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?(?:the\s+)?"
    r"(?:(?P<y1>\d{4})(?P<s1>[-/.])(?P<m1>\d{1,2})(?P=s1)(?P<d1>\d{1,2})(?![\d])"
    r"|(?P<a2>\d{1,2})(?P<s2>[-/.])(?P<b2>\d{1,2})(?P=s2)(?P<y2>\d{4})(?![\d])"
    rf"|(?P<mon3>{_MONTH})\s+(?P<d3>\d{{1,2}}){_DAY_SUFFIX},?\s+(?P<y3>\d{{4}})(?![\d])"
    rf"|(?P<d4>\d{{1,2}}){_DAY_SUFFIX}\s+(?:of\s+)?(?P<mon4>{_MONTH}),?\s+(?P<y4>\d{{4}})(?![\d])"
    rf"|(?P<mon5>{_MONTH}),?\s+(?:of\s+)?(?P<y5>\d{{4}})(?![\d])"
    r"|(?P<y6>\d{4})-(?P<m6>\d{2})(?![\d-])"
    rf"|(?P<mon7>{_MONTH})\s+(?P<d7>\d{{1,2}}){_DAY_SUFFIX}(?![\d\w])"
    rf"|(?P<d8>\d{{1,2}}){_DAY_SUFFIX}\s+(?:of\s+)?(?P<mon8>{_MONTH})(?![\w]))")
_HAS_DIGIT = re.compile(r"\d")
_DATE_FULL = re.compile(rf"^\s*{_DATE}\s*$", re.IGNORECASE)
_DATE_IN_TEXT = re.compile(rf"(?<![\w/.-]){_DATE}", re.IGNORECASE)


class CalendarDate(NamedTuple):
    year: int  # 0 when the text gave no year ("March 14")
    month: int
    day: int | None  # None for a month-level date ("March 2026")

    def accepts(self, answer: CalendarDate) -> bool:
        """Whether `answer` gives this expected date. A reference without a year accepts that day of any year
        (it did not say which); a reference with a year needs the answer to state the same year, so an answer
        without one ("4 May" for "May 4, 2023") is not correct."""
        if self.year:
            return self == answer
        return self.day is not None and (self.month, self.day) == (answer.month, answer.day)

    def __str__(self) -> str:
        if not self.year:
            return f"--{self.month:02d}-{self.day:02d}"  # ISO 8601's notation for a day without a year
        if self.day is None:
            return f"{self.year:04d}-{self.month:02d}"
        return f"{self.year:04d}-{self.month:02d}-{self.day:02d}"


class DateMention(NamedTuple):
    date: CalendarDate
    start: int
    end: int


def _month_number(name: str) -> int:
    return _MONTHS[name.casefold().rstrip(".")]


def _build(year: str, month: int, day: str | None) -> CalendarDate | None:
    y = int(year)
    if not 1 <= month <= 12:
        return None
    if day is None:
        return CalendarDate(y, month, None)
    try:
        dt.date(y or 2000, month, int(day))  # a leap year, so a year-less February 29 is valid
    except ValueError:
        return None
    return CalendarDate(y, month, int(day))


def _from_match(match: re.Match[str]) -> CalendarDate | None:
    if match["y1"]:
        return _build(match["y1"], int(match["m1"]), match["d1"])
    if match["y2"]:
        first, second = int(match["a2"]), int(match["b2"])
        if first > 12 >= second:
            return _build(match["y2"], second, match["a2"])
        if second > 12 >= first:
            return _build(match["y2"], first, match["b2"])
        if first == second:
            return _build(match["y2"], first, match["a2"])
        return None  # 03/04/2026: March 4 or 3 April cannot be told apart
    if match["mon3"]:
        return _build(match["y3"], _month_number(match["mon3"]), match["d3"])
    if match["mon4"]:
        return _build(match["y4"], _month_number(match["mon4"]), match["d4"])
    if match["mon5"]:
        return _build(match["y5"], _month_number(match["mon5"]), None)
    if match["y6"]:
        return _build(match["y6"], int(match["m6"]), None)
    if match["mon7"]:
        return _build("0", _month_number(match["mon7"]), match["d7"])
    return _build("0", _month_number(match["mon8"]), match["d8"])


@lru_cache(maxsize=4096)
def parse_date(text: str) -> CalendarDate | None:
    """The date a whole (folded) span states, or None."""
    if len(text) > 60 or not _HAS_DIGIT.search(text):
        return None
    match = _DATE_FULL.match(text)
    return _from_match(match) if match else None


_NUMERIC_DATE_HINT = re.compile(r"\d[-/.]\d")
_MONTH_PREFIXES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def _may_hold_date(text: str) -> bool:
    lowered = text.lower()
    return any(month in lowered for month in _MONTH_PREFIXES) or _NUMERIC_DATE_HINT.search(text) is not None


@lru_cache(maxsize=4096)
def scan_dates(text: str) -> tuple[tuple[DateMention, ...], tuple[tuple[int, int], ...]]:
    """Dates mentioned in running text, in order, and every date-like span (ambiguous day/month included)."""
    if not _HAS_DIGIT.search(text) or not _may_hold_date(text):
        return (), ()
    mentions, spans = [], []
    for match in _DATE_IN_TEXT.finditer(text):
        spans.append((match.start(), match.end()))
        date = _from_match(match)
        if date is not None:
            mentions.append(DateMention(date, match.start(), match.end()))
    return tuple(mentions), tuple(spans)
