"""A batch run that meets trouble after submission ends each waiting call with a reason, and never pays twice.

Found by an independent review of --batch, each reproduced first: a failed poll or results download, a journal
line the disk refused, a lookup that failed (a rotated key) taken as "no such batch", an output folder moved
between a kill and the restart, and an upload slower than the chat calls' per-attempt timeout. The waits below
are bounds on a hang, never timing assertions.
"""

from __future__ import annotations

import asyncio
import os
import time

import orjson
import pytest

from gaia_eval.concurrency import run_async
from gaia_eval.errors import BatchRequestError, StorageError, storage_error
from gaia_eval.providers import ProviderSettings, create_provider
from gaia_eval.providers.base import ChatRequest, Message
from gaia_eval.providers.batch.adapters import batch_api_for
from gaia_eval.providers.batch.options import BatchOptions, run_id_for
from gaia_eval.providers.batch.runner import BatchingProvider
from gaia_eval.providers.cache import request_key

MODELS = {"openai": "gpt-4o-mini", "anthropic": "claude-haiku-4-5"}
KEYS = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
REQUEST = ChatRequest(messages=(Message(role="user", content="q"),))
HANG = 60  # seconds: a call still waiting after this has hung (the bug); a bound, not a measured duration


def _settings(server, provider: str, **extra) -> ProviderSettings:
    url = server.openai_base_url if provider == "openai" else server.anthropic_base_url
    return ProviderSettings(provider=provider, model=MODELS[provider], base_url=url, **extra)


def _ask(settings: ProviderSettings, journal, requests=(REQUEST,)) -> list:
    async def ask():
        provider = BatchingProvider(create_provider(settings), settings, journal, BatchOptions(enabled=True), "t")
        try:
            return await asyncio.wait_for(
                asyncio.gather(*(provider.complete(r) for r in requests), return_exceptions=True), HANG)
        finally:
            await provider.aclose()

    return run_async(ask())


def _intent(journal, settings, run_id: str, **created) -> str:
    cid = f"{run_id}_{request_key(settings, REQUEST)[:40]}_0"
    lines = [{"schema_version": 1, "event": "intent", "run_id": run_id, "local_id": "abc", "at": time.time() - 1,
              "custom_ids": [cid], "provider": settings.provider, "model": settings.model,
              "base_url": settings.base_url}]
    if created:
        lines.append({"schema_version": 1, "event": "created", "run_id": run_id, "local_id": "abc",
                      "at": time.time(), "found_by": "create", **created})
    journal.write_bytes(b"".join(orjson.dumps(line) + b"\n" for line in lines))
    return cid


def _created_at_provider(settings, cid: str, run_id: str) -> None:
    """The create call that reached the provider just before the process was killed."""

    async def create():
        inner = create_provider(settings)
        try:
            await batch_api_for(inner).create([(cid, REQUEST)], run_id, "abc")
        finally:
            await inner.aclose()

    run_async(create())


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_batch_that_cannot_be_polled_fails_its_calls_with_the_reason(batch_server, tmp_path, provider):
    settings = _settings(batch_server, provider)
    journal = tmp_path / "x.batches.jsonl"
    _intent(journal, settings, run_id_for(journal), batch_id="batch_gone")  # the provider no longer has it
    [outcome] = _ask(settings, journal)
    assert isinstance(outcome, BatchRequestError), outcome
    assert "could not follow batch batch_gone" in str(outcome) and "run the same command again" in str(outcome)


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_failed_lookup_is_not_taken_as_no_batch_so_nothing_is_paid_twice(batch_server, tmp_path, monkeypatch,
                                                                            provider):
    settings = _settings(batch_server, provider)
    journal = tmp_path / "x.batches.jsonl"
    run_id = run_id_for(journal)
    cid = _intent(journal, settings, run_id)  # killed between the create call and its journal line
    _created_at_provider(settings, cid, run_id)
    batch_server.expected_key = os.environ[KEYS[provider]]
    monkeypatch.setenv(KEYS[provider], "sk-rotated")
    [outcome] = _ask(settings, journal)
    assert isinstance(outcome, BatchRequestError) and "could not confirm whether batch" in str(outcome), outcome
    assert b'"abandoned"' not in journal.read_bytes()
    monkeypatch.setenv(KEYS[provider], batch_server.expected_key)
    [answer] = _ask(settings, journal)
    assert not isinstance(answer, Exception), answer
    assert len(batch_server.batches) == 1 and max(batch_server.submissions.values()) == 1


def test_a_restart_from_a_moved_folder_finds_the_batch_under_its_journaled_run_id(batch_server, tmp_path):
    settings = _settings(batch_server, "openai")
    journal = tmp_path / "moved" / "x.batches.jsonl"
    journal.parent.mkdir()
    old_run_id = run_id_for(tmp_path / "original" / "x.batches.jsonl")
    cid = _intent(journal, settings, old_run_id)
    _created_at_provider(settings, cid, old_run_id)
    [answer] = _ask(settings, journal)
    assert not isinstance(answer, Exception), answer
    assert len(batch_server.batches) == 1


def test_an_upload_slower_than_the_chat_timeout_still_submits(batch_server, tmp_path, monkeypatch):
    from tests.fakebatch import FakeBatchServer

    store = FakeBatchServer._store_file

    def slow_store(self, data, filename):
        time.sleep(0.6)  # a large JSONL file on a slow link
        return store(self, data, filename)

    monkeypatch.setattr(FakeBatchServer, "_store_file", slow_store)
    settings = _settings(batch_server, "openai", timeout_s=0.3)  # the per-attempt timeout of chat calls
    requests = [ChatRequest(messages=(Message(role="user", content=f"q{i}"),)) for i in range(3)]
    answers = _ask(settings, tmp_path / "x.batches.jsonl", requests)
    assert not [a for a in answers if isinstance(a, Exception)], answers


@pytest.mark.parametrize("event", ["created", "ended"])
def test_a_journal_line_the_disk_refuses_ends_the_calls_with_the_storage_error(batch_server, tmp_path, monkeypatch,
                                                                               event):
    from gaia_eval.artifacts.journal import JournalWriter

    append = JournalWriter.append

    def refusing(self, record):
        if getattr(record, "event", None) == event:
            raise storage_error(self.path, OSError(28, "No space left on device"))
        return append(self, record)

    monkeypatch.setattr(JournalWriter, "append", refusing)
    [outcome] = _ask(_settings(batch_server, "openai"), tmp_path / "x.batches.jsonl")
    assert isinstance(outcome, StorageError), outcome
