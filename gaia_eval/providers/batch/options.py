"""Whether this run sends its model calls through the providers' batch APIs, and with what settings: set by the
CLI's --batch / --batch-size / --batch-poll (like the response cache's options). Nothing here imports an SDK."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, replace
from pathlib import Path

DEFAULT_BATCH_SIZE = 1000
DEFAULT_POLL_S = 10.0
MAX_POLL_S = 300.0
DEFAULT_GATHER_S = 2.0  # requests arriving within this quiet spell go into one batch


@dataclass(frozen=True)
class BatchOptions:
    enabled: bool = False
    size: int = DEFAULT_BATCH_SIZE
    poll_s: float = DEFAULT_POLL_S
    status_only: bool = False

    @property
    def gather_s(self) -> float:
        raw = os.environ.get("GAIA_EVAL_BATCH_GATHER_S", "").strip()
        return float(raw) if raw else DEFAULT_GATHER_S

    @property
    def first_poll_s(self) -> float:
        raw = os.environ.get("GAIA_EVAL_BATCH_POLL_S", "").strip()  # tests keep polling tiny through this
        return float(raw) if raw else self.poll_s


_current = [BatchOptions()]


def configure(*, reset: bool = False, **changes) -> None:
    if reset:
        _current[0] = BatchOptions()
    if changes:
        _current[0] = replace(_current[0], **changes)


def batch_options() -> BatchOptions:
    return _current[0]


def batch_enabled() -> bool:
    return _current[0].enabled


def run_id_for(journal: Path) -> str:
    """Stable for one output folder and stage (the journal's absolute path): a restart finds its batches by it
    even when the journal line with a batch id was never written."""
    return "g" + hashlib.sha256(str(Path(journal).resolve()).encode()).hexdigest()[:11]
