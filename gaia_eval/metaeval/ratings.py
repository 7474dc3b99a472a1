"""Reading a human-ratings file (JSONL or CSV) into validated rows; any bad line is one error naming the line
and the field.

JSONL, one summary a line: `{"item_id", "system", "output", "source"?, "references"?: [...], "human": {"<dim>":
<score>}}`, where a score is one number (or the annotators' mean) or a list with one number per annotator. CSV:
columns `item_id`, `system`, `output`, optional `source` and `references` (a JSON list, or one reference as plain
text), and one `human.<dim>` column per dimension whose cell is a number, a JSON list or numbers separated by `;`.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gaia_eval.artifacts.inputs import jsonl_lines, parse_json
from gaia_eval.artifacts.store import read_text_input
from gaia_eval.errors import InputError

HUMAN_PREFIX = "human."
_TEXT_FIELDS = ("item_id", "system", "output")
_FORMAT_FIX = 'each line needs {"item_id", "system", "output", "human": {"<dimension>": <number or list>}}'


@dataclass(frozen=True)
class RatedOutput:
    """One rated summary: which item and system, the text, what it can be checked against, the human scores."""

    line: int
    item_id: str
    system: str
    output: str
    source: str | None
    references: tuple[str, ...]
    human: dict[str, tuple[float, ...]]  # dimension -> one score per annotator (one value for a mean)

    def human_mean(self, dimension: str) -> float:
        values = self.human.get(dimension)
        return sum(values) / len(values) if values else math.nan


def _fail(path: Path, line: int, field: str | None, message: str, fix: str) -> InputError:
    return InputError(message, file=f"{path}:{line}", field=field, fix=fix)


def _score(value: Any, path: Path, line: int, field: str) -> tuple[float, ...]:
    values = value if isinstance(value, list) else [value]
    if not values:
        raise _fail(path, line, field, "is an empty list", "give one score per annotator, or their mean")
    scores = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise _fail(path, line, field, f"{v!r} is not a number", "use a number or a list of numbers")
        scores.append(float(v))
    return tuple(scores)


def _row(data: Any, path: Path, line: int) -> RatedOutput:
    if not isinstance(data, dict):
        raise _fail(path, line, None, "is not a JSON object", _FORMAT_FIX)
    for name in _TEXT_FIELDS:
        value = data.get(name)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and name != "output":
            value = str(value)  # numeric ids are common in exported data
        if not isinstance(value, str) or (name != "output" and not value.strip()):
            what = "is missing" if name not in data else "must be a non-empty string"
            raise _fail(path, line, name, what, _FORMAT_FIX)
    source = data.get("source")
    if source is not None and not isinstance(source, str):
        raise _fail(path, line, "source", "must be a string", "give the source text, or leave the key out")
    refs = data.get("references")
    if refs is None:
        refs = []
    elif isinstance(refs, str):
        refs = [refs]
    if not isinstance(refs, list) or not all(isinstance(r, str) for r in refs):
        raise _fail(path, line, "references", "must be a list of strings", 'e.g. "references": ["the reference"]')
    human = data.get("human")
    if not isinstance(human, dict) or not human:
        what = "is missing" if human is None else "must be a non-empty object"
        raise _fail(path, line, "human", what, 'e.g. "human": {"relevance": [4, 5, 3]}')
    unknown = sorted(set(data) - {*_TEXT_FIELDS, "source", "references", "human"})
    if unknown:
        raise _fail(path, line, unknown[0], "unknown key", "remove it, or put extra scores under \"human\"")
    return RatedOutput(
        line=line,
        item_id=str(data["item_id"]),
        system=str(data["system"]),
        output=data["output"],
        source=source if source and source.strip() else None,
        references=tuple(r for r in refs if r.strip()),
        human={str(dim): _score(v, path, line, f"human.{dim}") for dim, v in human.items()},
    )


def _csv_cell(cell: str, path: Path, line: int, field: str) -> Any:
    text = cell.strip()
    if not text:
        return None
    if text.startswith("["):
        try:
            return parse_json(path, text)
        except InputError:
            raise _fail(path, line, field, "is not a valid JSON list", "write e.g. [4, 5, 3]") from None
    parts = [p.strip() for p in text.split(";")]
    try:
        numbers = [float(p) for p in parts]
    except ValueError:
        raise _fail(
            path, line, field, f"{text!r} is not a number", "use a number, or numbers separated by ';'"
        ) from None
    return numbers if len(numbers) > 1 else numbers[0]


def _csv_rows(text: str, path: Path) -> list[tuple[int, Any]]:
    csv.field_size_limit(max(csv.field_size_limit(), len(text)))  # a long summary fits in a cell
    reader = csv.DictReader(io.StringIO(text, newline=""))
    columns = reader.fieldnames or []
    dims = [c for c in columns if c.startswith(HUMAN_PREFIX)]
    missing = [c for c in _TEXT_FIELDS if c not in columns]
    if missing or not dims:
        raise InputError(
            f"the CSV header lacks {', '.join(missing) or 'a human.<dimension> column'}",
            file=f"{path}:1",
            fix="columns: item_id, system, output, [source], [references], human.<dimension>...",
        )
    rows = []
    for record in reader:
        line = reader.line_num
        data: dict[str, Any] = {k: record.get(k) or "" for k in _TEXT_FIELDS}
        if record.get("source"):
            data["source"] = record["source"]
        refs = (record.get("references") or "").strip()
        if refs:
            data["references"] = _csv_cell(refs, path, line, "references") if refs.startswith("[") else [refs]
        human = {}
        for column in dims:
            value = _csv_cell(record.get(column) or "", path, line, column)
            if value is not None:
                human[column[len(HUMAN_PREFIX):]] = value
        data["human"] = human
        rows.append((line, data))
    return rows


def load_ratings(path: Path) -> list[RatedOutput]:
    """Every rated summary of the file, validated; duplicates of (item_id, system) are an error."""
    path = Path(path)
    text = read_text_input(path)
    if path.suffix.lower() == ".csv":
        raw = _csv_rows(text, path)
    else:
        raw = []
        for number, line in enumerate(jsonl_lines(text), start=1):
            if not line.strip():
                continue
            raw.append((number, parse_json(Path(f"{path}:{number}"), line, fix="one JSON object per line")))
    rows = [_row(data, path, line) for line, data in raw]
    seen: dict[tuple[str, str], int] = {}
    for row in rows:
        key = (row.item_id, row.system)
        if key in seen:
            raise _fail(
                path, row.line, "system",
                f"item '{row.item_id}' already has a summary by system '{row.system}' (line {seen[key]})",
                "keep one line per item and system",
            )
        seen[key] = row.line
    if not rows:
        raise InputError("has no rated summaries", file=path, fix=_FORMAT_FIX)
    return rows
