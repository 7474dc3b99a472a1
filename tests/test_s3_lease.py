"""The lock object of an S3 workspace as a lease, against moto's S3 server (a real process on 127.0.0.1): refused
while it runs, renewed by its holder, taken over once it ends with a write conditional on the ETag read (so of two
newcomers one wins), a holder that was taken over stops putting back; and a run killed with kill -9 on one machine
resumed on another paying only for what the first had not finished. The lease's clock is a fake one here (the
real command's is shortened by GAIA_EVAL_LEASE_S): nothing waits on, or asserts, the wall clock's speed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import orjson
import pytest

pytest.importorskip("s3fs", reason="the S3 workspace tests need the extra `s3` (fsspec, s3fs)")
pytest.importorskip("moto.server", reason="the S3 workspace tests need moto[server] (the `test` extra)")

from tests.s3server import BUCKET

LOCK = ".gaia-eval.lock"


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def _lease(prefix: str, clock: FakeClock, lease_s: float = 30.0):
    from gaia_eval.artifacts.remote import Mirror
    from gaia_eval.artifacts.remote_lock import Lease

    return Lease(Mirror(f"s3://{BUCKET}/{prefix}"), LOCK, "-o", lease_s=lease_s, clock=clock)


def _etag(s3, key: str) -> str | None:
    try:
        return s3.head_object(Bucket=BUCKET, Key=key)["ETag"]
    except s3.exceptions.ClientError:
        return None


def test_a_lease_is_refused_while_it_runs_renewed_by_its_holder_and_taken_over_once_it_ends(s3, tmp_path,
                                                                                           monkeypatch):
    from gaia_eval.artifacts.lock import FolderBusyError

    monkeypatch.setenv("GAIA_EVAL_CACHE_DIR", str(tmp_path / "cache"))
    clock = FakeClock()
    holder, newcomer = _lease("lease", clock), _lease("lease", clock)
    holder.acquire()
    clock.now += 29
    with pytest.raises(FolderBusyError, match=f"holds {LOCK} here \\(its lease runs to"):
        newcomer.acquire()
    assert holder.renew() and holder.renew()  # each renewal replaces the holder's own object (If-Match its ETag)
    clock.now += 29  # 58 s after it was taken, 29 after its renewal: still running
    with pytest.raises(FolderBusyError):
        newcomer.acquire()
    clock.now += 2  # the holder stopped renewing (killed): its lease ended a second ago
    newcomer.acquire()
    assert _etag(s3, f"lease/{LOCK}") == newcomer.etag
    assert not holder.renew() and holder.lost  # the old holder learns it was taken over
    holder.release()  # ... and leaves the newcomer's lock alone
    assert _etag(s3, f"lease/{LOCK}") == newcomer.etag
    newcomer.release()
    assert _etag(s3, f"lease/{LOCK}") is None


def test_of_two_newcomers_to_an_ended_lease_one_takes_it(s3, tmp_path, monkeypatch):
    from gaia_eval.artifacts.lock import FolderBusyError
    from gaia_eval.artifacts.remote_lock import _read_lock

    monkeypatch.setenv("GAIA_EVAL_CACHE_DIR", str(tmp_path / "cache"))
    clock = FakeClock()
    _lease("race", clock).acquire()  # a holder that is then killed
    clock.now += 31
    first, second = _lease("race", clock), _lease("race", clock)
    # both read the ended lease before either writes: the second's replace names an object that is gone
    _, seen = _read_lock(first.mirror, first.key)
    assert seen is not None
    first.etag = first._put(first._body(), if_match=seen)
    with pytest.raises(FileExistsError):
        second._put(second._body(), if_match=seen)
    with pytest.raises(FolderBusyError, match="holds"):  # and, reading again, finds the first's lease running
        second.acquire()
    assert _etag(s3, f"race/{LOCK}") == first.etag


def test_the_consolidation_waits_for_running_shards_not_for_a_killed_ones_ended_lease(s3, tmp_path, monkeypatch):
    from gaia_eval.artifacts.remote import Mirror
    from gaia_eval.artifacts.remote_lock import Lease, live_shard_locks

    monkeypatch.setenv("GAIA_EVAL_CACHE_DIR", str(tmp_path / "cache"))
    clock = FakeClock()
    mirror = Mirror(f"s3://{BUCKET}/shards")
    Lease(mirror, ".gaia-eval.shard-1-of-2.lock", "-o", lease_s=30, clock=clock).acquire()
    assert live_shard_locks(mirror, clock=clock) == [".gaia-eval.shard-1-of-2.lock"]
    clock.now += 31
    assert live_shard_locks(mirror, clock=clock) == []


def test_a_holder_taken_over_puts_nothing_back_and_fails(s3, tmp_path, monkeypatch):
    """A run that could not renew in time and was taken over must not overwrite the newcomer's work."""
    from gaia_eval.cli.workspace import remote_workspace
    from gaia_eval.errors import StorageError

    monkeypatch.setenv("GAIA_EVAL_CACHE_DIR", str(tmp_path / "cache"))

    @remote_workspace(outputs=("output_dir",))
    def command(output_dir: Path) -> None:
        (output_dir / "late.json").write_text("{}")
        newcomer_clock = FakeClock()
        newcomer_clock.now = time.time() + 3600  # a newcomer for whom this run's lease has ended
        _lease("takenover", newcomer_clock).acquire()

    with pytest.raises(StorageError, match="another run took the folder over"):
        command(output_dir=f"s3://{BUCKET}/takenover")
    keys = [o["Key"] for o in s3.list_objects_v2(Bucket=BUCKET, Prefix="takenover/").get("Contents", [])]
    assert keys == [f"takenover/{LOCK}"]  # the newcomer's lock, and nothing of the run it took over


def test_a_store_without_conditional_replace_locks_renews_and_puts_back(tmp_path, monkeypatch):
    """fsspec's memory store stands for gs:// or az://: create-only locks, a plain renewal, no takeover."""
    from gaia_eval.artifacts.lock import FolderBusyError
    from gaia_eval.artifacts.remote import Mirror
    from gaia_eval.artifacts.remote_lock import Lease
    from gaia_eval.cli.workspace import remote_workspace
    from gaia_eval.errors import UsageError

    fsspec = pytest.importorskip("fsspec")
    monkeypatch.setenv("GAIA_EVAL_CACHE_DIR", str(tmp_path / "cache"))

    @remote_workspace(outputs=("output_dir",))
    def command(output_dir: Path) -> None:
        (output_dir / "a.json").write_text("{}")

    command(output_dir="memory://bucket/mem")
    memory = fsspec.filesystem("memory")
    assert memory.find("/bucket/mem") == ["/bucket/mem/a.json"]
    clock = FakeClock()
    holder = Lease(Mirror("memory://bucket/mem"), LOCK, "-o", lease_s=30, clock=clock)
    holder.acquire()
    assert holder.renew()
    with pytest.raises(FolderBusyError, match=f"delete memory://bucket/mem/{LOCK}"):  # while the lease runs
        Lease(Mirror("memory://bucket/mem"), LOCK, "-o", lease_s=30, clock=clock).acquire()
    clock.now += 31
    with pytest.raises(UsageError, match=f"needs S3 conditional writes .*delete memory://bucket/mem/{LOCK}"):
        Lease(Mirror("memory://bucket/mem"), LOCK, "-o", lease_s=30, clock=clock).acquire()  # and after it
    holder.release()
    assert memory.find("/bucket/mem") == ["/bucket/mem/a.json"]


def _cli(*args: str, cache: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gaia_eval", *args], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "GAIA_EVAL_CACHE_DIR": str(cache), **env})


def _journal_lines(s3, key: str) -> int:
    try:
        body = s3.get_object(Bucket=BUCKET, Key=key)["Body"].read()
    except s3.exceptions.NoSuchKey:
        return 0
    return body.count(b"\n")


def test_a_run_killed_on_one_machine_resumes_on_another_paying_only_what_was_not_finished(s3, tmp_path, fake_llm):
    """Machine A's heartbeat puts back its journal while it runs; A is killed with kill -9 while calls are in
    flight; machine B (its own cache, so its own mirror) is refused while A's lease runs, then takes the lock over
    and pays exactly for the items A had not finished."""
    from gaia_eval.stages.generate import run_generate
    from gaia_eval.stages.groundtruth.run import run_groundtruth
    from tests.fakeserver import default_responder

    run_generate("meeting", tmp_path / "docs", types=["standup"], count_per_type=2, seed=11)
    gt = tmp_path / "gt"
    run_groundtruth(input_dir=tmp_path / "docs", use_case="qa", output_dir=gt)
    config = tmp_path / "c.json"
    config.write_bytes(orjson.dumps({"experiments": [{"name": "local-model", "provider": "vllm", "model": "m",
                                                      "base_url": fake_llm.openai_base_url, "max_concurrency": 2}]}))
    finished, release, lock = 5, threading.Event(), threading.Lock()
    answered = [0]

    def responder(req):
        with lock:
            answered[0] += 1
            mine = answered[0]
        if mine > finished:  # the calls after the first five never come back while A lives
            release.wait(120)
        return default_responder(req)

    fake_llm.responder = responder
    url = f"s3://{BUCKET}/killed"
    args = ("batch-experiment", "-c", str(config), "-i", str(gt), "-o", url, "--no-cache", "--quiet")
    lease = {"GAIA_EVAL_LEASE_S": "2"}  # renewed (and the journal put back) every 2/3 s
    machine_b = {**lease, "GAIA_EVAL_MACHINE": "machine-b"}  # one host plays two: A's pid is not B's to judge
    a = subprocess.Popen([sys.executable, "-m", "gaia_eval", *args], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, env={**os.environ, "GAIA_EVAL_CACHE_DIR": str(tmp_path / "a"),
                                                      "GAIA_EVAL_MACHINE": "machine-a", **lease})
    journal = "killed/local-model.experiment.journal.jsonl"
    deadline = time.monotonic() + 120
    while _journal_lines(s3, journal) < finished:  # A's heartbeat put back the five finished items
        assert a.poll() is None and time.monotonic() < deadline, a.stderr.read() if a.stderr else ""
        time.sleep(0.05)
    busy = _cli(*args, cache=tmp_path / "b", **machine_b)  # A is alive and renewing: B stops, naming it
    assert busy.returncode == 2 and f"a gaia-eval run on machine-a (pid {a.pid}" in busy.stderr, busy.stderr
    assert f"holds {LOCK} here (its lease runs to" in busy.stderr
    a.send_signal(signal.SIGKILL)
    a.wait(30)
    release.set()
    assert _journal_lines(s3, journal) == finished and _etag(s3, f"killed/{LOCK}") is not None
    paid_by_a = fake_llm.request_count
    while (b := _cli(*args, cache=tmp_path / "b", **machine_b)).returncode == 2 and "lease runs to" in b.stderr:
        assert time.monotonic() < deadline  # A's lease has not ended yet
        time.sleep(0.2)
    assert b.returncode == 0, b.stderr
    experiment = orjson.loads(s3.get_object(Bucket=BUCKET, Key="killed/local-model.experiment.json")["Body"].read())
    items = experiment["items"]
    assert len(items) > finished + 2 and not [i for i in items if i.get("error")]
    assert fake_llm.request_count - paid_by_a == len(items) - finished  # B paid for what A had not finished, once
    keys = [o["Key"] for o in s3.list_objects_v2(Bucket=BUCKET, Prefix="killed/").get("Contents", [])]
    assert not [k for k in keys if k.endswith((".lock", ".journal.jsonl"))]
