"""Stage 2, `groundtruth`: the expected answers for each input document, and their consolidated file.

Offline, ground truth comes exactly from the planted facts of generated documents. With an LLM provider it is
drafted by the model for any .txt, .md, .html or .pdf document (stages.groundtruth_llm)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from gaia_eval import usecases
from gaia_eval.artifacts.documents import DocumentMeta, PdfDocumentMeta
from gaia_eval.artifacts.groundtruth import (
    ConsolidatedEntry,
    ConsolidatedGroundTruth,
    GroundTruth,
    SourceDocument,
)
from gaia_eval.artifacts.names import file_stem
from gaia_eval.artifacts.shards import Shard
from gaia_eval.artifacts.store import (
    Freshness,
    fingerprint,
    fingerprint_bytes,
    fingerprint_file,
    freshness,
    load_json_file,
    parse_artifact,
    read_artifact,
    write_artifact,
)
from gaia_eval.artifacts.streamed import write_streamed
from gaia_eval.errors import ArtifactError, InputError, UsageError
from gaia_eval.extract import extract_text
from gaia_eval.stages.common import (
    SourceInput,
    StageSummary,
    check_output_dir,
    find_inputs,
    holds_output_lock,
    relative_id,
)

if TYPE_CHECKING:
    from gaia_eval.providers.call_options import CallOptions
    from gaia_eval.stages.groundtruth.llm import LLMGroundTruthOptions

# Bump when the way ground truth is derived from planted facts changes.
FACTS_GROUNDTRUTH_VERSION = "1"
GROUNDTRUTH_SUFFIX = ".groundtruth.json"


def groundtruth_path(output_dir: Path, item_id: str, use_case: str, *, nested: bool = False,
                     file: str | Path | None = None, field: str | None = None) -> Path:
    """Where an item's ground truth goes. `nested`: the id is an input's path relative to its folder ('sub/doc',
    made by this stage from the file tree), kept as folders; otherwise (an id from data) it is one file name."""
    parts = item_id.split("/") if nested else [item_id]
    stems = [file_stem(part, what="item id", file=file, field=field) for part in parts]
    return Path(output_dir).joinpath(*stems[:-1]) / f"{stems[-1]}.{use_case}{GROUNDTRUTH_SUFFIX}"


def consolidated_path(output_dir: Path, use_case: str) -> Path:
    return Path(output_dir) / f"consolidated_{use_case}_groundtruth.json"


DEFAULT_PATTERNS = ("*.txt", "*.pdf")


def _default_inputs(root: Path, sidecars: tuple[str, ...]) -> list[Path]:
    """Without -p: text files and PDFs (the reference docs copy a PDF in and run groundtruth with no -p); a PDF
    with a .txt twin (as `generate --pdf` writes) is read once, through its twin."""
    found: list[Path] = []
    for pattern in DEFAULT_PATTERNS:
        try:
            found += find_inputs(root, pattern, exclude_suffixes=sidecars)
        except InputError:
            continue
    twins = {p.with_suffix("") for p in found if p.suffix == ".txt"}
    files = sorted(p for p in found if p.suffix == ".txt" or p.with_suffix("") not in twins)
    if not files:
        find_inputs(root, "*.txt", exclude_suffixes=sidecars)  # raises the usual "no input files" error
    return files


def _collect_inputs(
    input_dir: Path | None, input_file: Path | None, pattern: str, *, needs_facts: bool
) -> list[SourceInput]:
    """Read (extract) and check every input before anything is written, so a bad input changes no artifact.
    Without `needs_facts` (LLM ground truth) a damaged meta beside an input is ignored: only its type is used."""
    if input_file is not None:
        root = Path(input_file).parent
        files = [Path(input_file)]
    elif input_dir is not None:
        root = Path(input_dir)
        # Our own sidecar files are never inputs, whatever -p matches: metas, folder indexes, ground truth.
        sidecars = (".meta.json", "_metadata.json", GROUNDTRUTH_SUFFIX)
        files = find_inputs(root, pattern, exclude_suffixes=sidecars) if pattern else _default_inputs(root, sidecars)
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
        text = extract_text(path).text
        meta_path = path.with_name(path.stem + ".meta.json")
        try:
            meta, doc_type = _read_meta(meta_path)
        except (ArtifactError, InputError):
            if needs_facts:
                raise
            meta, doc_type = None, None
        inputs.append(
            SourceInput(
                path=path,
                rel_path=(path.relative_to(root) if root in path.parents else Path(path.name)).as_posix(),
                item_id=item_id,
                text=text if needs_facts else None,  # with a model: extracted again for the inputs it drafts
                text_fingerprint=fingerprint_bytes(text.encode("utf-8")),
                meta=meta,
                meta_fingerprint=fingerprint_file(meta_path) if meta is not None else "none",
                doc_type=doc_type,
            )
        )
    return inputs


def _read_meta(path: Path) -> tuple[DocumentMeta | None, str | None]:
    """The meta of a generated document beside an input, and its type. A PDF meta describes the PDF and its
    .txt twin but plants no facts, so it gives only the type; a damaged meta is an error naming it."""
    if not path.exists():
        return None, None
    data = load_json_file(path)
    if isinstance(data, dict) and data.get("kind") == "pdf_document_meta":
        return None, parse_artifact(path, data, PdfDocumentMeta).doc_type
    meta = parse_artifact(path, data, DocumentMeta)
    return meta, meta.doc_type


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
    if usecases.get(use_case).asks_questions:
        qa_pairs = qa_from_facts(meta.facts, meta.doc_kind, meta.doc_type, source.read_text())
    else:
        summaries = summaries_from_facts(meta.facts, meta.doc_kind, meta.doc_type)
    return GroundTruth(
        inputs=inputs,
        use_case=use_case,
        item_id=source.item_id,
        source=SourceDocument(path=source.rel_path, fingerprint=source.text_fingerprint, text=source.read_text()),
        doc_type=meta.doc_type,
        method="planted_facts",
        summaries=summaries,
        qa_pairs=qa_pairs,
        facts=meta.facts,
    )


@holds_output_lock()
def run_groundtruth(
    *,
    input_dir: Path | None = None,
    input_file: Path | None = None,
    pattern: str = "*.txt",
    use_case: str = "summarization",
    output_dir: Path = Path("groundtruth"),
    force: bool = False,
    provider: str = "offline",
    model: str | None = None,
    base_url: str | None = None,
    num_samples: int = 5,
    custom_prompt: Path | None = None,
    concurrency: int | None = None,
    max_tokens: int = 4096,
    show_progress: bool | None = None,
    timeout_s: float | None = None,
    call_options: CallOptions | None = None,
    shard: Shard | None = None,
) -> StageSummary:
    """Write `<item>.<use_case>.groundtruth.json` per input and `consolidated_<use_case>_groundtruth.json`.
    `provider` "offline" builds it from planted facts; any other provider has an LLM draft it, its calls made as
    `call_options` say (response cache, batch API; default: the environment's). With `shard`, only the inputs
    that shard owns (by text fingerprint), and no consolidated file: each input's file is that shard's part, so
    the same call without it finds them current, pays nothing and writes the consolidated file."""
    if use_case not in usecases.names():
        raise UsageError(
            f"unknown use case '{use_case}'", field="--use-case", fix=f"use one of: {', '.join(usecases.names())}"
        )
    llm_options = None
    if provider != "offline":
        llm_options = _llm_options(provider, model, base_url, num_samples, custom_prompt, concurrency, max_tokens,
                                   show_progress, timeout_s)
    elif custom_prompt is not None:
        raise UsageError("a custom prompt needs an LLM provider", field="--custom-prompt",
                         fix="add --provider anthropic|openai|ollama|... --model M")
    sources = _collect_inputs(input_dir, input_file, pattern, needs_facts=llm_options is None)
    if shard is not None:
        sources = [s for s in sources if shard.owns(s.text_fingerprint)]
    output_dir = check_output_dir(output_dir)
    summary = StageSummary("groundtruth")
    if llm_options is None:
        written = _build_all_offline(sources, use_case, output_dir, force, summary)
    else:
        from gaia_eval.providers.call_options import call_options_or_defaults
        from gaia_eval.stages.groundtruth.llm import build_with_llm

        def output_path(item_id: str) -> Path:
            return groundtruth_path(output_dir, item_id, use_case, nested=True)

        written = build_with_llm(sources, use_case, output_path, force, llm_options,
                                 call_options_or_defaults(call_options), summary, shard)

    if shard is not None:
        summary.notes.append(f"shard {shard}: {len(sources)} inputs are this shard's; once every shard has finished, "
                             "the same command without --shard writes the consolidated file")
        return summary
    consolidated = consolidated_path(output_dir, use_case)
    write_consolidated(consolidated, written, use_case, output_dir)
    summary.notes.append(f"consolidated: {consolidated}")
    return summary


def _llm_options(
    provider: str,
    model: str | None,
    base_url: str | None,
    num_samples: int,
    custom_prompt: Path | None,
    concurrency: int | None,
    max_tokens: int,
    show_progress: bool | None,
    timeout_s: float | None = None,
) -> LLMGroundTruthOptions:
    """The LLM settings, checked before any input is read."""
    from gaia_eval.generation.llm import llm_provider_settings
    from gaia_eval.stages.groundtruth.llm import LLM_TIMEOUT_S, LLMGroundTruthOptions, load_custom_prompt

    settings = llm_provider_settings(provider, model, base_url, timeout_s or LLM_TIMEOUT_S)
    if num_samples < 1:
        raise UsageError("must be at least 1", field="--num-samples")
    if max_tokens < 256:
        raise UsageError("is too small for a structured reply", field="--max-tokens", fix="use 256 or more")
    return LLMGroundTruthOptions(
        settings=settings,
        num_samples=num_samples,
        custom_prompt=load_custom_prompt(custom_prompt) if custom_prompt is not None else None,
        concurrency=concurrency,
        max_tokens=max_tokens,
        show_progress=show_progress,
    )


def _build_all_offline(
    sources: list[SourceInput], use_case: str, output_dir: Path, force: bool, summary: StageSummary
) -> list[tuple[str, Path]]:
    for source in sources:
        _check_offline_possible(source)
    settings = fingerprint({"method": "planted_facts", "version": FACTS_GROUNDTRUTH_VERSION, "use_case": use_case})
    written: list[tuple[str, Path]] = []
    for source in sources:
        out = groundtruth_path(output_dir, source.item_id, use_case, nested=True)
        inputs = {"source": source.text_fingerprint, "meta": source.meta_fingerprint, "settings": settings}
        state, _ = freshness(out, GroundTruth, inputs)
        if state is Freshness.CURRENT and not force:
            summary.skipped += 1
        else:
            write_artifact(out, _build_offline(source, use_case, inputs))
            summary.count(Freshness.STALE if state is Freshness.CURRENT else state)
        summary.outputs.append(out)
        written.append((source.item_id, out))
    return written


def write_consolidated(
    target: Path, entries: list[tuple[str, Path]], use_case: str, output_dir: Path,
    known: dict[Path, tuple[GroundTruth, str]] | None = None,
) -> bool:
    """Write the consolidated file rebuilt from this run's per-file artifacts only (never loses an entry, never
    picks up other folders' files), one item at a time: each file is read as it is written, so 10,000 items take
    the memory of one. `known` gives the artifact and fingerprint of files this run has just written, so they
    are not read back."""
    ordered = sorted(entries)
    refs = [
        ConsolidatedEntry(
            item_id=item_id,
            groundtruth_file=path.relative_to(output_dir).as_posix(),
            fingerprint=(known or {})[path][1] if path in (known or {}) else fingerprint_file(path),
        )
        for item_id, path in ordered
    ]
    header = ConsolidatedGroundTruth(
        inputs={r.item_id: r.fingerprint for r in refs}, use_case=use_case, source_files=refs, items=[]
    )
    items = (known[path][0] if known and path in known else read_artifact(path, GroundTruth) for _, path in ordered)
    return write_streamed(target, header, {"items": items})
