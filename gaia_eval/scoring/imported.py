"""The scores another tool gave an imported item (`import-results`: Inspect's scorers, promptfoo's assertions,
lm-eval's metrics), as criteria shown beside gaia-eval's own under the tool's name and never in the grade."""

from __future__ import annotations

from gaia_eval.artifacts.evaluation import NOT_APPLICABLE, ExtraCriterionResult
from gaia_eval.artifacts.experiment import ImportedItem

# The bands of a 0-1 value, as the grade's (85/67/33 of 100) and an extra scorer's default.
BANDS: tuple[float, float, float] = (0.85, 0.67, 0.33)


def imported_criteria(imported: ImportedItem | None) -> list[ExtraCriterionResult]:
    """Its pass/fail as Excellent or Poor, a value on 0-1 in the grade's bands, any other value as given with N/A
    (it is not on gaia-eval's scale: a BLEU of 4.6, a list a corpus metric aggregates)."""
    if imported is None:
        return []
    results = []
    for score in imported.scores:
        value = score.value
        if score.passed is not None:
            rating = "Excellent" if score.passed else "Poor"
        elif value is not None and 0.0 <= value <= 1.0:
            excellent, good, fair = BANDS
            rating = "Excellent" if value >= excellent else "Good" if value >= good else "Fair" if value >= fair \
                else "Poor"
        else:
            rating = NOT_APPLICABLE
        said = score.explanation or (f"{imported.tool} gave {value:g}" if value is not None else
                                     f"{imported.tool} gave {str(score.raw)[:200]}")
        results.append(ExtraCriterionResult(scorer=imported.tool, criterion=score.name, rating=rating,  # type: ignore[arg-type]
                                            value=value, explanation=" ".join(said.split())[:300]))
    return results
