"""An S3 workspace's guards against moto's S3 server (a real process on 127.0.0.1): the runs a lease keeps apart
across machines (a shard beside a run without --shard or a shard of another split, the consolidation beside a
running shard), a holder that releases only its own lock, a mirror that follows the bucket, and a store that is
missing, refuses or stays silent stopping the command with one line instead of a traceback or a hang."""

from __future__ import annotations

import socket
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("s3fs", reason="the S3 workspace tests need the extra `s3` (fsspec, s3fs)")
pytest.importorskip("moto.server", reason="the S3 workspace tests need moto[server] (the `test` extra)")

from tests.s3server import BUCKET

LOCK = ".gaia-eval.lock"


def _sharded_command():
    from gaia_eval.cli.workspace import remote_workspace

    ran = []

    @remote_workspace(outputs=("output_dir",))
    def command(output_dir: Path, shard=None) -> None:
        ran.append(shard)

    return command, ran


def _hold(prefix: str, name: str):
    """A lease another machine holds (a real clock, a lease far from its end)."""
    from gaia_eval.artifacts.remote import Mirror
    from gaia_eval.artifacts.remote_lock import Lease

    lease = Lease(Mirror(f"s3://{BUCKET}/{prefix}"), name, "-o", lease_s=600)
    lease.acquire()
    return lease


@pytest.mark.parametrize(("held", "shard", "refusal"), [
    (LOCK, (1, 2), "a run without --shard is writing"),
    (".gaia-eval.shard-1-of-3.lock", (2, 2), "shards of another split"),
    (".gaia-eval.shard-2-of-2.lock", None, "shards are writing this folder"),
])
def test_a_lease_on_s3_keeps_apart_runs_that_would_pay_for_the_same_items(s3, tmp_path, monkeypatch, held, shard,
                                                                         refusal):
    """The OS locks of artifacts/shards.py see only this host: on S3 the leases must say the same."""
    from gaia_eval.artifacts.lock import FolderBusyError
    from gaia_eval.artifacts.shards import Shard

    monkeypatch.setenv("GAIA_EVAL_CACHE_DIR", str(tmp_path / "cache"))
    prefix = f"apart-{tmp_path.name}"
    other = _hold(prefix, held)
    command, ran = _sharded_command()
    with pytest.raises(FolderBusyError, match=refusal):
        command(output_dir=f"s3://{BUCKET}/{prefix}", shard=Shard(*shard) if shard else None)
    assert ran == []
    other.release()
    command(output_dir=f"s3://{BUCKET}/{prefix}", shard=Shard(*shard) if shard else None)
    assert len(ran) == 1


def test_shards_of_one_split_run_beside_each_other_on_s3(s3, tmp_path, monkeypatch):
    from gaia_eval.artifacts.shards import Shard

    monkeypatch.setenv("GAIA_EVAL_CACHE_DIR", str(tmp_path / "cache"))
    other = _hold("beside", ".gaia-eval.shard-1-of-2.lock")
    command, ran = _sharded_command()
    command(output_dir=f"s3://{BUCKET}/beside", shard=Shard(2, 2))
    assert ran == [Shard(2, 2)]
    other.release()


def test_a_holder_that_missed_its_takeover_releases_only_its_own_lock(s3, tmp_path, monkeypatch):
    from gaia_eval.artifacts.remote import Mirror
    from gaia_eval.artifacts.remote_lock import Lease

    monkeypatch.setenv("GAIA_EVAL_CACHE_DIR", str(tmp_path / "cache"))
    now = [1_000_000.0]
    holder = Lease(Mirror(f"s3://{BUCKET}/release"), LOCK, "-o", lease_s=30, clock=lambda: now[0])
    holder.acquire()
    now[0] += 31  # the holder stalled past its lease; a newcomer took the lock over
    newcomer = Lease(Mirror(f"s3://{BUCKET}/release"), LOCK, "-o", lease_s=30, clock=lambda: now[0])
    newcomer.acquire()
    holder.release()  # the holder ends without having renewed (so without knowing): the newcomer's lock stays
    assert s3.head_object(Bucket=BUCKET, Key=f"release/{LOCK}")["ETag"] == newcomer.etag
    newcomer.release()


def test_a_lock_left_in_another_pid_namespace_is_not_taken_for_a_gone_process(monkeypatch):
    """Two containers with one host name: a pid free in ours may be alive in theirs."""
    from gaia_eval.artifacts import remote_lock

    monkeypatch.setenv("GAIA_EVAL_MACHINE", "same-host")
    gone = 2 ** 22 + 12345  # above the kernel's pid_max: no process has it
    ours = remote_lock._pid_namespace()
    assert remote_lock._stale_here({"host": "same-host", "pid": gone, "pid_ns": ours})
    assert not remote_lock._stale_here({"host": "same-host", "pid": gone, "pid_ns": "pid:[1]" + str(ours)})
    assert not remote_lock._stale_here({"host": "other-host", "pid": gone, "pid_ns": ours})


def test_a_mirror_follows_the_bucket_changed_and_deleted_objects(s3, tmp_path, monkeypatch):
    from gaia_eval.artifacts.remote import Mirror

    monkeypatch.setenv("GAIA_EVAL_CACHE_DIR", str(tmp_path / "cache"))
    s3.put_object(Bucket=BUCKET, Key="follow/a.json", Body=b"1")
    s3.put_object(Bucket=BUCKET, Key="follow/b.json", Body=b"1")
    local = Mirror(f"s3://{BUCKET}/follow").pull()
    assert (local / "a.json").read_bytes() == b"1"
    s3.put_object(Bucket=BUCKET, Key="follow/a.json", Body=b"2")  # another machine's run changed one, removed one
    s3.delete_object(Bucket=BUCKET, Key="follow/b.json")
    Mirror(f"s3://{BUCKET}/follow").pull()
    assert (local / "a.json").read_bytes() == b"2" and not (local / "b.json").exists()


def _invoke(*args: str):
    from gaia_eval.cli import cli

    return CliRunner().invoke(cli, list(args))


def test_a_url_without_a_bucket_is_a_usage_error_not_a_local_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "gt").mkdir()
    result = _invoke("eval", "-d", "s3://", "-o", "ev")
    assert result.exit_code == 2 and "names no bucket" in result.output, result.output
    assert "Traceback" not in result.output and list(tmp_path.iterdir()) == [tmp_path / "gt"]


def test_a_bucket_that_does_not_exist_is_named(s3, tmp_path, monkeypatch):
    monkeypatch.setenv("GAIA_EVAL_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "exp").mkdir()
    result = _invoke("eval", "-d", str(tmp_path / "exp"), "-o", "s3://no-such-bucket/ev")
    assert result.exit_code == 2, result.output
    assert "error: s3://no-such-bucket/ev: field '--output-dir': the bucket does not exist" in result.output
    assert result.output.count("\n") == 1 and "Traceback" not in result.output


def _endpoint(tmp_path, monkeypatch, url: str) -> None:
    monkeypatch.setenv("GAIA_EVAL_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("AWS_ENDPOINT_URL", url)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")


def test_an_endpoint_that_refuses_connections_stops_the_command_with_one_line(tmp_path, monkeypatch):
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    _endpoint(tmp_path, monkeypatch, f"http://127.0.0.1:{port}")
    (tmp_path / "exp").mkdir()
    for args in (("-d", str(tmp_path / "exp"), "-o", f"s3://{BUCKET}/ev"),  # an output, then an input
                 ("-d", f"s3://{BUCKET}/exp", "-o", str(tmp_path / "ev"))):
        result = _invoke("eval", *args)
        assert result.exit_code == 2, result.output
        assert "the store cannot be reached" in result.output and "AWS_ENDPOINT_URL" in result.output
        assert result.output.count("\n") == 1


def test_an_endpoint_that_never_answers_stops_the_command_instead_of_hanging(tmp_path, monkeypatch):
    """botocore's PUT waits for '100 Continue' with no timeout of its own: the lock's call bound ends it."""
    from gaia_eval.artifacts import remote_lock

    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(16)  # accepts connections (the kernel does) and never answers
    monkeypatch.setattr(remote_lock, "CALL_TIMEOUT_S", 1.0)
    _endpoint(tmp_path, monkeypatch, f"http://127.0.0.1:{silent.getsockname()[1]}")
    (tmp_path / "exp").mkdir()
    outcome: list = []
    worker = threading.Thread(target=lambda: outcome.append(
        _invoke("eval", "-d", str(tmp_path / "exp"), "-o", f"s3://{BUCKET}/ev")), daemon=True)
    worker.start()
    worker.join(120)  # only stops a hung test; the bound under test is the 1 s set above
    silent.close()
    assert outcome, "the command hung on a silent endpoint"
    result = outcome[0]
    assert result.exit_code == 2 and "the store cannot be reached" in result.output, result.output


@pytest.mark.parametrize("body", [b"garbage", b'{"host": "h", "started": "yesterday"}'])
def test_a_damaged_lock_object_is_named_with_the_fix_not_waited_for(s3, tmp_path, monkeypatch, body):
    """It has no lease that could ever end: the message says to delete it (once said 'wait', or crashed)."""
    from gaia_eval.artifacts.lock import FolderBusyError

    monkeypatch.setenv("GAIA_EVAL_CACHE_DIR", str(tmp_path / "cache"))
    s3.put_object(Bucket=BUCKET, Key=f"damaged/{LOCK}", Body=body)
    command, ran = _sharded_command()
    with pytest.raises(FolderBusyError, match=f"not a lock gaia-eval wrote.*delete s3://{BUCKET}/damaged/{LOCK}"):
        command(output_dir=f"s3://{BUCKET}/damaged")
    assert ran == []
    s3.delete_object(Bucket=BUCKET, Key=f"damaged/{LOCK}")
