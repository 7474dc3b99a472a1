"""A workspace on object storage: -i/-o/-d/-g/-e and the viewer's folders may be `s3://bucket/prefix` (or another
fsspec URL; cli/workspace.py swaps them for their mirrors).

The storage seam is a local mirror: before a stage runs, the objects under each remote input and output are
brought into a folder of this machine's cache (only those whose ETag changed since the last pull), the stage
runs on that folder exactly as on disk (atomic writes, journals, the same bytes and fingerprints), and after it
every file it made or changed is put back as one whole object (an object is never seen half written), and the
objects of files it removed (journals, shards' parts) are deleted. While it runs, its lease's heartbeat puts back
what it finished so far (journals), so a run killed on one machine resumes on any other from the bucket
(remote_lock.py: the lock object held as a lease).

Paths an artifact records (an experiment's input, an evaluation's experiment) name the URL, not the mirror:
a mirror folder holds the URL it mirrors (MIRROR_URL, read by recorded.py), and a reader finds a recorded URL
through this machine's copy of it (`local_copy`).

Endpoint and keys come from the variables the AWS tools read: AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID,
AWS_SECRET_ACCESS_KEY (and AWS_DEFAULT_REGION). fsspec and s3fs are the optional extra `s3`.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from contextlib import suppress
from pathlib import Path
from typing import Any

import orjson

from gaia_eval.errors import InputError, UsageError

_URL = re.compile(r"^([a-z][a-z0-9+]*):/+(.+)$")
MANIFEST = ".gaia-eval-mirror.json"
MIRROR_URL = ".gaia-eval-mirror-url"  # in a mirror folder: the URL it mirrors, so a path in it is recorded as the URL


def remote_url(value: str | Path | None) -> str | None:
    """The URL an option names (a click Path turns `s3://b/p` into `s3:/b/p`), or None for a local path."""
    if value is None:
        return None
    if (bare := _BARE_SCHEME.match(str(value))) is not None:  # else `-o s3://` would make a local folder "s3:"
        raise UsageError(f"'{value}' names no bucket", field="URL",
                         fix=f"pass {bare.group(1)}://BUCKET/PREFIX")
    match = _URL.match(str(value))
    if match is None or len(match.group(1)) < 2:  # "c:/..." is a Windows drive, not a scheme
        return None
    return f"{match.group(1)}://{match.group(2).rstrip('/')}"


_BARE_SCHEME = re.compile(r"^(s3a?|gs|gcs|az|abfss?):/*$")  # click folds "s3://" into "s3:"

# A silent or unreachable endpoint fails within about a minute instead of botocore's default (60 s timeouts,
# retried by botocore and again by s3fs: half an hour); s3fs still retries throttling (SlowDown) itself.
_S3_CONFIG = {"connect_timeout": 5, "read_timeout": 10, "retries": {"total_max_attempts": 1}}
_S3_RETRIES = 3


def store_error(url: str, exc: BaseException, option: str | None = None) -> InputError | None:
    """The one-line error for a store that could not be reached or refused us (no endpoint, bad keys, no such
    bucket), or None when `exc` is not the store's (a bug is not disguised as one)."""
    if not (isinstance(exc, OSError) or type(exc).__module__.split(".")[0] in ("botocore", "aiobotocore", "aiohttp")):
        return None
    reason = " ".join(str(exc).split())[:300] or type(exc).__name__
    return InputError(f"the store cannot be reached or refused the request ({type(exc).__name__}: {reason})",
                      file=url, field=option,
                      fix="check the bucket exists, AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")


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
        options["config_kwargs"] = _S3_CONFIG
    try:
        fs, root = fsspec.core.url_to_fs(url, **options)
    except ImportError as exc:
        raise UsageError(f"{url}: {exc}", fix="pip install 'gaia-eval[s3]'") from None
    if url.startswith("s3://"):
        fs.retries = _S3_RETRIES
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
        self._pushing = threading.Lock()  # the heartbeat's puts and the final one, one at a time

    @property
    def folder_url(self) -> str:
        """The URL of the mirror folder: the URL itself, or the folder of the one object it names."""
        return self.url.rsplit("/", 1)[0] if self.is_file else self.url

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
        with suppress(Exception):
            self.fs.invalidate_cache(self.root)  # a long-lived process (the viewer) lists what is there now
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
            if any(part.startswith(".") for part in rel.split("/")):  # lock objects: never pulled, never put back
                continue
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
        from gaia_eval.artifacts.store import atomic_write_text

        atomic_write_text(self.folder / MIRROR_URL, self.folder_url + "\n")
        from gaia_eval.safe_text import show_folder_as

        for shown in {str(self.folder), str(self.folder.resolve())}:  # what a command prints names the bucket
            show_folder_as(shown, self.folder_url)
        return self.local

    def push(self) -> None:
        """Put every file made or changed since the pull as one whole object; delete the objects of files the run
        removed. Dot files (locks, temp files, the manifest) stay local."""
        with self._pushing:
            self._push()

    def _push(self) -> None:
        manifest = self._manifest()
        local_files = {p.relative_to(self.folder).as_posix(): p for p in self.folder.rglob("*")
                       if p.is_file() and not any(part.startswith(".") for part in p.relative_to(self.folder).parts)}
        base = self.root if not self.is_file else str(Path(self.root).parent)
        for rel, path in sorted(local_files.items()):
            try:
                data = path.read_bytes()
            except FileNotFoundError:  # removed by the run while a heartbeat pushes
                continue
            if manifest.get(rel) == (etag := _etag(data)):  # the object already holds these bytes
                continue
            self.fs.pipe_file(f"{base}/{rel}", data)
            manifest[rel] = etag
        for rel in sorted(set(manifest) - set(local_files)):
            with suppress(FileNotFoundError):
                self.fs.rm_file(f"{base}/{rel}")
            del manifest[rel]
        # what this run put and removed, not a new listing: objects other runs (shards) put meanwhile are theirs,
        # and a later push must not take them for files this run removed
        self._save_manifest(manifest)


def local_copy(url: str) -> Path | None:
    """This machine's up-to-date copy of the object or folder a recorded URL names, or None when it is gone or
    cannot be reached (a reader then says so, as for a moved local file)."""
    try:
        mirror = Mirror(url)
        local = mirror.pull()
    except Exception as exc:
        if isinstance(exc, UsageError) or store_error(url, exc) is not None:
            return None
        raise
    return local if mirror._manifest() and local.exists() else None


def _etag(data: bytes) -> str:
    return '"' + hashlib.md5(data, usedforsecurity=False).hexdigest() + '"'


__all__ = ["MIRROR_URL", "Mirror", "local_copy", "remote_url", "store_error"]
