"""Translate the failures of the official LLM SDKs (HTTP status, timeout, connection, unreadable body) into the
gaia_eval.errors tree, with Retry-After hints parsed and the API key scrubbed from every message.

The anthropic and openai SDKs share one exception layout (APIStatusError with .status_code/.response/.body,
APITimeoutError under APIConnectionError, APIResponseValidationError), so one translator serves both; the
caller passes its SDK module so that neither SDK is imported here.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import time
from collections.abc import Awaitable, Callable, Mapping
from types import ModuleType
from typing import Any, TypeVar

from gaia_eval.errors import (
    AuthError,
    BadRequestError,
    ConnectionFailedError,
    ContextOverflowError,
    MalformedResponseError,
    ProviderError,
    ProviderTimeoutError,
    RateLimitError,
    ServerError,
)
from gaia_eval.providers.limits import context_overflow_message

EXCERPT_CHARS = 160
REDACTED = "[REDACTED]"

# 408 is the server timing out the request; 409/425 are "try again" conflicts; every 5xx (incl. Anthropic's
# 529 overloaded) is a server-side fault. All of these may succeed on a later attempt.
_TIMEOUT_STATUSES = {408}
_TRANSIENT_4XX = {409, 425}
_AUTH_STATUSES = {401, 403}


def scrub(text: str, secret: str | None) -> str:
    """`text` with every occurrence of `secret` replaced, so a server echoing the key cannot leak it."""
    if secret and len(secret) >= 4:
        return text.replace(secret, REDACTED)
    return text


def excerpt(text: str, secret: str | None, limit: int = EXCERPT_CHARS) -> str:
    """A short, one-line, key-free excerpt of raw text for an error message."""
    flat = " ".join(scrub(text, secret).split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def retry_after_seconds(headers: Mapping[str, str] | None, *, now: float | None = None) -> float | None:
    """The server's requested wait: `retry-after-ms` (non-standard, precise) first, then `Retry-After` as
    seconds or as an HTTP date. None when absent or unreadable; never negative."""
    if not headers:
        return None
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            return max(0.0, float(millis) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    parsed = email.utils.parsedate_tz(value)
    if parsed is None:
        return None
    current = time.time() if now is None else now
    return max(0.0, float(email.utils.mktime_tz(parsed)) - current)


def _api_message(body: object, fallback: str) -> str:
    """The human-readable part of an error body: OpenAI {"error": {"message"}}, Anthropic
    {"type": "error", "error": {"type", "message"}}, or whatever text the server sent."""
    if isinstance(body, Mapping):
        inner: Any = body.get("error", body)
        if isinstance(inner, Mapping):
            message = inner.get("message")
            kind = inner.get("type")
            if message:
                return f"{kind}: {message}" if kind else str(message)
        elif isinstance(inner, str):
            return inner
        return json.dumps(body, default=str)
    if isinstance(body, str) and body.strip():
        return body
    return fallback


def error_for_status(
    provider: str, status: int, headers: Mapping[str, str] | None, detail: str, secret: str | None
) -> ProviderError:
    """The gaia error for an HTTP error status (the message names provider, status and the server's words)."""
    message = f"{provider} HTTP {status}: {excerpt(detail, secret)}"
    overflow = context_overflow_message(detail) if status in (400, 413, 422, 500) else None
    if overflow is not None:
        return ContextOverflowError(
            f"{provider} HTTP {status}: {overflow}",
            fix="shorten the input (documents are chunked when the server reports its context size) or serve the "
                "model with a larger context (llama-server -c)",
        )
    if status == 429:
        return RateLimitError(message, retry_after=retry_after_seconds(headers))
    if status >= 500 or status in _TRANSIENT_4XX:
        return ServerError(message, retry_after=retry_after_seconds(headers))
    if status in _TIMEOUT_STATUSES:
        return ProviderTimeoutError(message, retry_after=retry_after_seconds(headers))
    if status in _AUTH_STATUSES:
        return AuthError(message, fix="check that the API key in the environment is valid for this endpoint")
    return BadRequestError(message)


def translate_sdk_error(exc: Exception, sdk: ModuleType, provider: str, secret: str | None) -> ProviderError | None:
    """The gaia error for an exception raised by `sdk` (the imported anthropic or openai module), or None
    when `exc` is not an SDK transport/HTTP failure. Callers raise the result `from None` so the SDK
    exception (which holds the request and its auth header) is not chained into logs."""
    if isinstance(exc, sdk.APIStatusError):
        detail = _api_message(exc.body, str(getattr(exc, "message", "") or exc))
        return error_for_status(provider, exc.status_code, exc.response.headers, detail, secret)
    if isinstance(exc, sdk.APIConnectionError):
        failure = _network_failure(exc)
        if isinstance(exc, sdk.APITimeoutError) and failure is None:
            return ProviderTimeoutError(f"{provider}: no reply before the request timeout")
        cause = failure or exc.__cause__
        reason = f"{type(cause).__name__}: {cause}" if cause is not None else str(exc)
        return ConnectionFailedError(
            f"{provider}: could not connect ({excerpt(reason, secret)})",
            fix="check that the server is running and base_url is right",
        )
    if isinstance(exc, sdk.APIResponseValidationError):
        return malformed(provider, "reply does not match the API schema", str(exc.body), secret)
    if isinstance(exc, json.JSONDecodeError):
        return malformed(provider, "reply body is not JSON", exc.doc, secret)
    return None


def _network_failure(exc: BaseException) -> OSError | None:
    """A socket error (refused, reset, unreachable) behind an SDK connection error. The SDKs' aiohttp transport
    reports a refused connection as a *connect timeout*, so the cause chain, not the class, decides."""
    seen: set[int] = set()
    current: BaseException | None = exc.__cause__ or exc.__context__
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, (TimeoutError, asyncio.TimeoutError)):
            return None
        if isinstance(current, OSError):
            return current
        current = current.__cause__ or current.__context__
    return None


RAW_TEXT_LIMIT = 20_000


def malformed(provider: str, what: str, raw: str, secret: str | None) -> MalformedResponseError:
    """The error message carries a short excerpt; `raw_text` keeps the (key-free) reply itself, bounded, for
    callers that record what the model actually said (the judge's `unscored` samples)."""
    error = MalformedResponseError(f"{provider}: {what}: {excerpt(raw, secret)!r}")
    error.raw_text = scrub(raw, secret)[:RAW_TEXT_LIMIT]
    return error


T = TypeVar("T")


async def call_sdk(make_call: Callable[[], Awaitable[T]], sdk: ModuleType, provider: str, secret: str | None) -> T:
    """Await an SDK call, turning every SDK failure into our error tree (anything else propagates)."""
    try:
        return await make_call()
    except Exception as exc:
        translated = translate_sdk_error(exc, sdk, provider, secret)
        if translated is None:
            raise
        raise translated from None


def read_billed(usage: Any, read: Callable[[], T]) -> T:
    """Run `read()` on a reply; if it is unusable, the MalformedResponseError carries the usage the reply reported,
    because an unusable reply is billed all the same and callers count it."""
    try:
        return read()
    except MalformedResponseError as exc:
        exc.usage = usage
        raise


class SdkAccess:
    """What a batch adapter may use of an SDK provider: its client (one connection pool) and SDK calls mapped like
    the provider's own, with the key scrubbed from messages, so the key never leaves the provider."""

    name: str
    _client: Any
    _secret: str | None
    _sdk: Any  # the SDK module whose exceptions call_sdk maps

    @property
    def client(self) -> Any:
        return self._client

    async def sdk_call(self, make_call: Any) -> Any:
        return await call_sdk(make_call, self._sdk, self.name, self._secret)
