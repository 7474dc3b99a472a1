"""Model providers: one module per API (anthropic_api, openai_api, baseline), one protocol (base), the registry
that builds them from settings (registry), prices (pricing) and the response cache (cache).

The provider names are plain constants and load nothing; the rest of the public surface is imported on first
use, so `import gaia_eval.cli` stays fast.
"""

from __future__ import annotations

from gaia_eval.lazy import lazy_exports
from gaia_eval.providers.names import CLOUD_KEYS, KNOWN_PROVIDERS, LLM_PROVIDERS, LOCAL_PRESETS

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
__all__ = ["CLOUD_KEYS", "KNOWN_PROVIDERS", "LLM_PROVIDERS", "LOCAL_PRESETS", *_lazy_names]
