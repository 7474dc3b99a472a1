"""`import-groundtruth` and `import-outputs`: a user's own data (human reference summaries, question-answer pairs,
many systems' outputs) from JSONL, CSV or JSON into ground-truth and experiment artifacts.

Every row is read and checked before anything is written, so a bad row (one line naming file, line and field)
leaves no file behind; outputs are written atomically.
"""

from __future__ import annotations

import csv
import io
import string
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from gaia_eval.artifacts.base import Usage
from gaia_eval.artifacts.experiment import (
    Experiment,
    ExperimentSpec,
    ExperimentTotals,
    ItemResult,
    experiment_file,
    safe_name,
)
from gaia_eval.artifacts.groundtruth import GroundTruth, Provenance, QAPair, SourceDocument, Summaries
from gaia_eval.artifacts.inputs import parse_json, read_input_text
from gaia_eval.artifacts.names import NameClaims, file_stem
from gaia_eval.artifacts.store import (
    atomic_write_many,
    canonical_json,
    describe_validation_error,
    fingerprint,
    fingerprint_bytes,
    fingerprint_file,
    write_artifact,
)
from gaia_eval.errors import InputError, UsageError
from gaia_eval.extract import SUPPORTED_SUFFIXES, extract_text
from gaia_eval.scoring.rubric import IMPORTED_PROVIDER, is_long_form
from gaia_eval.stages.common import StageSummary, check_output_dir, ensure_output_dir
from gaia_eval.stages.groundtruth.run import consolidate, consolidated_path, groundtruth_path

IMPORT_SUFFIXES = (".jsonl", ".csv", ".json")


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


@dataclass
class _Row:
    file: Path
    line: int
    data: dict[str, Any]


def _rows(path: Path) -> list[_Row]:
    """Rows of a .jsonl (one object a line), .csv (a header line) or .json (an object or a list of objects).
    Any line that does not read is an error naming it: no row is ever skipped."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in IMPORT_SUFFIXES:
        raise InputError(f"has an unsupported extension '{suffix}'", file=path, fix="pass a .jsonl, .csv or .json file")
    text = read_input_text(path, "a data file")
    rows: list[_Row] = []
    if suffix == ".jsonl":
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            data = parse_json(path, line, where=f"line {number}: ", fix="one JSON object per line")
            if not isinstance(data, dict):
                raise InputError(f"line {number}: expected a JSON object", file=path, fix="one JSON object per line")
            rows.append(_Row(path, number, data))
    elif suffix == ".csv":
        csv.field_size_limit(max(csv.field_size_limit(), len(text)))  # a long document fits in a cell
        reader = csv.DictReader(io.StringIO(text, newline=""))
        try:
            for data in reader:
                rows.append(_Row(path, reader.line_num, {k: v for k, v in data.items() if k is not None}))
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
            rows.append(_Row(path, number, item))
    if not rows:
        raise InputError("holds no rows", file=path, fix="add at least one item")
    return rows


def _get(data: Any, dotted: str) -> Any:
    value = data
    for part in dotted.split("."):
        if isinstance(value, list):
            value = [v.get(part) if isinstance(v, dict) else None for v in value]
        elif isinstance(value, dict):
            value = value.get(part)
        else:
            return None
    return value


def _where(row: _Row) -> str:
    return f"line {row.line}" if row.file.suffix.lower() in (".jsonl", ".csv") else f"item {row.line}"


def _fail(row: _Row, field_name: str, problem: str, fix: str) -> InputError:
    return InputError(f"{_where(row)}: {problem}", file=row.file, field=field_name, fix=fix)


def _texts(row: _Row, field_name: str) -> list[str]:
    value = _get(row.data, field_name)
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
    raise _fail(row, field_name, "expected a string or a list of strings", "give the reference summaries as text")


def _item_id(row: _Row, fields: GroundTruthFields, default: str | None) -> str:
    """The row's id, checked to name a file (`file_stem`): text or a whole number, never a list or a flag."""
    value = _get(row.data, fields.id)
    if value in (None, ""):
        if default is None:
            raise _fail(
                row, fields.id, "missing", f"give every row an id in '{fields.id}' (or name the field with --id-field)"
            )
        value = default
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    try:
        file_stem(value, what="item id")
    except InputError as exc:
        raise _fail(row, fields.id, exc.message, exc.fix or "") from None
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


def _source(row: _Row, fields: GroundTruthFields, item_id: str) -> SourceDocument:
    folder = row.file.parent
    if fields.source_file:
        path = folder / fields.source_file.format(item_id=item_id)
        if not path.is_file():
            raise _fail(row, "--source-file", f"source file {path} not found", "check the --source-file template")
    else:
        value = _get(row.data, fields.source)
        if not isinstance(value, str) or not value.strip():
            raise _fail(
                row,
                fields.source,
                "missing or empty",
                "give the source text or a path to a .txt/.md/.html/.pdf file (or --source-file)",
            )
        candidate = folder / value.strip()
        if not value.strip().lower().endswith(SUPPORTED_SUFFIXES) or "\n" in value:
            return SourceDocument(
                path=f"{row.file.name}#{item_id}", fingerprint=fingerprint_bytes(value.encode()), text=value
            )
        if not candidate.is_file():
            raise _fail(
                row, fields.source, f"source file {candidate} not found", "give a path relative to the data file"
            )
        path = candidate
    text = extract_text(path).text
    return SourceDocument(path=path.as_posix(), fingerprint=fingerprint_file(path), text=text)


def _qa_pairs(row: _Row, fields: GroundTruthFields) -> list[QAPair]:
    value = _get(row.data, fields.qa)
    if value in (None, "", []):
        return []
    if isinstance(value, str) and row.file.suffix.lower() == ".csv":
        try:
            value = parse_json(row.file, value)
        except InputError:
            raise _fail(
                row, fields.qa, "not a JSON list", "write the cell as a JSON list of {question, answer} objects"
            ) from None
    if not isinstance(value, list):
        raise _fail(
            row, fields.qa, "expected a list of question-answer objects", 'e.g. [{"question": ..., "answer": ...}]'
        )
    pairs = []
    for n, pair in enumerate(value, 1):
        question = pair.get(fields.question) if isinstance(pair, dict) else None
        answer = pair.get(fields.answer) if isinstance(pair, dict) else None
        if not isinstance(question, str) or not question.strip() or not isinstance(answer, str) or not answer.strip():
            raise _fail(
                row, f"{fields.qa}[{n}]", f"needs a non-empty '{fields.question}' and '{fields.answer}'",
                "name the keys with --question-key/--answer-key",
            )
        pairs.append(QAPair(id=f"q{n:02d}", query=question, answer=answer, answer_type="string"))
    return pairs


def run_import_groundtruth(
    files: list[Path], output_dir: Path, fields: GroundTruthFields = GroundTruthFields()
) -> StageSummary:
    """One summarization ground truth per item with human references (and one qa ground truth per item with
    question-answer pairs), plus each use case's consolidated file. Items keep their provenance."""
    summary = StageSummary("import-groundtruth")
    built: dict[str, list[GroundTruth]] = {"summarization": [], "qa": []}
    seen: dict[str, str] = {}
    claims = NameClaims("item id")
    if fields.source_file:
        _source_file_template(fields.source_file)
    for path in files:
        path = Path(path)
        rows = _rows(path)
        file_fp = fingerprint_file(path)
        for row in rows:
            default_id = path.name.split(".")[0] if path.suffix.lower() == ".json" and len(rows) == 1 else None
            item_id = _item_id(row, fields, default_id)
            if item_id in seen:
                raise _fail(
                    row, fields.id, f"duplicate id '{item_id}' (also in {seen[item_id]})", "give every item its own id"
                )
            seen[item_id] = f"{path.name} {_where(row)}"
            try:
                claims.claim(item_id, file_stem(item_id, what="item id"))
            except InputError as exc:
                raise _fail(row, fields.id, exc.message, exc.fix or "") from None
            references = _texts(row, fields.references)
            qa = _qa_pairs(row, fields)
            if not references and not qa:
                raise _fail(
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
                built["summarization"].append(GroundTruth.model_validate(
                    {"use_case": "summarization", "summaries": summaries, "references": references, **common}))
            if qa:
                built["qa"].append(GroundTruth.model_validate({"use_case": "qa", "qa_pairs": qa, **common}))
    pairs = [q for gt in built["qa"] for q in gt.qa_pairs or []]
    if pairs:
        long_form = sum(map(is_long_form, pairs))
        summary.notes.append(
            f"qa: {len(pairs)} questions, {long_form} with long-form answers (scored with the free-text "
            f"criteria), {len(pairs) - long_form} with short answers (the answer matcher)"
        )
    ensure_output_dir(Path(output_dir))
    for use_case, gts in built.items():
        if not gts:
            continue
        writes: list[tuple[Path, bytes]] = []
        known: dict[Path, tuple[GroundTruth, str]] = {}
        for gt in gts:
            gt = gt.model_copy(update={"inputs": {"file": gt.provenance.fingerprint if gt.provenance else ""}})
            out = groundtruth_path(
                Path(output_dir), gt.item_id, use_case, file=gt.provenance.file if gt.provenance else None
            )
            data = canonical_json(gt)
            writes.append((out, data))
            known[out] = (gt, fingerprint_bytes(data))
        # One flush to disk for every item's file (one fsync each made 10,000 items take minutes).
        summary.made += sum(atomic_write_many(writes))
        summary.outputs.extend(out for out, _ in writes)
        target = consolidated_path(Path(output_dir), use_case)
        write_artifact(
            target,
            consolidate(
                [(gt.item_id, out) for (out, _), gt in zip(writes, gts, strict=True)], use_case, Path(output_dir), known
            ),
        )
        summary.outputs.append(target)
    return summary


def _outputs_use_case(use_case: str | None, gts: dict[str, GroundTruth], groundtruth: Path | None) -> tuple[str, str]:
    """(use case, why): the one of -g's ground truth, else --use-case, else summarization; said, never guessed."""
    found = sorted({gt.use_case for gt in gts.values()})
    if len(found) > 1:
        raise InputError(f"holds ground truth for several use cases ({', '.join(found)})", file=groundtruth,
                         field="-g/--groundtruth", fix="pass one consolidated_<use_case>_groundtruth.json")
    if found and use_case is not None and use_case != found[0]:
        raise InputError(
            f"holds {found[0]} ground truth but --use-case is {use_case}",
            file=groundtruth,
            field="--use-case",
            fix=f"pass the consolidated_{use_case}_groundtruth.json, or leave --use-case out",
        )
    if found:
        return found[0], f"from the ground truth {Path(groundtruth).name}"  # type: ignore[arg-type]
    if use_case == "qa":
        raise UsageError("qa outputs are scored against their expected answers, which the rows do not hold",
                         fix="pass -g consolidated_qa_groundtruth.json (from import-groundtruth)")
    if use_case is not None:
        return use_case, "from --use-case"
    return "summarization", "the default without -g (pass --use-case or -g to say otherwise)"


def _question(row: _Row, item_id: str, gts: dict[str, GroundTruth], groundtruth: Path) -> tuple[GroundTruth, QAPair]:
    """The ground truth and question a qa row answers: `item_id` is a question id, `<document>#<question id>`."""
    document, _, question_id = item_id.rpartition("#")
    gt = gts.get(document)
    pair = next((q for q in (gt.qa_pairs or []) if q.id == question_id), None) if gt is not None else None
    if gt is not None and pair is not None:
        return gt, pair
    example = next((f"{g.item_id}#{g.qa_pairs[0].id}" for g in gts.values() if g.qa_pairs), "DOCUMENT#q01")
    if item_id in gts:
        problem = f"item_id '{item_id}' names a document, not one of its questions"
    else:
        problem = f"item_id '{item_id}' is no question of {Path(groundtruth).name}"
    raise _fail(
        row, "item_id", problem, f"key each answer by its question id, <document>#<question id> such as '{example}'"
    )


def _row_source(
    row: _Row, file: Path, item_id: str, gts: dict[str, GroundTruth], groundtruth: Path | None
) -> SourceDocument:
    """The row's `source` column, else the source of its item in -g's ground truth; a missing one is named."""
    source_text = row.data.get("source")
    if isinstance(source_text, str) and source_text.strip():
        return SourceDocument(
            path=f"{Path(file).name}#{item_id}", fingerprint=fingerprint_bytes(source_text.encode()), text=source_text
        )
    if item_id in gts:
        return gts[item_id].source
    if groundtruth is None:
        raise _fail(row, "source", f"no source column and no -g for item '{item_id}'",
                    "add a source column, or pass -g with the ground truth of these items")
    document = item_id.rpartition("#")[0]
    if document in gts:
        raise _fail(
            row,
            "item_id",
            f"'{item_id}' looks like a question id but {Path(groundtruth).name} holds summaries",
            "pass -g consolidated_qa_groundtruth.json to import answers to questions",
        )
    raise _fail(row, "item_id", f"item '{item_id}' is not in {Path(groundtruth).name} and the row has no source column",
                f"key the row by an item of the ground truth (e.g. '{next(iter(gts), '')}'), or add a source column")


_NUMBERS = ("input_tokens", "output_tokens", "cost_usd", "latency_s")


def _item_result(row: _Row, item_id: str, system: str, question: tuple[GroundTruth, QAPair] | None) -> ItemResult:
    """The row as a model answer (to `question` for qa); its numbers checked by the artifact's constraints (whole
    non-negative tokens, finite non-negative cost and latency), a broken one named with its line."""
    from pydantic import ValidationError

    numbers: dict[str, Any] = {}  # each checked above: a finite non-negative number
    for key in _NUMBERS:
        value = row.data.get(key)
        if value in (None, ""):
            continue
        if isinstance(value, str):  # a CSV cell
            try:
                value = float(value) if key in ("cost_usd", "latency_s") or not value.strip().isdigit() else int(value)
            except ValueError:
                raise _fail(row, key, f"'{value}' is not a number", "leave it empty or give a number") from None
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise _fail(row, key, f"{value!r} is not a number", "leave it empty or give a number")
        numbers[key] = value
    text = row.data["output"]
    answer = {"query": question[1].query, "answer": text, "groundtruth_answer": question[1]} if question else {
        "summaries": Summaries(executive_summary=text, detailed_summary=text)}
    try:
        return ItemResult(
            item_id=item_id,
            source=question[0].item_id if question else item_id,
            fingerprint=fingerprint([item_id, system, text]),
            status="ok",
            **answer,
            usage=Usage(input_tokens=numbers.get("input_tokens", 0), output_tokens=numbers.get("output_tokens", 0)),
            cost_usd=numbers.get("cost_usd"),
            cost_status="priced" if "cost_usd" in numbers else "unpriced",
            latency_s=numbers.get("latency_s", 0.0),
        )
    except ValidationError as exc:
        field_path, problem = describe_validation_error(exc)
        key = field_path.split(".")[-1]
        raise _fail(row, key, f"{problem} (got {numbers.get(key)!r})",
                    "give a finite, non-negative number (a whole one for tokens)") from None


def run_import_outputs(
    file: Path,
    output_dir: Path,
    *,
    groundtruth: Path | None = None,
    use_case: str | None = None,
) -> StageSummary:
    """One experiment per system from rows of `item_id`, `system`, `output` (optional `source`, `input_tokens`,
    `output_tokens`, `cost_usd`, `latency_s`). The use case is -g's (a consolidated file from
    import-groundtruth, which also gives each item's source text when the rows do not), else `use_case`, else
    summarization, and the summary says which and why. qa rows are keyed by question id (`ES2009b#q01`) and
    carry their expected answer into the experiment."""
    from gaia_eval.stages.experiment.inputs import load_groundtruth_file

    rows = _rows(Path(file))
    gts = {gt.item_id: gt for gt in load_groundtruth_file(Path(groundtruth))} if groundtruth else {}
    use_case, why = _outputs_use_case(use_case, gts, groundtruth)
    systems: dict[str, list[tuple[_Row, ItemResult, SourceDocument]]] = {}
    claims = NameClaims("system", ".experiment.json")
    pairs: dict[tuple[str, str], str] = {}
    for row in rows:
        for key in ("item_id", "system", "output"):
            if not isinstance(row.data.get(key), str) or not str(row.data.get(key)).strip():
                if key == "output" and isinstance(row.data.get(key), str):
                    continue  # an empty output is scored as empty, not rejected
                raise _fail(row, key, "missing or not text", "every row needs item_id, system and output")
        item_id, system = row.data["item_id"], row.data["system"]
        stems = {}
        for key, what, style in (("item_id", "item id", "id"), ("system", "system", "slug")):
            try:
                stems[key] = file_stem(row.data[key], what=what, style=style)  # type: ignore[arg-type]
            except InputError as exc:
                raise _fail(row, key, exc.message, exc.fix or "") from None
        if system not in systems:
            try:
                claims.claim(system, stems["system"])
            except InputError as exc:
                raise _fail(row, "system", exc.message, exc.fix or "") from None
        question = _question(row, item_id, gts, groundtruth) if use_case == "qa" else None  # type: ignore[arg-type]
        if question is not None and not (isinstance(row.data.get("source"), str) and row.data["source"].strip()):
            source = question[0].source
        else:
            source = _row_source(row, file, item_id, gts, groundtruth)
        result = _item_result(row, item_id, system, question)
        if (system, item_id) in pairs:
            raise _fail(row, "item_id", f"system '{system}' has item '{item_id}' twice (also {pairs[system, item_id]})",
                        "one row per item and system")
        pairs[system, item_id] = _where(row)
        systems.setdefault(system, []).append((row, result, source))
    check_output_dir(Path(output_dir))
    summary = StageSummary("import-outputs")
    summary.notes.append(f"use case: {use_case} ({why})")
    now = datetime.now(timezone.utc)
    file_fp = fingerprint_file(Path(file))
    for system, results in systems.items():
        items = [r for _, r, _ in results]
        costs = [r.cost_usd for r in items]
        latencies = sorted(r.latency_s for r in items)
        usage = sum((r.usage for r in items), Usage())
        total_cost = sum(costs) if all(c is not None for c in costs) else None  # type: ignore[arg-type]
        exp = Experiment(
            inputs={
                "outputs": file_fp,
                **({"groundtruth": fingerprint_file(Path(groundtruth))} if groundtruth else {}),
            },
            experiment_name=system,
            safe_name=safe_name(system),
            use_case=use_case,
            spec=ExperimentSpec(name=system, provider=IMPORTED_PROVIDER, model=system),
            input_path=Path(file).as_posix(),
            groundtruth="embedded" if use_case == "qa" else "none",  # qa items carry their expected answers
            pricing="imported",
            sources={r.source: s for _, r, s in results},
            items=items,
            totals=ExperimentTotals(
                items=len(items),
                ok=len(items),
                errors=0,
                usage=usage,
                cost_usd=total_cost,
                input_cost_usd=None,
                output_cost_usd=None,
                cost_status="priced" if total_cost is not None else "unpriced",
                latency_p50_s=latencies[len(latencies) // 2],
                latency_p95_s=latencies[int(0.95 * (len(latencies) - 1))],
                latency_max_s=latencies[-1],
                latency_mean_s=sum(latencies) / len(latencies),
                wall_time_s=sum(latencies),
                throughput_items_per_s=0.0,
            ),
            started_at=now,
            finished_at=now,
        )
        out = experiment_file(Path(output_dir), system)
        write_artifact(out, exp)
        summary.made += 1
        summary.outputs.append(out)
    return summary
