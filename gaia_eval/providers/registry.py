"""Provider registry: names in configs map to provider modules, imported only when used (fast CLI start);
settings, API keys from the environment, and which providers are local."""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass

from gaia_eval.errors import ConfigError, MissingCredentialsError
from gaia_eval.providers.base import Provider
from gaia_eval.providers.names import CLOUD_KEYS, KNOWN_PROVIDERS, LLM_PROVIDERS, LOCAL_PRESETS



@dataclass(frozen=True)
class ProviderSettings:
    provider: str
    model: str
    base_url: str | None = None
    api_key_env: str | None = None
    timeout_s: float | None = None


def check_provider_name(name: str, *, file: str | None = None, field: str | None = None) -> None:
    if name not in KNOWN_PROVIDERS:
        raise ConfigError(
            f"unknown provider '{name}'",
            file=file,
            field=field,
            fix=f"use one of: {', '.join(KNOWN_PROVIDERS)}",
        )


def api_key_for(settings: ProviderSettings) -> str | None:
    """The key from the environment (never from a file). Raises before any work when a cloud key is missing."""
    env_name = settings.api_key_env or CLOUD_KEYS.get(settings.provider)
    if env_name is None:
        return None
    key = os.environ.get(env_name)
    if key:
        return key
    if settings.api_key_env is None and settings.provider == "openai" and (
        settings.base_url or os.environ.get("OPENAI_BASE_URL")
    ):
        # An OpenAI-compatible server at a custom URL often needs no key; the SDK still wants a string.
        return None
    raise MissingCredentialsError(
        f"provider '{settings.provider}' needs an API key and {env_name} is not set",
        fix=f"export {env_name}=... (keys are read from the environment only)",
    )


def create_provider(settings: ProviderSettings) -> Provider:
    """Build a provider; SDKs are imported here, not at CLI start."""
    check_provider_name(settings.provider)
    if settings.provider == "baseline":
        module = importlib.import_module("gaia_eval.providers.baseline")
        return module.BaselineProvider(settings.model)
    key = api_key_for(settings)  # before the SDK import (about a second of CPU): a missing key fails at once
    if settings.provider == "anthropic":
        module = importlib.import_module("gaia_eval.providers.anthropic_api")
        return module.AnthropicProvider(settings, key)
    module = importlib.import_module("gaia_eval.providers.openai_api")
    return module.OpenAIProvider(settings, key)


def is_local(provider: str) -> bool:
    return provider == "baseline" or provider in LOCAL_PRESETS
