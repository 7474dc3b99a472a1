"""The batch adapter of a provider, named by its entry in gaia_eval.registry; the SDK modules load on use."""

from __future__ import annotations

from gaia_eval.errors import UsageError
from gaia_eval.providers.base import Provider
from gaia_eval.providers.batch.api import BatchAPI
from gaia_eval.registry import load, provider_entry


def batch_api_for(provider: Provider) -> BatchAPI:
    """The batch adapter of a provider; a provider without a batch API is a usage error naming the fix."""
    adapter = provider_entry(provider.name).batch
    if adapter is None:
        raise UsageError(f"provider '{provider.name}' has no batch API", fix="drop --batch for it")
    return load(adapter, what="batch adapter")(provider)
