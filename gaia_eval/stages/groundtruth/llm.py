"""Ground truth drafted by an LLM for any input document (text, Markdown, HTML or PDF, as extracted).

The model is asked for JSON against the artifact's own pydantic schema: `Summaries` for summarization and
email, QA pairs with their evidence for qa. Every reply is validated; QA evidence must occur in the document
(whitespace, case and typographic marks aside) and each answer must occur in it as whole words. An unusable reply
(not JSON, cut off, wrong schema, refused, too few grounded pairs) gets one repair turn that says what was
wrong; still unusable, the file is failed: reported, never written. Each file's artifact is written as soon as
it is done, so a stopped run resumes with the files still missing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import ValidationError

from gaia_eval import usecases
from gaia_eval.artifacts.base import Strict, Usage
from gaia_eval.artifacts.batch_journal import batch_journal_path, remove_batch_journals
from gaia_eval.artifacts.groundtruth import SUMMARY_STYLES, GroundTruth, QAPair, SourceDocument, Summaries
from gaia_eval.artifacts.store import (
    Freshness,
    fingerprint_bytes,
    freshness,
    read_artifact,
    read_text_input,
    write_artifact,
)
from gaia_eval.concurrency import DEFAULT_CONCURRENCY, RetryPolicy, map_concurrent, run_async
from gaia_eval.errors import ArtifactError, InputError, UsageError
from gaia_eval.extract.quotes import QuoteFinder, contains_words, list_items
from gaia_eval.generation.llm import CallFailed, Session, UnreadableReply, follow_up, reply_text
from gaia_eval.progress import Progress
from gaia_eval.prompts import prompts_fingerprint, render
from gaia_eval.providers import ProviderSettings
from gaia_eval.providers.base import Message
from gaia_eval.providers.batch import batch_gate
from gaia_eval.providers.call_options import CallOptions, open_provider
from gaia_eval.providers.pricing import batch_quote, cost_of, lookup_price

if TYPE_CHECKING:
    from gaia_eval.artifacts.shards import Shard
    from gaia_eval.stages.common import SourceInput, StageSummary

# Bump when the way LLM ground truth is checked or assembled changes in a way the prompts do not show.
LLM_GROUNDTRUTH_VERSION = "1"
GROUNDTRUTH_TEMPLATES = (
    "groundtruth_system.j2",
    "groundtruth_summaries.j2",
    "groundtruth_qa.j2",
    "groundtruth_repair.j2",
)
# Template texts (by their fingerprint) that render every built-in use case's prompts byte for byte as an earlier
# text did, so ground truth drafted with that text stays current instead of being drafted again at a cost: the
# prompts now ask the use case (asks_questions, participants_note) where they tested its name. An edit to a
# template changes its fingerprint, which then misses this table and makes the artifacts stale, as it should.
RENDERS_AS_BEFORE = {
    "sha256:9e4e0a8921bc873af29b5c7ee895e702ecc870d15bede9d3ef8b1a150e2bc72e":
        "sha256:f4e9bccbb755228d43037529087e692da863e7c01ab79730aa4513b214968d3a",
}
DEFAULT_NUM_SAMPLES = 5
DEFAULT_MAX_TOKENS = 4096
LLM_TIMEOUT_S = 300.0
REPAIR_TOKEN_CEILING = 16_000  # the repair turn gets twice the budget (a cut-off reply must fit), up to this
CUSTOM_PROMPT_VARIABLES = frozenset({"document", "doc_label", "num_samples", "use_case"})
MAX_PROBLEMS = 6


# A question/answer pair as the model drafts it: QAPair without the id (the stage numbers the pairs) and with
# the evidence required. (A comment, not a docstring: pydantic would send a docstring to the model as part of
# the schema.)
class QADraft(Strict):
    query: str
    answer: str
    answer_type: Literal["number", "string", "list"]
    evidence: str


class QADrafts(Strict):
    qa_pairs: list[QADraft]


@dataclass(frozen=True)
class CustomPrompt:
    path: Path
    source: str
    fingerprint: str
    uses_document: bool


@dataclass(frozen=True)
class LLMGroundTruthOptions:
    settings: ProviderSettings
    num_samples: int = DEFAULT_NUM_SAMPLES
    custom_prompt: CustomPrompt | None = None
    concurrency: int | None = None
    max_tokens: int = DEFAULT_MAX_TOKENS
    show_progress: bool | None = None

    @property
    def method(self) -> str:
        return f"llm:{self.settings.provider}:{self.settings.model}"


def load_custom_prompt(path: Path) -> CustomPrompt:
    """A user's prompt template: UTF-8 text, valid jinja2, using only the variables the stage provides."""
    import jinja2
    from jinja2 import meta

    source = read_text_input(Path(path))
    try:
        parsed = jinja2.Environment().parse(source)
    except jinja2.TemplateSyntaxError as exc:
        raise UsageError(
            f"is not a valid prompt template (line {exc.lineno}: {exc.message})", file=path, field="--custom-prompt",
            fix="fix the {{ }} / {% %} syntax, or escape literal braces with {% raw %}...{% endraw %}",
        ) from None
    used = meta.find_undeclared_variables(parsed)
    unknown = sorted(used - CUSTOM_PROMPT_VARIABLES)
    if unknown:
        raise UsageError(
            f"uses the unknown variable '{unknown[0]}'", file=path, field="--custom-prompt",
            fix=f"use only {', '.join(sorted(CUSTOM_PROMPT_VARIABLES))}",
        )
    return CustomPrompt(Path(path), source, fingerprint_bytes(source.encode("utf-8")), "document" in used)


def groundtruth_prompts_fingerprint() -> str:
    current = prompts_fingerprint(*GROUNDTRUTH_TEMPLATES)
    return RENDERS_AS_BEFORE.get(current, current)


def groundtruth_inputs(text_fingerprint: str, use_case: str, options: LLMGroundTruthOptions) -> dict[str, str]:
    """What an LLM ground-truth artifact is made from; a change in any of them makes it stale."""
    inputs = {
        "source": text_fingerprint,
        "method": "llm",
        "version": LLM_GROUNDTRUTH_VERSION,
        "provider": options.settings.provider,
        "model": options.settings.model,
        "prompts": groundtruth_prompts_fingerprint(),
        "custom_prompt": options.custom_prompt.fingerprint if options.custom_prompt else "none",
    }
    case = usecases.get(use_case)
    if case.asks_questions:
        inputs["num_samples"] = str(options.num_samples)
    return {**inputs, **usecases.settings_inputs(case)}  # a package's use case: its prompt's words too


# ---- what is asked ----------------------------------------------------------------------------------------


def _inline_refs(schema: Any, defs: dict[str, Any]) -> Any:
    """The schema with every `$ref` to `$defs` replaced by its definition (some local servers ignore $defs)."""
    if isinstance(schema, dict):
        if "$ref" in schema:
            return _inline_refs(defs[schema["$ref"].rsplit("/", 1)[-1]], defs)
        return {k: _inline_refs(v, defs) for k, v in schema.items() if k != "$defs"}
    if isinstance(schema, list):
        return [_inline_refs(v, defs) for v in schema]
    return schema


def reply_schema(use_case: str, num_samples: int) -> dict[str, Any]:
    """The JSON schema the model must fill, built from the pydantic models (every key required)."""
    if usecases.get(use_case).asks_questions:
        raw = QADrafts.model_json_schema()
        schema = _inline_refs(raw, raw.get("$defs", {}))
        schema["properties"]["qa_pairs"]["minItems"] = num_samples
        return schema
    schema = Summaries.model_json_schema()
    schema["required"] = list(SUMMARY_STYLES)
    return schema


def user_prompt(use_case: str, document: str, options: LLMGroundTruthOptions) -> str:
    """The use case's ground-truth prompt for `document`, or the user's --custom-prompt."""
    case = usecases.get(use_case)
    variables = {
        "document": document.strip(),
        "doc_label": case.doc_label,
        "num_samples": options.num_samples,
        "use_case": use_case,
    }
    custom = options.custom_prompt
    if custom is None:
        return render(case.groundtruth_prompt, participants_note=case.participants_note, **variables)
    import jinja2

    environment = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False)
    text = environment.from_string(custom.source).render(**variables).strip()
    if not custom.uses_document:  # a prompt that only says what to do still needs the document to do it on
        text = f"{text}\n\n<document>\n{variables['document']}\n</document>"
    return text


# ---- checking replies -------------------------------------------------------------------------------------


def _schema_problems(exc: ValidationError) -> list[str]:
    problems = []
    for error in exc.errors()[:MAX_PROBLEMS]:
        where = ".".join(str(p) for p in error.get("loc", ())) or "the reply"
        kind = error.get("type", "")
        wording = {"extra_forbidden": "is not a key of the schema", "missing": "is missing"}
        what = wording.get(kind, error.get("msg", ""))
        problems.append(f"{where} {what}")
    return problems


_WORD = re.compile(r"[^\W\d_]+")
_SCHEMA_WORDS = frozenset(
    {
        *(w for key in SUMMARY_STYLES for w in key.split("_")),
        "owner",
        "string",
        "item",
        "items",
        "summary",
        "placeholder",
        "todo",
    }
)
MIN_SUMMARY_WORDS = 5
MIN_GROUNDED_SHARE = 0.5  # of a summary's words that the document uses too (a summary paraphrases, mostly not)


def _words_of(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def check_summaries(data: Any, document: str = "") -> tuple[Summaries | None, list[str]]:
    """The summaries, or what is wrong with them. Grammar-constrained JSON always fits the schema, so substance is
    checked like qa pairs are: prose of real words drawn mostly from the document, and lists of facts, not the
    schema's own key names or placeholder text (a small model answers `":{"` and `"owner: key_decisions"`)."""
    if not isinstance(data, dict):
        return None, ["the reply must be a JSON object with the six summary keys"]
    problems = [f"{key} is missing" for key in SUMMARY_STYLES if key not in data]
    try:
        summaries = Summaries.model_validate(data)
    except ValidationError as exc:
        return None, (problems + _schema_problems(exc))[:MAX_PROBLEMS]
    vocabulary = set(_words_of(document))
    for key in ("executive_summary", "detailed_summary"):
        words = _words_of(getattr(summaries, key))
        if not words:
            problems.append(f"{key} is empty")
        elif len(words) < MIN_SUMMARY_WORDS or set(words) <= _SCHEMA_WORDS:
            problems.append(f"{key} is not a summary ({getattr(summaries, key)[:60]!r}): write sentences about the "
                            "document")
        elif vocabulary and sum(w in vocabulary for w in words) / len(words) < MIN_GROUNDED_SHARE:
            problems.append(f"{key} is mostly words the document does not use: summarize this document")
    for key in ("action_items", "key_decisions", "participants", "topics_discussed"):
        items = getattr(summaries, key, None) or []
        placeholders = [item for item in items if not _words_of(item) or set(_words_of(item)) <= _SCHEMA_WORDS]
        if placeholders:
            problems.append(f"{key} holds placeholder text ({placeholders[0][:40]!r}): list facts from the document, "
                            "or an empty list when there are none")
    return (None, problems[:MAX_PROBLEMS]) if problems else (summaries, [])


def _slug(text: str, limit: int = 5) -> str:
    return "-".join(re.findall(r"[a-z0-9]+", text.lower())[:limit]) or "question"


def check_qa(data: Any, quotes: QuoteFinder) -> tuple[list[QADraft], list[str]]:
    """The pairs whose evidence is found in the document (kept as the document writes it) and whose answer (each
    item of a list answer) occurs as whole words in that evidence, and a problem for each pair dropped."""
    try:
        drafts = QADrafts.model_validate(data)
    except ValidationError as exc:
        return [], _schema_problems(exc)
    kept: list[QADraft] = []
    problems: list[str] = []
    for index, pair in enumerate(drafts.qa_pairs, 1):
        span = quotes.find(pair.evidence)
        answers = list_items(pair.answer) if pair.answer_type == "list" else [pair.answer]
        if not pair.query.strip() or not pair.answer.strip():
            problems.append(f"pair {index} has an empty query or answer")
        elif span is None:
            problems.append(f"pair {index}: the evidence {pair.evidence[:80]!r} does not occur in the document")
        elif not all(contains_words(span, answer) for answer in answers):
            problems.append(
                f"pair {index}: the answer {pair.answer[:60]!r} does not occur as whole words in its evidence"
            )
        else:
            kept.append(pair.model_copy(update={"evidence": span}))
    return kept, problems[:MAX_PROBLEMS]


def to_qa_pairs(drafts: list[QADraft]) -> list[QAPair]:
    return [
        QAPair(id=f"q{i:02d}-{_slug(d.query)}", query=d.query, answer=d.answer, answer_type=d.answer_type,
               evidence=d.evidence)
        for i, d in enumerate(drafts, 1)
    ]


# ---- the conversation -------------------------------------------------------------------------------------


@dataclass
class Drafted:
    summaries: Summaries | None = None
    qa_pairs: list[QAPair] | None = None
    error: str | None = None


def _add_new_pairs(kept: list[QADraft], drafts: list[QADraft]) -> None:
    """Grounded pairs collect over both turns; a repair turn may return the good pairs again: kept once."""
    seen = {" ".join(p.query.lower().split()) for p in kept}
    for pair in drafts:
        key = " ".join(pair.query.lower().split())
        if key not in seen:
            seen.add(key)
            kept.append(pair)


async def draft_groundtruth(session: Session, use_case: str, prompt: str, document: str, num_samples: int) -> Drafted:
    """The first turn and at most one repair turn; provider failures end the file too. A reply cut off at
    max_tokens arrives as UnreadableReply (the providers refuse to parse a cut-off structured reply)."""
    case = usecases.get(use_case)
    quotes = QuoteFinder(document)
    grounded: list[QADraft] = []
    messages: tuple[Message, ...] = (Message(role="user", content=prompt),)
    problems: list[str] = []
    for turn in (1, 2):
        previous: str | None = None
        try:
            response = await session.send(messages, max_tokens=_turn_budget(session.max_tokens, turn, problems))
        except UnreadableReply as exc:
            problems = [f"the reply could not be read: {exc.problem}"]
        except CallFailed as exc:
            return Drafted(error=exc.reason)
        else:
            previous = reply_text(response)
            if response.finish_reason == "refusal":
                problems = [f"the model declined ({' '.join(response.text.split())[:160]}); the task is to write "
                            "reference answers from the document"]
            elif case.asks_questions:
                drafts, problems = check_qa(response.data, quotes)
                _add_new_pairs(grounded, drafts)
                if len(grounded) >= num_samples:
                    return Drafted(qa_pairs=to_qa_pairs(grounded[:num_samples]))
                problems.append(f"only {len(grounded)} of the {num_samples} pairs are grounded in the document")
            else:
                summaries, problems = check_summaries(response.data, document)
                if summaries is not None:
                    return Drafted(summaries=summaries)
        if turn == 2:
            return Drafted(error="still invalid after one repair turn: " + "; ".join(problems))
        repair = repair_prompt(use_case, problems, num_samples)
        messages = follow_up(prompt, previous, repair)
    raise AssertionError("unreachable")  # pragma: no cover - the loop always returns


def repair_prompt(use_case: str, problems: list[str], num_samples: int) -> str:
    """The repair turn: what was wrong with the reply, and (questions) how many grounded pairs are wanted."""
    asks_questions = usecases.get(use_case).asks_questions
    return render("groundtruth_repair.j2", problems=problems, asks_questions=asks_questions, num_samples=num_samples)


def _turn_budget(max_tokens: int, turn: int, problems: list[str] | None = None) -> int:
    """The reply budget of a turn. A repair turn gets more room only when the first reply ran out of its budget;
    when the context window filled up instead, a larger budget would only overflow it sooner."""
    if turn == 1 or not any("max_tokens" in p for p in problems or ()):
        return max_tokens
    return max(max_tokens, min(2 * max_tokens, REPAIR_TOKEN_CEILING))


# ---- running over the files -------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Job:
    source: SourceInput
    out: Path
    inputs: dict[str, str]
    before: Freshness


def build_with_llm(
    sources: list[SourceInput], use_case: str, output_path: Callable[[str], Path], force: bool,
    options: LLMGroundTruthOptions, call_options: CallOptions, summary: StageSummary, shard: Shard | None = None,
) -> list[tuple[str, Path]]:
    """Write each input's ground truth; return (item id, artifact) for every input that has a valid artifact.

    A file that fails keeps the artifact an earlier run wrote for it, if any: it is valid ground truth of the
    text it embeds, so the consolidated file does not silently lose the item; the stage notes that it is stale."""
    jobs: list[_Job] = []
    done: list[tuple[str, Path]] = []
    for source in sources:
        out = output_path(source.item_id)
        inputs = groundtruth_inputs(source.text_fingerprint, use_case, options)
        state, _ = freshness(out, GroundTruth, inputs)
        if state is Freshness.CURRENT and not force:
            summary.skipped += 1
            summary.outputs.append(out)
            done.append((source.item_id, out))
        else:
            jobs.append(_Job(source, out, inputs, Freshness.STALE if state is Freshness.CURRENT else state))
    if jobs:
        run_async(_run_jobs(jobs, use_case, options, call_options, summary, done, refresh=force, shard=shard))
    return done


async def _run_jobs(
    jobs: list[_Job], use_case: str, options: LLMGroundTruthOptions, call_options: CallOptions,
    summary: StageSummary, done: list[tuple[str, Path]], *, refresh: bool = False, shard: Shard | None = None,
) -> None:
    # A missing cloud key stops here, before any call (exit 2).
    settings = options.settings
    # --batch: the provider batches, journaled (a shard's in its own journal: it re-attaches to its own only)
    journal = batch_journal_path(jobs[0].out.parent, "groundtruth", shard)
    provider = open_provider(settings, call_options, journal, refresh=refresh)
    quote = lookup_price(settings.provider, settings.model)
    # every call not answered by the cache is batched
    quote = batch_quote(quote) if call_options.batch.enabled else quote
    gate = batch_gate(call_options.batch, options.concurrency or DEFAULT_CONCURRENCY, provider=settings.provider)
    policy = RetryPolicy(timeout_s=settings.timeout_s or LLM_TIMEOUT_S)
    system = render("groundtruth_system.j2")
    schema = reply_schema(use_case, options.num_samples)
    asks_questions = usecases.get(use_case).asks_questions
    progress = Progress(len(jobs), enabled=options.show_progress, label="files")

    async def worker(job: _Job) -> tuple[Drafted, Usage, str]:
        session = Session(provider, gate, policy, system=system, max_tokens=options.max_tokens, json_schema=schema,
                          schema_name="qa_pairs" if asks_questions else "summaries")
        text = job.source.read_text()  # read again only for the inputs drafted (the text is not held for all)
        prompt = user_prompt(use_case, text, options)
        drafted = await draft_groundtruth(session, use_case, prompt, text, options.num_samples)
        return drafted, session.paid_usage, text

    def on_result(job: _Job, result: tuple[Drafted, Usage, str]) -> None:
        drafted, usage, text = result
        cost, _, _ = cost_of(usage, quote)
        progress.advance(error=drafted.error is not None, cost=cost)
        if drafted.error is not None:
            summary.failed += 1
            summary.failures.append(f"{job.source.rel_path}: {drafted.error}")
            if job.out.exists() and _readable(job.out):
                done.append((job.source.item_id, job.out))
                summary.notes.append(f"kept the earlier ground truth of {job.source.rel_path} (stale) in the "
                                     "consolidated file until it is redone")
            return
        source = job.source
        write_artifact(
            job.out,
            GroundTruth(
                inputs=job.inputs,
                use_case=use_case,
                item_id=source.item_id,
                source=SourceDocument(path=source.rel_path, fingerprint=source.text_fingerprint, text=text),
                doc_type=source.doc_type,
                method=options.method,
                summaries=drafted.summaries,
                qa_pairs=drafted.qa_pairs,
                usage=usage,
                cost_usd=cost,
            ),
        )
        summary.count(job.before)
        summary.outputs.append(job.out)
        done.append((source.item_id, job.out))

    try:
        await map_concurrent(jobs, worker, limit=gate.max_concurrency, on_result=on_result)
    finally:
        progress.close()
        await provider.aclose()
    if summary.failed:
        return
    if shard is not None:  # a shard's own journal
        journal.unlink(missing_ok=True)
    else:  # a run without --shard: its own and every shard's
        remove_batch_journals(journal.parent, "groundtruth")


def _readable(path: Path) -> bool:
    try:
        read_artifact(path, GroundTruth)
    except (ArtifactError, InputError):
        return False
    return True
