"""Options that may name object storage (`s3://bucket/prefix`): the command runs on this machine's mirror of them
(artifacts/remote.py), holding the remote folder's lock object while it writes there, and puts back what it
wrote as it ends (also when it fails: a shard's part, the files finished before an error)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any


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
    from gaia_eval.artifacts.remote import Mirror, remote_lock, remote_shard_locks, remote_url

    shard = kwargs.get("shard")
    pushed: list[Mirror] = []
    with ExitStack() as stack:
        for name in (*outputs, *file_outputs):
            url = remote_url(kwargs.get(name))
            if url is None:
                continue
            file_name = None
            if name in file_outputs:
                url, file_name = url.rsplit("/", 1)
            mirror = Mirror(url)
            option = f"--{name.replace('_', '-')}"
            stack.enter_context(remote_lock(mirror, f".gaia-eval.{shard.tag}.lock" if shard else LOCK_NAME, option))
            if shard is None and (held := remote_shard_locks(mirror)):
                raise FolderBusyError(f"shards are writing this folder ({', '.join(held)})", file=url, field=option,
                                      fix="wait for them to finish, then run the same command without --shard")
            local = mirror.pull()
            kwargs[name] = local / file_name if file_name else local
            pushed.append(mirror)
        for name in inputs:
            value = kwargs.get(name)
            if isinstance(value, (tuple, list)):
                kwargs[name] = type(value)(_local_input(v) for v in value)
            elif value is not None:
                kwargs[name] = _local_input(value)
        try:
            return command(*args, **kwargs)
        finally:
            for mirror in pushed:
                mirror.push()


def _local_input(value: str | Path) -> Path:
    from gaia_eval.artifacts.remote import Mirror, remote_url

    url = remote_url(value)
    return Path(value) if url is None else Mirror(url).pull()
