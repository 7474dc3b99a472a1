"""The one concurrency helper: bounded async fan-out, per-provider limits, and retries with backoff.

Stages never create their own thread pools or gathers; they call `map_concurrent` with a worker and let
`call_with_retries` pace every model call through the `ProviderGate` of its endpoint, so two experiments
against the same server share that server's limit.
"""

from __future__ import annotations

import asyncio
import inspect
import random
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from gaia_eval.artifacts.base import Usage
from gaia_eval.errors import ConnectionFailedError, ProviderError, ProviderTimeoutError

T = TypeVar("T")
R = TypeVar("R")

DEFAULT_CONCURRENCY = 16
DEFAULT_MAX_RETRIES = 4
DEFAULT_TIMEOUT_S = 120.0


async def wait_within(awaitable: Awaitable[R], seconds: float | None) -> R:
    """`awaitable`'s result, or asyncio.TimeoutError after `seconds`. Unlike Python 3.11's asyncio.wait_for, a
    cancellation (Ctrl-C) that arrives as the awaitable finishes is never swallowed: a swallowed cancel left a
    stopped run waiting forever on work that no longer had anyone to finish it."""
    task = asyncio.ensure_future(awaitable)
    try:
        done, _ = await asyncio.wait({task}, timeout=seconds)
    except BaseException:
        task.cancel()
        raise
    if not done:
        task.cancel()
        await asyncio.wait({task})  # let it unwind; asyncio.wait neither raises its error nor swallows ours
        raise asyncio.TimeoutError
    return task.result()


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int = DEFAULT_MAX_RETRIES  # retries after the first attempt
    base_delay_s: float = 0.5
    max_delay_s: float = 30.0
    timeout_s: float | None = DEFAULT_TIMEOUT_S  # per attempt
    # A server asking for a longer pause than this gets no retry: the item fails with the reason instead of
    # stalling the whole run (an honoured Retry-After is never shortened).
    max_retry_after_s: float = 300.0

    def backoff(self, attempt: int, rng: random.Random) -> float:
        """Exponential backoff with "equal jitter" (AWS architecture blog): uniform in [c/2, c], c = base * 2^(n-1)
        capped at max_delay_s, so retries spread out but never come back almost at once."""
        ceiling = min(self.max_delay_s, self.base_delay_s * (2 ** (attempt - 1)))
        return rng.uniform(0.5 * ceiling, ceiling)


class RateLimiter:
    """Requests-per-minute pacing: calls are spaced at least 60/rpm seconds apart, in arrival order."""

    def __init__(
        self,
        requests_per_minute: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        # clock and sleep are injectable so that tests check the pacing on a fake clock, not on wall time
        self.interval = 60.0 / requests_per_minute
        self._next_at = 0.0
        self._lock = asyncio.Lock()
        self._clock = clock
        self._sleep = sleep

    async def acquire(self) -> None:
        async with self._lock:
            now = self._clock()
            wait = self._next_at - now
            self._next_at = max(now, self._next_at) + self.interval
        if wait > 0:
            await self._sleep(wait)


class ProviderGate:
    """At most `max_concurrency` calls in flight to one endpoint, optionally paced by a rate limiter.

    It also remembers whether the endpoint was ever reached: when a call has used up its retries failing to
    connect and no call has ever succeeded, the endpoint is taken to be down (a local server not started, a
    wrong base_url) and the remaining calls fail at once with that reason, instead of each retrying for
    seconds. Once any call has succeeded, connection failures are treated as passing faults.
    """

    def __init__(
        self,
        max_concurrency: int = DEFAULT_CONCURRENCY,
        requests_per_minute: float | None = None,
        *,
        attempt_timeouts: bool = True,
    ) -> None:
        self.max_concurrency = max_concurrency
        # Off for calls answered through a provider's batch API, which may take hours by design.
        self.attempt_timeouts = attempt_timeouts
        self._sem = asyncio.Semaphore(max_concurrency)
        self._rate = RateLimiter(requests_per_minute) if requests_per_minute else None
        self.reached = False
        self.down: ProviderError | None = None

    async def __aenter__(self) -> ProviderGate:
        await self._sem.acquire()
        if self._rate is not None:
            try:
                await self._rate.acquire()
            except BaseException:
                self._sem.release()
                raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._sem.release()


@dataclass
class Attempted(Generic[T]):
    """The outcome of a call made with retries: a value, or the last error; and how it got there."""

    value: T | None = None
    error: ProviderError | None = None
    attempts: int = 0
    retries: list[str] = field(default_factory=list)
    # Tokens billed for failed attempts whose error reported them (an unusable reply); not part of `value`.
    spent_usage: Usage = field(default_factory=Usage)

    @property
    def ok(self) -> bool:
        return self.error is None


async def call_with_retries(
    make_call: Callable[[], Awaitable[T]],
    gate: ProviderGate,
    policy: RetryPolicy,
    *,
    rng: random.Random | None = None,
) -> Attempted[T]:
    """Run `make_call` through `gate`, retrying retryable ProviderErrors. A Retry-After hint is a floor on the
    wait: the call is never retried sooner than the server asked. Non-ProviderError exceptions propagate."""
    outcome: Attempted[T] = Attempted()
    for attempt in range(1, policy.max_retries + 2):
        if gate.down is not None:
            outcome.error = gate.down
            return outcome
        outcome.attempts = attempt
        async with gate:
            try:
                if policy.timeout_s is None or not gate.attempt_timeouts:
                    outcome.value = await make_call()
                else:
                    outcome.value = await wait_within(make_call(), policy.timeout_s)
                outcome.error = None
                gate.reached = True
                return outcome
            except asyncio.TimeoutError:
                outcome.error = ProviderTimeoutError(f"no reply within {policy.timeout_s:g}s")
            except ProviderError as exc:
                outcome.error = exc
                spent = getattr(exc, "usage", None)
                if spent is not None:
                    outcome.spent_usage = outcome.spent_usage + spent
        err = outcome.error
        if not err.retryable or attempt > policy.max_retries:
            if isinstance(err, ConnectionFailedError) and not gate.reached and gate.down is None:
                gate.down = ConnectionFailedError(
                    f"endpoint unreachable ({err.message}); no call to it has succeeded, so the remaining calls "
                    "were not attempted: is the server running and is base_url right?"
                )
            return outcome
        rng = rng or random.Random()  # made when a retry needs one: seeding it per call cost ~20 µs
        delay = policy.backoff(attempt, rng)
        if err.retry_after is not None:
            if err.retry_after > policy.max_retry_after_s:
                outcome.retries.append(
                    f"attempt {attempt}: {err.reason}: server asked to wait {err.retry_after:g}s, over the "
                    f"{policy.max_retry_after_s:g}s limit; not retried"
                )
                return outcome
            delay = max(delay, err.retry_after)
        outcome.retries.append(f"attempt {attempt}: {err.reason}: {err.message} (retried after {delay:.2f}s)")
        await asyncio.sleep(delay)
    return outcome  # pragma: no cover - the loop always returns


async def map_concurrent(
    items: Iterable[T],
    worker: Callable[[T], Awaitable[R]],
    *,
    limit: int,
    on_result: Callable[[T, R], None] | None = None,
) -> list[R]:
    """Run `worker` over `items` with at most `limit` in flight; results in input order.

    `on_result` runs in the event loop thread as each item finishes (journaling, progress), so it needs no
    locking. A worker exception cancels the rest and propagates; workers are expected to turn per-item
    failures into results themselves.
    """
    queue = list(enumerate(items))
    results: list[R | None] = [None] * len(queue)
    position = 0

    async def drain() -> None:
        nonlocal position
        while position < len(queue):
            index, item = queue[position]
            position += 1
            result = await worker(item)
            results[index] = result
            if on_result is not None:
                on_result(item, result)

    workers = [asyncio.ensure_future(drain()) for _ in range(max(1, min(limit, len(queue))))]
    try:
        await asyncio.gather(*workers)
    except BaseException:
        for w in workers:
            w.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
        raise
    return results  # type: ignore[return-value]


async def close_all(*closers: Callable[[], object]) -> None:
    """Call every closer (sync, or async like a provider's aclose) even when one of them raises, then raise the
    first error: a journal that cannot be closed on a full disk must not leave the SDK clients open (their
    "Unclosed connector" warnings would bury the one-line message)."""
    first: BaseException | None = None
    for close in closers:
        try:
            result = close()
            if inspect.isawaitable(result):
                await result
        except Exception as exc:
            first = first or exc
    if first is not None:
        raise first


def run_async(coro: Awaitable[R]) -> R:
    """Run a coroutine from synchronous stage code. Ctrl-C cancels in-flight work; nothing half-written remains
    because every write is atomic or an fsynced journal line."""
    return asyncio.run(coro)  # type: ignore[arg-type]
