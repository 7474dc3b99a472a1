"""What an evaluation was scored against when that is not inside its experiment: the ground truth given to
`eval -g` (human references, imported or generated), read from the files the evaluation records, so the item
and compare views show the text the scores were measured against instead of "none (standalone)"; and every
human reference summary of imported ground truth (an experiment embeds only the first)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from gaia_eval.artifacts.evaluation import Evaluation
from gaia_eval.artifacts.groundtruth import GroundTruth, read_groundtruth_file
from gaia_eval.artifacts.recorded import find_recorded_path
from gaia_eval.errors import GaiaEvalError

_lock = threading.Lock()
_cache: dict[Path, tuple[tuple[int, int], dict[str, GroundTruth]]] = {}  # path -> ((mtime_ns, size), items)


def _items(path: Path) -> dict[str, GroundTruth]:
    """The file's items by id, re-read only when the file changed."""
    try:
        stat = path.stat()
    except OSError:
        return {}
    key = (stat.st_mtime_ns, stat.st_size)
    with _lock:
        cached = _cache.get(path)
        if cached is not None and cached[0] == key:
            return cached[1]
    try:
        items = {gt.item_id: gt for gt in read_groundtruth_file(path)}
    except GaiaEvalError:
        items = {}  # a damaged or moved file shows as no reference, never as a broken page
    with _lock:
        _cache[path] = (key, items)
    return items


def external_groundtruth(ev: Evaluation, eval_root: Path) -> dict[str, GroundTruth]:
    """The ground truth `eval -g` scored this evaluation against (several files merge), by item id; empty when
    it used the experiment's own (embedded) ground truth, none, or files that are gone."""
    if not ev.groundtruth_source.startswith("external:"):
        return {}
    found: dict[str, GroundTruth] = {}
    for recorded in ev.groundtruth_source.removeprefix("external:").split(", "):
        path = find_recorded_path(recorded, eval_root)
        if path is not None and path.is_file():
            found.update(_items(path))
    return found


def embedded_groundtruth(input_path: str | None, exp_root: Path) -> dict[str, GroundTruth]:
    """The ground-truth file an experiment ran on (its recorded input_path), by item id: it holds what the
    experiment embeds and more (every human reference summary, not only the first)."""
    path = find_recorded_path(input_path, exp_root) if input_path else None
    return _items(path) if path is not None and path.is_file() and path.suffix == ".json" else {}


def reference_for(
    gts: dict[str, GroundTruth], item_id: str, source: str | None
) -> tuple[dict[str, Any] | None, str | None]:
    """(what the item was scored against, its source text) from external ground truth: the question's reference
    answer (qa, `doc#q01`), or the summaries with every human reference summary."""
    doc, _, question = item_id.partition("#")
    key = source or doc
    gt = gts.get(key) or gts.get(key.rsplit("/", 1)[-1])  # eval matches a subfolder's document by its stem too
    if gt is None:
        return None, None
    if question:
        pair = next((q for q in gt.qa_pairs or [] if q.id == question), None)
        return (pair.model_dump() if pair is not None else None), gt.source.text
    if gt.summaries is None:
        return None, gt.source.text
    truth: dict[str, Any] = gt.summaries.model_dump()
    if gt.references:
        truth["references"] = list(gt.references)
    return truth, gt.source.text
