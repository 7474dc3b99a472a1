"""Response templates as the reference tool documents them: `create-template -d DIR --use-case U --format F`
writes one record per test item (`test_id`, `input_text`, an empty `response`, the criteria); once a person
has pasted a third-party system's responses in, `eval` scores the file directly (or `import-template` turns it
into an experiment file). An empty response is an error item, never a silent Poor.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

import orjson

from gaia_eval import usecases
from gaia_eval.artifacts.experiment import Experiment, ExperimentSpec, ItemResult, safe_name
from gaia_eval.artifacts.groundtruth import SUMMARY_STYLES, SourceDocument, Summaries
from gaia_eval.artifacts.names import file_stem
from gaia_eval.artifacts.response_template import (
    FORMATS,
    SPREADSHEET_CELL_LIMIT,
    ResponseRecord,
    ResponseTemplate,
    csv_excerpt,
    read_template,
    relative_to_template,
    write_template,
)
from gaia_eval.artifacts.store import fingerprint, fingerprint_bytes
from gaia_eval.errors import InputError, MalformedResponseError, UsageError
from gaia_eval.providers.pricing import lookup_price
from gaia_eval.scoring.scorers import scorer_for
from gaia_eval.stages.common import check_output_dir, ensure_output_dir
from gaia_eval.stages.experiment.inputs import WorkItem, Workload, load_workload
from gaia_eval.stages.experiment.run import compute_totals
from gaia_eval.stages.experiment.solvers import LIST_STYLES, STYLE_INSTRUCTIONS, coerce_summaries, parse_list

EMPTY_RESPONSE = "no response filled in"
_HEADING = re.compile(
    r"^\s*(?:#+\s*)?(?:\*\*)?(executive summary|detailed summary|summary|action items|key decisions|decisions|"
    r"participants|attendees|topics discussed|topics)(?:\*\*)?\s*(?::\s*(?:\*\*)?\s*(.*)|$)",
    re.IGNORECASE,
)
_HEADING_STYLE = {"executive summary": "executive_summary", "summary": "executive_summary",
                  "detailed summary": "detailed_summary", "action items": "action_items",
                  "key decisions": "key_decisions", "decisions": "key_decisions", "participants": "participants",
                  "attendees": "participants", "topics discussed": "topics_discussed", "topics": "topics_discussed"}


def _workload_for(input_path: Path, use_case: str | None) -> Workload:
    """Ground truth (a consolidated file, per-file files or their folder) or a folder of raw documents."""
    path = Path(input_path)
    if path.is_dir() and use_case:
        consolidated = path / f"consolidated_{use_case}_groundtruth.json"
        if consolidated.is_file():
            path = consolidated
        else:
            nested = path / use_case / f"consolidated_{use_case}_groundtruth.json"
            if nested.is_file():
                path = nested
    workload = load_workload(path, option="-d")
    if not use_case:
        return workload
    case = usecases.get(use_case, field="--use-case")
    if workload.groundtruth == "none":
        if case.asks_questions:
            raise InputError(
                f"holds documents but no {use_case} ground truth, so there are no questions to ask",
                file=input_path,
                fix=f"run `gaia-eval groundtruth -d {input_path} --use-case {use_case} -o groundtruth` first, then "
                f"`gaia-eval create-template -d groundtruth --use-case {use_case}`",
            )
        return Workload(use_case, workload.items, workload.sources, "none", workload.input_path)
    if not case.shares_data_with(workload.use_case):
        raise InputError(f"holds {workload.use_case} ground truth, not {use_case}", file=path, field="--use-case",
                         fix=f"pass --use-case {workload.use_case}, or {use_case} ground truth with -d")
    return workload


def _criteria(use_case: str, mode: str, input_path: Path) -> dict[str, str]:
    """The criteria (id: label) the use case's scorer for this mode rates, written into every record."""
    scorer = scorer_for(usecases.get(use_case), mode)
    if scorer is None:
        raise InputError(f"holds no {use_case} ground truth, and {use_case} cannot be scored without it",
                         file=input_path, field="-d", fix=f"pass {use_case} ground truth with -d")
    return {c.id: c.title for c in scorer.criteria}


def _expected_text(item: WorkItem) -> str | None:
    if item.expected_answer is not None:  # several reference answers (any is right): every one, apart
        return " | ".join(item.expected_answer.answers)
    if item.expected_summaries is not None:
        return summaries_as_text(item.expected_summaries)
    return None


def summaries_as_text(s: Summaries) -> str:
    parts = []
    for style in SUMMARY_STYLES:
        label = STYLE_INSTRUCTIONS[style][0].capitalize() if style != "topics_discussed" else "Topics discussed"
        value = getattr(s, style)
        body = "\n".join(f"- {v}" for v in value) if style in LIST_STYLES else value
        parts.append(f"{label}:\n{body}")
    return "\n\n".join(parts)


def _fit_csv_cells(records: list[ResponseRecord], workload: Workload, path: Path, warn: Callable[[str], None]) -> None:
    """A source longer than a spreadsheet cell becomes an excerpt; the whole text stays where it came from (the
    ground-truth file, or the document, named in `input_file`), and that whole text is what gets scored."""
    long = [r for r in records if len(r.input_text) > SPREADSHEET_CELL_LIMIT]
    for rec in long:
        if workload.groundtruth == "embedded":
            where = workload.input_path.as_posix()
        else:
            doc = workload.sources[rec.test_id]
            folder = workload.input_path if workload.input_path.is_dir() else workload.input_path.parent
            rec.input_file = relative_to_template(folder / doc.path, path)
            where = rec.input_file
        rec.input_text = csv_excerpt(rec.input_text, where)
    if long:
        longest = max(
            len(workload.sources[r.source].text) for r in workload.items if r.item_id in {x.test_id for x in long}
        )
        warn(f"{len(long)} source(s) are longer than a spreadsheet cell ({SPREADSHEET_CELL_LIMIT:,} characters; the "
             f"longest {longest:,}): their input_text is an excerpt and the whole text is scored from "
             + ("the ground truth" if workload.groundtruth == "embedded" else "the file named in input_file")
             + "; --format json, jsonl or xml keeps the text whole")


def run_create_response_template(
    input_path: Path, output_dir: Path, *, use_case: str | None = None, fmt: str = "json", name: str | None = None,
    model: str = "manual", include_groundtruth: bool = False, warn: Callable[[str], None] = lambda _message: None,
) -> Path:
    if fmt not in FORMATS:
        raise UsageError(f"unknown format '{fmt}'", field="--format", fix="use one of: " + ", ".join(FORMATS))
    check_output_dir(Path(output_dir))  # a file in the way is one line before any work (was exit 1 "File exists")
    workload = _workload_for(Path(input_path), use_case)
    use_case = use_case or workload.use_case
    stem = file_stem(name, what="template name", style="slug", field="--name") if name else use_case
    mode = "comparative" if workload.groundtruth == "embedded" else "standalone"
    criteria = _criteria(use_case, mode, Path(input_path))
    records = [
        ResponseRecord(
            test_id=item.item_id,
            query=item.query,
            input_text=workload.sources[item.source].text,
            evaluation_criteria=criteria,
            ground_truth=_expected_text(item) if include_groundtruth else None,
        )
        for item in workload.items
    ]
    path = Path(output_dir) / f"{stem}.template.{fmt}"
    if path.exists():
        raise InputError("already exists; it may hold responses someone filled in", file=path,
                         fix="fill that one in, or pass --name NAME or another -o")
    template = ResponseTemplate(
        name=name or stem, use_case=use_case, records=records, model=model,
        groundtruth_file=workload.input_path.as_posix() if workload.groundtruth == "embedded" else None,
        instructions=usecases.template_instructions(usecases.get(use_case)),
    )
    if fmt == "csv":
        _fit_csv_cells(records, workload, path, warn)
    ensure_output_dir(Path(output_dir))
    write_template(path, template)
    return path


def summaries_from_text(text: str) -> Summaries:
    """A pasted summary as Summaries: a JSON object of the six styles, or text with one heading per style;
    text without headings counts as both the executive and the detailed summary."""
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            return coerce_summaries(orjson.loads(stripped))
        except (orjson.JSONDecodeError, MalformedResponseError):
            pass
    sections: dict[str, list[str]] = {}
    current: str | None = None
    for line in stripped.splitlines():
        m = _HEADING.match(line)
        if m:
            current = _HEADING_STYLE[m.group(1).lower()]
            sections.setdefault(current, [])
            if (m.group(2) or "").strip():
                sections[current].append(m.group(2).strip())
        elif current is not None:
            sections[current].append(line)
    if not sections:
        return Summaries(executive_summary=stripped, detailed_summary=stripped)
    values: dict[str, object] = {}
    for style, lines in sections.items():
        body = "\n".join(lines).strip()
        values[style] = parse_list(body) if style in LIST_STYLES else body
    if "detailed_summary" not in values and "executive_summary" in values:
        values["detailed_summary"] = values["executive_summary"]
    return Summaries.model_validate(values)


def _check_records(path: Path, t: ResponseTemplate) -> None:
    seen: set[str] = set()
    for rec in t.records:
        if rec.test_id in seen:
            raise InputError(f"lists item '{rec.test_id}' twice", file=path, field="test_id",
                             fix="keep one record per test_id (delete the duplicate row)")
        seen.add(rec.test_id)


def _standalone_workload(path: Path, t: ResponseTemplate) -> Workload:
    """The template's own texts as the documents to score standalone; questions need their ground truth."""
    if usecases.get(t.use_case).asks_questions:
        raise InputError(f"is a {t.use_case} template without ground truth", file=path, field="groundtruth_file",
                         fix=f"pass the {t.use_case} ground truth with -g")
    sources, items = {}, []
    for rec in t.records:
        doc = SourceDocument(
            path=rec.test_id, fingerprint=fingerprint_bytes(rec.input_text.encode()), text=rec.input_text
        )
        sources[rec.test_id] = doc
        items.append(WorkItem(rec.test_id, rec.test_id, None, None, None, doc.fingerprint))
    return Workload(t.use_case, items, sources, "none", path)


def experiment_from_template(path: Path, groundtruth: Path | None = None) -> tuple[Experiment, list[str], str]:
    """The template as an experiment (ground truth embedded when known), the test_ids left empty, and the
    fingerprint of everything it was made from."""
    t = read_template(path)
    case = usecases.get(t.use_case, file=path, field="use_case")
    _check_records(path, t)
    gt_path = Path(groundtruth) if groundtruth else Path(t.groundtruth_file) if t.groundtruth_file else None
    if gt_path is not None and not gt_path.exists() and not gt_path.is_absolute() and (path.parent / gt_path).exists():
        gt_path = path.parent / gt_path
    workload = _workload_for(gt_path, t.use_case) if gt_path is not None else _standalone_workload(path, t)
    if not case.shares_data_with(workload.use_case):
        raise InputError(f"is a {t.use_case} template but {gt_path} is {workload.use_case} ground truth", file=path,
                         field="use_case", fix="pass the ground truth the template was made from with -g")
    records = {r.test_id: r for r in t.records}
    by_id = {i.item_id: i for i in workload.items}
    unknown = [tid for tid in records if tid not in by_id]
    if unknown:
        raise InputError(f"has test_id '{unknown[0]}', which {gt_path} does not have ({len(unknown)} unknown)",
                         file=path, field="test_id", fix="make a fresh template with `gaia-eval create-template`")
    quote = lookup_price("manual", t.model)
    results, empty = [], []
    for item in workload.items:
        rec = records.get(item.item_id)
        response = rec.response.strip() if rec is not None else ""
        ok = bool(response)
        if not ok:
            empty.append(item.item_id)
        qa = usecases.get(workload.use_case).asks_questions
        results.append(ItemResult(
            item_id=item.item_id, source=item.source,
            fingerprint=fingerprint([item.content_fingerprint, response]),
            status="ok" if ok else "error",
            error=None if ok else (EMPTY_RESPONSE if rec is not None else "missing from the template"),
            query=item.query,
            answer=response if ok and qa else None,
            summaries=summaries_from_text(response) if ok and not qa else None,
            groundtruth_answer=item.expected_answer, groundtruth_summaries=item.expected_summaries,
            cost_status=quote.status,
        ))
    now = datetime.now(timezone.utc)
    exp = Experiment(
        experiment_name=t.name, safe_name=safe_name(t.name), use_case=t.use_case,
        spec=ExperimentSpec(name=t.name, provider="manual", model=t.model),
        input_path=Path(path).as_posix(), groundtruth=workload.groundtruth,  # type: ignore[arg-type]
        pricing=quote.describe(), sources=workload.sources, items=results,
        totals=compute_totals(results, 0.0, quote), started_at=now, finished_at=now,
    )
    made_from = fingerprint([fingerprint_bytes(Path(path).read_bytes()), workload.fingerprint()])
    return exp, empty, made_from
