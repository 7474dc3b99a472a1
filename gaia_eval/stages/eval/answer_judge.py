"""`eval --match-mode judge`: the qa use case's short answers graded by the answer-equivalence judge
(scoring/judge/equivalence.py), asked for one experiment before its items are scored, through the run's response
cache and --batch (CallOptions). Long-form answers keep their free-text criteria and are not asked about. A failed
call becomes that item's error when it is scored (stages/eval/items.py), so the evaluation is never current and the
next run asks again; answered calls then come from the response cache."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from gaia_eval.artifacts.experiment import Experiment, ItemResult
from gaia_eval.artifacts.groundtruth import GroundTruth
from gaia_eval.artifacts.shards import Shard
from gaia_eval.artifacts.streamed import StreamedExperiment
from gaia_eval.errors import UsageError
from gaia_eval.stages.eval.items import Seen, scoring_input
from gaia_eval.usecases import UseCase


def answer_judge_journal(out: Path, shard: Shard | None = None) -> Path:
    """Where --batch journals the answer judge's batches of one evaluation: beside it (a shard's: its own, so
    that each shard re-attaches to its own batches)."""
    return out.with_name(f"{out.name}.answer-judge{'' if shard is None else '.' + shard.tag}.batches.jsonl")


def answer_judge_settings(match_mode: str | None, answer_judge_spec: str | None, judge_spec: str | None,
                          base_url: str | None, timeout: float | None) -> Any:
    """eval --match-mode judge's model (--answer-judge; its endpoint and timeout: --judge-base-url and
    --judge-timeout when --judge, the rubric's LLM judge, is not given), or None."""
    if match_mode == "judge" and answer_judge_spec is None:
        raise UsageError("--match-mode judge needs the model that grades the answers", field="--answer-judge",
                         fix="add --answer-judge PROVIDER:MODEL, e.g. --answer-judge openai:gpt-4o-mini")
    if answer_judge_spec is None:
        return None
    if match_mode != "judge":
        raise UsageError("--answer-judge grades short answers with a model, which needs --match-mode judge",
                         field="--answer-judge", fix="add --match-mode judge, or leave --answer-judge out")
    from gaia_eval.scoring.judge import DEFAULT_JUDGE_TIMEOUT_S, parse_judge_spec

    own = judge_spec is None  # with --judge, --judge-base-url and --judge-timeout are the rubric judge's
    return parse_judge_spec(answer_judge_spec, base_url=base_url if own else None,
                            timeout_s=(timeout if own and timeout else None) or DEFAULT_JUDGE_TIMEOUT_S)


def judge_short_answers(use_case: UseCase, exp: Experiment | StreamedExperiment, external: dict[str, GroundTruth],
                        out: Path, seen: Seen, wanted: Callable[[ItemResult], bool] | None = None,
                        shard: Shard | None = None) -> None:
    """Ask the judge about every answered short-answer item (of those `wanted`: a shard's own, not scored
    earlier); its verdicts go into `seen.verdicts` by item id."""
    from gaia_eval.scoring.judge import EquivalencePair, judge_answers

    if seen.answer_judge is None or seen.match_mode != "judge" or not use_case.asks_questions:
        return
    asked: list[tuple[str, Any]] = []
    for item in exp.items:
        if wanted is not None and not wanted(item):
            continue
        scoring = scoring_input(use_case, exp, item, external)
        if item.status == "error" or scoring.expected is None or scoring.references is not None:
            continue  # unanswered, or a long-form answer (free-text criteria): nothing to ask
        pair = EquivalencePair(tuple(scoring.expected.answers), item.answer or "", scoring.expected.query or "")
        asked.append((item.item_id, pair))
    if not asked:
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    verdicts = judge_answers([pair for _, pair in asked], seen.answer_judge, seen.call_options,
                             answer_judge_journal(out, shard))
    seen.verdicts.update({item_id: (v.correct, v.explanation) for (item_id, _), v in zip(asked, verdicts,
                                                                                           strict=True)})
