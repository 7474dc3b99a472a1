"""How one work item is put to a model: the prompts per use case, the calls (with retries), and reading replies."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import ValidationError

from gaia_eval import usecases
from gaia_eval.artifacts.base import Usage
from gaia_eval.artifacts.experiment import ExperimentSpec
from gaia_eval.artifacts.groundtruth import SUMMARY_STYLES, Summaries
from gaia_eval.concurrency import ProviderGate, RetryPolicy, call_with_retries, map_concurrent
from gaia_eval.errors import MalformedResponseError, ProviderError
from gaia_eval.prompts import prompts_fingerprint, render
from gaia_eval.providers.base import ChatRequest, ChatResponse, Message, Provider, TaskContext
from gaia_eval.providers.limits import unusable_reason
from gaia_eval.registry import provider_entry
from gaia_eval.stages.experiment.inputs import WorkItem
from gaia_eval.stages.experiment.long_documents import (
    document_budget,
    estimate_tokens,
    relevant_chunks,
    server_context_tokens,
    split_into_chunks,
    too_long,
)
from gaia_eval.usecases import UseCase

STYLE_INSTRUCTIONS: dict[str, tuple[str, str]] = {
    # style: (label, instruction)
    "executive_summary": (
        "executive summary",
        "Write a brief executive summary (2-3 sentences): its purpose, the main outcome and what happens next.",
    ),
    "detailed_summary": (
        "detailed summary",
        "Write a detailed summary (one or two paragraphs) that covers every topic, decision, action item (with "
        "owner and due date) and key figure.",
    ),
    "action_items": (
        "action items",
        "List every action item, one per line as `- Owner: task (due YYYY-MM-DD)`. If there are none, reply `- none`.",
    ),
    "key_decisions": (
        "key decisions",
        "List every decision that was made, one per line starting with `- `. If there are none, reply `- none`.",
    ),
    "participants": ("participants", "List every participant, one per line as `- Name (Role)`."),
    "topics_discussed": ("topics", "List the main topics discussed, one short phrase per line starting with `- `."),
}
LIST_STYLES = frozenset({"action_items", "key_decisions", "participants", "topics_discussed"})

# The system prompt of a use case that sets none, by what it answers.
KIND_SYSTEM_PROMPTS: dict[str, str] = {
    "summaries": "You summarize documents accurately and concisely, using only what the document says.",
    "answer": "Answer the question from the document only.",
}
PROMPT_TEMPLATES = ("summarize_style.j2", "summarize_combined.j2", "qa_answer.j2", "concise_answer.j2")


def default_system_prompt(use_case: str | UseCase) -> str:
    """The solver's system prompt when the experiment sets none: the use case's own; a question is answered
    concisely, as the answer matcher reads it."""
    case = usecases.get(use_case) if isinstance(use_case, str) else use_case
    prompt = case.system_prompt or KIND_SYSTEM_PROMPTS[case.answers]
    if case.asks_questions:
        from gaia_eval.scoring.answers import concise_answer_instructions

        return prompt + "\n" + concise_answer_instructions()
    return prompt


SUMMARIES_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        style: ({"type": "array", "items": {"type": "string"}} if style in LIST_STYLES else {"type": "string"})
        for style in SUMMARY_STYLES
    },
    "required": list(SUMMARY_STYLES),
    "additionalProperties": False,
}

_BULLET = re.compile(r"^\s*(?:[-*\u2022\u00b7]|\d{1,3}[.)])\s+(.*\S)\s*$")
_NONE_ITEMS = frozenset({"none", "n/a", "na", "no action items", "no decisions", "nothing"})


def prompt_settings_fingerprint() -> str:
    return prompts_fingerprint(*PROMPT_TEMPLATES)


def parse_list(text: str) -> list[str]:
    """Items of a list reply: bullet or numbered lines when there are any (headers and chatter dropped), else
    one item per line."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    bulleted = [m.group(1) for m in map(_BULLET.match, lines) if m]
    items = bulleted if bulleted else [line.strip() for line in lines]
    return [i.strip().strip("*").strip() for i in items if i.strip().strip(".").lower() not in _NONE_ITEMS]


def coerce_summaries(data: Any) -> Summaries:
    """A combined-prompt JSON reply as Summaries; a list given as one string is split, wrong shapes are errors."""
    if not isinstance(data, dict):
        raise MalformedResponseError("the combined summary reply is not a JSON object")
    fixed: dict[str, Any] = {}
    for style in SUMMARY_STYLES:
        value = data.get(style, [] if style in LIST_STYLES else "")
        if style in LIST_STYLES and isinstance(value, str):
            value = parse_list(value)
        if style not in LIST_STYLES and isinstance(value, list):
            value = " ".join(str(v) for v in value)
        fixed[style] = value
    try:
        return Summaries.model_validate(fixed)
    except ValidationError as exc:
        raise MalformedResponseError(
            f"the combined summary reply does not fit the schema: {exc.errors()[0]['msg']}"
        ) from None


MAP_REPLY_TOKENS = 512  # a part summary's budget in map-reduce: room for detail, and for every part in the reduce


@dataclass
class SolveOutcome:
    answer: str | None = None
    summaries: Summaries | None = None
    error: str | None = None
    usage: Usage = field(default_factory=Usage)
    latency_s: float = 0.0
    calls: int = 0
    attempts: int = 0
    retries: list[str] = field(default_factory=list)
    finish_reason: str | None = None
    cached_calls: int = 0
    cached_usage: Usage = field(default_factory=Usage)
    chunked: str | None = None
    time_to_success_s: float = 0.0
    batch_id: str | None = None  # the provider batch that answered (the last one, when calls spanned several)
    refresh: bool = False  # the item is being redone (--force, --retry-errors): its calls skip the response cache


class Solver:
    """Puts work items of one experiment to its provider, through the provider's gate and retry policy."""

    def __init__(
        self, spec: ExperimentSpec, use_case: str, provider: Provider, gate: ProviderGate, policy: RetryPolicy
    ):
        self.spec = spec
        self.use_case = use_case
        self.case = usecases.get(use_case)
        self.provider = provider
        self.gate = gate
        self.policy = policy
        self.system = spec.system_prompt or default_system_prompt(self.case)

    def _request(self, prompt: str, task: TaskContext, json_schema: dict[str, Any] | None = None) -> ChatRequest:
        params = self.spec.parameters
        return ChatRequest(
            messages=(Message(role="user", content=prompt),),
            system=self.system,
            max_tokens=self.spec.max_tokens,
            temperature=self.spec.temperature,
            stop=tuple(params.stop) if params.stop else None,
            top_p=params.top_p,
            seed=params.seed,
            json_schema=json_schema,
            schema_name="summaries",
            timeout_s=self.policy.timeout_s,
            task=task,
        )

    async def _call(self, request: ChatRequest, outcome: SolveOutcome, label: str, check=None) -> ChatResponse | None:
        request = replace(request, refresh=True) if outcome.refresh else request
        async def attempt() -> ChatResponse:
            response = await self.provider.complete(request)
            if check is not None:
                try:
                    check(response)  # parse inside the attempt, so a malformed reply is retried like any fault
                except MalformedResponseError as exc:
                    exc.usage = response.usage  # the unusable reply was billed all the same
                    discard = getattr(self.provider, "discard", None)  # the response cache forgets it
                    if discard is not None:
                        discard(request)
                    raise
            return response

        started = time.monotonic()
        result = await call_with_retries(attempt, self.gate, self.policy)
        outcome.time_to_success_s += time.monotonic() - started
        outcome.usage = outcome.usage + result.spent_usage
        outcome.calls += 1
        outcome.attempts += result.attempts
        outcome.retries.extend(f"{label}: {r}" if label else r for r in result.retries)
        if result.error is not None:
            err: ProviderError = result.error
            message = f"{err.reason}: {err.message}"
            outcome.error = f"{label}: {message}" if label else message
            return None
        response = result.value
        assert response is not None
        if response.cached:  # counted before the checks: a cached reply never reached a model, usable or not
            outcome.cached_calls += 1
            outcome.cached_usage = outcome.cached_usage + response.usage
        unusable = unusable_reason(response, request.max_tokens)
        if unusable is not None:
            # Billed and recorded (tokens, finish_reason), but not an answer: an error with its reason, never
            # scored as if the model had finished. Not retried: the same request meets the same limit.
            outcome.usage = outcome.usage + response.usage
            outcome.finish_reason = response.finish_reason
            outcome.error = f"{label}: {unusable}" if label else unusable
            return None
        outcome.usage = outcome.usage + response.usage
        outcome.latency_s += response.latency_s
        outcome.batch_id = response.batch_id or outcome.batch_id
        outcome.finish_reason = response.finish_reason
        return response

    def _context(self) -> int | None:
        if self.spec.context_tokens is not None:
            return self.spec.context_tokens
        entry = provider_entry(self.spec.provider)
        if self.provider.is_local and entry.follows_prompts:  # a local server, asked for its context size
            return server_context_tokens(self.spec.base_url or entry.base_url)
        return None

    async def _fit(self, item: WorkItem, document: str, outcome: SolveOutcome, label: str) -> str | None:
        """The document as it can be sent within the model's context: whole, the chunks relevant to the question,
        or (summaries) the part summaries of a map over its chunks. None with outcome.error when nothing fits."""
        context = self._context()
        if context is None:
            return document
        template = "qa_answer.j2" if self.case.asks_questions else "summarize_style.j2"
        frame = render(
            template, doc_label=label, document="", question=item.query or "", instruction="", style_label=""
        )
        budget = document_budget(context, self.spec.max_tokens, self.system + frame)
        if estimate_tokens(document) <= budget:
            return document
        map_budget = document_budget(context, min(self.spec.max_tokens, MAP_REPLY_TOKENS), self.system + frame)
        if budget <= 0 or map_budget <= 0:
            outcome.error = too_long(item.source, document, context)
            return None
        chunks = split_into_chunks(document, map_budget)
        if self.case.asks_questions:
            fitted, used = relevant_chunks(chunks, item.query or "", budget)
            outcome.chunked = f"{used} of {len(chunks)} chunks retrieved for the question"
            return fitted
        parts = []
        for number, chunk in enumerate(chunks, 1):
            prompt = render("summarize_style.j2", doc_label=f"part {number} of {len(chunks)} of a {label}",
                            document=chunk, instruction=STYLE_INSTRUCTIONS["detailed_summary"][1],
                            style_label=STYLE_INSTRUCTIONS["detailed_summary"][0])
            request = replace(self._request(prompt, TaskContext(kind="generic")), max_tokens=min(self.spec.max_tokens,
                                                                                                   MAP_REPLY_TOKENS))
            response = await self._call(request, outcome, f"part {number}")
            if response is None:
                return None
            parts.append(f"Part {number}: {response.text.strip()}")
        reduced = "\n\n".join(parts)
        if estimate_tokens(reduced) > budget:
            outcome.error = too_long(item.source, document, context)
            return None
        outcome.chunked = f"map-reduce over {len(chunks)} chunks"
        return reduced

    async def solve(self, item: WorkItem, document: str, styles: tuple[str, ...] = SUMMARY_STYLES, *,
                    refresh: bool = False) -> SolveOutcome:
        """Answer the item's question, or write the summary `styles` (all six for an experiment); `refresh`: ask
        the model even where the response cache holds a reply."""
        outcome = SolveOutcome(refresh=refresh)
        label = self.case.doc_label
        fitted = await self._fit(item, document, outcome, label)
        if fitted is None:
            return outcome
        document = fitted
        if self.case.asks_questions:
            prompt = render("qa_answer.j2", doc_label=label, document=document, question=item.query)
            response = await self._call(
                self._request(prompt, TaskContext(kind="answer", document=document, question=item.query)), outcome, ""
            )
            if response is not None:
                outcome.answer = response.text.strip()
            return outcome
        if self.spec.parameters.combined_prompt:
            wanted = [(s, STYLE_INSTRUCTIONS[s][1]) for s in styles]
            prompt = render("summarize_combined.j2", doc_label=label, document=document, styles=wanted)
            request = self._request(prompt, TaskContext(kind="summarize_all", document=document), SUMMARIES_SCHEMA)
            response = await self._call(request, outcome, "combined", check=lambda r: coerce_summaries(r.data))
            if response is not None:
                outcome.summaries = coerce_summaries(response.data)
            return outcome
        return await self._solve_styles(document, label, outcome, styles)

    async def _solve_styles(
        self, document: str, label: str, outcome: SolveOutcome, styles: tuple[str, ...] = SUMMARY_STYLES
    ) -> SolveOutcome:
        async def one(style: str) -> tuple[str, ChatResponse | None]:
            style_label, instruction = STYLE_INSTRUCTIONS[style]
            prompt = render(
                "summarize_style.j2",
                doc_label=label,
                document=document,
                instruction=instruction,
                style_label=style_label,
            )
            task = TaskContext(kind="summarize", document=document, style=style)
            return style, await self._call(self._request(prompt, task), outcome, style)

        replies = await map_concurrent(styles, one, limit=len(styles))
        if outcome.error is not None:
            return outcome
        values: dict[str, Any] = {}
        for style, response in replies:
            assert response is not None
            values[style] = parse_list(response.text) if style in LIST_STYLES else response.text.strip()
        outcome.summaries = Summaries.model_validate(values)
        return outcome
