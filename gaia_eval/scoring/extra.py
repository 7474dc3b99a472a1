"""Extra scorers (`eval --scorer SPEC`): your own or a package's scorer, run on every item beside the use case's
own scorer. Their criteria are kept beside the use case's and never enter the grade.

SPEC is a registry name (gaia_eval.registry.SCORERS: the built-in scorers and a package's `gaia_eval.scorers`
entry points), `module:function` or `path/to/file.py:function`. The target is a `Scorer` or a function taking a
`ScoringInput` (answer, expected, source_text, references, facts) and returning one of:
- a float 0-1 (or None: N/A): one criterion named after the function;
- a dict {criterion: float 0-1 | None};
- a list of CriterionResult (rated by the scorer itself), or a Scorer's (list, passed).
A value 0-1 is rated by the thresholds (Excellent, Good, Fair lower bounds; below Fair is Poor): the function's
`thresholds` attribute or the Scorer's `thresholds`, else DEFAULT_THRESHOLDS. A scorer that raises, or returns a
value outside 0-1, rates that criterion of that item "error" with the reason; the run goes on.
"""

from __future__ import annotations

import copy
import inspect
import math
import numbers
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from gaia_eval.artifacts.evaluation import (
    NOT_APPLICABLE,
    RATINGS,
    CriterionResult,
    ExtraCriterionResult,
    ExtraCriterionSummary,
)
from gaia_eval.artifacts.store import fingerprint, fingerprint_bytes
from gaia_eval.errors import ConfigError
from gaia_eval.scoring.criteria import DEFAULT_THRESHOLDS, Criterion
from gaia_eval.scoring.scorers import Scorer, ScoringInput

ERROR = "error"
FIX = "write a registered scorer name, module:function or path/to/file.py:function"


@dataclass(frozen=True)
class ExtraScorer:
    """A scorer named with --scorer, loaded and checked: what it is called, where its code is, how it rates."""

    name: str
    spec: str
    source: str  # fingerprint of the file that defines it: a changed file re-scores, an unchanged one is skipped
    call: Callable[[ScoringInput], Any]
    thresholds: tuple[float, float, float] = DEFAULT_THRESHOLDS
    criteria: tuple[str, ...] = ()  # declared by a Scorer; a function's come from what it returns
    declared: tuple[Criterion, ...] = ()  # a Scorer's criteria: each rates by its own thresholds, as in a grade

    def score(self, item: ScoringInput) -> tuple[list[ExtraCriterionResult], list[str]]:
        """The item's criteria from this scorer, and why any of them is an error (one line each)."""
        try:
            returned = self.call(item)
        except (Exception, SystemExit) as exc:  # a user's code: any failure is this item's error, never the run's
            reason = _one_line(f"raised {type(exc).__name__}: {exc}")
            return [self._result(c, ERROR, None, reason) for c in self.criteria or (self.name,)], [reason]
        if isinstance(returned, tuple) and len(returned) == 2 and isinstance(returned[0], list):
            returned = returned[0]  # a Scorer's (criteria, passed)
        if isinstance(returned, list) and all(isinstance(r, CriterionResult) for r in returned):
            return [self._result(r.criterion, r.rating, r.value, r.explanation) for r in returned], []
        if isinstance(returned, dict) and all(isinstance(k, str) for k in returned):
            pairs = list(returned.items())
        elif returned is None or isinstance(returned, numbers.Real):
            pairs = [(self.name, returned)]
        else:
            reason = (f"returned {type(returned).__name__}; return a float 0-1, a dict {{criterion: float}} or a "
                      "list of CriterionResult")
            return [self._result(self.name, ERROR, None, reason)], [reason]
        results, errors = [], []
        for criterion, value in pairs:
            result = self._rated(criterion, value)
            results.append(result)
            if result.rating == ERROR:
                errors.append(result.explanation)
        return results, errors

    def _rated(self, criterion: str, value: Any) -> ExtraCriterionResult:
        if value is None:
            return self._result(criterion, NOT_APPLICABLE, None, f"{self.name} gave no value (N/A)")
        if not isinstance(value, numbers.Real) or not math.isfinite(float(value)) or not 0 <= float(value) <= 1:
            shown = repr(value) if isinstance(value, numbers.Real) else type(value).__name__
            return self._result(criterion, ERROR, None, f"criterion '{criterion}' is {shown}, not a value 0-1")
        own = next((c for c in self.declared if c.id == criterion), None)
        excellent, good, fair = own.thresholds if own is not None else self.thresholds
        value = round(float(value), 4)
        rating = "Excellent" if value >= excellent else "Good" if value >= good else "Fair" if value >= fair else "Poor"
        return self._result(criterion, rating, value,
                            f"{value:g} (Excellent ≥ {excellent:g}, Good ≥ {good:g}, Fair ≥ {fair:g})")

    def _result(self, criterion: str, rating: str, value: float | None, explanation: str) -> ExtraCriterionResult:
        return ExtraCriterionResult(scorer=self.name, criterion=criterion, rating=rating,  # type: ignore[arg-type]
                                    value=value, explanation=explanation)


def _one_line(text: str, limit: int = 300) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def load_extra_scorers(specs: Sequence[str], *, field: str = "--scorer") -> tuple[ExtraScorer, ...]:
    """Every SPEC loaded and checked before anything is scored; a bad one is a ConfigError naming it."""
    scorers: list[ExtraScorer] = []
    for spec in specs:
        scorer = _load(spec, field)
        if any(s.name == scorer.name for s in scorers):
            raise ConfigError(f"two scorers are named '{scorer.name}' ({spec})", field=field,
                              fix="give each --scorer once, or rename one of the functions")
        scorers.append(scorer)
    return tuple(scorers)


def _load(spec: str, field: str) -> ExtraScorer:
    from gaia_eval.registry import SCORERS, load

    try:
        if spec in SCORERS:
            target = SCORERS.entry(spec)
        elif ":" in spec:
            target = load(spec, what="scorer", field=field)
        else:
            raise ConfigError(f"unknown scorer '{spec}'", field=field,
                              fix=f"{FIX} (registered: {', '.join(SCORERS.names())})")
    except ConfigError as exc:
        raise ConfigError(exc.message, file=exc.file, field=exc.field or field, fix=exc.fix) from None
    if isinstance(target, Scorer):
        return ExtraScorer(target.name, spec, _source(target.score), target.score,
                           _thresholds(target.thresholds, spec, field), target.criterion_ids, target.criteria)
    if callable(target):
        name = getattr(target, "__name__", spec.rpartition(":")[2])
        return ExtraScorer(name, spec, _source(target), target, _thresholds(getattr(target, "thresholds", None),
                                                                            spec, field))
    raise ConfigError(f"scorer '{spec}' is a {type(target).__name__}, not a function or a Scorer", field=field,
                      fix="point it at a function taking a ScoringInput, or at a gaia_eval.scoring.scorers.Scorer")


def _thresholds(value: Any, spec: str, field: str) -> tuple[float, float, float]:
    if value is None:
        return DEFAULT_THRESHOLDS
    try:
        excellent, good, fair = (float(v) for v in value)
    except (TypeError, ValueError):
        excellent = good = fair = math.nan
    if not 0 <= fair <= good <= excellent <= 1:
        raise ConfigError(f"scorer '{spec}' has thresholds {value!r}", field=field,
                          fix="declare thresholds as (excellent, good, fair), each 0-1, from highest to lowest")
    return excellent, good, fair


def _source(function: Any) -> str:
    """The fingerprint of the file defining `function` (its spec alone when the file cannot be read)."""
    try:
        path = inspect.getsourcefile(inspect.unwrap(function)) or inspect.getsourcefile(type(function))
        return fingerprint_bytes(Path(path or "").read_bytes())
    except (TypeError, OSError):
        return "unreadable"


def score_extra(scorers: Sequence[ExtraScorer], item: ScoringInput, item_id: str,
                errors: list[str]) -> list[ExtraCriterionResult]:
    """Every extra scorer's criteria for one item; each failure adds a line naming the scorer and the item to
    `errors`."""
    results: list[ExtraCriterionResult] = []
    for scorer in scorers:
        got, why = scorer.score(copy.deepcopy(item))  # a scorer that edits what it is given changes nothing else
        results.extend(got)
        errors.extend(f"scorer '{scorer.name}' failed on item '{item_id}': {reason}" for reason in why)
    return results


def scorers_fingerprint(scorers: Sequence[ExtraScorer]) -> str:
    """What the evaluation's inputs record of the extra scorers: each one's name, source file and thresholds."""
    return fingerprint([{"name": s.name, "source": s.source, "thresholds": list(s.thresholds)} for s in scorers])


class _Scored(Protocol):
    @property
    def status(self) -> str: ...

    @property
    def extra_criteria(self) -> Sequence[ExtraCriterionResult]: ...


def summarize_extra(items: Iterable[_Scored], scorers: Sequence[ExtraScorer]) -> list[ExtraCriterionSummary]:
    """Each extra criterion over the items, in the scorers' order: rating counts (items the model failed as Poor,
    as in the grade; "N/A" and "error" counted when there are any) and the mean value (failed items as 0)."""
    items = list(items)
    names: dict[tuple[str, str], None] = {(s.name, c): None for s in scorers for c in s.criteria}
    for item in items:
        names.update({(r.scorer, r.criterion): None for r in item.extra_criteria})
    order = {s.name: i for i, s in enumerate(scorers)}
    keys = sorted(names, key=lambda k: order.get(k[0], len(order)))  # stable: first seen within a scorer
    counts = {k: dict.fromkeys(RATINGS, 0) | {NOT_APPLICABLE: 0, ERROR: 0} for k in keys}
    sums = dict.fromkeys(keys, 0.0)
    measured = dict.fromkeys(keys, 0)
    for item in items:
        if item.status == "error":
            for key in keys:
                counts[key]["Poor"] += 1
                measured[key] += 1
            continue
        for r in item.extra_criteria:
            key = (r.scorer, r.criterion)
            counts[key][r.rating] += 1
            if r.value is not None and r.rating != ERROR:
                sums[key] += r.value
                measured[key] += 1
    return [
        ExtraCriterionSummary(
            scorer=scorer, criterion=criterion,
            counts={r: n for r, n in counts[(scorer, criterion)].items() if n or r in RATINGS},
            mean_value=sums[(scorer, criterion)] / measured[(scorer, criterion)]
            if measured[(scorer, criterion)] else None,
        )
        for scorer, criterion in keys
    ]
