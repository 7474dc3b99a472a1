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


@dataclass(frozen=True)
class Scorer:
    use_case: str
    mode: str
    criteria: tuple[str, ...]
    score: ScoreFn


def _qa(item: ScoringInput) -> tuple[list[CriterionResult], bool | None]:
    from gaia_eval.scoring.rubric import score_qa

    return score_qa(item.answer or "", item.expected)


def _summaries(item: ScoringInput) -> tuple[list[CriterionResult], bool | None]:
    from gaia_eval.scoring.rubric import score_summaries

    return score_summaries(item.answer or Summaries(), item.expected, item.facts), None


def _standalone(item: ScoringInput) -> tuple[list[CriterionResult], bool | None]:
    from gaia_eval.scoring.rubric import score_summaries_standalone

    return score_summaries_standalone(item.answer or Summaries(), item.source_text), None


def _registry() -> dict[tuple[str, str], Scorer]:
    from gaia_eval.scoring.rubric import QA_CRITERIA, STANDALONE_CRITERIA, SUMMARY_CRITERIA

    entries = [Scorer("qa", "comparative", tuple(QA_CRITERIA), _qa)]
    for use_case in ("summarization", "email"):
        entries.append(Scorer(use_case, "comparative", tuple(SUMMARY_CRITERIA), _summaries))
        entries.append(Scorer(use_case, "standalone", tuple(STANDALONE_CRITERIA), _standalone))
    return {(s.use_case, s.mode): s for s in entries}


SCORERS: dict[tuple[str, str], Scorer] = _registry()


def scorer_for(use_case: str, mode: str) -> Scorer | None:
    """The scorer of this use case and mode, or None when there is none (qa cannot be scored standalone)."""
    return SCORERS.get((use_case, mode))
