"""Reading a user's data file for the imports: its rows from JSONL, CSV or JSON, each with its line, and errors
that name the file, the line and the field."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gaia_eval.artifacts.inputs import jsonl_lines, parse_json, read_input_text
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
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in IMPORT_SUFFIXES:
        raise InputError(f"has an unsupported extension '{suffix}'", file=path, fix="pass a .jsonl, .csv or .json file")
    text = read_input_text(path, "a data file")
    rows: list[Row] = []
    if suffix == ".jsonl":
        for number, line in enumerate(jsonl_lines(text), 1):
            if not line.strip():
                continue
            data = parse_json(path, line, where=f"line {number}: ", fix="one JSON object per line")
            if not isinstance(data, dict):
                raise InputError(f"line {number}: expected a JSON object", file=path, fix="one JSON object per line")
            rows.append(Row(path, number, data))
    elif suffix == ".csv":
        csv.field_size_limit(max(csv.field_size_limit(), len(text)))  # a long document fits in a cell
        reader = csv.DictReader(io.StringIO(text, newline=""))
        try:
            for data in reader:
                rows.append(Row(path, reader.line_num, {k: v for k, v in data.items() if k is not None}))
        except csv.Error as exc:
            raise InputError(
                f"line {reader.line_num}: not CSV ({exc})", file=path, fix="write a CSV with a header line"
            ) from None
    else:
        data = parse_json(path, text, fix="fix the JSON syntax")
        items = data if isinstance(data, list) else [data]
        for number, item in enumerate(items, 1):
            if not isinstance(item, dict):
                raise InputError(f"item {number}: expected a JSON object", file=path, fix="a list of objects")
            rows.append(Row(path, number, item))
    if not rows:
        raise InputError("holds no rows", file=path, fix="add at least one item")
    return rows


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
