"""Whether a run sends its model calls through the providers' batch APIs, and with what settings: a frozen value
the CLI makes from --batch / --batch-size / --batch-poll and passes down (like the response cache's options).
Nothing here imports an SDK."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_BATCH_SIZE = 1000
DEFAULT_POLL_S = 10.0
MAX_POLL_S = 300.0
DEFAULT_GATHER_S = 2.0  # requests arriving within this quiet spell go into one batch


def _seconds_from_env(name: str) -> float | None:
    """Seconds from the environment, else None (unset, or not a number: the default applies, as for the cache's
    GAIA_EVAL_CACHE_MAX_MB); read by every command that can batch, so a stray value must not stop the others."""
    raw = os.environ.get(name, "").strip()
    try:
        return float(raw) if raw else None
    except ValueError:
        return None


def _gather_s_from_env() -> float:
    seconds = _seconds_from_env("GAIA_EVAL_BATCH_GATHER_S")
    return DEFAULT_GATHER_S if seconds is None else seconds


@dataclass(frozen=True)
class BatchOptions:
    """One run's batch mode. The last two fields are read from the environment when the value is made, once."""

    enabled: bool = False
    size: int = DEFAULT_BATCH_SIZE
    poll_s: float = DEFAULT_POLL_S
    gather_s: float = field(default_factory=_gather_s_from_env)
    # GAIA_EVAL_BATCH_POLL_S wins over poll_s for the first wait: tests keep polling tiny through it
    env_poll_s: float | None = field(default_factory=lambda: _seconds_from_env("GAIA_EVAL_BATCH_POLL_S"))

    @property
    def first_poll_s(self) -> float:
        return self.poll_s if self.env_poll_s is None else self.env_poll_s


def run_id_for(journal: Path) -> str:
    """Stable for one output folder and stage (the journal's absolute path): a restart finds its batches by it
    even when the journal line with a batch id was never written."""
    return "g" + hashlib.sha256(str(Path(journal).resolve()).encode()).hexdigest()[:11]
