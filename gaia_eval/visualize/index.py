"""The viewer's in-memory index of one kind of file under one folder, refreshed by each file's fingerprint (inode,
mtime_ns, size): a request lists and stats the folder (milliseconds at 1,000 files) and re-reads only the files
that are new or changed, so the dashboard does not parse every evaluation on every request."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Generic, TypeVar

T = TypeVar("T")
Fingerprint = tuple[int, int, int]  # st_ino (an atomic write is a new file), st_mtime_ns, st_size


def file_fingerprint(path: Path) -> Fingerprint | None:
    try:
        st = path.stat()
    except OSError:
        return None  # removed between listing and stat
    return (st.st_ino, st.st_mtime_ns, st.st_size)


class FileIndex(Generic[T]):
    """`load(path)` of every file matching `pattern` under `root`, kept until the file changes. A file `load`
    refuses (None: unreadable, not valid) is remembered too, so a broken file is not re-read on each request."""

    def __init__(self, root: Path, pattern: str, load: Callable[[Path], T | None]) -> None:
        self.root, self._pattern, self._load = root, pattern, load
        self._entries: dict[Path, tuple[Fingerprint, T | None]] = {}
        self._lock = threading.Lock()  # the server answers in threads; one refresh at a time
        self.reads = 0  # files loaded so far: what tests count to see that an unchanged file is not re-read

    def current(self) -> list[tuple[Path, T]]:
        """Every loadable file under the root, sorted by path, as it is on disk now."""
        with self._lock:
            fresh: dict[Path, tuple[Fingerprint, T | None]] = {}
            for path in sorted(self.root.rglob(self._pattern)) if self.root.is_dir() else []:
                fp = file_fingerprint(path)
                if fp is None:
                    continue
                known = self._entries.get(path)
                if known is None or known[0] != fp:
                    self.reads += 1
                    known = (fp, self._load(path))
                fresh[path] = known
            self._entries = fresh  # files gone from disk leave the index
            return [(path, value) for path, (_fp, value) in fresh.items() if value is not None]

    def fingerprint(self) -> tuple[tuple[str, Fingerprint], ...]:
        """The fingerprints of the files last listed: a key for what is derived from all of them (charts)."""
        with self._lock:
            return tuple((str(p), fp) for p, (fp, _v) in self._entries.items())


class IndexRegistry(Generic[T]):
    """One FileIndex per folder (the viewer serves one workspace, tests several), made on first use."""

    def __init__(self, pattern: str, make_load: Callable[[Path], Callable[[Path], T | None]]) -> None:
        self._pattern, self._make_load = pattern, make_load
        self._indexes: dict[Path, FileIndex[T]] = {}
        self._lock = threading.Lock()

    def __call__(self, root: Path) -> FileIndex[T]:
        key = Path(root).resolve()
        with self._lock:
            if key not in self._indexes:
                self._indexes[key] = FileIndex(Path(root), self._pattern, self._make_load(Path(root)))
            return self._indexes[key]
