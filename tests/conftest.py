"""Shared pytest fixtures: the local fake LLM server (a real HTTP server on 127.0.0.1)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakeserver import FakeLLMServer


@pytest.fixture
def fake_llm() -> Iterator[FakeLLMServer]:
    """A fresh fake OpenAI/Anthropic server per test (starting one takes about a millisecond)."""
    server = FakeLLMServer().start()
    try:
        yield server
    finally:
        server.stop()
