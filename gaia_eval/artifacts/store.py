"""Reading and writing artifact files: canonical JSON, content fingerprints, atomic writes, freshness checks.

This is the only module that touches artifact files on disk. Every write goes to a temp file in the same
folder, is fsynced and renamed over the target, so a reader (or a run killed with SIGKILL) never sees a
half-written file. A write whose bytes equal the file already on disk is skipped, so unchanged outputs keep
their mtime.
"""

from __future__ import annotations

import contextlib
import enum
import errno
import filecmp
import hashlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

import orjson
from pydantic import BaseModel, ValidationError

from gaia_eval.artifacts.inputs import json_bytes, parse_json, read_input_bytes, read_input_text
from gaia_eval.errors import ArtifactError, InputError, StorageError, storage_error

M = TypeVar("M", bound=BaseModel)

_CANONICAL = orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE
_COMPACT = orjson.OPT_SORT_KEYS


def to_plain(value: Any) -> Any:
    """A pydantic model (or anything orjson knows) as plain JSON-able data."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    return value


def _default(value: Any) -> Any:
    # Models nested inside plain containers (e.g. a list of QAPair being fingerprinted).
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def canonical_json(value: Any) -> bytes:
    """The bytes written to disk: sorted keys, 2-space indent, trailing newline."""
    return orjson.dumps(to_plain(value), default=_default, option=_CANONICAL)


def fingerprint_bytes(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def fingerprint(value: Any) -> str:
    """sha256 of the compact canonical JSON of `value` (a model, dict, list or scalar)."""
    return fingerprint_bytes(orjson.dumps(to_plain(value), default=_default, option=_COMPACT))


def fingerprint_file(path: Path) -> str:
    """sha256 of the file's bytes, read in chunks (a 100 MB experiment is never held whole for it)."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            digest.update(chunk)
    return "sha256:" + digest.hexdigest()


def read_prefix(path: Path, size: int) -> bytes | None:
    """The first `size` bytes of a file, or None when it cannot be read (a header check, never an error)."""
    try:
        with open(path, "rb") as fh:
            return fh.read(size)
    except OSError:
        return None


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write_bytes(path: Path, data: bytes) -> bool:
    """Write `data` to `path` atomically. Returns False (and touches nothing) when the file already holds it."""
    path = Path(path)
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass  # absent or unreadable: write it (a path that cannot be written fails below, clearly)
    return atomic_write_with(path, lambda fh: fh.write(data))


def atomic_write_with(path: Path, write: Callable[[BinaryIO], object], *, skip_if_same: bool = False) -> bool:
    """Atomically replace `path` with what `write` writes into a temp file beside it (fsynced, then renamed).
    With `skip_if_same`, a result equal to the file already there is dropped and False returned (the file keeps
    its mtime), compared on disk rather than in memory."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise _unwritable(path, exc) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        if skip_if_same and path.is_file() and filecmp.cmp(tmp, path, shallow=False):
            os.unlink(tmp)
            return False
        # mkstemp makes the file 0600; give it the mode a plain open() would (or the mode it had), so reports
        # stay readable by the team and by a web server.
        os.chmod(tmp, _mode_for(path))
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise _unwritable(path, exc) from None
        raise
    _fsync_dir(path.parent)
    return True


def _sync_filesystem_of(folder: Path, tmps: list[str]) -> None:
    """Make the temp files durable: one syncfs(2) of the folder's file system on Linux (thousands of small files
    for the price of one flush), else an fsync of each."""
    import ctypes
    import ctypes.util

    libc_name = ctypes.util.find_library("c") if hasattr(os, "O_DIRECTORY") else None
    syncfs = getattr(ctypes.CDLL(libc_name, use_errno=True), "syncfs", None) if libc_name else None
    if syncfs is not None:
        fd = os.open(folder, os.O_RDONLY)
        try:
            if syncfs(fd) == 0:
                return
        finally:
            os.close(fd)
    for tmp in tmps:
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def atomic_write_many(files: list[tuple[Path, bytes]]) -> list[bool]:
    """Write many files atomically as `atomic_write_bytes` does, each skipped when it already holds its bytes, but
    with one flush to disk for all of them instead of one per file (import-groundtruth writes 10,000 small
    files). Each file is replaced only after every temp file is durable; True for each file written."""
    pending: list[tuple[Path, str]] = []
    written: list[bool] = []
    renamed = 0
    try:
        for path, data in files:
            path = Path(path)
            try:
                if path.read_bytes() == data:
                    written.append(False)
                    continue
            except OSError:
                pass
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
            except OSError as exc:
                raise _unwritable(path, exc) from None
            pending.append((path, tmp))
            written.append(True)
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
            except OSError as exc:
                raise _unwritable(path, exc) from None
        folders = sorted({path.parent for path, _ in pending})
        for folder in folders:
            _sync_filesystem_of(folder, [tmp for path, tmp in pending if path.parent == folder])
        for path, tmp in pending:
            try:
                os.chmod(tmp, _mode_for(path))
                os.replace(tmp, path)
            except OSError as exc:
                raise _unwritable(path, exc) from None
            renamed += 1
        for folder in folders:
            _fsync_dir(folder)
    finally:
        for _path, tmp in pending[renamed:]:  # anything not renamed (an error, an interrupt) leaves no temp file
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
    return written


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _current_umask()


def _mode_for(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        return 0o666 & ~_UMASK


def _unwritable(path: Path, exc: OSError) -> InputError | StorageError:
    """A write that the file system refused: a file where a folder should be or no permission (fix the path),
    or a full disk (free space and resume)."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EIO):
        return storage_error(path, exc)
    reason = exc.strerror or type(exc).__name__
    return InputError(f"cannot be written ({reason})", file=path, fix="check the output path (-o) and its permissions")


def atomic_write_text(path: Path, text: str) -> bool:
    return atomic_write_bytes(path, text.encode("utf-8"))


def write_artifact(path: Path, artifact: BaseModel) -> bool:
    """Validate-on-write is pydantic's job; this writes the canonical bytes atomically."""
    return atomic_write_bytes(path, canonical_json(artifact))


def write_json(path: Path, value: Any) -> bool:
    """Canonical JSON for files that are exports rather than artifacts (report.json)."""
    return atomic_write_bytes(path, canonical_json(value))


def _read_input_bytes(path: Path) -> bytes:
    return json_bytes(path, read_input_bytes(path, "a JSON file"))


def load_json_file(path: Path) -> Any:
    """Parse a JSON file; a missing, unreadable, oversized or malformed file is an InputError naming it."""
    path = Path(path)
    return parse_json(path, _read_input_bytes(path))


def _parse_json(path: Path, data: bytes) -> Any:
    return parse_json(path, data)


def describe_validation_error(exc: ValidationError) -> tuple[str, str]:
    """(field path, message) of the first error pydantic reports, worded for a one-line message."""
    first = exc.errors()[0]
    loc = ".".join(str(p) for p in first.get("loc", ())) or "(top level)"
    kind = first.get("type", "")
    if kind == "extra_forbidden":
        return loc, "unknown key"
    if kind == "missing":
        return loc, "required key is missing"
    return loc, first.get("msg", "invalid value").removeprefix("Value error, ")


def parse_artifact(path: Path, data: Any, model: type[M]) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        field, msg = describe_validation_error(exc)
        cause = exc.errors()[0].get("ctx", {}).get("error")  # a validator's own ValueError may say the fix
        raise ArtifactError(
            f"not a valid {model.__name__} artifact: {msg}",
            file=path,
            field=field,
            fix=getattr(cause, "fix", None) or "regenerate it with the stage that writes it, or pass the right file",
        ) from None


def read_artifact(path: Path, model: type[M]) -> M:
    """Load and validate an artifact; any problem is an ArtifactError/InputError naming the file.

    pydantic parses the bytes straight into the model, with no intermediate dict of Python objects: for a
    10,000-item experiment that halves the peak memory of reading it."""
    path = Path(path)
    data = _read_input_bytes(path)
    try:
        return model.model_validate_json(data)
    except ValidationError as exc:
        if exc.errors()[0].get("type") == "json_invalid":
            _parse_json(path, data)  # raises the usual one-line message with line and column
        return parse_artifact(path, _parse_json(path, data), model)  # the usual one-line message for the field


class Freshness(str, enum.Enum):
    MISSING = "missing"
    CURRENT = "current"  # exists, parses, validates, made from the same inputs: skip
    STALE = "stale"  # exists but made from other inputs (or unreadable): redo


def freshness(path: Path, model: type[M], expected_inputs: dict[str, str]) -> tuple[Freshness, M | None]:
    """Decide whether an output can be skipped. `expected_inputs` are fingerprints the output must record."""
    path = Path(path)
    if not path.exists():
        return Freshness.MISSING, None
    try:
        artifact = read_artifact(path, model)
    except (ArtifactError, InputError):
        return Freshness.STALE, None
    recorded = getattr(artifact, "inputs", None)
    if recorded != expected_inputs:
        return Freshness.STALE, artifact
    return Freshness.CURRENT, artifact


def read_text_input(path: Path) -> str:
    """Read a user's text document (the policy of inputs.py: regular, bounded, UTF-8); an empty one is refused."""
    path = Path(path)
    text = read_input_text(path, "a text file")
    if not text.strip():
        raise InputError("is empty", file=path, fix="remove it or give it content")
    return text
