"""Response templates in the reference tool's shape: one record per test item with `test_id`, `input_text`,
an empty `response` for a person to fill and the evaluation criteria, as `<name>.template.{json,csv,jsonl,xml}`.

json and xml carry the template's settings once (name, model, use case, ground-truth file) around a list of
records; csv and jsonl, made for spreadsheets and line tools, repeat them on every row. A spreadsheet cell
holds at most 32,767 characters, so a longer source goes into a csv as an excerpt, with `input_file` naming the
file that holds it whole (json, jsonl and xml keep it whole). This module only reads and writes those files;
turning one into an experiment is gaia_eval.stages.templates.responses's job.
"""

from __future__ import annotations

import csv
import io
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from gaia_eval.artifacts.inputs import jsonl_lines, read_input_text
from gaia_eval.artifacts.store import atomic_write_text, load_json_file, read_text_input
from gaia_eval.errors import GaiaEvalError, InputError
from gaia_eval.safe_text import csv_document, csv_uncell, scrub_xml_tree

FORMATS: tuple[str, ...] = ("json", "csv", "jsonl", "xml")
KIND = "response_template"
TEMPLATE_SUFFIXES = tuple(f".template.{fmt}" for fmt in FORMATS)
# The columns of a csv row / keys of a jsonl line, in the order a spreadsheet shows them.
ROW_FIELDS = ("test_id", "use_case", "query", "input_text", "input_file", "response", "evaluation_criteria", "model",
              "groundtruth_file", "ground_truth")
# Excel's (and LibreOffice's) limit on the characters of one cell: a longer cell is cut or refused on opening.
SPREADSHEET_CELL_LIMIT = 32_767
RECORD_FIELDS = ("test_id", "query", "input_text", "response", "evaluation_criteria", "ground_truth")


@dataclass
class ResponseRecord:
    test_id: str
    input_text: str
    response: str = ""
    query: str | None = None
    evaluation_criteria: dict[str, str] = field(default_factory=dict)
    ground_truth: str | None = None  # only written on request: a person filling it in should not see it
    input_file: str | None = None  # csv only: where the whole source is when `input_text` holds an excerpt


@dataclass
class ResponseTemplate:
    name: str
    use_case: str
    records: list[ResponseRecord]
    model: str = "manual"
    groundtruth_file: str | None = None
    instructions: str = ""


def template_format(path: Path) -> str | None:
    """'json', 'csv', 'jsonl' or 'xml' for a `*.template.<fmt>` file, else None."""
    for fmt in FORMATS:
        if path.name.endswith(f".template.{fmt}"):
            return fmt
    return None


def template_stem(path: Path) -> str:
    fmt = template_format(path)
    return path.name[: -len(f".template.{fmt}")] if fmt else path.stem


def is_response_template(path: Path) -> bool:
    """True for the files this module reads (a `.template.json` of the older answer_template kind is not one)."""
    fmt = template_format(path)
    if fmt is None:
        return False
    if fmt != "json":
        return True
    try:
        data = load_json_file(path)
    except Exception:
        return True
    return not (isinstance(data, dict) and data.get("kind") == "answer_template")


def _record_dict(rec: ResponseRecord) -> dict[str, Any]:
    out: dict[str, Any] = {"test_id": rec.test_id}
    if rec.query is not None:
        out["query"] = rec.query
    out["input_text"] = rec.input_text
    if rec.ground_truth is not None:
        out["ground_truth"] = rec.ground_truth
    out["response"] = rec.response
    out["evaluation_criteria"] = rec.evaluation_criteria
    return out


def _header(t: ResponseTemplate) -> dict[str, Any]:
    return {"kind": KIND, "schema_version": 1, "name": t.name, "model": t.model, "use_case": t.use_case,
            "groundtruth_file": t.groundtruth_file, "instructions": t.instructions}


def render_template(t: ResponseTemplate, fmt: str) -> str:
    if fmt == "json":
        data = {**_header(t), "records": [_record_dict(r) for r in t.records]}
        return orjson.dumps(data, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE).decode()
    rows = [
        {
            "test_id": r.test_id,
            "use_case": t.use_case,
            "query": r.query or "",
            "input_text": r.input_text,
            **({"input_file": r.input_file} if r.input_file is not None else {}),
            "response": r.response,
            "evaluation_criteria": "; ".join(f"{k}: {v}" for k, v in r.evaluation_criteria.items()),
            "model": t.model,
            "groundtruth_file": t.groundtruth_file or "",
            **({"ground_truth": r.ground_truth} if r.ground_truth is not None else {}),
        }
        for r in t.records
    ]
    if fmt == "jsonl":
        return "".join(orjson.dumps({**row, "evaluation_criteria": r.evaluation_criteria}).decode() + "\n"
                       for row, r in zip(rows, t.records, strict=True))
    if fmt == "csv":
        optional = ("ground_truth", "input_file")
        fields = [f for f in ROW_FIELDS if f not in optional or any(f in row for row in rows)]
        # CRLF rows and formula-like cells as text (safe_text.csv_document); reading undoes the apostrophe
        return csv_document([fields, *([row.get(f, "") for f in fields] for row in rows)])
    if fmt == "xml":
        from xml.etree import ElementTree as ET

        root = ET.Element(
            "template", {k: str(v) for k, v in _header(t).items() if v is not None and k != "instructions"}
        )
        ET.SubElement(root, "instructions").text = t.instructions
        for r in t.records:
            rec = ET.SubElement(root, "record")
            for key, value in _record_dict(r).items():
                if key == "evaluation_criteria":
                    crit = ET.SubElement(rec, key)
                    for cid, text in value.items():
                        ET.SubElement(crit, "criterion", {"id": cid}).text = text
                else:
                    ET.SubElement(rec, key).text = value
        ET.indent(scrub_xml_tree(root))  # a control character in a document cannot make the file unreadable
        return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
    raise ValueError(fmt)


def write_template(path: Path, t: ResponseTemplate) -> None:
    atomic_write_text(path, render_template(t, template_format(path) or "json"))


def _criteria(value: Any) -> dict[str, str]:
    if isinstance(value, dict):
        return {str(k): str(v) for k, v in value.items()}
    out: dict[str, str] = {}
    for part in str(value or "").split(";"):
        key, _, text = part.partition(":")
        if key.strip():
            out[key.strip()] = text.strip()
    return out


def _bad(path: Path, message: str, field_name: str | None = None) -> InputError:
    return InputError(message, file=path, field=field_name,
                      fix="keep the columns create-template wrote; fill only `response`")


def _whole_source(path: Path, n: int, row: dict[str, Any]) -> str:
    """The source a csv row names in `input_file` (its `input_text` is an excerpt), relative to the template."""
    name = str(row["input_file"])
    found = Path(name) if Path(name).is_absolute() else path.parent / name
    if not found.is_file():
        raise InputError(
            f"record {n} ('{row.get('test_id')}') has its source in input_file '{name}', which is not found",
            file=path,
            field="input_file",
            fix=f"put the document back at {found}, or make the template again with create-template",
        )
    return read_text_input(found)


def _from_rows(path: Path, rows: list[Any]) -> ResponseTemplate:
    if not rows:
        raise _bad(path, "holds no records")
    if not all(isinstance(row, dict) for row in rows):
        n = next(n for n, row in enumerate(rows, 1) if not isinstance(row, dict))
        raise _bad(path, f"record {n} is not an object of fields")
    for n, row in enumerate(rows, 1):
        if not isinstance(row.get("test_id", ""), (str, int)) or isinstance(row.get("test_id"), bool):
            raise _bad(path, f"record {n} has a test_id that is not text", "test_id")
    first = rows[0]
    use_case = str(first.get("use_case") or "")
    records = []
    for n, row in enumerate(rows, 1):
        missing = [k for k in ("test_id", "input_text", "response") if k not in row]
        if missing:
            raise _bad(path, f"record {n} has no '{missing[0]}'", missing[0])
        if str(row.get("use_case") or use_case) != use_case:
            raise _bad(path, f"record {n} ('{row['test_id']}') has use_case '{row.get('use_case')}', not '{use_case}'",
                       "use_case")
        records.append(ResponseRecord(
            test_id=str(row["test_id"]), response=str(row["response"] or ""),
            input_text=_whole_source(path, n, row) if row.get("input_file") else str(row["input_text"] or ""),
            query=str(row["query"]) if row.get("query") else None,
            evaluation_criteria=_criteria(row.get("evaluation_criteria")),
            ground_truth=str(row["ground_truth"]) if row.get("ground_truth") else None,
        ))
    return ResponseTemplate(name=template_stem(path), use_case=use_case, records=records,
                            model=str(first.get("model") or "manual"),
                            groundtruth_file=str(first.get("groundtruth_file") or "") or None)


def read_template(path: Path) -> ResponseTemplate:
    """Any of the four formats; the template's name is the file stem (`Acme.template.csv` -> `Acme`)."""
    path = Path(path)
    fmt = template_format(path)
    try:
        if fmt == "json":
            data = load_json_file(path)
            if not isinstance(data, dict) or not isinstance(data.get("records"), list):
                raise _bad(path, "is not a response template (no 'records' list)", "records")
            rows = [
                {
                    **r,
                    "use_case": data.get("use_case"),
                    "model": data.get("model"),
                    "groundtruth_file": data.get("groundtruth_file"),
                }
                if isinstance(r, dict)
                else {}
                for r in data["records"]
            ]
            t = _from_rows(path, rows)
            t.instructions = str(data.get("instructions") or "")
            return t
        text = read_input_text(path, "a template file")
        if fmt == "jsonl":
            rows = []
            for n, line in enumerate(jsonl_lines(text), 1):
                if line.strip():
                    try:
                        rows.append(orjson.loads(line))
                    except orjson.JSONDecodeError as exc:
                        raise _bad(path, f"line {n} is not JSON: {exc}") from None
            return _from_rows(path, rows)
        if fmt == "csv":
            allow_long_csv_fields()
            try:
                rows = [{k: csv_uncell(v) if isinstance(v, str) else v for k, v in row.items()}
                        for row in csv.DictReader(io.StringIO(text, newline=""))]
            except csv.Error as exc:
                raise _bad(path, f"is not readable as CSV ({exc})") from None
            return _from_rows(path, rows)
        if fmt == "xml":
            return _from_xml(path, text)
    except UnicodeDecodeError:
        raise _bad(path, "is not UTF-8 text") from None
    except GaiaEvalError:
        raise
    except (OSError, ValueError, TypeError, KeyError) as exc:  # whatever else a damaged file trips: one line
        raise _bad(path, f"cannot be read as a {fmt} template ({type(exc).__name__}: {exc})") from None
    raise _bad(path, "is not a template (.template.json, .csv, .jsonl or .xml)")


def allow_long_csv_fields() -> None:
    """Lift the csv module's 131,072-character field limit (a real transcript is longer) to the largest the
    platform's C long accepts."""
    limit = sys.maxsize
    while True:
        try:
            csv.field_size_limit(limit)
            return
        except OverflowError:
            limit //= 2


def csv_excerpt(text: str, where: str) -> str:
    """`text` cut to fit one spreadsheet cell, saying so and where the whole text is."""
    note = (
        f"\n\n[excerpt: the first {{n:,}} of {len(text):,} characters; the whole text, which is what gets scored, "
        f"is in {where}]"
    )
    keep = SPREADSHEET_CELL_LIMIT - 1 - len(note.format(n=SPREADSHEET_CELL_LIMIT))  # 1: room for csv_cell's apostrophe
    return text[:keep] + note.format(n=keep)


def relative_to_template(file: Path, template: Path) -> str:
    """How a template at `template` names `file`: relative to the template's folder when that works."""
    try:
        return Path(os.path.relpath(Path(file).resolve(), Path(template).parent.resolve())).as_posix()
    except ValueError:  # another drive on Windows
        return Path(file).resolve().as_posix()


def _from_xml(path: Path, text: str) -> ResponseTemplate:
    from xml.etree import ElementTree as ET

    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise _bad(path, f"is not well-formed XML: {exc}") from None
    rows = []
    for rec in root.findall("record"):
        row: dict[str, Any] = {k: root.get(k) for k in ("use_case", "model", "groundtruth_file")}
        for child in rec:
            if child.tag == "evaluation_criteria":
                row[child.tag] = {c.get("id", ""): c.text or "" for c in child}
            else:
                row[child.tag] = child.text or ""
        rows.append(row)
    t = _from_rows(path, rows)
    t.instructions = root.findtext("instructions") or ""
    return t
