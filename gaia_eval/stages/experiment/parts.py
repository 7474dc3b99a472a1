"""What batch-experiment finds already done for an experiment (its file, its journal, the journals and parts of
its shards), and what a shard leaves behind: its part (artifacts/shards.py says where and why)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import orjson
from pydantic import ValidationError

from gaia_eval.artifacts.experiment import Experiment, ItemResult
from gaia_eval.artifacts.journal import journal_path, remove_journal
from gaia_eval.artifacts.shards import LineIndex, Shard, shard_files, shard_journal_path, shard_part_path, write_part
from gaia_eval.artifacts.store import read_artifact
from gaia_eval.errors import ArtifactError, InputError

SUFFIX = ".experiment.json"


_OK, _FINAL, _SAME = 1, 2, 4  # flag bits of an indexed line: status ok; a finished shard's answer; made this way


@dataclass
class Previous:
    """Item results found for one experiment: those of an earlier experiment file (`held`), and where the newest
    line of each item sits in the shards' parts and journals and the run's journal (`lines`: a consolidation of
    100,000 items holds no results), with whether it comes from a finished shard's part (`final`: an error there
    is that shard's answer, as in a finished experiment file) and was made the way this run makes it."""

    held: dict[str, ItemResult] = field(default_factory=dict)
    lines: LineIndex = field(default_factory=LineIndex)
    fingerprints: dict[str, str] = field(default_factory=dict)

    def keep_only(self, keep: Callable[[str], bool]) -> None:
        self.held = {k: v for k, v in self.held.items() if keep(k)}
        for item_id in self.lines.list_keys():
            if not keep(item_id):
                del self.lines[item_id]

    def errored(self) -> set[str]:
        """Ids whose newest result is an error."""
        return {k for k, r in self.held.items() if k not in self.lines and r.status == "error"} | {
            k for k in self.lines.list_keys() if not (self.lines.flags(k) or 0) & _OK}

    def reusable(self, *, retry_errors: bool, refresh: Callable[[ItemResult], ItemResult]) -> Results:
        """The results made the same way that count as done (ok ones, and a finished shard's errors unless
        errors are retried), each `refresh`ed as it is read."""
        def counts(ok: bool, final: bool) -> bool:
            return ok or (final and not retry_errors)

        held = {k: refresh(r) for k, r in self.held.items() if k not in self.lines
                and self.fingerprints.get(k) == r.fingerprint and counts(r.status == "ok", False)}
        for item_id in self.lines.list_keys():
            bits = self.lines.flags(item_id) or 0
            if not (bits & _SAME and counts(bool(bits & _OK), bool(bits & _FINAL))):
                del self.lines[item_id]
        return Results(held, self.lines, refresh)


class Results:
    """An experiment's item results by id: those made in this run and those of an earlier file, held, and those
    reused from the shards' parts and journals, read from their line each time they are asked for (refreshed
    with the current ground truth and price), so that consolidating 100,000 items holds none of them."""

    def __init__(self, held: dict[str, ItemResult] | None = None, lines: LineIndex | None = None,
                 refresh: Callable[[ItemResult], ItemResult] | None = None) -> None:
        self._held = held or {}
        self._lines = lines or LineIndex()
        self._refresh = refresh

    def __getitem__(self, item_id: str) -> ItemResult:
        found = self._held.get(item_id)
        if found is not None:
            return found
        line = self._lines.get(item_id)
        if line is None:
            raise KeyError(item_id)
        result = ItemResult.model_validate_json(line)  # validated when it was indexed
        return self._refresh(result) if self._refresh is not None else result

    def __setitem__(self, item_id: str, result: ItemResult) -> None:
        if item_id in self._lines:
            del self._lines[item_id]
        self._held[item_id] = result

    def __contains__(self, item_id: object) -> bool:
        return item_id in self._held or item_id in self._lines

    def __len__(self) -> int:
        return len(self._held) + len(self._lines)

    def close(self) -> None:
        self._lines.close()


def previous_results(path: Path, fingerprints: dict[str, str]) -> Previous:
    """Every item result of an earlier experiment file (held), of the shards' parts and journals, and of the
    journal (later sources are newer; those indexed, each line validated once as it is)."""
    previous = Previous(fingerprints=fingerprints)
    if path.exists():
        try:
            for item in read_artifact(path, Experiment).items:
                previous.held[item.item_id] = item
        except (ArtifactError, InputError):
            pass
    for shard_file in shard_files(path, SUFFIX):
        previous.lines.add(shard_file, _valid_id, _flags(final=shard_file.name.endswith(".part.jsonl"),
                                                         fingerprints=fingerprints))
    previous.lines.add(journal_path(path), _valid_id, _flags(final=None, fingerprints=fingerprints))
    return previous


def _valid_id(line: bytes, record: dict) -> str | None:
    """The id of a line that is an ItemResult (a line that is not never finished: it is skipped)."""
    try:
        return ItemResult.model_validate_json(line).item_id
    except ValidationError:
        return None


def _flags(*, final: bool | None, fingerprints: dict[str, str]) -> Callable[[dict, int | None], int]:
    """A line's flag bits; `final` None (the run's own journal): the item keeps what the shards' files said."""
    def flags(record: dict, before: int | None) -> int:
        bits = _OK if record.get("status") == "ok" else 0
        item_id = record.get("item_id")
        if isinstance(item_id, str) and fingerprints.get(item_id) == record.get("fingerprint"):
            bits |= _SAME
        if final if final is not None else (before or 0) & _FINAL:
            bits |= _FINAL
        return bits
    return flags


def run_journal_path(path: Path, shard: Shard | None) -> Path:
    """Where a run of this experiment journals its items: the shard's own journal when it is one."""
    return journal_path(path) if shard is None else shard_journal_path(path, SUFFIX, shard)


def finish_shard(path: Path, shard: Shard, results: Iterable[ItemResult]) -> Path:
    """Write the shard's part (every item it owns, in input order, one at a time), then drop its journal."""
    part = shard_part_path(path, SUFFIX, shard)
    write_part(part, (orjson.dumps(r.model_dump(mode="json")) for r in results))
    remove_journal(shard_journal_path(path, SUFFIX, shard))
    return part


def remove_shard_files(path: Path) -> None:
    """The shards' journals and parts of an experiment whose file is now written: it holds all they held."""
    for shard_file in shard_files(path, SUFFIX):
        remove_journal(shard_file)
