"""What every stage shares: the run summary it prints, finding its input files, and holding its output folder."""

from __future__ import annotations

import functools
import inspect
import os
from dataclasses import dataclass, field
from pathlib import Path

from gaia_eval.artifacts.batch_journal import batches_in_flight
from gaia_eval.artifacts.documents import DocumentMeta
from gaia_eval.artifacts.inputs import path_inside
from gaia_eval.artifacts.lock import folder_lock
from gaia_eval.artifacts.shards import Shard, refuse_while_shards_run, shard_lock
from gaia_eval.artifacts.store import Freshness
from gaia_eval.errors import InputError, UsageError


@dataclass
class StageSummary:
    """Counts of what a stage did, printed as one line: made N, skipped M (up to date), redone K (stale), failed F."""

    stage: str
    made: int = 0
    skipped: int = 0
    redone: int = 0
    failed: int = 0
    outputs: list[Path] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def count(self, before: Freshness) -> None:
        """Count an output that was written, by what state it was in before."""
        if before is Freshness.MISSING:
            self.made += 1
        else:
            self.redone += 1

    def line(self) -> str:
        return (
            f"{self.stage}: made {self.made}, skipped {self.skipped} (up to date), "
            f"redone {self.redone} (stale), failed {self.failed}"
        )


@dataclass(frozen=True)
class SourceInput:
    """One input document of a stage that reads documents (groundtruth, offline or with an LLM)."""

    path: Path
    rel_path: str  # relative to the input folder: recorded in artifacts, independent of the working directory
    item_id: str
    text: str | None  # as extracted (HTML and PDF inputs); None: not kept (read_text extracts it again)
    text_fingerprint: str
    meta: DocumentMeta | None
    meta_fingerprint: str
    doc_type: str | None = None  # from a generated document's meta, when there is one

    def read_text(self) -> str:
        """The text, extracted again when it was not kept (10,000 documents are not held for a run that finds
        most of them done); a file changed since it was first read is an error, not a silent other text."""
        if self.text is not None:
            return self.text
        from gaia_eval.artifacts.store import fingerprint_bytes
        from gaia_eval.extract import extract_text

        text = extract_text(self.path).text
        if fingerprint_bytes(text.encode("utf-8")) != self.text_fingerprint:
            raise InputError("changed while the run was reading it", file=self.path,
                             fix="run the command again once the inputs stay put")
        return text


def find_inputs(directory: Path, pattern: str, *, exclude_suffixes: tuple[str, ...] = ()) -> list[Path]:
    """Files under `directory` matching `pattern` (recursively), sorted; an error if there are none."""
    directory = Path(directory)
    if not directory.exists():
        raise InputError("folder not found", file=directory, fix="check the path or run the previous stage first")
    if not directory.is_dir():
        raise InputError(
            "is a file, expected a folder", file=directory, fix="pass a folder with -d, or the file with -f"
        )
    try:
        files = sorted(
            p
            for p in directory.rglob(pattern)
            if p.is_file() and not p.name.endswith(exclude_suffixes) and not p.name.startswith(".")
        )
    except (RecursionError, OSError) as exc:
        reason = "nested too deeply" if isinstance(exc, RecursionError) else (exc.strerror or type(exc).__name__)
        raise InputError(f"cannot be listed ({reason})", file=directory,
                         fix="pass a folder with fewer levels of subfolders") from None
    for path in files:  # a link in the folder to a file elsewhere would send that file to a model
        try:
            path_inside(directory, path.relative_to(directory).as_posix())
        except InputError as exc:
            raise InputError(exc.message, file=path, fix=exc.fix) from None
    if not files:
        raise InputError(
            f"no files matching '{pattern}'",
            file=directory,
            fix="check the folder and the -p/--pattern option, or run the previous stage first",
        )
    return files


def check_output_dir(directory: Path, option: str = "-o/--output-dir") -> Path:
    """Say in one line why `directory` cannot hold our outputs (a file in the way, no permission), before any
    work is done. Nothing is created here: a run stopped by bad input leaves no trace."""
    directory = Path(directory)
    probe = directory
    while not probe.exists() and probe.parent != probe:
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise InputError("is a file, expected a folder", file=probe, field=option, fix="pass a folder path")
    if probe.exists() and not os.access(probe, os.W_OK | os.X_OK):
        raise InputError("is not writable", file=probe, field=option, fix="pass a folder you can write to")
    return directory


def check_output_file(path: Path, option: str = "-o/--output") -> Path:
    """Say in one line why `path` cannot be written as a file (a folder there, a file where a parent folder
    should be, no permission), before any work is done: a command's progress lines never precede this error."""
    path = Path(path)
    if path.is_dir():
        raise InputError("is a folder, expected a file path", file=path, field=option,
                         fix=f"pass a file path, e.g. {path / 'meta_eval.json'}")
    check_output_dir(path.parent, option)
    return path


def ensure_output_dir(directory: Path, option: str = "-o/--output-dir") -> Path:
    """check_output_dir, then create the folder."""
    directory = check_output_dir(directory, option)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot be created ({exc.strerror})", file=directory, field=option,
                         fix="pass a folder you can write to") from None
    return directory


def relative_id(path: Path, root: Path) -> str:
    """The item id of an input: its path relative to the input folder, without extension, '/'-separated."""
    rel = path.relative_to(root) if root in path.parents else Path(path.name)
    return rel.with_suffix("").as_posix()


def _refuse_while_others_batches_run(folder: Path, option: str, shard: Shard | None) -> None:
    """Stop before a run asks for items that another run's provider batches may still be paying for (it was
    stopped before it collected them): a run without --shard for a shard's, a shard for a run's without --shard
    or for a shard's of another split (their items overlap). Only the run that journaled a batch re-attaches."""
    for owner, journal in batches_in_flight(folder):
        same_split = owner is None if shard is None else owner is not None and owner.endswith(f"/{shard.count}")
        if same_split:
            continue  # its own batches (it re-attaches to them), or another shard's of its split (other items)
        if owner is None:
            raise UsageError(f"a run without --shard has provider batches still running here ({journal.name}): a "
                             "shard would pay for their items twice", file=folder, field="--shard",
                             fix="run the same command without --shard (and with --batch) to collect them first")
        raise UsageError(f"shard {owner} has provider batches still running, journaled in {journal.name}: asking "
                         "for its items here would pay for them twice", file=folder, field=option,
                         fix=f"run the same command with --batch --shard {owner} to collect what its batches "
                             "answered, then this one")


def holds_output_lock(parameter: str = "output_dir", option: str = "-o/--output-dir"):
    """Decorate a run_<stage> function so it holds its output folder's lock (named by `parameter`) while it runs:
    a second run on the same folder stops at once with a line naming the holder, instead of paying twice. A run
    given a `shard` holds only that shard's lock (artifacts/shards.py): the other shards run beside it."""

    def decorate(run):
        signature = inspect.signature(run)

        @functools.wraps(run)
        def locked(*args, **kwargs):
            arguments = signature.bind(*args, **kwargs).arguments
            folder = arguments.get(parameter)
            if folder is None:
                return run(*args, **kwargs)
            check_output_dir(Path(folder), option)  # a file in the way, no permission: said before the lock
            shard = arguments.get("shard")
            if shard is not None:
                with shard_lock(Path(folder), shard, option):
                    _refuse_while_others_batches_run(Path(folder), option, shard)
                    return run(*args, **kwargs)
            with folder_lock(Path(folder), option):
                refuse_while_shards_run(Path(folder), option)
                if "shard" in signature.parameters:  # a stage that shards: its shards' batches may be running
                    _refuse_while_others_batches_run(Path(folder), option, None)
                return run(*args, **kwargs)

        return locked

    return decorate
