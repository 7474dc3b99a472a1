"""`import-results`: another tool's results (an Inspect log, a promptfoo results file, lm-eval sample files) into
gaia-eval's artifacts: one qa ground truth (each sample's input as the question, its targets as the expected
answer) and one experiment per tool, task and model (and epoch), the tool's own scores and everything else it
recorded kept on each item, so eval, meta-eval, annotate, report and the viewer work on them unchanged.

The samples are gone through twice, never held whole: first for the ground truth and the checks (the tool's
headline figures are recomputed from the items, and the import fails if they do not agree, so what was imported is
what the tool scored), then an experiment's items are spooled to its file as they are read. Nothing is written
before every check passed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from gaia_eval import usecases
from gaia_eval.artifacts.base import Usage
from gaia_eval.artifacts.experiment import (
    Experiment,
    ExperimentSpec,
    ExperimentTotals,
    ImportedItem,
    ImportedRun,
    ImportedScore,
    ItemResult,
    experiment_file,
    safe_name,
)
from gaia_eval.artifacts.groundtruth import GroundTruth, Provenance, QAPair, SourceDocument
from gaia_eval.artifacts.names import NameClaims, file_stem
from gaia_eval.artifacts.store import fingerprint, fingerprint_bytes, fingerprint_file
from gaia_eval.artifacts.streamed import ListSpool
from gaia_eval.errors import InputError
from gaia_eval.interop.detect import read_results
from gaia_eval.interop.records import ForeignRun, ForeignSample
from gaia_eval.scoring.rubric import IMPORTED_PROVIDER
from gaia_eval.stages.common import StageSummary, ensure_output_dir
from gaia_eval.stages.imports.groundtruth import write_groundtruth
from gaia_eval.stages.imports.restore import plan_carried, split_exported, write_carried
from gaia_eval.stages.imports.tally import imported_totals

QUESTION_ID = "answer"  # each imported sample is one document with one question: `<task>/<sample id>#answer`
MEAN_METRICS = ("accuracy", "mean", "pass_rate")  # headline figures that are the mean of the items' values


@dataclass
class _Checked:
    """What the first pass learns of a run: its epochs and each scorer's values (for its headline figures)."""

    epochs: set[int] = field(default_factory=set)
    values: dict[str, list[float | None]] = field(default_factory=dict)


def run_import_results(
    paths: list[Path], output_dir: Path, *, tool: str | None = None, target_var: str | None = None
) -> StageSummary:
    """Ground truth into `output_dir/groundtruth` and experiments into `output_dir/experiments`, from every results
    file named (or found in a folder named). `tool` forces the format ("inspect", "promptfoo", "lm-eval");
    otherwise each file says which it is; `target_var`: the promptfoo variable holding the expected answer."""
    summary = StageSummary("import-results")
    restored, paths = split_exported(list(paths)) if tool in (None, "inspect") else ([], list(paths))
    planned = plan_carried(restored, Path(output_dir))  # logs gaia-eval exported: their files come back as they were
    runs = [(run.file or path, run) for path in map(Path, paths)
            for run in read_results(path, tool, target_var=target_var)]
    if not runs:
        ensure_output_dir(Path(output_dir))
        write_carried(restored, planned, summary)
        return summary
    use_case = usecases.default_for("answer")
    groundtruth: dict[str, GroundTruth] = {}
    checked = [_first_pass(path, run, use_case, groundtruth) for path, run in runs]
    names = _experiment_names(runs, checked)
    for (path, run), seen in zip(runs, checked, strict=True):
        summary.notes.extend(_check_aggregates(path, run, seen))
    out = Path(output_dir)
    ensure_output_dir(out)
    write_groundtruth(list(groundtruth.values()), use_case, out / "groundtruth", summary)
    summary.made, summary.outputs = 0, []  # counted as one ground truth below, not one file per sample
    write_carried(restored, planned, summary)
    summary.notes.append(f"ground truth: {len(groundtruth)} samples -> {out / 'groundtruth'}")
    for (path, run), seen in zip(runs, checked, strict=True):
        for epoch in sorted(seen.epochs):
            name = names[(id(run), epoch)]
            target, count = _write_experiment(out / "experiments", name, path, run, epoch, groundtruth, use_case)
            summary.made += 1
            summary.outputs.append(target)
            summary.notes.append(f"experiment '{name}': {count} items -> {target}")
    summary.notes.append(f"next: gaia-eval eval -d {out / 'experiments'} -g "
                         f"{out / 'groundtruth' / f'consolidated_{use_case}_groundtruth.json'} -o {out / 'eval'}")
    return summary


def _document_id(run: ForeignRun, sample: ForeignSample) -> str:
    return f"{run.task}/{sample.sample_id}"


def _first_pass(path: Path, run: ForeignRun, use_case: str, groundtruth: dict[str, GroundTruth]) -> _Checked:
    """Each sample's ground truth (its input and targets, the same in every run that has it), its epoch and its
    scores' values."""
    seen = _Checked()
    file_fp = fingerprint_file(path)
    ids: set[tuple[str, int]] = set()
    for line, sample in enumerate(run.read_samples(), 1):
        if (sample.sample_id, sample.epoch) in ids:  # two items of one id in an experiment: one would hide the other
            raise InputError(f"sample '{sample.sample_id}' of {run.task} ({run.model}) appears twice in epoch "
                             f"{sample.epoch}", file=path, field="id",
                             fix="give every sample of a run its own id (ids are compared as text: 5 and '5' are one)")
        ids.add((sample.sample_id, sample.epoch))
        seen.epochs.add(sample.epoch)
        for score in sample.scores:
            seen.values.setdefault(score.name, []).append(score.value)
        if not sample.targets:
            raise InputError(f"sample '{sample.sample_id}' of {run.task} has no target (expected answer)",
                             file=path, field="target",
                             fix="give every sample a target; gaia-eval scores answers against expected answers")
        doc = _document_id(run, sample)
        gt = GroundTruth(
            use_case=use_case, item_id=doc, method=f"imported:{run.tool}",
            source=SourceDocument(path=f"{path.name}#{doc}", fingerprint=fingerprint_bytes(sample.input.encode()),
                                  text=sample.input),
            # every target is an answer the tool accepts (Inspect's includes() any of a list): any may match
            qa_pairs=[QAPair(id=QUESTION_ID, query=sample.input, answer=sample.targets[0], answer_type="string",
                             other_answers=sample.targets[1:])],
            provenance=Provenance(file=path.as_posix(), fingerprint=file_fp, line=line),
        )
        known = groundtruth.setdefault(doc, gt)
        if (known.source.text, known.qa_pairs) != (gt.source.text, gt.qa_pairs):
            raise InputError(f"sample '{sample.sample_id}' of {run.task} has another input or target than in "
                             f"{known.provenance.file if known.provenance else 'another file'}", file=path,
                             field="input", fix="import results of one version of a task together, or each apart")
    if not seen.epochs:
        raise InputError(f"{run.task} holds no samples", file=path, fix="import a log of a run that scored samples")
    return seen


def _experiment_names(runs: list[tuple[Path, ForeignRun]], checked: list[_Checked]) -> dict[tuple[int, int], str]:
    """`<tool> <task>: <model>` (`(epoch K)` when there are several), no two on one file name."""
    claims = NameClaims("experiment", ".experiment.json")
    names = {}
    for (path, run), seen in zip(runs, checked, strict=True):
        for epoch in seen.epochs:
            name = f"{run.tool} {run.task}: {run.model}" + (f" (epoch {epoch})" if len(seen.epochs) > 1 else "")
            claims.claim(name, file_stem(name, what="experiment name", style="slug", file=path))
            names[(id(run), epoch)] = name
    return names


def _write_experiment(folder: Path, name: str, path: Path, run: ForeignRun, epoch: int,
                      groundtruth: dict[str, GroundTruth], use_case: str) -> tuple[Path, int]:
    """The experiment's items spooled as they are read, then its file written whole (atomically)."""
    target = experiment_file(folder, name)
    spool = ListSpool(target, "items")
    light: list[ItemResult] = []  # what the totals need, without the samples' records
    sources: dict[str, SourceDocument] = {}
    try:
        for sample in run.read_samples():
            if sample.epoch != epoch:
                continue
            gt = groundtruth[_document_id(run, sample)]
            item = _item(run, sample, gt)
            plain = item.model_dump(mode="json")
            # the sample's record as read: JSON already, so not validated and dumped again (a third of the time)
            plain["imported"]["extra"] = sample.extra
            spool.add(plain)
            light.append(item.model_copy(update={"imported": None, "answer": None, "query": None,
                                                 "groundtruth_answer": None}))
            sources[gt.item_id] = gt.source
        now = datetime.now(timezone.utc)
        header = Experiment.model_construct(
            **Experiment(
                inputs={"results": fingerprint_file(path)}, experiment_name=name, safe_name=safe_name(name),
                use_case=use_case, spec=ExperimentSpec(name=name, provider=IMPORTED_PROVIDER, model=run.model),
                input_path=path.as_posix(), groundtruth="embedded", pricing="imported", sources=sources,
                items=light[:1], totals=_totals(light), started_at=now, finished_at=now,
                imported=ImportedRun(tool=run.tool, task=run.task, model=run.model, file=path.as_posix(),
                                     aggregates=run.aggregates, extra=run.extra),
            ).__dict__ | {"items": []}
        )
        spool.commit(header)
    except BaseException:
        spool.discard()
        raise
    return target, len(light)


def _totals(items: list[ItemResult]) -> ExperimentTotals:
    return imported_totals(items)


def _item(run: ForeignRun, sample: ForeignSample, gt: GroundTruth) -> ItemResult:
    pair = (gt.qa_pairs or [])[0]
    return ItemResult(
        item_id=f"{gt.item_id}#{QUESTION_ID}",
        source=gt.item_id,
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
        ),  # `extra` is added to the item's JSON as it is spooled
    )


def _check_aggregates(path: Path, run: ForeignRun, seen: _Checked) -> list[str]:
    """The tool's mean-type headline figures recomputed from the imported items: a note when they agree, an error
    when they do not (the import would not be what the tool scored)."""
    notes = []
    for key, stated in sorted(run.aggregates.items()):
        scorer, _, metric = key.rpartition("/")
        values = seen.values.get(scorer)
        if metric not in MEAN_METRICS or not values or any(v is None for v in values):
            continue
        recomputed = sum(v for v in values if v is not None) / len(values)
        if abs(recomputed - stated) > 1e-9 * max(1.0, abs(stated)):
            raise InputError(f"{run.task}: {key} is {stated} in the file but {recomputed} from its {len(values)} "
                             "samples", file=path, field=key,
                             fix="import the whole log (a log of a run that did not finish lists fewer samples)")
        notes.append(f"{run.tool} {run.task} {run.model}: {key} {stated:g} = {recomputed:g} from {len(values)} items")
    return notes
