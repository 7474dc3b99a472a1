"""The one small async protocol every model provider implements, and the request/response records it uses."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from gaia_eval.artifacts.base import Usage


@dataclass(frozen=True)
class TaskContext:
    """What the call is for, in structured form. LLM providers ignore it (they read the rendered prompt);
    the offline baselines, which cannot read prompts, work from it."""

    kind: Literal["summarize", "summarize_all", "answer", "generic"]
    document: str = ""
    style: str | None = None  # summary style for kind="summarize"
    question: str | None = None  # for kind="answer"


@dataclass(frozen=True)
class Message:
    role: Literal["user", "assistant", "tool"]
    content: str
    tool_call_id: str | None = None  # role="tool": which call this result answers
    tool_calls: tuple[ToolCall, ...] = ()  # role="assistant": calls the model made


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    parameters: dict[str, Any]  # JSON schema of the arguments


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class ChatRequest:
    messages: tuple[Message, ...]
    system: str = ""
    max_tokens: int = 1024
    temperature: float = 0.0
    stop: tuple[str, ...] | None = None
    top_p: float | None = None
    seed: int | None = None
    # Structured output: the provider asks the API for JSON matching this schema (response_format / tool use)
    # and fills ChatResponse.data with the parsed object; a reply that does not parse raises
    # MalformedResponseError. Validation against a pydantic model is the caller's job.
    json_schema: dict[str, Any] | None = None
    schema_name: str = "result"
    tools: tuple[ToolSpec, ...] = ()
    timeout_s: float | None = None
    task: TaskContext | None = None
    # Which of several samples of the same prompt this is: part of the response-cache key, so K samples are K
    # answers, not one answer K times. Providers do not send it.
    sample_index: int = 0
    # Ask the model even when the response cache holds an answer: the one it holds was found unusable.
    refresh: bool = False
    # Ask for each output token's log-probability and this many most likely alternatives (OpenAI's and llama.cpp's
    # `logprobs`/`top_logprobs`); ChatResponse.logprobs holds them when the server returns them. G-Eval reads them.
    top_logprobs: int | None = None


@dataclass
class ChatResponse:
    text: str
    usage: Usage
    latency_s: float
    finish_reason: str | None
    model: str
    data: Any = None  # parsed JSON when json_schema was requested
    tool_calls: list[ToolCall] = field(default_factory=list)
    cached: bool = False  # served from the response cache: nothing was paid for it
    batch_id: str | None = None  # answered through this provider batch (providers/batch), at the batch price
    logprobs: list[TokenLogprob] | None = None  # when requested and returned: one per output token, in order


@dataclass(frozen=True)
class TokenLogprob:
    """One output token, its log-probability, and the most likely alternatives at its position (itself included)."""

    token: str
    logprob: float
    top: tuple[tuple[str, float], ...] = ()


@runtime_checkable
class Provider(Protocol):
    """One configured model endpoint. Implementations map their SDK's errors to gaia_eval.errors."""

    name: str  # provider name as in configs, e.g. "openai", "ollama", "baseline"
    model: str
    is_local: bool  # local servers and baselines cost $0

    async def complete(self, request: ChatRequest) -> ChatResponse: ...

    async def aclose(self) -> None: ...
