"""Stage 4, `eval`: score each experiment against ground truth (or standalone) with the deterministic rubric,
optionally also with an LLM judge (see gaia_eval.scoring.judge.core), and keep the evaluations index."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from gaia_eval.artifacts.evaluation import (
    ConsolidatedEvaluations,
    Evaluation,
    EvaluationFileEntry,
    EvaluationSummaryEntry,
    InferenceSummary,
    ItemEvaluation,
    JudgeEntry,
)
from gaia_eval.artifacts.experiment import Experiment, ItemResult
from gaia_eval.artifacts.groundtruth import GroundTruth, Summaries
from gaia_eval.artifacts.store import (
    Freshness,
    fingerprint,
    fingerprint_file,
    freshness,
    read_artifact,
    write_artifact,
)
from gaia_eval.errors import ArtifactError, InputError, UsageError
from gaia_eval.scoring.rubric import grading as rubric
from gaia_eval.scoring.judge.core import JudgeSettings, judge_request
from gaia_eval.scoring.judge.run import JudgeOutcome, JudgeTarget, judge_experiments, judge_journal_path
from gaia_eval.stages.common import StageSummary, check_output_dir, holds_output_lock
from gaia_eval.stages.experiment_inputs import _load_groundtruth_file

CONSOLIDATED_NAME = "consolidated_evaluations_report.json"
EVAL_SUFFIX = ".eval.json"
SCORER = "deterministic"
STANDALONE_NOTE = "standalone — not verified against facts: scores check only what the source document can confirm"
COMPARATIVE_NOTE = "comparative — scored against ground truth"
# Input keys of a judged evaluation; "judge_pending" marks one whose judge calls partly failed, so that it is
# never current and the next run calls (only) the failed samples again.
JUDGE_INPUT_KEYS = ("judge", "judge_pending")


@dataclass
class EvalSummary(StageSummary):
    standalone: int = 0


@dataclass
class _Pending:
    """An experiment whose evaluation is (re)made in this run, already scored by the rubric."""

    path: Path
    experiment: Experiment
    out: Path
    inputs: dict[str, str]
    before: Freshness
    existing: Evaluation | None
    items: list[ItemEvaluation]
    mode: str


def _experiment_files(experiment_dir: Path | None, experiment_file: Path | None) -> tuple[Path, list[Path]]:
    # -f wins over -d (the reference tool's -f was silently ignored because -d had a default).
    if experiment_file is not None:
        path = Path(experiment_file)
        if not path.is_file():
            raise InputError("not found", file=path, fix="check -f/--file, or run `gaia-eval batch-experiment` first")
        return path.parent, [path]
    if experiment_dir is None:
        raise UsageError("no experiments given", fix="pass -d FOLDER or -f FILE.experiment.json")
    root = Path(experiment_dir)
    if not root.is_dir():
        raise InputError("folder not found", file=root, fix="check -d/--directory, or run `gaia-eval batch-experiment` first")
    files = sorted(root.rglob("*.experiment.json"))
    if not files:
        raise InputError("holds no *.experiment.json files", file=root, fix="run `gaia-eval batch-experiment` first")
    return root, files


def _load_external(groundtruth: Path | None) -> tuple[dict[str, GroundTruth], str]:
    if groundtruth is None:
        return {}, "none"
    gts = _load_groundtruth_file(Path(groundtruth))
    return {gt.item_id: gt for gt in gts}, fingerprint_file(Path(groundtruth))


def _expected_summaries(item: ItemResult, external: dict[str, GroundTruth]) -> tuple[Summaries | None, object]:
    if item.groundtruth_summaries is not None:
        return item.groundtruth_summaries, None
    gt = external.get(item.source)
    if gt is not None:
        return gt.summaries, gt.facts
    return None, None


def score_experiment(
    exp: Experiment, external: dict[str, GroundTruth], exp_path: Path
) -> tuple[list[ItemEvaluation], str]:
    """Per-item scores and the mode ("comparative" or "standalone")."""
    from gaia_eval.scoring.rubric.qa import score_qa
    from gaia_eval.scoring.rubric.standalone import score_summaries_standalone
    from gaia_eval.scoring.rubric.summaries import score_summaries

    items: list[ItemEvaluation] = []
    modes: set[str] = set()
    for item in exp.items:
        if item.status == "error":
            items.append(
                ItemEvaluation(
                    item_id=item.item_id,
                    source=item.source,
                    status="error",
                    error=item.error,
                    passed=False if exp.use_case == "qa" else None,
                )
            )
            continue
        if exp.use_case == "qa":
            expected = item.groundtruth_answer
            if expected is None:
                raise InputError(
                    f"qa item '{item.item_id}' has no expected answer",
                    file=exp_path,
                    fix="run batch-experiment on qa ground truth",
                )
            criteria, passed = score_qa(item.answer or "", expected)
            modes.add("comparative")
            items.append(ItemEvaluation(item_id=item.item_id, source=item.source, status="scored", criteria=criteria, passed=passed))
            continue
        answer = item.summaries or Summaries()
        expected_summaries, facts = _expected_summaries(item, external)
        if expected_summaries is not None:
            criteria = score_summaries(answer, expected_summaries, facts)  # type: ignore[arg-type]
            modes.add("comparative")
        else:
            criteria = score_summaries_standalone(answer, exp.sources[item.source].text)
            modes.add("standalone")
        items.append(ItemEvaluation(item_id=item.item_id, source=item.source, status="scored", criteria=criteria))
    if len(modes) > 1:
        raise InputError(
            "has ground truth for some items and not for others",
            file=exp_path,
            fix="pass -g with ground truth covering every item",
        )
    return items, (modes.pop() if modes else ("comparative" if exp.groundtruth == "embedded" or external else "standalone"))


def _evaluate(pending: _Pending, gt_source: str, judged: JudgeOutcome | None) -> Evaluation:
    exp, mode, inputs = pending.experiment, pending.mode, pending.inputs
    criteria_names = rubric.criteria_for(exp.use_case, mode)
    criteria, grade = rubric.aggregate(pending.items, criteria_names, exp.use_case)
    if judged is not None and (not judged.complete or judged.summary.unscored_samples):
        # Not current: the next run asks again for the failed calls and the unusable (unscored) replies.
        inputs = {
            **inputs,
            "judge_pending": f"{judged.summary.failed_samples} judge calls failed, "
            f"{judged.summary.unscored_samples} replies unscored",
        }
    t = exp.totals
    return Evaluation(
        inputs=inputs,
        experiment_name=exp.experiment_name,
        provider=exp.spec.provider,
        model=exp.spec.model,
        use_case=exp.use_case,
        mode=mode,  # type: ignore[arg-type]
        mode_note=_mode_note(mode),
        scorer=f"{SCORER} ({rubric.RUBRIC_VERSION})",
        experiment_file=pending.path.as_posix(),
        experiment_fingerprint=inputs["experiment"],
        groundtruth_source=gt_source if mode == "comparative" else "none",
        items=judged.items if judged is not None else pending.items,
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
        ),
        evaluated_at=datetime.now(timezone.utc),
        judge=judged.summary if judged is not None else None,
    )


def _mode_note(mode: str) -> str:
    return STANDALONE_NOTE if mode == "standalone" else COMPARATIVE_NOTE


def _keeps_judge(existing: Evaluation | None, inputs: dict[str, str]) -> bool:
    """Without --judge, an evaluation judged earlier stays current when everything else is unchanged: running
    eval again must not throw away judgements that were paid for (--force rewrites it without them)."""
    if existing is None or existing.judge is None:
        return False
    return {k: v for k, v in existing.inputs.items() if k not in JUDGE_INPUT_KEYS} == inputs


def _judge_targets(pending: list[_Pending], judge: JudgeSettings, external: dict[str, GroundTruth]) -> list[JudgeTarget]:
    targets = []
    for p in pending:
        exp = p.experiment
        requests = {}
        for item in exp.items:
            if item.status == "error":
                continue  # Poor for the judge too, as for the rubric; nothing to ask
            reference = None
            if exp.use_case != "qa" and p.mode == "comparative":
                reference, _ = _expected_summaries(item, external)
            requests[item.item_id] = judge_request(judge, exp.use_case, p.mode, item, exp.sources[item.source].text, reference)
        targets.append(
            JudgeTarget(
                evaluation_file=p.out,
                use_case=exp.use_case,
                mode=p.mode,
                mode_note=_mode_note(p.mode),
                rubric_criteria=rubric.criteria_for(exp.use_case, p.mode),
                items=p.items,
                requests=requests,
                previous=p.existing,
            )
        )
    return targets


def _judge_note(judge: JudgeSettings, outcomes: list[JudgeOutcome]) -> str:
    calls = sum(o.calls_made for o in outcomes)
    unscored = sum(o.summary.unscored_items for o in outcomes)
    costs = [o.summary.cost_usd for o in outcomes]
    if all(o.summary.cost_status == "local" for o in outcomes):
        cost = "$0 (local)"
    elif any(c is None for c in costs):
        cost = "unpriced"
    else:
        cost = f"${sum(c or 0.0 for c in costs):.4f}"
    return (
        f"judge {judge.spec}: {calls} calls made in this run; judge cost of these evaluations {cost} "
        f"(kept apart from model cost); {unscored} unscored item{'s' if unscored != 1 else ''}"
    )


@holds_output_lock()
def run_eval(
    *,
    experiment_dir: Path | None = None,
    experiment_file: Path | None = None,
    output_dir: Path = Path("evaluation"),
    groundtruth: Path | None = None,
    force: bool = False,
    incremental_update: bool = False,
    regenerate_report: bool = False,
    judge: JudgeSettings | None = None,
    show_progress: bool | None = None,
) -> EvalSummary:
    """Score every experiment with the rubric and, when `judge` is given, with the LLM judge too. Up-to-date
    evaluations are skipped; judge samples already paid for (earlier file or journal) are reused."""
    output_dir = Path(output_dir)
    summary = EvalSummary("eval")
    if incremental_update or regenerate_report:
        if judge is not None:
            raise UsageError(
                "--judge does nothing with --incremental-update or --regenerate-report (they only rebuild the index)",
                field="--judge",
                fix="run eval with --judge and without those options",
            )
        # Only the index is touched: evaluations already on disk are (re)read into it.
        path = update_consolidated(output_dir, regenerate=regenerate_report)
        summary.notes.append(f"consolidated: {path}")
        return summary

    root, files = _experiment_files(experiment_dir, experiment_file)
    external, gt_fp = _load_external(groundtruth)
    gt_source = f"external:{Path(groundtruth).as_posix()}" if groundtruth is not None else "embedded"
    # Read and check every experiment before writing anything.
    loaded: list[tuple[Path, Experiment]] = []
    for path in files:
        exp = read_artifact(path, Experiment)
        if external:
            gt_use_case = next(iter(external.values())).use_case
            if gt_use_case != exp.use_case and not (exp.use_case in ("summarization", "email") and gt_use_case in ("summarization", "email")):
                raise InputError(
                    f"is a {exp.use_case} experiment but the ground truth {groundtruth} is {gt_use_case}",
                    file=path,
                    fix="pass ground truth of the same use case with -g, or leave -g out",
                )
        loaded.append((path, exp))
    check_output_dir(output_dir)

    scorer_fp = fingerprint({"scorer": SCORER, "rubric": rubric.RUBRIC_VERSION})
    judge_fp = judge.fingerprint() if judge is not None else None
    pending: list[_Pending] = []
    for path, exp in loaded:
        rel = path.relative_to(root) if root in path.parents else Path(path.name)
        out = output_dir / rel.with_name(rel.name.removesuffix(".json") + EVAL_SUFFIX)
        inputs = {
            "experiment": fingerprint_file(path),
            "groundtruth": gt_fp if external else "embedded" if exp.groundtruth == "embedded" else "none",
            "scorer": scorer_fp,
        }
        if judge_fp is not None:
            inputs["judge"] = judge_fp  # without --judge the inputs (and so existing evaluations) are unchanged
        state, existing = freshness(out, Evaluation, inputs)
        if state is Freshness.STALE and judge is None and _keeps_judge(existing, inputs):
            state = Freshness.CURRENT
        if state is Freshness.CURRENT and not force:
            summary.skipped += 1
            summary.outputs.append(out)
            if existing is not None and existing.mode == "standalone":
                summary.standalone += 1
            if judge is not None:
                judge_journal_path(out).unlink(missing_ok=True)
            continue
        items, mode = score_experiment(exp, external, path)
        before = Freshness.STALE if state is Freshness.CURRENT else state
        pending.append(_Pending(path, exp, out, inputs, before, existing, items, mode))

    # Every judge call happens before any evaluation is written, so a missing key or a bad spec touches nothing.
    outcomes: list[JudgeOutcome | None] = [None] * len(pending)
    if judge is not None and pending:
        judged = judge_experiments(
            _judge_targets(pending, judge, external), judge, reuse=not force, show_progress=show_progress
        )
        outcomes = list(judged)
        summary.notes.append(_judge_note(judge, judged))

    for p, outcome in zip(pending, outcomes):
        evaluation = _evaluate(p, gt_source, outcome)
        write_artifact(p.out, evaluation)
        summary.count(p.before)
        summary.outputs.append(p.out)
        if evaluation.mode == "standalone":
            summary.standalone += 1
        if outcome is None:
            continue
        if outcome.complete:
            judge_journal_path(p.out).unlink(missing_ok=True)
        else:
            summary.failed += 1
            summary.failures.append(
                f"{p.experiment.experiment_name}: {outcome.summary.failed_samples} judge calls failed after retries "
                "(see the judge samples' errors); run the same command again to call only them"
            )
    path = update_consolidated(output_dir)
    summary.notes.append(f"consolidated: {path}")
    return summary


def update_consolidated(output_dir: Path, *, regenerate: bool = False) -> Path:
    """One entry per evaluation file, all of one shape. Unchanged files (same content hash) keep their entry and
    are not re-parsed; `regenerate` re-reads every file. Entries of deleted files are dropped."""
    output_dir = Path(output_dir)
    target = output_dir / CONSOLIDATED_NAME
    previous: ConsolidatedEvaluations | None = None
    if target.exists() and not regenerate:
        try:
            previous = read_artifact(target, ConsolidatedEvaluations)
        except (ArtifactError, InputError):
            previous = None
    old_files = {f.file_path: f for f in previous.evaluation_files} if previous else {}
    old_entries = {e.file_path: e for e in previous.evaluations} if previous else {}
    now = datetime.now(timezone.utc)
    files: list[EvaluationFileEntry] = []
    entries: list[EvaluationSummaryEntry] = []
    for path in sorted(output_dir.rglob("*" + EVAL_SUFFIX)):
        rel = path.relative_to(output_dir).as_posix()
        fp = fingerprint_file(path)
        old = old_files.get(rel)
        if old is not None and old.fingerprint == fp and rel in old_entries:
            files.append(old)
            entries.append(old_entries[rel])
            continue
        try:
            ev = read_artifact(path, Evaluation)
        except (ArtifactError, InputError):
            continue
        files.append(
            EvaluationFileEntry(
                file_path=rel, fingerprint=fp, added_at=old.added_at if old else now, last_modified=now
            )
        )
        entries.append(
            EvaluationSummaryEntry(
                experiment_name=ev.experiment_name,
                file_path=rel,
                provider=ev.provider,
                model=ev.model,
                use_case=ev.use_case,
                mode=ev.mode,
                grade=ev.grade,
                inference=ev.inference,
                judge=_judge_entry(ev),
            )
        )
    write_artifact(
        target,
        ConsolidatedEvaluations(inputs={f.file_path: f.fingerprint for f in files}, evaluation_files=files, evaluations=entries),
    )
    return target


def _judge_entry(ev: Evaluation) -> JudgeEntry | None:
    if ev.judge is None:
        return None
    j = ev.judge
    return JudgeEntry(
        spec=j.spec,
        mode=j.mode,
        samples_per_item=j.samples_per_item,
        grade=j.grade,
        unscored_items=j.unscored_items,
        usage=j.usage,
        cost_usd=j.cost_usd,
        cost_status=j.cost_status,
    )
