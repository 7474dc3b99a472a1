"""The batch adapter of a provider: OpenAI (and compatible servers) or Anthropic; the SDK modules load on use."""

from __future__ import annotations

from gaia_eval.errors import UsageError
from gaia_eval.providers.base import Provider
from gaia_eval.providers.batch.api import BatchAPI


def batch_api_for(provider: Provider) -> BatchAPI:
    """The batch adapter of a provider; a provider without a batch API is a usage error naming the fix."""
    kind = type(provider).__name__
    if kind == "OpenAIProvider":
        from gaia_eval.providers.batch.openai_batch import OpenAIBatchAPI

        return OpenAIBatchAPI(provider)
    if kind == "AnthropicProvider":
        from gaia_eval.providers.batch.anthropic_batch import AnthropicBatchAPI

        return AnthropicBatchAPI(provider)
    raise UsageError(f"provider '{provider.name}' has no batch API", fix="drop --batch for it")
