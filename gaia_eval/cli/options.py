"""Options shared by the commands that call models: the response cache (--no-cache, --cache-dir) and provider
batch mode (--batch, --batch-size, --batch-poll, --batch-status). `model_call_options` folds the first five into
one `call_options` value (providers.call_options.CallOptions) that the command passes to its run_<stage>; nothing
is imported until a command runs."""

from __future__ import annotations

import functools
from dataclasses import replace
from pathlib import Path

import click

from gaia_eval.cli.group import BATCH_MODE_META
from gaia_eval.safe_text import echo


def _with_call_options(command):
    """Calls `command` with `call_options` made from the five options instead of the options themselves."""

    @functools.wraps(command)
    def invoke(*args, no_cache: bool, cache_dir: Path | None, batch: bool, batch_size: int | None,
               batch_poll: float | None, **kwargs):
        from gaia_eval.providers.batch import BatchOptions
        from gaia_eval.providers.cache import CacheOptions
        from gaia_eval.providers.call_options import CallOptions

        cache = CacheOptions()  # what an option leaves out comes from the environment, read now
        cache = replace(cache, enabled=False) if no_cache else cache
        cache = replace(cache, directory=cache_dir) if cache_dir is not None else cache
        batching = BatchOptions(enabled=batch)
        batching = replace(batching, size=batch_size) if batch_size is not None else batching
        batching = replace(batching, poll_s=batch_poll) if batch_poll is not None else batching
        options = CallOptions(cache=cache, batch=batching)
        click.get_current_context().meta[BATCH_MODE_META] = batch
        return command(*args, call_options=options, **kwargs)

    return invoke


def model_call_options(command):
    """--no-cache, --cache-dir, --batch, --batch-size, --batch-poll (passed to the command as `call_options`) and
    --batch-status, which the command handles: print the journaled batches' progress under its output folder and
    exit."""
    command = _with_call_options(command)
    command = click.option(
        "--batch-status", is_flag=True,
        help="Show the progress of this command's provider batches (journaled in its output folder) and exit; "
             "never waits, never submits.",
    )(command)
    command = click.option(
        "--batch-poll",
        type=click.FloatRange(min=0, min_open=True),
        default=None,
        metavar="SECONDS",
        help="With --batch: first wait between status checks (grows to 5 min).  [default: 10]",
    )(command)
    command = click.option(
        "--batch-size", type=click.IntRange(min=1), default=None,
        help="With --batch: most requests in one provider batch.  [default: 1000]",
    )(command)
    command = click.option(
        "--batch", is_flag=True,
        help="Send model calls through the provider's batch API (OpenAI, Anthropic; about half the price, results "
             "within 24 h). A stopped run re-attaches to its batches when started again.",
    )(command)
    command = click.option(
        "--cache-dir",
        type=click.Path(path_type=Path),
        default=None,
        help="Response cache folder.  [default: $GAIA_EVAL_CACHE_DIR, else $XDG_CACHE_HOME/gaia-eval, else "
             "~/.cache/gaia-eval]",
    )(command)
    return click.option(
        "--no-cache", is_flag=True,
        help="Call the model even when the same request was answered before (and do not store replies).",
    )(command)


def print_batch_status(folder: Path) -> None:
    from gaia_eval.providers.batch import batch_status_lines

    for line in batch_status_lines(folder):
        echo(line)


def llm_call_options(command):
    """--concurrency and --timeout of the commands whose LLM path is optional (generate, groundtruth)."""
    command = click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=None, metavar="SECONDS",
                           help="Per-attempt timeout of an LLM call; a call silent for longer is retried.  "
                                "[default: 300]")(command)
    return click.option("--concurrency", type=click.IntRange(min=1), default=None,
                        help="Max LLM calls in flight [default: 16].")(command)


def _parse_shard(ctx: click.Context, param: click.Parameter, value: str | None):
    if value is None:
        return None
    from gaia_eval.artifacts.shards import parse_shard
    from gaia_eval.errors import UsageError

    try:
        return parse_shard(value)
    except UsageError as exc:
        raise click.BadParameter(f"{exc.message} ({exc.fix})") from None


def shard_option(command):
    """--shard K/N: run only shard K of N of the items (artifacts/shards.py), passed on as `shard`."""
    return click.option(
        "--shard", callback=_parse_shard, default=None, metavar="K/N",
        help="Run only shard K of N of the items (split by item fingerprint; shards run at once, on any machines "
             "sharing the output folder); then the same command without --shard writes the files, paying nothing "
             "for what the shards finished.",
    )(command)
