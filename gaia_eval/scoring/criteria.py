"""What a criterion is: one thing a scorer rates, with its label, what its value measures, the thresholds that
rate a value and why they sit there. A criterion belongs to the `Scorer` that rates it (gaia_eval.scoring.scorers),
so whatever shows a criterion (the report, templates, the viewer, the judge's agreement, meta-eval) asks the use
case's scorers for it; there is no table of every criterion.
"""

from __future__ import annotations

from dataclasses import dataclass

from gaia_eval.artifacts.evaluation import Rating

# Lower bounds of Excellent, Good and Fair for a value 0-1 (below Fair: Poor): the rubric's grade bands (85/67/33
# on its 0-100 scale), so a criterion that declares none reads like the grade beside it.
DEFAULT_THRESHOLDS: tuple[float, float, float] = (0.85, 0.67, 0.33)


@dataclass(frozen=True)
class Criterion:
    """One criterion a scorer rates.

    Fields:
        id: the name stored in evaluation files (`CriterionResult.criterion`), e.g. "names_ticket".
        label: how reports, templates and the viewer title it ("" : the id in words).
        mode: the built-in rubric's grouping ("comparative", "standalone", "reference", "answer"); "" for others.
        measure: what the value 0-1 is, stored beside each result.
        excellent, good, fair: lower bounds rating a value (below `fair` is Poor).
        why: why the thresholds sit where they do (the rubric table shows it).

    `rate(value) -> Rating` turns a value into "Excellent" / "Good" / "Fair" / "Poor" (None is Poor).

    Example:
        >>> c = Criterion("names_ticket", "Names the ticket", excellent=1.0, good=0.5, fair=0.5)
        >>> c.rate(1.0), c.rate(0.0), c.title
        ('Excellent', 'Poor', 'Names the ticket')
    """

    id: str
    label: str = ""
    mode: str = ""
    measure: str = ""
    excellent: float = DEFAULT_THRESHOLDS[0]
    good: float = DEFAULT_THRESHOLDS[1]
    fair: float = DEFAULT_THRESHOLDS[2]
    why: str = ""

    @property
    def title(self) -> str:
        """The label, else the id in words."""
        return self.label or self.id.replace("_", " ")

    @property
    def thresholds(self) -> tuple[float, float, float]:
        """(excellent, good, fair)."""
        return self.excellent, self.good, self.fair

    def rate(self, value: float | None) -> Rating:
        if value is None:
            return "Poor"
        if value >= self.excellent:
            return "Excellent"
        if value >= self.good:
            return "Good"
        if value >= self.fair:
            return "Fair"
        return "Poor"


def unknown_criterion(criterion_id: str) -> Criterion:
    """What is shown of a criterion that no installed scorer declares (a file written by a package that is not
    installed here, or an older version): its id in words, default thresholds."""
    return Criterion(criterion_id)


__all__ = ["DEFAULT_THRESHOLDS", "Criterion", "unknown_criterion"]
