"""Shards of a run (`--shard K/N`): which items a shard owns, where it keeps its part, and its lock.

The partition is by item fingerprint (what the model sees), so it is the same on every machine and in every
process, whatever order the items are listed in: a shard owns an item when the item's fingerprint, hashed,
falls to it modulo N. A shard journals its items as an ordinary run does (`<name>.experiment.shard-K-of-N.
journal.jsonl`), and when it has them all it writes its part (`...shard-K-of-N.part.jsonl`, atomically) and
drops the journal. The same command without `--shard` reads every journal and part as items already paid for,
so it calls nothing more once every shard has finished, writes exactly the files one process writes, and
removes the parts.

Locks: a shard holds `.gaia-eval.shard-K-of-N.lock` in the output folder (an OS file lock, like the folder's
own, released by the kernel however the holder ends), so two processes given the same shard never both pay;
a shard refuses to start while a run without `--shard` holds the folder, and such a run refuses to start
while any shard holds its lock (each takes its own lock first, then looks for the other's: one of two
starting together always sees the other).
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import orjson

from gaia_eval.artifacts.lock import LOCK_NAME, FolderBusyError, release_lock_file, take_lock_file
from gaia_eval.errors import UsageError

_SPEC = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")
_LOCK = re.compile(r"^\.gaia-eval\.shard-(\d+)-of-(\d+)\.lock$")


@dataclass(frozen=True)
class Shard:
    """Shard `index` (1-based) of `count`."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    @property
    def tag(self) -> str:
        return f"shard-{self.index}-of-{self.count}"

    def owns(self, item_fingerprint: str) -> bool:
        return shard_of(item_fingerprint, self.count) == self.index


def shard_of(item_fingerprint: str, count: int) -> int:
    """The shard (1..count) that owns an item: its fingerprint hashed once more, so that fingerprints of any
    shape spread evenly."""
    digest = hashlib.sha256(item_fingerprint.encode()).digest()
    return int.from_bytes(digest[:8], "big") % count + 1


def parse_shard(text: str, option: str = "--shard") -> Shard:
    """`K/N` with 1 <= K <= N; anything else is a UsageError naming the option."""
    match = _SPEC.match(text or "")
    if match is None:
        raise UsageError(f"'{text}' is not K/N", field=option, fix="pass e.g. --shard 1/4 (shard 1 of 4)")
    index, count = int(match.group(1)), int(match.group(2))
    if count < 1 or not 1 <= index <= count:
        raise UsageError(f"'{text}': the shard K must be between 1 and N ({count})", field=option,
                         fix=f"pass --shard K/{max(count, 1)} with K from 1 to {max(count, 1)}")
    return Shard(index, count)


def shard_journal_path(artifact: Path, suffix: str, shard: Shard) -> Path:
    """`<name><suffix>` -> `<name>.<suffix stem>.shard-K-of-N.journal.jsonl` beside it (suffix e.g.
    `.experiment.json`)."""
    return _beside(artifact, suffix, f"{shard.tag}.journal.jsonl")


def shard_part_path(artifact: Path, suffix: str, shard: Shard) -> Path:
    return _beside(artifact, suffix, f"{shard.tag}.part.jsonl")


def _beside(artifact: Path, suffix: str, tail: str) -> Path:
    artifact = Path(artifact)
    name = artifact.name.removesuffix(suffix)
    kind = suffix.removesuffix(".json")  # ".experiment"
    return artifact.with_name(f"{name}{kind}.{tail}")


def shard_files(artifact: Path, suffix: str) -> list[Path]:
    """Every shard journal and part of one artifact, whatever N the shards ran with, parts first."""
    artifact = Path(artifact)
    name = artifact.name.removesuffix(suffix)
    kind = suffix.removesuffix(".json")
    folder = artifact.parent
    if not folder.is_dir():
        return []
    prefix = f"{name}{kind}.shard-"
    found = [p for p in folder.iterdir() if p.name.startswith(prefix) and _SHARD_FILE.match(p.name[len(prefix):])]
    return sorted(found, key=lambda p: (not p.name.endswith(".part.jsonl"), p.name))


_SHARD_FILE = re.compile(r"^\d+-of-\d+\.(journal|part)\.jsonl$")


def write_part(path: Path, records: Iterable[bytes]) -> None:
    """A shard's part: its records as JSON lines, written one at a time into a temp file renamed into place (a
    reader never sees half a part; the writer never holds the whole part)."""
    from gaia_eval.artifacts.store import atomic_write_with

    def write(fh: BinaryIO) -> None:
        for line in records:
            fh.write(line + b"\n")

    atomic_write_with(path, write)


class LineIndex:
    """Lines of shards' journals and parts by key (the newest line of a key wins), each held as where it sits
    (file, offset) and a few flag bits, never as its bytes: a consolidation of 100,000 items keeps a small int
    per item, and reads a line again, from the file it scanned (kept open, so a file renamed over it since
    changes nothing), when it is used."""

    _FILE_BITS, _FLAG_BITS = 12, 8

    def __init__(self) -> None:
        self._files: list[BinaryIO] = []
        self._at: dict[str, int] = {}

    def add(self, path: Path, key: Callable[[bytes, dict], str | None],
            flags: Callable[[dict, int | None], int] | None = None) -> None:
        """Index every complete JSON-object line of `path` whose `key(line, record)` is not None (a missing
        file adds nothing); `flags(record, the key's flags so far or None)` gives its flag bits (0-255)."""
        try:
            fh = open(path, "rb")  # noqa: SIM115 - kept open for reading lines back, closed by close()
        except FileNotFoundError:
            return
        number = len(self._files)
        if number >= 1 << self._FILE_BITS:
            fh.close()
            raise ValueError("too many files for one LineIndex")
        self._files.append(fh)
        offset = 0
        for line in fh:
            start, offset = offset, offset + len(line)
            try:
                record = orjson.loads(line)
            except orjson.JSONDecodeError:
                continue  # a torn last line: never finished
            found = key(line, record) if isinstance(record, dict) else None
            if found is None:
                continue
            bits = flags(record, self.flags(found)) if flags is not None else 0
            self._at[found] = ((start << self._FLAG_BITS | bits) << self._FILE_BITS) | number

    def flags(self, key: str) -> int | None:
        at = self._at.get(key)
        return None if at is None else (at >> self._FILE_BITS) & ((1 << self._FLAG_BITS) - 1)

    def get(self, key: str) -> bytes | None:
        """The key's line (without its newline), read from its file."""
        at = self._at.get(key)
        if at is None:
            return None
        fh = self._files[at & ((1 << self._FILE_BITS) - 1)]
        fh.seek(at >> (self._FILE_BITS + self._FLAG_BITS))
        return fh.readline().strip()

    def list_keys(self) -> list[str]:
        """The keys indexed now (a list: the caller may delete some as it goes)."""
        return list(self._at)

    def __contains__(self, key: object) -> bool:
        return key in self._at

    def __len__(self) -> int:
        return len(self._at)

    def __delitem__(self, key: str) -> None:
        del self._at[key]

    def close(self) -> None:
        for fh in self._files:
            fh.close()
        self._files.clear()


def _lock_path(folder: Path, shard: Shard) -> Path:
    return Path(folder) / f".gaia-eval.{shard.tag}.lock"


def running_shards(folder: Path, *, besides: Shard | None = None) -> list[str]:
    """The shards ("K/N") whose lock some process holds in `folder` now (probed: a free lock file is removed)."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    held = []
    for path in sorted(folder.iterdir()):
        match = _LOCK.match(path.name)
        if match is None:
            continue
        shard = Shard(int(match.group(1)), int(match.group(2)))
        if shard == besides:
            continue
        if _held(path):
            held.append(str(shard))
    return held


def _held(path: Path) -> bool:
    try:
        fd, locked = take_lock_file(path)
    except OSError:
        return False
    if locked:
        release_lock_file(path, fd)
        return False
    os.close(fd)
    return True


def refuse_while_shards_run(folder: Path, option: str) -> None:
    """For a run without --shard, holding the folder's lock: stop if any shard is still writing the folder."""
    held = running_shards(folder)
    if held:
        raise FolderBusyError(f"shard(s) {', '.join(held)} of a sharded run are writing this folder",
                              file=folder, field=option,
                              fix="wait for them to finish, then run the same command without --shard to "
                                  "consolidate (it pays nothing for what they finished)")


@contextmanager
def shard_lock(folder: Path, shard: Shard, option: str = "-o/--output-dir") -> Iterator[None]:
    """Hold shard K/N's lock in `folder` for the block (the folder is created if missing), or raise
    FolderBusyError: another process runs this shard, a run without --shard holds the folder, or shards of
    another N run there (their items overlap this one's)."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, locked = take_lock_file(_lock_path(folder, shard))
    except OSError as exc:
        raise UsageError(f"cannot take the lock for shard {shard} here ({exc.strerror or exc})", file=folder,
                         field=option, fix="pass an output folder you can write to") from None
    if not locked:
        os.close(fd)
        raise FolderBusyError(f"another process is running shard {shard} of this folder", file=folder,
                              field=option, fix="wait for it to finish (it resumes from what it saved)")
    try:
        if _held(folder / LOCK_NAME):
            raise FolderBusyError("a run without --shard is writing this folder", file=folder, field=option,
                                  fix="wait for it to finish; it does every item itself")
        other_n = [s for s in running_shards(folder, besides=shard) if not s.endswith(f"/{shard.count}")]
        if other_n:
            raise FolderBusyError(f"shard(s) {', '.join(other_n)} of another split run here; their items overlap "
                                  f"shard {shard}'s", file=folder, field=option,
                                  fix=f"split the run the same way (--shard K/{other_n[0].split('/')[1]})")
        info = {"pid": os.getpid(), "command": " ".join(["gaia-eval", *sys.argv[1:]])[:300],
                "folder": str(folder), "started": time.time()}
        with suppress(OSError):  # the message of a second run then just names the shard
            os.pwrite(fd, orjson.dumps(info), 0)
        yield
    finally:
        release_lock_file(_lock_path(folder, shard), fd)
