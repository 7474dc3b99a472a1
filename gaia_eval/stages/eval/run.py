"""Stage 4, `eval`: score each experiment against ground truth (or standalone) with the deterministic rubric,
optionally also with an LLM judge (see gaia_eval.scoring.judge.core), and keep the evaluations index."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import partial
from pathlib import Path

from gaia_eval import usecases
from gaia_eval.artifacts.evaluation import Evaluation, InferenceSummary, ItemEvaluation
from gaia_eval.artifacts.experiment import Experiment
from gaia_eval.artifacts.groundtruth import GroundTruth
from gaia_eval.artifacts.recorded import recorded_path
from gaia_eval.artifacts.shards import LineIndex, Shard
from gaia_eval.artifacts.store import (
    Freshness,
    fingerprint,
    freshness,
)
from gaia_eval.artifacts.streamed import ListSpool, StreamedExperiment, evaluation_freshness, write_streamed
from gaia_eval.errors import InputError, UsageError
from gaia_eval.providers.call_options import CallOptions, call_options_or_defaults
from gaia_eval.reporting.extra import extra_line
from gaia_eval.scoring import rubric
from gaia_eval.scoring.extra import load_extra_scorers, scorers_fingerprint, summarize_extra
from gaia_eval.scoring.judge import (
    JudgeOutcome,
    JudgeSettings,
    JudgeTarget,
    judge_experiments,
    judge_journal_path,
    judge_request,
    judge_shard,
    remove_judge_journals,
)
from gaia_eval.scoring.scorers import DEFAULT_MATCH_MODE, criteria_scored
from gaia_eval.stages.common import check_output_dir, holds_output_lock
from gaia_eval.stages.eval.answer_judge import judge_short_answers
from gaia_eval.stages.eval.index import update_consolidated
from gaia_eval.stages.eval.inputs import (
    evaluation_name,
    experiment_files,
    external_for,
    external_of,
    groundtruth_paths,
    load_external,
    load_scorable,
)
from gaia_eval.stages.eval.items import Rated, Seen, mode_of, score_items, scoring_input, spool_scores
from gaia_eval.stages.eval.parts import (
    JUDGE_INPUT_KEYS,
    refuse_shard_of_index,
    remove_scored_parts,
    rubric_fingerprint,
    score_shard,
    scored_earlier,
)
from gaia_eval.stages.eval.summary import (
    COMPARATIVE_NOTE,
    LONG_FORM_NOTE,
    SCORER,
    STANDALONE_NOTE,
    EvalSummary,
    judge_note,
    note_consolidated,
    note_unevaluated,
)


@dataclass
class _Pending:
    """An experiment whose evaluation is (re)made in this run, already scored by the rubric. Without a judge its
    scored items are spooled to disk as they come (`spool`, with `rated` for the grade); with one, they are
    held (`items`) for the judge."""

    path: Path
    experiment: Experiment | StreamedExperiment
    out: Path
    inputs: dict[str, str]
    before: Freshness
    existing: Evaluation | None
    items: list[ItemEvaluation] | None
    mode: str
    seen: Seen
    spool: ListSpool | None = None
    rated: list[Rated] = field(default_factory=list)
    external: dict[str, GroundTruth] = field(default_factory=dict)  # -g's ground truth of its use case


def _rubric_criteria(pending: _Pending) -> list[str]:
    """The rubric criteria the experiment's items were scored on: those of the use case's scorers that scored them."""
    scored = pending.items if pending.items is not None else pending.rated
    carried = {r.criterion for i in scored for r in i.criteria}
    return criteria_scored(usecases.get(pending.experiment.use_case), pending.mode, carried)


def _evaluate(pending: _Pending, gt_source: str, judged: JudgeOutcome | None) -> Evaluation:
    exp, mode, inputs = pending.experiment, pending.mode, pending.inputs
    use_case = usecases.get(exp.use_case)
    criteria_names = _rubric_criteria(pending)
    scored = pending.items if pending.items is not None else pending.rated
    criteria, grade = rubric.aggregate(scored, criteria_names, pass_rate=use_case.asks_questions)
    if judged is not None and (not judged.complete or judged.summary.unscored_samples):
        # Not current: the next run asks again for the failed calls and the unusable (unscored) replies.
        inputs = {
            **inputs,
            "judge_pending": f"{judged.summary.failed_samples} judge calls failed, "
            f"{judged.summary.unscored_samples} replies unscored",
        }
    if pending.seen.scorer_errors:  # never current: the next run scores again (the scorer may have been fixed)
        inputs = {**inputs, "scorer_errors": f"{len(pending.seen.scorer_errors)} failed"}
    t = exp.totals
    return Evaluation(
        inputs=inputs,
        experiment_name=exp.experiment_name,
        provider=exp.spec.provider,
        model=exp.spec.model,
        use_case=exp.use_case,
        mode=mode,  # type: ignore[arg-type]
        mode_note=_mode_note(mode)
        + (f"; {LONG_FORM_NOTE}" if use_case.asks_questions and "conciseness" in criteria_names else ""),
        scorer=f"{SCORER} ({rubric.RUBRIC_VERSION})",
        experiment_file=recorded_path(pending.path),
        experiment_fingerprint=inputs["experiment"],
        groundtruth_source=gt_source if mode == "comparative" else "none",
        items=judged.items if judged is not None else (pending.items or []),  # spooled items join at the write
        criteria=criteria,
        grade=grade,
        inference=InferenceSummary(
            usage=t.usage,
            cost_usd=t.cost_usd,
            cost_status=t.cost_status,
            latency_mean_s=t.latency_mean_s,
            latency_p50_s=t.latency_p50_s,
            latency_p95_s=t.latency_p95_s,
            wall_time_s=t.wall_time_s,
            time_to_success_p50_s=t.time_to_success_p50_s,
            time_to_success_p95_s=t.time_to_success_p95_s,
            retried_items=t.retried_items,
            latency_min_s=pending.seen.latency_min or 0.0,
            latency_max_s=t.latency_max_s,
            items_answered=t.ok,
            batched_items=t.batched_items,
        ),
        evaluated_at=datetime.now(timezone.utc),
        judge=judged.summary if judged is not None else None,
        extra_criteria=summarize_extra(scored, pending.seen.extras),
        match_mode=pending.seen.match_mode,
    )


def _mode_note(mode: str) -> str:
    return STANDALONE_NOTE if mode == "standalone" else COMPARATIVE_NOTE


def _keeps_judge(existing: Evaluation | None, inputs: dict[str, str]) -> bool:
    """Without --judge, an evaluation judged earlier stays current when everything else is unchanged: running
    eval again must not throw away judgements that were paid for (--force rewrites it without them)."""
    if existing is None or existing.judge is None:
        return False
    return {k: v for k, v in existing.inputs.items() if k not in JUDGE_INPUT_KEYS} == inputs


def _judge_targets(pending: list[_Pending], judge: JudgeSettings) -> list[JudgeTarget]:
    targets = []
    for p in pending:
        exp, external, use_case = p.experiment, p.external, usecases.get(p.experiment.use_case)
        requests = {}
        for item in exp.items:
            if item.status == "error":
                continue  # Poor for the judge too, as for the rubric; nothing to ask
            reference = None
            if not use_case.asks_questions and p.mode == "comparative":  # an answer's expected one is in `item`
                reference = scoring_input(use_case, exp, item, external).expected
            requests[item.item_id] = judge_request(
                judge, use_case, p.mode, item, exp.sources[item.source].text, reference
            )
        targets.append(
            JudgeTarget(
                evaluation_file=p.out,
                use_case=use_case,
                mode=p.mode,
                mode_note=_mode_note(p.mode),
                rubric_criteria=_rubric_criteria(p),
                items=p.items,
                requests=requests,
                previous=p.existing,
            )
        )
    return targets


@holds_output_lock()
def run_eval(
    *,
    experiment_dir: Path | None = None,
    experiment_file: Path | None = None,
    output_dir: Path = Path("evaluation"),
    groundtruth: Path | list[Path] | None = None,
    force: bool = False,
    regenerate_report: bool = False,
    judge: JudgeSettings | None = None,
    show_progress: bool | None = None,
    call_options: CallOptions | None = None,
    scorers: Sequence[str] = (),
    match_mode: str | None = None,
    shard: Shard | None = None,
    answer_judge: JudgeSettings | None = None,
) -> EvalSummary:
    """Score every experiment with the rubric and, when `judge` is given, with the LLM judge too, its calls made
    as `call_options` say (response cache, batch API; default: the environment's). Up-to-date evaluations are
    skipped; judge samples already paid for (earlier file or journal) are reused. `scorers`: extra scorers
    (gaia_eval.scoring.extra), rated beside the use case's own criteria, outside the grade. `match_mode`: how short
    answers are matched (None: gaia; "judge": `answer_judge` grades them). With `shard`, only that shard's items
    are scored (and its judge samples asked) and written as its parts (stages/eval/parts.py); the same call
    without it then scores and pays nothing for them and writes the evaluations and the index.

    Plan (read and check every input, decide what is current, score into spools), run (the judge's calls, all
    before anything is written), write (commit each evaluation, then the index)."""
    output_dir = Path(output_dir)
    summary = EvalSummary("eval")
    refuse_shard_of_index(shard, regenerate_report)
    if regenerate_report:
        return _regenerate_index(summary, output_dir, experiment_file or experiment_dir, judge)
    # --incremental-update is what a plain run does: score new and changed experiments, skip up-to-date ones,
    # and re-read only the evaluation files that changed into the index. The default match mode keeps files' bytes.
    extras, match_mode = load_extra_scorers(scorers), None if match_mode == DEFAULT_MATCH_MODE else match_mode
    root, files = experiment_files(experiment_dir, experiment_file)
    gt_paths = groundtruth_paths(groundtruth)
    by_use_case, gt_fp = load_external(gt_paths)
    gt_source = "external:" + ", ".join(recorded_path(p) for p in gt_paths) if gt_paths else "embedded"
    loaded, made_from = _load_experiments(files, gt_paths, by_use_case, summary)
    check_output_dir(output_dir)

    # the rubric's version and the free-text grade's weights: a change in either re-scores every evaluation
    scorer_fp = fingerprint({"scorer": SCORER, "rubric": rubric.RUBRIC_VERSION, "weights": rubric.grade_inputs()})
    calls = call_options_or_defaults(call_options)
    pending: list[_Pending] = []
    claimed: dict[Path, Path] = {}
    try:  # a spool not committed (an error in a later experiment, an interrupt) leaves nothing behind
        for path, exp in loaded:
            external = external_of(by_use_case, exp.use_case)
            rel = path.relative_to(root) if root in path.parents else Path(path.name)
            out = output_dir / rel.with_name(evaluation_name(path, exp))
            _claim(claimed, out, path, exp)
            asks = usecases.get(exp.use_case).asks_questions
            inputs = {
                "experiment": made_from[path],
                "groundtruth": gt_fp if external else "embedded" if exp.groundtruth == "embedded" else "none",
                "scorer": scorer_fp,
                **({"scorers": scorers_fingerprint(extras)} if extras else {}),
                **usecases.settings_inputs(usecases.get(exp.use_case)),  # a package's use case: its scorers too
                **({"match_mode": match_mode} if match_mode and asks else {}),  # another mode: redone
                **({"answer_judge": answer_judge.fingerprint()} if answer_judge and asks else {}),
            }
            seen = Seen(extras=extras, match_mode=match_mode if asks else None, answer_judge=answer_judge,
                        call_options=calls)
            plan = _plan_experiment if shard is None else partial(_plan_shard, shard=shard)
            planned = plan(path, exp, out, inputs, external, judge, force, summary, seen)
            if planned is not None:
                pending.append(planned)
        if shard is not None:
            return _judge_shard(pending, judge, force, show_progress, summary, calls, shard)
        outcomes = _run_judge(pending, judge, force, show_progress, summary, calls)
        _write_evaluations(pending, outcomes, gt_source, summary)
    finally:
        for p in reversed(pending):  # the last made first: the first spool removes the folder it made
            if p.spool is not None:
                p.spool.discard()
    note_consolidated(summary, update_consolidated(output_dir))
    return summary


def _claim(claimed: dict[Path, Path], out: Path, path: Path, exp: Experiment | StreamedExperiment) -> None:
    """Two experiments never write one evaluation file."""
    if out in claimed:
        raise InputError(
            f"would be scored as '{exp.experiment_name}', like {claimed[out]} (both into {out.name})",
            file=path,
            fix="rename one of them: a template's file stem is the name of the system it holds",
        )
    claimed[out] = path


def _regenerate_index(summary: EvalSummary, output_dir: Path, experiments: Path | None,
                      judge: JudgeSettings | None) -> EvalSummary:
    """--regenerate-report: only the index is touched; every evaluation on disk is re-read into it."""
    if judge is not None:
        raise UsageError(
            "--judge does nothing with --regenerate-report (it only rebuilds the index)",
            field="--judge",
            fix="run eval with --judge and without --regenerate-report",
        )
    note_consolidated(summary, update_consolidated(output_dir, regenerate=True))
    note_unevaluated(summary, experiments, output_dir)
    return summary


def _load_experiments(
    files: list[Path], gt_paths: list[Path], by_use_case: dict[str, dict[str, GroundTruth]], summary: EvalSummary
) -> tuple[list[tuple[Path, Experiment | StreamedExperiment]], dict[Path, str]]:
    """Read and check every experiment before writing anything; unfilled templates are noted and left out."""
    gt_names = " ".join(p.as_posix() for p in gt_paths)
    loaded: list[tuple[Path, Experiment | StreamedExperiment]] = []
    made_from: dict[Path, str] = {}
    for path in files:
        exp, empty, made_from[path] = load_scorable(path, gt_paths[0] if len(gt_paths) == 1 else None)
        if empty and len(empty) == len(exp.items):
            # A template nobody has filled in is not a system that scored 0: scoring it would rank it as a
            # "0.0" model beside the real ones.
            summary.unfilled.append(path.name)
            continue
        if empty:
            more = f" and {len(empty) - 2} more" if len(empty) > 2 else ""
            summary.empty_responses.append(f"{path.name}: {', '.join(empty[:2])}{more}")
        external = external_of(by_use_case, exp.use_case)
        if by_use_case:
            if not external:
                raise InputError(
                    f"is a {exp.use_case} experiment but the ground truth {gt_names} is "
                    f"{', '.join(sorted(by_use_case))}",
                    file=path,
                    fix="pass ground truth of the same use case with -g, or leave -g out",
                )
            if exp.groundtruth != "embedded" and not any(external_for(item.source, external) for item in exp.items):
                raise InputError(
                    f"has no item that the ground truth {gt_names} covers (items: "
                    f"{', '.join(sorted({i.source for i in exp.items})[:3])}; ground truth: "
                    f"{', '.join(sorted(external)[:3])})",
                    file=path,
                    field="-g/--groundtruth",
                    fix="pass the ground truth made from the documents this experiment ran on, or leave -g out to "
                        "score standalone",
                )
        loaded.append((path, exp))
    return loaded, made_from


def _plan_experiment(
    path: Path,
    exp: Experiment | StreamedExperiment,
    out: Path,
    inputs: dict[str, str],
    external: dict[str, GroundTruth],
    judge: JudgeSettings | None,
    force: bool,
    summary: EvalSummary,
    seen: Seen,
) -> _Pending | None:
    """None when the evaluation is current (noted as skipped); else the experiment scored, ready to write."""
    if judge is not None:
        inputs["judge"] = judge.fingerprint()  # without --judge the inputs (and so existing evaluations) are unchanged
    # Without a judge the existing evaluation's items are not needed: only its header is kept.
    state, existing = freshness(out, Evaluation, inputs) if judge is not None else evaluation_freshness(out, inputs)
    if state is Freshness.STALE and judge is None and _keeps_judge(existing, inputs):
        state = Freshness.CURRENT
    if state is Freshness.CURRENT and not force:
        summary.skipped += 1
        summary.outputs.append(out)
        if existing is not None:
            summary.note_mode(existing)
        if judge is not None:
            remove_judge_journals(out)
        remove_scored_parts(out)
        return None
    if judge is not None and existing is None and not judge_journal_path(out).exists() and any(
        item.status == "ok" for item in exp.items
    ):
        judge.check_key()  # no earlier sample to reuse, so a call will be made: fail before scoring anything
    before = Freshness.STALE if state is Freshness.CURRENT else state
    use_case = usecases.get(exp.use_case)
    # what shards scored: taken as is, each line read from its part when its item comes
    scored = LineIndex() if force else scored_earlier(out, rubric_fingerprint(inputs))
    try:
        if scored:
            summary.notes.append(f"{exp.experiment_name}: {len(scored)} items taken as the shards scored them")
        # eval --match-mode judge: the model's verdicts first
        judge_short_answers(use_case, exp, external, out, seen, wanted=lambda item: item.item_id not in scored)
        if judge is None:
            spool, rated, mode = spool_scores(use_case, out, exp, external, path, seen, scored)
            return _Pending(path, exp, out, inputs, before, existing, None, mode, seen, spool, rated, external)
        items = list(score_items(use_case, exp, external, path, seen, scored=scored))
    finally:
        scored.close()
    return _Pending(path, exp, out, inputs, before, existing, items, mode_of(exp, external, path, seen), seen,
                    external=external)


def _plan_shard(path: Path, exp: Experiment | StreamedExperiment, out: Path, inputs: dict[str, str],
                external: dict[str, GroundTruth], judge: JudgeSettings | None, force: bool, summary: EvalSummary,
                seen: Seen, *, shard: Shard) -> _Pending | None:
    """A shard's eval of one experiment: the items it owns scored into its part (None when the evaluation is
    current); with a judge, what the judge's shard asks about (its rubric items are in the part)."""
    if judge is not None:
        inputs["judge"] = judge.fingerprint()
    state, existing = freshness(out, Evaluation, inputs) if judge is not None else evaluation_freshness(out, inputs)
    if state is Freshness.STALE and judge is None and _keeps_judge(existing, inputs):
        state = Freshness.CURRENT
    if state is Freshness.CURRENT and not force:
        summary.skipped += 1
        return None
    use_case = usecases.get(exp.use_case)
    inputs_fp = rubric_fingerprint(inputs)
    scored = LineIndex() if force else scored_earlier(out, inputs_fp)
    try:
        judge_short_answers(use_case, exp, external, out, seen, shard=shard,
                            wanted=lambda item: shard.owns(item.fingerprint) and item.item_id not in scored)
    finally:
        scored.close()
    done = score_shard(use_case, exp, external, path, out, seen, shard, inputs_fp, force=force)
    summary.notes.append(f"{exp.experiment_name}: shard {shard} scored {done.scored} items, {done.reused} scored "
                         f"earlier ({done.part.name})")
    summary.scorer_errors.extend(f"{exp.experiment_name}: {e}" for e in seen.scorer_errors)
    if judge is None:
        return None
    return _Pending(path, exp, out, inputs, state, existing, [], mode_of(exp, external, path, seen), seen,
                    external=external)


def _run_judge(pending: list[_Pending], judge: JudgeSettings | None, force: bool, show_progress: bool | None,
               summary: EvalSummary, call_options: CallOptions) -> list[JudgeOutcome | None]:
    """Every judge call happens before any evaluation is written, so a missing key or a bad spec touches nothing."""
    if judge is None or not pending:
        return [None] * len(pending)
    judged = judge_experiments(_judge_targets(pending, judge), judge, call_options, reuse=not force,
                               show_progress=show_progress)
    summary.notes.append(judge_note(judge, judged))
    return list(judged)


def _judge_shard(pending: list[_Pending], judge: JudgeSettings | None, force: bool, show_progress: bool | None,
                 summary: EvalSummary, call_options: CallOptions, shard: Shard) -> EvalSummary:
    """A shard's eval after its items are scored: its judge samples, written as its parts; no evaluation file, no
    index."""
    if pending and judge is not None:
        calls, failed = judge_shard(_judge_targets(pending, judge), judge, call_options, shard, reuse=not force,
                                    show_progress=show_progress)
        if failed:
            summary.failed += 1
            summary.failures.append(f"shard {shard}: {failed} judge samples failed after retries; run the same "
                                    "command again to call only them")
        summary.notes.append(f"judge {judge.spec}: {calls} calls made in this run")
    summary.notes.append(f"shard {shard}: its scores{' and judge samples' if judge else ''} are written; once every "
                         "shard has finished, the same command without --shard writes the evaluations")
    return summary


def _write_evaluations(pending: list[_Pending], outcomes: list[JudgeOutcome | None], gt_source: str,
                       summary: EvalSummary) -> None:
    for p, outcome in zip(pending, outcomes, strict=True):
        evaluation = _evaluate(p, gt_source, outcome)
        if p.spool is not None:
            p.spool.commit(evaluation)
        else:  # the judged items, one at a time: write_artifact's bytes without its dict and bytes of every item
            write_streamed(p.out, evaluation.model_copy(update={"items": []}), {"items": evaluation.items})
        summary.count(p.before)
        summary.outputs.append(p.out)
        summary.note_mode(evaluation)
        summary.scorer_errors.extend(f"{p.experiment.experiment_name}: {e}" for e in p.seen.scorer_errors)
        summary.notes.extend(filter(None, [extra_line(evaluation)]))  # eval --scorer
        remove_scored_parts(p.out)
        if outcome is None:
            continue
        if outcome.complete:
            remove_judge_journals(p.out)
        else:
            summary.failed += 1
            summary.failures.append(
                f"{p.experiment.experiment_name}: {outcome.summary.failed_samples} judge calls failed after retries "
                "(see the judge samples' errors); run the same command again to call only them"
            )
