"""Model providers: one module per API (anthropic_api, openai_api, baseline), one protocol (base), the registry
that builds them from settings (registry), prices (pricing), the response cache (cache) and a run's cache and batch
settings as one value (call_options).

Which providers exist is gaia_eval.registry's say (PROVIDERS, provider_names); the public surface here is imported
on first use, so `import gaia_eval.cli` stays fast.
"""

from __future__ import annotations

from gaia_eval.lazy import lazy_exports

_LAZY = {
    "ProviderSettings": "registry",
    "api_key_for": "registry",
    "check_provider_name": "registry",
    "create_provider": "registry",
    "is_local": "registry",
    "chosen_base_url": "registry",
    "effective_base_url": "registry",
    "Provider": "base",
}

__getattr__, _lazy_names = lazy_exports(__name__, _LAZY)
__all__ = [*_lazy_names]
