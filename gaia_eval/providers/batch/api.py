"""What a provider's batch API offers gaia-eval, in one small shape both the OpenAI Batch API and the Anthropic
Message Batches API fit: create a batch of (custom_id, request), poll it, read its results, find it again by
the run's tag, cancel it. The adapter modules (openai_batch, anthropic_batch) implement it with the official SDKs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from gaia_eval.providers.base import ChatRequest, ChatResponse, Provider

# Metadata keys (OpenAI) that tag a batch with the gaia-eval run that made it.
RUN_KEY = "gaia_eval_run"
BATCH_KEY = "gaia_eval_batch"
# How far before an intent's time a listed batch may claim to have been created (clock skew between hosts).
CLOCK_SKEW_S = 600.0
# Per-call timeouts of batch control calls, apart from the chat calls' per-attempt timeout (an experiment's
# timeout_s, --judge-timeout): uploading a thousand requests or downloading their results can take minutes.
TRANSFER_TIMEOUT_S = 600.0
CONTROL_TIMEOUT_S = 120.0


@dataclass(frozen=True)
class BatchProgress:
    status: str  # the provider's word: in_progress, validating, finalizing, completed, ended, expired, ...
    ended: bool
    succeeded: int
    failed: int  # errored, expired and canceled requests
    pending: int


@dataclass(frozen=True)
class RequestResult:
    """One request's outcome: `raw` is the reply the synchronous call would have returned; else `reason`."""

    raw: Any = None
    reason: str | None = None

    @property
    def ok(self) -> bool:
        return self.reason is None


@dataclass(frozen=True)
class Found:
    batch_id: str
    found_by: str  # "metadata" (OpenAI: the tag matched) or "listing" (Anthropic: time and size matched)


class BatchAPI(Protocol):
    provider: Provider

    async def create(self, entries: list[tuple[str, ChatRequest]], run_id: str, local_id: str) -> str: ...

    async def poll(self, batch_id: str) -> BatchProgress: ...

    async def results(self, batch_id: str, custom_ids: list[str]) -> dict[str, RequestResult]: ...

    async def find(self, run_id: str, local_id: str, since: float, custom_ids: list[str],
                   taken: set[str]) -> Found | None: ...

    async def cancel(self, batch_id: str) -> None: ...

    def to_response(self, raw: Any, request: ChatRequest) -> ChatResponse: ...
