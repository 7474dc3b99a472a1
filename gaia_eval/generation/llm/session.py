"""One model conversation of the LLM-backed stages (generate, groundtruth): the calls and what they cost.

Each call goes through the endpoint's ProviderGate with `call_with_retries`, so transient faults (rate limits,
5xx, timeouts, dropped connections) are retried with backoff exactly as in batch-experiment. A reply that cannot
be read (not JSON, cut off, no schema object) is different: asking the same question again rarely helps, so it
is not retried here but handed back as `UnreadableReply` for the caller's one repair turn, which tells the model
what was wrong. Usage (unreadable replies included) and call counts of every turn are added up for the artifact.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from gaia_eval.artifacts.base import Usage
from gaia_eval.concurrency import ProviderGate, RetryPolicy, call_with_retries
from gaia_eval.errors import MalformedResponseError, UsageError
from gaia_eval.providers import ProviderSettings
from gaia_eval.providers.base import ChatRequest, ChatResponse, Message, Provider
from gaia_eval.registry import provider_names


def llm_provider_settings(provider: str, model: str | None, base_url: str | None, timeout_s: float) -> ProviderSettings:
    """The settings of an LLM provider named on the command line; an unknown provider or a missing --model is a
    UsageError before anything is read or written. (A missing API key is reported by create_provider.)"""
    llm_providers = provider_names(follows_prompts=True)
    if provider not in llm_providers:
        raise UsageError(
            f"unknown provider '{provider}'",
            field="--provider",
            fix=f"use offline or one of: {', '.join(llm_providers)}",
        )
    if not model:
        raise UsageError(
            f"provider '{provider}' needs a model", field="--model", fix="add --model, e.g. --model claude-sonnet-4-5"
        )
    return ProviderSettings(provider=provider, model=model, base_url=base_url, timeout_s=timeout_s)


class CallFailed(Exception):
    """The provider failed for good (after retries, or with an error no retry fixes): the item fails."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class UnreadableReply(Exception):
    """The model answered, but its reply could not be read; `problem` says why, for the repair turn."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


@dataclass
class Session:
    provider: Provider
    gate: ProviderGate
    policy: RetryPolicy
    system: str
    max_tokens: int
    temperature: float = 0.0
    json_schema: dict[str, Any] | None = None
    schema_name: str = "result"
    usage: Usage = field(default_factory=Usage)
    cached_usage: Usage = field(default_factory=Usage)  # tokens answered from the response cache: not paid
    calls: int = 0
    attempts: int = 0
    retries: list[str] = field(default_factory=list)

    async def send(self, messages: Sequence[Message], *, max_tokens: int | None = None) -> ChatResponse:
        """One turn. Raises CallFailed or UnreadableReply; a refusal or a cut-off text reply is returned as is
        (its finish_reason says so) for the caller to judge."""
        request = ChatRequest(
            messages=tuple(messages),
            system=self.system,
            max_tokens=max_tokens or self.max_tokens,
            temperature=self.temperature,
            json_schema=self.json_schema,
            schema_name=self.schema_name,
            timeout_s=self.policy.timeout_s,
        )

        async def attempt() -> ChatResponse | MalformedResponseError:
            try:
                return await self.provider.complete(request)
            except MalformedResponseError as exc:
                return exc  # the repair turn's business, not a transient fault to retry blindly

        result = await call_with_retries(attempt, self.gate, self.policy)
        self.calls += 1
        self.attempts += result.attempts
        self.retries.extend(result.retries)
        self.usage = self.usage + result.spent_usage
        if result.error is not None:
            raise CallFailed(f"{result.error.reason}: {result.error.message}")
        value = result.value
        assert value is not None
        if value.usage is not None:  # an unreadable reply carries the usage it was billed, if any
            self.usage = self.usage + value.usage
        if isinstance(value, MalformedResponseError):
            raise UnreadableReply(value.message)
        if value.cached:
            self.cached_usage = self.cached_usage + value.usage
        return value

    @property
    def paid_usage(self) -> Usage:
        return self.usage - self.cached_usage


def reply_text(response: ChatResponse) -> str:
    """What the model said, as text for the conversation history (a structured reply as its JSON)."""
    if response.data is not None:
        return json.dumps(response.data, ensure_ascii=False)
    return response.text


def follow_up(prompt: str, previous: str | None, message: str) -> tuple[Message, ...]:
    """The conversation for a second turn: the first prompt, the model's reply (when there was a usable one) and
    the follow-up message."""
    turns = [Message(role="user", content=prompt)]
    if previous and previous.strip():
        turns.append(Message(role="assistant", content=previous))
    turns.append(Message(role="user", content=message))
    return tuple(turns)
