"""Typed spans found in text by pattern: dates (with ISO normalization), money, percents, counts, durations."""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass

from gaia_eval.baselines.text import stem
from gaia_eval.number_words import WORD_VALUES

MONTHS: dict[str, int] = {}
for _number, _name in enumerate(calendar.month_name):
    if _name:
        MONTHS[_name.lower()] = _number
        MONTHS[_name[:3].lower()] = _number
WEEKDAYS = [name.lower() for name in calendar.day_name]

_MONTH = (r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
          r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)")
_WEEKDAY = r"(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day"
_WEEKDAY_PREFIX = rf"(?:(?:{_WEEKDAY}|Mon|Tue|Wed|Thu|Fri|Sat|Sun),?\s+)?"
_ORD = r"(?:st|nd|rd|th)?"

_DATE_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("iso", re.compile(r"\b(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})\b")),
    ("mdy", re.compile(rf"\b{_WEEKDAY_PREFIX}(?P<mon>{_MONTH})\.?\s+(?P<d>\d{{1,2}}){_ORD}\b(?:,?\s+(?P<y>\d{{4}}))?")),
    ("dmy", re.compile(
        rf"\b{_WEEKDAY_PREFIX}(?P<d>\d{{1,2}}){_ORD}\s+(?:of\s+)?(?P<mon>{_MONTH})\b\.?(?:,?\s+(?P<y>\d{{4}}))?"
    )),
    ("numeric", re.compile(r"\b(?P<m>\d{1,2})/(?P<d>\d{1,2})(?:/(?P<y>\d{4}|\d{2}))?\b")),
    ("month_year", re.compile(rf"\b(?P<mon>{_MONTH})\s+(?P<y>\d{{4}})\b")),
    ("quarter", re.compile(r"\b(?:Q[1-4]|H[12])(?:\s+(?:of\s+)?(?:FY)?\d{2,4})?\b")),
    ("weekday", re.compile(rf"\b(?:(?P<next>next|this|coming)\s+)?(?P<wd>{_WEEKDAY})\b", re.I)),
    ("relative", re.compile(r"\b(?:tomorrow|end of (?:the )?(?:day|week|month|quarter)|EOD|EOW|next week|next month)\b",
                            re.I)),
]


@dataclass(frozen=True)
class Span:
    text: str
    start: int
    end: int
    kind: str  # date, amount, percent, count, duration, time
    iso: str | None = None  # dates only: YYYY-MM-DD when the year is known or inferable


def _build_date(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def _infer_year(month: int, day: int, ref: dt.date | None) -> dt.date | None:
    """A date written without a year takes the document's year, rolled forward when it would lie far behind it."""
    if ref is None:
        return None
    candidate = _build_date(ref.year, month, day)
    if candidate is not None and (ref - candidate).days > 120:
        candidate = _build_date(ref.year + 1, month, day)
    return candidate


def _relative_date(phrase: str, ref: dt.date | None) -> dt.date | None:
    if ref is None:
        return None
    phrase = phrase.lower()
    for index, name in enumerate(WEEKDAYS):
        if name in phrase:
            ahead = (index - ref.weekday()) % 7 or 7
            return ref + dt.timedelta(days=ahead)
    if phrase == "tomorrow":
        return ref + dt.timedelta(days=1)
    if phrase in ("eod", "end of day", "end of the day"):
        return ref
    if phrase in ("eow", "end of week", "end of the week"):
        return ref + dt.timedelta(days=(4 - ref.weekday()) % 7)
    if phrase == "next week":
        return ref + dt.timedelta(days=7 - ref.weekday())
    if phrase in ("end of month", "end of the month"):
        return dt.date(ref.year, ref.month, calendar.monthrange(ref.year, ref.month)[1])
    return None


def _normalize(kind: str, match: re.Match[str], ref: dt.date | None) -> dt.date | None:
    groups = match.groupdict()
    if kind in ("iso", "mdy", "dmy", "numeric"):
        month = int(groups["m"]) if groups.get("m") else MONTHS[groups["mon"].lower()[:3]]
        day = int(groups["d"])
        year_text = groups.get("y")
        if year_text:
            year = int(year_text) + (2000 if len(year_text) == 2 else 0)
            return _build_date(year, month, day)
        return _infer_year(month, day, ref)
    if kind in ("weekday", "relative"):
        return _relative_date(match.group().replace("next ", "").replace("this ", "").replace("coming ", "")
                              if kind == "weekday" else match.group(), ref)
    return None


def find_dates(text: str, ref: dt.date | None = None) -> list[Span]:
    """Date expressions in reading order; overlapping matches keep the longest, most specific one."""
    found: list[Span] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern in _DATE_PATTERNS:
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(start < t_end and end > t_start for t_start, t_end in taken):
                continue
            if kind == "numeric" and not (1 <= int(match.group("m")) <= 12 and 1 <= int(match.group("d")) <= 31):
                continue
            day = _normalize(kind, match, ref)
            taken.append((start, end))
            found.append(Span(match.group().strip(" ,"), start, end, "date", day.isoformat() if day else None))
    return sorted(found, key=lambda span: span.start)


def parse_date(text: str) -> dt.date | None:
    """The first complete (year-bearing) date in `text`, e.g. a Date: header value."""
    for span in find_dates(text):
        if span.iso and re.search(r"\d{4}", span.text):
            return dt.date.fromisoformat(span.iso)
    return None


_DIGITS = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"  # 48,500 / 12.5 / 2400, never a trailing comma
_AMOUNT_RE = re.compile(
    rf"(?:[$€£¥]\s?(?:{_DIGITS})(?:\s?(?:k|K|m|M|bn|BN|million|billion|thousand)\b)?)"
    rf"|(?:\b(?:{_DIGITS})\s?(?:k\s|K\s|million\s|thousand\s|billion\s)?"
    r"(?:dollars|USD|EUR|euros?|pounds|GBP|CAD|AUD)\b)"
)
_PERCENT_RE = re.compile(r"\b\d+(?:\.\d+)?\s?(?:%|percent\b|per cent\b)")
_TIME_RE = re.compile(r"\b\d{1,2}(?::\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.)|\b\d{1,2}:\d{2}\b", re.I)
_NUMBER = _DIGITS + "|" + "|".join(sorted(WORD_VALUES, key=len, reverse=True))
_COUNT_RE = re.compile(rf"\b(?P<n>{_NUMBER})\s+(?:(?:new|more|additional|full-time|senior|junior|open|active|of)\s+)?"
                       rf"(?P<noun>[a-z][a-z\-]+)", re.I)
_DURATION_RE = re.compile(rf"\b(?:{_NUMBER}|a|an)\s*(?:more\s+)?(?:business\s+)?"
                          r"(?:ms|milliseconds?|seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|"
                          r"years?|sprints?|quarters?)\b", re.I)


def _non_overlapping(spans: list[Span], blocked: list[Span]) -> list[Span]:
    return [s for s in spans if not any(s.start < b.end and s.end > b.start for b in blocked)]


def find_amounts(text: str) -> list[Span]:
    return [Span(m.group().strip(), m.start(), m.end(), "amount") for m in _AMOUNT_RE.finditer(text)]


def find_percents(text: str) -> list[Span]:
    return [Span(m.group().strip(), m.start(), m.end(), "percent") for m in _PERCENT_RE.finditer(text)]


def find_times(text: str) -> list[Span]:
    return [Span(m.group().strip(), m.start(), m.end(), "time") for m in _TIME_RE.finditer(text)]


def find_durations(text: str) -> list[Span]:
    return [Span(m.group().strip(), m.start(), m.end(), "duration") for m in _DURATION_RE.finditer(text)]


def number_value(text: str) -> str:
    """'twelve' -> '12', '1,200' -> '1,200': the bare number of a count as a reader would compare it."""
    lowered = text.lower()
    return str(WORD_VALUES[lowered]) if lowered in WORD_VALUES else text


def find_counts(text: str, noun_hint: set[str] | None = None) -> list[Span]:
    """Numbers that count something ('12 engineers'), not parts of dates, amounts, percents or times.

    With `noun_hint` (stemmed nouns from a question), counts of those nouns come first."""
    blocked = find_dates(text) + find_amounts(text) + find_percents(text) + find_times(text)
    counts: list[tuple[int, Span]] = []
    for match in _COUNT_RE.finditer(text):
        span = Span(number_value(match.group("n")), match.start("n"), match.end("n"), "count")
        if _non_overlapping([span], blocked):
            hit = 0 if noun_hint and stem(match.group("noun").lower()) in noun_hint else 1
            counts.append((hit, span))
    counts.sort(key=lambda pair: (pair[0], pair[1].start))
    return [span for _, span in counts]
