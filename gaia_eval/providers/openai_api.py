"""The OpenAI Chat Completions provider (official `openai` SDK, async), also used for the OpenAI-compatible
local servers (lemonade, ollama, vllm, lmstudio, llamacpp).

Retries belong to gaia_eval.concurrency, so the SDK's own retries are off. finish_reason keeps the Chat
Completions vocabulary ("stop", "length", "tool_calls", "content_filter") plus "refusal" when the model
declined (then `text` is the refusal and `data` is None).
"""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import urlparse

import openai
import orjson

from gaia_eval.artifacts.base import Usage
from gaia_eval.concurrency import DEFAULT_TIMEOUT_S
from gaia_eval.providers import ProviderSettings, effective_base_url, is_local
from gaia_eval.providers.base import ChatRequest, ChatResponse, Message, TokenLogprob, ToolCall, ToolSpec
from gaia_eval.providers.limits import length_stop_reason
from gaia_eval.providers.sdk_errors import SdkAccess, call_sdk, malformed, read_billed
from gaia_eval.providers.structured import parse_json_reply, schema_instruction

# The SDK insists on a key string; local servers ignore it. Passing one also keeps the SDK from picking up
# OPENAI_API_KEY from the environment and sending the real key to a local server.
NO_KEY_PLACEHOLDER = "not-needed"


def message_to_openai(message: Message) -> dict[str, Any]:
    """One conversation message in Chat Completions form (assistant tool calls and tool results included)."""
    if message.role == "tool":
        return {"role": "tool", "tool_call_id": message.tool_call_id or "", "content": message.content}
    if message.role == "assistant" and message.tool_calls:
        return {
            "role": "assistant",
            "content": message.content or None,
            "tool_calls": [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": json.dumps(call.arguments)},
                }
                for call in message.tool_calls
            ],
        }
    return {"role": message.role, "content": message.content}


def tool_to_openai(tool: ToolSpec) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {"name": tool.name, "description": tool.description, "parameters": tool.parameters},
    }


def _http_client() -> Any | None:
    """The SDK's aiohttp transport when aiohttp is installed, else None (the SDK's default httpx2 client).
    At 64 concurrent calls the default pool re-probes every idle socket on each request; aiohttp costs about
    half the CPU per call, which is what lets a single process keep a 64-wide pipeline full."""
    try:
        return openai.DefaultAioHttpClient()
    except RuntimeError:  # raised by the SDK when aiohttp is missing
        return None


def _is_openai_cloud(base_url: str | None) -> bool:
    return base_url is None or urlparse(base_url).hostname == "api.openai.com"


def token_logprobs(logprobs: Any) -> list[TokenLogprob] | None:
    """The reply's `logprobs.content` (OpenAI's shape, which llama.cpp's server also returns) as TokenLogprob;
    None when the server sent none or something else."""
    content = logprobs.get("content") if isinstance(logprobs, dict) else None
    if not isinstance(content, list):
        return None
    out = []
    for entry in content:
        if not isinstance(entry, dict) or not isinstance(entry.get("token"), str):
            return None
        top = tuple(
            (alt["token"], float(alt["logprob"]))
            for alt in entry.get("top_logprobs") or []
            if isinstance(alt, dict)
            and isinstance(alt.get("token"), str)
            and isinstance(alt.get("logprob"), (int, float))
        )
        out.append(TokenLogprob(entry["token"], float(entry.get("logprob") or 0.0), top))
    return out


def _reported_usage(completion: Any) -> Usage | None:
    """The tokens a chat completion body reports, or None when it reports none (or is no object at all)."""
    usage = completion.get("usage") if isinstance(completion, dict) else None
    if not isinstance(usage, dict):
        return None
    return Usage(
        input_tokens=int(usage.get("prompt_tokens") or 0),
        output_tokens=int(usage.get("completion_tokens") or 0),
    )


class OpenAIProvider(SdkAccess):
    """Chat Completions through `openai.AsyncOpenAI`; one client (and connection pool) per provider."""

    _sdk = openai

    def __init__(self, settings: ProviderSettings, api_key: str | None) -> None:
        self.name = settings.provider
        self.model = settings.model
        self.is_local = is_local(settings.provider)
        self._settings = settings
        self._secret = api_key
        # Presets always have a URL, so OPENAI_BASE_URL only ever redirects the "openai" provider. The URL is the
        # one the response cache keys on and the experiment file records.
        base_url = effective_base_url(settings)
        # OpenAI's own API wants max_completion_tokens (reasoning models reject max_tokens); compatible servers
        # mostly know only max_tokens.
        self._token_param = "max_completion_tokens" if _is_openai_cloud(base_url) else "max_tokens"
        self._client = openai.AsyncOpenAI(
            api_key=api_key or NO_KEY_PLACEHOLDER,
            base_url=base_url,
            max_retries=0,
            timeout=settings.timeout_s or DEFAULT_TIMEOUT_S,
            http_client=_http_client(),
        )

    def build_params(self, request: ChatRequest) -> dict[str, Any]:
        system = request.system
        if request.json_schema is not None and self.is_local:
            # Many local servers treat response_format as a hint (or ignore it); small models follow an
            # explicit instruction much better.
            instruction = schema_instruction(request.json_schema, request.schema_name)
            system = f"{system}\n\n{instruction}" if system else instruction
        messages = [{"role": "system", "content": system}] if system else []
        messages += [message_to_openai(m) for m in request.messages]
        params: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            self._token_param: request.max_tokens,
            "temperature": request.temperature,
        }
        if request.stop:
            params["stop"] = list(request.stop)
        if request.top_p is not None:
            params["top_p"] = request.top_p
        if request.seed is not None:
            params["seed"] = request.seed
        if request.tools:
            params["tools"] = [tool_to_openai(t) for t in request.tools]
        if request.top_logprobs:
            params["logprobs"] = True
            params["top_logprobs"] = request.top_logprobs
        if request.json_schema is not None:
            params["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": request.schema_name, "schema": request.json_schema, "strict": False},
            }
        return params

    async def complete(self, request: ChatRequest) -> ChatResponse:
        params = self.build_params(request)
        timeout = request.timeout_s or self._settings.timeout_s or DEFAULT_TIMEOUT_S
        started = time.monotonic()
        # The documented generic `post` instead of `chat.completions.create`: same endpoint, auth, errors and
        # timeout, minus create()'s type-directed rewrite of the params and the pydantic construction of the
        # reply. Both are no-ops for plain JSON but cost ~1.5 ms of CPU per call together, which at 64 concurrent
        # calls is what limits throughput; the body is read with orjson below instead.
        body = await call_sdk(
            lambda: self._client.post("/chat/completions", body=params, cast_to=bytes, options={"timeout": timeout}),
            openai,
            self.name,
            self._secret,
        )
        latency = time.monotonic() - started
        try:
            completion = orjson.loads(body)
        except orjson.JSONDecodeError:
            raise malformed(
                self.name, "reply body is not JSON", body.decode("utf-8", "replace"), self._secret
            ) from None
        return self.to_response(completion, request, latency)

    def to_response(self, completion: Any, request: ChatRequest, latency: float) -> ChatResponse:
        usage = _reported_usage(completion)
        return read_billed(usage, lambda: self._read_completion(completion, request, latency, usage or Usage()))

    def _read_completion(self, completion: Any, request: ChatRequest, latency: float, usage: Usage) -> ChatResponse:
        if not isinstance(completion, dict):
            raise malformed(self.name, "reply body is not a chat completion", str(completion), self._secret)
        choices = completion.get("choices")
        if not choices or not isinstance(choices, list) or not isinstance(choices[0], dict):
            raise malformed(self.name, "reply has no choices", orjson.dumps(completion).decode(), self._secret)
        choice = choices[0]
        message = choice.get("message")
        if not isinstance(message, dict):
            raise malformed(self.name, "reply choice has no message", str(choice), self._secret)
        finish_reason = choice.get("finish_reason")
        refusal = message.get("refusal")
        text = message.get("content") or ""
        if not isinstance(text, str):
            raise malformed(self.name, "reply content is not text", str(text), self._secret)
        if refusal:
            text, finish_reason = str(refusal), "refusal"
        tool_calls = [self._tool_call(i, call) for i, call in enumerate(message.get("tool_calls") or [])]
        data = None
        if request.json_schema is not None and finish_reason != "refusal" and not tool_calls:
            data = parse_json_reply(text, provider=self.name, finish_reason=finish_reason, secret=self._secret,
                                    length_reason=length_stop_reason(request.max_tokens, usage))
        return ChatResponse(
            text=text,
            usage=usage,
            latency_s=latency,
            finish_reason=finish_reason,
            model=completion.get("model") or self.model,
            data=data,
            tool_calls=tool_calls,
            logprobs=token_logprobs(choice.get("logprobs")) if request.top_logprobs else None,
        )

    def _tool_call(self, index: int, call: Any) -> ToolCall:
        function = call.get("function") if isinstance(call, dict) else None
        name = function.get("name") if isinstance(function, dict) else None
        raw_arguments = (function.get("arguments") if isinstance(function, dict) else None) or "{}"
        try:
            arguments = json.loads(raw_arguments)
        except (ValueError, TypeError):
            what = f"tool call '{name}' has non-JSON arguments"
            raise malformed(self.name, what, str(raw_arguments), self._secret) from None
        if not name or not isinstance(arguments, dict):
            raise malformed(self.name, "tool call lacks a name or object arguments", str(call), self._secret)
        # Some compatible servers omit the id; the tool result must still name the call it answers.
        return ToolCall(id=call.get("id") or f"call_{index}", name=name, arguments=arguments)

    async def aclose(self) -> None:
        await self._client.close()
