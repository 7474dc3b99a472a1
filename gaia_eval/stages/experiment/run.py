"""Stage 3, `batch-experiment`: run every configured model over every item, concurrently and resumably.

Each finished item is appended to a journal beside its experiment file, so a run stopped at any moment
(Ctrl-C, SIGKILL) resumes where it was: journaled items whose fingerprint (item content + result settings +
prompts) still matches are reused, the rest are called. Items that errored are recorded as errors, never as
done; `retry_errors` re-runs only them.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from pydantic import ValidationError

from gaia_eval import usecases
from gaia_eval.artifacts.batch_journal import batch_journal_path, remove_batch_journals
from gaia_eval.artifacts.experiment import (
    Experiment,
    ExperimentConfig,
    ExperimentSpec,
    ItemResult,
    experiment_file,
    safe_name,
)
from gaia_eval.artifacts.journal import JournalWriter, journal_path, remove_journal
from gaia_eval.artifacts.names import file_stem
from gaia_eval.artifacts.recorded import recorded_path
from gaia_eval.artifacts.shards import Shard
from gaia_eval.artifacts.store import (
    Freshness,
    describe_validation_error,
    fingerprint,
    load_json_file,
    write_artifact,
)
from gaia_eval.artifacts.streamed import experiment_freshness, write_streamed
from gaia_eval.concurrency import (
    DEFAULT_CONCURRENCY,
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT_S,
    ProviderGate,
    RetryPolicy,
    close_all,
    map_concurrent,
    run_async,
)
from gaia_eval.errors import ConfigError, InputError, PluginError
from gaia_eval.progress import Progress
from gaia_eval.providers import (
    ProviderSettings,
    check_provider_name,
    chosen_base_url,
    effective_base_url,
)
from gaia_eval.providers.base import Provider
from gaia_eval.providers.batch import BatchOptions, batch_gate
from gaia_eval.providers.call_options import CallOptions, call_options_or_defaults, open_provider
from gaia_eval.providers.pricing import PriceQuote, batch_quote
from gaia_eval.registry import provider_entry
from gaia_eval.stages.common import StageSummary, check_output_dir, holds_output_lock
from gaia_eval.stages.experiment.inputs import WorkItem, Workload, load_workload
from gaia_eval.stages.experiment.outputs import (
    check_same_use_case,
    consolidate_experiments,
    default_config,
    output_dir_for_use_case,
)
from gaia_eval.stages.experiment.parts import (
    Results,
    finish_shard,
    previous_results,
    remove_shard_files,
    run_journal_path,
)
from gaia_eval.stages.experiment.solvers import Solver, prompt_settings_fingerprint
from gaia_eval.stages.experiment.totals import Tally, compute_totals, item_cost, price_quote, refreshed

CONSOLIDATED_NAME = "consolidated_experiments_report.json"
MAX_TOTAL_CONCURRENCY = 512


def load_config(path: Path) -> ExperimentConfig:
    """Strict: an unknown key, a wrong type, an unknown provider or a duplicate name names the file and field."""
    data = load_json_file(path)
    try:
        config = ExperimentConfig.model_validate(data)
    except ValidationError as exc:
        where, message = describe_validation_error(exc)
        raise ConfigError(
            message, file=path, field=where, fix="see `gaia-eval batch-experiment --create-sample-config`"
        ) from None
    for i, exp in enumerate(config.experiments):
        check_provider_name(exp.provider, file=str(path), field=f"experiments.{i}.provider")
    return config


SAMPLE_CONFIG = {
    "description": "Offline baselines plus examples of real models; remove what you cannot run.",
    "experiments": [
        {"name": "baseline-textrank", "provider": "baseline", "model": "textrank"},
        {"name": "baseline-lead", "provider": "baseline", "model": "lead"},
        {
            "name": "claude-sonnet",
            "provider": "anthropic",
            "model": "claude-sonnet-4-5",
            "max_tokens": 1024,
            "temperature": 0.0,
        },
        {"name": "gpt-4o-mini", "provider": "openai", "model": "gpt-4o-mini", "max_tokens": 1024, "temperature": 0.0},
        {
            "name": "ollama-llama3.2",
            "provider": "ollama",
            "model": "llama3.2:3b",
            "max_concurrency": 2,
            "parameters": {"combined_prompt": True},
        },
    ],
}


def write_sample_config(path: Path) -> Path:
    from gaia_eval.artifacts.store import write_json

    ExperimentConfig.model_validate(SAMPLE_CONFIG)  # the sample must always be valid
    if Path(path).exists():
        raise InputError("already exists; it may be someone's config", file=path, fix="pass a new path")
    write_json(Path(path), SAMPLE_CONFIG)
    return Path(path)


@dataclass
class _Plan:
    """One experiment's run: what is reused, what is still to call, and where results go."""

    spec: ExperimentSpec
    path: Path
    inputs: dict[str, str]
    before: Freshness
    item_fingerprints: dict[str, str]
    results: Results
    todo: list[WorkItem]
    quote: PriceQuote
    solver: Solver | None = None
    journal: JournalWriter | None = None
    started: float = field(default_factory=time.monotonic)
    started_at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))
    remaining: int = 0
    refresh: set[str] = field(default_factory=set)  # item ids redone past the response cache
    part: Path | None = None
    shard: Shard | None = None  # --shard K/N: only its items are run, and its part is written instead of the file
    written: Experiment | None = None  # the header (no items, no sources) of the file this run wrote
    tally: Tally | None = None  # its items' counts, gathered as the file or part was written

    def owned(self, workload: Workload) -> list[WorkItem]:
        """The items this run answers for: all of them, or its shard's."""
        shard = self.shard
        return [i for i in workload.items if shard is None or shard.owns(i.content_fingerprint)]


@dataclass
class BatchSummary(StageSummary):
    items_ok: int = 0
    items_error: int = 0
    calls_made: int = 0  # requests that reached a model (attempts, retries included; not baselines, not cache hits)
    cached_replies: int = 0  # replies the response cache gave instead of a model
    damaged: list[str] = field(default_factory=list)  # experiment files left out of the consolidated report
    not_started: list[str] = field(default_factory=list)  # experiments whose provider could not load or start: why

    def items_line(self) -> str:
        cached = f", {self.cached_replies} replies from the response cache" if self.cached_replies else ""
        return (f"{self.items_ok} ok, {self.items_error} errors; {self.calls_made} requests sent to models "
                f"(baselines not counted){cached}")


def calls_a_model(provider: str) -> bool:
    """False for the offline baselines (registry: they do not follow prompts): their answers are not model calls."""
    return provider_entry(provider).follows_prompts


def _provider_settings(spec: ExperimentSpec) -> ProviderSettings:
    return ProviderSettings(provider=spec.provider, model=spec.model, base_url=spec.base_url,
                            api_key_env=spec.api_key_env, timeout_s=spec.timeout_s)


@holds_output_lock()
def run_batch_experiment(
    config_path: Path | None,
    input_path: Path,
    output_dir: Path,
    *,
    force: bool = False,
    retry_errors: bool = False,
    concurrency: int | None = None,
    show_progress: bool | None = None,
    call_options: CallOptions | None = None,
    shard: Shard | None = None,
) -> BatchSummary:
    """Run the config's experiments over the input; without a config, the default one (`default_config`). The
    model calls go as `call_options` say (response cache, batch API; default: the environment's). With `shard`,
    only that shard's items, written as its part (stages/experiment/parts.py); the same call without it then
    pays nothing for them and writes the files.

    Plan (what each experiment still has to do), run (every model call, all experiments at once), write (each
    experiment file as it completes, then the summary and the consolidated file)."""
    calls = call_options_or_defaults(call_options)
    config = load_config(Path(config_path)) if config_path is not None else None
    workload = load_workload(Path(input_path))
    summary = BatchSummary("batch-experiment")
    if config is None:
        config = default_config(workload.use_case)
        names = ", ".join(e.name for e in config.experiments)
        summary.notes.append(
            f"no -c/--config: running the default for {workload.use_case}: {names} (offline baselines, no cost); "
            "pass -c CONFIG to run real models (see --create-sample-config)"
        )
    output_dir, moved = output_dir_for_use_case(check_output_dir(output_dir), config, workload.use_case)
    if moved:
        summary.notes.append(moved)
    # A package's use case also says what is asked (its prompt, document label): editing it re-runs its items.
    settings_common = {"workload": workload.fingerprint(), "prompts": prompt_settings_fingerprint(),
                       **usecases.settings_inputs(usecases.get(workload.use_case))}
    plans = _plan_experiments(config, output_dir, workload, settings_common, force, retry_errors, summary, shard)
    providers = _open_providers(plans, config, config_path, output_dir, force, calls, summary)
    started = [plan for plan in plans if plan.spec.name in providers or not plan.todo]  # those that could start
    try:
        run_async(_run_plans(started, providers, workload, concurrency, show_progress, summary, calls.batch))
        for plan in started:
            _note_outcome(plan, providers.get(plan.spec.name), workload, summary, calls.batch)
    finally:
        for plan in plans:  # the parts and journals their reused results are read from
            plan.results.close()
    if shard is not None:
        summary.notes.append(f"shard {shard}: its part of each experiment is written; once every shard has "
                             "finished, the same command without --shard writes the experiment files")
        return summary
    consolidated = output_dir / CONSOLIDATED_NAME
    written = {plan.path.name: plan.written for plan in plans if plan.written is not None}
    write_artifact(consolidated, consolidate_experiments(output_dir, summary.damaged, written))  # same bytes: kept
    summary.notes.append(f"consolidated: {consolidated}")
    return summary


def _plan_experiments(config: ExperimentConfig, output_dir: Path, workload: Workload, settings_common: dict[str, str],
                      force: bool, retry_errors: bool, summary: BatchSummary, shard: Shard | None) -> list[_Plan]:
    """Every experiment's plan; one whose provider's package cannot load fails alone (listed with why)."""
    plans = []
    for spec in config.experiments:
        try:
            plan = _plan_experiment(spec, output_dir, workload, settings_common, force, retry_errors, summary, shard)
        except PluginError as exc:
            _not_started(summary, spec.name, exc)
            continue
        if plan is not None:
            plans.append(plan)
    return plans


def _not_started(summary: BatchSummary, name: str, exc: PluginError) -> None:
    summary.failed += 1
    summary.failures.append(f"{name}: {exc.message}")
    summary.not_started.append(name)


def _plan_experiment(spec: ExperimentSpec, output_dir: Path, workload: Workload, settings_common: dict[str, str],
                     force: bool, retry_errors: bool, summary: BatchSummary, shard: Shard | None) -> _Plan | None:
    """What is left to run of one experiment: None when its file is current (noted as skipped)."""
    path = experiment_file(output_dir, spec.name)
    check_same_use_case(path, workload.use_case)
    # The server chosen through OPENAI_BASE_URL / ANTHROPIC_BASE_URL shapes the answers as a config's would
    settings_fp = fingerprint({**spec.result_settings(), "base_url": chosen_base_url(_provider_settings(spec))})
    quote = price_quote(spec)
    inputs = {**settings_common, "settings": settings_fp, "pricing": fingerprint(quote.describe())}
    fps = {
        i.item_id: fingerprint([i.content_fingerprint, settings_fp, settings_common["prompts"],
                                *([settings_common["use_case"]] if "use_case" in settings_common else [])])
        for i in workload.items
    }
    state, existing = experiment_freshness(path, inputs)  # a header: the items are not held
    if state is Freshness.CURRENT and not force:
        assert existing is not None
        if not (retry_errors and existing.totals.errors):
            summary.skipped += 1
            summary.outputs.append(path)
            summary.items_ok += existing.totals.ok
            summary.items_error += existing.totals.errors
            if shard is None:  # a shard leaves the folder's journals to the run that owns them
                remove_journal(journal_path(path))
                remove_shard_files(path)
            return None
    previous = previous_results(path, fps)
    if force:  # a shard's --force redoes only its own items
        mine = {i.item_id for i in workload.items if shard is None or shard.owns(i.content_fingerprint)}
        previous.drop(mine)
    by_id = {i.item_id: i for i in workload.items}
    errored = previous.errored() if retry_errors else set()
    results = previous.reusable(retry_errors=retry_errors,
                                refresh=lambda result: refreshed(result, by_id[result.item_id], quote))
    todo = [i for i in workload.items
            if i.item_id not in results and (shard is None or shard.owns(i.content_fingerprint))]
    return _Plan(
        spec=spec,
        path=path,
        inputs=inputs,
        before=Freshness.STALE if state is Freshness.CURRENT else state,
        item_fingerprints=fps,
        results=results,
        todo=todo,
        quote=quote,
        remaining=len(todo),
        # --retry-errors redoes errored items past the response cache, which may hold the reply that failed
        refresh=errored,
        shard=shard,
    )


def _open_providers(plans: list[_Plan], config: ExperimentConfig, config_path: Path | None, output_dir: Path,
                    force: bool, calls: CallOptions, summary: BatchSummary) -> dict[str, Provider]:
    """Credentials are checked for every experiment with work to do before any call is made (a missing one stops
    the run, exit 2); an experiment whose provider's code fails to load or start fails alone, with why."""
    providers: dict[str, Provider] = {}
    for plan in plans:
        if plan.todo:
            try:
                settings = _provider_settings(plan.spec)
                journal = batch_journal_path(  # a shard's own: it re-attaches to its own batches only
                    output_dir, file_stem(plan.spec.name, what="experiment name", style="slug"), plan.shard
                )
                providers[plan.spec.name] = open_provider(
                    settings, calls, journal, label=f"experiment '{plan.spec.name}'", refresh=force)
            except PluginError as exc:  # a package's provider that cannot start: this experiment fails, not the run
                _not_started(summary, plan.spec.name, exc)
            except ConfigError as exc:  # e.g. an unknown baseline model: point at the config entry
                index = config.experiments.index(plan.spec)
                raise ConfigError(
                    exc.message, file=config_path, field=f"experiments.{index}.{exc.field or 'model'}", fix=exc.fix
                ) from None
    return providers


def _note_outcome(plan: _Plan, provider: Provider | None, workload: Workload, summary: BatchSummary,
                  batch: BatchOptions) -> None:
    """Add one written experiment to the summary: its counts, how it was batched, its first error."""
    tally = plan.tally
    if tally is None:  # not finished in this run: its items as they stand
        tally = Tally()
        for _ in tally.counted(plan.results[i.item_id] for i in plan.owned(workload)):
            pass
    total, ok, errors, batched, first = tally.total, tally.ok, tally.errors, tally.batched, tally.first_error
    summary.items_ok += ok
    summary.items_error += errors
    summary.outputs.append(plan.part or plan.path)
    summary.count(plan.before)
    if batch.enabled:
        run = (f" ({getattr(provider, 'submitted', 0)} requests submitted in this run, "
               f"{getattr(provider, 'reattached', 0)} re-attached)") if provider is not None else ""
        how = "offline baseline, no batch API: run locally" if not calls_a_model(plan.spec.provider) else (
            f"{batched} of {total} items through a provider batch{run}")
        summary.notes.append(f"{plan.spec.name}: {how}")
    if first is not None:
        summary.failed += 1
        reason = " ".join(str(first.error or "no reason recorded").split())
        reason = reason if len(reason) <= 300 else reason[:299] + "…"
        summary.failures.append(f"{plan.spec.name}: {errors} of {total} items errored; first "
                                f"({first.item_id}): {reason}")


async def _run_plans(
    plans: list[_Plan],
    providers: dict[str, Provider],
    workload: Workload,
    concurrency: int | None,
    show_progress: bool | None,
    summary: BatchSummary,
    batch: BatchOptions,
) -> None:
    gates = _open_gates(plans, workload, providers, concurrency, batch)

    for plan in plans:
        if not plan.todo:
            _finish(plan, workload)

    work = [(plan, item) for plan in plans for item in plan.todo]
    progress = Progress(len(work), enabled=show_progress)
    ceiling = MAX_TOTAL_CONCURRENCY if not batch.enabled else len(work)  # a waiting batch call costs no CPU
    total_limit = min(ceiling, sum(g.max_concurrency for g in gates.values())) or 1

    async def worker(job: tuple[_Plan, WorkItem]) -> ItemResult:
        plan, item = job
        assert plan.solver is not None
        outcome = await plan.solver.solve(item, workload.sources[item.source].text,
                                          refresh=item.item_id in plan.refresh)
        if calls_a_model(plan.spec.provider):  # a baseline is not a model call; a cache hit never reached one
            summary.calls_made += outcome.attempts - outcome.cached_calls
            summary.cached_replies += outcome.cached_calls
        cost = item_cost(outcome.usage - outcome.cached_usage, plan.quote, outcome.batch_id)
        return ItemResult(
            item_id=item.item_id,
            source=item.source,
            fingerprint=plan.item_fingerprints[item.item_id],
            status="error" if outcome.error else "ok",
            error=outcome.error,
            query=item.query,
            answer=outcome.answer,
            summaries=outcome.summaries,
            groundtruth_answer=item.expected_answer,
            groundtruth_summaries=item.expected_summaries,
            usage=outcome.usage,
            cost_usd=cost,
            cost_status=plan.quote.status,
            latency_s=round(outcome.latency_s, 4),
            time_to_success_s=round(outcome.time_to_success_s, 4),
            calls=outcome.calls,
            attempts=outcome.attempts,
            retries=outcome.retries,
            finish_reason=outcome.finish_reason,
            cached=outcome.calls > 0 and outcome.cached_calls == outcome.calls,
            chunked=outcome.chunked,
            cached_usage=outcome.cached_usage,
            batch_id=outcome.batch_id,
        )

    def on_result(job: tuple[_Plan, WorkItem], result: ItemResult) -> None:
        plan, item = job
        assert plan.journal is not None
        plan.journal.append(result)
        plan.results[item.item_id] = result
        progress.advance(error=result.status == "error", cost=result.cost_usd)
        plan.remaining -= 1
        if plan.remaining == 0:
            _finish(plan, workload)

    try:
        await map_concurrent(work, worker, limit=total_limit, on_result=on_result)
    finally:
        progress.close()
        await close_all(*(plan.journal.close for plan in plans if plan.journal is not None),
                        *(provider.aclose for provider in providers.values()))


def _open_gates(plans: list[_Plan], workload: Workload, providers: dict[str, Provider],
                concurrency: int | None, batch: BatchOptions) -> dict[tuple[str, str | None], ProviderGate]:
    """One gate per endpoint, shared by every experiment that calls it, with the strictest limits any of them
    set; each plan with work gets its solver and its journal."""
    limits: dict[tuple[str, str | None], tuple[int, float | None]] = {}
    for plan in plans:
        if not plan.todo:
            continue
        spec = plan.spec
        key = (spec.provider, spec.base_url)
        limit = concurrency or spec.max_concurrency or DEFAULT_CONCURRENCY
        rpm = spec.requests_per_minute
        if key in limits:
            old_limit, old_rpm = limits[key]
            limit = min(limit, old_limit)
            rpm = min(r for r in (rpm, old_rpm) if r is not None) if (rpm or old_rpm) else None
        limits[key] = (limit, rpm)
    gates = {key: batch_gate(batch, limit, rpm, provider=key[0]) for key, (limit, rpm) in limits.items()}
    for plan in plans:
        if not plan.todo:
            continue
        spec = plan.spec
        policy = RetryPolicy(
            max_retries=spec.max_retries if spec.max_retries is not None else DEFAULT_MAX_RETRIES,
            timeout_s=spec.timeout_s or DEFAULT_TIMEOUT_S,
        )
        plan.solver = Solver(
            spec, workload.use_case, providers[spec.name], gates[(spec.provider, spec.base_url)], policy
        )
        plan.journal = JournalWriter(run_journal_path(plan.path, plan.shard), truncate=not plan.results)
        plan.journal.write_run_info(total=len(plan.item_fingerprints), reused=len(plan.results),
                                    model=f"{spec.provider}:{spec.model}",
                                    concurrency=gates[(spec.provider, spec.base_url)].max_concurrency)
        plan.started = time.monotonic()
    return gates


def _finish(plan: _Plan, workload: Workload) -> None:
    """Write the experiment file atomically, then drop the journal it supersedes (a shard: its part)."""
    if plan.shard is not None:
        if plan.journal is not None:
            plan.journal.close()
        plan.tally = Tally()
        owned = (plan.results[i.item_id] for i in plan.owned(workload))  # one at a time: a re-run's are read back
        plan.part = finish_shard(plan.path, plan.shard, plan.tally.counted(owned))
        if not plan.tally.errors:  # errored requests stay journaled: --retry-errors submits them anew
            batch_journal_path(plan.path.parent, file_stem(plan.spec.name, what="experiment name", style="slug"),
                               plan.shard).unlink(missing_ok=True)
        return
    wall = time.monotonic() - plan.started
    spec = plan.spec

    def items() -> Iterator[ItemResult]:  # one at a time: a consolidation's are read from the shards' parts
        return (plan.results[i.item_id] for i in workload.items)

    plan.tally = Tally()  # the summary's counts, so that nothing reads the items back once the file is replaced
    totals = compute_totals(plan.tally.counted(items()), wall, plan.quote)
    experiment = Experiment(
            inputs=plan.inputs,
            experiment_name=spec.name,
            safe_name=safe_name(spec.name),
            use_case=workload.use_case,
            spec=spec,
            base_url=effective_base_url(_provider_settings(spec)),
            input_path=recorded_path(workload.input_path),
            groundtruth=workload.groundtruth,  # type: ignore[arg-type]
            pricing=plan.quote.describe(),
            batch_pricing=batch_quote(plan.quote).describe() if totals.batched_items else None,
            sources=workload.sources,
            items=[next(items())],  # validated with one item (it needs one); all are written below
            totals=totals,
            started_at=plan.started_at,
            finished_at=datetime.now(timezone.utc),
    )
    # Written an item at a time: the whole experiment's dict and bytes would take several times its size.
    plan.written = experiment.model_copy(update={"items": [], "sources": {}})
    write_streamed(plan.path, plan.written, {"items": items(), "sources": sorted(workload.sources.items())})
    if plan.journal is not None:
        plan.journal.remove()
    else:
        remove_journal(journal_path(plan.path))
    remove_shard_files(plan.path)
    if not totals.errors:  # errored requests stay journaled: --retry-errors submits them anew
        remove_batch_journals(plan.path.parent, file_stem(spec.name, what="experiment name", style="slug"))
