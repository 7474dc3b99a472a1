"""How one run's model calls travel, as one frozen value: through the response cache or not (and which folder),
through the providers' batch APIs or not (and in what batches). The CLI makes it from a command's options
(--no-cache, --cache-dir, --batch, --batch-size, --batch-poll), a Python caller may pass its own, and a run given
none makes today's defaults from the environment when it starts; the value is then passed down to where each
provider is opened. Nothing here is module state, so two runs in one process never see each other's settings."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from gaia_eval.providers.base import Provider
from gaia_eval.providers.batch.mode import with_batch
from gaia_eval.providers.batch.options import BatchOptions
from gaia_eval.providers.cache import CacheOptions, with_cache


@dataclass(frozen=True)
class CallOptions:
    cache: CacheOptions = field(default_factory=CacheOptions)
    batch: BatchOptions = field(default_factory=BatchOptions)


def call_options_or_defaults(options: CallOptions | None) -> CallOptions:
    """The run's options: the ones given, else the defaults read from the environment now."""
    return options if options is not None else CallOptions()


def open_provider(settings, options: CallOptions, journal: Path, *, label: str | None = None,
                  refresh: bool = False) -> Provider:
    """The provider `settings` name, answering through its batch API when `options.batch` is on and behind the
    response cache when `options.cache` is on; `journal` is where its batches are recorded, `label` names it in
    errors, `refresh` asks the model past the cache (--force). A missing cloud key stops here (exit 2)."""
    from gaia_eval.providers import create_provider

    return with_cache(with_batch(create_provider(settings), settings, journal, options.batch, label), settings,
                      options.cache, refresh=refresh)
