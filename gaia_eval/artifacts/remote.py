"""A workspace on object storage: any -i/-o/-d/-g option may be `s3://bucket/prefix` (or another fsspec URL).

The storage seam is a local mirror: before a stage runs, the objects under each remote input and output are
brought into a folder of this machine's cache (only those whose ETag changed since the last pull), the stage
runs on that folder exactly as on disk (atomic writes, journals, the same bytes and fingerprints), and after it
every file it made or changed is put back as one whole object (an object is never seen half written), and the
objects of files it removed (journals, shards' parts) are deleted. A killed run resumes on the same machine from
its mirror.

Locks across machines: a run that writes a remote folder first creates its lock object there with a
create-only conditional write (`If-None-Match: *`), `.gaia-eval.lock`, or `.gaia-eval.shard-K-of-N.lock` for a
shard, so of two machines given the same folder (or the same shard) one runs and the other stops with a line
naming the holder; an unsharded run also stops while shard locks are there. The holder deletes its lock as it
ends. A lock left by a killed run names its host and pid: a run on that host takes it over once that pid is
gone (the local folder lock of the mirror serialises the runs of one host); from another host, delete it.

Endpoint and keys come from the variables the AWS tools read: AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID,
AWS_SECRET_ACCESS_KEY (and AWS_DEFAULT_REGION). fsspec and s3fs are the optional extra `s3`.
"""

from __future__ import annotations

import hashlib
import os
import re
import socket
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import orjson

from gaia_eval.artifacts.lock import LOCK_NAME, FolderBusyError
from gaia_eval.errors import InputError, UsageError

_URL = re.compile(r"^([a-z][a-z0-9+]*):/+(.+)$")
MANIFEST = ".gaia-eval-mirror.json"


def remote_url(value: str | Path | None) -> str | None:
    """The URL an option names (a click Path turns `s3://b/p` into `s3:/b/p`), or None for a local path."""
    if value is None:
        return None
    match = _URL.match(str(value))
    if match is None or len(match.group(1)) < 2:  # "c:/..." is a Windows drive, not a scheme
        return None
    return f"{match.group(1)}://{match.group(2).rstrip('/')}"


def _filesystem(url: str) -> tuple[Any, str]:
    try:
        import fsspec
    except ImportError:
        raise UsageError(f"{url}: a workspace on object storage needs fsspec and s3fs", field="URL",
                         fix="pip install 'gaia-eval[s3]'") from None
    options: dict[str, Any] = {}
    if url.startswith("s3://"):
        endpoint = os.environ.get("AWS_ENDPOINT_URL")
        if endpoint:
            options["client_kwargs"] = {"endpoint_url": endpoint}
    try:
        fs, root = fsspec.core.url_to_fs(url, **options)
    except ImportError as exc:
        raise UsageError(f"{url}: {exc}", fix="pip install 'gaia-eval[s3]'") from None
    return fs, root.rstrip("/")


def mirror_folder(url: str) -> Path:
    """This machine's mirror of `url`: in GAIA_EVAL_CACHE_DIR (else XDG_CACHE_HOME or ~/.cache)/gaia-eval/."""
    base = os.environ.get("GAIA_EVAL_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "gaia-eval")
    digest = hashlib.sha256(url.encode()).hexdigest()[:16]
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", url.split("://", 1)[1])[-60:]
    return Path(base) / "workspaces" / f"{name}-{digest}"


class Mirror:
    """One remote folder or file and its local copy."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.fs, self.root = _filesystem(url)
        self.folder = mirror_folder(url)
        self.is_file = False

    @property
    def local(self) -> Path:
        return self.folder / Path(self.root).name if self.is_file else self.folder

    def _manifest(self) -> dict[str, str]:
        try:
            data = orjson.loads((self.folder / MANIFEST).read_bytes())
        except (OSError, orjson.JSONDecodeError):
            return {}
        return data if isinstance(data, dict) else {}

    def _save_manifest(self, manifest: dict[str, str]) -> None:
        from gaia_eval.artifacts.store import atomic_write_bytes

        atomic_write_bytes(self.folder / MANIFEST, orjson.dumps(manifest, option=orjson.OPT_SORT_KEYS))

    def _remote_objects(self) -> dict[str, str]:
        """key relative to the root -> ETag, of every object under the root (or the one object it names)."""
        try:
            if self.fs.isfile(self.root):
                self.is_file = True
                info = self.fs.info(self.root)
                return {Path(self.root).name: str(info.get("ETag") or info.get("etag") or info.get("size"))}
            found = self.fs.find(self.root, detail=True)
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise InputError(f"cannot be listed ({exc})", file=self.url,
                             fix="check the bucket, AWS_ENDPOINT_URL and the keys") from None
        objects = {}
        for key, info in found.items():
            rel = key[len(self.root):].lstrip("/")
            if rel and info.get("type", "file") != "directory":
                objects[rel] = str(info.get("ETag") or info.get("etag") or info.get("size"))
        return objects

    def pull(self) -> Path:
        """Bring the objects that changed since the last pull; drop local files whose objects are gone."""
        remote = self._remote_objects()
        self.folder.mkdir(parents=True, exist_ok=True)
        manifest = self._manifest()
        base = self.root if not self.is_file else str(Path(self.root).parent)
        for rel, etag in remote.items():
            local = self.folder / rel
            if manifest.get(rel) != etag or not local.exists():
                from gaia_eval.artifacts.store import atomic_write_bytes

                atomic_write_bytes(local, self.fs.cat_file(f"{base}/{rel}"))
        for rel in set(manifest) - set(remote):
            (self.folder / rel).unlink(missing_ok=True)
        self._save_manifest(remote)
        return self.local

    def push(self) -> None:
        """Put every file made or changed since the pull as one whole object; delete the objects of files the run
        removed. Dot files (locks, temp files, the manifest) stay local."""
        manifest = self._manifest()
        local_files = {p.relative_to(self.folder).as_posix(): p for p in self.folder.rglob("*")
                       if p.is_file() and not any(part.startswith(".") for part in p.relative_to(self.folder).parts)}
        base = self.root if not self.is_file else str(Path(self.root).parent)
        for rel, path in sorted(local_files.items()):
            data = path.read_bytes()
            if manifest.get(rel) == _etag(data):  # the object already holds these bytes
                continue
            self.fs.pipe_file(f"{base}/{rel}", data)
        for rel in set(manifest) - set(local_files):
            with suppress(FileNotFoundError):
                self.fs.rm_file(f"{base}/{rel}")
        self._save_manifest(self._remote_objects())


def _etag(data: bytes) -> str:
    return '"' + hashlib.md5(data, usedforsecurity=False).hexdigest() + '"'


@contextmanager
def remote_lock(mirror: Mirror, name: str, option: str) -> Iterator[None]:
    """Hold lock object `name` in the remote folder (create-only), or raise FolderBusyError."""
    key = f"{mirror.root}/{name}"
    info = {"host": socket.gethostname(), "pid": os.getpid(), "started": time.time(),
            "command": " ".join(["gaia-eval", *sys.argv[1:]])[:300]}
    with _host_lock(mirror):  # one process of this host at a time may judge a lock stale and take it over
        for _ in range(2):
            try:
                mirror.fs.pipe_file(key, orjson.dumps(info), mode="create")
                break
            except FileExistsError:
                holder = _read_holder(mirror, key)
                if not _stale_here(holder):
                    raise FolderBusyError(
                        f"{_describe(holder)} holds {name} here", file=mirror.url, field=option,
                        fix=f"wait for it to finish; if that run is gone, delete {mirror.url}/{name}") from None
                mirror.fs.rm_file(key)  # left by a killed run of this host
        else:
            raise FolderBusyError(f"another run took {name} here", file=mirror.url, field=option,
                                  fix="wait for it to finish")
    try:
        yield
    finally:
        with suppress(FileNotFoundError):
            mirror.fs.rm_file(key)


@contextmanager
def _host_lock(mirror: Mirror) -> Iterator[None]:
    from gaia_eval.artifacts.lock import release_lock_file, take_lock_file

    path = mirror.folder.parent / f".{mirror.folder.name}.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    for _ in range(600):
        fd, locked = take_lock_file(path)
        if locked:
            break
        os.close(fd)
        time.sleep(0.05)
    else:
        raise FolderBusyError("another run of this host is taking the lock", file=mirror.url, fix="try again")
    try:
        yield
    finally:
        release_lock_file(path, fd)


def remote_shard_locks(mirror: Mirror) -> list[str]:
    """The shard lock objects in the remote folder."""
    try:
        names = [Path(p).name for p in mirror.fs.ls(mirror.root, detail=False)]
    except FileNotFoundError:
        return []
    return sorted(n for n in names if n.startswith(".gaia-eval.shard-") and n.endswith(".lock"))


def _read_holder(mirror: Mirror, key: str) -> dict:
    try:
        holder = orjson.loads(mirror.fs.cat_file(key))
    except (OSError, orjson.JSONDecodeError):
        return {}
    return holder if isinstance(holder, dict) else {}


def _stale_here(holder: dict) -> bool:
    if holder.get("host") != socket.gethostname() or not isinstance(holder.get("pid"), int):
        return False
    try:
        os.kill(holder["pid"], 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False


def _describe(holder: dict) -> str:
    if not holder:
        return "another gaia-eval run"
    started = time.strftime("%H:%M:%S", time.localtime(holder.get("started", 0)))
    return f"a gaia-eval run on {holder.get('host')} (pid {holder.get('pid')}, started {started})"


__all__ = ["LOCK_NAME", "Mirror", "remote_lock", "remote_shard_locks", "remote_url"]
