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


@pytest.fixture(autouse=True)
def _private_response_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test gets its own empty response cache, so no test is answered from another's calls (or from the
    developer's ~/.cache) and call counts mean what they say. Subprocesses inherit it through the environment."""
    monkeypatch.setenv("GAIA_EVAL_CACHE_DIR", str(tmp_path_factory.mktemp("response-cache")))
    monkeypatch.delenv("GAIA_EVAL_NO_CACHE", raising=False)
