"""`import-results` of an Inspect log that `report --format inspect` wrote from a gaia-eval evaluation: the
artifacts it carries (the experiment's header and sources and the ground-truth files in the log's metadata, each
item's record in its sample's metadata) are written back as they were, in canonical JSON, at the paths the
evaluation recorded (relative to the output folder; a recorded absolute path lands in `experiments/` or
`groundtruth/`). `eval` run in the output folder with the original command then gives the original evaluation's
bytes, `evaluated_at` aside. Everything is checked before anything is written.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from gaia_eval.artifacts.experiment import EXPERIMENT_SUFFIX, Experiment
from gaia_eval.artifacts.groundtruth import ConsolidatedGroundTruth, GroundTruth
from gaia_eval.artifacts.names import file_stem
from gaia_eval.artifacts.store import atomic_write_bytes, canonical_json, parse_artifact
from gaia_eval.errors import InputError
from gaia_eval.interop.inspect_log import is_inspect_log, read_log
from gaia_eval.reporting.inspect_export import CARRIED_FORMAT, CARRIED_KEY
from gaia_eval.stages.common import StageSummary

RESULT_SUFFIXES = (".json", ".eval", ".jsonl")  # what a folder given to import-results may hold
FIX = "export the evaluation again with `gaia-eval report --format inspect`"


@dataclass
class Carried:
    """What an exported log carries: the files to write back, by where they go (relative to the output folder)."""

    log: Path
    files: dict[PurePosixPath, Any]
    experiment_name: str
    items: int


def carried_artifacts(path: Path) -> tuple[dict[str, Any], Iterator[dict[str, Any]]] | None:
    """The `gaia_eval` block of an Inspect log's metadata and its samples; None for any other file (a log another
    tool wrote, a promptfoo file...)."""
    path = Path(path)
    if path.suffix not in (".json", ".eval") or not path.is_file():
        return None
    with open(path, "rb") as fh:
        head = fh.read(4096)
    if not is_inspect_log(path, head):
        return None
    try:
        header, samples = read_log(path)
    except InputError:
        return None
    block = ((header.get("eval") or {}).get("metadata") or {}).get(CARRIED_KEY)
    return (block, samples) if isinstance(block, dict) else None


def _place(recorded: Any, folder: str, path: Path, field: str) -> PurePosixPath:
    """Where a recorded path goes under the output folder: as recorded when it is relative and plain, else its
    name in `folder`; every part passes the file-name policy."""
    if not isinstance(recorded, str) or not recorded:
        raise InputError("names no file", file=path, field=field, fix=FIX)
    given = PurePosixPath(recorded.replace("\\", "/"))
    parts = given.parts if not given.is_absolute() and ".." not in given.parts else (folder, given.name)
    for part in parts:
        if file_stem(part, what="file name", file=path, field=field) != part:
            parts = (folder, given.name)
            break
    if file_stem(parts[-1], what="file name", file=path, field=field) != parts[-1]:
        raise InputError(f"'{recorded}' is no usable file name", file=path, field=field, fix=FIX)
    return PurePosixPath(*parts)


def read_carried(path: Path, block: dict[str, Any], samples: Iterator[dict[str, Any]]) -> Carried:
    """The experiment (header + each sample's item, in the log's order) and the ground truth, each checked as the
    artifact it is."""
    if block.get("format") != CARRIED_FORMAT:
        raise InputError(f"carries gaia-eval artifacts of format {block.get('format')!r}, not {CARRIED_FORMAT}",
                         file=path, field=f"eval.metadata.{CARRIED_KEY}.format",
                         fix="import it with the gaia-eval version that exported it")
    items = []
    for n, sample in enumerate(samples):
        item = ((sample.get("metadata") or {}).get(CARRIED_KEY) or {}).get("item")
        if not isinstance(item, dict):
            raise InputError(f"sample {sample.get('id')!r} carries no gaia-eval item", file=path,
                             field=f"samples[{n}].metadata.{CARRIED_KEY}.item", fix=FIX)
        items.append(item)
    header = block.get("experiment")
    experiment = {**(header if isinstance(header, dict) else {}), "items": items}
    checked = parse_artifact(path, experiment, Experiment)
    where = _place(block.get("experiment_file"), "experiments", path, f"eval.metadata.{CARRIED_KEY}.experiment_file")
    if not where.name.endswith(EXPERIMENT_SUFFIX):
        raise InputError(f"'{where.name}' is no experiment file name (*{EXPERIMENT_SUFFIX})", file=path,
                         field=f"eval.metadata.{CARRIED_KEY}.experiment_file", fix=FIX)
    files: dict[PurePosixPath, Any] = {where: experiment}
    for n, entry in enumerate(block.get("groundtruth") or []):
        field = f"eval.metadata.{CARRIED_KEY}.groundtruth[{n}]"
        content = entry.get("content") if isinstance(entry, dict) else None
        kind = content.get("kind") if isinstance(content, dict) else None
        if kind == "consolidated_groundtruth":
            parse_artifact(path, content, ConsolidatedGroundTruth)
        elif kind == "groundtruth":
            parse_artifact(path, content, GroundTruth)
        else:
            raise InputError(f"ground truth of kind {kind!r}", file=path, field=field, fix=FIX)
        files[_place(entry.get("file"), "groundtruth", path, field)] = content
    return Carried(log=path, files=files, experiment_name=checked.experiment_name, items=len(items))


def plan_carried(restored: list[Carried], out: Path) -> dict[Path, bytes]:
    """The files to write and their bytes, checked before anything is written: two logs writing different content
    to one file, or a file already there with other content (never overwritten), are refused."""
    planned: dict[Path, tuple[bytes, Path]] = {}
    for carried in restored:
        for where, content in carried.files.items():
            data = canonical_json(content)
            target = Path(out).joinpath(*where.parts)
            known = planned.setdefault(target, (data, carried.log))
            if known[0] != data:
                raise InputError(f"would write {where} with other content than {known[1]} does", file=carried.log,
                                 fix="import these logs into different folders (-o)")
            if target.is_file() and target.read_bytes() != data:
                raise InputError(f"would overwrite {target}, which holds other content", file=carried.log,
                                 fix="import into a new folder (-o), or move that file away first")
    return {target: data for target, (data, _) in planned.items()}


def write_carried(restored: list[Carried], planned: dict[Path, bytes], summary: StageSummary) -> None:
    for target, data in planned.items():
        summary.outputs.append(target)
        summary.made += atomic_write_bytes(target, data)
    for carried in restored:
        files = ", ".join(str(where) for where in carried.files)
        summary.notes.append(f"{carried.log}: experiment '{carried.experiment_name}' ({carried.items} items) "
                             f"restored as gaia-eval wrote it: {files}")


def split_exported(paths: list[Path]) -> tuple[list[Carried], list[Path]]:
    """The logs among `paths` that carry gaia-eval artifacts (read and checked), and the other paths. A folder
    is either all such logs or none: one that mixes them with other results is refused."""
    restored: list[Carried] = []
    others: list[Path] = []
    for path in map(Path, paths):
        files = sorted(p for p in path.rglob("*") if p.suffix in RESULT_SUFFIXES and p.is_file()) \
            if path.is_dir() else [path]
        found = [(f, carried_artifacts(f)) for f in files]
        carrying = [(f, c) for f, c in found if c is not None]
        if not carrying:
            others.append(path)
            continue
        if len(carrying) < len(found):
            plain = next(f for f, c in found if c is None)
            raise InputError(f"mixes logs exported by gaia-eval with other results ({plain.name})", file=path,
                             fix="import the exported logs and the other results apart, into different folders")
        restored.extend(read_carried(f, *c) for f, c in carrying)
    return restored, others
