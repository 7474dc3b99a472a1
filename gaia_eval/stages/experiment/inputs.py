"""Turning batch-experiment's `-i INPUT` into work items: ground-truth files (embedded workflow) or raw documents."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gaia_eval import usecases
from gaia_eval.artifacts.groundtruth import (
    GroundTruth,
    QAPair,
    SourceDocument,
    Summaries,
    UseCase,
    read_groundtruth_file,
)
from gaia_eval.artifacts.inputs import refuse_special_file
from gaia_eval.artifacts.store import fingerprint, fingerprint_bytes, read_text_input
from gaia_eval.errors import InputError
from gaia_eval.stages.common import relative_id

RAW_SUFFIXES = (".txt", ".md")


@dataclass(frozen=True)
class WorkItem:
    item_id: str
    source: str  # key into Workload.sources
    query: str | None
    expected_answer: QAPair | None
    expected_summaries: Summaries | None
    content_fingerprint: str  # what the model sees for this item (document + question), not the expected answer


@dataclass(frozen=True)
class Workload:
    use_case: UseCase
    items: list[WorkItem]
    sources: dict[str, SourceDocument]
    groundtruth: str  # "embedded" or "none"
    input_path: Path

    def fingerprint(self) -> str:
        """Everything an experiment file embeds from its input, expected answers included."""
        return fingerprint(
            {
                "use_case": self.use_case,
                "items": [
                    [i.item_id, i.content_fingerprint, i.expected_answer, i.expected_summaries] for i in self.items
                ],
            }
        )


def _items_from_groundtruth(gts: list[GroundTruth], path: Path) -> Workload:
    if not gts:
        raise InputError(
            "holds no ground truth items", file=path, fix="run `gaia-eval groundtruth` again and check it succeeded"
        )
    use_cases = sorted({gt.use_case for gt in gts})
    if len(use_cases) > 1:
        raise InputError(
            f"holds ground truth for several use cases ({', '.join(use_cases)})",
            file=path,
            fix="pass one consolidated_<use_case>_groundtruth.json, or a folder of one use case",
        )
    use_case = use_cases[0]
    asks_questions = usecases.get(use_case, file=path, field="use_case").asks_questions
    sources: dict[str, SourceDocument] = {}
    items: list[WorkItem] = []
    for gt in sorted(gts, key=lambda g: g.item_id):
        if gt.item_id in sources:
            raise InputError(f"lists item '{gt.item_id}' twice", file=path, fix="regenerate the consolidated file")
        sources[gt.item_id] = gt.source
        if asks_questions:
            for qa in gt.qa_pairs or []:
                items.append(
                    WorkItem(
                        item_id=f"{gt.item_id}#{qa.id}",
                        source=gt.item_id,
                        query=qa.query,
                        expected_answer=qa,
                        expected_summaries=None,
                        content_fingerprint=fingerprint([gt.source.fingerprint, qa.query]),
                    )
                )
        else:
            items.append(
                WorkItem(
                    item_id=gt.item_id,
                    source=gt.item_id,
                    query=None,
                    expected_answer=None,
                    expected_summaries=gt.summaries,
                    content_fingerprint=gt.source.fingerprint,
                )
            )
    if not items:
        raise InputError("contains no items to run", file=path, fix="regenerate the ground truth")
    return Workload(use_case, items, sources, "embedded", path)


def _raw_documents(files: list[Path], root: Path, path: Path) -> Workload:
    sources: dict[str, SourceDocument] = {}
    items: list[WorkItem] = []
    for f in files:
        text = read_text_input(f)
        item_id = relative_id(f, root)
        doc = SourceDocument(
            path=f.relative_to(root).as_posix() if root in f.parents else f.name,
            fingerprint=fingerprint_bytes(text.encode("utf-8")),
            text=text,
        )
        sources[item_id] = doc
        items.append(WorkItem(item_id, item_id, None, None, None, doc.fingerprint))
    return Workload(usecases.default_for("summaries"), items, sources, "none", path)


def load_groundtruth_file(path: Path) -> list[GroundTruth]:
    return read_groundtruth_file(path)


def load_workload(input_path: Path, option: str = "-i") -> Workload:
    """The items to run or template: ground truth (a file or a folder of them) or raw documents. `option` is
    the command's name for the input (`-i` for batch-experiment, `-d` for create-template), for the hints."""
    path = Path(input_path)
    refuse_special_file(path, "ground truth, a document or a folder")
    if not path.exists():
        raise InputError("not found", file=path, fix=f"check {option}, or run `gaia-eval groundtruth` first")
    if path.is_file():
        if path.suffix == ".json":
            return _items_from_groundtruth(load_groundtruth_file(path), path)
        if path.suffix in RAW_SUFFIXES:
            return _raw_documents([path], path.parent, path)
        raise InputError(
            f"has an unsupported extension '{path.suffix}'",
            file=path,
            fix="pass ground truth (.json), a document (.txt/.md) or a folder",
        )
    per_file = sorted(p for p in path.rglob("*.groundtruth.json") if not p.name.startswith("consolidated_"))
    if per_file:
        gts: list[GroundTruth] = []
        for p in per_file:
            gts.extend(load_groundtruth_file(p))
        return _items_from_groundtruth(gts, path)
    consolidated = sorted(path.glob("consolidated_*_groundtruth.json"))
    if len(consolidated) == 1:
        return _items_from_groundtruth(load_groundtruth_file(consolidated[0]), consolidated[0])
    if len(consolidated) > 1:
        raise InputError(
            "holds several consolidated ground-truth files",
            file=path,
            fix="pass one of them with -i: " + ", ".join(p.name for p in consolidated),
        )
    raw = sorted(p for p in path.rglob("*") if p.suffix in RAW_SUFFIXES and p.is_file() and not p.name.startswith("."))
    if not raw and next(path.rglob("*.experiment.json"), None) is not None:
        raise InputError(
            "holds experiments (batch-experiment's output), not ground truth or documents",
            file=path,
            fix=f"pass ground truth or documents with {option}; score these experiments with `gaia-eval eval -d "
                f"{path}`",
        )
    if not raw and next(path.rglob("*.eval.json"), None) is not None:
        raise InputError(
            "holds evaluations (eval's output), not ground truth or documents",
            file=path,
            fix=f"pass ground truth or documents with {option}; write the report with `gaia-eval report -d {path}`",
        )
    if not raw:
        raise InputError(
            "holds no ground truth (*.groundtruth.json) and no documents (.txt/.md)",
            file=path,
            fix=f"run `gaia-eval groundtruth -d DOCUMENTS -o {path}` first, or point {option} at your documents",
        )
    return _raw_documents(raw, path, path)
