"""Options that may name object storage (`s3://bucket/prefix`): the command runs on this machine's mirror of them
(artifacts/remote.py), holding the remote folder's lock object as a lease while it writes there (its heartbeat
putting back what is finished so far, artifacts/remote_lock.py), and puts back what it wrote as it ends (also
when it fails: a shard's part, the files finished before an error). Inputs only (the viewer, a report's
sources) are pulled into a read-only mirror."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

# the viewer's folder options: any may name a prefix of a bucket, read into a mirror when the viewer starts
VIEWER_FOLDERS = ("workspace", "test_data_dir", "groundtruth_dir", "experiments_dir", "evaluations_dir", "reports_dir")


def remote_workspace(*, inputs: tuple[str, ...] = (), outputs: tuple[str, ...] = (),
                     file_outputs: tuple[str, ...] = ()):
    """Decorate a command whose parameters `inputs` (paths or tuples of paths) are read and `outputs` (folders)
    or `file_outputs` (a file in a folder) are written: remote ones are swapped for their local mirrors."""

    def decorate(command):
        @functools.wraps(command)
        def invoke(*args, **kwargs):
            from gaia_eval.artifacts.remote import remote_url

            names = (*inputs, *outputs, *file_outputs)
            values = [kwargs.get(n) for n in names]
            flat = [v for value in values for v in (value if isinstance(value, (tuple, list)) else [value])]
            if not any(remote_url(v) for v in flat if v is not None):
                return command(*args, **kwargs)
            return _run_remote(command, args, kwargs, inputs, outputs, file_outputs)

        return invoke

    return decorate


def _run_remote(command: Callable[..., Any], args: tuple, kwargs: dict[str, Any], inputs: tuple[str, ...],
                outputs: tuple[str, ...], file_outputs: tuple[str, ...]) -> Any:
    from gaia_eval.artifacts.lock import LOCK_NAME, FolderBusyError
    from gaia_eval.artifacts.remote import Mirror, remote_url
    from gaia_eval.artifacts.remote_lock import Lease, live_shard_locks, remote_lock

    shard = kwargs.get("shard")
    held: dict[str, tuple[Mirror, Lease]] = {}  # one lease per remote folder, though two options name it
    with ExitStack() as stack:
        for name in (*outputs, *file_outputs):
            url = remote_url(kwargs.get(name))
            if url is None:
                continue
            file_name = None
            if name in file_outputs:
                url, file_name = url.rsplit("/", 1)
            if url not in held:
                option = f"--{name.replace('_', '-')}"
                with _store_errors(url, option):
                    mirror = Mirror(url)
                    lease = stack.enter_context(
                        remote_lock(mirror, f".gaia-eval.{shard.tag}.lock" if shard else LOCK_NAME, option))
                    if shard is None and (busy := live_shard_locks(mirror)):
                        raise FolderBusyError(f"shards are writing this folder ({', '.join(busy)})", file=url,
                                              field=option, fix="wait for them to finish, then run the same "
                                                                "command without --shard")
                    if shard is not None:  # on another machine: the host's OS locks (shards.py) see nothing
                        _refuse_beside_other_runs(mirror, shard, url, option)
                    mirror.pull()
                held[url] = (mirror, lease)
                if lease.heartbeat is not None:
                    lease.heartbeat.on_beat = mirror.push  # a run killed from now on resumes from the bucket
            local = held[url][0].local
            kwargs[name] = local / file_name if file_name else local
        for name in inputs:
            value = kwargs.get(name)
            if isinstance(value, (tuple, list)):
                kwargs[name] = type(value)(_local_input(v) for v in value)
            elif value is not None:
                kwargs[name] = _local_input(value)
        try:
            return command(*args, **kwargs)
        finally:
            _put_back(held.values())


def _refuse_beside_other_runs(mirror, shard, url: str, option: str) -> None:
    """A shard on S3, holding its own lease: stop while a run without --shard, or shards of another split, hold
    theirs (they pay for this shard's items too). Each takes its own lease first, then looks for the other's."""
    from gaia_eval.artifacts.lock import LOCK_NAME, FolderBusyError
    from gaia_eval.artifacts.remote_lock import live_locks

    if live_locks(mirror, lambda name: name == LOCK_NAME):
        raise FolderBusyError("a run without --shard is writing this folder", file=url, field=option,
                              fix="wait for it to finish; it does every item itself")
    other = live_locks(mirror, lambda name: name.startswith(".gaia-eval.shard-")
                       and not name.endswith(f"-of-{shard.count}.lock"))
    if other:
        raise FolderBusyError(f"shards of another split run here ({', '.join(other)}); their items overlap "
                              f"shard {shard}'s", file=url, field=option, fix="split the run the same way")


@contextmanager
def _store_errors(url: str, option: str | None = None) -> Iterator[None]:
    """A store that cannot be reached or refuses us (no endpoint, bad keys): one line, not a traceback."""
    from gaia_eval.artifacts.remote import store_error
    from gaia_eval.errors import GaiaEvalError

    try:
        yield
    except Exception as exc:
        if isinstance(exc, GaiaEvalError) or (error := store_error(url, exc, option)) is None:
            raise
        raise error from None


def _put_back(held) -> None:
    """Put back each folder written, unless its lease was lost (another run took the folder over: what this run
    holds is no longer its to write)."""
    from gaia_eval.errors import StorageError

    lost = []
    for mirror, lease in held:
        if lease.heartbeat is not None:
            lease.heartbeat.stop()
        with _store_errors(mirror.url):
            if not lease.renew():  # still ours, at this very moment (If-Match): else another run took it over
                lost.append(mirror.url)
                continue
            mirror.push()
    if lost:
        raise StorageError(f"this run's lease ran out and another run took the folder over: {', '.join(lost)}",
                           file=lost[0], fix="nothing of this run was put back after that; run it again to resume")


def _local_input(value: str | Path) -> Path:
    from gaia_eval.artifacts.remote import Mirror, remote_url

    url = remote_url(value)
    if url is None:
        return Path(value)
    with _store_errors(url):
        return Mirror(url).pull()
