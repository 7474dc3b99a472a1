"""What a stage asks of batch mode: `with_batch` wraps a provider when the run's BatchOptions say so, `batch_gate`
gives the gate of its endpoint. Nothing here imports an SDK."""

from __future__ import annotations

from pathlib import Path

from gaia_eval.concurrency import ProviderGate
from gaia_eval.providers.base import Provider
from gaia_eval.providers.batch.options import BatchOptions

# Calls waiting at once in batch mode: enough to fill this many batches, which then run side by side at the
# provider (each waiting call is a parked coroutine, so the bound is on memory, not on the provider).
BATCHES_IN_FLIGHT = 20


def with_batch(provider: Provider, settings, journal: Path, options: BatchOptions,
               label: str | None = None) -> Provider:
    """`provider` answering through its batch API when `options` turn batch mode on (--batch); else (or for a
    local baseline, which has no API at all and costs nothing) the provider itself. `label` names it in errors
    (the experiment)."""
    if not options.enabled or provider.name == "baseline":
        return provider
    from gaia_eval.providers.batch.runner import BatchingProvider

    return BatchingProvider(provider, settings, Path(journal), options, label or f"{provider.name}:{provider.model}")


def batch_gate(options: BatchOptions, limit: int, requests_per_minute: float | None = None, *,
               provider: str | None = None) -> ProviderGate:
    """The gate for an endpoint. In batch mode a batch is one request whatever its size, so the gate lets the
    calls of many batches wait at once and no per-attempt timeout applies (a batch may take hours)."""
    if not options.enabled or provider == "baseline":
        return ProviderGate(limit, requests_per_minute)
    return ProviderGate(max(limit, options.size * BATCHES_IN_FLIGHT), None, attempt_timeouts=False)
