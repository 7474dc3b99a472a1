"""Scoring an experiment's items: what each answer is checked against (embedded ground truth, else -g's), the
scorer its use case names for that, and the scores, one item at a time (held, or spooled beside the evaluation)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gaia_eval.artifacts.evaluation import ExtraCriterionResult, ItemEvaluation, ScoredItemRecord
from gaia_eval.artifacts.experiment import Experiment, ItemResult
from gaia_eval.artifacts.groundtruth import GroundTruth, Summaries
from gaia_eval.artifacts.shards import LineIndex
from gaia_eval.artifacts.streamed import ListSpool, StreamedExperiment
from gaia_eval.errors import InputError
from gaia_eval.scoring import rubric
from gaia_eval.scoring.extra import ExtraScorer, score_extra
from gaia_eval.scoring.imported import imported_criteria
from gaia_eval.scoring.rubric import IMPORTED_PROVIDER, free_text_references
from gaia_eval.scoring.scorers import DEFAULT_MATCH_MODE, ScorerFailed, ScoringInput, scorer_for, scorers_of
from gaia_eval.stages.eval.inputs import external_for
from gaia_eval.usecases import UseCase


@dataclass(frozen=True, slots=True)
class Rating:
    criterion: str
    rating: str
    value: float | None


@dataclass(frozen=True, slots=True)
class Rated:
    """What the grade needs of a scored item (rubric.aggregate reads these like ItemEvaluations)."""

    item_id: str
    status: str
    passed: bool | None
    criteria: tuple[Rating, ...]
    extra_criteria: tuple[ExtraCriterionResult, ...] = ()  # eval --scorer


@dataclass
class Seen:
    """What one pass over an experiment's items gathers besides their scores; the extra scorers (--scorer) it runs
    and why they failed on an item ("scorer 'x' failed on item 'y': why")."""

    modes: set[str] = field(default_factory=set)
    latency_min: float | None = None
    extras: tuple[ExtraScorer, ...] = ()
    scorer_errors: list[str] = field(default_factory=list)
    match_mode: str | None = None  # eval --match-mode: how short answers to questions are matched (None: gaia)
    answer_judge: Any = None  # eval --answer-judge (a JudgeSettings) with --match-mode judge
    call_options: Any = None  # the run's CallOptions, for the answer judge's calls
    verdicts: dict[str, tuple[bool | None, str]] = field(default_factory=dict)  # item id: the answer judge's


def _checked_against(
    use_case: UseCase, exp: Experiment | StreamedExperiment, item: ItemResult, external: dict[str, GroundTruth]
) -> tuple[Any, Any, tuple[str, ...] | None]:
    """(expected, facts, free-text references) of an item: embedded ground truth first, then -g's."""
    if use_case.asks_questions:  # a long-form expected answer is a free-text reference
        pair = item.groundtruth_answer
        long_form = pair is not None and rubric.is_long_form(pair)
        return pair, None, tuple(pair.answers) if pair is not None and long_form else None
    gt = external_for(item.source, external)
    expected, facts = (item.groundtruth_summaries, None) if item.groundtruth_summaries is not None else (
        (gt.summaries, gt.facts) if gt is not None else (None, None)
    )
    references = free_text_references(
        gt.references if gt is not None else None, expected, imported=exp.spec.provider == IMPORTED_PROVIDER
    )
    return expected, facts, tuple(references) if references is not None else None


def scoring_input(
    use_case: UseCase, exp: Experiment | StreamedExperiment, item: ItemResult, external: dict[str, GroundTruth],
    match_mode: str | None = None,
) -> ScoringInput:
    """The item's answer with what it is checked against (and how a short answer is matched)."""
    expected, facts, references = _checked_against(use_case, exp, item, external)
    answer = item.answer if use_case.asks_questions else item.summaries or Summaries()
    return ScoringInput(answer=answer, expected=expected, facts=facts, source_text=exp.sources[item.source].text,
                        references=references, match_mode=match_mode or DEFAULT_MATCH_MODE)


def _slot(expected: Any, references: tuple[str, ...] | None) -> tuple[str, bool]:
    """(mode, free text) of an item: free text with human references or an imported free-text output (standalone
    when there is no reference), else comparative when there is ground truth."""
    if references is not None:
        return ("comparative" if references else "standalone"), True
    return ("comparative" if expected is not None else "standalone"), False


def _every_item_criteria(
    use_case: UseCase, exp: Experiment | StreamedExperiment, external: dict[str, GroundTruth]
) -> tuple[str, ...]:
    """Questions whose expected answers need different scorers (short and long-form answers): the criteria of
    each, which every item then carries (N/A on the other scorers'); () when one scorer grades them all."""
    if not use_case.asks_questions:
        return ()
    names = set()
    for item in exp.items:
        expected, _, references = _checked_against(use_case, exp, item, external)
        names.add(use_case.scorer_name(*_slot(expected, references)))
    wanted = [s for s in scorers_of(use_case) if s.name in names]
    return tuple(dict.fromkeys(c for s in wanted for c in s.criterion_ids)) if len(wanted) > 1 else ()


def score_items(
    use_case: UseCase,
    exp: Experiment | StreamedExperiment,
    external: dict[str, GroundTruth],
    exp_path: Path,
    seen: Seen,
    owns: Callable[[ItemResult], bool] | None = None,
    scored: LineIndex | None = None,
) -> Iterator[ItemEvaluation]:
    """Each item's scores, one at a time; the modes met and the fastest answer go into `seen`. `owns`: only the
    items it owns (a shard's); `scored`: items scored earlier (a shard's journal or part: ScoredItemRecord lines
    by item id), taken as they are instead of scored again; a line that does not validate is dropped from
    `scored` and its item scored."""
    modes = seen.modes
    every_item_criteria = _every_item_criteria(use_case, exp, external)
    ids: set[str] = set()  # ids only (not the items): eval's memory stays flat in the items' size
    for item in exp.items:
        if item.item_id in ids:  # scored twice it would count twice against a ground truth holding it once
            raise InputError(f"item '{item.item_id}' is listed twice", file=exp_path, field="items",
                             fix="remove the duplicate, or re-run batch-experiment to rewrite the file")
        ids.add(item.item_id)
        if owns is not None and not owns(item):
            continue
        earlier = scored.get(item.item_id) if scored else None
        if earlier is not None:
            try:
                record = ScoredItemRecord.model_validate_json(earlier)
            except ValidationError:
                del scored[item.item_id]  # type: ignore[union-attr]
            else:
                yield _scored_earlier(use_case, exp, item, external, seen, record)
                continue
        if item.status == "error":
            yield ItemEvaluation(
                item_id=item.item_id,
                source=item.source,
                status="error",
                error=item.error,
                passed=False if use_case.asks_questions else None,  # an unanswered question fails
            )
            continue
        if seen.latency_min is None or item.latency_s < seen.latency_min:
            seen.latency_min = item.latency_s
        scoring = scoring_input(use_case, exp, item, external, seen.match_mode)
        if seen.match_mode == "judge":
            scoring = replace(scoring, judged=seen.verdicts.get(item.item_id))
        mode, free_text = _slot(scoring.expected, scoring.references)
        scorer = scorer_for(use_case, mode, free_text=free_text)
        if scorer is None:  # qa has no standalone scorer: an answer needs its expected answer
            raise InputError(
                f"{exp.use_case} item '{item.item_id}' has no expected answer",
                file=exp_path,
                fix=f"run batch-experiment on {exp.use_case} ground truth",
            )
        try:
            criteria, passed = scorer.grade(scoring)
        except (Exception, SystemExit) as exc:  # a package's scorer: its failure is this item's error, not the run's
            reason = str(exc) if isinstance(exc, ScorerFailed) else f"raised {type(exc).__name__}: {exc}"
            reason = " ".join(reason.split())[:300]
            seen.scorer_errors.append(f"scorer '{scorer.name}' failed on item '{item.item_id}': {reason}")
            yield ItemEvaluation(item_id=item.item_id, source=item.source, status="error",
                                 error=f"scorer '{scorer.name}' failed: {reason}",
                                 passed=False if use_case.asks_questions else None)
            continue
        criteria = rubric.with_not_applicable(criteria, every_item_criteria, scorer.kind_note())
        modes.add(mode)
        extra = score_extra(seen.extras, scoring, item.item_id, seen.scorer_errors) + imported_criteria(item.imported)
        yield ItemEvaluation(item_id=item.item_id, source=item.source, status="scored", criteria=criteria,
                             passed=passed, extra_criteria=extra)


def _scored_earlier(use_case: UseCase, exp: Experiment | StreamedExperiment, item: ItemResult,
                    external: dict[str, GroundTruth], seen: Seen, record: ScoredItemRecord) -> ItemEvaluation:
    """An item scored earlier, noted in `seen` exactly as scoring it here would have been."""
    seen.scorer_errors.extend(record.errors)
    if item.status != "error":
        if seen.latency_min is None or item.latency_s < seen.latency_min:
            seen.latency_min = item.latency_s
        if record.item.status == "scored":
            scoring = scoring_input(use_case, exp, item, external, seen.match_mode)
            seen.modes.add(_slot(scoring.expected, scoring.references)[0])
    return record.item


def mode_of(
    exp: Experiment | StreamedExperiment, external: dict[str, GroundTruth], exp_path: Path, seen: Seen
) -> str:
    if len(seen.modes) > 1:
        raise InputError(
            "has ground truth for some items and not for others",
            file=exp_path,
            fix="pass -g with ground truth covering every item",
        )
    if seen.modes:
        return next(iter(seen.modes))
    return "comparative" if exp.groundtruth == "embedded" or external else "standalone"


def spool_scores(
    use_case: UseCase,
    out: Path,
    exp: StreamedExperiment | Experiment,
    external: dict[str, GroundTruth],
    exp_path: Path,
    seen: Seen,
    scored: LineIndex | None = None,
) -> tuple[ListSpool, list[Rated], str]:
    """Score the items into a spool beside `out`, keeping only what the grade needs of each (those in `scored`
    are taken from there); and the mode."""
    spool = ListSpool(out, "items")
    rated: list[Rated] = []
    try:
        for ev in score_items(use_case, exp, external, exp_path, seen, scored=scored):
            spool.add(ev)
            rated.append(Rated(ev.item_id, ev.status, ev.passed,
                               tuple(Rating(r.criterion, r.rating, r.value) for r in ev.criteria),
                               tuple(ev.extra_criteria)))
        return spool, rated, mode_of(exp, external, exp_path, seen)
    except BaseException:
        spool.discard()
        raise
