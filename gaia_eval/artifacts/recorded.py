"""The paths artifacts record (an experiment's input, an evaluation's experiment, a report's folder): how a path
is written, and where a recorded one is found again. A file of an object-storage workspace's mirror is recorded
as its URL, so a run on `s3://...` records what a run on disk would, and a reader on any machine finds it
through its own copy of the URL."""

from __future__ import annotations

import re
from pathlib import Path

from gaia_eval.artifacts.remote import MIRROR_URL, local_copy, remote_url

_URL_GIVEN = re.compile(r"^[a-z][a-z0-9+]+://[^/]")


def recorded_path(path: str | Path) -> str:
    """How an artifact records a path: a file of a workspace mirror as its URL (`s3://bucket/prefix/...`), so a
    run on object storage records what a run on disk would, with the URL for the folder; any other path as given."""
    if isinstance(path, str) and _URL_GIVEN.match(path):  # a URL as the user gave it (Path would fold its "//")
        return path
    path = Path(path)
    for folder in (path, *path.parents):
        try:
            url = (folder / MIRROR_URL).read_text().strip()
        except OSError:
            continue
        rel = path.relative_to(folder).as_posix()
        return url if rel == "." else f"{url}/{rel}"
    return path.as_posix()


def find_recorded_path(path: str, folder: Path) -> Path | None:
    """A path as an artifact recorded it (relative to where its stage ran): tried as is, then against `folder`
    and its parents (the workspace, when the reader runs from elsewhere); a URL (a run on object storage) as this
    machine's copy of it; None when it is gone."""
    if (url := remote_url(path)) is not None:
        return local_copy(url)
    candidates = [Path(path)] + [parent / path for parent in (folder.resolve(), *folder.resolve().parents)]
    return next((c for c in candidates if c.exists()), None)


__all__ = ["find_recorded_path", "recorded_path"]
