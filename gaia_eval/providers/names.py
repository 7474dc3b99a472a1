"""The built-in provider names a config or option may use, read from gaia_eval.registry (plain data, no provider
code loaded). Providers added by other packages are listed by `gaia_eval.registry.provider_names()`."""

from __future__ import annotations

from gaia_eval.registry import BUILTIN_PROVIDERS

# OpenAI-compatible local servers: no key needed, $0 cost, base URL overridable in the config.
LOCAL_PRESETS: dict[str, str] = {n: e.base_url for n, e in BUILTIN_PROVIDERS.items() if e.local and e.base_url}

CLOUD_KEYS: dict[str, str] = {n: e.key_env for n, e in BUILTIN_PROVIDERS.items() if e.key_env}

KNOWN_PROVIDERS: tuple[str, ...] = tuple(BUILTIN_PROVIDERS)
LLM_PROVIDERS: tuple[str, ...] = tuple(n for n, e in BUILTIN_PROVIDERS.items() if e.follows_prompts)
