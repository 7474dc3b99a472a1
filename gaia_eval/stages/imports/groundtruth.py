"""`import-groundtruth`: a user's own ground truth (human reference summaries, question-answer pairs) from JSONL,
CSV or JSON into ground-truth artifacts, one per item and use case, plus each use case's consolidated file.

Every row is read and checked before anything is written, so a bad row (one line naming file, line and field)
leaves no file behind; outputs are written atomically.
"""

from __future__ import annotations

import os
import string
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gaia_eval import usecases
from gaia_eval.artifacts.groundtruth import GroundTruth, Provenance, QAPair, SourceDocument, Summaries
from gaia_eval.artifacts.inputs import parse_json, path_inside
from gaia_eval.artifacts.names import NameClaims, file_stem
from gaia_eval.artifacts.store import (
    atomic_write_many,
    canonical_json,
    fingerprint_bytes,
    fingerprint_file,
)
from gaia_eval.errors import InputError
from gaia_eval.extract import SUPPORTED_SUFFIXES, extract_text
from gaia_eval.scoring.rubric import is_long_form
from gaia_eval.stages.common import StageSummary, ensure_output_dir, holds_output_lock
from gaia_eval.stages.groundtruth.run import consolidated_path, groundtruth_path, write_consolidated
from gaia_eval.stages.imports.rows import Row, get_path, read_rows, row_error, where


@dataclass(frozen=True)
class GroundTruthFields:
    """Which field of a row holds what; dotted paths reach into objects and map over lists
    (`general_queries.answer` is the answer of every element of `general_queries`)."""

    id: str = "item_id"
    source: str = "source"  # the text, or a path to a .txt/.md/.html/.pdf file (relative to the data file)
    source_file: str | None = None  # a path template such as "{item_id}.txt"; wins over `source`
    references: str = "references"  # a string or a list of strings
    qa: str = "qa"  # a list of objects with a question and an answer
    question: str = "question"
    answer: str = "answer"


def _texts(row: Row, field_name: str) -> list[str]:
    value = get_path(row.data, field_name)
    if value is None or value == "":
        return []
    if isinstance(value, str):
        stripped = value.strip()
        if stripped.startswith("[") and row.file.suffix.lower() == ".csv":
            try:
                value = parse_json(row.file, stripped)
            except InputError:
                return [value]
        else:
            return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [v for v in value if v.strip()]
    raise row_error(row, field_name, "expected a string or a list of strings", "give the reference summaries as text")


def _item_id(row: Row, fields: GroundTruthFields, default: str | None) -> str:
    """The row's id, checked to name a file (`file_stem`): text or a whole number, never a list or a flag."""
    value = get_path(row.data, fields.id)
    if value in (None, ""):
        if default is None:
            raise row_error(
                row, fields.id, "missing", f"give every row an id in '{fields.id}' (or name the field with --id-field)"
            )
        value = default
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    try:
        file_stem(value, what="item id")
    except InputError as exc:
        raise row_error(row, fields.id, exc.message, exc.fix or "") from None
    return value


def _source_file_template(template: str) -> None:
    """--source-file may name only {item_id}: anything else is refused before a row is read."""
    try:
        names = [name for _, name, _, _ in string.Formatter().parse(template) if name is not None]
    except ValueError as exc:
        raise InputError(f"'{template}' is not a valid template ({exc})", field="--source-file",
                         fix="write e.g. '{item_id}.txt' (double a literal brace: '{{')") from None
    unknown = [name for name in names if name != "item_id"]
    if unknown:
        raise InputError(
            f"'{template}' names {{{unknown[0]}}}; only {{item_id}} can be filled in",
            field="--source-file",
            fix="write e.g. '{item_id}.txt'",
        )


def _inside(row: Row, field_name: str, folder: Path, name: str) -> Path:
    try:
        return path_inside(folder, name)
    except InputError as exc:
        raise row_error(row, field_name, exc.message, exc.fix or "") from None


def _source(row: Row, fields: GroundTruthFields, item_id: str) -> SourceDocument:
    folder = row.file.parent
    if fields.source_file:
        # The template is the user's (it may name another folder); the id filled into it is data and must not
        # climb out of the folder the template's fixed part names.
        base = folder / fields.source_file.split("{", 1)[0].rpartition("/")[0]
        filled = fields.source_file.format(item_id=item_id)
        path = _inside(row, "--source-file", base, os.path.relpath(folder / filled, base))
        if not path.is_file():
            raise row_error(row, "--source-file", f"source file {path} not found", "check the --source-file template")
    else:
        value = get_path(row.data, fields.source)
        if not isinstance(value, str) or not value.strip():
            raise row_error(
                row,
                fields.source,
                "missing or empty",
                "give the source text or a path to a .txt/.md/.html/.pdf file (or --source-file)",
            )
        if not value.strip().lower().endswith(SUPPORTED_SUFFIXES) or "\n" in value:
            return SourceDocument(
                path=f"{row.file.name}#{item_id}", fingerprint=fingerprint_bytes(value.encode()), text=value
            )
        candidate = _inside(row, fields.source, folder, value.strip())
        if not candidate.is_file():
            raise row_error(
                row, fields.source, f"source file {candidate} not found", "give a path relative to the data file"
            )
        path = candidate
    text = extract_text(path).text
    return SourceDocument(path=path.as_posix(), fingerprint=fingerprint_file(path), text=text)


def _qa_pairs(row: Row, fields: GroundTruthFields) -> list[QAPair]:
    value = get_path(row.data, fields.qa)
    if value in (None, "", []):
        return []
    if isinstance(value, str) and row.file.suffix.lower() == ".csv":
        try:
            value = parse_json(row.file, value)
        except InputError:
            raise row_error(
                row, fields.qa, "not a JSON list", "write the cell as a JSON list of {question, answer} objects"
            ) from None
    if not isinstance(value, list):
        raise row_error(
            row, fields.qa, "expected a list of question-answer objects", 'e.g. [{"question": ..., "answer": ...}]'
        )
    pairs = []
    for n, pair in enumerate(value, 1):
        if not isinstance(pair, dict):
            raise row_error(row, f"{fields.qa}[{n}]", "is not an object",
                            f'e.g. {{"{fields.question}": "...", "{fields.answer}": "..."}}')
        question, answers = pair.get(fields.question), _answers(row, pair, fields, n)
        if not isinstance(question, str) or not question.strip():
            raise row_error(
                row, f"{fields.qa}[{n}].{fields.question}", "missing or empty" if fields.question in pair
                else f"missing (the item's keys: {', '.join(map(str, pair)) or 'none'})",
                "give the question's text" if fields.question in pair else "name the key with --question-key",
            )
        pairs.append(QAPair(id=f"q{n:02d}", query=question, answer=answers[0], answer_type="string",
                            other_answers=answers[1:]))
    return pairs


def _answers(row: Row, pair: dict[str, Any], fields: GroundTruthFields, n: int) -> list[str]:
    """A question's reference answers: one string, or a list of them (several human answers: any may match)."""
    field = f"{fields.qa}[{n}].{fields.answer}"
    if fields.answer not in pair:
        raise row_error(row, field, f"missing (the item's keys: {', '.join(map(str, pair)) or 'none'})",
                        "name the key with --answer-key")
    value = pair[fields.answer]
    values = value if isinstance(value, list) else [value]
    if not values or not all(isinstance(v, str) and v.strip() for v in values):
        raise row_error(row, field, "must be a non-empty string or a list of non-empty strings",
                        'give the reference answer, or every acceptable one: ["answer 1", "answer 2"]')
    return list(dict.fromkeys(values))  # as written: the text is the fingerprinted ground truth


@holds_output_lock()
def run_import_groundtruth(
    files: list[Path], output_dir: Path, fields: GroundTruthFields = GroundTruthFields(), *,
    use_case: str | None = None,
) -> StageSummary:
    """One ground truth per item with human references (summarization's, or `use_case`'s when it is a summaries
    use case) and one per item with question-answer pairs (qa's, or `use_case`'s when it asks questions), plus
    each use case's consolidated file. Items keep their provenance."""
    summary = StageSummary("import-groundtruth")
    if fields.source_file:
        _source_file_template(fields.source_file)
    kinds = _import_use_cases(use_case)
    built = _read_groundtruth(files, fields, kinds)
    questions = kinds["answer"]
    pairs = [q for gt in built[questions] for q in gt.qa_pairs or []]
    if pairs:
        long_form = sum(map(is_long_form, pairs))
        summary.notes.append(
            f"{questions}: {len(pairs)} questions, {long_form} with long-form answers (scored with the free-text "
            f"criteria), {len(pairs) - long_form} with short answers (the answer matcher)"
        )
    ensure_output_dir(Path(output_dir))
    for name, gts in built.items():
        if gts:
            write_groundtruth(gts, name, Path(output_dir), summary)
    return summary


def _import_use_cases(use_case: str | None) -> dict[str, str]:
    """The use case references are imported as ("summaries") and question-answer pairs ("answer"): the
    defaults, with --use-case in the place of its kind."""
    kinds = dict(usecases.DEFAULTS)
    if use_case is not None:
        kinds[usecases.get(use_case, field="--use-case").answers] = use_case
    return kinds


def _read_groundtruth(
    files: list[Path], fields: GroundTruthFields, kinds: dict[str, str]
) -> dict[str, list[GroundTruth]]:
    """Every row of every file as ground truth, by use case; a bad row is an error before anything is written."""
    built: dict[str, list[GroundTruth]] = {kinds["summaries"]: [], kinds["answer"]: []}
    seen: dict[str, str] = {}
    claims = NameClaims("item id")
    for path in map(Path, files):
        rows = read_rows(path)
        file_fp = fingerprint_file(path)
        for row in rows:
            default_id = path.name.split(".")[0] if path.suffix.lower() == ".json" and len(rows) == 1 else None
            item_id = _item_id(row, fields, default_id)
            if item_id in seen:
                raise row_error(
                    row, fields.id, f"duplicate id '{item_id}' (also in {seen[item_id]})", "give every item its own id"
                )
            seen[item_id] = f"{path.name} {where(row)}"
            try:
                claims.claim(item_id, file_stem(item_id, what="item id"))
            except InputError as exc:
                raise row_error(row, fields.id, exc.message, exc.fix or "") from None
            references = _texts(row, fields.references)
            qa = _qa_pairs(row, fields)
            if not references and not qa:
                raise row_error(
                    row,
                    fields.references,
                    f"no reference summary and no question-answer pairs (looked in '{fields.references}' and "
                    f"'{fields.qa}')",
                    "name the fields with --references-field / --qa-field",
                )
            source = _source(row, fields, item_id)
            provenance = Provenance(file=path.as_posix(), fingerprint=file_fp, line=row.line)
            common = {"item_id": item_id, "source": source, "method": "human", "provenance": provenance}
            if references:
                summaries = Summaries(executive_summary=references[0], detailed_summary=references[0])
                built[kinds["summaries"]].append(GroundTruth.model_validate(
                    {"use_case": kinds["summaries"], "summaries": summaries, "references": references, **common}))
            if qa:
                built[kinds["answer"]].append(
                    GroundTruth.model_validate({"use_case": kinds["answer"], "qa_pairs": qa, **common}))
    return built


def write_groundtruth(gts: list[GroundTruth], use_case: str, output_dir: Path, summary: StageSummary) -> None:
    """Each item's file and the use case's consolidated file."""
    writes: list[tuple[Path, bytes]] = []
    known: dict[Path, tuple[GroundTruth, str]] = {}
    for gt in gts:
        gt = gt.model_copy(update={"inputs": {"file": gt.provenance.fingerprint if gt.provenance else ""}})
        out = groundtruth_path(output_dir, gt.item_id, use_case, file=gt.provenance.file if gt.provenance else None)
        data = canonical_json(gt)
        writes.append((out, data))
        known[out] = (gt, fingerprint_bytes(data))
    # One flush to disk for every item's file (one fsync each made 10,000 items take minutes).
    summary.made += sum(atomic_write_many(writes))
    summary.outputs.extend(out for out, _ in writes)
    target = consolidated_path(output_dir, use_case)
    entries = [(gt.item_id, out) for (out, _), gt in zip(writes, gts, strict=True)]
    write_consolidated(target, entries, use_case, output_dir, known)
    summary.outputs.append(target)
