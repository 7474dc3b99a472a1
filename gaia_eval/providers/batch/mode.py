"""What a stage asks of batch mode: `with_batch` wraps a provider when --batch is on, `batch_gate` gives the gate of
its endpoint. Nothing here imports an SDK."""

from __future__ import annotations

from pathlib import Path

from gaia_eval.concurrency import ProviderGate
from gaia_eval.providers.base import Provider
from gaia_eval.providers.batch.options import batch_options


def with_batch(provider: Provider, settings, journal: Path, label: str | None = None) -> Provider:
    """`provider` answering through its batch API when --batch is on; else (or for a local baseline, which
    has no API at all and costs nothing) the provider itself. `label` names it in errors (the experiment)."""
    options = batch_options()
    if not options.enabled or provider.name == "baseline":
        return provider
    from gaia_eval.providers.batch.runner import BatchingProvider

    return BatchingProvider(provider, settings, Path(journal), options, label or f"{provider.name}:{provider.model}")


def batch_gate(limit: int, requests_per_minute: float | None = None, *, provider: str | None = None) -> ProviderGate:
    """The gate for an endpoint. In batch mode a batch is one request whatever its size, so the gate lets a
    whole batch of calls wait at once and no per-attempt timeout applies (a batch may take hours)."""
    options = batch_options()
    if not options.enabled or provider == "baseline":
        return ProviderGate(limit, requests_per_minute)
    return ProviderGate(max(limit, options.size), None, attempt_timeouts=False)
