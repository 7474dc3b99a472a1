"""The `baseline` provider's registration: the `ProviderEntry` gaia-eval's own entry point names (pyproject.toml,
group `gaia_eval.providers`), kept apart from provider.py so that listing providers imports no baseline code."""

from __future__ import annotations

from gaia_eval.registry import ProviderEntry

BASELINE = ProviderEntry("gaia_eval.baselines.provider:create", local=True, follows_prompts=False)
