"""Reading a user's data file for the imports: its rows from JSONL, CSV or JSON, each with its line, and errors
that name the file, the line and the field."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gaia_eval.artifacts.inputs import (
    CSV_BREAK,
    JSONL_BREAK,
    iter_input_lines,
    max_input_bytes,
    parse_json,
    read_input_text,
)
from gaia_eval.artifacts.stream import Unreadable, iter_array_objects
from gaia_eval.errors import InputError

IMPORT_SUFFIXES = (".jsonl", ".csv", ".json")


@dataclass
class Row:
    file: Path
    line: int
    data: dict[str, Any]


def read_rows(path: Path) -> list[Row]:
    """Rows of a .jsonl (one object a line), .csv (a header line) or .json (an object or a list of objects).
    Any line that does not read is an error naming it: no row is ever skipped."""
    return list(iter_rows(path))


def iter_rows(path: Path) -> Iterator[Row]:
    """read_rows one row at a time. A .jsonl or .csv file is read a line at a time, a .json array of objects an
    object at a time (the memory is the current row, whatever the file's size). A file with no row is an error at
    the end."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in IMPORT_SUFFIXES:
        raise InputError(f"has an unsupported extension '{suffix}'", file=path, fix="pass a .jsonl, .csv or .json file")
    count = 0
    if suffix == ".jsonl":
        for number, line in enumerate(iter_input_lines(path, JSONL_BREAK, "a data file"), 1):
            line = line[:-1] if line.endswith("\n") else line
            line = line[:-1] if line.endswith("\r") else line
            if not line.strip():
                continue
            data = parse_json(path, line, where=f"line {number}: ", fix="one JSON object per line")
            if not isinstance(data, dict):
                raise InputError(f"line {number}: expected a JSON object", file=path, fix="one JSON object per line")
            count += 1
            yield Row(path, number, data)
    elif suffix == ".csv":
        csv.field_size_limit(max(csv.field_size_limit(), min(max_input_bytes(), _CSV_FIELD_MAX)))  # a long document
        # fits in a cell; the final empty piece after the last line break is no line to csv
        reader = csv.DictReader(line for line in iter_input_lines(path, CSV_BREAK, "a data file") if line)
        try:
            for data in reader:
                count += 1
                yield Row(path, reader.line_num, {k: v for k, v in data.items() if k is not None})
        except csv.Error as exc:
            raise InputError(
                f"line {reader.line_num}: not CSV ({exc})", file=path, fix="write a CSV with a header line"
            ) from None
    else:
        for number, item in enumerate(_json_items(path), 1):
            if not isinstance(item, dict):
                raise InputError(f"item {number}: expected a JSON object", file=path, fix="a list of objects")
            count += 1
            yield Row(path, number, item)
    if not count:
        raise InputError("holds no rows", file=path, fix="add at least one item")


def _json_items(path: Path) -> Iterator[Any]:
    """The items of a .json file: an array of objects one object at a time, read in chunks; anything else (one
    object, an array holding something else, an error to name) parsed whole, after the objects already given."""
    given = 0
    try:
        for text in iter_array_objects(path):
            item = parse_json(path, text)
            given += 1
            yield item
        return
    except (Unreadable, InputError):
        pass  # the whole read names the error with its place in the file, or gives the rest
    data = parse_json(path, read_input_text(path, "a data file"), fix="fix the JSON syntax")
    yield from (data if isinstance(data, list) else [data])[given:]


_CSV_FIELD_MAX = 2**31 - 1  # csv's limit is a C long; the input cap (or inf) may exceed it


def get_path(data: Any, dotted: str) -> Any:
    value = data
    for part in dotted.split("."):
        if isinstance(value, list):
            value = [v.get(part) if isinstance(v, dict) else None for v in value]
        elif isinstance(value, dict):
            value = value.get(part)
        else:
            return None
    return value


def where(row: Row) -> str:
    return f"line {row.line}" if row.file.suffix.lower() in (".jsonl", ".csv") else f"item {row.line}"


def row_error(row: Row, field_name: str, problem: str, fix: str) -> InputError:
    return InputError(f"{where(row)}: {problem}", file=row.file, field=field_name, fix=fix)
