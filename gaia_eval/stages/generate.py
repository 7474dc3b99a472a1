"""Stage 1, `generate`: synthetic meeting transcripts and emails with planted facts, one .txt + .meta.json each."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from gaia_eval.artifacts.documents import (
    EMAIL_TYPES,
    MEETING_TYPES,
    DocumentMeta,
    GenerationIndex,
    GenerationInfo,
    IndexEntry,
)
from gaia_eval.artifacts.store import (
    Freshness,
    atomic_write_text,
    fingerprint,
    fingerprint_bytes,
    freshness,
    read_artifact,
    write_artifact,
)
from gaia_eval.errors import ArtifactError, UsageError
from gaia_eval.stages.common import StageSummary

# Bump when the offline generator's output changes, so existing documents are regenerated (stale).
OFFLINE_GENERATOR_VERSION = "1"
DEFAULT_TARGET_TOKENS = {"meeting": 1000, "email": 800}
OFFLINE_TARGET_RANGE = (300, 3000)  # measured: outside it the phrase banks cannot stay within ±15 % of target
INDEX_NAMES = {"meeting": "transcript_metadata.json", "email": "email_metadata.json"}

DocKind = Literal["meeting", "email"]


def document_stem(kind: DocKind, doc_type: str, variant: int) -> str:
    """`standup_meeting`, `standup_meeting_2`, ...: raising the count never renames an existing file."""
    base = f"{doc_type}_{kind}"
    return base if variant == 1 else f"{base}_{variant}"


def _check_types(kind: DocKind, types: Sequence[str] | None) -> list[str]:
    valid = MEETING_TYPES if kind == "meeting" else EMAIL_TYPES
    if not types:
        return list(valid)
    unknown = [t for t in types if t not in valid]
    if unknown:
        option = "--meeting-types" if kind == "meeting" else "--email-types"
        raise UsageError(
            f"unknown {kind} type '{unknown[0]}'",
            field=option,
            fix=f"use any of: {', '.join(valid)}",
        )
    return list(dict.fromkeys(types))


def run_generate(
    kind: DocKind,
    output_dir: Path,
    *,
    types: Sequence[str] | None = None,
    count_per_type: int = 1,
    target_tokens: int | None = None,
    seed: int = 0,
    force: bool = False,
) -> StageSummary:
    """Write `count_per_type` documents of each type into `output_dir` (exactly there) and the folder index."""
    from gaia_eval.generation.offline import generate_offline

    if kind not in ("meeting", "email"):
        raise UsageError(f"unknown document kind '{kind}'", fix="use --meeting-transcript or --email")
    if count_per_type < 1:
        raise UsageError("must be at least 1", field="--count-per-type")
    target = target_tokens or DEFAULT_TARGET_TOKENS[kind]
    if not OFFLINE_TARGET_RANGE[0] <= target <= OFFLINE_TARGET_RANGE[1]:
        low, high = OFFLINE_TARGET_RANGE
        raise UsageError(
            f"{target} is outside what the offline generator can hit within ±15 %",
            field="--target-tokens",
            fix=f"use a value from {low} to {high}",
        )
    chosen = _check_types(kind, types)
    output_dir = Path(output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    summary = StageSummary("generate")

    for doc_type in chosen:
        for variant in range(1, count_per_type + 1):
            stem = document_stem(kind, doc_type, variant)
            text_path = output_dir / f"{stem}.txt"
            meta_path = output_dir / f"{stem}.meta.json"
            settings = {
                "generator": "offline",
                "version": OFFLINE_GENERATOR_VERSION,
                "kind": kind,
                "doc_type": doc_type,
                "variant": variant,
                "seed": seed,
                "target_tokens": target,
            }
            inputs = {"settings": fingerprint(settings)}
            state, meta = freshness(meta_path, DocumentMeta, inputs)
            if state is Freshness.CURRENT and meta is not None:
                if not force and _text_matches(text_path, meta.document_fingerprint):
                    summary.skipped += 1
                    summary.outputs.append(text_path)
                    continue
                state = Freshness.STALE  # forced, or the document was edited or removed since

            doc = generate_offline(kind, doc_type, variant, seed, target)
            data = doc.text.encode("utf-8")
            # The document first, its meta last: the meta is the marker that the pair is complete.
            atomic_write_text(text_path, doc.text)
            write_artifact(
                meta_path,
                DocumentMeta(
                    inputs=inputs,
                    document=text_path.name,
                    document_fingerprint=fingerprint_bytes(data),
                    doc_kind=kind,
                    doc_type=doc_type,
                    generator="offline",
                    seed=seed,
                    variant=variant,
                    target_tokens=target,
                    word_count=doc.word_count,
                    estimated_tokens=doc.estimated_tokens,
                    token_method="words*1.33",
                    facts=doc.facts,
                    headers=doc.headers,
                ),
            )
            summary.count(state)
            summary.outputs.append(text_path)

    index_path = output_dir / INDEX_NAMES[kind]
    write_artifact(index_path, build_index(output_dir, kind))
    summary.notes.append(f"index: {index_path}")
    return summary


def _text_matches(path: Path, expected_fingerprint: str) -> bool:
    try:
        return fingerprint_bytes(path.read_bytes()) == expected_fingerprint
    except OSError:
        return False


def build_index(folder: Path, kind: DocKind) -> GenerationIndex:
    """The folder index, rebuilt from every per-file meta of this kind, so it never loses or invents entries."""
    entries: list[IndexEntry] = []
    generators: set[str] = set()
    targets: set[int] = set()
    types: set[str] = set()
    for meta_path in sorted(Path(folder).glob("*.meta.json")):
        try:
            meta = read_artifact(meta_path, DocumentMeta)
        except ArtifactError:
            continue  # not ours (or damaged): the next generate run redoes it
        if meta.doc_kind != kind:
            continue
        entries.append(
            IndexEntry(
                file=meta.document,
                meta_file=meta_path.name,
                doc_type=meta.doc_type,
                fingerprint=meta.document_fingerprint,
                estimated_tokens=meta.estimated_tokens,
            )
        )
        generators.add(meta.generator)
        targets.add(meta.target_tokens)
        types.add(meta.doc_type)
    return GenerationIndex(
        inputs={e.file: e.fingerprint for e in entries},
        doc_kind=kind,
        generation_info=GenerationInfo(
            generator=", ".join(sorted(generators)) or "none",
            total_files=len(entries),
            target_tokens_per_file=max(targets) if len(targets) == 1 else 0,
            types=sorted(types),
        ),
        files=entries,
    )
