"""The item × system matrix of one use case (as promptfoo's matrix and Inspect's sample list show): per item its
question or input and its reference, and per system its output, verdict and score; filtered (failing, systems
disagreeing on pass/fail, text search), sorted (score spread, id) and paged on the server, so 1,000 items
answer a page at a time. Built once per version of the evaluation and experiment folders. Read-only."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gaia_eval import cells
from gaia_eval.reporting import use_case_view
from gaia_eval.visualize.outputs import experiment_index, experiments_by_name, output_of, template_answers

PAGE_SIZE = 50
MAX_PAGE_SIZE = 200
OUTPUT_CHARS = 4000  # an output longer than this is cut in the cell; the item page shows it whole
INPUT_CHARS = 600  # a summarised document's opening, as the row's input
FILTERS = ("", "failing", "disagree")
SORTS = ("id", "spread", "-spread")


class MatrixRequestError(ValueError):
    """A matrix request with an unknown filter or sort, or a page that is not a number: refused with 400."""


def text_of(value: Any) -> str | None:
    """An answer, summaries (sections) or reference as plain text: sections as `Heading: text` lines."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        if "answer" in value and isinstance(value["answer"], str):  # a qa reference: the answer is what counts
            return value["answer"]
        lines = []
        for key, part in value.items():
            if key == "references" or part in (None, "", []):
                continue
            shown = "; ".join(map(str, part)) if isinstance(part, list) else str(part)
            lines.append(f"{key.replace('_', ' ').capitalize()}: {shown}")
        return "\n".join(lines) or None
    return str(value)


def verdict_of(status: str, passed: bool | None, score: float | None) -> str:
    """'pass' / 'fail' where the use case has one; 'error' for an item the system failed; else the rating band
    (a summary has no pass/fail: Poor counts as failing)."""
    from gaia_eval.scoring import rubric

    if status == "error":
        return "error"
    if passed is not None:
        return "pass" if passed else "fail"
    return rubric.rating_band(score) if score is not None else "missing"


def fails(verdict: str) -> bool:
    return verdict in ("fail", "error", "Poor")


@dataclass
class _Row:
    item_id: str
    query: str | None = None
    source: str | None = None
    reference: str | None = None
    cells: list[dict[str, Any] | None] = field(default_factory=list)
    spread: float = 0.0
    failing: bool = False
    disagree: bool = False
    haystack: str = ""


@dataclass
class _Matrix:
    systems: list[dict[str, Any]]
    rows: list[_Row]
    sources: dict[str, Any]  # source name -> an experiment that holds it (read when a page shows it)


_lock = threading.Lock()
_cache: dict[tuple[Path, Path, str], tuple[Any, _Matrix]] = {}


def _cell(ev_item: Any, score: float, output: Any) -> dict[str, Any]:
    verdict = verdict_of(ev_item.status, ev_item.passed, score)
    text = text_of(output)
    return {"status": ev_item.status, "score": round(score, 1), "verdict": verdict, "passed": ev_item.passed,
            "error": ev_item.error, "output": text}


def _build(eval_root: Path, exp_root: Path, use_case: str, indexed: list[Any]) -> _Matrix:
    from gaia_eval.visualize.references import embedded_groundtruth, external_groundtruth, reference_for

    experiments = experiments_by_name(exp_root)
    systems: list[dict[str, Any]] = []
    rows: dict[str, _Row] = {}
    sources: dict[str, Any] = {}
    for column, entry in enumerate(indexed):
        ev = entry.evaluation
        systems.append({"experiment_name": ev.experiment_name, "model": cells.model_label(ev.provider, ev.model),
                        "file": entry.summary["file"]})
        exp = experiments.get((ev.experiment_name, ev.use_case))
        results = {r.item_id: r for r in exp.items} if exp is not None else {}
        filled = template_answers(ev, eval_root) if exp is None else {}
        gts = external_groundtruth(ev, eval_root) or embedded_groundtruth(
            exp.input_path if exp is not None else None, exp_root)
        scores = {iid: score for iid, score, _status in entry.points}
        for ev_item in ev.items:
            row = rows.setdefault(ev_item.item_id, _Row(ev_item.item_id, cells=[None] * len(indexed)))
            result = results.get(ev_item.item_id)
            output = output_of(result) if result is not None else filled.get(ev_item.item_id, {}).get("output")
            row.cells[column] = _cell(ev_item, scores[ev_item.item_id], output)
            row.query = row.query or (result.query if result is not None else
                                      filled.get(ev_item.item_id, {}).get("query"))
            if row.source is None:
                row.source = result.source if result is not None else ev_item.source
                if exp is not None and row.source in exp.sources:
                    sources.setdefault(row.source, exp)
            if row.reference is None and result is not None:
                row.reference = text_of(result.groundtruth_answer.model_dump() if result.groundtruth_answer
                                        else result.groundtruth_summaries.model_dump()
                                        if result.groundtruth_summaries else None)
            if row.reference is None and gts:
                row.reference = text_of(reference_for(gts, ev_item.item_id, row.source)[0])
    for row in rows.values():
        present = [c for c in row.cells if c is not None]
        scores_present = [c["score"] for c in present]
        row.spread = round(max(scores_present) - min(scores_present), 1) if scores_present else 0.0
        verdicts = [fails(c["verdict"]) for c in present]
        row.failing = any(verdicts)
        row.disagree = any(verdicts) and not all(verdicts)
        row.haystack = "\n".join(filter(None, [row.item_id, row.query, row.reference,
                                               *(c["output"] for c in present)])).casefold()
    return _Matrix(systems, [rows[i] for i in sorted(rows)], sources)


def _matrix(eval_root: Path, exp_root: Path, use_case: str, indexed: list[Any], key: Any) -> _Matrix:
    """The use case's matrix, rebuilt only when an evaluation or experiment file changed."""
    cache_key = (Path(eval_root).resolve(), Path(exp_root).resolve(), use_case)
    with _lock:
        cached = _cache.get(cache_key)
        if cached is not None and cached[0] == key:
            return cached[1]
    built = _build(eval_root, exp_root, use_case, indexed)
    with _lock:
        _cache[cache_key] = (key, built)
    return built


def _cut(text: str | None, limit: int) -> tuple[str | None, int]:
    if text is None or len(text) <= limit:
        return text, 0
    return text[:limit], len(text) - limit


def _input_of(matrix: _Matrix, row: _Row) -> str | None:
    if row.query:
        return row.query
    exp = matrix.sources.get(row.source or "")
    if exp is None:
        return None
    try:
        text = exp.sources[row.source].text
    except (KeyError, ValueError, OSError):
        return None
    cut, more = _cut(text, INPUT_CHARS)
    return f"{cut}…" if more else cut


def _shown(matrix: _Matrix, row: _Row) -> dict[str, Any]:
    cells: list[dict[str, Any] | None] = []
    for cell in row.cells:
        if cell is None:
            cells.append(None)
            continue
        output, more = _cut(cell["output"], OUTPUT_CHARS)
        cells.append({**cell, "output": output, "output_cut": more})
    return {"item_id": row.item_id, "input": _input_of(matrix, row), "is_question": bool(row.query),
            "source": row.source, "reference": row.reference, "spread": row.spread, "failing": row.failing,
            "disagree": row.disagree, "cells": cells}


def matrix_page(
    eval_root: Path, exp_root: Path, use_case: str, indexed: list[Any], key: Any, *,
    filter_: str = "", query: str = "", sort: str = "id", page: int = 1, size: int = PAGE_SIZE,
) -> dict[str, Any]:
    """One page of the use case's matrix after filtering (failing: some system fails the item; disagree: some
    pass and some fail), text search (case-insensitive, over id, question, reference and every output) and
    sorting (id; spread: largest score spread first; -spread: smallest first)."""
    if filter_ not in FILTERS:
        raise MatrixRequestError(f"unknown filter {filter_!r}: use one of failing, disagree (or none)")
    if sort not in SORTS:
        raise MatrixRequestError(f"unknown sort {sort!r}: use one of {', '.join(SORTS)}")
    experiment_index(exp_root).current()  # refreshed first, so that its fingerprint is today's
    matrix = _matrix(eval_root, exp_root, use_case, indexed, (key, experiment_index(exp_root).fingerprint()))
    rows = matrix.rows
    if filter_:
        rows = [r for r in rows if (r.failing if filter_ == "failing" else r.disagree)]
    needle = query.strip().casefold()
    if needle:
        rows = [r for r in rows if needle in r.haystack]
    if sort != "id":
        rows = sorted(rows, key=lambda r: (-r.spread if sort == "spread" else r.spread, r.item_id))
    size = max(1, min(size, MAX_PAGE_SIZE))
    pages = max(1, -(-len(rows) // size))
    page = max(1, min(page, pages))
    return {
        "use_case": use_case, "title": use_case_view.title(use_case),
        "asks_questions": use_case_view.asks_questions(use_case), "systems": matrix.systems,
        "n_items": len(matrix.rows), "total": len(rows), "page": page, "pages": pages, "size": size,
        "filter": filter_, "q": query, "sort": sort,
        "rows": [_shown(matrix, r) for r in rows[(page - 1) * size: page * size]],
    }
