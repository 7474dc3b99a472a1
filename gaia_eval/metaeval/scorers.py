"""Scoring every rated output with every applicable scorer: the two baselines (`length`, `rouge1_recall`), ROUGE
(`rouge1`, `rouge2`, `rougeL` F1, via rouge-score with stemming, best over the references), the rubric grade and
one scorer per rubric criterion (see adapter.py). Reference-based scorers need references on every line,
source-grounded ones a source on every line; the others are left out with a note saying why.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from gaia_eval.errors import UsageError
from gaia_eval.metaeval import adapter
from gaia_eval.metaeval.ratings import RatedOutput

BASELINES = ("length", "rouge1_recall")
ROUGE = ("rouge1", "rouge2", "rougeL")


@dataclass
class ScoreTable:
    """Per scorer, one value per rated output (in the rows' order), and why any scorer was left out."""

    values: dict[str, list[float]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    # the adapter's scores per row, by grade ("grade", "grade_standalone"): what --cross-validate fits weights on
    graded: dict[str, list[adapter.SummaryScores]] = field(default_factory=dict)


def _rouge(rows: list[RatedOutput]) -> dict[str, list[float]]:
    from rouge_score import rouge_scorer  # lazy: pulls nltk

    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=True)
    out: dict[str, list[float]] = {name: [] for name in ("rouge1_recall", *ROUGE)}
    for row in rows:
        scores = [scorer.score(reference, row.output) for reference in row.references]
        out["rouge1_recall"].append(max(s["rouge1"].recall for s in scores))
        for name in ROUGE:
            out[name].append(max(s[name].fmeasure for s in scores))
    return out


def _rubric(rows: list[RatedOutput], graded: dict[str, list[adapter.SummaryScores]]) -> dict[str, list[float | None]]:
    """The grade and every criterion (as measured, before the grade's degenerate-output rule) through the adapter;
    with both references and a source, also the grade the source alone gives (`grade_standalone`). The adapter's
    scores go into `graded` by grade name."""
    from gaia_eval.progress import Progress

    out: dict[str, list[float | None]] = {name: [] for name in ("grade", "grade_standalone", *adapter.CRITERIA)}
    progress = Progress(len(rows), label="summaries")
    for row in rows:
        progress.advance()
        scores = adapter.score_summary(row.output, row.source, row.references)
        graded.setdefault("grade", []).append(scores)
        out["grade"].append(scores.grade)
        for name in adapter.CRITERIA:
            out[name].append(scores.criteria.get(name))
        both = row.source and row.references
        standalone = adapter.score_summary(row.output, row.source, ()) if both else None
        if standalone is not None:
            graded.setdefault("grade_standalone", []).append(standalone)
        out["grade_standalone"].append(standalone.grade if standalone is not None else None)
    progress.close()
    return out


# The rubric criteria that read the references, and those that read the source.
REFERENCE_CRITERIA = ("reference_overlap", "content_coverage")
SOURCE_CRITERIA = ("source_coverage", "source_consistency")


def available_scorers(rows: list[RatedOutput]) -> tuple[list[str], list[str]]:
    """(scorers that apply to these rows, notes on those that do not): reference-based ones need references on
    every line, source-grounded ones a source on every line, `grade_standalone` both (it is the source-only grade
    beside a `grade` that also reads the references)."""
    names = ["length"]
    notes = []
    with_references = all(r.references for r in rows)
    with_source = all(r.source and r.source.strip() for r in rows)
    if with_references:
        names += ["rouge1_recall", *ROUGE]
    else:
        missing = sum(1 for r in rows if not r.references)
        notes.append(
            f"rouge1_recall, ROUGE and {', '.join(REFERENCE_CRITERIA)} are not applicable: {missing} of {len(rows)} "
            "summaries have no reference"
        )
    if not with_source:
        missing = sum(1 for r in rows if not (r.source and r.source.strip()))
        notes.append(
            f"{', '.join(SOURCE_CRITERIA)} are not applicable: {missing} of {len(rows)} summaries have no source"
        )
    names.append("grade")
    if with_references and with_source:
        names.append("grade_standalone")
    names += [
        c for c in adapter.CRITERIA
        if (c not in REFERENCE_CRITERIA or with_references) and (c not in SOURCE_CRITERIA or with_source)
    ]
    return names, notes


def score_rows(
    rows: list[RatedOutput], metrics: list[str] | None = None, echo: Callable[[str], None] = lambda _line: None
) -> ScoreTable:
    """Every applicable (or every chosen) scorer on every row; the baselines always run. `grade` is the adapter's
    grade with everything the line gives; with both references and a source, `grade_standalone` is the grade from
    the source alone."""
    names, notes = available_scorers(rows)
    if metrics:
        unknown = [m for m in metrics if m not in names]
        if unknown:
            raise UsageError(
                f"--metrics: {', '.join(unknown)} not available for this file",
                fix=f"choose from {', '.join(names)}" + (f" ({'; '.join(notes)})" if notes else ""),
            )
        names = [n for n in names if n in BASELINES or n in metrics]
    table = ScoreTable(notes=notes)
    echo(f"meta-eval: scoring {len(rows):,} summaries of {len({r.system for r in rows})} systems")
    computed: dict[str, list] = {"length": [float(len(r.output.split())) for r in rows]}
    if any(n in names for n in ("rouge1_recall", *ROUGE)):
        echo(f"meta-eval: ROUGE of {len(rows):,} summaries")
        computed.update(_rouge(rows))
    if any(n in names for n in ("grade", "grade_standalone", *adapter.CRITERIA)):
        echo(f"meta-eval: the rubric's criteria on {len(rows):,} summaries")
        computed.update(_rubric(rows, table.graded))
    left_out: dict[int, list[str]] = {}  # number of summaries lacking an input -> the scorers that need it
    for name in names:
        values = computed[name]
        missing = sum(1 for v in values if v is None)
        if missing:
            left_out.setdefault(missing, []).append(name)
            continue
        table.values[name] = values
    for missing, scorers in left_out.items():
        verb = "is" if len(scorers) == 1 else "are"
        table.notes.append(
            f"{', '.join(scorers)} {verb} not applicable: {missing} of {len(rows)} summaries lack the reference or "
            "source it needs"
        )
    return table
