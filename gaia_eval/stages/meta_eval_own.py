"""Stage `meta-eval --evaluations`: the user's own ratings of an evaluation's outputs (`annotate`'s log or the
filled `create-template --ratings` spreadsheet) against every score the evaluation gave them (see
gaia_eval.metaeval.own); written where the report looks for it, `meta_eval.<use_case>.json` in the evaluation
folder, with the markdown beside it."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from gaia_eval.artifacts.metaeval import MetaEvaluation
from gaia_eval.artifacts.ratings import AnnotationSample
from gaia_eval.artifacts.store import atomic_write_text, fingerprint, fingerprint_file, read_artifact, write_artifact
from gaia_eval.errors import InputError, UsageError
from gaia_eval.stages.meta_eval import bootstrap_settings


@dataclass
class OwnMetaEvalRun:
    result: MetaEvaluation
    markdown: str
    outputs: list[Path] = field(default_factory=list)
    torn_lines: list[int] = field(default_factory=list)


def _shown_path(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.name


def run_meta_eval_evaluations(
    eval_root: Path, *, use_case: str | None = None, ratings: Path | None = None, experiments_dir: Path | None = None,
    output: Path | None = None, estimate_with: str | None = None,
) -> OwnMetaEvalRun:
    from gaia_eval.annotate import load_for_rating
    from gaia_eval.metaeval import analysis, own
    from gaia_eval.metaeval.estimate import human_estimates
    from gaia_eval.metaeval.own_render import own_markdown

    eval_root = Path(eval_root)
    evaluated = load_for_rating(eval_root, use_case, experiments_dir)
    use_case = evaluated.use_case
    saved, sample, ratings = _sample_and_ratings(eval_root, use_case, ratings)
    found = own.read_own_ratings(ratings, sample)
    fresh = [r for r in found.ratings if own.current(evaluated, r.item_id, r.model, r.fingerprint)]
    prefs = [p for p in found.preferences
             if all(own.current(evaluated, p.item_id, m, f) for m, f in zip(p.models, p.fingerprints, strict=False))]
    stale = len(found.ratings) - len(fresh) + len(found.preferences) - len(prefs)
    rows, raters = own.rated_rows(evaluated, fresh)
    if len(rows) < 3 and not prefs:
        raise UsageError(
            f"{ratings}: {len(rows)} rated output(s) still current; correlations need at least 3",
            fix="rate more outputs with gaia-eval annotate" + (f" ({stale} rating(s) are stale)" if stale else ""),
        )
    scores, baselines = own.scores_for(evaluated, rows)
    notes = list(evaluated.notes)
    if stale:
        notes.append(f"{stale} rating(s) are of outputs that changed since they were rated: left out (rate them again)")
    if found.torn_lines:
        notes.append(
            f"{ratings.name}: line(s) {', '.join(map(str, found.torn_lines))} torn by a crash mid-write: skipped"
        )
    grid, dimensions, results = analysis.compare(rows, scores) if rows else (analysis.Grid([]), [], [])
    dimensions = [d for d in sample.dimensions if d in dimensions]
    best, withheld = _output_level_agreement(results, rows, scores, baselines, dimensions)
    estimates = human_estimates(evaluated, sample, rows, dimensions, estimate_with)
    notes += estimates.notes
    with_references = all(o.reference for o in evaluated.outputs.values())
    baselines = list(dict.fromkeys([*baselines, own.BASELINE_LENGTH, *(["rouge1_recall"] if with_references else [])]))
    names = dict.fromkeys([*evaluated.scorers, *scores, *baselines])
    preference_rows, ties = own.preference_agreement(evaluated, prefs, names, baselines)
    if ties:
        notes.append(f"{ties} pairwise preference(s) were ties: left out of the shares")
    meta = MetaEvaluation(
        inputs={
            "ratings": fingerprint_file(ratings),
            "sample": fingerprint_file(saved),
            "outputs": fingerprint(sorted((k, o.fingerprint) for k, o in evaluated.outputs.items())),
        },
        ratings_file=_shown_path(ratings, eval_root),
        n_items=len(grid.items),
        n_systems=len(grid.systems),
        n_summaries=len(rows),
        systems=grid.systems,
        dimensions=dimensions,
        scorers=list(scores),
        grade_mode=evaluated.mode,
        bootstrap=bootstrap_settings(),
        results=results,
        annotator_agreement={d: analysis.annotator_agreement(rows, grid, d) for d in dimensions},
        best=best,
        best_withheld=withheld,
        human_estimates=estimates.systems,
        system_differences=estimates.differences,
        notes=notes,
        raters=raters,
        preferences=preference_rows if prefs else [],
        rater_consistency=own.rater_consistency(sample, fresh),
        stale_ratings=stale,
    )
    text = own_markdown(meta)
    output = Path(output) if output is not None else eval_root / f"meta_eval.{use_case}.json"
    write_artifact(output, meta)
    atomic_write_text(output.with_suffix(".md"), text)
    return OwnMetaEvalRun(meta, text, [output, output.with_suffix(".md")], found.torn_lines)


def _sample_and_ratings(eval_root: Path, use_case: str, ratings: Path | None) -> tuple[Path, AnnotationSample, Path]:
    """The saved annotation sample (its path and contents) and the ratings file of it; either missing is an error."""
    from gaia_eval.annotate.sample import ratings_path, sample_path

    saved = sample_path(eval_root, use_case)
    if not saved.is_file():
        raise InputError("no annotation sample", file=saved,
                         fix="rate first: gaia-eval annotate --rater NAME (or fill create-template --ratings)")
    sample = read_artifact(saved, AnnotationSample)
    ratings = Path(ratings) if ratings is not None else ratings_path(eval_root, use_case)
    if not os.path.lexists(ratings):  # a folder or a FIFO is named as such by the reader
        raise InputError("file not found", file=ratings, fix="rate first: gaia-eval annotate --rater NAME")
    return saved, sample, ratings


def _output_level_agreement(
    results: list, rows: list, scores: dict, baselines: list[str], dimensions: list[str]
) -> tuple[dict[str, str], dict[str, str]]:
    """Each result's Kendall tau over single outputs (filled in); the best scorer of each dimension when the
    ratings show one, else why not (gaia_eval/metaeval/best.py)."""
    from gaia_eval.metaeval import own
    from gaia_eval.metaeval.best import pick_best

    items = [r.item_id for r in rows]
    human = {d: [r.human_mean(d) for r in rows] for d in dimensions}
    for result in results:
        result.baseline = result.scorer in baselines
        tau, ci, n = own.output_level(scores[result.scorer], [r.human_mean(result.dimension) for r in rows], items)
        result.output_kendall, result.output_kendall_ci, result.n_outputs = (
            (None if tau is None else round(tau, 4)),
            ci,
            n,
        )
    return pick_best(results, scores, human, items, dimensions)
