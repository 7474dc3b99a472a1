"""The OpenAI Batch API (Files + Batches) through the official SDK, for OpenAI and compatible servers that
implement it: a JSONL file of {custom_id, method, url, body} uploaded with purpose "batch", a batch over it
tagged in `metadata` with the run and local id, polled with batches.retrieve, results read from the output and
error files. The body of each request is exactly the synchronous call's, and each result body is read by the
synchronous provider's own reader, so a batch answer equals a synchronous one.
"""

from __future__ import annotations

from typing import Any

import orjson

from gaia_eval.errors import BadRequestError, UsageError
from gaia_eval.providers.base import ChatRequest, ChatResponse
from gaia_eval.providers.batch.api import (
    BATCH_KEY,
    CLOCK_SKEW_S,
    CONTROL_TIMEOUT_S,
    RUN_KEY,
    TRANSFER_TIMEOUT_S,
    BatchProgress,
    Found,
    RequestResult,
)

ENDPOINT = "/v1/chat/completions"
ENDED = {"completed", "failed", "expired", "cancelled"}


class OpenAIBatchAPI:
    def __init__(self, provider: Any) -> None:
        self.provider = provider
        self._client = provider.client

    async def _sdk(self, make_call):
        return await self.provider.sdk_call(make_call)

    async def create(self, entries: list[tuple[str, ChatRequest]], run_id: str, local_id: str) -> str:
        lines = b"".join(
            orjson.dumps({"custom_id": cid, "method": "POST", "url": ENDPOINT,
                          "body": self.provider.build_params(request)}) + b"\n"
            for cid, request in entries
        )
        try:
            upload = await self._sdk(
                lambda: self._client.files.create(
                    file=(f"gaia-eval-{local_id}.jsonl", lines, "application/jsonl"),
                    purpose="batch",
                    timeout=TRANSFER_TIMEOUT_S,
                )
            )
        except BadRequestError as exc:
            if "HTTP 404" in exc.message or "HTTP 405" in exc.message:  # a server without the Files API
                raise self._no_batch_api() from None
            raise
        batch = await self._sdk(lambda: self._client.batches.create(
            input_file_id=upload.id, endpoint=ENDPOINT, completion_window="24h",
            metadata={RUN_KEY: run_id, BATCH_KEY: local_id}, timeout=TRANSFER_TIMEOUT_S))
        return batch.id

    def _no_batch_api(self) -> UsageError:
        return UsageError(
            f"provider '{self.provider.name}' at {self._client.base_url} has no Batch API (no /files or /batches)",
            fix="drop --batch for this model, or point base_url at a server that implements the OpenAI Batch API",
        )

    async def poll(self, batch_id: str) -> BatchProgress:
        batch = await self._sdk(lambda: self._client.batches.retrieve(batch_id, timeout=CONTROL_TIMEOUT_S))
        counts = batch.request_counts
        total, done, failed = (counts.total, counts.completed, counts.failed) if counts else (0, 0, 0)
        return BatchProgress(batch.status, batch.status in ENDED, done, failed, max(0, total - done - failed))

    async def _lines(self, file_id: str | None) -> list[dict[str, Any]]:
        if not file_id:
            return []
        content = await self._sdk(lambda: self._client.files.content(file_id, timeout=TRANSFER_TIMEOUT_S))
        return [orjson.loads(line) for line in content.content.splitlines() if line.strip()]

    async def results(self, batch_id: str, custom_ids: list[str]) -> dict[str, RequestResult]:
        batch = await self._sdk(lambda: self._client.batches.retrieve(batch_id, timeout=CONTROL_TIMEOUT_S))
        found: dict[str, RequestResult] = {}
        for line in await self._lines(batch.output_file_id) + await self._lines(batch.error_file_id):
            cid = line.get("custom_id")
            if not isinstance(cid, str):
                continue  # not one of our requests: nothing to pair it with
            response = line.get("response") or {}
            error = line.get("error")
            if response.get("status_code") == 200 and not error:
                found[cid] = RequestResult(raw=response.get("body"))
            else:
                found[cid] = RequestResult(reason=_reason(response, error))
        if batch.status != "completed":
            whole = _batch_reason(batch)
            for cid in custom_ids:
                found.setdefault(cid, RequestResult(reason=whole))
        return found

    async def find(self, run_id: str, local_id: str, since: float, custom_ids: list[str],
                   taken: set[str]) -> Found | None:
        page = await self._sdk(lambda: self._client.batches.list(limit=100, timeout=CONTROL_TIMEOUT_S))
        async for batch in page:  # newest first
            if batch.created_at < since - CLOCK_SKEW_S:
                break
            tag = batch.metadata or {}
            if tag.get(RUN_KEY) == run_id and tag.get(BATCH_KEY) == local_id:
                return Found(batch.id, "metadata")
        return None

    async def cancel(self, batch_id: str) -> None:
        await self._sdk(lambda: self._client.batches.cancel(batch_id, timeout=CONTROL_TIMEOUT_S))

    def to_response(self, raw: Any, request: ChatRequest) -> ChatResponse:
        return self.provider.to_response(raw, request, 0.0)


def _reason(response: dict[str, Any], error: Any) -> str:
    if isinstance(error, dict) and (error.get("code") or error.get("message")):
        return f"{error.get('code') or 'error'}: {error.get('message') or ''}".strip()
    body = response.get("body") if isinstance(response, dict) else None
    detail = body.get("error") if isinstance(body, dict) else None
    if isinstance(detail, dict):
        return f"HTTP {response.get('status_code')}: {detail.get('message') or detail.get('type') or 'error'}"
    return f"HTTP {response.get('status_code')}: no result"


def _batch_reason(batch: Any) -> str:
    errors = getattr(getattr(batch, "errors", None), "data", None) or []
    detail = "; ".join(f"{e.code}: {e.message}" for e in errors if e is not None)
    return f"batch {batch.status}" + (f": {detail}" if detail else ": the request has no result")
