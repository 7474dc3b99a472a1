"""Scoring every rated output with every applicable scorer: the two baselines (`length`, `rouge1_recall`), ROUGE
(`rouge1`, `rouge2`, `rougeL` F1, via rouge-score with stemming, best over the references), the rubric grade and
one scorer per rubric criterion (see adapter.py). Reference-based scorers need references on every line,
source-grounded ones a source on every line; the others are left out with a note saying why.
"""

from __future__ import annotations

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


def _rubric(rows: list[RatedOutput], comparative: bool) -> dict[str, list[float]]:
    from gaia_eval.scoring.rubric.standalone import SourceIndex

    indexes: dict[str, SourceIndex] = {}
    out: dict[str, list[float]] = {}
    for row in rows:
        if comparative:
            scores = adapter.score_comparative(row.output, row.references)
        else:
            assert row.source is not None
            index = indexes.setdefault(row.source, SourceIndex(row.source))
            scores = adapter.score_standalone(row.output, row.source, index)
        for name, value in scores.criteria.items():
            out.setdefault(name, []).append(value)
        out.setdefault("grade" if comparative else "grade_standalone", []).append(scores.grade)
    return out


def available_scorers(rows: list[RatedOutput]) -> tuple[list[str], list[str]]:
    """(scorers that apply to these rows, notes on those that do not)."""
    with_refs = all(r.references for r in rows)
    with_source = all(r.source for r in rows)
    names = ["length"]
    notes = []
    if with_refs:
        names += ["rouge1_recall", *ROUGE, "grade", *adapter.PROSE_COMPARATIVE]
    else:
        missing = sum(1 for r in rows if not r.references)
        notes.append(
            f"rouge1_recall, ROUGE and the comparative rubric (grade, {', '.join(adapter.PROSE_COMPARATIVE)}) "
            f"are not applicable: {missing} of {len(rows)} summaries have no reference"
        )
    if with_source:
        names += [*adapter.PROSE_STANDALONE]
        names.insert(names.index(adapter.PROSE_STANDALONE[0]), "grade_standalone" if with_refs else "grade")
    else:
        missing = sum(1 for r in rows if not r.source)
        notes.append(f"source-grounded criteria are not applicable: {missing} of {len(rows)} summaries have no source")
    return names, notes


def score_rows(rows: list[RatedOutput], metrics: list[str] | None = None) -> ScoreTable:
    """Every applicable (or every chosen) scorer on every row; the baselines always run. Without references the
    source-grounded grade is `grade`; with both, `grade` is the comparative one and `grade_standalone` the other."""
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
    computed: dict[str, list[float]] = {"length": [float(len(r.output.split())) for r in rows]}
    if any(n in names for n in ("rouge1_recall", *ROUGE)):
        computed.update(_rouge(rows))
    comparative_names = {"grade", *adapter.PROSE_COMPARATIVE}
    if all(r.references for r in rows) and comparative_names & set(names):
        computed.update(_rubric(rows, comparative=True))
    standalone_names = {*adapter.PROSE_STANDALONE, "grade_standalone"} | (set() if all(r.references for r in rows) else {"grade"})
    if all(r.source for r in rows) and standalone_names & set(names):
        standalone = _rubric(rows, comparative=False)
        if all(r.references for r in rows):
            computed.update(standalone)
        else:
            computed.update({("grade" if k == "grade_standalone" else k): v for k, v in standalone.items()})
    table.values = {n: computed[n] for n in names}
    return table
