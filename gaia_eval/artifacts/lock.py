"""One run at a time per output folder: a stage holds an exclusive lock on its output folder while it works.

Two runs writing one folder would both see the same unfinished items and pay for each of them twice. The lock
is an OS file lock (flock), so it is released by the kernel however the holder ends, kill -9 included: there are
no stale locks to clean up. The lock files live in a state folder keyed by the output folder's absolute path,
not in the output folder itself, so a run refused for bad input leaves no trace there. The holder writes its
pid, command line and start time into the lock file, for the one-line message the second run prints.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import orjson

from gaia_eval.artifacts.response_cache import default_cache_dir
from gaia_eval.errors import UsageError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no advisory locks; runs are not serialised there
    fcntl = None  # type: ignore[assignment]


class FolderBusyError(UsageError):
    """Another gaia-eval run is writing the same output folder."""


def lock_dir() -> Path:
    explicit = os.environ.get("GAIA_EVAL_LOCK_DIR")
    return Path(explicit).expanduser() if explicit else default_cache_dir() / "locks"


def _lock_path(folder: Path) -> Path:
    key = hashlib.sha256(str(Path(folder).resolve()).encode()).hexdigest()[:32]
    return lock_dir() / f"{key}.lock"


def _holder(fd: int) -> str:
    try:
        raw = os.pread(fd, 4096, 0)
        info = orjson.loads(raw) if raw else {}
    except (OSError, orjson.JSONDecodeError):
        info = {}
    if not info:
        return "another gaia-eval run"
    started = time.strftime("%H:%M:%S", time.localtime(info.get("started", 0)))
    return f"another gaia-eval run (pid {info.get('pid')}, `{info.get('command', '?')}`, started {started})"


@contextmanager
def folder_lock(folder: Path, option: str = "-o/--output-dir") -> Iterator[None]:
    """Hold the output folder's lock for the duration of the block, or raise FolderBusyError at once."""
    if fcntl is None:
        yield
        return
    path = _lock_path(folder)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        yield  # no writable state folder: run unserialised rather than not at all
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise FolderBusyError(
                f"{_holder(fd)} is writing this folder",
                file=folder,
                field=option,
                fix="wait for it to finish (it resumes from what it saved), or pass another output folder",
            ) from None
        info = {"pid": os.getpid(), "command": " ".join(["gaia-eval", *sys.argv[1:]])[:300], "folder": str(folder),
                "started": time.time()}
        os.ftruncate(fd, 0)
        os.pwrite(fd, orjson.dumps(info), 0)
        try:
            yield
        finally:
            os.ftruncate(fd, 0)
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
