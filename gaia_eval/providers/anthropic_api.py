"""The Anthropic Messages API provider (official `anthropic` SDK, async client).

Structured output uses one forced tool whose input schema is the requested JSON schema; its `input` is the
data. Sampling parameters (temperature, top_p) and seed are not sent: the anthropic SDK 2.x and the API
version it speaks (2026-10-21) no longer accept them, and sending them turns every call into a 400.
finish_reason is mapped to the Chat Completions vocabulary used across gaia-eval: end_turn/stop_sequence ->
"stop", max_tokens -> "length", tool_use -> "tool_calls" (or "stop" for the forced schema tool), refusal ->
"refusal"; any other stop reason passes through unchanged.
"""

from __future__ import annotations

import time
from typing import Any

import anthropic

from gaia_eval.artifacts.base import Usage
from gaia_eval.concurrency import DEFAULT_TIMEOUT_S
from gaia_eval.providers import ProviderSettings, effective_base_url
from gaia_eval.providers.base import ChatRequest, ChatResponse, Message, ToolCall, ToolSpec
from gaia_eval.providers.limits import length_stop_reason
from gaia_eval.providers.sdk_errors import SdkAccess, call_sdk, malformed, read_billed
from gaia_eval.providers.structured import cut_off

_STOP_REASONS = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "tool_use": "tool_calls",
}


def _blocks(message: Message) -> tuple[str, list[dict[str, Any]]]:
    if message.role == "tool":
        return "user", [{"type": "tool_result", "tool_use_id": message.tool_call_id or "", "content": message.content}]
    # Anthropic rejects empty text blocks, so an assistant turn that only called tools has none.
    blocks: list[dict[str, Any]] = [{"type": "text", "text": message.content}] if message.content else []
    if message.role == "assistant":
        blocks += [
            {"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments}
            for call in message.tool_calls
        ]
    return message.role, blocks


def messages_to_anthropic(messages: tuple[Message, ...]) -> list[dict[str, Any]]:
    """The conversation as Messages API turns. Tool results become user turns, and consecutive turns of one
    role are merged, because every tool_result answering a turn must arrive in the single next user turn."""
    turns: list[dict[str, Any]] = []
    for message in messages:
        role, blocks = _blocks(message)
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"].extend(blocks)
        else:
            turns.append({"role": role, "content": blocks})
    return turns


def _http_client() -> Any | None:
    """The SDK's aiohttp transport when aiohttp is installed (about half the CPU per call of the default httpx2
    pool at high concurrency), else None for the SDK's default client."""
    try:
        return anthropic.DefaultAioHttpClient()
    except RuntimeError:  # raised by the SDK when aiohttp is missing
        return None


def tool_to_anthropic(tool: ToolSpec) -> dict[str, Any]:
    return {"name": tool.name, "description": tool.description, "input_schema": tool.parameters}


def _reported_usage(reply: Any) -> Usage | None:
    """The tokens a Messages API reply reports, or None when it reports none (or is not a message at all)."""
    usage = getattr(reply, "usage", None)
    if usage is None:
        return None
    # Cache reads and writes are input too; counting only `input_tokens` would under-report the prompt.
    input_tokens = sum(
        getattr(usage, attr, 0) or 0
        for attr in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
    )
    return Usage(input_tokens=input_tokens, output_tokens=getattr(usage, "output_tokens", 0) or 0)


class AnthropicProvider(SdkAccess):
    """Messages API through `anthropic.AsyncAnthropic`; one client (and connection pool) per provider."""

    _sdk = anthropic

    def __init__(self, settings: ProviderSettings, api_key: str | None) -> None:
        self.name = settings.provider
        self.model = settings.model
        self.is_local = False
        self._settings = settings
        self._secret = api_key
        self._client = anthropic.AsyncAnthropic(
            api_key=api_key,
            base_url=effective_base_url(settings),  # what the response cache keys on
            max_retries=0,
            timeout=settings.timeout_s or DEFAULT_TIMEOUT_S,
            http_client=_http_client(),
        )

    def build_params(self, request: ChatRequest) -> dict[str, Any]:
        params: dict[str, Any] = {
            "model": self.model,
            "max_tokens": request.max_tokens,
            "messages": messages_to_anthropic(request.messages),
        }
        if request.system:
            params["system"] = request.system
        if request.stop:
            params["stop_sequences"] = list(request.stop)
        tools = [tool_to_anthropic(t) for t in request.tools]
        if request.json_schema is not None:
            tools.append(
                {
                    "name": request.schema_name,
                    "description": f"Record the reply as a '{request.schema_name}' object.",
                    "input_schema": request.json_schema,
                }
            )
            params["tool_choice"] = {"type": "tool", "name": request.schema_name}
        if tools:
            params["tools"] = tools
        return params

    async def complete(self, request: ChatRequest) -> ChatResponse:
        params = self.build_params(request)
        timeout = request.timeout_s or self._settings.timeout_s or DEFAULT_TIMEOUT_S
        started = time.monotonic()
        reply = await call_sdk(
            lambda: self._client.messages.create(**params, timeout=timeout), anthropic, self.name, self._secret
        )
        latency = time.monotonic() - started
        return self.to_response(reply, request, latency)

    def to_response(self, reply: Any, request: ChatRequest, latency: float) -> ChatResponse:
        usage = _reported_usage(reply)
        return read_billed(usage, lambda: self._read_message(reply, request, latency, usage or Usage()))

    def _read_message(self, reply: Any, request: ChatRequest, latency: float, usage: Usage) -> ChatResponse:
        if isinstance(reply, str):  # the SDK hands back the raw text when the body is not JSON-typed
            raise malformed(self.name, "reply body is not a message", reply, self._secret)
        content = getattr(reply, "content", None)
        if content is None:
            raw = reply.to_json() if hasattr(reply, "to_json") else str(reply)
            raise malformed(self.name, "reply has no content", raw, self._secret)
        stop_reason = getattr(reply, "stop_reason", None)
        texts: list[str] = []
        tool_calls: list[ToolCall] = []
        data: Any = None
        schema_answered = False
        for block in content:
            kind = getattr(block, "type", None)
            if kind == "text":
                texts.append(block.text)
            elif kind == "tool_use":
                if request.json_schema is not None and block.name == request.schema_name:
                    data, schema_answered = block.input, True
                else:
                    tool_calls.append(ToolCall(id=block.id, name=block.name, arguments=dict(block.input or {})))
        text = "".join(texts)
        finish_reason = _STOP_REASONS.get(stop_reason, stop_reason) if stop_reason else None
        if request.json_schema is not None and finish_reason != "refusal":
            if finish_reason == "length":
                raise cut_off(self.name, text, self._secret, length_stop_reason(request.max_tokens, usage))
            if not schema_answered or not isinstance(data, dict):
                what = f"reply did not fill the '{request.schema_name}' schema"
                raise malformed(self.name, what, text, self._secret)
            if not tool_calls:
                finish_reason = "stop"  # the forced schema tool is how a structured reply ends, not a tool call
        return ChatResponse(
            text=text,
            usage=usage,
            latency_s=latency,
            finish_reason=finish_reason,
            model=getattr(reply, "model", None) or self.model,
            data=data,
            tool_calls=tool_calls,
        )

    async def aclose(self) -> None:
        await self._client.close()
