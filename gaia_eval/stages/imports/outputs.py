"""`import-outputs`: many systems' outputs (rows of item_id, system, output) from JSONL, CSV or JSON into one
experiment per system, with the use case said and why.

Every row is read and checked before anything is written, so a bad row (one line naming file, line and field)
leaves no file behind; outputs are written atomically. Neither the file nor its rows are held: a first pass reads
the rows a line at a time and checks them (keeping each system's totals and a digest of each (system, item) pair,
8 bytes a row each: tally.py), then each system's experiment is written from another read of the file, its items
one at a time and its sources spooled to disk and given back in name order (artifacts/keyed_spool.py). A .json
array is read an object at a time too; another .json value (one object) is parsed whole. -g's ground truth is
indexed, each item read when a row needs it (artifacts/streamed.py, read_groundtruth_items): the memory is a byte
span per document, never the documents' texts.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gaia_eval import usecases
from gaia_eval.artifacts.base import Usage
from gaia_eval.artifacts.experiment import (
    Experiment,
    ExperimentHeader,
    ExperimentSpec,
    ExperimentTotals,
    ItemResult,
    experiment_file,
    safe_name,
)
from gaia_eval.artifacts.groundtruth import GroundTruth, QAPair, SourceDocument, Summaries
from gaia_eval.artifacts.keyed_spool import KeyedSpool
from gaia_eval.artifacts.names import NameClaims, file_stem
from gaia_eval.artifacts.store import (
    describe_validation_error,
    fingerprint,
    fingerprint_bytes,
    fingerprint_file,
)
from gaia_eval.artifacts.streamed import GroundTruthItems, read_groundtruth_items, write_streamed
from gaia_eval.errors import InputError, UsageError
from gaia_eval.scoring.rubric import IMPORTED_PROVIDER
from gaia_eval.stages.common import StageSummary, check_output_dir, holds_output_lock
from gaia_eval.stages.imports.rows import Row, iter_rows, row_error, where
from gaia_eval.stages.imports.tally import SortedRuns, TotalsSum, pair_digest, repeated


def _outputs_use_case(
    use_case: str | None, gts: GroundTruthItems, groundtruth: Path | None
) -> tuple[str, str]:
    """(use case, why): the one of -g's ground truth (or --use-case, when that ground truth serves it), else
    --use-case, else summarization; said, never guessed."""
    found = sorted(gts.use_cases)
    if len(found) > 1:
        raise InputError(
            f"holds ground truth for several use cases ({', '.join(found)})",
            file=groundtruth,
            field="-g/--groundtruth",
            fix="pass one consolidated_<use_case>_groundtruth.json",
        )
    case = None if use_case is None else usecases.get(use_case, field="--use-case")
    if found:
        if case is not None and not case.shares_data_with(found[0]):
            raise InputError(
                f"holds {found[0]} ground truth but --use-case is {use_case}",
                file=groundtruth,
                field="--use-case",
                fix=f"pass the consolidated_{use_case}_groundtruth.json, or leave --use-case out",
            )
        chosen = use_case or found[0]
        name = Path(groundtruth).name  # type: ignore[arg-type]
        return chosen, f"from the ground truth {name}" if chosen == found[0] else f"from --use-case, with {name}"
    if case is None:
        return usecases.default_for("summaries"), "the default without -g (pass --use-case or -g to say otherwise)"
    if case.asks_questions:
        raise UsageError(
            f"{use_case} outputs are scored against their expected answers, which the rows do not hold",
            fix=f"pass -g consolidated_{use_case}_groundtruth.json (from import-groundtruth)",
        )
    return use_case, "from --use-case"  # type: ignore[return-value]


def _question(row: Row, item_id: str, gts: Mapping[str, GroundTruth], groundtruth: Path) -> tuple[GroundTruth, QAPair]:
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
    raise row_error(
        row, "item_id", problem, f"key each answer by its question id, <document>#<question id> such as '{example}'"
    )


def _row_source(
    row: Row, file: Path, item_id: str, gts: Mapping[str, GroundTruth], groundtruth: Path | None
) -> SourceDocument | None:
    """The row's `source` column, else None for the source of its item in -g's ground truth (read only when the
    experiment's sources are written); a missing one is named."""
    source_text = row.data.get("source")
    if isinstance(source_text, str) and source_text.strip():
        return SourceDocument(
            path=f"{Path(file).name}#{item_id}", fingerprint=fingerprint_bytes(source_text.encode()), text=source_text
        )
    if item_id in gts:
        return None
    if groundtruth is None:
        raise row_error(
            row,
            "source",
            f"no source column and no -g for item '{item_id}'",
            "add a source column, or pass -g with the ground truth of these items",
        )
    document = item_id.rpartition("#")[0]
    if document in gts:
        raise row_error(
            row,
            "item_id",
            f"'{item_id}' looks like a question id but {Path(groundtruth).name} holds summaries",
            "pass -g consolidated_qa_groundtruth.json to import answers to questions",
        )
    example = next(iter(gts), "")
    raise row_error(
        row,
        "item_id",
        f"item '{item_id}' is not in {Path(groundtruth).name} and the row has no source column",
        f"key the row by an item of the ground truth (e.g. '{example}'), or add a source column",
    )


_NUMBERS = ("input_tokens", "output_tokens", "cost_usd", "latency_s")


def _item_result(row: Row, item_id: str, system: str, question: tuple[GroundTruth, QAPair] | None) -> ItemResult:
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
                raise row_error(row, key, f"'{value}' is not a number", "leave it empty or give a number") from None
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise row_error(row, key, f"{value!r} is not a number", "leave it empty or give a number")
        numbers[key] = value
    text = row.data["output"]
    answer = (
        {"query": question[1].query, "answer": text, "groundtruth_answer": question[1]}
        if question
        else {"summaries": Summaries(executive_summary=text, detailed_summary=text)}
    )
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
        raise row_error(
            row,
            key,
            f"{problem} (got {numbers.get(key)!r})",
            "give a finite, non-negative number (a whole one for tokens)",
        ) from None


@holds_output_lock()
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
    summarization, and the summary says which and why. Answers to questions (qa) are keyed by question id
    (`ES2009b#q01`) and carry their expected answer into the experiment."""
    gts = read_groundtruth_items(Path(groundtruth)) if groundtruth else GroundTruthItems.holding({})
    use_case, why = _outputs_use_case(use_case, gts, groundtruth)
    rows = _RowReader(Path(file), usecases.get(use_case).asks_questions, gts, groundtruth)
    totals = rows.check()
    check_output_dir(Path(output_dir))
    summary = StageSummary("import-outputs")
    summary.notes.append(f"use case: {use_case} ({why})")
    inputs = {"outputs": fingerprint_file(Path(file))}
    if groundtruth:
        inputs["groundtruth"] = fingerprint_file(Path(groundtruth))
    now = datetime.now(timezone.utc)
    for system, system_totals in totals.items():
        out = experiment_file(Path(output_dir), system)
        header = _imported_experiment(system, system_totals, use_case, inputs, Path(file), now)
        with KeyedSpool(out, SourceDocument) as sources:
            write_streamed(out, header, {"items": rows.results(system, sources), "sources": _sources(sources, gts)})
        summary.made += 1
        summary.outputs.append(out)
    return summary


class _RowReader:
    """The rows of one file as item results, read again on each pass, never held: `check` reads every row (keeping
    each system's totals and a digest of each (system, item) pair); `results` gives one system's."""

    def __init__(
        self, file: Path, asks_questions: bool, gts: GroundTruthItems, groundtruth: Path | None
    ) -> None:
        self.file, self.asks_questions, self.gts, self.groundtruth = file, asks_questions, gts, groundtruth

    def check(self) -> dict[str, ExperimentTotals]:
        """Each system's totals, every row checked before anything is written."""
        sums: dict[str, TotalsSum] = {}
        claims = NameClaims("system", ".experiment.json")
        pairs = SortedRuns("Q")  # a digest of each (system, item id): 8 bytes a row (a set of the pairs: ~200)
        for row in iter_rows(self.file):
            stems = _row_stems(row)
            item_id, system = row.data["item_id"], row.data["system"]
            if system not in sums:
                try:
                    claims.claim(system, stems["system"])
                except InputError as exc:
                    raise row_error(row, "system", exc.message, exc.fix or "") from None
            result, _ = self._result(row)
            pairs.add(pair_digest(system, item_id))
            sums.setdefault(system, TotalsSum()).add(result)
        self._refuse_repeats(repeated(pairs))
        return {system: _checked_totals(total, self.file, system) for system, total in sums.items()}

    def _refuse_repeats(self, digests: set[float]) -> None:
        """The first row giving a (system, item) pair again, named with the line of the first: looked for in a
        second read among the rows whose digest another row shares (two pairs sharing a digest are no repeat)."""
        if not digests:
            return
        lines: dict[tuple[str, str], int] = {}  # the pairs of those few rows: their first line
        for row in iter_rows(self.file):
            item_id, system = row.data["item_id"], row.data["system"]
            if pair_digest(system, item_id) not in digests:
                continue
            if (system, item_id) in lines:
                first = where(Row(self.file, lines[system, item_id], {}))
                raise row_error(row, "item_id", f"system '{system}' has item '{item_id}' twice (also {first})",
                                "one row per item and system")
            lines[system, item_id] = row.line

    def results(self, system: str, sources: KeyedSpool[SourceDocument]) -> Iterator[ItemResult]:
        """The item results of `system`, in row order, each row's own source handed to `sources` (one from -g's
        ground truth as None: `_sources` gives it back from there)."""
        for row in iter_rows(self.file):
            if row.data.get("system") == system:
                result, source = self._result(row)
                sources.put(result.source, source)
                yield result

    def _result(self, row: Row) -> tuple[ItemResult, SourceDocument | None]:
        """The row's item result and its own source (None: its item's in -g's ground truth)."""
        item_id, system = row.data["item_id"], row.data["system"]
        gts, groundtruth = self.gts, self.groundtruth
        question = _question(row, item_id, gts, groundtruth) if self.asks_questions else None  # type: ignore[arg-type]
        if question is not None and not _has_source(row):
            source = None  # the question's document in -g's ground truth
        else:
            source = _row_source(row, self.file, item_id, gts, groundtruth)
        return _item_result(row, item_id, system, question), source


def _has_source(row: Row) -> bool:
    """Whether the row gives its own source text (else it is -g's)."""
    return isinstance(row.data.get("source"), str) and bool(row.data["source"].strip())


def _sources(spool: KeyedSpool[SourceDocument], gts: GroundTruthItems) -> Iterator[tuple[str, SourceDocument]]:
    """One experiment's sources in name order, the last given for a name winning: a row's own from the spool, the
    others from -g's ground truth (a source taken from there is named by its item there)."""
    for name, source in spool.in_order():
        yield name, gts.source_of(name) if source is None else source


def _row_stems(row: Row) -> dict[str, str]:
    """The row's item_id and system, checked to be text that can name a file."""
    for key in ("item_id", "system", "output"):
        if not isinstance(row.data.get(key), str) or not str(row.data.get(key)).strip():
            if key == "output" and isinstance(row.data.get(key), str):
                continue  # an empty output is scored as empty, not rejected
            raise row_error(row, key, "missing or not text", "every row needs item_id, system and output")
    stems = {}
    for key, what, style in (("item_id", "item id", "id"), ("system", "system", "slug")):
        try:
            stems[key] = file_stem(row.data[key], what=what, style=style)  # type: ignore[arg-type]
        except InputError as exc:
            raise row_error(row, key, exc.message, exc.fix or "") from None
    return stems


def _imported_experiment(
    system: str, totals: ExperimentTotals, use_case: str, inputs: dict[str, str], file: Path, now: datetime
) -> Experiment:
    """The experiment of one system, its items and sources left empty (write_streamed writes them one at a time):
    every other field validated as an ExperimentHeader, an Experiment holds at least one item."""
    header = ExperimentHeader(
        inputs=inputs,
        experiment_name=system,
        safe_name=safe_name(system),
        use_case=use_case,
        spec=ExperimentSpec(name=system, provider=IMPORTED_PROVIDER, model=system),
        input_path=file.as_posix(),
        # answers to questions carry their expected answers
        groundtruth="embedded" if usecases.get(use_case).asks_questions else "none",
        pricing="imported",
        totals=totals,
        started_at=now,
        finished_at=now,
    )
    return Experiment.model_construct(**dict(header), items=[], sources={})


def _checked_totals(total: TotalsSum, file: Path, system: str) -> ExperimentTotals:
    """`TotalsSum.totals`, where rows each in range can add up out of it (two costs of 1e308 are inf): that is
    the file's error, named."""
    try:
        return total.totals()
    except ValidationError as exc:
        error = exc.errors()[0]
        field = ".".join(str(p) for p in error["loc"])
        raise InputError(
            f"system '{system}': the rows' {field} add up out of range ({error['msg']})",
            file=file,
            field=field,
            fix="check the numbers of those rows: they are far beyond any real run's",
        ) from None
