"""Journal lines reach the kernel before append returns and the disk through a background fsync (group
commit), so a slow disk no longer stalls the event loop that makes the calls; close waits for the last fsync,
and a refused fsync stops the run at the next append with the usual one-line message."""

from __future__ import annotations

import errno
import os
import threading
from pathlib import Path

import pytest

from gaia_eval.artifacts import journal
from gaia_eval.artifacts.experiment import ItemResult
from gaia_eval.artifacts.journal import JournalWriter, read_journal
from gaia_eval.errors import StorageError


def _item(n: int) -> ItemResult:
    return ItemResult(item_id=f"i{n}", source="s", fingerprint="f", status="ok", answer=str(n))


def test_append_does_not_wait_for_the_disk_and_close_waits_for_every_line(tmp_path: Path, monkeypatch):
    release, synced = threading.Event(), []
    real_fsync = os.fsync

    def slow_fsync(fd: int) -> None:
        release.wait(timeout=60)  # the disk is stuck until the test lets it go
        real_fsync(fd)
        synced.append(fd)

    monkeypatch.setattr(journal.os, "fsync", slow_fsync)
    path = tmp_path / "x.experiment.journal.jsonl"
    writer = JournalWriter(path)
    for n in range(50):
        writer.append(_item(n))  # returns although no fsync has finished
    assert synced == [] and len(read_journal(path)) == 50  # already in the kernel: a kill -9 keeps them
    release.set()
    writer.close()
    assert synced and len(synced) <= 50  # one fsync covers every line written before it


def test_a_refused_fsync_is_a_storage_error_at_the_next_append(tmp_path: Path, monkeypatch):
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(journal.os, "fsync", full)
    path = tmp_path / "x.experiment.journal.jsonl"
    writer = JournalWriter(path)
    writer.append(_item(1))
    writer._syncer.join(timeout=60)
    with pytest.raises(StorageError) as caught:
        writer.append(_item(2))
    assert str(path) in caught.value.one_line() and "free disk space" in caught.value.one_line()
    writer.close()
