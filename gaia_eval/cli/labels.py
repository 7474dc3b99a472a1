"""`meta-eval` on a file of answers people judged correct or incorrect: the command's second path, kept apart from
cli/tools.py (which dispatches to it when the ratings file holds answer labels)."""

from __future__ import annotations

from gaia_eval.cli.group import split_types
from gaia_eval.safe_text import echo


def meta_eval_labels(labels, metrics, exclude_systems, judge_given, output, markdown_file, cross_validate, limit,
                     seed) -> None:
    """meta-eval on answers people judged correct or incorrect (stages/meta_eval_labels.py)."""
    from gaia_eval.errors import UsageError
    from gaia_eval.stages.meta_eval_labels import run_meta_eval_labels

    if judge_given:
        raise UsageError("--judge does not apply to answer labels", field="--judge",
                         fix="every registered match mode is measured; leave --judge out")
    run = run_meta_eval_labels(
        labels, metrics=split_types(metrics), exclude_systems=list(exclude_systems), output=output,
        markdown=markdown_file, echo=lambda line: echo(line, err=True), cross_validate=cross_validate, limit=limit,
        seed=seed,
    )
    echo(run.markdown)
    for path in run.outputs:
        echo(f"wrote {path}")
