"""The LLM judge as a meta-evaluated scorer (`--judge PROVIDER:MODEL`): gaia-eval's judge prompt and reply
checks on each rated summary, against its first reference when there is one and on the source alone otherwise.

The scorer `judge:<model>` is the mean rating (Poor 1 .. Excellent 4) over the criteria that read a one-text
summary (accuracy, completeness, faithfulness; the list criteria have no list to read); `judge:<model>:<criterion>`
is each of them. A summary whose judgement failed or stayed unusable has no score (NaN), and is counted in a note.
`judge:<model>:g-eval` is the same mean of G-Eval's expected ratings (scoring/judge/geval.py: the rating tokens'
probabilities, asked for with every call), measured where the server returns log-probabilities.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import orjson
from pydantic import ValidationError

from gaia_eval import usecases
from gaia_eval.artifacts.evaluation import JudgeSample
from gaia_eval.artifacts.experiment import ItemResult
from gaia_eval.artifacts.groundtruth import Summaries
from gaia_eval.artifacts.journal import remove_journal
from gaia_eval.artifacts.metaeval import JudgedSampleEntry
from gaia_eval.artifacts.shards import LineIndex, Shard, shard_files, shard_part_path, write_part
from gaia_eval.concurrency import ProviderGate, map_concurrent, run_async
from gaia_eval.metaeval.ratings import RatedOutput
from gaia_eval.scoring.judge import (
    RANK,
    Judge,
    JudgeRequest,
    JudgeSettings,
    combine_samples,
    judge_request,
)

if TYPE_CHECKING:
    from gaia_eval.providers.cache import CacheOptions

# A ratings file's summaries (of meetings, news, dialogues) are judged with summarization's judge prompt.
RATED_USE_CASE = "summarization"
TOP_LOGPROBS = 5  # alternatives asked for at each token: the four ratings fit, with room for spellings
PROSE_CRITERIA = {
    "comparative": ("executive_summary_accuracy", "completeness", "faithfulness"),
    "standalone": ("executive_summary_clarity", "detail_completeness", "faithfulness"),
}


def judge_applicable(rows: list[RatedOutput]) -> bool:
    return all(r.references or r.source for r in rows)


def _request(settings: JudgeSettings, row: RatedOutput) -> tuple[JudgeRequest, str]:
    mode = "comparative" if row.references else "standalone"
    text = Summaries(executive_summary=row.output, detailed_summary=row.output)
    item = ItemResult(item_id=row.item_id, source=row.item_id, fingerprint="", status="ok", summaries=text)
    reference = (
        Summaries(executive_summary=row.references[0], detailed_summary=row.references[0]) if row.references else None
    )
    use_case = usecases.get(RATED_USE_CASE)
    return judge_request(settings, use_case, mode, item, row.source or "", reference), mode


class ShardSamples:
    """The samples finished shards left beside `output`, by (judge request fingerprint, sample index): each held
    as where its part line sits (shards.LineIndex) and read when asked for, so that consolidating the parts of
    100,000 rated summaries keeps an int per sample, not the samples. A line that is not a sample is skipped."""

    def __init__(self, output: Path | None) -> None:
        self._index = LineIndex()
        if output is not None:
            for path in shard_files(output, output.suffix):
                if path.name.endswith(".part.jsonl"):
                    self._index.add(path, _sample_key)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, tuple) and _line_key(*key) in self._index

    def get(self, key: tuple[str, int]) -> JudgedSampleEntry | None:
        line = self._index.get(_line_key(*key))
        return None if line is None else JudgedSampleEntry.model_validate_json(line)

    def close(self) -> None:
        self._index.close()


def _line_key(fingerprint: str, index: int) -> str:
    return f"{index}\x00{fingerprint}"


def _sample_key(line: bytes, record: dict) -> str | None:
    try:
        entry = JudgedSampleEntry.model_validate(record)
    except ValidationError:
        return None
    return _line_key(entry.fingerprint, entry.sample.index)


def remove_shard_parts(output: Path) -> None:
    """The shards' parts beside a meta-evaluation now written (it holds their judgements)."""
    for path in shard_files(output, output.suffix):
        remove_journal(path)


def judge_scores(
    rows: list[RatedOutput], settings: JudgeSettings, cache: CacheOptions, *, output: Path | None = None,
    shard: Shard | None = None,
) -> tuple[dict[str, list[float]], list[str], int]:
    """Per judge scorer, one value per row (NaN where the judge gave none), notes on the summaries left out, and
    the number of calls that failed after retries (the run is then incomplete). `cache`: the run's response
    cache. The samples of finished shards' parts beside `output` are reused; with `shard`, only the rows it owns
    (by judge request fingerprint) are judged and written as its part, and no score is returned."""
    from gaia_eval.providers import ProviderSettings, create_provider
    from gaia_eval.providers.cache import with_cache

    requests = [_request(settings, row) for row in rows]
    provider_settings = ProviderSettings(
        provider=settings.provider, model=settings.model, base_url=settings.base_url, timeout_s=settings.retry.timeout_s
    )
    # Behind the response cache, as in eval: running meta-eval again (other --metrics, another system left out)
    # does not pay for the same judgements twice.
    provider = with_cache(create_provider(provider_settings), provider_settings, cache)
    known = ShardSamples(output)
    try:
        jobs = [(k, i) for k in range(len(rows)) for i in range(settings.samples)
                if (requests[k][0].fingerprint, i) not in known
                and (shard is None or shard.owns(requests[k][0].fingerprint))]
        judge = Judge(settings, provider, ProviderGate(settings.concurrency), top_logprobs=TOP_LOGPROBS)

        async def run() -> list:
            try:
                return await map_concurrent(
                    jobs, lambda job: judge.sample(requests[job[0]][0], job[1]), limit=settings.concurrency
                )
            finally:
                await provider.aclose()

        done = dict(zip(jobs, run_async(run()) if jobs else [], strict=True))
        if shard is not None:
            assert output is not None
            return {}, [], _write_part(rows, requests, judge, known, done, output, shard)
        return _scores(rows, requests, judge, known, done)
    finally:
        known.close()


def _row_samples(k: int, request: JudgeRequest, judge: Judge, known: ShardSamples,
                 done: dict) -> list[tuple[JudgeSample, dict[str, float]]]:
    """Row k's samples, each with its G-Eval expected ranks: judged in this run, or read from a shard's part."""
    found = []
    for i in range(judge.settings.samples):
        sample = done.get((k, i))
        if sample is not None:
            found.append((sample, judge.expected.get((request.fingerprint, i), {})))
            continue
        entry = known.get((request.fingerprint, i))
        assert entry is not None  # every sample not in a part was a job
        found.append((entry.sample, entry.expected))
    return found


def _scores(rows: list[RatedOutput], requests: list, judge: Judge, known: ShardSamples,
            done: dict) -> tuple[dict[str, list[float]], list[str], int]:
    """The scores, a row at a time (its samples read from the parts as it comes: none held past it)."""
    name = f"judge:{judge.settings.model}"
    modes = {mode for _, mode in requests}
    criteria = [c for mode in sorted(modes) for c in PROSE_CRITERIA[mode]]
    out: dict[str, list[float]] = {name: [], **{f"{name}:{c}": [] for c in dict.fromkeys(criteria)}}
    geval: list[float] = []
    unscored = 0
    failed = sum(1 for sample in done.values() if sample.status == "failed")
    for k, (request, mode) in enumerate(requests):
        row_samples = _row_samples(k, request, judge, known, done)
        judgement = combine_samples(request, [sample for sample, _ in row_samples])
        ratings = {c.criterion: RANK[c.rating] for c in judgement.criteria}
        kept = [ratings[c] for c in PROSE_CRITERIA[mode] if c in ratings]
        unscored += not kept
        out[name].append(sum(kept) / len(kept) if kept else float("nan"))
        for c in dict.fromkeys(criteria):
            out[f"{name}:{c}"].append(float(ratings[c]) if c in ratings else float("nan"))
        geval.append(_geval_score(mode, [expected for _, expected in row_samples]))
    notes = [f"{name}: {unscored} of {len(rows)} summaries got no usable judgement (left out)"] if unscored else []
    if any(v == v for v in geval):  # some value is not NaN
        out[f"{name}:g-eval"] = geval
    else:
        notes.append(f"{name}:g-eval not measured: the server returned no log-probabilities for the rating tokens")
    if failed:
        notes.append(
            f"{name}: {failed} judge call(s) failed after retries; run again (answered calls come from the cache)"
        )
    return out, notes, failed


def _write_part(rows: list[RatedOutput], requests: list, judge: Judge, known: ShardSamples, done: dict,
                output: Path, shard: Shard) -> int:
    """Shard K's part: every finished sample of the rows it owns, written one at a time; the number of calls that
    failed."""
    failed = [0]

    def lines() -> Iterator[bytes]:
        for k in range(len(rows)):
            fp = requests[k][0].fingerprint
            if not shard.owns(fp):
                continue
            for i in range(judge.settings.samples):
                sample = done.get((k, i))
                expected = judge.expected.get((fp, i), {})
                if sample is None and (earlier := known.get((fp, i))) is not None:
                    sample, expected = earlier.sample, earlier.expected
                if sample is None or sample.status == "failed":  # scored and unscored are finished answers
                    failed[0] += 1
                    continue
                entry = JudgedSampleEntry(item_id=rows[k].item_id, fingerprint=fp, sample=sample, expected=expected)
                yield orjson.dumps(entry.model_dump(mode="json"))

    write_part(shard_part_path(output, output.suffix, shard), lines())
    return failed[0]


def _geval_score(mode: str, expected: list[dict[str, float]]) -> float:
    """A row's mean over its prose criteria of the expected rank (mean over its scored samples); NaN without."""
    per_criterion: dict[str, list[float]] = {}
    for ranks in expected:
        for criterion, value in ranks.items():
            per_criterion.setdefault(criterion, []).append(value)
    kept = [sum(v) / len(v) for c, v in per_criterion.items() if c in PROSE_CRITERIA[mode]]
    return sum(kept) / len(kept) if kept else float("nan")
