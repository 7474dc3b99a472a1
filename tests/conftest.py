"""Shared pytest fixtures: the local fake LLM server (a real HTTP server on 127.0.0.1)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from tests.fakeserver import FakeLLMServer
from tests.s3server import s3, s3_server  # noqa: F401  (moto's S3 server, for the tests that ask for it)

if TYPE_CHECKING:
    from tests.fakebatch import FakeBatchServer


@pytest.fixture
def fake_llm() -> Iterator[FakeLLMServer]:
    """A fresh fake OpenAI/Anthropic server per test (starting one takes about a millisecond)."""
    server = FakeLLMServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def batch_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeBatchServer]:
    """The fake server with both batch APIs (tests/fakebatch.py), keys set and batch polling kept tiny."""
    from tests.fakebatch import FakeBatchServer

    monkeypatch.setenv("GAIA_EVAL_BATCH_POLL_S", "0.01")
    monkeypatch.setenv("GAIA_EVAL_BATCH_GATHER_S", "0.05")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    server = FakeBatchServer().start()
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
