"""The viewer's file browsing: the workspace folders it may read (roots), listing them, reading one file
(inside its root only), and two experiments side by side. Read-only."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson


class BadRequest(Exception):
    """A request the viewer refuses with 400 and this message."""


ROOT_NAMES = ("test_data", "groundtruth", "experiments", "evaluation", "reports")
MAX_FILE_BYTES = 20 * 1024 * 1024


@dataclass(frozen=True)
class Roots:
    folders: dict[str, Path]

    def resolve(self, root: str, rel: str) -> Path | None:
        """The file `rel` inside root `root`, or None if it is outside it, missing, or not a file."""
        base = self.folders.get(root)
        if base is None:
            return None
        if "\x00" in rel:
            raise BadRequest("null byte in path")
        base = base.resolve()
        target = (base / rel).resolve()
        if base != target and base not in target.parents:
            return None
        return target if target.is_file() else None


def _kind(path: Path) -> str:
    name = path.name
    for suffix, kind in (
        (".experiment.eval.json", "evaluation"),
        (".experiment.json", "experiment"),
        (".groundtruth.json", "groundtruth"),
        (".template.json", "template"),
        (".meta.json", "document_meta"),
    ):
        if name.endswith(suffix):
            return kind
    if name.startswith("consolidated_"):
        return "consolidated"
    return {".txt": "document", ".md": "markdown", ".csv": "csv", ".json": "json", ".pdf": "pdf"}.get(
        path.suffix, "other"
    )


def list_files(roots: Roots) -> dict[str, list[dict[str, Any]]]:
    listing: dict[str, list[dict[str, Any]]] = {}
    for root, base in roots.folders.items():
        entries = []
        if base.is_dir():
            for path in sorted(base.rglob("*")):
                if path.is_file() and not path.name.startswith(".") and not path.name.endswith(".jsonl"):
                    entries.append(
                        {"path": path.relative_to(base).as_posix(), "kind": _kind(path), "bytes": path.stat().st_size}
                    )
        listing[root] = entries
    return listing


def read_file(roots: Roots, root: str, rel: str) -> dict[str, Any] | None:
    path = roots.resolve(root, rel)
    if path is None:
        return None
    if path.stat().st_size > MAX_FILE_BYTES:
        return {"path": rel, "kind": _kind(path), "error": "file too large to show"}
    data = path.read_bytes()
    if path.suffix == ".json":
        try:
            return {"path": rel, "kind": _kind(path), "json": orjson.loads(data)}
        except orjson.JSONDecodeError as exc:
            return {"path": rel, "kind": _kind(path), "error": f"not valid JSON: {exc}"}
    if path.suffix == ".pdf":
        return {"path": rel, "kind": "pdf", "error": "PDF preview is not supported; open its .txt twin"}
    return {"path": rel, "kind": _kind(path), "text": data.decode("utf-8", "replace")}


def _side(item: dict[str, Any]) -> dict[str, Any]:
    return {
        "status": item.get("status"),
        "answer": item.get("answer") or item.get("summaries"),
        "error": item.get("error"),
        "cost_usd": item.get("cost_usd"),
        "latency_s": item.get("latency_s"),
        "tokens_out": (item.get("usage") or {}).get("output_tokens"),
    }


def compare(roots: Roots, root: str, a: str, b: str) -> dict[str, Any] | None:
    """Two experiments item by item: answers side by side with the ground truth."""
    read = [read_file(roots, root, rel) for rel in (a, b)]
    files = [f for f in read if f is not None]
    if len(files) < 2:
        return None
    if any(
        "json" not in f or f["json"].get("kind") != "experiment" or not isinstance(f["json"].get("items"), list)
        for f in files
    ):
        raise BadRequest("compare needs two experiment files with items")
    left, right = (f["json"] for f in files)
    right_items = {i["item_id"]: i for i in right["items"]}
    rows = []
    for item in left["items"]:
        other = right_items.get(item["item_id"], {})
        rows.append(
            {
                "item_id": item["item_id"],
                "query": item.get("query"),
                "expected": item.get("groundtruth_answer") or item.get("groundtruth_summaries"),
                "a": _side(item),
                "b": _side(other),
            }
        )
    return {"a": left["experiment_name"], "b": right["experiment_name"], "use_case": left["use_case"], "rows": rows}


def make_roots(workspace: Path, overrides: dict[str, Path | None]) -> Roots:
    return Roots({name: Path(overrides.get(name) or Path(workspace) / name) for name in ROOT_NAMES})
