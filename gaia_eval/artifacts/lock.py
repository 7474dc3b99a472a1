"""One run at a time per output folder: a stage holds an exclusive lock on its output folder while it works.

Two runs writing one folder would both see the same unfinished items and pay for each of them twice. The lock
is an OS lock (flock) on the output folder's directory itself, so every run that writes the folder meets it,
whatever its path spelling (symlinks, `..`, relative) or its environment (HOME, XDG_CACHE_HOME,
GAIA_EVAL_CACHE_DIR), and deleting a file cannot undo it; the kernel releases it however the holder ends, kill -9
included: there are no stale locks to clean up. A lock that cannot be taken (a read-only folder) stops the run
with one line: it never runs unlocked. The holder writes its pid, command line and start time into
`.gaia-eval.lock`, for the one-line message the second run prints, and removes the file when it is done (and the
folder, if the run created it and left it empty), so a run refused for bad input leaves no trace. A lock file
left by a killed run is a dot file that every folder reader skips."""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import orjson

from gaia_eval.errors import UsageError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no advisory locks; runs are not serialised there
    fcntl = None  # type: ignore[assignment]

LOCK_NAME = ".gaia-eval.lock"


class FolderBusyError(UsageError):
    """Another gaia-eval run is writing the same output folder."""


def _flock_while_current(path: Path, open_it: Callable[[], int], *, follow: bool) -> tuple[int, bool]:
    """(fd, True) holding an exclusive flock on what `open_it` opens at `path`, or (fd, False) while another holder
    has it (the caller closes fd). What is at `path` once locked must be what was opened (device and inode): a
    holder that removes it on release leaves a lock taken on the old one guarding nothing, so it is opened anew."""
    assert fcntl is not None
    while True:
        fd = open_it()
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                return fd, False
            os.close(fd)
            raise
        try:
            current, opened = os.stat(path, follow_symlinks=follow), os.fstat(fd)
            if (current.st_dev, current.st_ino) == (opened.st_dev, opened.st_ino):
                return fd, True
        except FileNotFoundError:
            pass
        os.close(fd)


def take_folder_lock(folder: Path) -> tuple[int, bool]:
    """(fd, True) holding an exclusive flock on the folder itself, or (fd, False) while another holder has it (the
    caller closes fd). The lock is on the directory, not on a file in it: deleting `.gaia-eval.lock` (which only
    describes the holder) cannot let a second run in beside the first. A folder removed and made anew between the
    open and the lock (a holder removes the folder it created and left empty) is another directory, told by its
    device and inode, so the lock taken on the old one guards nothing: the folder is opened anew."""
    return _flock_while_current(folder, lambda: os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC),
                                follow=True)


def take_lock_file(path: Path) -> tuple[int, bool]:
    """(fd, True) holding an exclusive flock on `path` (created if missing), or (fd, False) while another
    holder has it (the caller closes fd). Raises OSError when the file cannot be opened. A holder removes the
    file on release, so a lock taken on a file no longer at `path` guards nothing: then `path` is opened anew.
    (The shards' locks, and the folder lock's file, which a shard probes to see a run without --shard.)"""
    flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    return _flock_while_current(path, lambda: os.open(path, flags, 0o600), follow=False)


def release_lock_file(path: Path, fd: int) -> None:
    """Remove the lock file while still holding it, then let it go."""
    with suppress(OSError):
        path.unlink()
    os.close(fd)


def _write_holder(path: Path) -> tuple[int, bool]:
    """The lock file, flocked too (a shard probes it to see a run without --shard) and describing this holder for
    the message a second run prints; (fd, False) when another process holds it. Something that is no regular
    file in its place (a folder, a link) is an OSError: the run does not start."""
    fd, locked = take_lock_file(path)
    if locked:
        info = {"pid": os.getpid(), "command": " ".join(["gaia-eval", *sys.argv[1:]])[:300],
                "folder": str(path.parent), "started": time.time()}
        with contextlib.suppress(OSError):  # the message of a second run then just says "another gaia-eval run"
            os.ftruncate(fd, 0)
            os.pwrite(fd, orjson.dumps(info), 0)
    return fd, locked


def _holder_at(path: Path) -> str:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return "another gaia-eval run"
    try:
        return _holder(fd)
    finally:
        os.close(fd)


def _holder(fd: int) -> str:
    try:
        raw = os.pread(fd, 4096, 0)
        info = orjson.loads(raw) if raw else {}
    except (OSError, orjson.JSONDecodeError):
        info = {}
    if not isinstance(info, dict) or not info:
        return "another gaia-eval run"
    started = time.strftime("%H:%M:%S", time.localtime(info.get("started", 0)))
    return f"another gaia-eval run (pid {info.get('pid')}, `{info.get('command', '?')}`, started {started})"


def _missing_parents(folder: Path) -> list[Path]:
    """`folder` and its ancestors that do not exist yet, deepest first."""
    missing = []
    probe = folder
    while not probe.exists() and probe.parent != probe:
        missing.append(probe)
        probe = probe.parent
    return missing


def _cannot_lock(folder: Path, option: str, exc: OSError) -> UsageError:
    return UsageError(f"cannot take the lock {LOCK_NAME} here ({exc.strerror or exc}), so this run would not be "
                      "the only one writing it", file=folder, field=option,
                      fix="pass an output folder you can write to")


@contextmanager
def folder_lock(folder: Path, option: str = "-o/--output-dir") -> Iterator[None]:
    """Hold the output folder's lock for the duration of the block, or raise FolderBusyError at once (another
    run holds it) or UsageError (it cannot be taken). The folder is created if missing."""
    if fcntl is None:
        yield
        return
    folder = Path(folder)
    created = _missing_parents(folder)
    path = folder / LOCK_NAME
    for attempt in range(5):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            folder_fd, locked = take_folder_lock(folder)
            break
        except FileNotFoundError as exc:  # a run that created the folder removed it as it ended: make it again
            if attempt == 4:
                raise _cannot_lock(folder, option, exc) from None
        except OSError as exc:
            raise _cannot_lock(folder, option, exc) from None
    if not locked:
        os.close(folder_fd)
        raise FolderBusyError(
            f"{_holder_at(path)} is writing this folder",
            file=folder,
            field=option,
            fix="wait for it to finish (it resumes from what it saved), or pass another output folder",
        )
    try:
        fd, file_locked = _write_holder(path)
    except OSError as exc:
        os.close(folder_fd)
        _remove_made(created)
        raise _cannot_lock(folder, option, exc) from None
    if not file_locked:  # an older run, or a shard probing this very moment
        holder = _holder(fd)
        os.close(fd)
        os.close(folder_fd)
        raise FolderBusyError(
            f"{holder} is writing this folder", file=folder, field=option,
            fix="wait for it to finish (it resumes from what it saved), or pass another output folder",
        )
    try:
        yield
    finally:
        release_lock_file(path, fd)  # unlinked while still held: a second run never reads a finished run's record
        os.close(folder_fd)
        _remove_made(created)


def _remove_made(created: list[Path]) -> None:
    for made in created:  # deepest first; a folder the run wrote into is not empty and stays
        try:
            made.rmdir()
        except OSError:
            break
