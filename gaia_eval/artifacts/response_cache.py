"""The on-disk response cache: one JSON file per request key, written atomically, bounded in size.

Layout: `<root>/v1/<2 hex>/<62 hex>.json`. Each file is written to a temp file in the same folder and renamed,
so two processes filling the cache at once never leave a torn entry (the last rename wins, and both wrote the
same answer to the same request). A hit touches the file's mtime; when the cache grows past its bound, the
least recently used entries are deleted until it is back under 80 % of it. Entries that cannot be read are
treated as misses and removed.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import orjson

from gaia_eval.errors import StorageError

CACHE_FORMAT = "v1"
DEFAULT_MAX_BYTES = 2 * 1024**3
_EVICT_TO = 0.8
_CHECK_EVERY = 64  # writes between size checks; a check walks the whole cache


def default_cache_dir() -> Path:
    """$GAIA_EVAL_CACHE_DIR, else $XDG_CACHE_HOME/gaia-eval, else ~/.cache/gaia-eval."""
    explicit = os.environ.get("GAIA_EVAL_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "gaia-eval"


class ResponseStore:
    """Key -> JSON object files under one root. Keys are sha256 hex digests."""

    def __init__(self, root: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.root = Path(root) / CACHE_FORMAT
        self.max_bytes = max_bytes
        self._writes = 0

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key[2:]}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        path = self._path(key)
        try:
            data = path.read_bytes()
        except OSError:
            return None
        try:
            value = orjson.loads(data)
        except orjson.JSONDecodeError:
            _unlink(path)  # only a foreign writer could leave this; our writes are atomic
            return None
        try:
            os.utime(path)  # recency for eviction
        except OSError:
            pass
        return value if isinstance(value, dict) else None

    def put(self, key: str, value: dict[str, Any]) -> None:
        path = self._path(key)
        data = orjson.dumps(value)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=path.parent)
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
                os.replace(tmp, path)
            except BaseException:
                _unlink(Path(tmp))
                raise
        except OSError as exc:
            raise StorageError(
                f"cannot write the response cache ({exc.strerror or exc})",
                file=str(self.root),
                fix="free disk space, set GAIA_EVAL_CACHE_DIR to a writable folder, or run with --no-cache",
            ) from None
        self._writes += 1
        if self._writes % _CHECK_EVERY == 1:
            self.evict()

    def entries(self) -> list[tuple[float, int, Path]]:
        """(mtime, size, path) of every entry."""
        found: list[tuple[float, int, Path]] = []
        try:
            shards = list(os.scandir(self.root))
        except OSError:
            return found
        for shard in shards:
            if not shard.is_dir():
                continue
            try:
                for entry in os.scandir(shard.path):
                    if entry.name.endswith(".json"):
                        try:
                            st = entry.stat()
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
        if total <= self.max_bytes:
            return 0
        removed = 0
        for _, size, path in sorted(entries, key=lambda e: e[0]):
            if total <= self.max_bytes * _EVICT_TO:
                break
            _unlink(path)
            total -= size
            removed += 1
        return removed


def _unlink(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass
