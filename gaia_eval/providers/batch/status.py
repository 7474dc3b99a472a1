"""`--batch-status`: what the batches journaled under a folder are doing, asked of the provider without waiting,
submitting or collecting anything."""

from __future__ import annotations

from pathlib import Path

from gaia_eval.artifacts.batch_journal import BatchState, read_batch_journal
from gaia_eval.concurrency import run_async
from gaia_eval.errors import GaiaEvalError


def _journals(folder: Path) -> list[Path]:
    folder = Path(folder)
    return sorted(folder.rglob("*.batches.jsonl")) if folder.is_dir() else []


def _ended_line(state: BatchState) -> str:
    failed = len(state.failed)
    return (f"{state.batch_id}: ended ({state.status}), {len(state.custom_ids) - failed} done, {failed} failed, "
            "0 pending; results collected")


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
    for path in _journals(folder):
        states = read_batch_journal(path)
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
                try:
                    lines.append(f"  {run_async(_live_line(state))}; {where}")
                except GaiaEvalError as exc:
                    lines.append(f"  {state.batch_id}: status unknown ({exc.one_line()}); {where}")
    if not lines:
        lines.append(f"no batches journaled under {folder}")
    return lines
