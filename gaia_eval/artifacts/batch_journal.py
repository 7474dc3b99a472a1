"""The batch journal: what a stage submitted to a provider's batch API, so that a run killed at any moment
re-attaches to its batches instead of paying for them twice.

One JSON line per event, appended (in the kernel, fsynced right after: artifacts.journal.JournalWriter) before
the run goes on:

- `intent`   written BEFORE the create call: a local id, the run id, the custom_ids it will hold, the provider
             settings (so `--batch-status` can ask about it) and the time. The batch is created with the run id
             and local id in its metadata (OpenAI) or its custom_ids (Anthropic), so a kill between the create
             call and the next line is repaired on restart by looking the batch up at the provider.
- `created`  the provider's batch id, the moment the create call returned (or the lookup found it).
- `ended`    the batch ended and its results were read: final status and the custom_ids that did not succeed.
- `abandoned` the create never reached the provider (its requests are free to be submitted again);
- `rejected` a batch found by listing turned out not to be ours (its custom_ids differ).

A kill mid-append leaves one partial last line, which the reader skips.
"""

from __future__ import annotations

import glob
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from gaia_eval.artifacts.base import SCHEMA_VERSION, Strict
from gaia_eval.artifacts.journal import read_records

if TYPE_CHECKING:
    from gaia_eval.artifacts.shards import Shard

BatchEventKind = Literal["intent", "created", "ended", "abandoned", "rejected"]


class BatchEvent(Strict):
    schema_version: int = SCHEMA_VERSION
    event: BatchEventKind
    run_id: str
    local_id: str
    at: float  # unix time of the event (an intent's: the earliest the provider can have created the batch)
    batch_id: str | None = None
    custom_ids: list[str] = Field(default_factory=list)
    provider: str | None = None  # intent: the provider settings, without any key
    model: str | None = None
    base_url: str | None = None
    api_key_env: str | None = None
    found_by: Literal["create", "metadata", "listing"] | None = None  # created: how the id became known
    status: str | None = None  # ended: the provider's final status
    # ended: custom_id -> the provider's reason, for requests that did not succeed
    failed: dict[str, str] = Field(default_factory=dict)


@dataclass
class BatchState:
    """One batch as the journal tells it (events folded in order)."""

    local_id: str
    run_id: str
    at: float
    custom_ids: list[str]
    provider: str
    model: str
    base_url: str | None
    api_key_env: str | None
    batch_id: str | None = None
    found_by: str | None = None
    status: str | None = None  # None until ended
    failed: dict[str, str] = field(default_factory=dict)
    abandoned: bool = False
    rejected: bool = False

    @property
    def live(self) -> bool:
        """Submitted (or maybe submitted) and not given up on."""
        return not (self.abandoned or self.rejected)

    @property
    def ended(self) -> bool:
        return self.status is not None


def batch_journal_path(folder: Path, name: str, shard: Shard | None = None) -> Path:
    """`<name>.batches.jsonl` in `folder`; a shard's own `<name>.shard-K-of-N.batches.jsonl`: each shard of a run
    re-attaches to its own batches, under its own run id, and never to another shard's."""
    return Path(folder) / f"{name}{'' if shard is None else '.' + shard.tag}.batches.jsonl"


_SHARD_JOURNAL = re.compile(r"\.shard-(\d+)-of-(\d+)\.batches\.jsonl$")


def remove_batch_journals(folder: Path, name: str) -> None:
    """`<name>.batches.jsonl` and every shard's `<name>.shard-K-of-N.batches.jsonl` in `folder`: the run that
    wrote what their batches answered no longer needs them."""
    folder = Path(folder)
    batch_journal_path(folder, name).unlink(missing_ok=True)
    if folder.is_dir():
        for path in folder.glob(f"{glob.escape(name)}.shard-*.batches.jsonl"):
            if _SHARD_JOURNAL.fullmatch(path.name[len(name):]):
                path.unlink(missing_ok=True)


def batches_in_flight(folder: Path) -> list[tuple[str | None, Path]]:
    """(whose: "K/N" for a shard's journal, None for a run without --shard; journal) for each batch journal under
    `folder` that holds a batch the provider may still be running (submitted, or maybe submitted, and not ended):
    the items in it are paid for there, and only the run that journaled it re-attaches to it."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    found: list[tuple[str | None, Path]] = []
    for path in sorted(folder.rglob("*.batches.jsonl")):
        if any(s.live and not s.ended for s in read_batch_journal(path)):
            match = _SHARD_JOURNAL.search(path.name)
            found.append((f"{match.group(1)}/{match.group(2)}" if match else None, path))
    return found


def read_batch_journal(path: Path) -> list[BatchState]:
    """Batches in the order their intents were written."""
    states: dict[str, BatchState] = {}
    for ev in read_records(path, BatchEvent):
        if ev.event == "intent":
            states[ev.local_id] = BatchState(
                local_id=ev.local_id, run_id=ev.run_id, at=ev.at, custom_ids=list(ev.custom_ids),
                provider=ev.provider or "", model=ev.model or "", base_url=ev.base_url, api_key_env=ev.api_key_env,
            )
            continue
        state = states.get(ev.local_id)
        if state is None:
            continue
        if ev.event == "created":
            state.batch_id, state.found_by = ev.batch_id, ev.found_by
        elif ev.event == "ended":
            state.status, state.failed = ev.status, dict(ev.failed)
        elif ev.event == "abandoned":
            state.abandoned = True
        elif ev.event == "rejected":
            state.rejected = True
    return list(states.values())
