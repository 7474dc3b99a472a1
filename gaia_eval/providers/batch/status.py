"""`--batch-status`: what the batches journaled under a folder are doing, asked of the provider without waiting,
submitting or collecting anything."""

from __future__ import annotations

import asyncio
from pathlib import Path

from gaia_eval.artifacts.batch_journal import BatchState, read_batch_journal
from gaia_eval.concurrency import run_async, wait_within
from gaia_eval.errors import GaiaEvalError

STATUS_TIMEOUT_S = 15.0  # a status look must not block: an endpoint silent this long reads "status unknown"


def _journals(folder: Path) -> list[Path]:
    folder = Path(folder)
    return sorted(folder.rglob("*.batches.jsonl")) if folder.is_dir() else []


def _ended_line(state: BatchState) -> str:
    failed = len(state.failed)
    return (f"{state.batch_id}: ended ({state.status}), {len(state.custom_ids) - failed} done, {failed} failed, "
            "0 pending; results collected")


async def _live_line_or_unknown(state: BatchState) -> str:
    try:
        return await wait_within(_live_line(state), STATUS_TIMEOUT_S)
    except asyncio.TimeoutError:
        return f"{state.batch_id}: status unknown (no answer within {STATUS_TIMEOUT_S:g} s)"
    except GaiaEvalError as exc:
        return f"{state.batch_id}: status unknown ({exc.one_line()})"


async def _live_lines(states: list[BatchState]) -> list[str]:
    return list(await asyncio.gather(*(_live_line_or_unknown(s) for s in states)))


async def _live_line(state: BatchState) -> str:
    from gaia_eval.providers import ProviderSettings, create_provider
    from gaia_eval.providers.batch.adapters import batch_api_for

    settings = ProviderSettings(provider=state.provider, model=state.model, base_url=state.base_url,
                                api_key_env=state.api_key_env)
    provider = create_provider(settings)
    try:
        progress = await batch_api_for(provider).poll(state.batch_id or "")
    finally:
        await provider.aclose()
    return (f"{state.batch_id}: {progress.status}, {progress.succeeded} done, {progress.failed} failed, "
            f"{progress.pending} pending")


def batch_status_lines(folder: Path) -> list[str]:
    """One line per journal and per batch in it; never blocks on a batch and never submits."""
    lines: list[str] = []
    journals = [(path, read_batch_journal(path)) for path in _journals(folder)]
    live = [s for _, states in journals for s in states
            if not (s.abandoned or s.rejected) and s.batch_id is not None and not s.ended]
    asked = dict(zip((id(s) for s in live), run_async(_live_lines(live)), strict=True)) if live else {}  # all at once
    for path, states in journals:
        lines.append(f"{path}: {len(states)} batch(es)")
        for state in states:
            total = len(state.custom_ids)
            where = f"{state.provider} {state.model}, {total} requests"
            if state.abandoned or state.rejected:
                lines.append(f"  ({state.local_id}): {'abandoned' if state.abandoned else 'rejected'}, never "
                             f"submitted under this run; {where}")
            elif state.batch_id is None:
                lines.append(f"  ({state.local_id}): create call not confirmed; the next run looks it up by its tag;"
                             f" {where}")
            elif state.ended:
                lines.append(f"  {_ended_line(state)}; {where}")
            else:
                lines.append(f"  {asked[id(state)]}; {where}")
    if not lines:
        lines.append(f"no batches journaled under {folder}")
    return lines
