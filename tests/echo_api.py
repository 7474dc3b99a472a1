"""A provider written the way ARCHITECTURE.md says ("Where a new thing goes", Provider): this module implements the
`Provider` protocol of gaia_eval/providers/base.py, and its registration is one `ProviderEntry` (ENTRY below, put in
gaia_eval.registry.PROVIDERS by tests/test_provider_registration.py) carrying its key variable and its prices. It
answers in-process: a scripted reply, else the last user message echoed or the smallest object the requested JSON
schema accepts; every call reports the same token usage, so its cost is known exactly."""

from __future__ import annotations

import json

from gaia_eval.artifacts.base import Usage
from gaia_eval.providers import ProviderSettings
from gaia_eval.providers.base import ChatRequest, ChatResponse
from gaia_eval.registry import ModelPrice, ProviderEntry
from tests.fakeserver import object_for_schema

INPUT_TOKENS, OUTPUT_TOKENS = 1_000, 200
ECHO_LARGE = ModelPrice("echo-large", input_per_mtok=2.0, output_per_mtok=10.0, source="Echo list price (test)",
                        date="2026-11", aliases=("echo-xl",))
ENTRY = ProviderEntry("tests.echo_api:EchoProvider", key_env="ECHO_API_KEY", prices=(ECHO_LARGE,))
CALLS: list[tuple[str, str | None, ChatRequest]] = []  # (model, api key, request) of every call, in order
SCRIPT: list[str] = []  # text replies to give first, in order (a test's realistic documents)


class EchoProvider:
    """One configured echo endpoint (settings and key come from gaia_eval.providers.create_provider)."""

    def __init__(self, settings: ProviderSettings, api_key: str | None) -> None:
        self.name = settings.provider
        self.model = settings.model
        self.is_local = False
        self._api_key = api_key

    async def complete(self, request: ChatRequest) -> ChatResponse:
        CALLS.append((self.model, self._api_key, request))
        asked = next((m.content for m in reversed(request.messages) if m.role == "user"), "")
        text, data = "echo: " + asked[:40], None
        if SCRIPT:
            text = SCRIPT.pop(0)
        elif request.json_schema is not None:
            data = object_for_schema(request.json_schema, text)
            text = json.dumps(data)
        return ChatResponse(text=text, usage=Usage(input_tokens=INPUT_TOKENS, output_tokens=OUTPUT_TOKENS),
                            latency_s=0.0, finish_reason="stop", model=self.model, data=data)

    async def aclose(self) -> None:
        return None
