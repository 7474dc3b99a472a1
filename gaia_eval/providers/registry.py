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


# Where each SDK sends requests when neither the config nor its environment variable names a server.
SDK_DEFAULT_BASE_URLS = {"openai": "https://api.openai.com/v1", "anthropic": "https://api.anthropic.com"}
BASE_URL_ENV = {"openai": "OPENAI_BASE_URL", "anthropic": "ANTHROPIC_BASE_URL"}


def chosen_base_url(settings: ProviderSettings) -> str | None:
    """The server the user chose: the config's base_url, else (cloud providers) the SDK's environment variable,
    else None. Local presets ignore the variable: their URL is part of the preset."""
    if settings.base_url:
        return settings.base_url
    env_name = BASE_URL_ENV.get(settings.provider)
    return (os.environ.get(env_name) or None) if env_name else None


def effective_base_url(settings: ProviderSettings) -> str | None:
    """The base URL requests are sent to, wherever it came from (config, environment, preset or SDK default);
    None for the offline baselines, which call nothing. The providers pass exactly this to their SDK."""
    if settings.provider == "baseline":
        return None
    return chosen_base_url(settings) or LOCAL_PRESETS.get(settings.provider) or SDK_DEFAULT_BASE_URLS.get(
        settings.provider, SDK_DEFAULT_BASE_URLS["openai"])


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
    if settings.api_key_env is None and settings.provider == "openai" and chosen_base_url(settings):
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
