"""Stage 2, `groundtruth`: the expected answers for each input document, and their consolidated file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gaia_eval.artifacts.documents import DocumentMeta
from gaia_eval.artifacts.groundtruth import (
    USE_CASES,
    ConsolidatedEntry,
    ConsolidatedGroundTruth,
    GroundTruth,
    SourceDocument,
)
from gaia_eval.artifacts.store import (
    Freshness,
    fingerprint,
    fingerprint_bytes,
    fingerprint_file,
    freshness,
    read_artifact,
    read_text_input,
    write_artifact,
)
from gaia_eval.errors import InputError, UsageError
from gaia_eval.stages.common import StageSummary, find_inputs, relative_id

# Bump when the way ground truth is derived from planted facts changes.
FACTS_GROUNDTRUTH_VERSION = "1"
GROUNDTRUTH_SUFFIX = ".groundtruth.json"


@dataclass(frozen=True)
class SourceInput:
    path: Path
    rel_path: str  # relative to the input folder: recorded in artifacts, independent of the working directory
    item_id: str
    text: str
    text_fingerprint: str
    meta: DocumentMeta | None
    meta_fingerprint: str


def groundtruth_path(output_dir: Path, item_id: str, use_case: str) -> Path:
    return Path(output_dir) / f"{item_id}.{use_case}{GROUNDTRUTH_SUFFIX}"


def consolidated_path(output_dir: Path, use_case: str) -> Path:
    return Path(output_dir) / f"consolidated_{use_case}_groundtruth.json"


def _collect_inputs(input_dir: Path | None, input_file: Path | None, pattern: str) -> list[SourceInput]:
    """Read and check every input before anything is written, so a bad input changes no artifact."""
    if input_file is not None:
        root = Path(input_file).parent
        files = [Path(input_file)]
    elif input_dir is not None:
        root = Path(input_dir)
        files = find_inputs(root, pattern, exclude_suffixes=(".meta.json", GROUNDTRUTH_SUFFIX))
    else:
        raise UsageError("no input given", fix="pass -d FOLDER or -f FILE")
    inputs: list[SourceInput] = []
    seen: dict[str, Path] = {}
    for path in files:
        item_id = relative_id(path, root)
        if item_id in seen:
            raise InputError(
                f"has the same name as {seen[item_id]} apart from its extension, so their ground truth would collide",
                file=path,
                fix="rename one of them or narrow -p/--pattern",
            )
        seen[item_id] = path
        text = read_text_input(path)
        meta_path = path.with_name(path.stem + ".meta.json")
        meta = read_artifact(meta_path, DocumentMeta) if meta_path.exists() else None
        inputs.append(
            SourceInput(
                path=path,
                rel_path=(path.relative_to(root) if root in path.parents else Path(path.name)).as_posix(),
                item_id=item_id,
                text=text,
                text_fingerprint=fingerprint_bytes(text.encode("utf-8")),
                meta=meta,
                meta_fingerprint=fingerprint_file(meta_path) if meta is not None else "none",
            )
        )
    return inputs


def _check_offline_possible(source: SourceInput) -> None:
    if source.meta is None or source.meta.facts is None:
        raise InputError(
            "has no planted facts (no .meta.json beside it), so offline ground truth cannot be built",
            file=source.path,
            fix="generate the document with `gaia-eval generate`, or draft ground truth with an LLM provider "
            "(--provider anthropic|openai|ollama|... --model M)",
        )
    if fingerprint_bytes(source.path.read_bytes()) != source.meta.document_fingerprint:
        raise InputError(
            f"was edited after it was generated (it no longer matches {source.path.stem}.meta.json), so its planted "
            "facts may not hold",
            file=source.path,
            fix="regenerate it with `gaia-eval generate`, or draft ground truth with an LLM provider",
        )


def _build_offline(source: SourceInput, use_case: str, inputs: dict[str, str]) -> GroundTruth:
    from gaia_eval.generation.facts_to_groundtruth import qa_from_facts, summaries_from_facts

    meta = source.meta
    assert meta is not None and meta.facts is not None
    summaries = qa_pairs = None
    if use_case == "qa":
        qa_pairs = qa_from_facts(meta.facts, meta.doc_kind, meta.doc_type, source.text)
    else:
        summaries = summaries_from_facts(meta.facts, meta.doc_kind, meta.doc_type)
    return GroundTruth(
        inputs=inputs,
        use_case=use_case,  # type: ignore[arg-type]
        item_id=source.item_id,
        source=SourceDocument(path=source.rel_path, fingerprint=source.text_fingerprint, text=source.text),
        doc_type=meta.doc_type,
        method="planted_facts",
        summaries=summaries,
        qa_pairs=qa_pairs,
        facts=meta.facts,
    )


def run_groundtruth(
    *,
    input_dir: Path | None = None,
    input_file: Path | None = None,
    pattern: str = "*.txt",
    use_case: str = "summarization",
    output_dir: Path = Path("groundtruth"),
    force: bool = False,
) -> StageSummary:
    """Write `<item>.<use_case>.groundtruth.json` per input and `consolidated_<use_case>_groundtruth.json`."""
    if use_case not in USE_CASES:
        raise UsageError(f"unknown use case '{use_case}'", field="--use-case", fix=f"use one of: {', '.join(USE_CASES)}")
    sources = _collect_inputs(input_dir, input_file, pattern)
    for source in sources:
        _check_offline_possible(source)

    output_dir = Path(output_dir)
    summary = StageSummary("groundtruth")
    settings = fingerprint({"method": "planted_facts", "version": FACTS_GROUNDTRUTH_VERSION, "use_case": use_case})
    written: list[tuple[str, Path]] = []
    for source in sources:
        out = groundtruth_path(output_dir, source.item_id, use_case)
        inputs = {"source": source.text_fingerprint, "meta": source.meta_fingerprint, "settings": settings}
        state, _ = freshness(out, GroundTruth, inputs)
        if state is Freshness.CURRENT and not force:
            summary.skipped += 1
        else:
            write_artifact(out, _build_offline(source, use_case, inputs))
            summary.count(Freshness.STALE if state is Freshness.CURRENT else state)
        summary.outputs.append(out)
        written.append((source.item_id, out))

    consolidated = consolidated_path(output_dir, use_case)
    write_artifact(consolidated, consolidate(written, use_case, output_dir))
    summary.notes.append(f"consolidated: {consolidated}")
    return summary


def consolidate(entries: list[tuple[str, Path]], use_case: str, output_dir: Path) -> ConsolidatedGroundTruth:
    """Rebuilt from this run's per-file artifacts only: never loses an entry, never picks up other folders' files."""
    items: list[GroundTruth] = []
    refs: list[ConsolidatedEntry] = []
    for item_id, path in sorted(entries):
        items.append(read_artifact(path, GroundTruth))
        refs.append(
            ConsolidatedEntry(
                item_id=item_id,
                groundtruth_file=path.relative_to(output_dir).as_posix(),
                fingerprint=fingerprint_file(path),
            )
        )
    return ConsolidatedGroundTruth(
        inputs={r.item_id: r.fingerprint for r in refs},
        use_case=use_case,  # type: ignore[arg-type]
        source_files=refs,
        items=items,
    )
