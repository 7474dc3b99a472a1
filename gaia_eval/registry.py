"""THE registries: which providers, use cases, scorers, answer-matching modes and bench runners exist, by name,
and where their code is.

Every name comes from an entry point: gaia-eval declares its own in its pyproject.toml under the groups
`gaia_eval.providers`, `gaia_eval.usecases`, `gaia_eval.scorers`, `gaia_eval.match_modes` and
`gaia_eval.bench_runners`, exactly as another package declares its own, so nothing here names a module of a layer
above it. Each value is a `"module:attr"` string, imported when the name is used (`load`, which also takes
`path/to/file.py:attr`), so listing or checking names imports nothing heavy. gaia-eval's own entry points are read
from its installed metadata (one small file, once per process); other packages' only when a name is not
gaia-eval's or when every name is listed (one scan per registry and process).
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gaia_eval.errors import ConfigError, PluginError


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
    except ConfigError:
        raise
    except ImportError as exc:
        raise PluginError(
            f"cannot import {what} '{target}': {exc}", field=field, fix="check the module name and that it is installed"
        ) from None
    # The module fails while imported (a syntax error, a name it lacks, a sys.exit()): SystemExit too, or a plugin
    # would end the whole CLI silently.
    except (Exception, SystemExit) as exc:
        raise PluginError(f"cannot load {what} '{target}': {one_line_reason(exc)}", field=field,
                          fix=f"fix that error in {module_name}") from None
    try:
        return getattr(module, attr)
    except AttributeError:
        raise ConfigError(
            f"{what} '{target}': {module_name} has no '{attr}'", field=field, fix="check the name after ':'"
        ) from None


def one_line_reason(exc: BaseException, limit: int = 300) -> str:
    """`Type: message` of an exception a package's code raised, on one line, at most `limit` characters."""
    line = " ".join(f"{type(exc).__name__}: {exc}".split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


DISTRIBUTION = "gaia_eval"  # the name of gaia-eval's metadata folder: gaia_eval-<version>.dist-info
GROUPS = ("gaia_eval.providers", "gaia_eval.usecases", "gaia_eval.scorers", "gaia_eval.match_modes",
          "gaia_eval.bench_runners")


@functools.cache
def shipped_entry_points() -> dict[str, dict[str, str]]:
    """gaia-eval's own entry points, by group: read from its installed metadata's entry_points.txt (found on
    sys.path without importing importlib.metadata, which costs more than the rest of a lookup); a checkout whose
    metadata predates these groups (installed before they were added, not reinstalled) reads its pyproject.toml."""
    for folder in sys.path:
        try:
            names = os.listdir(folder or ".")
        except OSError:
            continue
        for name in names:
            if name.startswith(f"{DISTRIBUTION}-") and name.endswith(".dist-info"):
                found = _parse_entry_points(Path(folder or ".") / name / "entry_points.txt")
                if any(found.get(g) for g in GROUPS):
                    return found
    return _pyproject_entry_points(Path(__file__).resolve().parent.parent / "pyproject.toml")


def _parse_entry_points(path: Path) -> dict[str, dict[str, str]]:
    """An entry_points.txt (`[group]` lines, then `name = module:attr` lines)."""
    groups: dict[str, dict[str, str]] = {}
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return groups
    current: dict[str, str] | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("[") and line.endswith("]"):
            current = groups.setdefault(line[1:-1].strip(), {})
        elif current is not None and "=" in line and not line.startswith(("#", ";")):
            name, _, value = line.partition("=")
            current[name.strip()] = value.strip()
    return groups


def _pyproject_entry_points(path: Path) -> dict[str, dict[str, str]]:
    try:
        tomllib = importlib.import_module("tomllib")
    except ImportError:  # Python 3.10: the installed metadata is the only source
        return {}
    try:
        declared = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    found = declared.get("project", {}).get("entry-points", {})
    return {group: dict(found[group]) for group in GROUPS if isinstance(found.get(group), dict)}


class Registry:
    """gaia-eval's own names (its entry points) plus those other packages declare under the same entry-point group,
    loaded on first need. `order`: how gaia-eval's own names are listed (entry-point metadata is sorted by name);
    any it leaves out follow, by name."""

    def __init__(self, group: str, order: tuple[str, ...] = ()) -> None:
        self.group = group
        self.order = order
        self._builtin: dict[str, Any] | None = None
        self._plugins: dict[str, str] | None = None
        self._loaded: dict[str, Any] = {}

    @property
    def builtin(self) -> dict[str, Any]:
        """gaia-eval's own names, each a `"module:attr"` (tests may add values: a UseCase, a ProviderEntry)."""
        if self._builtin is None:
            shipped = shipped_entry_points().get(self.group, {})
            rank = {name: i for i, name in enumerate(self.order)}
            self._builtin = {n: shipped[n] for n in sorted(shipped, key=lambda n: (rank.get(n, len(rank)), n))}
        return self._builtin

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
        """The `"module:attr"` a name points at, when it is one (None for a value a test registered)."""
        value = self.builtin.get(name, self.plugins().get(name))
        return value if isinstance(value, str) else None

    def entry(self, name: str) -> Any:
        """The loaded object a name's `"module:attr"` names (or the value registered); KeyError when unknown."""
        if name in self._loaded:
            return self._loaded[name]
        value = self.builtin[name] if name in self.builtin else self.plugins()[name]
        # an error names the entry point as a package declares it: `gaia_eval.providers entry point acme = 'm:attr'`
        loaded = load(value, what=f"{self.group} entry point {name} =") if isinstance(value, str) else value
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
    """What the registry knows about a provider: a package registers one under the entry-point group
    `gaia_eval.providers` (gaia-eval's own are in gaia_eval/providers/entries.py).

    `factory` names `(settings: ProviderSettings, api_key: str | None) -> Provider` (gaia_eval.providers.base);
    one that raises is one line naming it (a batch's other experiments still run). `batch` names
    `(provider) -> BatchAPI` (None: no batch API). The other fields are described beside them.

    Example:
        >>> ProviderEntry("my_pkg.provider:create", key_env="MY_API_KEY", local=False).key_env
        'MY_API_KEY'
    """

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


# Built-in providers: gaia_eval/providers/entries.py and gaia_eval/baselines/entry.py, through pyproject.toml.
PROVIDERS = Registry("gaia_eval.providers", order=("baseline", "anthropic", "openai", "lemonade", "ollama", "vllm",
                                                   "lmstudio", "llamacpp", "fake"))


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

# Use cases: one module each holding a `USE_CASE` (gaia_eval.usecases.UseCase); listed, and reported, in this order.
USE_CASES = Registry("gaia_eval.usecases", order=("summarization", "email", "qa"))
# Scorers (gaia_eval.scoring.scorers.Scorer): which a use case uses in each mode is the use case's say.
SCORERS = Registry("gaia_eval.scorers", order=("summaries", "summaries_standalone", "free_text", "qa", "long_form_qa"))
# Answer-matching modes (`check-answer --mode`, a `--jsonl` line's "mode", a bench task's kind): each name points at
# a `gaia_eval.scoring.answers.MatchMode` (its matching function and the options it takes) or at a bare matching
# function `(expected, answer, options) -> Verdict`.
MATCH_MODES = Registry("gaia_eval.match_modes", order=("gaia", "gaia-official", "lenient", "exact", "f1", "numeric",
                                                       "contains", "regex", "fuzzy", "semantic",
                                                       "judge"))  # judge asks a model: check-answer --mode judge
# Bench runners by name (`bench --runner calculator`, or `builtin:calculator`): each a function prompt -> EvalRun,
# str or dict (gaia_eval.bench.runs).
BENCH_RUNNERS = Registry("gaia_eval.bench_runners")


def shipped(registry: Registry) -> dict[str, str]:
    """What gaia-eval itself declares in a registry's group (never a test's or another package's additions)."""
    return dict(shipped_entry_points().get(registry.group, {}))


__all__ = [
    "BENCH_RUNNERS",
    "GROUPS",
    "MATCH_MODES",
    "PROVIDERS",
    "SCORERS",
    "USE_CASES",
    "BatchPrice",
    "ModelPrice",
    "ProviderEntry",
    "Registry",
    "check_name",
    "load",
    "one_line_reason",
    "provider_entry",
    "provider_names",
    "shipped",
    "shipped_entry_points",
]
