"""THE registries: which providers, use cases, scorers, answer-matching modes and bench runners exist, by name,
and where their code is.

Every built-in name maps to a `"module:attr"` string (a provider to a `ProviderEntry`, which names its code the
same way), so listing or checking names imports nothing heavy; the code behind a name is imported when it is
used (`load`, which also takes `path/to/file.py:attr`). Every registry is open: a package adds names through
its entry-point group (`gaia_eval.providers`, `gaia_eval.usecases`, `gaia_eval.scorers`, `gaia_eval.match_modes`,
`gaia_eval.bench_runners`), read only when a name is not built in or when every name is listed.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gaia_eval.errors import ConfigError


def load(target: str, *, what: str = "entry", field: str | None = None) -> Any:
    """The object `"module:attr"` or `"path/to/file.py:attr"` names, imported now; a bad target is a ConfigError
    naming it."""
    module_name, sep, attr = target.rpartition(":")
    if not sep or not module_name or not attr:
        raise ConfigError(
            f"bad {what} '{target}'", field=field, fix="write module:function or path/to/file.py:function"
        )
    try:
        if module_name.endswith(".py"):
            path = Path(module_name)
            if not path.is_file():
                raise ConfigError(f"{what} file not found: {path}", field=field, fix="give an existing .py file")
            spec = importlib.util.spec_from_file_location(f"gaia_eval_user_{path.stem}", path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
        else:
            module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ConfigError(
            f"cannot import {what} '{target}': {exc}", field=field, fix="check the module name and that it is installed"
        ) from None
    except (Exception, SystemExit) as exc:  # the module fails while imported (a syntax error, a name it lacks)
        reason = " ".join(f"{type(exc).__name__}: {exc}".split())[:300]
        raise ConfigError(f"cannot load {what} '{target}': {reason}", field=field,
                          fix=f"fix that error in {module_name}") from None
    try:
        return getattr(module, attr)
    except AttributeError:
        raise ConfigError(
            f"{what} '{target}': {module_name} has no '{attr}'", field=field, fix="check the name after ':'"
        ) from None


class Registry:
    """Built-in names plus those third-party packages declare under an entry-point group, loaded on first need."""

    def __init__(self, group: str, builtin: dict[str, Any]) -> None:
        self.group = group
        self.builtin = builtin
        self._plugins: dict[str, str] | None = None
        self._loaded: dict[str, Any] = {}

    def plugins(self) -> dict[str, str]:
        if self._plugins is None:
            from importlib.metadata import entry_points

            self._plugins = {ep.name: ep.value for ep in entry_points(group=self.group) if ep.name not in self.builtin}
        return self._plugins

    def names(self) -> tuple[str, ...]:
        return (*self.builtin, *sorted(self.plugins()))

    def __contains__(self, name: str) -> bool:
        return name in self.builtin or name in self.plugins()

    def target(self, name: str) -> str | None:
        """The `"module:attr"` a name points at, when it is one (None for a built-in value such as a ProviderEntry)."""
        value = self.builtin.get(name, self.plugins().get(name))
        return value if isinstance(value, str) else None

    def entry(self, name: str) -> Any:
        """The built-in entry, or the loaded object a `"module:attr"` value or plugin entry point names; KeyError
        when unknown."""
        if name in self._loaded:
            return self._loaded[name]
        value = self.builtin[name] if name in self.builtin else self.plugins()[name]
        # an error names the entry point as a package declares it: `gaia_eval.providers entry point acme = 'm:attr'`
        what = self.group if name in self.builtin else f"{self.group} entry point {name} ="
        loaded = load(value, what=what) if isinstance(value, str) else value
        self._loaded[name] = loaded
        return loaded

    def refresh(self) -> None:
        """Read the entry points again (a package installed while the process runs; tests)."""
        self._plugins = None
        self._loaded = {}


def check_name(registry: Registry, name: str, *, what: str, file: str | None = None, field: str | None = None,
               error: Callable[..., Exception] = ConfigError) -> None:
    if name not in registry:
        raise error(
            f"unknown {what} '{name}'", file=file, field=field, fix=f"use one of: {', '.join(registry.names())}"
        )


# ---- providers ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelPrice:
    """One model's list price, in USD per million tokens, and where the figure came from (ProviderEntry.prices).
    Dated snapshots of the id (`model-20250514`) get the same price; `aliases` are other names of the model."""

    model: str
    input_per_mtok: float  # uncached prompt tokens
    output_per_mtok: float  # completion tokens, reasoning included
    source: str  # where the figure is published
    date: str  # when it was in effect, as recorded
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class BatchPrice:
    """What a provider's batch API charges, as a share of the list price (0.5: half), with its source and date."""

    share_of_list_price: float
    source: str
    date: str


@dataclass(frozen=True)
class ProviderEntry:
    """What the registry knows about a provider. `factory(settings, api_key)` builds it; `batch(provider)` builds
    its batch adapter (None: the provider has no batch API)."""

    factory: str  # "module:attr" of a callable (ProviderSettings, api_key | None) -> Provider
    key_env: str | None = None  # environment variable holding its API key (None: no key)
    base_url: str | None = None  # default endpoint: a local server's preset, a cloud SDK's own default
    base_url_env: str | None = None  # environment variable the SDK reads for another endpoint (cloud providers)
    local: bool = False  # local servers and baselines cost $0
    follows_prompts: bool = True  # False for the offline baselines: they cannot generate, build ground truth or judge
    batch: str | None = None  # "module:attr" of a callable (provider) -> BatchAPI
    key_optional_with_base_url: bool = False  # a compatible server at a custom URL often needs no key
    # Prices: its models' list prices (ModelPrice) and what its batch API charges (BatchPrice), so a new provider
    # needs no other file; the built-in anthropic and openai keep theirs in data/pricing.json.
    prices: tuple[ModelPrice, ...] = ()
    batch_price: BatchPrice | None = None


_OPENAI = "gaia_eval.providers.openai_api:OpenAIProvider"
_OPENAI_BATCH = "gaia_eval.providers.batch.openai_batch:OpenAIBatchAPI"

# Built-in providers. The values are entries, not imports: nothing here loads an SDK.
BUILTIN_PROVIDERS: dict[str, ProviderEntry] = {
    "baseline": ProviderEntry("gaia_eval.baselines.provider:create", local=True, follows_prompts=False),
    "anthropic": ProviderEntry("gaia_eval.providers.anthropic_api:AnthropicProvider", key_env="ANTHROPIC_API_KEY",
                               base_url="https://api.anthropic.com", base_url_env="ANTHROPIC_BASE_URL",
                               batch="gaia_eval.providers.batch.anthropic_batch:AnthropicBatchAPI"),
    "openai": ProviderEntry(_OPENAI, key_env="OPENAI_API_KEY", base_url="https://api.openai.com/v1",
                            base_url_env="OPENAI_BASE_URL", batch=_OPENAI_BATCH, key_optional_with_base_url=True),
    # OpenAI-compatible local servers: no key needed, $0 cost, base URL overridable in the config.
    "lemonade": ProviderEntry(_OPENAI, base_url="http://localhost:8000/api/v1", local=True, batch=_OPENAI_BATCH),
    "ollama": ProviderEntry(_OPENAI, base_url="http://localhost:11434/v1", local=True, batch=_OPENAI_BATCH),
    "vllm": ProviderEntry(_OPENAI, base_url="http://localhost:8000/v1", local=True, batch=_OPENAI_BATCH),
    "lmstudio": ProviderEntry(_OPENAI, base_url="http://localhost:1234/v1", local=True, batch=_OPENAI_BATCH),
    "llamacpp": ProviderEntry(_OPENAI, base_url="http://localhost:8080/v1", local=True, batch=_OPENAI_BATCH),
}
PROVIDERS = Registry("gaia_eval.providers", BUILTIN_PROVIDERS)


def provider_entry(name: str) -> ProviderEntry:
    check_name(PROVIDERS, name, what="provider")
    entry = PROVIDERS.entry(name)
    if not isinstance(entry, ProviderEntry):
        raise ConfigError(f"provider '{name}' ({PROVIDERS.plugins().get(name)}) is not a ProviderEntry",
                          fix="point the gaia_eval.providers entry point at a gaia_eval.registry.ProviderEntry")
    return entry


def provider_names(*, follows_prompts: bool | None = None) -> tuple[str, ...]:
    """Every provider name (built in first), or those that do (or do not) follow prompts."""
    names = PROVIDERS.names()
    if follows_prompts is None:
        return names
    return tuple(n for n in names if _follows_prompts(n) in (follows_prompts, None))


def _follows_prompts(name: str) -> bool | None:
    """Whether a provider follows prompts; None when its entry cannot be loaded (a broken package): it stays listed,
    so naming it reports why it cannot load, and naming any other provider still works."""
    try:
        return provider_entry(name).follows_prompts
    except ConfigError:
        return None


# ---- use cases, scorers, answer-matching modes, bench runners ----------------------------------------------------

# Built-in use cases: one module each, holding a `USE_CASE` (gaia_eval.usecases.UseCase).
BUILTIN_USE_CASES: dict[str, str] = {
    "summarization": "gaia_eval.usecases.summarization:USE_CASE",
    "email": "gaia_eval.usecases.email:USE_CASE",
    "qa": "gaia_eval.usecases.qa:USE_CASE",
}
USE_CASES = Registry("gaia_eval.usecases", dict(BUILTIN_USE_CASES))  # its own table: BUILTIN_* is what ships

# Built-in scorers (gaia_eval.scoring.scorers.Scorer): which a use case uses in each mode is the use case's say.
BUILTIN_SCORERS: dict[str, str] = {
    "summaries": "gaia_eval.scoring.scorers:SUMMARIES",
    "summaries_standalone": "gaia_eval.scoring.scorers:SUMMARIES_STANDALONE",
    "free_text": "gaia_eval.scoring.scorers:FREE_TEXT",
    "qa": "gaia_eval.scoring.scorers:QA",
    "long_form_qa": "gaia_eval.scoring.scorers:LONG_FORM_QA",
}
SCORERS = Registry("gaia_eval.scorers", BUILTIN_SCORERS)


# Answer-matching modes (`check-answer --mode`, a `--jsonl` line's "mode", a bench task's kind): each name points at
# a `gaia_eval.scoring.answers.MatchMode` (its matching function and the options it takes) or at a bare matching
# function `(expected, answer, options) -> Verdict`; packages add more under `gaia_eval.match_modes`.
_ANSWERS = "gaia_eval.scoring.answers"
BUILTIN_MATCH_MODES: dict[str, str] = {
    "gaia": f"{_ANSWERS}.gaia:GAIA_MODE",
    "gaia-official": f"{_ANSWERS}.official:GAIA_OFFICIAL_MODE",
    "lenient": f"{_ANSWERS}.modes:LENIENT_MODE",
    "exact": f"{_ANSWERS}.modes:EXACT_MODE",
    "f1": f"{_ANSWERS}.modes:F1_MODE",
    "numeric": f"{_ANSWERS}.modes:NUMERIC_MODE",
    "contains": f"{_ANSWERS}.modes:CONTAINS_MODE",
    "regex": f"{_ANSWERS}.modes:REGEX_MODE",
    "fuzzy": f"{_ANSWERS}.modes:FUZZY_MODE",
    "semantic": f"{_ANSWERS}.semantic:SEMANTIC_MODE",
    "judge": f"{_ANSWERS}.modes:JUDGE_MODE",  # asks a model: check-answer --mode judge --judge PROVIDER:MODEL
}
MATCH_MODES = Registry("gaia_eval.match_modes", BUILTIN_MATCH_MODES)

# Bench runners by name (`bench --runner calculator`, or `builtin:calculator`): each a function prompt -> EvalRun,
# str or dict (gaia_eval.bench.runs); packages add more under `gaia_eval.bench_runners`.
BUILTIN_BENCH_RUNNERS: dict[str, str] = {
    "calculator": "gaia_eval.bench.arithmetic_solver:solve_arithmetic",
}
BENCH_RUNNERS = Registry("gaia_eval.bench_runners", BUILTIN_BENCH_RUNNERS)

__all__ = [
    "BENCH_RUNNERS", "BUILTIN_PROVIDERS", "BUILTIN_USE_CASES", "MATCH_MODES", "PROVIDERS", "SCORERS", "USE_CASES",
    "BatchPrice", "ModelPrice", "ProviderEntry", "Registry", "check_name", "load", "provider_entry", "provider_names",
]
