"""The command line, a thin click layer: `cli` is the `gaia-eval` group and `main` its entry point. Importing
the package registers every command (stage commands in pipeline, annotate in annotate, imports and templates in
data, the rest in tools); no command imports a stage, an SDK or a scorer until it runs."""

from __future__ import annotations

from gaia_eval.cli import annotate, data, pipeline, tools  # noqa: F401  (registers the commands on the group)
from gaia_eval.cli.examples import add_examples
from gaia_eval.cli.group import cli, main

add_examples(cli)

__all__ = ["cli", "main"]
