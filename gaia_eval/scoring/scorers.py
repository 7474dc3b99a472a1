"""The scorer registry: which deterministic scorer grades an item, chosen by use case and mode.

A scorer turns one model answer (and what it is checked against) into criterion results, plus pass/fail
where the use case has one. `comparative` scorers check against ground truth; `standalone` ones check only
what the source document can confirm. A new use case or mode is a new entry here, not a new branch in a stage.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gaia_eval.artifacts.evaluation import CriterionResult
from gaia_eval.artifacts.groundtruth import Summaries

ScoreFn = Callable[["ScoringInput"], tuple[list[CriterionResult], bool | None]]


@dataclass(frozen=True)
class ScoringInput:
    """One answered item: the answer, what it is checked against (None in standalone mode) and its source."""

    answer: Any  # str for qa, Summaries for summarization and email
    expected: Any  # QAPair, Summaries, or None
    facts: Any = None  # planted facts of a generated document, when known
    source_text: str = ""
    # Free-text references (human-written summaries, the expected summary of an imported free-text output, or a
    # long-form qa answer's reference answer): not None selects the free-text scorers; an empty tuple means the
    # source is all there is to check against.
    references: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Scorer:
    use_case: str
    mode: str
    free_text: bool
    criteria: tuple[str, ...]
    score: ScoreFn


def _qa(item: ScoringInput) -> tuple[list[CriterionResult], bool | None]:
    from gaia_eval.scoring.rubric import score_qa

    return score_qa(item.answer or "", item.expected)


def _long_qa(item: ScoringInput) -> tuple[list[CriterionResult], bool | None]:
    from gaia_eval.scoring.rubric import score_long_answer

    return score_long_answer(item.answer or "", item.expected, item.source_text), None


def _summaries(item: ScoringInput) -> tuple[list[CriterionResult], bool | None]:
    from gaia_eval.scoring.rubric import score_summaries

    return score_summaries(item.answer or Summaries(), item.expected, item.facts), None


def _standalone(item: ScoringInput) -> tuple[list[CriterionResult], bool | None]:
    from gaia_eval.scoring.rubric import score_summaries_standalone

    return score_summaries_standalone(item.answer or Summaries(), item.source_text), None


def _free_text(item: ScoringInput) -> tuple[list[CriterionResult], bool | None]:
    from gaia_eval.scoring.rubric import score_against_references

    answer = item.answer or Summaries()
    text = answer.detailed_summary or answer.executive_summary
    return score_against_references(text, item.source_text, item.references or ()), None


def _registry() -> dict[tuple[str, str, bool], Scorer]:
    from gaia_eval.scoring.rubric import (
        LONG_FORM_CRITERIA,
        QA_CRITERIA,
        STANDALONE_CRITERIA,
        SUMMARY_CRITERIA,
        criteria_for,
    )

    # qa: a short expected answer goes to the answer matcher; a long-form one (prose) to the free-text criteria.
    entries = [Scorer("qa", "comparative", False, tuple(QA_CRITERIA), _qa),
               Scorer("qa", "comparative", True, LONG_FORM_CRITERIA, _long_qa)]
    for use_case in ("summarization", "email"):
        free_text_criteria = tuple(criteria_for(use_case, "comparative", free_text=True))
        entries += [
            Scorer(use_case, "comparative", False, tuple(SUMMARY_CRITERIA), _summaries),
            Scorer(use_case, "standalone", False, tuple(STANDALONE_CRITERIA), _standalone),
            Scorer(use_case, "comparative", True, free_text_criteria, _free_text),
            Scorer(use_case, "standalone", True, free_text_criteria, _free_text),
        ]
    return {(s.use_case, s.mode, s.free_text): s for s in entries}


SCORERS: dict[tuple[str, str, bool], Scorer] = _registry()


def scorer_for(use_case: str, mode: str, *, free_text: bool = False) -> Scorer | None:
    """The scorer of this use case and mode (free-text references or structured ground truth), or None when there
    is none (qa cannot be scored standalone)."""
    return SCORERS.get((use_case, mode, free_text))
