"""The Anthropic Message Batches API through the official SDK. Message batches take no metadata, so the run's
tag is in every custom_id (`<run id>_<request key>_<n>`); a batch whose create call returned after a kill is
found on restart by listing the batches created since the journaled intent with the same number of requests,
and confirmed when its results are read (their custom_ids must be exactly the intent's; a batch that is not
ours is rejected and its requests are submitted again).
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from gaia_eval.providers.base import ChatRequest, ChatResponse
from gaia_eval.providers.batch.api import (
    CLOCK_SKEW_S,
    CONTROL_TIMEOUT_S,
    TRANSFER_TIMEOUT_S,
    BatchProgress,
    Found,
    RequestResult,
)


class AnthropicBatchAPI:
    def __init__(self, provider: Any) -> None:
        self.provider = provider
        self._batches = provider.client.messages.batches

    async def _sdk(self, make_call):
        return await self.provider.sdk_call(make_call)

    async def create(self, entries: list[tuple[str, ChatRequest]], run_id: str, local_id: str) -> str:
        requests = [{"custom_id": cid, "params": self.provider.build_params(request)} for cid, request in entries]
        batch = await self._sdk(lambda: self._batches.create(requests=requests, timeout=TRANSFER_TIMEOUT_S))
        return batch.id

    async def poll(self, batch_id: str) -> BatchProgress:
        batch = await self._sdk(lambda: self._batches.retrieve(batch_id, timeout=CONTROL_TIMEOUT_S))
        c = batch.request_counts
        return BatchProgress(batch.processing_status, batch.processing_status == "ended", c.succeeded,
                             c.errored + c.canceled + c.expired, c.processing)

    async def results(self, batch_id: str, custom_ids: list[str]) -> dict[str, RequestResult]:
        found: dict[str, RequestResult] = {}
        decoder = await self._sdk(lambda: self._batches.results(batch_id, timeout=TRANSFER_TIMEOUT_S))
        async for entry in decoder:
            result = entry.result
            if result.type == "succeeded":
                found[entry.custom_id] = RequestResult(raw=result.message)
            elif result.type == "errored":
                detail = getattr(result.error, "error", None)
                kind = getattr(detail, "type", "error")
                found[entry.custom_id] = RequestResult(reason=f"errored: {kind}: {getattr(detail, 'message', '')}")
            elif result.type == "expired":
                found[entry.custom_id] = RequestResult(reason="expired: the batch ended (24 h) before this request ran")
            else:
                found[entry.custom_id] = RequestResult(reason=f"{result.type}: the batch was canceled")
        return found

    async def find(self, run_id: str, local_id: str, since: float, custom_ids: list[str],
                   taken: set[str]) -> Found | None:
        earliest = datetime.fromtimestamp(since - CLOCK_SKEW_S, tz=timezone.utc)
        page = await self._sdk(lambda: self._batches.list(limit=100, timeout=CONTROL_TIMEOUT_S))
        async for batch in page:  # newest first
            if batch.created_at < earliest:
                break
            c = batch.request_counts
            size = c.processing + c.succeeded + c.errored + c.canceled + c.expired
            if batch.id in taken or size != len(custom_ids):
                continue
            if batch.processing_status == "ended":
                got = await self.results(batch.id, custom_ids)
                if set(got) != set(custom_ids):
                    continue
            return Found(batch.id, "listing")
        return None

    async def cancel(self, batch_id: str) -> None:
        await self._sdk(lambda: self._batches.cancel(batch_id, timeout=CONTROL_TIMEOUT_S))

    def to_response(self, raw: Any, request: ChatRequest) -> ChatResponse:
        return self.provider.to_response(raw, request, 0.0)
