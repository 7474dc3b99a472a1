"""What the report, the viewer and `annotate` show of a use case named in an evaluation file, asked of its
`UseCase`: its title, whether its items are questions marked pass/fail, what a rater rates, and where its section
sits. A name no installed use case has (a file written with a plugin not installed here) shows as its own name,
graded like any other evaluation, and never stops a report or the viewer."""

from __future__ import annotations

from collections.abc import Iterable

from gaia_eval import usecases
from gaia_eval.errors import ConfigError
from gaia_eval.registry import USE_CASES
from gaia_eval.scoring.criteria import Criterion, unknown_criterion
from gaia_eval.scoring.scorers import criteria_of, criteria_table
from gaia_eval.usecases import UseCase

# What a rater scores 1-5 when the use case names no dimensions (or is not installed here).
DEFAULT_RATING_DIMENSIONS = ("quality",)


def registered(name: str) -> UseCase | None:
    """The use case called `name`, or None when nothing installed here declares it."""
    if name not in USE_CASES:
        return None
    try:
        return usecases.get(name)
    except ConfigError:  # its package is broken here: shown under its name, like one not installed
        return None


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


def criteria(name: str) -> dict[str, Criterion]:
    """The criteria the use case's scorers rate, by id: where a criterion's label, measure and thresholds are
    read. {} for a use case not installed here, or whose scorer is not (its criteria show as their ids)."""
    use_case = registered(name)
    if use_case is None:
        return {}
    try:
        return criteria_table(use_case)
    except ConfigError:
        return {}


def criterion_label(name: str, criterion_id: str) -> str:
    """How a criterion of the use case is titled: its scorer's label, else the id in words."""
    return (criteria(name).get(criterion_id) or unknown_criterion(criterion_id)).title


def long_form(name: str, criterion_ids: Iterable[str]) -> bool:
    """An evaluation of answers to questions scored by the use case's free-text scorer (long-form answers against
    reference answers), told by the criteria it carries: on another scale than short answers' pass/fail."""
    use_case = registered(name)
    if use_case is None or not use_case.asks_questions:
        return False
    try:
        free_text = set(criteria_of(use_case, "comparative", free_text=True))
    except ConfigError:
        return False
    return any(c in free_text for c in criterion_ids)
