"""The scorers: what grades an item, by name. The use case says which scorer each mode uses, and so which
criteria an item is scored on.

A scorer turns one model answer (and what it is checked against) into criterion results, plus pass/fail
where the use case has one. `comparative` scorers check against ground truth; `standalone` ones check only
what the source document can confirm. The built-in ones are registered in gaia_eval.registry.SCORERS; a package
adds its own under the entry point group `gaia_eval.scorers`. Code here is below the use cases: it is given the
`UseCase`, never looks one up.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gaia_eval.artifacts.evaluation import CriterionResult
from gaia_eval.artifacts.groundtruth import Summaries
from gaia_eval.errors import ConfigError

if TYPE_CHECKING:
    from gaia_eval.usecases import UseCase

ScoreFn = Callable[["ScoringInput"], tuple[list[CriterionResult], bool | None]]
DEFAULT_MATCH_MODE = "gaia"  # how a short answer to a question is matched unless eval --match-mode says otherwise


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
    match_mode: str = DEFAULT_MATCH_MODE  # how a short answer to a question is matched (eval --match-mode)


@dataclass(frozen=True)
class Scorer:
    """A named way to grade an item: the criteria it rates and the function that rates them. Use cases name the
    scorer of each mode (gaia_eval.usecases.UseCase.scorers) through the registry (gaia_eval.registry.SCORERS)."""

    name: str
    criteria: tuple[str, ...]
    score: ScoreFn
    # What an item this scorer grades is: why another scorer's criteria are N/A on it, in an experiment whose
    # items need more than one scorer (a qa experiment's short and long-form answers)
    kind: str = ""
    # (Excellent, Good, Fair) lower bounds rating a score that returns values 0-1 (an extra scorer, `eval --scorer`;
    # None: gaia_eval.scoring.extra.DEFAULT_THRESHOLDS). The built-in scorers rate their own criteria.
    thresholds: tuple[float, float, float] | None = None

    def kind_note(self) -> str:
        return self.kind or f"scored by the {self.name} scorer"


def _qa(item: ScoringInput) -> tuple[list[CriterionResult], bool | None]:
    from gaia_eval.scoring.rubric import score_qa

    return score_qa(item.answer or "", item.expected, item.match_mode)


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


def _builtin() -> tuple[Scorer, ...]:
    from gaia_eval.scoring.rubric import (
        LONG_FORM_CRITERIA,
        QA_CRITERIA,
        REFERENCE_CRITERIA,
        STANDALONE_CRITERIA,
        SUMMARY_CRITERIA,
    )

    return (
        Scorer("summaries", tuple(SUMMARY_CRITERIA), _summaries),
        Scorer("summaries_standalone", tuple(STANDALONE_CRITERIA), _standalone),
        # Free-text summaries against human references (or the source alone): the reference criteria, and the
        # structured ones the references cannot check (N/A).
        Scorer("free_text", (*REFERENCE_CRITERIA, "action_items", "key_decisions", "participants"), _free_text),
        # qa: a short expected answer goes to the answer matcher; a long-form one (prose) to the free-text criteria.
        Scorer("qa", tuple(QA_CRITERIA), _qa, "a short answer, matched by correctness"),
        Scorer("long_form_qa", tuple(LONG_FORM_CRITERIA), _long_qa,
               "a long-form answer, scored by the free-text criteria"),
    )


SUMMARIES, SUMMARIES_STANDALONE, FREE_TEXT, QA, LONG_FORM_QA = _builtin()


def scorer_for(use_case: UseCase, mode: str, *, free_text: bool = False) -> Scorer | None:
    """The scorer the use case names for this mode (free-text references or structured ground truth), or None
    when it has none (qa cannot be scored standalone)."""
    name = use_case.scorer_name(mode, free_text)
    return None if name is None else resolve_scorer(name, field=f"{use_case.name}.scorers")


def scorers_of(use_case: UseCase) -> list[Scorer]:
    """Every scorer the use case names, once each, in the order of its slots."""
    names = dict.fromkeys(use_case.scorers.values())
    return [resolve_scorer(name, field=f"{use_case.name}.scorers") for name in names]


def criteria_of(use_case: UseCase, mode: str, *, free_text: bool = False) -> tuple[str, ...]:
    """The criteria an item of the use case is scored on in this mode; () when the mode has no scorer."""
    scorer = scorer_for(use_case, mode, free_text=free_text)
    return scorer.criteria if scorer is not None else ()


def criteria_scored(use_case: UseCase, mode: str, carried: set[str]) -> list[str]:
    """The criteria of an experiment whose scored items carry the criteria `carried`: those of each of the use
    case's scorers whose criteria they carry (both kinds' for a qa experiment with short and long-form answers),
    in the order of its slots; with no item scored, those of the mode's scorer (else of its first)."""
    scorers = scorers_of(use_case)
    found = [c for s in scorers if carried.issuperset(s.criteria) for c in s.criteria]
    if found:
        return list(dict.fromkeys(found))
    fallback = scorer_for(use_case, mode) or next(iter(scorers), None)
    return list(fallback.criteria) if fallback is not None else []


def resolve_scorer(name: str, *, field: str | None = None) -> Scorer:
    """The scorer a registry name (built in, or a package's `gaia_eval.scorers` entry point) or a
    `module:attr` / `path/to/file.py:attr` stands for."""
    from gaia_eval.registry import SCORERS, check_name, load

    if name not in SCORERS and ":" in name:
        scorer = load(name, what="scorer", field=field)
    else:
        check_name(SCORERS, name, what="scorer", field=field)
        scorer = SCORERS.entry(name)
    if not isinstance(scorer, Scorer):
        raise ConfigError(f"scorer '{name}' ({SCORERS.target(name) or name}) is not a Scorer", field=field,
                          fix="point it at a gaia_eval.scoring.scorers.Scorer")
    return scorer
