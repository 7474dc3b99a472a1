"""A dict too big to hold, written to disk as it fills and read back once in key order: (key, document) pairs
spooled to temp files beside the artifact they are for, then given back sorted by key with the last document
given for a key winning, as a dict keeps it. It lets an artifact's big mapping (an imported experiment's
sources) be written in canonical key order a document at a time. The memory is one run of index entries and a
small read buffer per run; neither the documents nor all the keys are ever held."""

from __future__ import annotations

import heapq
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Generic, TypeVar

import orjson
from pydantic import BaseModel

from gaia_eval.errors import storage_error

M = TypeVar("M", bound=BaseModel)
RUN = 2048  # index entries sorted in memory at a time (about 400 kB); more become another sorted run on disk
MAX_RUNS = 64  # runs merged at once: past it they are merged into one run on disk, so the read buffers stay few
_READ = 1 << 12  # bytes a run is read ahead by while the runs are merged
_OWN = -1  # the offset of a key whose document the caller keeps (put with None)


class KeyedSpool(Generic[M]):
    """Documents of one model by key. `put(key, None)` records that the key's document is the caller's own (one it
    already holds, e.g. from the ground truth): `in_order` gives it back as None. Use as a context manager: the
    temp files go when it closes. A write the disk refuses is the storage error naming `target`."""

    def __init__(self, target: Path, model: type[M]) -> None:
        self._target, self._model = Path(target), model
        self._docs: Any = None  # the documents' JSON, back to back
        self._index: Any = None  # the sorted runs of index entries, a JSON array a line
        self._run: list[tuple[str, int, int]] = []  # (key, offset, length) not yet sorted into a run
        self._runs: list[tuple[int, int]] = []  # each run's byte span in the index file
        self._docs_end = 0

    def __enter__(self) -> KeyedSpool[M]:
        return self

    def __exit__(self, *exc: object) -> None:
        for fh in (self._docs, self._index):
            if fh is not None:
                fh.close()

    def _temp(self, kind: str) -> Any:
        # closed by __exit__: the spool lives across the generators an artifact writer reads
        return tempfile.TemporaryFile(dir=self._target.parent, prefix=f".{self._target.name}.{kind}.")

    def put(self, key: str, document: M | None) -> None:
        """Keep `document` under `key` (None: the caller's own); a later put of the same key wins."""
        entry = (key, _OWN, 0)
        if document is not None:
            data = document.model_dump_json().encode()
            try:
                if self._docs is None:
                    self._docs = self._temp("docs")
                self._docs.seek(self._docs_end)
                self._docs.write(data)
            except OSError as exc:  # a full disk: the artifact named, its file untouched
                raise storage_error(self._target, exc) from None
            entry = (key, self._docs_end, len(data))
            self._docs_end += len(data)
        self._run.append(entry)
        if len(self._run) >= RUN:
            self._flush_run()

    def _flush_run(self) -> None:
        self._run.sort(key=lambda entry: entry[0])  # stable: a key's entries stay in the order they were put
        try:
            if self._index is None:
                self._index = self._temp("index")
            self._runs.append(self._write_run(self._run))
            if len(self._runs) >= MAX_RUNS:
                self._index.flush()
                self._runs = [self._write_run(self._merged())]
        except OSError as exc:
            raise storage_error(self._target, exc) from None
        self._run = []

    def _write_run(self, entries: Iterable[tuple[str, int, int]]) -> tuple[int, int]:
        start = self._index.seek(0, os.SEEK_END)
        for entry in entries:
            self._index.write(orjson.dumps(entry) + b"\n")
        return start, self._index.tell()

    def _merged(self) -> Iterator[tuple[str, int, int]]:
        """The runs' entries in key order, a key's in put order (heapq.merge keeps the runs' order on ties)."""
        return heapq.merge(*(self._read_run(span) for span in self._runs), key=lambda entry: entry[0])

    def in_order(self) -> Iterator[tuple[str, M | None]]:
        """(key, document) in key order, each key once with the last document put for it; read once, after
        the last put."""
        if self._run:
            self._flush_run()
        if self._index is None:
            return
        try:
            for fh in (self._docs, self._index):
                if fh is not None:
                    fh.flush()
        except OSError as exc:
            raise storage_error(self._target, exc) from None
        last: tuple[str, int, int] | None = None
        for entry in self._merged():  # equal keys come run by run in put order: the last of a group is the last put
            if last is not None and entry[0] != last[0]:
                yield self._document(last)
            last = entry
        if last is not None:
            yield self._document(last)

    def _read_run(self, span: tuple[int, int]) -> Iterator[tuple[str, int, int]]:
        position, end = span
        buffer, at = b"", 0
        fd = self._index.fileno()
        while True:
            cut = buffer.find(b"\n", at)
            if cut >= 0:
                key, offset, length = orjson.loads(buffer[at:cut])
                at = cut + 1
                yield key, offset, length
            elif position < end:
                read = os.pread(fd, min(_READ, end - position), position)
                buffer, at = buffer[at:] + read, 0
                position += len(read)
            else:
                return

    def _document(self, entry: tuple[str, int, int]) -> tuple[str, M | None]:
        key, offset, length = entry
        if offset == _OWN:
            return key, None
        return key, self._model.model_validate_json(os.pread(self._docs.fileno(), length, offset))
