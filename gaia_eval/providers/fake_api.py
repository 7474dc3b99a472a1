"""Provider `fake`: a model that needs no key, no server and no network, for your own tests and examples.

Models:
- `echo`: replies with the request's last user message; asked for JSON (a schema), it fills every field of the
  schema from that text (strings get the text, lists one element, numbers 0, booleans false, enums their first
  value), so any stage that asks for structured output gets a valid object.
- `scripted`: replies from a JSON file named by `GAIA_EVAL_FAKE_REPLIES` (or `FakeProvider(replies=...)`): either
  an object mapping a piece of the prompt to its reply (the first key found in the system prompt + messages wins;
  the key "" is the default), or a list of replies given in call order (the last one repeats). A reply is a
  string, or a JSON object for a request that asks for JSON.

Example (Python, in a plugin's own tests):
    >>> import asyncio
    >>> from gaia_eval.providers.base import ChatRequest, Message
    >>> fake = FakeProvider("scripted", replies={"capital": "Paris", "": "I don't know"})
    >>> asyncio.run(fake.complete(ChatRequest(messages=(Message("user", "The capital of France?"),)))).text
    'Paris'

From the command line: `--provider fake --model echo`, or in an experiment config
`{"name": "fake", "provider": "fake", "model": "scripted"}` with GAIA_EVAL_FAKE_REPLIES=replies.json. Tokens are
counted as words; it costs $0. Replies are never cached: each run asks again (nothing is paid).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from gaia_eval.artifacts.base import Usage
from gaia_eval.errors import ConfigError
from gaia_eval.providers.base import ChatRequest, ChatResponse

MODELS: tuple[str, ...] = ("echo", "scripted")
REPLIES_ENV = "GAIA_EVAL_FAKE_REPLIES"
Replies = dict[str, Any] | list[Any]


class FakeProvider:
    """A provider with scripted or echoed replies (see the module's docstring). `calls` lists every request."""

    name = "fake"
    is_local = True

    def __init__(self, model: str = "echo", replies: Replies | None = None) -> None:
        if model not in MODELS:
            raise ConfigError(f"unknown fake model '{model}'", field="model", fix=f"use one of: {', '.join(MODELS)}")
        if model == "scripted" and replies is None:
            replies = _read_replies()
        self.model = model
        self.replies: Replies = replies if replies is not None else {}
        self.calls: list[ChatRequest] = []

    async def complete(self, request: ChatRequest) -> ChatResponse:
        started = time.perf_counter()
        self.calls.append(request)
        prompt = "\n".join([request.system, *(m.content for m in request.messages)])
        last_user = next((m.content for m in reversed(request.messages) if m.role == "user"), "")
        reply = self._scripted(prompt, len(self.calls) - 1) if self.model == "scripted" else last_user
        data = None
        if request.json_schema is not None:
            data = reply if isinstance(reply, (dict, list)) else _fill(request.json_schema, str(reply))
            text = json.dumps(data, ensure_ascii=False)
        else:
            text = reply if isinstance(reply, str) else json.dumps(reply, ensure_ascii=False)
        return ChatResponse(text=text, usage=Usage(input_tokens=len(prompt.split()), output_tokens=len(text.split())),
                            latency_s=time.perf_counter() - started, finish_reason="stop", model=self.model, data=data)

    def _scripted(self, prompt: str, index: int) -> Any:
        if isinstance(self.replies, list):
            if not self.replies:
                return ""
            return self.replies[min(index, len(self.replies) - 1)]
        found = next((reply for key, reply in self.replies.items() if key and key in prompt), None)
        return found if found is not None else self.replies.get("", "")

    async def aclose(self) -> None:
        """Nothing to release."""


def _read_replies() -> Replies:
    name = os.environ.get(REPLIES_ENV, "")
    if not name:
        raise ConfigError(f"the fake model 'scripted' needs its replies: {REPLIES_ENV} is not set", field=REPLIES_ENV,
                          fix=f"set {REPLIES_ENV} to a JSON file of replies, or use the model 'echo'")
    from gaia_eval.artifacts.inputs import parse_json, read_input_bytes

    path = Path(name)
    replies = parse_json(path, read_input_bytes(path))
    if not isinstance(replies, (dict, list)):
        raise ConfigError(f"{REPLIES_ENV}: holds a {type(replies).__name__}", file=str(path),
                          fix='write an object {"piece of the prompt": reply} or a list of replies')
    return replies


def _fill(schema: dict[str, Any], text: str, defs: dict[str, Any] | None = None) -> Any:
    """A value valid under a (pydantic-made) JSON schema, its strings taken from `text`."""
    defs = defs if defs is not None else schema.get("$defs", {})
    if "$ref" in schema:
        return _fill(defs.get(schema["$ref"].rsplit("/", 1)[-1], {}), text, defs)
    for key in ("anyOf", "oneOf", "allOf"):
        if schema.get(key):
            return _fill(next((s for s in schema[key] if s.get("type") != "null"), schema[key][0]), text, defs)
    if "enum" in schema:
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        return {name: _fill(sub, text, defs) for name, sub in schema.get("properties", {}).items()}
    if kind == "array":
        return [_fill(schema.get("items", {}), text, defs) for _ in range(max(1, schema.get("minItems", 1)))]
    if kind == "integer":
        return max(0, int(schema.get("minimum", 0)))
    if kind == "number":
        return max(0.0, float(schema.get("minimum", 0.0)))
    if kind == "boolean":
        return False
    return text


def create(settings: object, api_key: str | None) -> FakeProvider:
    """The registry's factory: the fake needs only its model name (echo, scripted)."""
    return FakeProvider(settings.model)  # type: ignore[attr-defined]


__all__ = ["MODELS", "REPLIES_ENV", "FakeProvider", "create"]
