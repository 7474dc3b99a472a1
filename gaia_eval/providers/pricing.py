"""Model prices: look a (provider, model) up in the prices its registry entry declares (ProviderEntry.prices,
batch_price) or, for the built-in cloud providers, the shipped table gaia_eval/data/pricing.json, and turn token
usage into dollars.

A model is matched by its exact id or a listed alias, else by the longest listed id of which it is a dated
snapshot (`claude-sonnet-4-20250514` -> `claude-sonnet-4`, `gpt-4o-2024-08-06` -> `gpt-4o`). The rest of
the id must be a version stamp, so `gpt-4o-mini` never gets `gpt-4o`'s price and `claude-sonnet-4-6` never
gets `claude-sonnet-4`'s. Local servers and baselines cost $0; an unknown model is "unpriced", never $0.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Literal

from gaia_eval.artifacts.base import Usage
from gaia_eval.errors import ConfigError
from gaia_eval.providers import is_local
from gaia_eval.registry import PROVIDERS, ModelPrice, provider_entry

PRICING_FILE = "gaia_eval/data/pricing.json"
TOKENS_PER_UNIT = 1_000_000

# What may follow a listed id in a snapshot id: dates (-20250514, -2024-08-06, -0613, @20250514) and -latest.
_VERSION_STAMP = re.compile(r"(?:-\d{8}|-\d{4}-\d{2}-\d{2}|-\d{4}|@\d{8}|-latest)+")

PriceStatus = Literal["priced", "local", "unpriced"]


@dataclass(frozen=True)
class PriceEntry:
    id: str
    provider: str
    input_per_mtok: float
    output_per_mtok: float
    source: str
    date: str


@dataclass(frozen=True)
class PriceQuote:
    """The price used for one (provider, model): `entry` is None unless status is "priced"."""

    status: PriceStatus
    provider: str
    model: str
    entry: PriceEntry | None = None

    def describe(self) -> str:
        """One line for artifacts and reports: what was charged, and where the figure came from."""
        if self.status == "local":
            return f"local: {self.provider} runs on your hardware, $0"
        if self.entry is None:
            return f"unpriced: no price on file for {self.provider} model '{self.model}'"
        e = self.entry
        return (
            f"{e.id}: ${e.input_per_mtok:g} input / ${e.output_per_mtok:g} output per 1M tokens "
            f"({e.source}; as of {e.date})"
        )


def _entry(raw: dict[str, Any], index: int) -> PriceEntry:
    try:
        entry = PriceEntry(
            id=str(raw["id"]),
            provider=str(raw["provider"]),
            input_per_mtok=float(raw["input"]),
            output_per_mtok=float(raw["output"]),
            source=str(raw["source"]),
            date=str(raw["date"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigError(f"bad price entry: {exc}", file=PRICING_FILE, field=f"models[{index}]") from None
    if entry.input_per_mtok < 0 or entry.output_per_mtok < 0 or not entry.source or not entry.date:
        raise ConfigError(
            "price entry needs non-negative prices, a source and a date", file=PRICING_FILE, field=f"models[{index}]"
        )
    return entry


@lru_cache(maxsize=1)
def price_table() -> dict[tuple[str, str], PriceEntry]:
    """(provider, lower-case id or alias) -> entry, read once from the packaged JSON."""
    text = resources.files("gaia_eval").joinpath("data/pricing.json").read_text(encoding="utf-8")
    table: dict[tuple[str, str], PriceEntry] = {}
    for index, raw in enumerate(json.loads(text)["models"]):
        entry = _entry(raw, index)
        for name in (entry.id, *raw.get("aliases", [])):
            key = (entry.provider, name.lower())
            if key in table:
                raise ConfigError(f"'{name}' is listed twice", file=PRICING_FILE, field=f"models[{index}]")
            table[key] = entry
    return table


@lru_cache(maxsize=64)
def _declared_table(provider: str, prices: tuple[ModelPrice, ...]) -> dict[str, PriceEntry]:
    """lower-case id or alias -> entry, from the prices a provider's registry entry declares."""
    where = f"the ProviderEntry of provider '{provider}'"
    shipped = price_table()
    table: dict[str, PriceEntry] = {}
    for index, price in enumerate(prices):
        field = f"prices[{index}]"
        try:
            entry = PriceEntry(id=str(price.model), provider=provider, input_per_mtok=float(price.input_per_mtok),
                               output_per_mtok=float(price.output_per_mtok), source=str(price.source),
                               date=str(price.date))
        except (AttributeError, TypeError, ValueError) as exc:
            raise ConfigError(f"bad price in {where}: {exc}", field=field,
                              fix="give a gaia_eval.registry.ModelPrice(model, input, output, source, date)") from None
        if entry.input_per_mtok < 0 or entry.output_per_mtok < 0 or not entry.source or not entry.date:
            raise ConfigError(f"a price in {where} needs non-negative prices, a source and a date", field=field,
                              fix="give the list prices per 1M tokens with where and when they were published")
        for name in (entry.id, *price.aliases):
            key = name.lower()
            if key in table or (provider, key) in shipped:
                raise ConfigError(f"'{name}' is priced twice ({where}, {PRICING_FILE})", field=field,
                                  fix="keep one price per model id")
            table[key] = entry
    return table


def _prices_of(provider: str) -> dict[str, PriceEntry]:
    """The provider's prices: those its registry entry declares, then the shipped table's."""
    table = {name: entry for (of, name), entry in price_table().items() if of == provider}
    if provider in PROVIDERS:
        table.update(_declared_table(provider, provider_entry(provider).prices))
    return table


def lookup_price(provider: str, model: str) -> PriceQuote:
    if is_local(provider):
        return PriceQuote("local", provider, model)
    table = _prices_of(provider)
    wanted = model.strip().lower()
    exact = table.get(wanted)
    if exact is not None:
        return PriceQuote("priced", provider, model, exact)
    best: tuple[int, PriceEntry] | None = None
    for name, entry in table.items():
        if not wanted.startswith(name):
            continue
        if _VERSION_STAMP.fullmatch(wanted[len(name) :]) and (best is None or len(name) > best[0]):
            best = (len(name), entry)
    if best is None:
        return PriceQuote("unpriced", provider, model)
    return PriceQuote("priced", provider, model, best[1])


@lru_cache(maxsize=1)
def _batch_terms() -> dict[str, tuple[float, str, str]]:
    """provider -> (share of the list price, source, date) for calls made through the provider's batch API."""
    text = resources.files("gaia_eval").joinpath("data/pricing.json").read_text(encoding="utf-8")
    terms: dict[str, tuple[float, str, str]] = {}
    for provider, raw in (json.loads(text).get("batch") or {}).items():
        try:
            terms[provider] = (float(raw["share_of_list_price"]), str(raw["source"]), str(raw["date"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(f"bad batch price: {exc}", file=PRICING_FILE, field=f"batch.{provider}") from None
    return terms


def _batch_terms_of(provider: str) -> tuple[float, str, str] | None:
    declared = provider_entry(provider).batch_price if provider in PROVIDERS else None
    if declared is not None:
        return float(declared.share_of_list_price), declared.source, declared.date
    return _batch_terms().get(provider)


def batch_quote(quote: PriceQuote) -> PriceQuote:
    """The price of the same model through its provider's batch API: the list price times the documented share
    (50 % for both OpenAI and Anthropic; a provider's registry entry may declare its own), with both sources in
    the description. Unpriced and local stay so."""
    terms = _batch_terms_of(quote.provider)
    if quote.entry is None or terms is None:
        return quote
    share, source, date = terms
    e = quote.entry
    entry = PriceEntry(f"{e.id} (batch)", e.provider, e.input_per_mtok * share, e.output_per_mtok * share,
                       f"{e.source}; batch: {source}", f"{e.date}; batch as of {date}")
    return PriceQuote(quote.status, quote.provider, quote.model, entry)


def quote_from_config(provider: str, model: str, input_per_mtok: float, output_per_mtok: float) -> PriceQuote:
    """A price the user set in the experiment config (for a model the table lacks, or a negotiated rate)."""
    entry = PriceEntry(model, provider, input_per_mtok, output_per_mtok, "set in the experiment config", "run time")
    return PriceQuote("priced", provider, model, entry)


def cost_of(usage: Usage, quote: PriceQuote) -> tuple[float | None, float | None, float | None]:
    """(total, input, output) in USD; all None when the model is unpriced."""
    if quote.status == "local":
        return 0.0, 0.0, 0.0
    if quote.entry is None:
        return None, None, None
    input_cost = usage.input_tokens * quote.entry.input_per_mtok / TOKENS_PER_UNIT
    output_cost = usage.output_tokens * quote.entry.output_per_mtok / TOKENS_PER_UNIT
    return input_cost + output_cost, input_cost, output_cost
