"""Running the LLM judge over many experiments at once: one concurrent fan-out over every (experiment, item,
sample) still to judge, through one ProviderGate for the judge's endpoint, with each finished sample journaled
so that a killed eval resumes without paying for judgements again.

A sample is reused, instead of called, when an earlier evaluation file or the judge journal holds it for the
same judge request fingerprint (same prompt, reference, answer, judge model and settings). Samples are
independent draws, so sample i of K = 3 is also sample i of K = 5.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import orjson
from pydantic import ValidationError

from gaia_eval.artifacts.base import Strict
from gaia_eval.artifacts.batch_journal import batch_journal_path, remove_batch_journals
from gaia_eval.artifacts.evaluation import Evaluation, ItemEvaluation, ItemJudgement, JudgeSample, JudgeSummary
from gaia_eval.artifacts.journal import JournalWriter, remove_journal
from gaia_eval.artifacts.shards import (
    LineIndex,
    Shard,
    shard_files,
    shard_journal_path,
    shard_part_path,
    write_part,
)
from gaia_eval.concurrency import close_all, map_concurrent, run_async
from gaia_eval.progress import Progress
from gaia_eval.providers import ProviderSettings
from gaia_eval.providers.base import Provider
from gaia_eval.providers.batch import BatchOptions, batch_gate
from gaia_eval.providers.call_options import CallOptions, open_provider
from gaia_eval.providers.pricing import lookup_price
from gaia_eval.scoring.judge.core import Judge, JudgeRequest, JudgeSettings, combine_samples
from gaia_eval.scoring.judge.criteria import criteria_for
from gaia_eval.scoring.judge.summary import summarize_judgements

if TYPE_CHECKING:
    from gaia_eval.usecases import UseCase

DONE_STATUSES = ("scored", "unscored")  # outcomes journaled as finished in this run
# Only scored samples are reused by a later run: a "failed" call and an "unscored" (unusable) reply are asked
# again, the unscored ones past the response cache, which holds the reply that was unusable.
REUSED_STATUSES = ("scored",)


class JudgeJournalEntry(Strict):
    """One journal line: a finished sample of one item, for the judge request it answered."""

    item_id: str
    fingerprint: str
    sample: JudgeSample


def judge_journal_path(evaluation_file: Path) -> Path:
    name = Path(evaluation_file).name.removesuffix(".eval.json")
    return Path(evaluation_file).with_name(f"{name}.judge.journal.jsonl")


_JUDGE_SUFFIX = ".judge.json"  # a name the shards' journals and parts hang from (no such file is written)


def _judge_stem(evaluation_file: Path) -> Path:
    name = Path(evaluation_file).name.removesuffix(".eval.json")
    return Path(evaluation_file).with_name(name + _JUDGE_SUFFIX)


def remove_judge_journals(evaluation_file: Path) -> None:
    """The judge journal and the shards' journals and parts of an evaluation now written (it holds their
    samples)."""
    remove_journal(judge_journal_path(evaluation_file))
    for path in shard_files(_judge_stem(evaluation_file), _JUDGE_SUFFIX):
        remove_journal(path)


def _journal_of(target: JudgeTarget, shard: Shard | None) -> Path:
    if shard is None:
        return judge_journal_path(target.evaluation_file)
    return shard_journal_path(_judge_stem(target.evaluation_file), _JUDGE_SUFFIX, shard)


@dataclass
class JudgeTarget:
    """One experiment to judge: its rubric results and, per item the model answered, the judge request. The
    last four fields are the run's state, filled in by judge_experiments."""

    evaluation_file: Path
    use_case: UseCase
    mode: str
    mode_note: str
    rubric_criteria: list[str]
    items: list[ItemEvaluation]
    requests: dict[str, JudgeRequest]  # item_id -> request; items the model failed have none
    previous: Evaluation | None = None  # the evaluation file found on disk, whose samples may be reused
    samples: JudgeSamples = field(default_factory=lambda: JudgeSamples())
    unscored_before: set[tuple[str, int]] = field(default_factory=set)  # asked again, not answered from the cache
    journal: JournalWriter | None = None
    calls_made: int = 0


@dataclass
class JudgeOutcome:
    items: list[ItemEvaluation]  # the target's items with `judge` filled in
    summary: JudgeSummary
    complete: bool  # no call failed; otherwise the evaluation must be redone on the next run
    calls_made: int  # calls made in this run (reused samples cost nothing)


class JudgeSamples:
    """A target's samples by (item_id, index): those judged in this run, held; those reused from the shards'
    parts and the journals, held as where their line sits (shards.LineIndex) and parsed when asked for, so that
    consolidating 100,000 items' parts keeps an int per sample instead of every sample; those of the earlier
    evaluation file (already read) as given. The newest wins: this run's, then the journals' last line, then
    the earlier file's."""

    def __init__(self, earlier: dict[tuple[str, int], JudgeSample] | None = None,
                 index: LineIndex | None = None) -> None:
        self._new: dict[tuple[str, int], JudgeSample] = {}
        self._earlier = earlier or {}
        self._index = index or LineIndex()

    def __contains__(self, key: object) -> bool:
        return key in self._new or key in self._earlier or (isinstance(key, tuple) and _line_key(*key) in self._index)

    def get(self, key: tuple[str, int]) -> JudgeSample | None:
        if key in self._new:
            return self._new[key]
        line = self._index.get(_line_key(*key))
        if line is not None:
            return JudgeJournalEntry.model_validate_json(line).sample
        return self._earlier.get(key)

    def __getitem__(self, key: tuple[str, int]) -> JudgeSample:
        sample = self.get(key)
        if sample is None:
            raise KeyError(key)
        return sample

    def __setitem__(self, key: tuple[str, int], sample: JudgeSample) -> None:
        self._new[key] = sample

    def reused(self) -> int:
        """How many samples were found before this run judged any."""
        return len(self._index) + sum(_line_key(*k) not in self._index for k in self._earlier)

    def close(self) -> None:
        self._index.close()


def _line_key(item_id: str, index: int) -> str:
    return f"{index}\x00{item_id}"


def _reusable(target: JudgeTarget) -> JudgeSamples:
    """Scored samples from the earlier evaluation file and the journals, where the request is unchanged; the
    unscored ones are noted in `target.unscored_before`. The journals' and parts' lines are indexed, not kept."""
    earlier: dict[tuple[str, int], JudgeSample] = {}
    unscored: set[tuple[str, int]] = set()
    if target.previous is not None:
        for item in target.previous.items:
            request = target.requests.get(item.item_id)
            if item.judge is None or request is None or item.judge.fingerprint != request.fingerprint:
                continue
            for sample in item.judge.samples:
                if sample.status in REUSED_STATUSES:
                    earlier[(item.item_id, sample.index)] = sample
                elif sample.status == "unscored":
                    unscored.add((item.item_id, sample.index))
    index = LineIndex()
    for path in [*shard_files(_judge_stem(target.evaluation_file), _JUDGE_SUFFIX),
                 judge_journal_path(target.evaluation_file)]:
        final = path.name.endswith(".part.jsonl")  # a finished shard's unscored reply is its answer, as in a file
        index.add(path, functools.partial(_reusable_key, target, final=final, unscored=unscored))
    samples = JudgeSamples(earlier, index)
    target.unscored_before = {key for key in unscored if key not in samples}
    return samples


def _reusable_key(target: JudgeTarget, line: bytes, record: dict, *, final: bool,
                  unscored: set[tuple[str, int]]) -> str | None:
    """The index key of a journal line whose sample may be reused (None for any other line); an unscored one
    that is not final is noted in `unscored`, to be asked again past the response cache."""
    try:
        entry = JudgeJournalEntry.model_validate(record)
    except ValidationError:
        return None  # not a sample line (the journal's run info)
    request = target.requests.get(entry.item_id)
    if request is None or entry.fingerprint != request.fingerprint:
        return None
    if entry.sample.status in REUSED_STATUSES or (final and entry.sample.status == "unscored"):
        return _line_key(entry.item_id, entry.sample.index)
    if entry.sample.status == "unscored":
        unscored.add((entry.item_id, entry.sample.index))
    return None


def _outcome(target: JudgeTarget, settings: JudgeSettings) -> JudgeOutcome:
    items: list[ItemEvaluation] = []
    for item in target.items:
        request = target.requests.get(item.item_id)
        if request is None:
            judgement = ItemJudgement(status="model_error")
        else:
            samples = [target.samples[(item.item_id, i)] for i in range(settings.samples)]
            judgement = combine_samples(request, samples)
        items.append(item.model_copy(update={"judge": judgement}))
    summary = summarize_judgements(
        items,
        criteria_for(target.use_case, target.mode, settings.criteria),
        target.rubric_criteria,
        settings,
        target.mode,
        target.mode_note,
        lookup_price(settings.provider, settings.model),
    )
    return JudgeOutcome(
        items=items, summary=summary, complete=summary.failed_samples == 0, calls_made=target.calls_made
    )


def judge_experiments(
    targets: list[JudgeTarget], settings: JudgeSettings, call_options: CallOptions, *, reuse: bool = True,
    show_progress: bool | None = None,
) -> list[JudgeOutcome]:
    """Judge every target's items K times (reusing finished samples unless `reuse` is off), in one fan-out,
    the calls made as `call_options` say (response cache, batch API). The judge provider is created, and so its
    API key checked, only when there is a call to make."""
    _judge(targets, settings, call_options, reuse, show_progress, None)
    try:
        outcomes = [_outcome(t, settings) for t in targets]
    finally:
        for target in targets:
            target.samples.close()
    if targets and all(o.complete for o in outcomes):  # a failed sample keeps its batch journaled for the retry
        remove_batch_journals(targets[0].evaluation_file.parent, "judge")  # and the shards' (their parts are in)
    return outcomes


def judge_shard(targets: list[JudgeTarget], settings: JudgeSettings, call_options: CallOptions, shard: Shard, *,
                reuse: bool = True, show_progress: bool | None = None) -> tuple[int, int]:
    """Judge only the items shard K/N owns (by judge request fingerprint) and write each target's part: every
    finished sample of those items. (calls made, samples that failed: asked again when the shard runs again.)"""
    _judge(targets, settings, call_options, reuse, show_progress, shard)
    try:
        failed = _write_parts(targets, settings, shard)
    finally:
        for target in targets:
            target.samples.close()
    if targets and not failed:
        judge_batch_journal(targets, shard).unlink(missing_ok=True)
    return sum(t.calls_made for t in targets), failed


def _write_parts(targets: list[JudgeTarget], settings: JudgeSettings, shard: Shard) -> int:
    """Each target's part: every finished sample of the items the shard owns, written one at a time. The number
    of samples not finished (asked again when the shard runs again)."""
    failed = 0
    for target in targets:
        missing: list[int] = [0]

        def entries(target: JudgeTarget = target, missing: list[int] = missing) -> Iterator[bytes]:
            for item_id, request in target.requests.items():
                if not shard.owns(request.fingerprint):
                    continue
                for index in range(settings.samples):
                    sample = target.samples.get((item_id, index))
                    if sample is None or sample.status not in DONE_STATUSES:
                        missing[0] += 1
                        continue
                    entry = JudgeJournalEntry(item_id=item_id, fingerprint=request.fingerprint, sample=sample)
                    yield orjson.dumps(entry.model_dump(mode="json"))

        write_part(shard_part_path(_judge_stem(target.evaluation_file), _JUDGE_SUFFIX, shard), entries())
        failed += missing[0]
        remove_journal(_journal_of(target, shard))
    return failed


def _judge(targets: list[JudgeTarget], settings: JudgeSettings, call_options: CallOptions, reuse: bool,
           show_progress: bool | None, shard: Shard | None) -> None:
    jobs: list[tuple[JudgeTarget, str, int]] = []
    for target in targets:
        target.samples = _reusable(target) if reuse else JudgeSamples()
        for item_id, request in target.requests.items():
            if shard is not None and not shard.owns(request.fingerprint):
                continue
            jobs += [(target, item_id, i) for i in range(settings.samples) if (item_id, i) not in target.samples]
    if jobs:
        provider_settings = ProviderSettings(
            provider=settings.provider,
            model=settings.model,
            base_url=settings.base_url,
            timeout_s=settings.retry.timeout_s,
        )
        journal = judge_batch_journal(targets, shard)
        provider = open_provider(provider_settings, call_options, journal, label=f"judge {settings.spec}",
                                 refresh=not reuse)
        run_async(_run(jobs, settings, provider, call_options.batch, reuse, show_progress, shard))


def judge_batch_journal(targets: list[JudgeTarget], shard: Shard | None) -> Path:
    """The judge's batch journal (--batch), in the evaluation folder (a shard's own)."""
    return batch_journal_path(targets[0].evaluation_file.parent, "judge", shard)


async def _run(
    jobs: list[tuple[JudgeTarget, str, int]],
    settings: JudgeSettings,
    provider: Provider,
    batch: BatchOptions,
    reuse: bool,
    show_progress: bool | None,
    shard: Shard | None,
) -> None:
    judge = Judge(settings, provider, batch_gate(batch, settings.concurrency, provider=settings.provider))
    busy = list({id(t): t for t, _, _ in jobs}.values())
    for target in busy:
        target.journal = JournalWriter(_journal_of(target, shard), truncate=not reuse)
        target.journal.write_run_info(total=len(target.requests) * settings.samples, reused=target.samples.reused(),
                                      model=f"judge {settings.provider}:{settings.model}",
                                      concurrency=settings.concurrency)
    progress = Progress(len(jobs), enabled=show_progress, label="judge samples")

    async def worker(job: tuple[JudgeTarget, str, int]) -> JudgeSample:
        target, item_id, index = job
        return await judge.sample(target.requests[item_id], index, refresh=(item_id, index) in target.unscored_before)

    def on_result(job: tuple[JudgeTarget, str, int], sample: JudgeSample) -> None:
        target, item_id, _ = job
        target.samples[(item_id, sample.index)] = sample
        target.calls_made += sample.calls
        if sample.status in DONE_STATUSES and target.journal is not None:
            target.journal.append(
                JudgeJournalEntry(item_id=item_id, fingerprint=target.requests[item_id].fingerprint, sample=sample)
            )
        progress.advance(error=sample.status != "scored")

    try:
        await map_concurrent(jobs, worker, limit=judge.gate.max_concurrency, on_result=on_result)
    finally:
        progress.close()
        await close_all(*(target.journal.close for target in busy if target.journal is not None), provider.aclose)
