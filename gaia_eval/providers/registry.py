"""Building a provider from its entry in gaia_eval.registry (the module imported only when used, for a fast CLI
start): settings, the base URL, API keys from the environment, and which providers are local."""

from __future__ import annotations

import os
from dataclasses import dataclass

from gaia_eval.artifacts.experiment import url_problem
from gaia_eval.errors import ConfigError, GaiaEvalError, MissingCredentialsError, PluginError
from gaia_eval.providers.base import Provider
from gaia_eval.registry import PROVIDERS, check_name, load, one_line_reason, provider_entry


@dataclass(frozen=True)
class ProviderSettings:
    provider: str
    model: str
    base_url: str | None = None
    api_key_env: str | None = None
    timeout_s: float | None = None


def chosen_base_url(settings: ProviderSettings) -> str | None:
    """The server the user chose: the config's base_url, else (cloud providers) the SDK's environment variable,
    else None. Local presets ignore the variable: their URL is part of the preset."""
    if settings.base_url:
        return _checked_url(settings.base_url, "base_url")
    env_name = provider_entry(settings.provider).base_url_env
    value = (os.environ.get(env_name) or None) if env_name else None
    return _checked_url(value, env_name or "") if value else None


def _checked_url(url: str, where: str) -> str:
    """An http(s) URL with a host, or a ConfigError naming where it came from (`http://[::1` made the SDK raise
    ValueError deep inside the provider)."""
    problem = url_problem(url)
    if problem:
        raise ConfigError(f"{url!r} is not a server URL ({problem})", field=where,
                          fix="write it as e.g. http://127.0.0.1:8080/v1 (IPv6: http://[::1]:8080/v1)")
    return url


def effective_base_url(settings: ProviderSettings) -> str | None:
    """The base URL requests are sent to, wherever it came from (config, environment, preset or SDK default);
    None for the offline baselines, which call nothing. The providers pass exactly this to their SDK."""
    entry = provider_entry(settings.provider)
    if not entry.follows_prompts:
        return None
    return chosen_base_url(settings) or entry.base_url


def check_provider_name(name: str, *, file: str | None = None, field: str | None = None) -> None:
    check_name(PROVIDERS, name, what="provider", file=file, field=field)


def api_key_for(settings: ProviderSettings) -> str | None:
    """The key from the environment (never from a file). Raises before any work when a cloud key is missing."""
    entry = provider_entry(settings.provider)
    env_name = settings.api_key_env or entry.key_env
    if env_name is None:
        return None
    key = os.environ.get(env_name)
    if key:
        return _checked_key(key, env_name)
    if settings.api_key_env is None and entry.key_optional_with_base_url and chosen_base_url(settings):
        # An OpenAI-compatible server at a custom URL often needs no key; the SDK still wants a string.
        return None
    raise MissingCredentialsError(
        f"provider '{settings.provider}' needs an API key and {env_name} is not set",
        fix=f"export {env_name}=... (keys are read from the environment only)",
    )


def _checked_key(key: str, env_name: str) -> str:
    """A key goes into an HTTP header: printable ASCII only. A trailing CR/LF (a key pasted from a Windows file) or
    a non-ASCII character (a typographic quote) is named by position, never echoed: the key is a secret."""
    for position, char in enumerate(key, 1):
        if not (" " < char < "\x7f"):
            what = {"\r": "a carriage return", "\n": "a line break", " ": "a space", "\t": "a tab"}.get(
                char, "a control character" if ord(char) < 0x80 else "a non-ASCII character")
            raise ConfigError(
                f"{env_name} is malformed: it holds {what} at position {position} of {len(key)}", field=env_name,
                fix=f"set {env_name} to the key alone, e.g. export {env_name}=\"$(tr -d '[:space:]' < keyfile)\"",
            )
    return key


def create_provider(settings: ProviderSettings) -> Provider:
    """Build a provider from its registry entry; its module (and SDK) is imported here, not at CLI start."""
    check_provider_name(settings.provider)
    entry = provider_entry(settings.provider)
    key = api_key_for(settings)  # before the SDK import (about a second of CPU): a missing key fails at once
    factory = load(entry.factory, what="provider")
    try:
        return factory(settings, key)
    except GaiaEvalError:
        raise
    except (Exception, SystemExit) as exc:  # a package's factory: one line naming it, never a traceback
        raise PluginError(f"provider '{settings.provider}' ({entry.factory}) failed to start: {one_line_reason(exc)}",
                          field="provider", fix=f"fix that error in {entry.factory.rpartition(':')[0]}") from None


def is_local(provider: str) -> bool:
    return provider in PROVIDERS and provider_entry(provider).local
