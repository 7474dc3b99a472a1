"""The shipped price table: exact ids, dated snapshots and aliases, unknown models and local providers."""

from __future__ import annotations

import pytest

from gaia_eval.artifacts.base import Usage
from gaia_eval.providers.pricing import cost_of, lookup_price


def test_price_by_exact_id() -> None:
    quote = lookup_price("anthropic", "claude-sonnet-4-5")
    assert quote.status == "priced" and quote.entry.id == "claude-sonnet-4-5"
    assert cost_of(Usage(input_tokens=1_000_000, output_tokens=100_000), quote) == pytest.approx((4.5, 3.0, 1.5))
    assert "claude-sonnet-4-5" in quote.describe() and quote.entry.source and quote.entry.date


@pytest.mark.parametrize(
    ("provider", "model", "entry"),
    [
        ("anthropic", "claude-sonnet-4-20250514", "claude-sonnet-4"),
        ("anthropic", "claude-sonnet-4-5-20250929", "claude-sonnet-4-5"),
        ("anthropic", "claude-3-5-haiku-latest", "claude-3-5-haiku"),
        ("anthropic", "claude-sonnet-4-0", "claude-sonnet-4"),
        ("openai", "gpt-4o-2024-08-06", "gpt-4o"),
        ("openai", "gpt-4o-mini-2024-07-18", "gpt-4o-mini"),
        ("openai", "gpt-4.1-nano-2025-04-14", "gpt-4.1-nano"),
        ("openai", "o3-mini-2025-01-31", "o3-mini"),
        ("openai", "gpt-4o-2024-05-13", "gpt-4o-2024-05-13"),  # an exact snapshot beats its family
    ],
)
def test_dated_and_aliased_ids_get_their_own_family_price(provider, model, entry) -> None:
    quote = lookup_price(provider, model)
    assert quote.status == "priced" and quote.entry.id == entry


@pytest.mark.parametrize(
    ("provider", "model"),
    [
        ("anthropic", "claude-sonnet-4-6"),  # a newer sibling must not inherit claude-sonnet-4's price
        ("openai", "gpt-4o-audio-preview"),  # a variant must not inherit gpt-4o's price
        ("openai", "gpt-5.1"),
        ("openai", "my-finetune"),
        ("anthropic", "gpt-4o"),  # right model, wrong provider
    ],
)
def test_unknown_models_are_unpriced_never_zero_or_borrowed(provider, model) -> None:
    quote = lookup_price(provider, model)
    assert quote.status == "unpriced" and quote.entry is None
    assert cost_of(Usage(input_tokens=10, output_tokens=10), quote) == (None, None, None)
    assert "unpriced" in quote.describe()


@pytest.mark.parametrize("provider", ["baseline", "ollama", "lemonade", "vllm", "lmstudio", "llamacpp"])
def test_local_providers_cost_nothing(provider) -> None:
    quote = lookup_price(provider, "gpt-4o")  # even a cloud model's name is free when served locally
    assert quote.status == "local"
    assert cost_of(Usage(input_tokens=5000, output_tokens=5000), quote) == (0.0, 0.0, 0.0)
    assert quote.describe().startswith("local")
