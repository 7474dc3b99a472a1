"""Locks across machines on object storage: a lock object held as a lease.

A run that writes a remote folder first creates its lock object there with a create-only conditional write
(`If-None-Match: *`): `.gaia-eval.lock`, or `.gaia-eval.shard-K-of-N.lock` for a shard. The object names its
holder (host, pid, command) and when its lease ends; the holder renews it every third of the lease (a heartbeat,
which also puts back what the run has finished so far) with a write conditional on the ETag it last wrote
(`If-Match`), and deletes it, again only if it is still its own, as it ends.

A newcomer that finds the object stops with a line naming the holder while the lease runs. Once the lease has
ended (the holder was killed, or lost its machine), the newcomer takes the lock over by replacing exactly the
object it read (`If-Match` on that object's ETag), so of two newcomers one wins and the other stops. A holder
whose renewal fails because another run took the lock over has lost it: it puts back nothing more and its run
fails. A lock left by a killed run of this machine (its pid gone) is taken over at once, lease or not; a machine
is its host name and pid namespace, or GAIA_EVAL_MACHINE where host names are not unique (containers).

Clocks: the lease's end is written by the holder's clock and read by the newcomer's, so machines' clocks must
agree to well within a lease (NTP does); GAIA_EVAL_LEASE_S sets it (60 s by default).
"""

from __future__ import annotations

import hashlib
import os
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from gaia_eval.artifacts.lock import FolderBusyError
from gaia_eval.errors import InputError, UsageError

if TYPE_CHECKING:
    from gaia_eval.artifacts.remote import Mirror

DEFAULT_LEASE_S = 60.0
# a lock put that waits longer fails (an endpoint that accepts and never answers: botocore's PUT waits for
# "100 Continue" with no timeout of its own); fsspec's sync() takes it
CALL_TIMEOUT_S = 30.0
LEASE_VARIABLE = "GAIA_EVAL_LEASE_S"


def lease_seconds() -> float:
    """The lease length: GAIA_EVAL_LEASE_S, else 60 s."""
    value = os.environ.get(LEASE_VARIABLE)
    if not value:
        return DEFAULT_LEASE_S
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < 86400 * 7:
        raise UsageError(f"{LEASE_VARIABLE}={value!r} is not a number of seconds", field=LEASE_VARIABLE,
                         fix=f"set it to the lease of a remote lock in seconds, e.g. {LEASE_VARIABLE}=60")
    return seconds


class Lease:
    """One lock object of a remote folder, held by this process: taken, renewed and released conditionally."""

    def __init__(self, mirror: Mirror, name: str, option: str, *, lease_s: float | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.mirror, self.name, self.option = mirror, name, option
        self.key = f"{mirror.root}/{name}"
        self.lease_s = lease_seconds() if lease_s is None else lease_s
        self.clock = clock
        self.etag: str | None = None
        self.lost = False
        self.started = clock()
        self.heartbeat: Heartbeat | None = None

    def _body(self) -> bytes:
        now = self.clock()
        return orjson.dumps({"host": _machine(), "pid_ns": _pid_namespace(), "pid": os.getpid(),
                             "started": self.started, "renewed": now, "expires": now + self.lease_s,
                             "lease_s": self.lease_s, "command": " ".join(["gaia-eval", *sys.argv[1:]])[:300]})

    def _put(self, body: bytes, *, if_match: str | None) -> str:
        """Put the lock object create-only (or replacing exactly the object with ETag `if_match`); its new ETag.
        FileExistsError when another run's object is in the way."""
        fs = self.mirror.fs
        if not hasattr(fs, "call_s3"):  # another fsspec store: create-only works, a conditional replace may not
            if if_match is not None:
                raise UsageError(f"taking over a lease needs S3 conditional writes ({self.mirror.url})",
                                 fix=f"delete {self.mirror.url}/{self.name} once its holder is gone")
            fs.pipe_file(self.key, body, mode="create")
            return _etag(body)
        bucket, key, _ = fs.split_path(self.key)
        match = {"IfMatch": if_match} if if_match is not None else {"IfNoneMatch": "*"}
        try:
            out = fs.call_s3("put_object", Bucket=bucket, Key=key, Body=body, timeout=CALL_TIMEOUT_S, **match)
        except FileNotFoundError:  # the object we meant to replace is gone: someone released or took it
            if if_match is None:  # a create-only put has no object to find: the bucket is missing
                raise InputError("the bucket does not exist", file=self.mirror.url, field=self.option,
                                 fix="create it, or check its name and AWS_ENDPOINT_URL") from None
            raise FileExistsError(self.key) from None
        except OSError as exc:
            if if_match is not None and ("Precondition" in str(exc) or getattr(exc, "errno", None) == 22):
                raise FileExistsError(self.key) from None
            raise
        return str(out.get("ETag") or _etag(body))

    def acquire(self) -> None:
        """Take the lock, or raise FolderBusyError naming the holder while its lease runs."""
        for _ in range(3):
            try:
                self.etag = self._put(self._body(), if_match=None)
                return
            except FileExistsError:
                pass
            holder, seen = _read_lock(self.mirror, self.key)
            if seen is None:  # released between our write and our read: try again
                continue
            if not any(isinstance(holder.get(k), (int, float)) for k in ("expires", "started")):
                raise FolderBusyError(  # no lease to wait for: it would never end
                    f"{self.name} here is not a lock gaia-eval wrote, or is damaged", file=self.mirror.url,
                    field=self.option, fix=f"delete {self.mirror.url}/{self.name} if no run is using the folder")
            if not (self._expired(holder) or _stale_here(holder)):
                raise FolderBusyError(
                    f"{_describe(holder)} holds {self.name} here{_until(holder)}", file=self.mirror.url,
                    field=self.option,
                    fix=f"wait for it to finish; a run that was killed is taken over once its lease ends "
                        f"({LEASE_VARIABLE}, {DEFAULT_LEASE_S:.0f} s by default)" if hasattr(self.mirror.fs, "call_s3")
                    else f"wait for it to finish; if that run is gone, delete {self.mirror.url}/{self.name}") from None
            try:
                self.etag = self._put(self._body(), if_match=seen)  # only if it is still the object we judged
                return
            except FileExistsError:
                continue  # another newcomer took it over first: read who holds it now
        raise FolderBusyError(f"another run took {self.name} here", file=self.mirror.url, field=self.option,
                              fix="wait for it to finish")

    def _expired(self, holder: dict) -> bool:
        expires = holder.get("expires")
        if isinstance(expires, (int, float)):
            return self.clock() > expires
        # a lock without a lease (an older gaia-eval's): it ends a lease after it started
        started = holder.get("started")
        return isinstance(started, (int, float)) and self.clock() > started + self.lease_s

    def renew(self) -> bool:
        """Extend the lease; False (and `lost`) once another run has taken the lock over."""
        if self.lost or self.etag is None:
            return False
        try:
            if not hasattr(self.mirror.fs, "call_s3"):  # a store without a conditional replace: no newcomer can
                self.mirror.fs.pipe_file(self.key, self._body())  # take the lock over there, so renew it as is
                return True
            self.etag = self._put(self._body(), if_match=self.etag)
        except FileExistsError:
            self.lost = True
            return False
        except OSError:
            return True  # the store did not answer: the next beat tries again while the lease runs
        return True

    def release(self) -> None:
        """Delete the lock object if it is still ours."""
        if self.lost or self.etag is None:
            return
        fs = self.mirror.fs
        with suppress(FileNotFoundError, OSError):
            if hasattr(fs, "call_s3"):
                bucket, key, _ = fs.split_path(self.key)
                fs.call_s3("delete_object", Bucket=bucket, Key=key, IfMatch=self.etag)
            else:
                fs.rm_file(self.key)
        self.etag = None


class Heartbeat:
    """Renews a lease every third of it and then calls `on_beat` (putting back what the run finished so far),
    on a daemon thread until stopped."""

    def __init__(self, lease: Lease, on_beat: Callable[[], Any] | None = None) -> None:
        self.lease, self.on_beat = lease, on_beat
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="gaia-eval-lease", daemon=True)

    def start(self) -> Heartbeat:
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(self.lease.lease_s / 3):
            try:
                if not self.lease.renew():
                    return
            except Exception:  # a store's odd answer: try again at the next beat; the final put back renews
                continue  # once more and stops if the lease was lost meanwhile
            if self.on_beat is not None:
                with suppress(Exception):  # a failed put is retried at the next beat and by the final put back
                    self.on_beat()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()


@contextmanager
def remote_lock(mirror: Mirror, name: str, option: str, *, lease_s: float | None = None) -> Iterator[Lease]:
    """Hold lock object `name` of the remote folder as a renewed lease (or raise FolderBusyError); the caller
    may set `lease.heartbeat.on_beat` once the folder is pulled, and checks `lease.lost` before putting back."""
    lease = Lease(mirror, name, option, lease_s=lease_s)
    with _host_lock(mirror):  # the runs of this host judge a lock one at a time
        lease.acquire()
    lease.heartbeat = Heartbeat(lease).start()
    try:
        yield lease
    finally:
        lease.heartbeat.stop()
        lease.release()


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


def live_shard_locks(mirror: Mirror, *, clock: Callable[[], float] = time.time) -> list[str]:
    """The shard lock objects of the remote folder whose lease still runs (a killed shard's, once its lease
    ended, does not hold up the consolidation, which pays what that shard had not finished)."""
    return live_locks(mirror, lambda n: n.startswith(".gaia-eval.shard-") and n.endswith(".lock"), clock=clock)


def live_locks(mirror: Mirror, wanted: Callable[[str], bool], *,
               clock: Callable[[], float] = time.time) -> list[str]:
    """The lock objects of the remote folder whose names are `wanted` and whose lease still runs."""
    try:
        names = [Path(p).name for p in mirror.fs.ls(mirror.root, detail=False, refresh=True)]
    except FileNotFoundError:
        return []
    held = []
    for name in sorted(n for n in names if wanted(n)):
        holder, seen = _read_lock(mirror, f"{mirror.root}/{name}")
        expires = holder.get("expires")
        if seen is not None and not (isinstance(expires, (int, float)) and clock() > expires):
            held.append(name)
    return held


def _read_lock(mirror: Mirror, key: str) -> tuple[dict, str | None]:
    """The lock object's holder and the ETag of those very bytes (None when it is gone)."""
    try:
        data = mirror.fs.cat_file(key)
    except FileNotFoundError:
        return {}, None
    try:
        holder = orjson.loads(data)
    except orjson.JSONDecodeError:
        holder = {}
    return (holder if isinstance(holder, dict) else {}), _etag(data)


def _etag(data: bytes) -> str:
    """An object's ETag as S3 gives it for a single-part put: the quoted MD5 of its bytes."""
    return '"' + hashlib.md5(data, usedforsecurity=False).hexdigest() + '"'


def _machine() -> str:
    return os.environ.get("GAIA_EVAL_MACHINE") or socket.gethostname()


def _pid_namespace() -> str | None:
    try:
        return os.readlink("/proc/self/ns/pid")
    except OSError:
        return None


def _stale_here(holder: dict) -> bool:
    """The holder ran on this machine (and in this pid namespace: a container's pids are not ours) and is gone."""
    if holder.get("host") != _machine() or not isinstance(holder.get("pid"), int):
        return False
    if holder.get("pid_ns") != _pid_namespace():
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


def _until(holder: dict) -> str:
    expires = holder.get("expires")
    if not isinstance(expires, (int, float)):
        return ""
    return f" (its lease runs to {time.strftime('%H:%M:%S', time.localtime(expires))})"


__all__ = ["Heartbeat", "Lease", "lease_seconds", "live_locks", "live_shard_locks", "remote_lock"]
