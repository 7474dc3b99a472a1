"""The providers gaia-eval ships, as the `ProviderEntry` values its own entry points name (pyproject.toml, group
`gaia_eval.providers`): the same route a package's provider takes. Values, not imports: nothing here loads an SDK.
The built-in anthropic and openai keep their prices in data/pricing.json."""

from __future__ import annotations

from gaia_eval.registry import ProviderEntry

_OPENAI = "gaia_eval.providers.openai_api:OpenAIProvider"
_OPENAI_BATCH = "gaia_eval.providers.batch.openai_batch:OpenAIBatchAPI"

ANTHROPIC = ProviderEntry("gaia_eval.providers.anthropic_api:AnthropicProvider", key_env="ANTHROPIC_API_KEY",
                          base_url="https://api.anthropic.com", base_url_env="ANTHROPIC_BASE_URL",
                          batch="gaia_eval.providers.batch.anthropic_batch:AnthropicBatchAPI")
OPENAI = ProviderEntry(_OPENAI, key_env="OPENAI_API_KEY", base_url="https://api.openai.com/v1",
                       base_url_env="OPENAI_BASE_URL", batch=_OPENAI_BATCH, key_optional_with_base_url=True)
# OpenAI-compatible local servers: no key needed, $0 cost, base URL overridable in the config.
LEMONADE = ProviderEntry(_OPENAI, base_url="http://localhost:8000/api/v1", local=True, batch=_OPENAI_BATCH)
OLLAMA = ProviderEntry(_OPENAI, base_url="http://localhost:11434/v1", local=True, batch=_OPENAI_BATCH)
VLLM = ProviderEntry(_OPENAI, base_url="http://localhost:8000/v1", local=True, batch=_OPENAI_BATCH)
LMSTUDIO = ProviderEntry(_OPENAI, base_url="http://localhost:1234/v1", local=True, batch=_OPENAI_BATCH)
LLAMACPP = ProviderEntry(_OPENAI, base_url="http://localhost:8080/v1", local=True, batch=_OPENAI_BATCH)
# The fake model for users' own tests and examples: echo or scripted replies, no key, no server (fake_api.py).
FAKE = ProviderEntry("gaia_eval.providers.fake_api:create", local=True)
