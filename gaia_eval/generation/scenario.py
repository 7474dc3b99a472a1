"""Shared machinery of the offline generator: seeded randomness, the cast, dates, figures and templates.

Everything is a pure function of a `random.Random` seeded from a sha256 of the generator's arguments, so the
same arguments always give the same document, in every process and on every machine (Random's algorithms
for integers, choices and samples are stable across the supported Python versions).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gaia_eval.generation.banks import pools
from gaia_eval.generation.specs import FigureSpec

TOKENS_PER_WORD = 1.33
YEAR = 2026


def seeded_rng(*parts: object) -> random.Random:
    """A Random seeded from a sha256 of the parts: stable across processes, unlike the salted hash()."""
    digest = hashlib.sha256("\x1f".join(repr(p) for p in parts).encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def count_words(text: str) -> int:
    return len(text.split())


def estimate_tokens(word_count: int) -> int:
    return round(word_count * TOKENS_PER_WORD)


@dataclass(frozen=True)
class Person:
    first: str
    last: str
    role: str
    domain: str

    @property
    def name(self) -> str:
        return f"{self.first} {self.last}"

    @property
    def address(self) -> str:
        local = f"{self.first}.{self.last}".lower()
        return re.sub(r"[^a-z.]", "", local) + "@" + self.domain

    @property
    def mailbox(self) -> str:
        return f"{self.name} <{self.address}>"


class Casting:
    """Draws people with first and last names unique within one document."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._firsts = list(pools.FIRST_NAMES)
        self._lasts = list(pools.LAST_NAMES)
        rng.shuffle(self._firsts)
        rng.shuffle(self._lasts)

    def person(self, role: str, domain: str) -> Person:
        return Person(self._firsts.pop(), self._lasts.pop(), role, domain)

    def people(self, roles: Sequence[str], count: int, domain: str, suffix: str = "") -> list[Person]:
        """`count` people with distinct roles drawn from `roles` (cycled when there are fewer roles than people)."""
        chosen = self._rng.sample(list(roles), min(count, len(roles)))
        while len(chosen) < count:
            chosen.append(self._rng.choice(list(roles)))
        return [self.person(role + suffix, domain) for role in chosen]


# ---- dates -------------------------------------------------------------------------------------------------


def document_date(rng: random.Random) -> dt.date:
    """A working day in 2026, early enough that every due date stays in the same year."""
    day = dt.date(YEAR, 1, 12) + dt.timedelta(days=rng.randint(0, 300))
    return next_workday(day)


def next_workday(day: dt.date) -> dt.date:
    while day.weekday() >= 5:
        day += dt.timedelta(days=1)
    return day


def later_workday(rng: random.Random, start: dt.date, days: tuple[int, int], taken: set[dt.date]) -> dt.date:
    """A working day `days` after `start`, preferring one not already used for another deadline."""
    for _ in range(8):
        day = next_workday(start + dt.timedelta(days=rng.randint(*days)))
        if day not in taken:
            break
    taken.add(day)
    return day


def month_day(day: dt.date) -> str:
    return f"{day:%B} {day.day}"


def weekday_month_day(day: dt.date) -> str:
    return f"{day:%A}, {month_day(day)}"


def long_date(day: dt.date) -> str:
    return f"{day:%A}, {month_day(day)}, {day.year}"


def spoken_due(rng: random.Random, due: dt.date, today: dt.date) -> str:
    """A due date the way people say it; always with month and day so it is unambiguous."""
    if (due - today).days <= 10 and rng.random() < 0.6:
        return weekday_month_day(due)
    return month_day(due)


# ---- figures -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RealFigure:
    spec: FigureSpec
    text: str  # as written in the document
    number: float | None
    unit: str | None


def format_amount(value: int) -> str:
    return f"${value:,}"


def realize_figure(rng: random.Random, spec: FigureSpec, today: dt.date, taken: set[str]) -> RealFigure:
    """Draw a value for a figure that no other figure of the document contains or is contained in ("3" and
    "3 days"), so every figure is found in the text by itself; small ranges settle for a merely different value."""
    for attempt in range(80):
        value = rng.randrange(spec.low, spec.high + 1, spec.step)
        if spec.kind == "amount":
            figure = RealFigure(spec, format_amount(value), float(value), "USD")
        elif spec.kind == "percent":
            figure = RealFigure(spec, f"{value}%", float(value), "%")
        elif spec.kind == "count":
            figure = RealFigure(spec, f"{value:,}", float(value), spec.unit)
        elif spec.kind == "duration":
            unit = spec.unit or "weeks"
            word = unit[:-1] if value == 1 and unit.endswith("s") else unit
            figure = RealFigure(spec, f"{value} {word}", float(value), unit)
        else:
            figure = RealFigure(spec, month_day(next_workday(today + dt.timedelta(days=value))), None, None)
        exact = attempt >= 40  # late attempts only refuse an exact repeat
        if not any(_clashes(t, figure.text, exact) for t in taken):
            taken.add(figure.text)
            return figure
    raise ValueError(f"phrase bank figure '{spec.name}' has too narrow a range to draw a distinct value")


def value_pattern(value: str) -> re.Pattern[str]:
    """Finds a figure as written, as a whole: "14" in "14 files" but not in "$14,000" or "March 14th"."""
    return re.compile(r"(?<![\w$.,])" + re.escape(value) + r"(?![\w%]|[.,]\d)")


def contains_value(text: str, value: str) -> bool:
    return value_pattern(value).search(text) is not None


def _clashes(taken: str, candidate: str, exact: bool) -> bool:
    """Whether a drawn figure would be confused with one already in the document."""
    if exact:
        return taken == candidate
    return contains_value(taken, candidate) or contains_value(candidate, taken)


# ---- templates ---------------------------------------------------------------------------------------------


class TemplateValues(dict):
    """Template variables; a missing one is a phrase-bank bug, reported with the template."""

    def __missing__(self, key: str) -> str:
        raise KeyError(f"template variable '{key}' is not defined")


def fill(template: str, values: Mapping[str, str], *, sentence: bool = True) -> str:
    """Expand a template; `sentence` capitalizes the first letter (off for phrases used inside sentences)."""
    try:
        text = template.format_map(TemplateValues(values))
    except KeyError as err:
        raise ValueError(f"{err.args[0]} in phrase-bank template: {template!r}") from None
    return capitalize_first(text) if sentence else text


def capitalize_first(text: str) -> str:
    """"okay, so" -> "Okay, so"; text that starts with a figure ("$2,100, plus travel") stays as it is."""
    return text[:1].upper() + text[1:]


def join_names(names: Sequence[str], conjunction: str = "and") -> str:
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {conjunction} {names[-1]}"


def pick_values(rng: random.Random, picks: Mapping[str, Sequence[str]]) -> dict[str, str]:
    return {name: rng.choice(list(options)) for name, options in picks.items()}


def shared_values(rng: random.Random, today: dt.date, company: str, client: str) -> dict[str, str]:
    """Document-wide variables the phrase banks may use anywhere."""
    quarter = (today.month - 1) // 3 + 1
    next_month = dt.date(YEAR + (today.month == 12), today.month % 12 + 1, 1)
    return {
        "company": company,
        "client": client,
        "vendor": rng.choice(pools.VENDORS),
        "project": rng.choice(pools.PROJECTS),
        "product": rng.choice(pools.PRODUCTS),
        "city": rng.choice(pools.CITIES),
        "quarter": f"Q{quarter}",
        "next_quarter": f"Q{quarter % 4 + 1}",
        "month": f"{today:%B}",
        "next_month": f"{next_month:%B}",
        "year": str(YEAR),
    }


# ---- length fitting ----------------------------------------------------------------------------------------


@dataclass
class OptionalPiece:
    """A piece the fitter may add: its word count and a sort key deciding the order of consideration."""

    words: int
    key: float
    chosen: bool = False


def fit_length(required_words: int, pieces: list[OptionalPiece], target_words: float) -> int:
    """Add optional pieces, in key order, while the total stays at or under the target; returns the total."""
    total = required_words
    for piece in sorted(pieces, key=lambda p: p.key):
        if total + piece.words <= target_words:
            piece.chosen = True
            total += piece.words
    return total
