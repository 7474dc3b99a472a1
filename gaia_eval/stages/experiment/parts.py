"""What batch-experiment finds already done for an experiment (its file, its journal, the journals and parts of
its shards), and what a shard leaves behind: its part (artifacts/shards.py says where and why)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import orjson
from pydantic import ValidationError

from gaia_eval.artifacts.experiment import Experiment, ItemResult
from gaia_eval.artifacts.journal import journal_path, remove_journal
from gaia_eval.artifacts.shards import LineIndex, Shard, shard_files, shard_journal_path, shard_part_path, write_part
from gaia_eval.artifacts.streamed import StreamedExperiment, read_experiment
from gaia_eval.errors import ArtifactError, InputError

SUFFIX = ".experiment.json"


_OK, _FINAL, _SAME = 1, 2, 4  # flag bits of an indexed line: status ok; a finished shard's answer; made this way


class _FileItems:
    """An earlier experiment file's items, never held: streamed each time they are iterated, one parsed from its
    own element when it is asked for by id (the ids' places are read once, on first use)."""

    def __init__(self, experiment: Experiment | StreamedExperiment | None = None) -> None:
        self._experiment = experiment
        self._by_id: dict[str, ItemResult] | None = None

    def __iter__(self) -> Iterator[ItemResult]:
        return iter(self._experiment.items) if self._experiment is not None else iter(())

    def find(self, item_id: str) -> ItemResult | None:
        experiment = self._experiment
        if isinstance(experiment, StreamedExperiment):
            return experiment.items.find(item_id)
        if self._by_id is None:  # a file the stream reader could not follow, read whole
            self._by_id = {item.item_id: item for item in self}
        return self._by_id.get(item_id)


@dataclass
class Previous:
    """Item results found for one experiment: those of an earlier experiment file (`file`, streamed), and where
    the newest line of each item sits in the shards' parts and journals and the run's journal (`lines`: a
    consolidation of 100,000 items holds no results), with whether it comes from a finished shard's part (an error
    there is that shard's answer, as in a finished experiment file) and was made the way this run makes it."""

    file: _FileItems = field(default_factory=_FileItems)
    lines: LineIndex = field(default_factory=LineIndex)
    fingerprints: dict[str, str] = field(default_factory=dict)
    dropped: set[str] = field(default_factory=set)  # ids of the file's items left out (a --force run redoes them)

    def _file_items(self) -> Iterator[ItemResult]:
        """The file's items that no newer line replaces and that are not dropped."""
        return (r for r in self.file if r.item_id not in self.lines and r.item_id not in self.dropped)

    def drop(self, item_ids: set[str]) -> None:
        self.dropped |= item_ids
        for item_id in self.lines.list_keys():
            if item_id in item_ids:
                del self.lines[item_id]

    def errored(self) -> set[str]:
        """Ids whose newest result is an error."""
        return {r.item_id for r in self._file_items() if r.status == "error"} | {
            k for k in self.lines.list_keys() if not (self.lines.flags(k) or 0) & _OK}

    def reusable(self, *, retry_errors: bool, refresh: Callable[[ItemResult], ItemResult]) -> Results:
        """The results made the same way that count as done (ok ones, and a finished shard's errors unless
        errors are retried), each `refresh`ed as it is read."""
        def counts(ok: bool, final: bool) -> bool:
            return ok or (final and not retry_errors)

        from_file = {r.item_id for r in self._file_items()
                     if self.fingerprints.get(r.item_id) == r.fingerprint and counts(r.status == "ok", False)}
        for item_id in self.lines.list_keys():
            bits = self.lines.flags(item_id) or 0
            if not (bits & _SAME and counts(bool(bits & _OK), bool(bits & _FINAL))):
                del self.lines[item_id]
        return Results(lines=self.lines, file=self.file, from_file=from_file, refresh=refresh)


class Results:
    """An experiment's item results by id: those made in this run, held, and those reused from the shards' parts
    and journals or from an earlier experiment file, read each time they are asked for (refreshed with the
    current ground truth and price), so that consolidating 100,000 items holds none of them."""

    def __init__(self, held: dict[str, ItemResult] | None = None, lines: LineIndex | None = None,
                 file: _FileItems | None = None, from_file: set[str] | None = None,
                 refresh: Callable[[ItemResult], ItemResult] | None = None) -> None:
        self._held = held or {}
        self._lines = lines or LineIndex()
        self._file, self._from_file = file or _FileItems(), from_file or set()
        self._refresh = refresh

    def __getitem__(self, item_id: str) -> ItemResult:
        found = self._held.get(item_id)
        if found is not None:
            return found
        line = self._lines.get(item_id)
        result = ItemResult.model_validate_json(line) if line is not None else (  # validated when it was indexed
            self._file.find(item_id) if item_id in self._from_file else None)
        if result is None:
            raise KeyError(item_id)
        return self._refresh(result) if self._refresh is not None else result

    def __setitem__(self, item_id: str, result: ItemResult) -> None:
        if item_id in self._lines:
            del self._lines[item_id]
        self._from_file.discard(item_id)
        self._held[item_id] = result

    def __contains__(self, item_id: object) -> bool:
        return item_id in self._held or item_id in self._lines or item_id in self._from_file

    def __len__(self) -> int:
        return len(self._held) + len(self._lines) + len(self._from_file)

    def close(self) -> None:
        self._lines.close()


def previous_results(path: Path, fingerprints: dict[str, str]) -> Previous:
    """Every item result of an earlier experiment file (streamed), of the shards' parts and journals, and of the
    journal (later sources are newer; those indexed, each line validated once as it is)."""
    previous = Previous(fingerprints=fingerprints)
    if path.exists():
        try:
            experiment = read_experiment(path)
            for _ in experiment.items:  # every item valid, or none taken (as when the file was read whole)
                pass
            previous.file = _FileItems(experiment)
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
