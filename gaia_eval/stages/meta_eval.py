"""Stage `meta-eval`: score human-rated summaries with every applicable gaia-eval scorer and measure how well
each agrees with the human ratings (see gaia_eval.metaeval); write the result as JSON and markdown."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gaia_eval.artifacts.metaeval import MetaEvaluation
from gaia_eval.artifacts.store import atomic_write_text, fingerprint, fingerprint_file, write_artifact
from gaia_eval.errors import UsageError
from gaia_eval.stages.common import check_output_file

if TYPE_CHECKING:
    from gaia_eval.artifacts.shards import Shard
    from gaia_eval.providers.call_options import CallOptions
    from gaia_eval.scoring.judge import JudgeSettings

# Where the report looks for the meta-evaluation of a use case's scorers (next to the evaluations).
DEFAULT_NAME = "meta_eval.json"


@dataclass
class MetaEvalRun:
    result: MetaEvaluation
    markdown: str
    outputs: list[Path] = field(default_factory=list)
    failed_judge_calls: int = 0  # the judge's scores are incomplete: the CLI exits 1


def bootstrap_settings() -> dict[str, Any]:
    """How the confidence intervals were drawn, as a meta-evaluation records it."""
    from gaia_eval.metaeval import stats

    return {"resamples": stats.BOOTSTRAP_RESAMPLES, "seed": stats.BOOTSTRAP_SEED, "confidence": stats.CONFIDENCE}


def _keep_systems(rows: list, exclude: list[str], path: Path) -> list:
    systems = list(dict.fromkeys(r.system for r in rows))
    unknown = [s for s in exclude if s not in systems]
    if unknown:
        raise UsageError(
            f"--exclude-system {unknown[0]}: no such system in {path}",
            fix=f"systems are {', '.join(systems)}",
        )
    kept = [r for r in rows if r.system not in exclude]
    if len({r.system for r in kept}) < 3:
        raise UsageError(
            f"{path}: {len({r.system for r in kept})} system(s) left; correlations need at least 3",
            fix="rate more systems, or exclude fewer",
        )
    return kept


def _sample(rows: list, limit: int, seed: int) -> tuple[list, str]:
    """The rows of `limit` items drawn at random (Random(seed) over the sorted item ids), and a note saying so."""
    import random

    if limit < 1:
        raise UsageError(f"--limit {limit}: must be at least 1", fix="e.g. --limit 40")
    items = sorted({r.item_id for r in rows})
    if limit >= len(items):
        return rows, f"--limit {limit}: all {len(items)} items kept"
    chosen = set(random.Random(seed).sample(items, limit))
    return [r for r in rows if r.item_id in chosen], f"a sample of {limit} of {len(items)} items (--seed {seed})"


def _cross_validated(rows: list, table: Any, ratings: Path) -> str:
    """The fold figures of each grade the file allows (with a reference, from the source only), as markdown."""
    from gaia_eval.metaeval import crossval

    documents = len({r.item_id for r in rows})
    if documents < 2 * crossval.FOLDS:
        return (f"## Cross-validation\n\nNot run: {documents} documents in {ratings.name}; {crossval.FOLDS} folds "
                f"need at least {2 * crossval.FOLDS}.\n")
    parts = ["## Cross-validation of the free-text grade's weights", ""]
    for key, title in (("grade", "the grade"), ("grade_standalone", "the grade from the source only")):
        scores = table.graded.get(key)
        if not scores:
            continue
        baselines = [
            b for b in ("length", "rouge1_recall", "rougeL") if b in table.values and (key == "grade" or b == "length")
        ]
        data = crossval.dataset_from(ratings.name, rows, scores, {b: table.values[b] for b in baselines})
        criteria = list(data.values)
        if not criteria or "length" not in data.rivals:
            continue
        parts.append(
            crossval.markdown(crossval.cross_validate([data], criteria), f"{title} ({', '.join(criteria)})", baselines)
        )
    return "\n".join(parts)


def run_meta_eval(
    ratings: Path,
    *,
    metrics: list[str] | None = None,
    exclude_systems: list[str] | None = None,
    judge: JudgeSettings | None = None,
    output: Path | None = None,
    markdown: Path | None = None,
    echo: Callable[[str], None] = lambda _line: None,
    cross_validate: bool = False,
    limit: int | None = None,
    seed: int = 0,
    call_options: CallOptions | None = None,
    shard: Shard | None = None,
) -> MetaEvalRun:
    """Load and validate `ratings`, score every output, correlate each scorer with each human dimension. Writes
    `output` (JSON) and the markdown to `markdown`, or next to `output` as .md, when given. `cross_validate`
    appends the fold figures of the grade's weights fit on these ratings (metaeval/crossval.py). `limit` keeps
    that many items (documents, every system's summary of each), drawn with `seed`: every scorer, the judge
    included, is then measured on the same sample. The judge's calls go through the response cache as
    `call_options.cache` says (default: the environment's); they are never batched. With `shard` (needs the judge
    and `output`), only the judge's calls of that shard's rows are made, written as its part beside `output`;
    the same call without it reuses every finished part."""
    from gaia_eval.metaeval.ratings import load_ratings
    from gaia_eval.metaeval.render import meta_eval_markdown
    from gaia_eval.providers.call_options import call_options_or_defaults

    for path, option in ((output, "-o/--output"), (markdown, "--markdown")):
        if path is not None:
            check_output_file(Path(path), option)  # before the first progress line
    ratings = Path(ratings)
    exclude = list(dict.fromkeys(exclude_systems or []))
    rows = _keep_systems(load_ratings(ratings), exclude, ratings)
    sample_note = None
    if limit is not None:
        rows, sample_note = _sample(rows, limit, seed)
    if shard is not None:
        return _judge_shard(rows, judge, output, call_options_or_defaults(call_options), shard)
    table, failed_calls = _score_table(rows, metrics, judge, echo, call_options_or_defaults(call_options), output)
    settings = {
        "metrics": metrics,
        "exclude": exclude,
        "judge": judge.fingerprint() if judge else None,
        **({"limit": limit, "seed": seed} if limit is not None else {}),
    }
    result = _meta_evaluation(ratings, rows, table, settings, exclude, sample_note)
    text = meta_eval_markdown(result)
    if cross_validate:
        text += "\n" + _cross_validated(rows, table, ratings)
    run = MetaEvalRun(result, text, failed_judge_calls=failed_calls)
    if output is not None:
        from gaia_eval.metaeval.judged import remove_shard_parts

        write_artifact(Path(output), result)
        run.outputs.append(Path(output))
        if not failed_calls:
            remove_shard_parts(Path(output))
        markdown = markdown or Path(output).with_suffix(".md")
    if markdown is not None:
        atomic_write_text(Path(markdown), text)
        run.outputs.append(Path(markdown))
    return run


def _judge_shard(rows: list, judge: JudgeSettings | None, output: Path | None, call_options: CallOptions,
                 shard: Shard) -> MetaEvalRun:
    """A shard of meta-eval --judge: its rows' judge samples, written as its part beside -o; nothing else."""
    from gaia_eval.artifacts.shards import shard_lock
    from gaia_eval.metaeval.judged import judge_scores

    if judge is None or output is None:
        raise UsageError("--shard splits the judge's calls: it needs --judge and -o/--output", field="--shard",
                         fix="add --judge PROVIDER:MODEL -o FILE.json, or run meta-eval without --shard")
    with shard_lock(Path(output).parent, shard, "-o/--output"):
        _, _, failed = judge_scores(rows, judge, call_options.cache, output=Path(output), shard=shard)
    note = (f"meta-eval shard {shard}: its judge samples are written beside {output}; once every shard has "
            "finished, the same command without --shard scores every row, paying nothing for them")
    return MetaEvalRun(MetaEvaluation.model_construct(), note, failed_judge_calls=failed)


def _score_table(
    rows: list, metrics: list[str] | None, judge: JudgeSettings | None, echo: Callable[[str], None],
    call_options: CallOptions, output: Path | None = None,
) -> tuple[Any, int]:
    """Every applicable scorer's scores of the rated outputs (the judge's too, with --judge), and the number of
    judge calls that failed."""
    from gaia_eval.metaeval import stats
    from gaia_eval.metaeval.judged import judge_applicable, judge_scores
    from gaia_eval.metaeval.scorers import score_rows

    failed_calls = 0
    judge_names = [m for m in (metrics or []) if m.startswith("judge:")]
    table = score_rows(rows, [m for m in metrics or [] if not m.startswith("judge:")] or None, echo=echo)
    if judge_names and judge is None:
        raise UsageError(f"--metrics {judge_names[0]} needs --judge", fix="add --judge PROVIDER:MODEL")
    if judge is not None:
        if not judge_applicable(rows):
            table.notes.append("the judge is not applicable: some summaries have neither a reference nor a source")
        else:
            scores, notes, failed_calls = judge_scores(rows, judge, call_options.cache,
                                                       output=Path(output) if output is not None else None)
            table.values.update(scores)
            table.notes += notes
    echo(f"meta-eval: correlating {len(table.values)} scorers with the human ratings "
         f"({stats.BOOTSTRAP_RESAMPLES:,} bootstrap resamples each)")
    return table, failed_calls


def _meta_evaluation(
    ratings: Path, rows: list, table: Any, settings: dict[str, Any], exclude: list[str], sample_note: str | None
) -> MetaEvaluation:
    """Each scorer's agreement with each human dimension, as the artifact."""
    from gaia_eval.metaeval import analysis

    grid, dimensions, results = analysis.compare(rows, table.values)
    return MetaEvaluation(
        inputs={"ratings": fingerprint_file(ratings), "settings": fingerprint(settings)},
        ratings_file=ratings.name,
        n_items=len(grid.items),
        n_systems=len(grid.systems),
        n_summaries=len(rows),
        systems=grid.systems,
        excluded_systems=exclude,
        dimensions=dimensions,
        scorers=list(table.values),
        grade_mode=("comparative" if all(r.references for r in rows) else "standalone")
        if "grade" in table.values
        else None,
        bootstrap=bootstrap_settings(),
        results=results,
        annotator_agreement={d: analysis.annotator_agreement(rows, grid, d) for d in dimensions},
        best=analysis.best_scorers(results, dimensions),
        notes=table.notes + ([sample_note] if sample_note else []),
    )
