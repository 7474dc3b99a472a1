"""What the report, the viewer and `annotate` show of a use case named in an evaluation file, asked of its
`UseCase`: its title, whether its items are questions marked pass/fail, what a rater rates, and where its section
sits. A name no installed use case has (a file written with a plugin not installed here) shows as its own name,
graded like any other evaluation, and never stops a report or the viewer."""

from __future__ import annotations

from gaia_eval import usecases
from gaia_eval.registry import USE_CASES
from gaia_eval.usecases import UseCase

# What a rater scores 1-5 when the use case names no dimensions (or is not installed here).
DEFAULT_RATING_DIMENSIONS = ("quality",)


def registered(name: str) -> UseCase | None:
    """The use case called `name`, or None when nothing installed here declares it."""
    return usecases.get(name) if name in USE_CASES else None


def title(name: str) -> str:
    return usecases.title(name)


def asks_questions(name: str) -> bool:
    """Its items are questions answered in words (pass/fail where the expected answer is short); False for a use
    case not installed here, whose items are shown with their 0-100 points."""
    use_case = registered(name)
    return use_case is not None and use_case.asks_questions


def rating_dimensions(name: str) -> tuple[str, ...]:
    use_case = registered(name)
    return (use_case.rating_dimensions if use_case is not None else ()) or DEFAULT_RATING_DIMENSIONS


def section_order(name: str) -> tuple[int, str]:
    """Sort key of a use case's report sections: registry order (built in first), unknown names last by name."""
    known = usecases.names()
    return (known.index(name), "") if name in known else (len(known), name)
