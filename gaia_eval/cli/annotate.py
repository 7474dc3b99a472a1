"""The command for your own judgment: annotate (rate a saved sample of an evaluation's outputs, blind, in a
local page). Its spreadsheet twin is `create-template --ratings`, its analysis `meta-eval --evaluations`."""

from __future__ import annotations

from pathlib import Path

import click

from gaia_eval.cli.choices import UseCaseChoice
from gaia_eval.cli.group import DEFAULTS, cli
from gaia_eval.safe_text import echo


def sample_options(command):
    """The options that choose the sample, shared by annotate and create-template --ratings."""
    for option in reversed(
        [
            click.option(
                "-e",
                "--evaluations",
                "eval_root",
                type=click.Path(path_type=Path),
                default=DEFAULTS["evaluation"],
                help="Evaluation folder (eval's -o); the sample and ratings live in its annotation/<use_case>/.",
            ),
            click.option(
                "--experiments",
                "experiments_dir",
                type=click.Path(path_type=Path),
                default=None,
                help="Where the evaluated experiments are [default: experiments/ beside the evaluation folder, else "
                     "the path each evaluation recorded].",
            ),
            click.option(
                "--size",
                type=click.IntRange(1, 100000),
                default=None,
                help="Outputs in the sample when it is first drawn [default: 20]; later raters leave it out.",
            ),
            click.option("--seed", type=int, default=None, help="Seed of the sample's draw and order [default: 0]."),
            click.option(
                "--dimensions",
                default=None,
                help="Comma-separated dimensions to rate 1-5 [default: relevance,consistency,fluency,coherence for "
                     "summaries; correctness,completeness for answers].",
            ),
        ]
    ):
        command = option(command)
    return command


@cli.command()
@click.option(
    "--rater", required=True, help="Your name, recorded with every rating (several raters can share one ratings file)."
)
@click.option(
    "-u", "--use-case", type=UseCaseChoice(), default=None,
    help="Use case to rate [default: the only one in the folder].",
)
@sample_options
@click.option(
    "--pairwise",
    is_flag=True,
    help="Compare two models' outputs for one item side by side (A, B or tie) instead of rating one.",
)
@click.option(
    "--ratings",
    "ratings_file",
    type=click.Path(path_type=Path),
    default=None,
    help="Ratings file to append to [default: annotation/<use_case>/ratings.jsonl in the evaluation folder].",
)
@click.option("--port", type=click.IntRange(0, 65535), default=0, help="Port on 127.0.0.1 (0 picks a free one).")
@click.option("--no-browser", is_flag=True, help="Do not open a browser.")
def annotate(
    rater, use_case, eval_root, experiments_dir, size, seed, dimensions, pairwise, ratings_file, port, no_browser
) -> None:
    """Rate a sample of the evaluated outputs yourself, blind (no model name, no score), by keyboard in a local
    page; then `gaia-eval meta-eval --evaluations DIR` says which score agrees with you."""
    from gaia_eval.annotate import open_session, run_annotate

    opened = open_session(
        eval_root,
        rater=rater,
        use_case=use_case,
        mode="pairwise" if pairwise else "single",
        size=size,
        seed=seed,
        dimensions=dimensions,
        ratings=ratings_file,
        experiments_dir=experiments_dir,
    )
    run_annotate(opened, port=port, open_browser=not no_browser, echo=echo)
