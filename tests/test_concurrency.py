"""gaia_eval.concurrency against a real server: ordering, in-flight bounds, shared gates, pacing and retries,
measured where they matter (at the server), through the real OpenAI provider."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from typing import Any

import pytest

from gaia_eval.concurrency import (
    Attempted,
    ProviderGate,
    RateLimiter,
    RetryPolicy,
    call_with_retries,
    map_concurrent,
    wait_within,
)
from gaia_eval.errors import AuthError, BadRequestError, ServerError
from gaia_eval.providers import ProviderSettings
from gaia_eval.providers.base import ChatRequest, ChatResponse, Message
from gaia_eval.providers.openai_api import OpenAIProvider
from tests.fakeserver import FakeLLMServer, default_responder, last_user_text

FAST_RETRIES = RetryPolicy(max_retries=3, base_delay_s=0.005, max_delay_s=0.02, timeout_s=5)


def provider_for(server: FakeLLMServer) -> OpenAIProvider:
    return OpenAIProvider(ProviderSettings("vllm", "fake-model", base_url=server.openai_base_url), None)


def ask(text: str) -> ChatRequest:
    return ChatRequest(messages=(Message("user", text),))


def run_items(
    server: FakeLLMServer,
    items: list[str],
    *,
    limit: int,
    gate: ProviderGate | None = None,
    policy: RetryPolicy = FAST_RETRIES,
) -> list[Attempted[ChatResponse]]:
    """Every item through call_with_retries and map_concurrent, as a stage does."""

    async def go() -> list[Attempted[ChatResponse]]:
        provider = provider_for(server)
        shared = gate or ProviderGate(limit)

        async def one(text: str) -> Attempted[ChatResponse]:
            return await call_with_retries(lambda: provider.complete(ask(text)), shared, policy)

        try:
            return await map_concurrent(items, one, limit=limit)
        finally:
            await provider.aclose()

    return asyncio.run(go())


def test_map_concurrent_keeps_input_order_and_bounds_calls_in_flight(fake_llm) -> None:
    fake_llm.latency_s = 0.05

    def slower_for_even_items(req: dict[str, Any]) -> dict[str, Any]:
        # Replies finish out of input order, so the result order must come from map_concurrent itself.
        number = int(last_user_text(req["body"]).split()[-1])
        time.sleep(0.03 if number % 2 == 0 else 0.0)
        return default_responder(req)

    fake_llm.responder = slower_for_even_items
    items = [f"item {i}" for i in range(40)]
    finished: list[str] = []

    async def go() -> list[str]:
        provider = provider_for(fake_llm)

        async def one(text: str) -> str:
            return (await provider.complete(ask(text))).text

        try:
            return await map_concurrent(items, one, limit=8, on_result=lambda item, _: finished.append(item))
        finally:
            await provider.aclose()

    results = asyncio.run(go())

    assert results == [f"echo: item {i}" for i in range(40)]
    assert finished != items and sorted(finished) == sorted(items)
    assert fake_llm.max_in_flight == 8


def test_a_shared_gate_limits_two_experiments_together(fake_llm) -> None:
    fake_llm.latency_s = 0.05
    gate = ProviderGate(max_concurrency=5)

    async def go() -> None:
        provider = provider_for(fake_llm)

        async def one(text: str) -> Any:
            return await call_with_retries(lambda: provider.complete(ask(text)), gate, FAST_RETRIES)

        try:
            await asyncio.gather(
                map_concurrent([f"a{i}" for i in range(20)], one, limit=16),
                map_concurrent([f"b{i}" for i in range(20)], one, limit=16),
            )
        finally:
            await provider.aclose()

    asyncio.run(go())

    assert fake_llm.request_count == 40
    assert fake_llm.max_in_flight == 5


def test_rate_limiter_spaces_requests_on_a_fake_clock() -> None:
    """Five calls arriving together at t=100 start at 100.0, 100.1, ... 100.4 (600 rpm): asserted on a fake clock,
    so a loaded machine cannot make it flaky."""
    clock = {"now": 100.0}
    starts: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        starts.append(clock["now"] + seconds)  # when this call may start; the clock itself stands still

    limiter = RateLimiter(600, clock=lambda: clock["now"], sleep=fake_sleep)

    async def call() -> None:
        before = len(starts)
        await limiter.acquire()
        if len(starts) == before:
            starts.append(clock["now"])  # no wait: starts now

    async def main() -> None:
        await asyncio.gather(*(call() for _ in range(5)))

    asyncio.run(main())
    assert sorted(starts) == pytest.approx([100.0, 100.1, 100.2, 100.3, 100.4])
    clock["now"] = 200.0  # after a long pause nobody waits for the old schedule
    starts.clear()
    asyncio.run(main())
    assert min(starts) == 200.0


def test_rate_limited_gate_still_completes_every_call(fake_llm) -> None:
    gate = ProviderGate(max_concurrency=8, requests_per_minute=6000)
    outcomes = run_items(fake_llm, [f"q{i}" for i in range(5)], limit=8, gate=gate)
    assert all(o.ok for o in outcomes) and fake_llm.request_count == 5


def test_retries_are_recorded_with_their_reasons(fake_llm) -> None:
    fake_llm.script([{"fault": "500"}, {"fault": "429", "retry_after": 0.05}, {"fault": "malformed"}])
    [outcome] = run_items(fake_llm, ["hello"], limit=1)

    assert outcome.ok and outcome.value.text == "echo: hello"
    assert outcome.attempts == 4
    assert [entry.split(":")[1].strip() for entry in outcome.retries] == [
        "server_error",
        "rate_limit",
        "malformed_response",
    ]
    assert "retried after 0.05s" in outcome.retries[1]  # the Retry-After floor, not the 5 ms backoff


def test_non_retryable_errors_are_not_retried(fake_llm) -> None:
    fake_llm.script([{"fault": "400"}, {"fault": "401"}])
    bad, denied = run_items(fake_llm, ["first", "second"], limit=1)

    assert isinstance(bad.error, BadRequestError) and isinstance(denied.error, AuthError)
    assert (bad.attempts, denied.attempts) == (1, 1) and bad.retries == denied.retries == []
    assert fake_llm.request_count == 2


def test_retries_stop_after_max_retries(fake_llm) -> None:
    fake_llm.script([{"fault": "503"}] * 3)
    [outcome] = run_items(fake_llm, ["x"], limit=1, policy=RetryPolicy(max_retries=2, base_delay_s=0.005))

    assert not outcome.ok and isinstance(outcome.error, ServerError)
    assert outcome.attempts == 3 and len(outcome.retries) == 2
    assert fake_llm.request_count == 3


def test_a_hung_attempt_times_out_and_the_retry_succeeds(fake_llm) -> None:
    fake_llm.script([{"fault": "hang"}])
    policy = RetryPolicy(max_retries=1, base_delay_s=0.005, timeout_s=2.0)  # outlasts a real reply under load
    [outcome] = run_items(fake_llm, ["x"], limit=1, policy=policy)

    assert outcome.ok and outcome.attempts == 2
    assert "timeout" in outcome.retries[0]


def test_seeded_fault_injection_is_reproducible_and_survived(fake_llm) -> None:
    items = [f"question {i}" for i in range(30)]
    faults: list[Counter[str]] = []
    for _ in range(2):
        fake_llm.reset()
        fake_llm.inject(rate_500=0.15, rate_429=0.1, rate_malformed=0.05, retry_after=0.01, seed=7)
        outcomes = run_items(fake_llm, items, limit=8, policy=RetryPolicy(max_retries=8, base_delay_s=0.002))
        assert all(o.ok for o in outcomes)
        assert [o.value.text for o in outcomes] == [f"echo: {item}" for item in items]
        faults.append(Counter(fake_llm.faults_served))

    assert faults[0] == faults[1]
    assert sum(faults[0].values()) > 0


def test_an_endpoint_never_reached_is_taken_as_down_after_one_call_exhausts_its_retries():
    from gaia_eval.errors import ConnectionFailedError

    calls = 0

    async def refuse():
        nonlocal calls
        calls += 1
        raise ConnectionFailedError("could not connect")

    async def scenario():
        gate = ProviderGate(4)
        policy = RetryPolicy(max_retries=2, base_delay_s=0.001)
        first = await call_with_retries(refuse, gate, policy)
        rest = [await call_with_retries(refuse, gate, policy) for _ in range(5)]
        return first, rest

    first, rest = asyncio.run(scenario())
    assert first.attempts == 3 and calls == 3  # the first call used its retries
    assert all("endpoint unreachable" in r.error.message and r.attempts == 0 for r in rest)  # the rest fail at once


def test_connection_faults_after_a_success_are_only_passing_faults():
    from gaia_eval.errors import ConnectionFailedError

    state = {"n": 0}

    async def flaky():
        state["n"] += 1
        if state["n"] == 1:
            return "ok"
        raise ConnectionFailedError("reset")

    async def scenario():
        gate = ProviderGate(2)
        policy = RetryPolicy(max_retries=1, base_delay_s=0.001)
        await call_with_retries(flaky, gate, policy)
        await call_with_retries(flaky, gate, policy)
        return gate.down, await call_with_retries(flaky, gate, policy)

    down, third = asyncio.run(scenario())
    assert down is None and third.attempts == 2  # still tried, with its retries


def _cancelled_as_it_finishes(wait) -> object:
    """Cancel the waiting task in the same loop turn in which what it waits for completes (Ctrl-C racing a reply)."""

    async def scenario() -> object:
        inner = asyncio.get_running_loop().create_future()
        outer = asyncio.ensure_future(wait(inner, 10))
        for _ in range(3):
            await asyncio.sleep(0)  # outer is now waiting on inner
        inner.set_result("reply")
        outer.cancel()
        try:
            return await outer
        except asyncio.CancelledError:
            return "cancelled"

    return asyncio.run(scenario())


def test_a_cancel_racing_a_finished_call_is_never_swallowed() -> None:
    # The stdlib's wait_for drops the cancel on this Python: a Ctrl-C'd --batch run then waited forever.
    assert _cancelled_as_it_finishes(wait_within) == "cancelled"


def test_wait_within_returns_the_result_or_times_out_and_cancels_the_work() -> None:
    async def scenario() -> tuple[object, bool]:
        quick = await wait_within(asyncio.sleep(0, result="done"), 10)
        never = asyncio.get_running_loop().create_future()
        slow = asyncio.ensure_future(never)
        with pytest.raises(asyncio.TimeoutError):
            await wait_within(slow, 0)
        return quick, slow.cancelled()

    assert asyncio.run(scenario()) == ("done", True)


def test_backoff_doubles_from_the_base_with_equal_jitter_and_stops_at_the_cap():
    """Mutation survivor: the exponent off by one (`attempt - 2`: every wait halved), unseen by tests that only
    count retries."""
    import random

    from gaia_eval.concurrency import RetryPolicy

    policy = RetryPolicy(base_delay_s=1.0, max_delay_s=6.0)
    rng = random.Random(19)
    for attempt, (low, high) in {1: (0.5, 1.0), 2: (1.0, 2.0), 3: (2.0, 4.0), 4: (3.0, 6.0), 9: (3.0, 6.0)}.items():
        waits = [policy.backoff(attempt, rng) for _ in range(200)]
        assert low <= min(waits) and max(waits) <= high, attempt
        assert max(waits) > high - 0.1 * (high - low) and min(waits) < low + 0.1 * (high - low)  # spans the range


def test_a_call_without_a_per_attempt_timeout_returns_its_value():
    """Mutation survivor: the branch without a timeout (timeout_s=None) dropping the call's value."""
    from gaia_eval.concurrency import ProviderGate, RetryPolicy, call_with_retries

    async def call() -> str:
        return "answer"

    outcome = asyncio.run(call_with_retries(call, ProviderGate(max_concurrency=1), RetryPolicy(timeout_s=None)))
    assert (outcome.value, outcome.error, outcome.attempts) == ("answer", None, 1)
