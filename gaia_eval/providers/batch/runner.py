"""A provider whose calls are answered through the provider's batch API, and which survives the process.

Stages call `complete(request)` exactly as they do synchronously. The call is queued; requests arriving
together (up to --batch-size, or within a short quiet spell) are submitted as one batch; the call returns when
the batch has ended and its result is read, as the ChatResponse the synchronous reader makes of it (plus
`batch_id`). So the response cache in front of it, retries, journals and artifacts work unchanged.

Never pay twice: every request's custom_id is `<run id>_<first 40 hex of its response-cache key>_<n>`. Before a
create call the batch journal gets an `intent` line (its custom_ids); the batch id is journaled the moment the
call returns. A restarted run asks for the same requests (the stages are deterministic), finds their keys in
the journal and waits on the batches they are in instead of submitting them again; an intent without a batch
id is looked up at the provider by the run's tag (metadata, or custom_ids for Anthropic). The n-th request for
one key in a process re-attaches to the n-th journaled submission of it that did not fail; one that failed
(errored, expired, canceled) is submitted anew when asked again (--retry-errors).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from gaia_eval.artifacts.batch_journal import BatchEvent, BatchEventKind, BatchState, read_batch_journal
from gaia_eval.artifacts.journal import JournalWriter
from gaia_eval.concurrency import ProviderGate, RetryPolicy, call_with_retries, wait_within
from gaia_eval.errors import BatchRequestError, ProviderError, UsageError
from gaia_eval.providers.base import ChatRequest, ChatResponse, Provider
from gaia_eval.providers.batch.adapters import batch_api_for
from gaia_eval.providers.batch.api import TRANSFER_TIMEOUT_S, BatchProgress, RequestResult
from gaia_eval.providers.batch.options import MAX_POLL_S, BatchOptions, run_id_for
from gaia_eval.providers.cache import request_key
from gaia_eval.safe_text import terminal_text

RESUBMIT = RequestResult(reason="resubmit")  # sentinel: the batch holding the request was not ours after all
CONTROL_POLICY = RetryPolicy(
    max_retries=6, timeout_s=TRANSFER_TIMEOUT_S
)  # the SDK call's own timeout is the tighter one
CREATE_ATTEMPTS = 3


class BatchingProvider:
    """Same name, model and protocol as the provider it wraps."""

    def __init__(self, inner: Provider, settings: Any, journal: Path, options: BatchOptions, label: str) -> None:
        self.inner = inner
        self.label = label
        self.name = inner.name
        self.model = inner.model
        self.is_local = inner.is_local
        self.settings = settings
        try:
            self.api = batch_api_for(inner)  # a provider without a batch API stops here (exit 2)
        except UsageError as exc:
            raise _labelled(exc, label) from None
        self.options = options
        self.path = Path(journal)
        self.run_id = run_id_for(self.path)
        self._journal: JournalWriter | None = None
        self._states: dict[str, BatchState] = {}
        self._local_of: dict[str, str] = {}  # custom_id -> local id of its batch
        self._slots: dict[str, list[str]] = {}  # key prefix -> custom_ids in journal order
        self._next: dict[str, int] = {}
        self._used: set[str] = set()  # custom_ids claimed in this process
        self._pending: list[tuple[str, ChatRequest]] = []
        self._waiters: dict[str, asyncio.Future] = {}
        self._results: dict[str, RequestResult] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task] = set()
        self._ready: asyncio.Lock | None = None
        self._loaded = False
        self._load_error: BatchRequestError | None = None
        self._poller: asyncio.Task | None = None
        self._wake: asyncio.Event | None = None
        self._gate = ProviderGate(4)
        self._shown: dict[str, BatchProgress] = {}
        # What this process did, for the stage's summary.
        self.submitted = 0  # requests submitted in new batches
        self.reattached = 0  # requests answered by batches submitted before (by a run that was stopped)

    # -- the protocol ------------------------------------------------------------------------------------
    async def complete(self, request: ChatRequest) -> ChatResponse:
        await self._load()
        key = request_key(self.settings, request)[:40]
        while True:
            cid = self._claim(key)
            if cid is not None:
                self.reattached += 1
                future = self._attach(cid)
            else:
                cid = self._new_id(key)
                future = self._enqueue(cid, request)
            result = await future
            if result is RESUBMIT:
                continue
            batch_id = self._states[self._local_of[cid]].batch_id if cid in self._local_of else None
            if not result.ok:
                raise BatchRequestError(f"{self.name} batch {batch_id or '(not created)'}: {result.reason}")
            response = self.api.to_response(result.raw, request)
            response.batch_id = batch_id
            return response

    async def aclose(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        for task in [*self._tasks, *([self._poller] if self._poller else [])]:
            task.cancel()
        await asyncio.gather(*self._tasks, *([self._poller] if self._poller else []), return_exceptions=True)
        if self._journal is not None:
            self._journal.close()
        await self.inner.aclose()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    # -- journal -----------------------------------------------------------------------------------------
    def _append(self, event: BatchEventKind, state: BatchState, **fields: Any) -> None:
        assert self._journal is not None
        self._journal.append(BatchEvent(event=event, run_id=self.run_id, local_id=state.local_id, at=time.time(),
                                        **fields))

    def _index(self, state: BatchState) -> None:
        self._states[state.local_id] = state
        for cid in state.custom_ids:
            self._local_of[cid] = state.local_id
            _, key, n = cid.rsplit("_", 2)
            self._slots.setdefault(key, []).append(cid)
            self._next[key] = max(self._next.get(key, 0), int(n) + 1)

    async def _load(self) -> None:
        if self._load_error is not None:
            raise self._load_error
        if self._loaded:
            return
        if self._ready is None:
            self._ready = asyncio.Lock()
        async with self._ready:
            if self._load_error is not None:
                raise self._load_error
            if self._loaded:
                return
            states = read_batch_journal(self.path)
            self._journal = JournalWriter(self.path)
            for state in states:
                self._index(state)
            for state in states:  # a create call whose answer was never journaled: ask the provider
                if state.live and state.batch_id is None:
                    try:
                        found = await self._find(state)
                    except BatchRequestError as exc:
                        self._load_error = exc  # every call of this run fails with it; nothing is abandoned
                        raise
                    if found is None:
                        state.abandoned = True
                        self._append("abandoned", state)
                    else:
                        state.batch_id, state.found_by = found.batch_id, found.found_by
                        self._append("created", state, batch_id=found.batch_id, found_by=found.found_by)
                        _say(f"batch {found.batch_id}: found at the provider by its {found.found_by} tag "
                             "(the run was stopped before its id was journaled)")
            self._loaded = True

    async def _find(self, state: BatchState):
        """The batch an unconfirmed create call made, or None when the provider answered that there is none. A
        lookup that fails is not "none": treating it so would submit (and pay for) the requests a second time."""
        taken = {s.batch_id for s in self._states.values() if s.batch_id}
        try:
            # The run id the intent was journaled under: the folder may have moved since.
            return await self._control(lambda: self.api.find(state.run_id, state.local_id, state.at,
                                                              state.custom_ids, taken))
        except ProviderError as exc:
            raise BatchRequestError(
                f"{self.name}: could not confirm whether batch ({state.local_id}) was created: {exc.reason}: "
                f"{exc.message}; nothing was resubmitted, run the same command again to look it up") from None

    # -- claiming and queueing ---------------------------------------------------------------------------
    def _claim(self, key: str) -> str | None:
        for cid in self._slots.get(key, []):
            state = self._states[self._local_of[cid]]
            if cid in self._used or not state.live or cid in state.failed:
                continue
            self._used.add(cid)
            return cid
        return None

    def _new_id(self, key: str) -> str:
        n = self._next.get(key, 0)
        self._next[key] = n + 1
        cid = f"{self.run_id}_{key}_{n}"
        self._used.add(cid)
        return cid

    def _future(self, cid: str) -> asyncio.Future:
        future = asyncio.get_running_loop().create_future()
        self._waiters[cid] = future
        return future

    def _attach(self, cid: str) -> asyncio.Future:
        future = self._future(cid)
        if cid in self._results:
            future.set_result(self._results[cid])
        else:
            self._ensure_poller()
        return future

    def _enqueue(self, cid: str, request: ChatRequest) -> asyncio.Future:
        future = self._future(cid)
        self._pending.append((cid, request))
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if len(self._pending) >= self.options.size:
            self._flush()
        else:
            self._timer = asyncio.get_running_loop().call_later(self.options.gather_s, self._flush)
        return future

    def _flush(self) -> None:
        self._timer = None
        while self._pending:
            entries, self._pending = self._pending[: self.options.size], self._pending[self.options.size :]
            task = asyncio.ensure_future(self._submit(entries))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _resolve(self, cid: str, result: RequestResult) -> None:
        future = self._waiters.get(cid)
        if future is not None and not future.done():
            future.set_result(result)

    # -- submitting --------------------------------------------------------------------------------------
    async def _submit(self, entries: list[tuple[str, ChatRequest]]) -> None:
        cids = [cid for cid, _ in entries]
        s = self.settings
        state = BatchState(local_id=uuid.uuid4().hex[:12], run_id=self.run_id, at=time.time(), custom_ids=cids,
                           provider=s.provider, model=s.model, base_url=s.base_url, api_key_env=s.api_key_env)
        try:
            self._append("intent", state, custom_ids=cids, provider=s.provider, model=s.model, base_url=s.base_url,
                         api_key_env=s.api_key_env)
            self._index(state)
            found = await self._create(state, entries)
            self._record_creation(state, entries, found)
        except BaseException as exc:  # a usage error (no batch API), a full disk: every caller hears of it
            if isinstance(exc, UsageError):
                exc = _labelled(exc, self.label)
            for cid in cids:
                future = self._waiters.get(cid)
                if future is not None and not future.done():
                    future.set_exception(exc if isinstance(exc, Exception) else asyncio.CancelledError())
            if isinstance(exc, Exception):
                return
            raise

    def _record_creation(self, state: BatchState, entries, found) -> None:
        if isinstance(found, ProviderError):
            state.abandoned = True
            self._append("abandoned", state)
            for cid, _ in entries:
                self._resolve(cid, RequestResult(reason=f"not submitted: {found.reason}: {found.message}"))
            return
        batch_id, found_by = found
        state.batch_id, state.found_by = batch_id, found_by
        self._append("created", state, batch_id=batch_id, found_by=found_by)
        self.submitted += len(entries)
        _say(f"batch {batch_id}: {len(entries)} requests submitted to {self.name} {self.model}; journaled in "
             f"{self.path} (a stopped run re-attaches to it)")
        self._ensure_poller()

    async def _create(self, state: BatchState, entries) -> tuple[str, str] | ProviderError:
        """Create the batch; after a failed call, look it up before trying again, so it is never made twice."""
        for attempt in range(1, CREATE_ATTEMPTS + 1):
            try:
                return await self.api.create(entries, self.run_id, state.local_id), "create"
            except ProviderError as exc:
                found = await self._find(state)
                if found is not None:
                    return found.batch_id, found.found_by
                if not exc.retryable or attempt == CREATE_ATTEMPTS:
                    return exc
                await asyncio.sleep(CONTROL_POLICY.base_delay_s * attempt)
        raise AssertionError("unreachable")  # pragma: no cover

    async def _control(self, make_call):
        outcome = await call_with_retries(make_call, self._gate, CONTROL_POLICY)
        if outcome.error is not None:
            raise outcome.error
        return outcome.value

    # -- waiting and collecting --------------------------------------------------------------------------
    def _ensure_poller(self) -> None:
        if self._wake is None:
            self._wake = asyncio.Event()
        self._wake.set()
        if self._poller is None or self._poller.done():
            self._poller = asyncio.ensure_future(self._poll_loop())
            self._poller.add_done_callback(self._poller_ended)

    def _awaited(self) -> list[BatchState]:
        waiting = {cid for cid, f in self._waiters.items() if not f.done()}
        return [s for s in self._states.values()
                if s.live and s.batch_id and any(c in waiting for c in s.custom_ids)]

    async def _poll_loop(self) -> None:
        assert self._wake is not None
        delay = self.options.first_poll_s
        while True:
            active = self._awaited()
            if not active:
                self._wake.clear()
                await self._wake.wait()
                delay = self.options.first_poll_s
                continue
            for state in active:
                try:
                    await self._follow(state)
                except Exception as exc:
                    self._fail_waiting(state, exc)
            self._wake.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await wait_within(self._wake.wait(), delay)
            delay = min(delay * 1.5, MAX_POLL_S)

    async def _follow(self, state: BatchState) -> None:
        if state.ended:  # ended in an earlier run: its results are still at the provider
            await self._collect(state)
            return
        batch_id = state.batch_id
        assert batch_id is not None, "a batch followed before it was created"
        progress = await self._control(lambda: self.api.poll(batch_id))
        self._show(state, progress)
        if progress.ended:
            await self._collect(state, progress.status)

    def _fail_waiting(self, state: BatchState, exc: BaseException) -> None:
        """The batch could not be followed (its poll or results failed after retries, a key was rejected, the
        journal could not be written): its callers fail with the reason instead of waiting forever. The batch
        stays journaled as live, so the same command re-attaches to it."""
        if isinstance(exc, ProviderError):
            exc = BatchRequestError(f"{self.name}: could not follow batch {state.batch_id}: {exc.reason}: "
                                    f"{exc.message}; it keeps running at the provider, run the same command again "
                                    "to re-attach")
        elif not isinstance(exc, Exception):
            exc = asyncio.CancelledError()
        for cid in state.custom_ids:
            future = self._waiters.get(cid)
            if future is not None and not future.done():
                future.set_exception(exc)

    def _poller_ended(self, task: asyncio.Task) -> None:
        """Backstop: should the poller itself stop, no caller is left waiting on it."""
        if task.cancelled() or (error := task.exception()) is None:
            return
        for state in list(self._states.values()):
            self._fail_waiting(state, error)

    def _show(self, state: BatchState, progress: BatchProgress) -> None:
        if self._shown.get(state.local_id) == progress:
            return
        self._shown[state.local_id] = progress
        _say(f"batch {state.batch_id}: {progress.status}, {progress.succeeded} done, {progress.failed} failed, "
             f"{progress.pending} pending")

    async def _collect(self, state: BatchState, status: str | None = None) -> None:
        assert state.batch_id is not None
        results = await self._control(lambda: self.api.results(state.batch_id, state.custom_ids))
        if state.found_by == "listing" and set(results) != set(state.custom_ids):
            state.rejected = True
            self._append("rejected", state)
            for cid in state.custom_ids:
                self._resolve(cid, RESUBMIT)
            return
        status = status or state.status or "ended"
        for cid in state.custom_ids:
            results.setdefault(cid, RequestResult(reason=f"no result in the batch ({status})"))
        failed = {cid: r.reason for cid, r in results.items() if not r.ok and cid in self._local_of}
        if not state.ended:
            state.status, state.failed = status, failed
            self._append("ended", state, status=status, failed=failed)
        for cid in state.custom_ids:
            self._results[cid] = results[cid]
            self._resolve(cid, results[cid])


def _labelled(exc: UsageError, label: str) -> UsageError:
    return type(exc)(f"{label}: {exc.message}", file=exc.file, field=exc.field, fix=exc.fix)


def _say(line: str) -> None:
    print(terminal_text(line), file=sys.stderr, flush=True)
