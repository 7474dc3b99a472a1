"""`import-results`: another tool's results (an Inspect log, a promptfoo results file, lm-eval sample files) into
gaia-eval's artifacts: one qa ground truth (each sample's input as the question, its targets as the expected
answer) and one experiment per task and model (and epoch), the tool's own scores and everything else it recorded
kept on each item, so eval, meta-eval, annotate, report and the viewer work on them unchanged.

Everything is read and checked before anything is written; the tool's headline figures are recomputed from the
imported items and the import fails if they do not agree, so what was imported is what the tool scored.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from gaia_eval import usecases
from gaia_eval.artifacts.base import Usage
from gaia_eval.artifacts.experiment import (
    Experiment,
    ExperimentSpec,
    ImportedItem,
    ImportedRun,
    ImportedScore,
    ItemResult,
    experiment_file,
    safe_name,
)
from gaia_eval.artifacts.groundtruth import GroundTruth, Provenance, QAPair, SourceDocument
from gaia_eval.artifacts.names import NameClaims, file_stem
from gaia_eval.artifacts.store import fingerprint, fingerprint_bytes, fingerprint_file, write_artifact
from gaia_eval.errors import InputError
from gaia_eval.interop.detect import read_results
from gaia_eval.interop.records import ForeignRun, ForeignSample
from gaia_eval.scoring.rubric import IMPORTED_PROVIDER
from gaia_eval.stages.common import StageSummary, ensure_output_dir
from gaia_eval.stages.imports.groundtruth import write_groundtruth
from gaia_eval.stages.imports.outputs import imported_totals

QUESTION_ID = "answer"  # each imported sample is one document with one question: `<task>/<sample id>#answer`


def run_import_results(
    paths: list[Path], output_dir: Path, *, tool: str | None = None, target_var: str | None = None
) -> StageSummary:
    """Ground truth into `output_dir/groundtruth` and experiments into `output_dir/experiments`, from every results
    file named (or found in a folder named). `tool` forces the format ("inspect", "promptfoo", "lm-eval");
    otherwise each file says which it is; `target_var`: the promptfoo variable holding the expected answer."""
    summary = StageSummary("import-results")
    runs = [(run.file or path, run) for path in map(Path, paths)
            for run in read_results(path, tool, target_var=target_var)]
    if not runs:
        raise InputError("holds no results", file=paths[0] if paths else None,
                         fix="pass an Inspect .eval/.json log, a promptfoo results .json, or lm-eval samples_*.jsonl")
    use_case = usecases.default_for("answer")
    groundtruth = _groundtruth(runs, use_case)
    experiments = [_experiment(path, run, epoch, groundtruth, use_case)
                   for path, run in runs for epoch in sorted({s.epoch for s in run.samples})]
    _claim_names(experiments, runs[0][0])
    for path, run in runs:
        summary.notes.extend(_check_aggregates(path, run))
    out = Path(output_dir)
    ensure_output_dir(out)
    write_groundtruth(list(groundtruth.values()), use_case, out / "groundtruth", summary)
    summary.made, summary.outputs = 0, []  # counted as one ground truth below, not one file per sample
    summary.notes.append(f"ground truth: {len(groundtruth)} samples -> {out / 'groundtruth'}")
    ensure_output_dir(out / "experiments")
    for experiment in experiments:
        target = experiment_file(out / "experiments", experiment.experiment_name)
        write_artifact(target, experiment)
        summary.made += 1
        summary.outputs.append(target)
        summary.notes.append(f"experiment '{experiment.experiment_name}': {len(experiment.items)} items -> {target}")
    summary.notes.append(f"next: gaia-eval eval -d {out / 'experiments'} -g "
                         f"{out / 'groundtruth' / f'consolidated_{use_case}_groundtruth.json'} -o {out / 'eval'}")
    return summary


def _document_id(run: ForeignRun, sample: ForeignSample) -> str:
    return f"{run.task}/{sample.sample_id}"


def _groundtruth(runs: list[tuple[Path, ForeignRun]], use_case: str) -> dict[str, GroundTruth]:
    """One ground truth per (task, sample): its input and targets, the same in every run that has it."""
    built: dict[str, GroundTruth] = {}
    for path, run in runs:
        file_fp = fingerprint_file(path)
        for line, sample in enumerate(run.samples, 1):
            doc = _document_id(run, sample)
            if not sample.targets:
                raise InputError(f"sample '{sample.sample_id}' of {run.task} has no target (expected answer)",
                                 file=path, field="target",
                                 fix="give every sample a target; gaia-eval scores answers against expected answers")
            pair = QAPair(id=QUESTION_ID, query=sample.input, answer=sample.targets[0], answer_type="string")
            gt = GroundTruth(
                use_case=use_case, item_id=doc, method=f"imported:{run.tool}",
                source=SourceDocument(path=f"{path.name}#{doc}", fingerprint=fingerprint_bytes(sample.input.encode()),
                                      text=sample.input),
                qa_pairs=[pair], provenance=Provenance(file=path.as_posix(), fingerprint=file_fp, line=line),
                references=sample.targets[1:] or None,
            )
            known = built.get(doc)
            if known is None:
                built[doc] = gt
            elif (known.source.text, known.qa_pairs, known.references) != (gt.source.text, gt.qa_pairs, gt.references):
                raise InputError(f"sample '{sample.sample_id}' of {run.task} has another input or target than in "
                                 f"{known.provenance.file if known.provenance else 'another file'}", file=path,
                                 field="input", fix="import results of one version of the task together")
    return built


def _experiment(path: Path, run: ForeignRun, epoch: int, groundtruth: dict[str, GroundTruth],
                use_case: str) -> Experiment:
    epochs = any(s.epoch != 1 for s in run.samples)
    name = f"{run.tool} {run.task}: {run.model}" + (f" (epoch {epoch})" if epochs else "")
    items = [_item(run, sample, groundtruth[_document_id(run, sample)]) for sample in run.samples
             if sample.epoch == epoch]
    now = datetime.now(timezone.utc)
    return Experiment(
        inputs={"results": fingerprint_file(path)},
        experiment_name=name,
        safe_name=safe_name(name),
        use_case=use_case,
        spec=ExperimentSpec(name=name, provider=IMPORTED_PROVIDER, model=run.model),
        input_path=path.as_posix(),
        groundtruth="embedded",
        pricing="imported",
        sources={item.source: groundtruth[item.source].source for item in items},
        items=items,
        totals=imported_totals(items),
        started_at=now,
        finished_at=now,
        imported=ImportedRun(tool=run.tool, task=run.task, model=run.model, file=path.as_posix(),
                             aggregates=run.aggregates, extra=run.extra),
    )


def _item(run: ForeignRun, sample: ForeignSample, gt: GroundTruth) -> ItemResult:
    pair = (gt.qa_pairs or [])[0]
    doc = gt.item_id
    return ItemResult(
        item_id=f"{doc}#{QUESTION_ID}",
        source=doc,
        fingerprint=fingerprint([run.tool, run.task, run.model, sample.sample_id, sample.epoch, sample.output]),
        status="error" if sample.error else "ok",
        error=sample.error,
        query=pair.query,
        answer=sample.output,
        groundtruth_answer=pair,
        usage=Usage(input_tokens=sample.input_tokens, output_tokens=sample.output_tokens),
        cost_usd=sample.cost_usd,
        cost_status="priced" if sample.cost_usd is not None else "unpriced",
        latency_s=sample.latency_s or 0.0,
        time_to_success_s=sample.latency_s or 0.0,
        imported=ImportedItem(
            tool=run.tool, sample_id=sample.sample_id, epoch=sample.epoch,
            scores=[ImportedScore(name=s.name, value=s.value, passed=s.passed, raw=s.raw, explanation=s.explanation)
                    for s in sample.scores],
            extra=sample.extra,
        ),
    )


def _claim_names(experiments: list[Experiment], path: Path) -> None:
    claims = NameClaims("experiment", ".experiment.json")
    for experiment in experiments:
        claims.claim(experiment.experiment_name,
                     file_stem(experiment.experiment_name, what="experiment name", style="slug", file=path))


def _check_aggregates(path: Path, run: ForeignRun) -> list[str]:
    """The tool's mean-type headline figures recomputed from the imported items: a note when they agree, an error
    when they do not (the import would not be what the tool scored)."""
    notes = []
    for key, stated in sorted(run.aggregates.items()):
        scorer, _, metric = key.rpartition("/")
        if metric not in ("accuracy", "mean", "pass_rate"):
            continue
        values = [s.value for sample in run.samples for s in sample.scores if s.name == scorer]
        if not values or any(v is None for v in values):
            continue
        recomputed = sum(v for v in values if v is not None) / len(values)
        if abs(recomputed - stated) > 1e-9 * max(1.0, abs(stated)):
            raise InputError(f"{run.task}: {key} is {stated} in the file but {recomputed} from its {len(values)} "
                             "samples", file=path, field=key,
                             fix="import the whole log (a log of a run that did not finish lists fewer samples)")
        notes.append(f"{run.tool} {run.task} {run.model}: {key} {stated:g} = {recomputed:g} from {len(values)} items")
    return notes
