"""Human ratings as artifacts: the saved annotation sample (which outputs raters see, the same for every rater),
the ratings log (one JSON line per rating, appended atomically), and the ratings spreadsheet (CSV) for people
who rate elsewhere.

The log is append-only. Each line is written by ONE `write()` on a file opened with O_APPEND, under an flock,
then fsynced before the write is acknowledged: a `kill -9` loses at most the line in flight, and several raters
(several processes) appending to one file never interleave. A torn last line (a crash mid-write, a full disk) is
skipped and reported; the next append starts on a fresh line. Undo is a line too (`kind: "undo"`), so nothing is
ever rewritten.
"""

from __future__ import annotations

import csv
import io
import os
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Literal

import orjson
from pydantic import Field, ValidationError

from gaia_eval.artifacts.base import Artifact, Strict
from gaia_eval.artifacts.inputs import read_input_bytes
from gaia_eval.errors import InputError, StorageError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: O_APPEND alone keeps single writes whole
    fcntl = None  # type: ignore[assignment]

RATINGS_SCHEMA = 1
SCALE = (1, 5)  # every dimension is rated 1..5
TIE = "tie"


SampleReason = Literal["stratified", "disagreement", "repeat"]

class SampleUnit(Strict):
    """One output to rate: an item and the model (experiment) that wrote the output, blind to the rater."""

    id: str  # "u001": what the page and the spreadsheet show instead of the model
    item_id: str
    model: str  # experiment name
    fingerprint: str  # of the output when the sample was drawn
    reason: SampleReason
    repeat_of: str | None = None  # a repeat shows the same output again, to measure the rater's consistency


class SamplePair(Strict):
    """Two models' outputs for one item, shown side by side (left/right drawn by the seed)."""

    id: str  # "p001"
    item_id: str
    left: str
    right: str
    left_fingerprint: str
    right_fingerprint: str


class AnnotationSample(Artifact):
    """`annotation/<use_case>/sample.json`: the outputs every rater of this evaluation sees, in this order."""

    kind: Literal["annotation_sample"] = "annotation_sample"
    use_case: str
    seed: int
    size: int
    dimensions: list[str]
    units: list[SampleUnit]
    pairs: list[SamplePair] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)


class RatingRecord(Strict):
    """One line of the ratings log."""

    schema_version: int = RATINGS_SCHEMA
    id: str
    kind: Literal["rating", "preference", "comment", "skip", "undo"]
    rater: str
    time: str  # ISO 8601, UTC
    unit: str | None = None  # the sample's unit or pair id
    item_id: str | None = None
    model: str | None = None  # rating, comment, skip of a unit
    dimension: str | None = None  # rating only
    value: int | None = Field(default=None, ge=SCALE[0], le=SCALE[1])  # rating only
    fingerprint: str | None = None  # of the output rated
    models: list[str] = Field(default_factory=list)  # preference: [left, right]
    fingerprints: list[str] = Field(default_factory=list)  # preference: of [left, right]
    winner: str | None = None  # preference: a model of `models`, or "tie"
    comment: str | None = None
    undoes: str | None = None  # undo: the id of the line it takes back


RECORD_START = b'{"schema_version":'  # how every line append_rating writes begins (orjson keeps field order)


def new_record(kind: str, rater: str, **fields: object) -> RatingRecord:
    now = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
    return RatingRecord(id=uuid.uuid4().hex[:16], kind=kind, rater=rater, time=now, **fields)  # type: ignore[arg-type]


def append_rating(path: Path, record: RatingRecord) -> None:
    """Append one line, durably: one write() under O_APPEND and an exclusive flock, then fsync. After a torn
    last line the write starts with a newline, so the new line is whole."""
    line = orjson.dumps(record.model_dump(mode="json", exclude_defaults=False)) + b"\n"
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    except OSError as exc:
        raise StorageError(f"cannot open the ratings file ({exc.strerror})", file=path) from None
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        size = os.fstat(fd).st_size
        if size and _last_byte(path, size) != b"\n":
            line = b"\n" + line
        written = os.write(fd, line)
        if written != len(line):
            raise StorageError(f"wrote {written} of {len(line)} bytes (disk full?)", file=path)
        os.fsync(fd)
    except OSError as exc:
        raise StorageError(f"cannot append to the ratings file ({exc.strerror})", file=path) from None
    finally:
        os.close(fd)  # closing releases the flock


def _last_byte(path: Path, size: int) -> bytes:
    with open(path, "rb") as fh:
        fh.seek(size - 1)
        return fh.read(1)


@dataclass
class RatingsLog:
    records: list[RatingRecord] = field(default_factory=list)
    torn_lines: list[int] = field(default_factory=list)  # line numbers left unreadable by a crash


def read_ratings(path: Path) -> RatingsLog:
    """Every whole line of the log, in order. A line that is not JSON (torn by a crash) is skipped and its
    number reported; a JSON line that is not a rating is an InputError naming the line and the field."""
    path = Path(path)
    log = RatingsLog()
    if not os.path.lexists(path):
        return log
    data = read_input_bytes(path, "a ratings file")  # the input policy: a FIFO is refused, the size bounded
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if not raw.strip():
            continue
        try:
            value = orjson.loads(raw)
        except orjson.JSONDecodeError:
            if raw[: len(RECORD_START)] != RECORD_START[: len(raw)]:
                raise InputError(  # not a line this log ever held: a spreadsheet, UTF-16, binary; never append to it
                    "is not a ratings file (a line of JSON per rating)", file=f"{path}:{number}",
                    fix="pass the ratings.jsonl `gaia-eval annotate` writes (a filled spreadsheet goes to meta-eval)",
                ) from None
            log.torn_lines.append(number)  # a line torn by a crash: the start of one of our records
            continue
        try:
            log.records.append(RatingRecord.model_validate(value))
        except ValidationError as exc:
            error = exc.errors()[0]
            where = ".".join(str(p) for p in error["loc"]) or None
            raise InputError(
                f"is not a rating ({error['msg']})", file=f"{path}:{number}", field=where,
                fix="ratings files are written by `gaia-eval annotate`; remove the line or restore the file",
            ) from None
    return log


def live_records(records: list[RatingRecord]) -> list[RatingRecord]:
    """The lines not taken back by an undo (undo lines themselves left out), in order."""
    undone = {r.undoes for r in records if r.kind == "undo"}
    return [r for r in records if r.kind != "undo" and r.id not in undone]


# --- the spreadsheet ----------------------------------------------------------------------------------------

SHEET_FIXED = ("unit", "item_id", "fingerprint", "rater", "source", "reference", "output")


def write_ratings_sheet(path: Path, dimensions: list[str], rows: list[dict[str, str]]) -> None:
    """One row per output (blank rating columns, one per dimension, and a comment column); every cell through
    safe_text.csv_cell, so no text from an output runs as a formula in a spreadsheet."""
    from gaia_eval.artifacts.store import atomic_write_text
    from gaia_eval.safe_text import csv_document

    columns = (*SHEET_FIXED, *dimensions, "comment")
    atomic_write_text(Path(path), csv_document([columns, *([row.get(name, "") for name in columns] for row in rows)]))


def _sheet_delimiter(text: str) -> str:
    """`,` as written; `;` or a tab when the header says so (a spreadsheet in a decimal-comma locale saves with `;`)."""
    header = text.split("\n", 1)[0]
    return next((d for d in (",", ";", "\t") if "unit" in next(csv.reader([header], delimiter=d), [])), ",")


@dataclass(frozen=True)
class SheetRating:
    line: int
    unit: str
    fingerprint: str
    rater: str
    values: dict[str, int]  # dimension -> 1..5 (blank cells left out)
    comment: str


def read_ratings_sheet(path: Path, dimensions: list[str]) -> list[SheetRating]:
    """The filled rows of a ratings spreadsheet; a bad cell is an InputError naming its line and column."""
    from gaia_eval.artifacts.store import read_text_input
    from gaia_eval.safe_text import csv_uncell

    path = Path(path)
    text = read_text_input(path)
    reader = csv.DictReader(io.StringIO(text), delimiter=_sheet_delimiter(text))
    columns = reader.fieldnames or []
    missing = [c for c in ("unit", "fingerprint", *dimensions) if c not in columns]
    if missing:
        raise InputError(
            f"the header lacks {', '.join(missing)}", file=f"{path}:1",
            fix="fill in the file `create-template --ratings` wrote, keeping its header",
        )
    out = []
    start = reader.line_num + 1
    for row_number, record in enumerate(reader, start=2):
        line, start = start, reader.line_num + 1  # where the record starts (a cell may span lines)
        values = {}
        for dimension in dimensions:
            cell = (record.get(dimension) or "").strip()
            if not cell:
                continue
            try:
                value = int(float(cell))
            except (ValueError, OverflowError):  # "six", "nan"; "inf", "1e400"
                value = None
            if value is None or float(cell) != value or not SCALE[0] <= value <= SCALE[1]:
                raise InputError(
                    f"row {row_number}: {cell!r} is not a rating", file=f"{path}:{line}", field=dimension,
                    fix=f"write a whole number from {SCALE[0]} to {SCALE[1]}, or leave the cell blank",
                )
            values[dimension] = value
        unit = csv_uncell((record.get("unit") or "").strip())
        if values and not unit:
            raise InputError("is empty", file=f"{path}:{line}", field="unit", fix="keep the unit column as written")
        if values:
            out.append(SheetRating(line, unit, csv_uncell((record.get("fingerprint") or "").strip()),
                                   csv_uncell((record.get("rater") or "").strip()), values,
                                   csv_uncell((record.get("comment") or "").strip())))
    return out
