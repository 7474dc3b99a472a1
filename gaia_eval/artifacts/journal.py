"""Item journals of running stages: one JSON line per finished record, handed to the kernel as it lands and
fsynced by a background thread (group commit).

A line handed to the kernel survives the process being killed (kill -9 included); the fsync makes it survive
a power cut too. It runs beside the calls instead of in the event loop: at 3 ms per fsync on a busy disk, one
per item in the loop capped a run at about 300 items/s whatever the model's speed. A run killed at any moment
leaves at most one partial last line, which the reader ignores; every complete line is a validated record.
batch-experiment journals ItemResults beside the experiment file until that file is written; eval journals its
LLM judge samples the same way.

Beside a journal, `<journal>.run.json` says what the running stage set out to do (items in total, how many were
reused, the model, its concurrency, when it started): the viewer reads both to show live progress and an ETA.
It goes when the journal goes.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
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


def iter_json_lines(path: Path) -> Iterator[tuple[bytes, dict]]:
    """Every complete line of a journal or part that is a JSON object, with its bytes, one at a time: for a
    reader that keeps many records as bytes and validates each (as its model) only when it uses it."""
    try:
        fh = open(path, "rb")  # noqa: SIM115 - closed below, also when the reader stops early
    except FileNotFoundError:
        return
    with fh:
        for line in fh:
            line = line.strip()
            if not line:
                continue
            try:
                record = orjson.loads(line)
            except orjson.JSONDecodeError:
                continue
            if isinstance(record, dict):
                yield line, record


def read_journal(path: Path) -> dict[str, ItemResult]:
    """Items by id, the latest line winning; partial or invalid lines are skipped (they were never finished)."""
    return {item.item_id: item for item in read_records(path, ItemResult)}


class JournalWriter:
    """Appends records (any pydantic model). Each append is in the kernel before the call returns (a killed
    process loses nothing), and on disk (fsync) within one fsync's time after it; `close` waits for that. A
    write or fsync the disk refuses (full) is a StorageError naming the journal, at that append or the next."""

    def __init__(self, path: Path, *, truncate: bool = False) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fh = open(self.path, "wb" if truncate else "ab")  # noqa: SIM115 - held open for the journal's life, closed by close()
        except OSError as exc:
            raise InputError(
                f"cannot be written ({exc.strerror})",
                file=self.path,
                fix="check the output path (-o) and its permissions",
            ) from None
        if not truncate and self._fh.tell() > 0:
            self._terminate_partial_line()
        self._lock = threading.Condition()
        self._written = self._synced = 0
        self._closing = False
        self._sync_error: OSError | None = None
        self._write_failed = False
        self._syncer: threading.Thread | None = None

    def _terminate_partial_line(self) -> None:
        # A kill mid-append leaves a line without its newline; start ours on a fresh line.
        with open(self.path, "rb") as fh:
            fh.seek(-1, os.SEEK_END)
            if fh.read(1) != b"\n":
                self._fh.write(b"\n")

    def append(self, record: BaseModel | dict) -> None:
        if self._sync_error is not None:
            raise storage_error(self.path, self._sync_error)
        try:
            data = record.model_dump(mode="json") if isinstance(record, BaseModel) else record
            self._fh.write(orjson.dumps(data) + b"\n")
            self._fh.flush()
        except OSError as exc:
            # Disk full, quota, I/O error: stop the run; every line before this one is kept, and a partial
            # last line is ignored by the reader, so the same command resumes once there is room.
            self._write_failed = True
            raise storage_error(self.path, exc) from None
        with self._lock:
            self._written += 1
            if self._syncer is None:
                self._syncer = threading.Thread(target=self._sync_loop, name="journal-fsync", daemon=True)
                self._syncer.start()
            self._lock.notify_all()

    def _sync_loop(self) -> None:
        """fsync whenever lines were written since the last one: one fsync covers every line before it."""
        fd = self._fh.fileno()
        while True:
            with self._lock:
                while self._written == self._synced and not self._closing:
                    self._lock.wait()
                if self._written == self._synced:
                    return
                target = self._written
            try:
                os.fsync(fd)
            except OSError as exc:
                with self._lock:
                    self._sync_error = exc
                    self._lock.notify_all()
                return
            with self._lock:
                self._synced = target
                self._lock.notify_all()

    def write_run_info(self, *, total: int, reused: int, model: str, concurrency: int) -> None:
        """The run header (see the module doc): `lines_before` lets a reader count this run's new lines."""
        self._fh.flush()
        info = {"total": total, "reused": reused, "model": model, "concurrency": concurrency,
                "started_at": round(time.time(), 3), "lines_before": self.path.read_bytes().count(b"\n")}
        atomic_write_bytes(run_info_path(self.path), orjson.dumps(info))

    def close(self) -> None:
        """Wait until every appended line is on disk, then close."""
        if self._fh.closed:
            return
        with self._lock:
            self._closing = True
            self._lock.notify_all()
        if self._syncer is not None:
            self._syncer.join()
        try:
            self._fh.close()  # flushes what a refused write left buffered: refused again on a full disk
        except OSError as exc:
            if not self._write_failed:  # else the append already raised the one message, naming this file
                raise storage_error(self.path, exc) from None

    def remove(self) -> None:
        self.close()
        remove_journal(self.path)
