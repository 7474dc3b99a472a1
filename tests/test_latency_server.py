"""tests/perf/latency_server.py, the benchmarks' "200 ms server" in a process of its own: driven through the real
openai SDK, it answers what FakeLLMServer answers and counts what it served."""

from __future__ import annotations

import asyncio

import openai

from tests.fakeserver import FakeLLMServer
from tests.perf.latency_server import LatencyServer


async def _ask(base_url: str, question: str) -> str:
    async with openai.AsyncOpenAI(api_key="k", base_url=base_url, max_retries=0) as client:
        replies = await asyncio.gather(*(client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": question}]) for _ in range(3)))
    texts = {r.choices[0].message.content for r in replies}
    assert len(texts) == 1
    return texts.pop()


def test_it_answers_as_the_fake_server_does_after_its_latency_and_counts_the_requests():
    fake = FakeLLMServer().start()
    try:
        expected = asyncio.run(_ask(fake.openai_base_url, "Who owns item 3-4?"))
    finally:
        fake.stop()
    server = LatencyServer(latency=0.05)
    try:
        assert asyncio.run(_ask(server.base_url, "Who owns item 3-4?")) == expected
        stats = server.stats()
        assert stats["requests"] == 3 and len(stats["replied"]) == 3
        assert min(stats["replied"]) > min(stats["arrived"])  # one clock, CLOCK_MONOTONIC, in both lists
        assert server.stats()["requests"] == 0  # counted since the last stats
    finally:
        server.stop()
    assert server.proc.returncode == 0
