"""Options shared by the commands that call models: the response cache (--no-cache, --cache-dir) and provider
batch mode (--batch, --batch-size, --batch-poll, --batch-status). Their callbacks only configure the module that
owns the setting; nothing is imported until an option is used."""

from __future__ import annotations

from pathlib import Path

import click

from gaia_eval.safe_text import echo


def _set_cache(ctx: click.Context, param: click.Parameter, value) -> None:
    # Options of every command that calls models; they only configure the response cache, so they are not
    # passed to the command function.
    if value is None or value is False:
        return
    from gaia_eval.providers import cache

    if param.name == "no_cache":
        cache.configure(enabled=False)
    else:
        cache.configure(directory=Path(value))


def cache_options(command):
    command = click.option(
        "--cache-dir",
        type=click.Path(path_type=Path),
        default=None,
        expose_value=False,
        callback=_set_cache,
        help="Response cache folder.  [default: $GAIA_EVAL_CACHE_DIR, else $XDG_CACHE_HOME/gaia-eval, else "
             "~/.cache/gaia-eval]",
    )(command)
    return click.option(
        "--no-cache", is_flag=True, expose_value=False, callback=_set_cache,
        help="Call the model even when the same request was answered before (and do not store replies).",
    )(command)


def _set_batch(ctx: click.Context, param: click.Parameter, value) -> None:
    if value is None or value is False:
        return
    from gaia_eval.providers.batch import configure

    configure(**{{"batch": "enabled", "batch_size": "size", "batch_poll": "poll_s"}[param.name]: value})


def batch_options(command):
    """--batch and its settings (they configure providers.batch, like the cache options) and --batch-status,
    which the command handles: print the journaled batches' progress under its output folder and exit."""
    command = click.option(
        "--batch-status", is_flag=True,
        help="Show the progress of this command's provider batches (journaled in its output folder) and exit; "
             "never waits, never submits.",
    )(command)
    command = click.option(
        "--batch-poll",
        type=click.FloatRange(min=0, min_open=True),
        default=None,
        expose_value=False,
        callback=_set_batch,
        metavar="SECONDS",
        help="With --batch: first wait between status checks (grows to 5 min).  [default: 10]",
    )(command)
    command = click.option(
        "--batch-size", type=click.IntRange(min=1), default=None, expose_value=False, callback=_set_batch,
        help="With --batch: most requests in one provider batch.  [default: 1000]",
    )(command)
    return click.option(
        "--batch", is_flag=True, expose_value=False, callback=_set_batch,
        help="Send model calls through the provider's batch API (OpenAI, Anthropic; about half the price, results "
             "within 24 h). A stopped run re-attaches to its batches when started again.",
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


class ProviderChoice(click.Choice):
    """A --provider's choices, read from gaia_eval.registry when first needed (help, an unknown name), so the
    entry points of other packages are not scanned at CLI start. `follows_prompts=True` leaves out the offline
    baselines; `extra` adds choices of the command's own (generate's `offline`)."""

    def __init__(self, *, follows_prompts: bool | None = None, extra: tuple[str, ...] = ()) -> None:
        self._follows_prompts = follows_prompts
        self._extra = extra
        super().__init__(())

    @property
    def choices(self) -> tuple[str, ...]:
        from gaia_eval.registry import provider_names

        return (*self._extra, *provider_names(follows_prompts=self._follows_prompts))

    @choices.setter
    def choices(self, value) -> None:  # click.Choice.__init__ assigns it; the registry is the source
        pass

    def convert(self, value, param, ctx):
        from gaia_eval.registry import BUILTIN_PROVIDERS

        builtin = BUILTIN_PROVIDERS.get(value)
        if value in self._extra or (builtin is not None and self._follows_prompts in (None, builtin.follows_prompts)):
            return value  # a built-in name needs no entry-point scan
        return super().convert(value, param, ctx)


class UseCaseChoice(click.Choice):
    """A --use-case's choices, read from gaia_eval.registry when first needed (help, a name not built in), so a
    plugin's use case is accepted and no use case module is imported to list them."""

    def __init__(self) -> None:
        super().__init__(())

    @property
    def choices(self) -> tuple[str, ...]:
        from gaia_eval.registry import USE_CASES

        return USE_CASES.names()

    @choices.setter
    def choices(self, value) -> None:  # click.Choice.__init__ assigns it; the registry is the source
        pass

    def convert(self, value, param, ctx):
        from gaia_eval.registry import USE_CASES

        if value in USE_CASES:  # a built-in name needs no entry-point scan
            return value
        self.fail(f"unknown use case '{value}': use one of: {', '.join(self.choices)}", param, ctx)
