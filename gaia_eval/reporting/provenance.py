"""Where an evaluation's ground truth came from, for the report: planted facts (generated documents), an LLM
(which one), or a human import (which file). Followed from the evaluation to its experiment file, to the
ground-truth folder or file the experiment was run on; said plainly when that trail is gone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import orjson

from gaia_eval.artifacts.evaluation import Evaluation
from gaia_eval.artifacts.recorded import find_recorded_path
from gaia_eval.artifacts.store import fingerprint_file
from gaia_eval.artifacts.streamed import iter_elements, top_level_values

BIG_FILE = 1 << 20  # bytes: a file this big is read an element at a time (10,000 documents' ground truth)


def _describe(method: str, provenance: dict | None) -> str:
    if method == "planted_facts":
        return "planted facts (generated documents)"
    if method.startswith("llm:"):
        return f"written by an LLM ({method.removeprefix('llm:')})"
    if method == "human":
        return "human, imported" + (
            f" from {Path(provenance['file']).name}" if provenance and provenance.get("file") else ""
        )
    return method


_find = find_recorded_path  # a recorded path, as is or against the evaluation folder's parents


def _methods(source: Path) -> set[str]:
    files = [source] if source.is_file() else sorted(source.rglob("*groundtruth*.json"))
    found = set()
    for file in files:
        for entry in _records(file):
            if isinstance(entry, dict) and isinstance(entry.get("method"), str):
                found.add(_describe(entry["method"], entry.get("provenance")))
    return found


def _records(file: Path) -> list | Iterator:
    """The ground-truth records of a file: its items (a consolidated file) or itself (one document's)."""
    try:
        if file.stat().st_size > BIG_FILE:
            return iter_elements(file, "items")
        data = orjson.loads(file.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return []
    return data.get("items", [data]) if isinstance(data, dict) else []


def _experiment_input(ev: Evaluation, eval_dir: Path) -> Path | None:
    """The ground-truth file or folder the evaluation's experiment ran on, when it can still be found."""
    experiment = _find(ev.experiment_file, eval_dir)
    # Only its input_path is needed: the items and sources of a 100 MB experiment are skipped, not parsed.
    header = top_level_values(experiment, frozenset({"items", "sources"})) if experiment else None
    input_path = header.get("input_path") if header else None
    return _find(input_path, eval_dir) if isinstance(input_path, str) else None


def groundtruth_identity(ev: Evaluation, eval_dir: Path) -> str:
    """What tells two evaluations' ground truth apart: the fingerprint of the file scored against, whether given
    to `eval -g` or embedded from the file the experiment ran on (the same file either way is the same truth)."""
    if ev.groundtruth_source.startswith("external:"):
        return ev.inputs.get("groundtruth") or ev.groundtruth_source
    if ev.groundtruth_source == "embedded":
        source = _experiment_input(ev, eval_dir)
        if source is not None:
            return fingerprint_file(source) if source.is_file() else f"folder:{source.resolve()}"
    return f"{ev.groundtruth_source}:{ev.experiment_file}"


def groundtruth_origin(ev: Evaluation, eval_dir: Path) -> str:
    if ev.groundtruth_source == "none":
        return "none (standalone: checked against the source only)"
    source: Path | None = None
    if ev.groundtruth_source.startswith("external:"):
        source = _find(ev.groundtruth_source.removeprefix("external:"), eval_dir)
    else:
        source = _experiment_input(ev, eval_dir)
    methods = _methods(source) if source is not None else set()
    if not methods:
        return f"{ev.groundtruth_source} (its ground-truth files are no longer where the experiment read them)"
    return "; ".join(sorted(methods))
