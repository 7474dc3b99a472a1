"""Item journals of running stages: one JSON line per finished record, flushed and fsynced as it lands.

A run killed at any moment leaves at most one partial last line, which the reader ignores; every complete
line is a validated record. batch-experiment journals ItemResults beside the experiment file until that file
is written; eval journals its LLM judge samples the same way.

Beside a journal, `<journal>.run.json` says what the running stage set out to do (items in total, how many were
reused, the model, its concurrency, when it started): the viewer reads both to show live progress and an ETA.
It goes when the journal goes.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TypeVar

import orjson
from pydantic import BaseModel, ValidationError

from gaia_eval.artifacts.experiment import ItemResult
from gaia_eval.artifacts.store import atomic_write_bytes
from gaia_eval.errors import InputError, storage_error

R = TypeVar("R", bound=BaseModel)


def journal_path(experiment_file: Path) -> Path:
    name = Path(experiment_file).name.removesuffix(".experiment.json")
    return Path(experiment_file).with_name(f"{name}.experiment.journal.jsonl")


def run_info_path(journal: Path) -> Path:
    return Path(journal).with_name(Path(journal).name.removesuffix(".jsonl") + ".run.json")


def read_run_info(journal: Path) -> dict | None:
    """The run header beside a journal, or None (no header, or a torn one)."""
    try:
        info = orjson.loads(run_info_path(journal).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    return info if isinstance(info, dict) else None


def remove_journal(journal: Path) -> None:
    """A journal and its run header, once the file they stood for is written."""
    for path in (Path(journal), run_info_path(journal)):
        path.unlink(missing_ok=True)


def read_records(path: Path, model: type[R]) -> list[R]:
    """Every complete line that validates as `model`, in file order; partial or invalid lines are skipped
    (they were never finished). A missing journal has no records."""
    records: list[R] = []
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        return records
    for line in raw.splitlines():
        if not line.strip():
            continue
        try:
            records.append(model.model_validate(orjson.loads(line)))
        except (orjson.JSONDecodeError, ValidationError):
            continue
    return records


def read_journal(path: Path) -> dict[str, ItemResult]:
    """Items by id, the latest line winning; partial or invalid lines are skipped (they were never finished)."""
    return {item.item_id: item for item in read_records(path, ItemResult)}


class JournalWriter:
    """Appends records (any pydantic model); each append is durable (fsync) before the call returns."""

    def __init__(self, path: Path, *, truncate: bool = False) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fh = open(self.path, "wb" if truncate else "ab")
        except OSError as exc:
            raise InputError(
                f"cannot be written ({exc.strerror})", file=self.path, fix="check the output path (-o) and its permissions"
            ) from None
        if not truncate and self._fh.tell() > 0:
            self._terminate_partial_line()

    def _terminate_partial_line(self) -> None:
        # A kill mid-append leaves a line without its newline; start ours on a fresh line.
        with open(self.path, "rb") as fh:
            fh.seek(-1, os.SEEK_END)
            if fh.read(1) != b"\n":
                self._fh.write(b"\n")

    def append(self, record: BaseModel | dict) -> None:
        try:
            data = record.model_dump(mode="json") if isinstance(record, BaseModel) else record
            self._fh.write(orjson.dumps(data) + b"\n")
            self._fh.flush()
            os.fsync(self._fh.fileno())
        except OSError as exc:
            # Disk full, quota, I/O error: stop the run; every line before this one is durable, and a partial
            # last line is ignored by the reader, so the same command resumes once there is room.
            raise storage_error(self.path, exc) from None

    def write_run_info(self, *, total: int, reused: int, model: str, concurrency: int) -> None:
        """The run header (see the module doc): `lines_before` lets a reader count this run's new lines."""
        self._fh.flush()
        info = {"total": total, "reused": reused, "model": model, "concurrency": concurrency,
                "started_at": round(time.time(), 3), "lines_before": self.path.read_bytes().count(b"\n")}
        atomic_write_bytes(run_info_path(self.path), orjson.dumps(info))

    def close(self) -> None:
        if not self._fh.closed:
            self._fh.close()

    def remove(self) -> None:
        self.close()
        remove_journal(self.path)
