"""Stage 1, `generate`: synthetic documents, one .txt + .meta.json each, and the folder index.

Offline, meeting transcripts and e-mails come from the phrase-bank generator with planted facts. With an LLM
provider the model writes them (and PDF documents, rendered with a `.txt` twin) from a seeded brief, many at a
time through the provider's gate; each document is written as soon as it is done (text first, meta last), so a
stopped run resumes with the documents still missing, and a document whose checks fail is never written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeVar

from gaia_eval.artifacts.base import Usage
from gaia_eval.artifacts.batch_journal import batch_journal_path
from gaia_eval.artifacts.documents import (
    EMAIL_TYPES,
    MEETING_TYPES,
    PDF_TYPES,
    DocumentMeta,
    GenerationIndex,
    GenerationInfo,
    IndexEntry,
    PdfDocumentMeta,
    PdfIndex,
    PdfIndexEntry,
)
from gaia_eval.artifacts.store import (
    Freshness,
    atomic_write_bytes,
    atomic_write_text,
    fingerprint,
    fingerprint_bytes,
    freshness,
    read_artifact,
    write_artifact,
)
from gaia_eval.concurrency import (
    DEFAULT_CONCURRENCY,
    RetryPolicy,
    map_concurrent,
    run_async,
)
from gaia_eval.errors import ArtifactError, InputError, UsageError
from gaia_eval.progress import Progress
from gaia_eval.providers import ProviderSettings
from gaia_eval.providers.call_options import CallOptions, call_options_or_defaults, open_provider
from gaia_eval.providers.pricing import cost_of, lookup_price
from gaia_eval.stages.common import StageSummary, ensure_output_dir, holds_output_lock

if TYPE_CHECKING:
    from gaia_eval.generation.llm import Brief, WrittenDocument

# Bump when the offline generator's output changes, so existing documents are regenerated (stale).
OFFLINE_GENERATOR_VERSION = "2"
DEFAULT_TARGET_TOKENS = {"meeting": 1000, "email": 800, "pdf": 1500}
OFFLINE_TARGET_RANGE = (300, 3000)  # measured: outside it the phrase banks cannot stay within ±15 % of target
INDEX_NAMES = {"meeting": "transcript_metadata.json", "email": "email_metadata.json", "pdf": "pdf_metadata.json"}
# Bump when the LLM prompts' variables or the checks change in a way the prompt fingerprint does not show.
LLM_GENERATOR_VERSION = "1"
LLM_TARGET_RANGE = (100, 10_000)
LLM_TIMEOUT_S = 300.0  # per call: a long document takes a slow local model minutes

DocKind = Literal["meeting", "email", "pdf"]
M = TypeVar("M", DocumentMeta, PdfDocumentMeta)
_VALID_TYPES = {"meeting": MEETING_TYPES, "email": EMAIL_TYPES, "pdf": PDF_TYPES}
_TYPE_OPTIONS = {"meeting": "--meeting-types", "email": "--email-types", "pdf": "--pdf-types"}


def document_stem(kind: DocKind, doc_type: str, variant: int) -> str:
    """`standup_meeting`, `standup_meeting_2`, ... (PDFs: `white_paper`, `white_paper_2`): raising the count
    never renames an existing file."""
    base = doc_type if kind == "pdf" else f"{doc_type}_{kind}"
    return base if variant == 1 else f"{base}_{variant}"


def _check_types(kind: DocKind, types: Sequence[str] | None) -> list[str]:
    valid = _VALID_TYPES[kind]
    if not types:
        return list(valid)
    unknown = [t for t in types if t not in valid]
    if unknown:
        option = _TYPE_OPTIONS[kind]
        raise UsageError(
            f"unknown {kind} type '{unknown[0]}'",
            field=option,
            fix=f"use any of: {', '.join(valid)}",
        )
    return list(dict.fromkeys(types))


@holds_output_lock()
def run_generate(
    kind: DocKind,
    output_dir: Path,
    *,
    types: Sequence[str] | None = None,
    count_per_type: int = 1,
    target_tokens: int | None = None,
    seed: int = 0,
    force: bool = False,
    provider: str = "offline",
    model: str | None = None,
    base_url: str | None = None,
    concurrency: int | None = None,
    show_progress: bool | None = None,
    timeout_s: float | None = None,
    call_options: CallOptions | None = None,
) -> StageSummary:
    """Write `count_per_type` documents of each type into `output_dir` (exactly there) and the folder index.
    `provider` "offline" uses the phrase-bank generator; any other provider has an LLM write them, its calls
    made as `call_options` say (response cache, batch API; default: the environment's)."""
    if kind not in ("meeting", "email", "pdf"):
        raise UsageError(f"unknown document kind '{kind}'", fix="use --meeting-transcript, --email or --pdf")
    if count_per_type < 1:
        raise UsageError("must be at least 1", field="--count-per-type")
    if provider != "offline":
        options = LLMOptions(provider, model, base_url, concurrency, show_progress, timeout_s)
        return _generate_with_llm(kind, Path(output_dir), _check_types(kind, types), count_per_type, target_tokens,
                                  seed, force, options, call_options_or_defaults(call_options))
    if kind == "pdf":
        raise UsageError(
            "PDF documents are written by an LLM; the offline generator makes meetings and e-mails only",
            field="--pdf",
            fix="add --provider anthropic|openai|ollama|... --model M",
        )
    return _generate_offline(kind, output_dir, types, count_per_type, target_tokens, seed, force)


def _generate_offline(
    kind: Literal["meeting", "email"],
    output_dir: Path,
    types: Sequence[str] | None,
    count_per_type: int,
    target_tokens: int | None,
    seed: int,
    force: bool,
) -> StageSummary:
    from gaia_eval.generation.offline import generate_offline

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
    ensure_output_dir(output_dir)
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
                if not force and file_matches(text_path, meta.document_fingerprint):
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


@dataclass(frozen=True)
class LLMOptions:
    provider: str
    model: str | None
    base_url: str | None = None
    concurrency: int | None = None
    show_progress: bool | None = None
    timeout_s: float | None = None  # per attempt; None: LLM_TIMEOUT_S


@dataclass(frozen=True)
class _LLMJob:
    brief: Brief
    stem: str
    seed: int
    variant: int
    inputs: dict[str, str]
    before: Freshness


def _generate_with_llm(
    kind: DocKind,
    output_dir: Path,
    types: list[str],
    count_per_type: int,
    target_tokens: int | None,
    seed: int,
    force: bool,
    options: LLMOptions,
    call_options: CallOptions,
) -> StageSummary:
    from gaia_eval.generation.llm import generate_prompts_fingerprint, llm_provider_settings, make_brief

    settings = llm_provider_settings(
        options.provider, options.model, options.base_url, options.timeout_s or LLM_TIMEOUT_S
    )
    target = target_tokens or DEFAULT_TARGET_TOKENS[kind]
    if not LLM_TARGET_RANGE[0] <= target <= LLM_TARGET_RANGE[1]:
        low, high = LLM_TARGET_RANGE
        raise UsageError(f"{target} is outside the supported range", field="--target-tokens",
                         fix=f"use a value from {low} to {high}")
    ensure_output_dir(output_dir)
    summary = StageSummary("generate")
    prompts = generate_prompts_fingerprint()
    jobs: list[_LLMJob] = []
    for doc_type in types:
        for variant in range(1, count_per_type + 1):
            stem = document_stem(kind, doc_type, variant)
            recipe = {
                "generator": "llm",
                "version": LLM_GENERATOR_VERSION,
                "kind": kind,
                "doc_type": doc_type,
                "variant": variant,
                "seed": seed,
                "target_tokens": target,
                "provider": settings.provider,
                "model": settings.model,
            }
            inputs = {"settings": fingerprint(recipe), "prompts": prompts}
            state = _llm_document_state(kind, output_dir, stem, inputs)
            if state is Freshness.CURRENT and not force:
                summary.skipped += 1
                summary.outputs.append(output_dir / f"{stem}.{'pdf' if kind == 'pdf' else 'txt'}")
                continue
            before = Freshness.STALE if state is Freshness.CURRENT else state
            brief = make_brief(kind, doc_type, variant, seed, target)
            jobs.append(_LLMJob(brief, stem, seed, variant, inputs, before))

    if jobs:
        run_async(_write_llm_documents(jobs, settings, options, call_options, output_dir, summary, refresh=force))
    index_path = output_dir / INDEX_NAMES[kind]
    write_artifact(index_path, build_pdf_index(output_dir) if kind == "pdf" else build_index(output_dir, kind))
    summary.notes.append(f"index: {index_path}")
    return summary


def _llm_document_state(kind: DocKind, folder: Path, stem: str, inputs: dict[str, str]) -> Freshness:
    """CURRENT only when the meta records these inputs and every file still holds the recorded bytes."""
    meta_path = folder / f"{stem}.meta.json"
    if kind == "pdf":
        state, pdf_meta = freshness(meta_path, PdfDocumentMeta, inputs)
        intact = pdf_meta is not None and file_matches(folder / pdf_meta.document, pdf_meta.document_fingerprint) and (
            file_matches(folder / pdf_meta.text_document, pdf_meta.text_fingerprint)
        )
    else:
        state, meta = freshness(meta_path, DocumentMeta, inputs)
        intact = meta is not None and file_matches(folder / meta.document, meta.document_fingerprint)
    if state is Freshness.CURRENT and not intact:
        return Freshness.STALE  # the document was edited or removed since
    return state


async def _write_llm_documents(
    jobs: list[_LLMJob], settings: ProviderSettings, options: LLMOptions, call_options: CallOptions, folder: Path,
    summary: StageSummary, *, refresh: bool = False,
) -> None:
    """Every job through one gate; each document is written the moment it is done, so a stopped run resumes."""
    from gaia_eval.generation.llm import (
        TEMPERATURE,
        Outcome,
        Session,
        output_budget,
        system_prompt,
        write_document,
    )
    from gaia_eval.providers.batch import batch_gate
    from gaia_eval.providers.pricing import batch_quote

    journal = batch_journal_path(folder, "generate")  # --batch: the provider batches, journaled
    # A missing cloud key stops here (exit 2).
    provider = open_provider(settings, call_options, journal, refresh=refresh)
    quote = lookup_price(settings.provider, settings.model)
    # every call not answered by the cache is batched
    quote = batch_quote(quote) if call_options.batch.enabled else quote
    gate = batch_gate(call_options.batch, options.concurrency or DEFAULT_CONCURRENCY, provider=settings.provider)
    policy = RetryPolicy(timeout_s=settings.timeout_s or LLM_TIMEOUT_S)
    system = system_prompt()
    progress = Progress(len(jobs), enabled=options.show_progress, label="documents")

    async def worker(job: _LLMJob) -> tuple[Outcome, Session]:
        session = Session(provider, gate, policy, system=system, max_tokens=output_budget(job.brief.target_tokens),
                          temperature=TEMPERATURE)
        return await write_document(session, job.brief), session

    def on_result(job: _LLMJob, result: tuple[Outcome, Session]) -> None:
        outcome, session = result
        cost, _, _ = cost_of(session.paid_usage, quote)
        progress.advance(error=outcome.document is None, cost=cost)
        if outcome.document is None:
            summary.failed += 1
            summary.failures.append(f"{job.stem}: {outcome.error}")
            return
        generator = f"{settings.provider}:{settings.model}"
        summary.outputs.append(_write_llm_document(folder, job, outcome.document, generator, session.usage, cost))
        summary.count(job.before)

    try:
        await map_concurrent(jobs, worker, limit=gate.max_concurrency, on_result=on_result)
    finally:
        progress.close()
        await provider.aclose()
    if not summary.failed:
        journal.unlink(missing_ok=True)


def _write_llm_document(
    folder: Path, job: _LLMJob, document: WrittenDocument, generator: str, usage: Usage, cost: float | None
) -> Path:
    """The text (and the PDF) first, the meta last: the meta is the marker that the document is complete."""
    brief = job.brief
    text_path = folder / f"{job.stem}.txt"
    text_data = document.text.encode("utf-8")
    atomic_write_bytes(text_path, text_data)
    made = {
        "inputs": job.inputs,
        "doc_type": brief.doc_type,
        "generator": generator,
        "seed": job.seed,
        "variant": job.variant,
        "target_tokens": brief.target_tokens,
        "word_count": document.tokens.words,
        "estimated_tokens": document.tokens.tokens,
        "token_method": document.tokens.method,
        "usage": usage,
        "cost_usd": cost,
    }
    meta_path = folder / f"{job.stem}.meta.json"
    if brief.kind != "pdf":
        meta = DocumentMeta(
            **made, document=text_path.name, document_fingerprint=fingerprint_bytes(text_data), doc_kind=brief.kind,
            headers=document.headers,
        )
        write_artifact(meta_path, meta)
        return text_path
    from gaia_eval.generation.llm import render_pdf

    pdf_path = folder / f"{job.stem}.pdf"
    pdf_data, pages = render_pdf(list(document.blocks), author=brief.sender.name)
    atomic_write_bytes(pdf_path, pdf_data)
    pdf_meta = PdfDocumentMeta(
        **made, document=pdf_path.name, document_fingerprint=fingerprint_bytes(pdf_data), text_document=text_path.name,
        text_fingerprint=fingerprint_bytes(text_data), title=document.title, pages=pages,
    )
    write_artifact(meta_path, pdf_meta)
    return pdf_path


def file_matches(path: Path, expected_fingerprint: str) -> bool:
    """Whether the file still holds the bytes its meta recorded (False when it was edited or removed)."""
    try:
        return fingerprint_bytes(path.read_bytes()) == expected_fingerprint
    except OSError:
        return False


def _generation_info(metas: list[DocumentMeta] | list[PdfDocumentMeta]) -> GenerationInfo:
    targets = {m.target_tokens for m in metas}
    return GenerationInfo(
        generator=", ".join(sorted({m.generator for m in metas})) or "none",
        total_files=len(metas),
        target_tokens_per_file=max(targets) if len(targets) == 1 else 0,
        types=sorted({m.doc_type for m in metas}),
    )


def _metas(folder: Path, model: type[M]) -> list[tuple[Path, M]]:
    """Every meta of this model in the folder; others (another kind's, or damaged ones) are passed over, and the
    next generate run redoes a damaged one."""
    found = []
    for meta_path in sorted(Path(folder).glob("*.meta.json")):
        try:
            found.append((meta_path, read_artifact(meta_path, model)))
        except (ArtifactError, InputError):
            continue
    return found


def build_index(folder: Path, kind: Literal["meeting", "email"]) -> GenerationIndex:
    """The folder index, rebuilt from every per-file meta of this kind, so it never loses or invents entries."""
    metas = [(path, meta) for path, meta in _metas(folder, DocumentMeta) if meta.doc_kind == kind]
    entries = [
        IndexEntry(
            file=meta.document,
            meta_file=path.name,
            doc_type=meta.doc_type,
            fingerprint=meta.document_fingerprint,
            estimated_tokens=meta.estimated_tokens,
        )
        for path, meta in metas
    ]
    return GenerationIndex(
        inputs={e.file: e.fingerprint for e in entries},
        doc_kind=kind,
        generation_info=_generation_info([meta for _, meta in metas]),
        files=entries,
    )


def build_pdf_index(folder: Path) -> PdfIndex:
    """`pdf_metadata.json`, rebuilt from every PDF meta of the folder."""
    metas = _metas(folder, PdfDocumentMeta)
    entries = [
        PdfIndexEntry(
            file=meta.document,
            text_file=meta.text_document,
            meta_file=path.name,
            doc_type=meta.doc_type,
            fingerprint=meta.document_fingerprint,
            text_fingerprint=meta.text_fingerprint,
            estimated_tokens=meta.estimated_tokens,
            pages=meta.pages,
        )
        for path, meta in metas
    ]
    return PdfIndex(
        inputs={e.file: e.fingerprint for e in entries},
        generation_info=_generation_info([meta for _, meta in metas]),
        files=entries,
    )
