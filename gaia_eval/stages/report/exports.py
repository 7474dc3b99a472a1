"""`report --format eee|inspect`: the evaluations written in shared formats beside the report: Every Eval Ever
records (`<folder>/eee/data/<collection>/<developer>/<model>/<uuid>.json` and `<uuid>_samples.jsonl`) and one
Inspect log per evaluation (`<folder>/inspect/<created>_<task>_<id>.json`, named as Inspect names its logs).
Unchanged content is not rewritten."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gaia_eval.artifacts.evaluation import Evaluation
from gaia_eval.artifacts.experiment import EXPERIMENT_SUFFIX, ItemResult
from gaia_eval.artifacts.names import file_stem
from gaia_eval.artifacts.recorded import find_recorded_path
from gaia_eval.artifacts.store import (
    atomic_write_bytes,
    canonical_json,
    fingerprint_bytes,
    fingerprint_file,
    load_json_file,
)
from gaia_eval.reporting import eee
from gaia_eval.reporting.inspect_export import inspect_log
from gaia_eval.stages.common import StageSummary

EXPORT_FORMATS = ("eee", "inspect")


def _experiment(ev: Evaluation, eval_dir: Path, summary: StageSummary) -> dict[str, Any] | None:
    """The experiment file the evaluation scored, as it was when scored; None (with a note) when it is gone, was
    changed since, or was a response template (no experiment file to carry)."""
    found = find_recorded_path(ev.experiment_file, eval_dir)
    if found is None or not found.name.endswith(EXPERIMENT_SUFFIX):
        summary.notes.append(f"{ev.experiment_name}: experiment file {ev.experiment_file} not found: exported "
                             "without its items' texts")
        return None
    if fingerprint_file(found) != ev.experiment_fingerprint:
        summary.notes.append(f"{ev.experiment_name}: {found} changed since it was evaluated: exported without its "
                             "items' texts (run eval again)")
        return None
    data = load_json_file(found)
    return data if isinstance(data, dict) else None


def _groundtruth(ev: Evaluation, eval_dir: Path) -> list[dict[str, Any]]:
    if not ev.groundtruth_source.startswith("external:"):
        return []
    files = []
    for recorded in ev.groundtruth_source.removeprefix("external:").split(", "):
        found = find_recorded_path(recorded, eval_dir)
        if found is not None:
            files.append({"file": recorded, "content": load_json_file(found)})
    return files


def _write(path: Path, data: bytes, summary: StageSummary) -> None:
    summary.outputs.append(path)
    if atomic_write_bytes(path, data):
        summary.made += 1
    else:
        summary.skipped += 1


def _write_eee(ev: Evaluation, fp: str, experiment: dict[str, Any] | None, folder: Path,
               summary: StageSummary) -> None:
    collection, developer, model = eee.datastore_folder(ev)
    parts = [file_stem(p, what="EEE datastore folder") for p in (collection, developer, model)]
    record_uuid = eee.record_uuid(fp)
    target = folder.joinpath("data", *parts)
    samples_path, rows, checksum = None, 0, None
    if experiment is not None:
        items = {i["item_id"]: ItemResult.model_validate(i) for i in experiment.get("items", [])}
        body = b"".join(_jsonl_line(r) for r in eee.instance_records(ev, items))
        rows = body.count(b"\n")
        checksum = fingerprint_bytes(body).removeprefix("sha256:")
        samples_path = "/".join(["data", *parts, f"{record_uuid}_samples.jsonl"])
        _write(target / f"{record_uuid}_samples.jsonl", body, summary)
    record = eee.aggregate_record(ev, samples_path, rows, checksum)
    _write(target / f"{record_uuid}.json", canonical_json(record), summary)


def log_file_name(log: dict[str, Any]) -> str:
    """`<created>_<task>_<eval id>.json`, the name Inspect gives its logs: `inspect view` and `list_eval_logs`
    list a .json log only when its name starts with the time stamp."""
    from datetime import datetime, timezone

    created = datetime.fromisoformat(log["eval"]["created"]).astimezone(timezone.utc)
    task = file_stem(log["eval"]["task"], what="task name", style="slug").replace("_", "-")  # Inspect splits on _
    return f"{created:%Y-%m-%dT%H-%M-%S}+00-00_{task}_{log['eval']['eval_id']}.json"


def _inspect_json(log: dict[str, Any]) -> bytes:
    """In the order Inspect writes its keys (version, status, eval first: readers sniff the file's head)."""
    import orjson

    return orjson.dumps(log, option=orjson.OPT_INDENT_2) + b"\n"


def _jsonl_line(record: dict[str, Any]) -> bytes:
    import orjson

    return orjson.dumps(record, option=orjson.OPT_SORT_KEYS) + b"\n"


def write_exports(evaluations: list[tuple[Path, Evaluation]], eval_dir: Path, folder: Path, formats: list[str],
                  summary: StageSummary) -> None:
    """Each evaluation in each of `formats` under `folder` (`eee/`, `inspect/`)."""
    for path, ev in evaluations:
        fp = fingerprint_file(path)
        experiment = _experiment(ev, eval_dir, summary)
        if "eee" in formats:
            _write_eee(ev, fp, experiment, folder / "eee", summary)
        if "inspect" in formats:
            log = inspect_log(ev, fp, experiment, _groundtruth(ev, eval_dir))
            _write(folder / "inspect" / log_file_name(log), _inspect_json(log), summary)
