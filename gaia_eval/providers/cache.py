"""The response cache in front of a provider: the same request to the same endpoint and model with the same
parameters is answered from disk instead of being paid again.

The key is a sha256 over the request as sent: the provider, the effective base URL (the config's, else
OPENAI_BASE_URL / ANTHROPIC_BASE_URL, else the preset's or the SDK's default), the model, and every field of
the ChatRequest but those that only say how long to wait or what to do with the reply (the exact messages,
system prompt, every generation parameter, schema, tools, and the sample index, so K samples of one prompt are
K entries). A field added to ChatRequest is keyed unless it is named in _NOT_SENT.

Only answers are stored: a failed call, a truncated or degenerate reply, or one the caller found unusable
(`discard`) never is. A key already served once in this process is not served from the cache again: a second
identical request means the first reply was unusable (a retry or a repair). `refresh` (--force,
--retry-errors) asks the model for every request and stores the new replies. Local servers and baselines are
not cached: they cost nothing, and the weights behind a local model name can change. Whether a run uses the cache,
and which folder, is its CacheOptions value, passed in (no module state). The store itself (entry checks, fetch
locks, the writer thread) is artifacts/response_cache.py.
"""

from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import orjson

from gaia_eval.artifacts.response_cache import (
    DEFAULT_MAX_BYTES,
    CachedReply,
    CachedTokenLogprob,
    CachedToolCall,
    ResponseStore,
    default_cache_dir,
)
from gaia_eval.providers import ProviderSettings, effective_base_url, is_local
from gaia_eval.providers.base import ChatRequest, ChatResponse, Provider, TokenLogprob, ToolCall
from gaia_eval.providers.limits import unusable_reason

KEY_VERSION = 2
_NOT_SENT = frozenset({"timeout_s", "task", "refresh"})  # how long to wait, baselines' input, cache policy


def _enabled_from_env() -> bool:
    return os.environ.get("GAIA_EVAL_NO_CACHE", "").strip().lower() not in {"1", "true", "yes"}


def _max_bytes_from_env() -> int:
    raw = os.environ.get("GAIA_EVAL_CACHE_MAX_MB", "").strip()
    try:
        return int(float(raw) * 1024 * 1024) if raw else DEFAULT_MAX_BYTES
    except ValueError:
        return DEFAULT_MAX_BYTES


@dataclass(frozen=True)
class CacheOptions:
    """One run's response cache: on or off, its folder, its size bound. A field left out is read from the
    environment when the value is made (GAIA_EVAL_NO_CACHE, GAIA_EVAL_CACHE_DIR / XDG_CACHE_HOME / ~/.cache,
    GAIA_EVAL_CACHE_MAX_MB), once; the CLI's --no-cache and --cache-dir give the first two."""

    enabled: bool = field(default_factory=_enabled_from_env)
    directory: Path = field(default_factory=default_cache_dir)
    max_bytes: int = field(default_factory=_max_bytes_from_env)


def request_key(settings: ProviderSettings, request: ChatRequest) -> str:
    material = {
        "v": KEY_VERSION,
        "provider": settings.provider,
        "base_url": effective_base_url(settings),
        "model": settings.model,
        **{f.name: getattr(request, f.name) for f in fields(request) if f.name not in _NOT_SENT},
    }
    if request.top_logprobs is None:  # added later: the keys of requests without it stay as they were
        del material["top_logprobs"]
    # orjson writes the request's dataclasses (messages, tools, tool calls) and tuples as JSON objects and arrays
    return hashlib.sha256(orjson.dumps(material, option=orjson.OPT_SORT_KEYS)).hexdigest()


def _to_entry(response: ChatResponse) -> CachedReply:
    # Built without validation (model_construct): the values come from our own provider, and this runs on the
    # calling path; the writer thread encodes it, and every read validates it.
    return CachedReply.model_construct(
        text=response.text,
        usage=response.usage,
        latency_s=response.latency_s,
        finish_reason=response.finish_reason,
        model=response.model,
        data=response.data,
        tool_calls=[CachedToolCall.model_construct(id=c.id, name=c.name, arguments=c.arguments)
                    for c in response.tool_calls],
        logprobs=None if response.logprobs is None else [
            CachedTokenLogprob.model_construct(token=t.token, logprob=t.logprob, top=[[a, lp] for a, lp in t.top])
            for t in response.logprobs
        ],
    )


def _from_entry(entry: CachedReply) -> ChatResponse:
    return ChatResponse(
        text=entry.text,
        usage=entry.usage,
        latency_s=0.0,
        finish_reason=entry.finish_reason,
        model=entry.model,
        data=entry.data,
        tool_calls=[ToolCall(id=c.id, name=c.name, arguments=c.arguments) for c in entry.tool_calls],
        cached=True,
        logprobs=None if entry.logprobs is None else [
            TokenLogprob(t.token, t.logprob, tuple((str(a), float(lp)) for a, lp in t.top)) for t in entry.logprobs
        ],
    )


class CachingProvider:
    """Wraps a provider; same name, model and protocol."""

    def __init__(self, inner: Provider, settings: ProviderSettings, store: ResponseStore, *,
                 refresh: bool = False) -> None:
        self.inner = inner
        self.settings = settings
        self.store = store
        self.refresh = refresh
        self.name = inner.name
        self.model = inner.model
        self.is_local = inner.is_local
        self._served: set[str] = set()
        self._writable = True

    def __getattr__(self, name: str) -> Any:  # anything else the stage asks of the real provider
        return getattr(self.inner, name)

    async def complete(self, request: ChatRequest) -> ChatResponse:
        key = request_key(self.settings, request)
        ask_model = self.refresh or request.refresh or key in self._served
        self._served.add(key)
        lock = await self.store.lock(key)  # waits while another caller is asking the model the same request
        handed_over = False
        try:
            if not ask_model:
                hit = self.store.get(key)
                if hit is not None:
                    return _from_entry(hit)
            response = await self.inner.complete(request)
            self._note_failure()
            if self._writable and unusable_reason(response, request.max_tokens) is None:
                self.store.put_later(key, _to_entry(response), lock)  # the writer releases the lock when written
                handed_over = True
            return response
        finally:
            if not handed_over:
                lock.release()

    def discard(self, request: ChatRequest) -> None:
        """Forget the stored reply to `request`: the caller found it unusable (it did not parse or fit)."""
        self.store.discard_later(request_key(self.settings, request))

    def _note_failure(self) -> None:
        if self._writable and self.store.failure is not None:
            self._writable = False  # the run goes on uncached; the answers themselves are safe in the artifacts
            print(f"warning: {self.store.failure}; continuing without caching", file=sys.stderr)

    async def aclose(self) -> None:
        try:
            self.store.flush()
        finally:
            await self.inner.aclose()


def with_cache(provider: Provider, settings: ProviderSettings, options: CacheOptions, *,
               refresh: bool = False) -> Provider:
    """`provider` behind the response cache `options` describe, unless it is off or the provider is local.
    `refresh`: every request goes to the model (the command redoes its items: --force, --retry-errors), and the
    new replies are stored."""
    if not options.enabled or provider.is_local or is_local(settings.provider):
        return provider
    return CachingProvider(provider, settings, ResponseStore(options.directory, options.max_bytes), refresh=refresh)
