"""The scorers: what grades an item, by name. The use case says which scorer each mode uses, and so which
criteria an item is scored on.

A scorer turns one model answer (and what it is checked against) into criterion results, plus pass/fail
where the use case has one. `comparative` scorers check against ground truth; `standalone` ones check only
what the source document can confirm. The built-in ones are registered in gaia_eval.registry.SCORERS; a package
adds its own under the entry point group `gaia_eval.scorers`. Code here is below the use cases: it is given the
`UseCase`, never looks one up.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from gaia_eval.artifacts.evaluation import NOT_APPLICABLE, CriterionResult
from gaia_eval.artifacts.groundtruth import Summaries
from gaia_eval.errors import ConfigError
from gaia_eval.scoring.criteria import DEFAULT_THRESHOLDS, Criterion

DEFAULT_MATCH_MODE = "gaia"  # how a short answer to a question is matched unless eval --match-mode says otherwise


class UseCase(Protocol):
    """What a scorer needs of a use case (gaia_eval.usecases.UseCase, above this module): its name and the scorer
    it names per slot."""

    @property
    def name(self) -> str: ...

    @property
    def scorers(self) -> Mapping[tuple[str, bool], str]: ...

    def scorer_name(self, mode: str, free_text: bool) -> str | None: ...

@dataclass(frozen=True)
class ScoringInput:
    """One answered item, as a scorer is handed it.

    Fields: answer (str for questions, a `Summaries` for summary use cases); expected (a `QAPair`, `Summaries`, or
    None in standalone mode); facts (the planted facts of a generated document, else None); source_text (str:
    the document); references (tuple of free-text references, or None when the ground truth is structured).

    Example:
        >>> ScoringInput(answer="Paris", expected=None, source_text="Paris is the capital of France.").answer
        'Paris'
    """

    answer: Any  # str for qa, Summaries for summarization and email
    expected: Any  # QAPair, Summaries, or None
    facts: Any = None  # planted facts of a generated document, when known
    source_text: str = ""
    # Free-text references (human-written summaries, the expected summary of an imported free-text output, or a
    # long-form qa answer's reference answer): not None selects the free-text scorers; an empty tuple means the
    # source is all there is to check against.
    references: tuple[str, ...] | None = None
    match_mode: str = DEFAULT_MATCH_MODE  # how a short answer to a question is matched (eval --match-mode)
    # eval --match-mode judge: the answer-equivalence judge's (correct, explanation) for this item, asked before
    # scoring (correct None: the call failed, explanation says why)
    judged: tuple[bool | None, str] | None = None


@dataclass(frozen=True)
class Scorer:
    """A named way to grade an item: the criteria it rates and the function that rates them.

    Fields:
        name: its registry name (gaia_eval.registry.SCORERS, or a package's `gaia_eval.scorers` entry point).
        criteria: the `Criterion`s it rates (gaia_eval.scoring.criteria.Criterion: id, label, measure,
            thresholds, why); a bare id is a criterion labelled by its id, rated by `thresholds`.
        score: a function taking a `ScoringInput` and returning any of (the same contract as `eval --scorer`):
            a float 0-1 or None (N/A), for a scorer of one criterion; a dict {criterion id: float 0-1 | None};
            a list of CriterionResult; or (that list, passed: bool | None).
        kind: what an item it grades is (why another scorer's criteria are N/A on it).
        thresholds: (excellent, good, fair) lower bounds for criteria given as bare ids (None: 0.85, 0.67, 0.33).

    A use case names its scorer per mode (gaia_eval.usecases.UseCase.scorers); `eval --scorer NAME` runs one
    beside the grade. `grade(item) -> (list[CriterionResult], passed)` is what `eval` stores.

    Example:
        >>> def shouts(item): return {"no_caps": 0.0 if item.answer.isupper() else 1.0}
        >>> s = Scorer("tone", (Criterion("no_caps", "No shouting"),), shouts)
        >>> [r.rating for r in s.grade(ScoringInput(answer="HELLO", expected=None))[0]]
        ['Poor']
    """

    name: str
    criteria: tuple[Criterion, ...]
    score: Callable[[ScoringInput], Any]
    kind: str = ""
    thresholds: tuple[float, float, float] | None = None

    def __post_init__(self) -> None:
        excellent, good, fair = self.thresholds or DEFAULT_THRESHOLDS
        criteria = tuple(
            c if isinstance(c, Criterion) else Criterion(str(c), excellent=excellent, good=good, fair=fair)
            for c in self.criteria
        )
        object.__setattr__(self, "criteria", criteria)

    @property
    def criterion_ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.criteria)

    def criterion(self, criterion_id: str) -> Criterion | None:
        return next((c for c in self.criteria if c.id == criterion_id), None)

    def kind_note(self) -> str:
        return self.kind or f"scored by the {self.name} scorer"

    def grade(self, item: ScoringInput) -> tuple[list[CriterionResult], bool | None]:
        """The item's results on every criterion this scorer declares (one it did not return is N/A), and its
        pass/fail. What `score` returns is read as documented above; anything else, a value outside 0-1 or an
        undeclared criterion raises ScorerFailed with the reason (that item's error)."""
        returned = self.score(item)
        return read_returned(self, returned)


class ScorerFailed(Exception):
    """A use case's scorer raised or returned what the contract does not allow: that item's error, with why."""


def read_returned(scorer: Scorer, returned: Any) -> tuple[list[CriterionResult], bool | None]:
    """A scorer's return value as results on its criteria (see `Scorer`), and pass/fail."""
    passed: bool | None = None
    if isinstance(returned, tuple) and len(returned) == 2 and isinstance(returned[0], list):
        returned, passed = returned
    if isinstance(returned, list) and all(isinstance(r, CriterionResult) for r in returned):
        results = {r.criterion: r for r in returned}
    elif isinstance(returned, dict) and all(isinstance(k, str) for k in returned):
        results = {k: _rated(scorer, k, v) for k, v in returned.items()}
    elif returned is None or (isinstance(returned, numbers.Real) and not isinstance(returned, bool)):
        only = scorer.criterion_ids[0] if len(scorer.criteria) == 1 else scorer.name
        results = {only: _rated(scorer, only, returned)}
    else:
        raise ScorerFailed(f"scorer '{scorer.name}' returned {type(returned).__name__}; return a float 0-1, "
                           "a dict {criterion: float} or a list of CriterionResult")
    undeclared = [c for c in results if scorer.criteria and scorer.criterion(c) is None]
    if undeclared:
        raise ScorerFailed(f"scorer '{scorer.name}' returned criteria it does not declare: {', '.join(undeclared)}")
    # in the order returned (the built-in scorers' files keep their bytes), a declared criterion left out as N/A
    missing = [_not_applicable(c, f"{scorer.name} gave no value") for c in scorer.criteria if c.id not in results]
    return [*results.values(), *missing], passed


def _rated(scorer: Scorer, criterion_id: str, value: Any) -> CriterionResult:
    criterion = scorer.criterion(criterion_id) or Criterion(criterion_id)
    if value is None:
        return _not_applicable(criterion, f"{scorer.name} gave no value")
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(float(value)) \
            or not 0 <= float(value) <= 1:
        shown = repr(value) if isinstance(value, numbers.Real) else type(value).__name__
        raise ScorerFailed(f"scorer '{scorer.name}': criterion '{criterion_id}' is {shown}, not a value 0-1")
    stored = round(float(value), 4)
    excellent, good, fair = criterion.thresholds
    return CriterionResult(criterion=criterion_id, rating=criterion.rate(stored), measure=criterion.measure,
                           value=stored, explanation=f"{stored:g} (Excellent ≥ {excellent:g}, Good ≥ {good:g}, "
                           f"Fair ≥ {fair:g})")


def _not_applicable(criterion: Criterion, why: str) -> CriterionResult:
    return CriterionResult(criterion=criterion.id, rating=NOT_APPLICABLE, measure=criterion.measure, value=None,
                           explanation=f"not applicable: {why}")


def _qa(item: ScoringInput) -> tuple[list[CriterionResult], bool | None]:
    from gaia_eval.scoring.rubric import score_judged, score_qa

    if item.match_mode == "judge":  # the model decided (eval --match-mode judge); a failed call is the item's error
        if item.judged is None or item.judged[0] is None:
            raise ScorerFailed(item.judged[1] if item.judged else "the answer judge was not asked about this item")
        return score_judged(item.answer or "", item.expected, item.judged[0], item.judged[1])
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
    from gaia_eval.scoring.rubric import builtin_criteria as the

    return (
        Scorer("summaries", the(SUMMARY_CRITERIA), _summaries),
        Scorer("summaries_standalone", the(STANDALONE_CRITERIA), _standalone),
        # Free-text summaries against human references (or the source alone): the reference criteria, and the
        # structured ones the references cannot check (N/A).
        Scorer("free_text", the((*REFERENCE_CRITERIA, "action_items", "key_decisions", "participants")),
               _free_text),
        # qa: a short expected answer goes to the answer matcher; a long-form one (prose) to the free-text criteria.
        Scorer("qa", the(QA_CRITERIA), _qa, "a short answer, matched by correctness"),
        Scorer("long_form_qa", the(LONG_FORM_CRITERIA), _long_qa,
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
    return scorer.criterion_ids if scorer is not None else ()


def criteria_scored(use_case: UseCase, mode: str, carried: set[str]) -> list[str]:
    """The criteria of an experiment whose scored items carry the criteria `carried`: those of each of the use
    case's scorers whose criteria they carry (both kinds' for a qa experiment with short and long-form answers),
    in the order of its slots; with no item scored, those of the mode's scorer (else of its first)."""
    scorers = scorers_of(use_case)
    found = [c for s in scorers if carried.issuperset(s.criterion_ids) for c in s.criterion_ids]
    if found:
        return list(dict.fromkeys(found))
    fallback = scorer_for(use_case, mode) or next(iter(scorers), None)
    return list(fallback.criterion_ids) if fallback is not None else []


def criteria_table(use_case: UseCase) -> dict[str, Criterion]:
    """Every criterion the use case's scorers rate, by id (the first scorer's, when two declare one id): what the
    report, templates, the viewer and meta-eval show of a criterion."""
    table: dict[str, Criterion] = {}
    for scorer in scorers_of(use_case):
        for criterion in scorer.criteria:
            table.setdefault(criterion.id, criterion)
    return table


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
