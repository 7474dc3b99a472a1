"""The evaluations index of an eval output folder (consolidated_evaluations_report.json): one entry per
evaluation file, re-read only when the file changed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from gaia_eval.artifacts.evaluation import (
    ConsolidatedEvaluations,
    Evaluation,
    EvaluationFileEntry,
    EvaluationSummaryEntry,
    JudgeEntry,
)
from gaia_eval.artifacts.store import fingerprint_file, read_artifact, write_artifact
from gaia_eval.artifacts.streamed import read_evaluation_header
from gaia_eval.errors import ArtifactError, InputError

CONSOLIDATED_NAME = "consolidated_evaluations_report.json"
EVAL_SUFFIX = ".eval.json"


@dataclass
class Consolidation:
    path: Path
    entries: int
    reread: int
    damaged: list[str]
    regenerated: bool = False


def update_consolidated(output_dir: Path, *, regenerate: bool = False) -> Consolidation:
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
    damaged: list[str] = []
    reread = 0
    for path in sorted(output_dir.rglob("*" + EVAL_SUFFIX)):
        rel = path.relative_to(output_dir).as_posix()
        fp = fingerprint_file(path)
        old = old_files.get(rel)
        if old is not None and old.fingerprint == fp and rel in old_entries:
            files.append(old)
            entries.append(old_entries[rel])
            continue
        try:
            ev = read_evaluation_header(path)
        except (ArtifactError, InputError) as exc:
            damaged.append(exc.one_line())
            continue
        reread += 1
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
        ConsolidatedEvaluations(
            inputs={f.file_path: f.fingerprint for f in files}, evaluation_files=files, evaluations=entries
        ),
    )
    return Consolidation(target, len(entries), reread, damaged, regenerate)


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
