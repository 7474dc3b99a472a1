"""What batch-experiment finds already done for an experiment (its file, its journal, the journals and parts of
its shards), and what a shard leaves behind: its part (artifacts/shards.py says where and why)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import orjson

from gaia_eval.artifacts.experiment import Experiment, ItemResult
from gaia_eval.artifacts.journal import journal_path, read_journal, remove_journal
from gaia_eval.artifacts.shards import Shard, shard_files, shard_journal_path, shard_part_path, write_part
from gaia_eval.artifacts.store import read_artifact
from gaia_eval.errors import ArtifactError, InputError

SUFFIX = ".experiment.json"


@dataclass
class Previous:
    """Item results found for one experiment: `found` by id (newest wins), and the ids whose result comes from a
    finished shard's part (`final`: an error there is that shard's answer, as in a finished experiment file)."""

    found: dict[str, ItemResult] = field(default_factory=dict)
    final: set[str] = field(default_factory=set)

    def reusable(self, fingerprints: dict[str, str], *, retry_errors: bool) -> dict[str, ItemResult]:
        """The results made the same way that count as done: ok ones, and a finished shard's errors unless
        errors are retried."""
        return {
            item_id: r for item_id, r in self.found.items()
            if fingerprints.get(item_id) == r.fingerprint
            and (r.status == "ok" or (item_id in self.final and not retry_errors))
        }


def previous_results(path: Path) -> Previous:
    """Every item result of an earlier experiment file, of the shards' parts and journals, and of the journal
    (later sources are newer)."""
    previous = Previous()
    if path.exists():
        try:
            for item in read_artifact(path, Experiment).items:
                previous.found[item.item_id] = item
        except (ArtifactError, InputError):
            pass
    for shard_file in shard_files(path, SUFFIX):
        records = read_journal(shard_file)
        previous.found.update(records)
        if shard_file.name.endswith(".part.jsonl"):
            previous.final.update(records)
        else:
            previous.final.difference_update(records)
    previous.found.update(read_journal(journal_path(path)))
    return previous


def run_journal_path(path: Path, shard: Shard | None) -> Path:
    """Where a run of this experiment journals its items: the shard's own journal when it is one."""
    return journal_path(path) if shard is None else shard_journal_path(path, SUFFIX, shard)


def finish_shard(path: Path, shard: Shard, results: list[ItemResult]) -> Path:
    """Write the shard's part (every item it owns, in input order), then drop its journal."""
    part = shard_part_path(path, SUFFIX, shard)
    write_part(part, [orjson.dumps(r.model_dump(mode="json")) for r in results])
    remove_journal(shard_journal_path(path, SUFFIX, shard))
    return part


def remove_shard_files(path: Path) -> None:
    """The shards' journals and parts of an experiment whose file is now written: it holds all they held."""
    for shard_file in shard_files(path, SUFFIX):
        remove_journal(shard_file)
