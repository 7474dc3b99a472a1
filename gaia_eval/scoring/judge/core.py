"""The LLM judge: which model judges (`--judge PROVIDER:MODEL`), one judgement of one item (a structured call at
temperature 0, validated, with one repair request), and the item's rating from its K samples (the median).

A reply that still fails after the repair request is recorded as `unscored` with its raw text; it is never
turned into a rating. A call that fails after retries (network, server, auth) is `failed` and is never kept as
done, so the next run calls it again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gaia_eval.artifacts.base import Usage
from gaia_eval.artifacts.evaluation import ItemJudgement, JudgeCriterionResult, JudgeSample, JudgeVerdict, Rating
from gaia_eval.artifacts.experiment import ItemResult
from gaia_eval.artifacts.groundtruth import Summaries
from gaia_eval.artifacts.store import fingerprint
from gaia_eval.concurrency import Attempted, ProviderGate, RetryPolicy, call_with_retries
from gaia_eval.errors import InputError, MalformedResponseError, UsageError
from gaia_eval.providers.base import ChatRequest, ChatResponse, Message, Provider, TaskContext
from gaia_eval.scoring.judge.criteria import (
    RANK,
    RATING_OF_RANK,
    JudgeCriterion,
    criteria_for,
    parse_criteria,
    reply_schema,
    validate_reply,
)
from gaia_eval.scoring.judge.geval import expected_ratings
from gaia_eval.scoring.judge.prompt import (
    JudgePrompt,
    judge_prompts_fingerprint,
    qa_prompt,
    repair_prompt,
    summary_prompt,
)

if TYPE_CHECKING:
    from gaia_eval.usecases import UseCase

# Bump on any change to how replies are read or samples combined: it is part of the eval fingerprint.
JUDGE_VERSION = "1"
DEFAULT_JUDGE_CONCURRENCY = 8
# Per attempt. A judge reply is at most JUDGE_MAX_TOKENS; a cloud model writes that in well under a minute, so a
# call silent for longer is hung and is better retried than waited on (raise it for a slow local model).
DEFAULT_JUDGE_TIMEOUT_S = 60.0
# Seven criteria with a 40-word explanation each need about 700 tokens; the rest is headroom.
JUDGE_MAX_TOKENS = 2048
RAW_TEXT_LIMIT = 2000
SCHEMA_NAME = "judgement"
MEDIAN_RULE = (
    "median of the scored samples on the scale Poor < Fair < Good < Excellent; "
    "for an even number of samples, the lower of the two middle ratings"
)


@dataclass(frozen=True)
class JudgeSettings:
    provider: str
    model: str
    base_url: str | None = None
    samples: int = 1
    concurrency: int = DEFAULT_JUDGE_CONCURRENCY
    retry: RetryPolicy = field(default_factory=lambda: RetryPolicy(timeout_s=DEFAULT_JUDGE_TIMEOUT_S))
    max_tokens: int = JUDGE_MAX_TOKENS
    criteria: tuple[JudgeCriterion, ...] = ()  # --judge-criteria: the user's summary criteria, if any

    @property
    def spec(self) -> str:
        return f"{self.provider}:{self.model}"

    def fingerprint(self) -> str:
        """What shapes the judgements (not their pacing): part of every judged evaluation's inputs."""
        return fingerprint(
            {
                "spec": self.spec,
                "base_url": self.base_url,
                "samples": self.samples,
                "max_tokens": self.max_tokens,
                "prompts": judge_prompts_fingerprint(),
                "version": JUDGE_VERSION,
                # only when set, so that evaluations judged on the default criteria stay current
                **({"criteria": [vars(c) for c in self.criteria]} if self.criteria else {}),
            }
        )

    def check_key(self) -> None:
        """Raise MissingCredentialsError now when the judge needs a key that is not set (no SDK is imported)."""
        from gaia_eval.providers import ProviderSettings, api_key_for

        api_key_for(ProviderSettings(provider=self.provider, model=self.model, base_url=self.base_url))


def parse_judge_spec(
    spec: str,
    *,
    base_url: str | None = None,
    samples: int = 1,
    concurrency: int = DEFAULT_JUDGE_CONCURRENCY,
    timeout_s: float = DEFAULT_JUDGE_TIMEOUT_S,
    criteria: str | None = None,
) -> JudgeSettings:
    """`PROVIDER:MODEL`, split on the first colon (model ids may hold colons: `ollama:llama3.2:3b`)."""
    provider, _, model = spec.partition(":")
    provider, model = provider.strip(), model.strip()
    example = "e.g. --judge anthropic:claude-sonnet-4-5 or --judge ollama:llama3.2:3b"
    if not provider or not model:
        raise UsageError(f"--judge '{spec}' is not PROVIDER:MODEL", field="--judge", fix=example)
    from gaia_eval.registry import PROVIDERS, provider_entry, provider_names

    judges = provider_names(follows_prompts=True)
    if provider in PROVIDERS and not provider_entry(provider).follows_prompts:
        raise UsageError(
            f"the offline {provider}s cannot judge", field="--judge", fix=f"use one of: {', '.join(judges)}"
        )
    if provider not in judges:
        raise UsageError(f"unknown provider '{provider}'", field="--judge", fix=f"use one of: {', '.join(judges)}")
    if samples < 1:
        raise UsageError(f"--judge-samples {samples} is below 1", field="--judge-samples", fix="pass 1 or more")
    if concurrency < 1:
        raise UsageError(
            f"--judge-concurrency {concurrency} is below 1", field="--judge-concurrency", fix="pass 1 or more"
        )
    if not timeout_s > 0:
        raise UsageError(
            f"--judge-timeout {timeout_s:g} is not above 0", field="--judge-timeout", fix="pass seconds, e.g. 60"
        )
    custom: tuple[JudgeCriterion, ...] = ()
    if criteria is not None:
        try:
            custom = parse_criteria(criteria)
        except ValueError as exc:
            raise UsageError(str(exc), field="--judge-criteria",
                             fix="e.g. --judge-criteria coherence,consistency,fluency,relevance") from None
    return JudgeSettings(provider=provider, model=model, base_url=base_url, samples=samples, concurrency=concurrency,
                         retry=RetryPolicy(timeout_s=timeout_s), criteria=custom)


@dataclass(frozen=True)
class JudgeRequest:
    """What the judge is asked about one item; the same for each of its samples."""

    prompt: JudgePrompt
    criteria: tuple[JudgeCriterion, ...]
    schema: dict[str, Any]
    fingerprint: str  # earlier samples are reused only when this matches


def judge_request(
    settings: JudgeSettings,
    use_case: UseCase,
    mode: str,
    item: ItemResult,
    source: str,
    reference: Summaries | None,
) -> JudgeRequest:
    """The request for an item the model answered. An answer to a question needs the item's expected answer;
    summaries are judged against `reference` when there is one (comparative) and on their own otherwise
    (standalone)."""
    criteria = criteria_for(use_case, mode, settings.criteria)
    if use_case.asks_questions:
        if item.groundtruth_answer is None:
            raise InputError(
                f"{use_case.name} item '{item.item_id}' has no expected answer",
                fix=f"run batch-experiment on {use_case.name} ground truth",
            )
        expected = item.groundtruth_answer
        prompt = qa_prompt(use_case, source, item.query or expected.query, expected, item.answer or "", criteria)
    else:
        prompt = summary_prompt(use_case, source, item.summaries or Summaries(), reference, criteria)
    schema = reply_schema(criteria)
    key = fingerprint(
        {
            "spec": settings.spec,
            "base_url": settings.base_url,
            "max_tokens": settings.max_tokens,
            "system": prompt.system,
            "user": prompt.user,
            "schema": schema,
            "version": JUDGE_VERSION,
        }
    )
    return JudgeRequest(prompt=prompt, criteria=criteria, schema=schema, fingerprint=key)


@dataclass
class _Reply:
    """One judge reply read: verdicts, or the problem with it (and the reply text, when the judge wrote one)."""

    verdicts: dict[str, JudgeVerdict] | None = None
    problem: str | None = None
    reply_text: str | None = None  # what the judge said, sent back in the repair request
    raw: str | None = None  # what is kept when it stays unusable


def _read_reply(outcome: ChatResponse | MalformedResponseError, criteria: tuple[JudgeCriterion, ...]) -> _Reply:
    if isinstance(outcome, MalformedResponseError):
        # The provider could not parse the reply (not JSON, or cut off at max_tokens); its message quotes it.
        return _Reply(
            problem=f"the reply was not one complete JSON object ({outcome.message})",
            raw=outcome.raw_text or outcome.message,
        )
    text = outcome.text
    if outcome.finish_reason == "refusal":
        return _Reply(problem=f"you declined to rate ({text.strip()[:200]})", reply_text=text, raw=text)
    if outcome.finish_reason == "length":
        return _Reply(problem="the reply was cut off at max_tokens; keep each explanation short", raw=text)
    shown = text if text.strip() else json.dumps(outcome.data)
    try:
        verdicts = validate_reply(outcome.data, criteria)
    except ValueError as exc:
        return _Reply(problem=f"the JSON does not fit the schema: {exc}", reply_text=shown, raw=shown)
    return _Reply(verdicts=verdicts)


class Judge:
    """Puts judge requests to one provider through its gate and retry policy."""

    def __init__(
        self, settings: JudgeSettings, provider: Provider, gate: ProviderGate, top_logprobs: int | None = None
    ) -> None:
        self.settings = settings
        self.provider = provider
        self.gate = gate
        # With top_logprobs, each scored sample's G-Eval expected ranks (geval.py), by (request fingerprint, index);
        # a sample whose reply carried no log-probabilities has none.
        self.top_logprobs = top_logprobs
        self.expected: dict[tuple[str, int], dict[str, float]] = {}

    async def _ask(
        self, request: JudgeRequest, messages: list[Message], sample_index: int = 0, refresh: bool = False
    ) -> Attempted[ChatResponse | MalformedResponseError]:
        chat = ChatRequest(
            messages=tuple(messages),
            system=request.prompt.system,
            max_tokens=self.settings.max_tokens,
            temperature=0.0,
            json_schema=request.schema,
            schema_name=SCHEMA_NAME,
            timeout_s=self.settings.retry.timeout_s,
            task=TaskContext(kind="generic"),
            sample_index=sample_index,
            refresh=refresh,
            top_logprobs=self.top_logprobs,
        )

        async def attempt() -> ChatResponse | MalformedResponseError:
            try:
                return await self.provider.complete(chat)
            except MalformedResponseError as exc:
                # Resending the same request at temperature 0 mostly gets the same reply back; the repair
                # request, which quotes the problem, is the retry that can help.
                return exc

        return await call_with_retries(attempt, self.gate, self.settings.retry)

    async def sample(self, request: JudgeRequest, index: int, *, refresh: bool = False) -> JudgeSample:
        """One independent judgement: a call, and when its reply is unusable one repair request quoting the
        problem. Unusable twice -> unscored with the raw reply; a call failing after retries -> failed."""
        messages = [Message(role="user", content=request.prompt.user)]
        record = JudgeSample(index=index, status="unscored")
        reply = _Reply()
        cached_replies = 0
        for round_ in range(2):  # the first request, then one repair request
            record.repaired = round_ > 0
            result = await self._ask(request, messages, index, refresh)
            record.calls += 1
            record.attempts += result.attempts
            record.usage = record.usage + result.spent_usage
            if result.error is not None:
                record.status, record.error = "failed", f"{result.error.reason}: {result.error.message}"
                return record
            assert result.value is not None
            if result.value.usage is not None:  # an unreadable reply carries the usage it was billed, if any
                record.usage = record.usage + result.value.usage
            record.batch_id = getattr(result.value, "batch_id", None) or record.batch_id
            if getattr(result.value, "cached", False) and result.value.usage is not None:
                record.cached_usage = record.cached_usage + result.value.usage
                cached_replies += 1
            reply = _read_reply(result.value, request.criteria)
            if reply.verdicts is not None:
                if self.top_logprobs:
                    criteria = [c.id for c in request.criteria]
                    self.expected[(request.fingerprint, index)] = expected_ratings(
                        getattr(result.value, "text", ""), getattr(result.value, "logprobs", None), criteria)
                record.status, record.verdicts = "scored", reply.verdicts
                record.cached = cached_replies == record.calls
                return record
            if reply.reply_text:
                messages.append(Message(role="assistant", content=reply.reply_text))
            messages.append(Message(role="user", content=repair_prompt(reply.problem or "", request.criteria)))
        record.raw, record.error = (reply.raw or "")[:RAW_TEXT_LIMIT], reply.problem
        return record


def median_rating(ratings: list[Rating]) -> Rating:
    """The median on Poor < Fair < Good < Excellent; for an even count the lower middle rating (a judge that
    is split between two ratings gets the stricter one)."""
    ranks = sorted(RANK[r] for r in ratings)
    return RATING_OF_RANK[ranks[(len(ranks) - 1) // 2]]  # type: ignore[return-value]


def combine_samples(request: JudgeRequest, samples: list[JudgeSample]) -> ItemJudgement:
    """The item's judgement from its samples: per criterion the median of the scored samples, with the
    explanation of the first sample that gave it. No scored sample -> unscored (or failed), with no rating."""
    samples = sorted(samples, key=lambda s: s.index)
    usage = Usage()
    for s in samples:
        usage = usage + s.usage
    scored = [s for s in samples if s.status == "scored"]
    common = {
        "fingerprint": request.fingerprint,
        "source_excerpted": request.prompt.source_excerpted,
        "samples": samples,
        "usage": usage,
    }
    if not scored:
        status = "failed" if any(s.status == "failed" for s in samples) else "unscored"
        return ItemJudgement.model_validate({"status": status, **common})
    criteria = []
    for c in request.criteria:
        ratings: list[Rating] = [s.verdicts[c.id].rating for s in scored]
        median = median_rating(ratings)
        explanation = next(s.verdicts[c.id].explanation for s in scored if s.verdicts[c.id].rating == median)
        criteria.append(
            JudgeCriterionResult(criterion=c.id, rating=median, explanation=explanation, sample_ratings=ratings)
        )
    return ItemJudgement.model_validate({"status": "scored", "criteria": criteria, **common})
