"""The on-disk response cache: one file per request key that carries its key and a checksum, both checked on
every read; written off the calling path; with a per-key lock so that processes sharing a cache pay once.

Layout: `<root>/v2/<2 hex>/<62 hex>.json` holds two lines: a header `{"key": "<64 hex>", "sha256": "<64 hex>"}`
and the body, a reply (CachedReply) as JSON whose sha256 the header states. An entry is served only when it is a
regular file (opened without following a symlink and without waiting on a FIFO), its header names the key asked
for, its body has that checksum, and the body has the shape of a reply. Anything else is a miss: the entry is
removed with a warning and the model is asked. The checksum catches damage, an edit and another request's entry
copied into place; it is no signature (whoever can write the cache folder can recompute it).

Writes are handed to one background thread per process, so a model call returns as soon as its reply is read:
the thread writes a temp file beside the entry and renames it (a reader never sees a torn entry), and keeps
the cache under its size bound by deleting the least recently used entries (a hit touches the entry's mtime)
down to 80 % of the bound.

Fetch locks: a caller takes the key's lock (a one-byte record lock in `<root>/v2/fetch.lock`, tried without
blocking and polled from the event loop) before it reads the entry and, on a miss, asks the model. A second
caller for the same key, in this process or another, waits for it and then reads what it wrote instead of
paying for the same reply again. The writer thread releases the lock only once the entry is in place; the
kernel releases it if the holder dies.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import errno
import hashlib
import itertools
import os
import queue
import stat
import sys
import threading
from pathlib import Path
from typing import Any

import orjson
from pydantic import ConfigDict, Field, ValidationError

from gaia_eval.artifacts.base import Strict, Usage
from gaia_eval.errors import StorageError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no advisory locks; concurrent runs may pay twice there
    fcntl = None  # type: ignore[assignment]

CACHE_FORMAT = "v2"
DEFAULT_MAX_BYTES = 2 * 1024**3
MAX_ENTRY_BYTES = 64 * 1024**2  # no reply is this large; a bigger file is not an entry we wrote
_EVICT_TO = 0.8
_POLL_FIRST_S, _POLL_MAX_S = 0.002, 0.05  # a waiter's first and longest pause between tries of a held lock


def default_cache_dir() -> Path:
    """$GAIA_EVAL_CACHE_DIR, else $XDG_CACHE_HOME/gaia-eval, else ~/.cache/gaia-eval."""
    explicit = os.environ.get("GAIA_EVAL_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "gaia-eval"


class CachedToolCall(Strict):
    model_config = ConfigDict(extra="forbid", strict=True)

    id: str
    name: str
    arguments: dict[str, Any]


class CachedTokenLogprob(Strict):
    model_config = ConfigDict(extra="forbid", strict=True)

    token: str
    logprob: float
    top: list[list[Any]] = Field(default_factory=list)  # [alternative token, its logprob] pairs


class CachedReply(Strict):
    """What an entry's body holds: a model's reply, as the provider read it."""

    model_config = ConfigDict(extra="forbid", strict=True)

    text: str
    usage: Usage
    latency_s: float = 0.0
    finish_reason: str | None
    model: str
    data: Any = None
    tool_calls: list[CachedToolCall] = Field(default_factory=list)
    logprobs: list[CachedTokenLogprob] | None = None  # asked for with top_logprobs (G-Eval)


def encode_entry(key: str, reply: CachedReply) -> bytes:
    body = reply.model_dump_json().encode()
    header = orjson.dumps({"key": key, "sha256": hashlib.sha256(body).hexdigest()})
    return header + b"\n" + body


def decode_entry(key: str, raw: bytes) -> tuple[CachedReply | None, str | None]:
    """(the reply, None), or (None, why the bytes are not this key's entry)."""
    newline = raw.find(b"\n")
    try:
        header = orjson.loads(raw[:newline]) if newline > 0 else None
    except orjson.JSONDecodeError:
        header = None
    if not isinstance(header, dict):
        return None, "has no valid header line"
    if header.get("key") != key:
        return None, "holds another request's entry (its key differs)"
    body = raw[newline + 1:]
    if hashlib.sha256(body).hexdigest() != header.get("sha256"):
        return None, "fails its checksum (damaged or edited)"
    try:
        return CachedReply.model_validate_json(body), None
    except ValidationError as exc:
        where = ".".join(str(p) for p in exc.errors()[0]["loc"]) or "body"
        return None, f"is malformed ({where}: {exc.errors()[0]['msg']})"


class _RangeLocks:
    """Per-key fetch locks as one-byte POSIX record locks (fcntl F_SETLK) at the key's offset in one lock file:
    taking or releasing one is a single system call, with no file created or removed per request (creating a
    lock file per key put directory operations on the calling path). Record locks belong to the process, so
    this process's holders are also kept in `held`, and the file is opened once and never closed (closing any
    descriptor of it would drop every lock the process holds on it)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.held: set[str] = set()
        self._fd: int | None = None
        self._opened = False

    def _descriptor(self) -> int | None:
        if not self._opened:
            self._opened = True
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
            except OSError:
                self._fd = None  # a cache folder we cannot write: calls go on unlocked (and uncached)
        return self._fd

    def try_lock(self, key: str) -> bool:
        if key in self.held:
            return False
        fd = self._descriptor()
        if fd is not None and fcntl is not None:
            try:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, _offset(key))
            except OSError as exc:
                if exc.errno in (errno.EACCES, errno.EAGAIN):
                    return False  # another process holds it
        self.held.add(key)
        return True

    def unlock(self, key: str) -> None:
        fd = self._fd
        if fd is not None and fcntl is not None:
            with contextlib.suppress(OSError):
                fcntl.lockf(fd, fcntl.LOCK_UN, 1, _offset(key))
        self.held.discard(key)  # after the unlock: a caller of this process then takes it anew


def _offset(key: str) -> int:
    return int(key[:15], 16)  # 60 bits of the key: a byte offset no two keys of one cache share in practice


_RANGE_LOCKS: dict[Path, _RangeLocks] = {}
_TEMP_NAMES = itertools.count()


class KeyLock:
    """The fetch lock of one key, held until `release` (by the caller, or by the writer thread once the
    entry is in place)."""

    def __init__(self, locks: _RangeLocks, key: str) -> None:
        self._locks, self._key = locks, key
        self._held = False

    def try_acquire(self) -> bool:
        self._held = self._locks.try_lock(self._key)
        return self._held

    def release(self) -> None:
        if self._held:
            self._held = False
            self._locks.unlock(self._key)


class ResponseStore:
    """Key -> reply files under one root. Keys are sha256 hex digests."""

    def __init__(self, root: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.root = Path(root) / CACHE_FORMAT
        self.max_bytes = max_bytes
        self.failure: StorageError | None = None  # the first write the writer thread could not make
        self._size: int | None = None  # bytes in the cache, counted by the writer thread after its first walk
        self._lock_file = self.root.resolve() / "fetch.lock"  # one lock table per file, however the root is spelled

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key[2:]}.json"

    async def lock(self, key: str) -> KeyLock:
        """The key's fetch lock, waiting (without blocking the event loop) while another caller holds it."""
        lock = KeyLock(_RANGE_LOCKS.setdefault(self._lock_file, _RangeLocks(self._lock_file)), key)
        pause = _POLL_FIRST_S
        while not lock.try_acquire():
            await asyncio.sleep(pause)
            pause = min(pause * 2, _POLL_MAX_S)
        return lock

    def get(self, key: str) -> CachedReply | None:
        """The reply stored for `key`, or None. An entry that is not a valid reply for this key is removed with
        a warning on stderr."""
        path = self._path(key)
        raw, problem = _read_regular(path)
        if raw is None and problem is None:
            return None
        reply = None
        if raw is not None:
            reply, problem = decode_entry(key, raw)
        if reply is None:
            removed = _remove(path)
            print(f"warning: response cache entry {path} {problem}; {'removed' if removed else 'left in place'}, "
                  "asking the model instead", file=sys.stderr)
            return None
        with contextlib.suppress(OSError):
            os.utime(path, follow_symlinks=False)  # recency for eviction
        return reply

    def put(self, key: str, reply: CachedReply) -> None:
        """Write the entry now (the writer thread's job; tests and tools call it directly)."""
        self.write(key, encode_entry(key, reply))

    def put_later(self, key: str, reply: CachedReply, lock: KeyLock | None = None) -> None:
        """Hand the entry to the writer thread, which encodes and writes it, then releases `lock`."""
        _WRITER.submit(self._write_job, key, reply, lock)

    def discard_later(self, key: str) -> None:
        """Remove the key's entry after any write of it still queued (the caller found the reply unusable)."""
        _WRITER.submit(self._discard_job, key, None, None)

    def _write_job(self, key: str, reply: CachedReply) -> None:
        try:
            self.write(key, encode_entry(key, reply))
        except StorageError as exc:
            self.failure = self.failure or exc

    def _discard_job(self, key: str, _: None) -> None:
        _remove(self._path(key))

    def write(self, key: str, data: bytes) -> None:
        path = self._path(key)
        # A temp name of our own (pid and a counter) rather than tempfile.mkstemp: the same atomic create, without
        # its random names and retries, which were most of the writer thread's time per entry.
        tmp = path.with_name(f".{path.stem}.{os.getpid()}.{next(_TEMP_NAMES)}.tmp")
        try:
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
            except FileNotFoundError:  # the entry's shard folder does not exist yet
                path.parent.mkdir(parents=True, exist_ok=True)
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
            try:
                with os.fdopen(fd, "wb", buffering=0) as fh:
                    if fh.write(data) != len(data):
                        raise OSError(errno.ENOSPC, "short write")
                os.replace(tmp, path)
            except BaseException:
                _remove(tmp)
                raise
        except OSError as exc:
            raise StorageError(
                f"cannot write the response cache ({exc.strerror or exc})",
                file=str(path),
                fix="free disk space, set GAIA_EVAL_CACHE_DIR to a writable folder, or run with --no-cache",
            ) from None
        self._size = self.size() if self._size is None else self._size + len(data)
        if self._size > self.max_bytes:
            self.evict()

    @staticmethod
    def flush() -> None:
        """Wait until every handed-over write of this process is on disk."""
        _WRITER.flush()

    def entries(self) -> list[tuple[float, int, Path]]:
        """(mtime, size, path) of every entry."""
        found: list[tuple[float, int, Path]] = []
        try:
            shards = list(os.scandir(self.root))
        except OSError:
            return found
        for shard in shards:
            if not shard.is_dir(follow_symlinks=False):
                continue
            try:
                for entry in os.scandir(shard.path):
                    if entry.name.endswith(".json"):
                        try:
                            st = entry.stat(follow_symlinks=False)
                        except OSError:
                            continue  # removed by another process meanwhile
                        found.append((st.st_mtime, st.st_size, Path(entry.path)))
            except OSError:
                continue
        return found

    def size(self) -> int:
        return sum(size for _, size, _ in self.entries())

    def evict(self) -> int:
        """Delete least recently used entries while the cache is over its bound; returns how many went."""
        entries = self.entries()
        total = sum(size for _, size, _ in entries)
        removed = 0
        if total > self.max_bytes:
            for _, size, path in sorted(entries, key=lambda e: e[0]):
                if total <= self.max_bytes * _EVICT_TO:
                    break
                _remove(path)
                total -= size
                removed += 1
        self._size = total
        return removed


class _Writer:
    """The process's one cache-writing thread, started on first use; jobs run in the order they were given."""

    def __init__(self) -> None:
        self._jobs: queue.Queue[tuple[Any, str, Any, KeyLock | None]] = queue.Queue()
        self._started = False
        self._start_lock = threading.Lock()

    def submit(self, job: Any, key: str, data: Any, lock: KeyLock | None) -> None:
        with self._start_lock:
            if not self._started:
                threading.Thread(target=self._run, name="gaia-eval-cache-writer", daemon=True).start()
                self._started = True
        self._jobs.put((job, key, data, lock))

    def flush(self) -> None:
        if self._started:
            self._jobs.join()

    def _run(self) -> None:
        while True:
            job, key, data, lock = self._jobs.get()
            try:
                job(key, data)
            except Exception as exc:
                print(f"warning: response cache: {exc}", file=sys.stderr)
            finally:
                if lock is not None:
                    lock.release()
                self._jobs.task_done()


_WRITER = _Writer()
atexit.register(_WRITER.flush)  # a run that ends keeps the replies it was handed


def _read_regular(path: Path) -> tuple[bytes | None, str | None]:
    """(bytes, None) of a regular file; (None, None) when there is nothing at `path`; (None, why) otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return None, "is a symbolic link"
        if exc.errno == errno.ENOTDIR:
            return None, None
        return None, f"cannot be read ({exc.strerror})"
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None, "is not a regular file"
        if st.st_size > MAX_ENTRY_BYTES:
            return None, f"is too large ({st.st_size} bytes)"
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks), None
    except OSError as exc:
        return None, f"cannot be read ({exc.strerror})"
    finally:
        os.close(fd)


def _remove(path: Path) -> bool:
    try:
        path.unlink()
        return True
    except IsADirectoryError:
        try:
            path.rmdir()
            return True
        except OSError:
            return False
    except FileNotFoundError:
        return True
    except OSError:
        return False
