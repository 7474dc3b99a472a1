"""The `gaia-eval` group: turns errors from gaia_eval.errors into one line on stderr and an exit code (2 input,
1 failed run), and the helpers every command prints with. The commands themselves live beside it."""

from __future__ import annotations

import gc
from pathlib import Path

import click

from gaia_eval import __version__
from gaia_eval.errors import GaiaEvalError
from gaia_eval.safe_text import echo, stdout_closed

DEFAULTS = {
    "test_data": Path("test_data"),
    "groundtruth": Path("groundtruth"),
    "experiments": Path("experiments"),
    "evaluation": Path("evaluation"),
    "report": Path("reports/report.md"),
}
# ctx.meta key (meta is shared by the contexts of one invocation): the command runs with --batch, so Ctrl-C says
# that the submitted batches keep running
BATCH_MODE_META = "gaia_eval.batch_mode"


class GaiaGroup(click.Group):
    """Turns our errors into a clean one-line message; never a traceback for an expected failure."""

    def make_context(self, info_name, args, parent=None, **extra):
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except BrokenPipeError:  # `gaia-eval --help | head`: the group's own help, printed before any command
            stdout_closed()
            raise click.exceptions.Exit(0) from None

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except GaiaEvalError as exc:
            if exc.file:  # a file of an s3:// workspace's mirror named as the URL the user gave
                from gaia_eval.artifacts.recorded import recorded_path
                from gaia_eval.artifacts.remote import remote_url

                exc.file = url if remote_url(url := recorded_path(exc.file)) else exc.file
            echo(f"error: {exc.one_line()}", err=True)
            ctx.exit(exc.exit_code)
        except click.UsageError as exc:
            # click's own refusals (a missing file, a bad option value) keep the one-line promise too.
            command = exc.ctx.command_path if exc.ctx is not None else ctx.command_path
            message = " ".join(exc.format_message().split())
            echo(f"error: {message} (fix: see '{command} --help')", err=True)
            ctx.exit(exc.exit_code)
        except BrokenPipeError:
            # Our reader went away (`annotate --help | head`): not an error, and nothing to say about it.
            stdout_closed()
            ctx.exit(0)
        except OSError as exc:
            # Last resort for a file-system refusal no stage anticipated: still one line, never a traceback.
            where = f"{exc.filename}: " if exc.filename else ""
            echo(f"error: {where}{exc.strerror or exc} (fix: check the path and its permissions)", err=True)
            ctx.exit(1)
        except KeyboardInterrupt:
            if ctx.meta.get(BATCH_MODE_META):  # set by the command's --batch (cli/options.py)
                echo(
                    "interrupted: the submitted batches keep running at the provider and are journaled; run "
                    "the same command again to re-attach to them (--batch-status shows their progress)",
                    err=True,
                )
                ctx.exit(130)
            echo("interrupted: finished items are saved; run the same command again to resume", err=True)
            ctx.exit(130)


def print_summary(summary, *, show_outputs: bool = False) -> None:
    echo(summary.line())
    for note in summary.notes:
        echo(f"  {note}")
    if show_outputs:
        from gaia_eval.artifacts.recorded import recorded_path

        for path in summary.outputs:
            echo(f"  wrote {recorded_path(path)}")  # a file of an s3:// workspace as its URL, not its mirror
    for failure in summary.failures:
        echo(f"  failed: {failure}", err=True)


def split_types(value: str | None) -> list[str] | None:
    from gaia_eval.cli.lists import split_list

    return split_list(value)


@click.group(cls=GaiaGroup, context_settings={"help_option_names": ["-h", "--help"], "show_default": True})
@click.version_option(__version__, prog_name="gaia-eval")
@click.option("--max-input-mb", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Largest input file read, in MB (default 100, or GAIA_EVAL_MAX_INPUT_MB); a bigger one is refused.")
def cli(max_input_mb: float | None) -> None:
    """gaia-eval: measure which LLM or agent is better at your task.

    Pipeline: generate -> groundtruth -> batch-experiment -> eval -> report. Each stage reads and writes
    fingerprinted JSON, skips outputs that are up to date, and resumes after an interruption.
    Try `gaia-eval quickstart` for an offline run of all five stages.
    """
    from gaia_eval.artifacts.inputs import set_max_input_mb

    set_max_input_mb(max_input_mb)


def main() -> None:
    try:
        cli(prog_name="gaia-eval")
    finally:
        # The process ends here, and the interpreter's last collections would walk every object it imported
        # (the SDKs' thousands of classes and schemas) only to find nothing to free: about 0.15 s of CPU per
        # command, paid again by every shard. Frozen, they are skipped; nothing relies on them being collected
        # (every write is atomic or journaled and closed by now).
        gc.freeze()
