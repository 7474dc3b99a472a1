"""A third-party provider, as another package would ship it: `acme`, a gateway speaking the OpenAI protocol at
$ACME_BASE_URL. It touches nothing in gaia_eval/: its entry point (group `gaia_eval.providers`, declared in the
dist-info beside this file) names the ProviderEntry below."""

from __future__ import annotations

from gaia_eval.registry import ProviderEntry

ENTRY = ProviderEntry("acme_gaia_provider:create", base_url_env="ACME_BASE_URL", local=True)


def create(settings, api_key):
    from gaia_eval.providers.openai_api import OpenAIProvider

    return OpenAIProvider(settings, api_key)
