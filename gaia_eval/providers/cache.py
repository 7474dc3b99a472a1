"""The response cache in front of a provider: the same request to the same model with the same parameters is
answered from disk instead of being paid again.

The key is a sha256 over the provider name, model, base URL, every generation parameter, the exact messages,
system prompt, schema and tools, and the request's sample index (so K samples of one prompt are K entries).
Only successful replies are stored. A key already served once in this process is not served from the cache
again: a second identical request means the first reply was unusable (a retry or a repair), and answering it
with the same cached text would make the retry pointless; the fresh reply replaces the entry. Local servers and
baselines are not cached: they cost nothing, and the weights behind a local model name can change.
"""

from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

import orjson

from gaia_eval.artifacts.base import Usage
from gaia_eval.artifacts.response_cache import DEFAULT_MAX_BYTES, ResponseStore, default_cache_dir
from gaia_eval.errors import StorageError
from gaia_eval.providers import ProviderSettings, is_local
from gaia_eval.providers.base import ChatRequest, ChatResponse, Provider, TokenLogprob, ToolCall

KEY_VERSION = 1
_settings: dict[str, Any] = {"enabled": None, "directory": None}


def configure(*, enabled: bool | None = None, directory: Path | None = None, reset: bool = False) -> None:
    """Set by the CLI's --no-cache / --cache-dir (a None leaves that setting as it is; unset settings fall back
    to the environment); `reset` returns both to the environment's."""
    if reset:
        _settings.update(enabled=None, directory=None)
    if enabled is not None:
        _settings["enabled"] = enabled
    if directory is not None:
        _settings["directory"] = directory


def cache_enabled() -> bool:
    if _settings["enabled"] is not None:
        return bool(_settings["enabled"])
    return os.environ.get("GAIA_EVAL_NO_CACHE", "").strip().lower() not in {"1", "true", "yes"}


def cache_dir() -> Path:
    return Path(_settings["directory"]) if _settings["directory"] else default_cache_dir()


def cache_max_bytes() -> int:
    raw = os.environ.get("GAIA_EVAL_CACHE_MAX_MB", "").strip()
    try:
        return int(float(raw) * 1024 * 1024) if raw else DEFAULT_MAX_BYTES
    except ValueError:
        return DEFAULT_MAX_BYTES


def request_key(settings: ProviderSettings, request: ChatRequest) -> str:
    material = {
        "v": KEY_VERSION,
        "provider": settings.provider,
        "model": settings.model,
        "base_url": settings.base_url,
        "system": request.system,
        "messages": [asdict(m) for m in request.messages],
        "max_tokens": request.max_tokens,
        "temperature": request.temperature,
        "stop": request.stop,
        "top_p": request.top_p,
        "seed": request.seed,
        "json_schema": request.json_schema,
        "schema_name": request.schema_name,
        "tools": [asdict(t) for t in request.tools],
        "sample_index": request.sample_index,
    }
    if request.top_logprobs:  # only then: the keys of every other request stay as they were
        material["top_logprobs"] = request.top_logprobs
    return hashlib.sha256(orjson.dumps(material, option=orjson.OPT_SORT_KEYS)).hexdigest()


def _to_entry(response: ChatResponse) -> dict[str, Any]:
    return {
        "text": response.text,
        "usage": response.usage.model_dump(),
        "latency_s": response.latency_s,
        "finish_reason": response.finish_reason,
        "model": response.model,
        "data": response.data,
        "tool_calls": [asdict(c) for c in response.tool_calls],
        **({"logprobs": [asdict(t) for t in response.logprobs]} if response.logprobs is not None else {}),
    }


def _from_entry(entry: dict[str, Any]) -> ChatResponse | None:
    try:
        return ChatResponse(
            text=entry["text"],
            usage=Usage.model_validate(entry["usage"]),
            latency_s=0.0,
            finish_reason=entry["finish_reason"],
            model=entry["model"],
            data=entry.get("data"),
            tool_calls=[ToolCall(**c) for c in entry.get("tool_calls", [])],
            cached=True,
            logprobs=[
                TokenLogprob(t["token"], t["logprob"], tuple((a, b) for a, b in t["top"])) for t in entry["logprobs"]
            ] if entry.get("logprobs") is not None else None,
        )
    except (KeyError, TypeError, ValueError):
        return None


class CachingProvider:
    """Wraps a provider; same name, model and protocol."""

    def __init__(self, inner: Provider, settings: ProviderSettings, store: ResponseStore) -> None:
        self.inner = inner
        self.settings = settings
        self.store = store
        self.name = inner.name
        self.model = inner.model
        self.is_local = inner.is_local
        self._served: set[str] = set()
        self._writable = True

    def __getattr__(self, name: str) -> Any:  # anything else the stage asks of the real provider
        return getattr(self.inner, name)

    async def complete(self, request: ChatRequest) -> ChatResponse:
        key = request_key(self.settings, request)
        if key not in self._served and not request.refresh:
            self._served.add(key)
            entry = self.store.get(key)
            hit = _from_entry(entry) if entry is not None else None
            if hit is not None:
                return hit
        response = await self.inner.complete(request)
        if self._writable:
            try:
                self.store.put(key, _to_entry(response))
            except StorageError as exc:
                self._writable = False  # the run goes on uncached; the answer itself is safe in the artifact
                print(f"warning: {exc}; continuing without caching", file=sys.stderr)
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


def with_cache(provider: Provider, settings: ProviderSettings) -> Provider:
    """`provider` behind the response cache, unless the cache is off or the provider is local."""
    if not cache_enabled() or provider.is_local or is_local(settings.provider):
        return provider
    return CachingProvider(provider, settings, ResponseStore(cache_dir(), cache_max_bytes()))
