"""The LLM judge as a meta-evaluated scorer (`--judge PROVIDER:MODEL`): gaia-eval's judge prompt and reply
checks on each rated summary, against its first reference when there is one and on the source alone otherwise.

The scorer `judge:<model>` is the mean rating (Poor 1 .. Excellent 4) over the criteria that read a one-text
summary (accuracy, completeness, faithfulness; the list criteria have no list to read); `judge:<model>:<criterion>`
is each of them. A summary whose judgement failed or stayed unusable has no score (NaN), and is counted in a note.
`judge:<model>:g-eval` is the same mean of G-Eval's expected ratings (scoring/judge/geval.py: the rating tokens'
probabilities, asked for with every call), measured where the server returns log-probabilities.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import orjson

from gaia_eval import usecases
from gaia_eval.artifacts.experiment import ItemResult
from gaia_eval.artifacts.groundtruth import Summaries
from gaia_eval.artifacts.journal import read_records, remove_journal
from gaia_eval.artifacts.metaeval import JudgedSampleEntry
from gaia_eval.artifacts.shards import Shard, shard_files, shard_part_path, write_part
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


def _shard_samples(output: Path | None) -> dict[tuple[str, int], JudgedSampleEntry]:
    """The samples finished shards left beside `output`, by (judge request fingerprint, sample index)."""
    if output is None:
        return {}
    return {(e.fingerprint, e.sample.index): e for path in shard_files(output, output.suffix)
            if path.name.endswith(".part.jsonl") for e in read_records(path, JudgedSampleEntry)}


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
    known = _shard_samples(output)
    jobs = [(k, i) for k in range(len(rows)) for i in range(settings.samples)
            if (requests[k][0].fingerprint, i) not in known
            and (shard is None or shard.owns(requests[k][0].fingerprint))]

    judge = Judge(settings, provider, ProviderGate(settings.concurrency), top_logprobs=TOP_LOGPROBS)
    judge.expected.update({key: entry.expected for key, entry in known.items() if entry.expected})

    async def run() -> list:
        try:
            return await map_concurrent(
                jobs, lambda job: judge.sample(requests[job[0]][0], job[1]), limit=settings.concurrency
            )
        finally:
            await provider.aclose()

    done = dict(zip(jobs, run_async(run()) if jobs else [], strict=True))
    samples = list(done.values())
    if shard is not None:
        assert output is not None
        return {}, [], _write_part(rows, requests, judge, known, done, output, shard)
    per_row: list[list] = [[done.get((k, i)) or known[(requests[k][0].fingerprint, i)].sample
                            for i in range(settings.samples)] for k in range(len(rows))]
    name = f"judge:{settings.model}"
    modes = {mode for _, mode in requests}
    criteria = [c for mode in sorted(modes) for c in PROSE_CRITERIA[mode]]
    out: dict[str, list[float]] = {name: [], **{f"{name}:{c}": [] for c in dict.fromkeys(criteria)}}
    unscored = 0
    failed = sum(1 for sample in samples if sample.status == "failed")
    for (request, mode), row_samples in zip(requests, per_row, strict=True):
        judgement = combine_samples(request, row_samples)
        ratings = {c.criterion: RANK[c.rating] for c in judgement.criteria}
        kept = [ratings[c] for c in PROSE_CRITERIA[mode] if c in ratings]
        unscored += not kept
        out[name].append(sum(kept) / len(kept) if kept else float("nan"))
        for c in dict.fromkeys(criteria):
            out[f"{name}:{c}"].append(float(ratings[c]) if c in ratings else float("nan"))
    geval = _geval_scores(judge, requests, per_row)
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


def _write_part(rows: list[RatedOutput], requests: list, judge: Judge, known: dict, done: dict,
                output: Path, shard: Shard) -> int:
    """Shard K's part: every finished sample of the rows it owns; the number of calls that failed."""
    lines, failed = [], 0
    for k in range(len(rows)):
        fp = requests[k][0].fingerprint
        if not shard.owns(fp):
            continue
        for i in range(judge.settings.samples):
            sample = done.get((k, i)) or (known[(fp, i)].sample if (fp, i) in known else None)
            if sample is None or sample.status == "failed":  # scored and unscored are finished answers
                failed += 1
                continue
            entry = JudgedSampleEntry(item_id=rows[k].item_id, fingerprint=fp, sample=sample,
                                      expected=judge.expected.get((fp, i), {}))
            lines.append(orjson.dumps(entry.model_dump(mode="json")))
    write_part(shard_part_path(output, output.suffix, shard), lines)
    return failed


def _geval_scores(judge: Judge, requests: list, per_row: list[list]) -> list[float]:
    """Per row, the mean over its prose criteria of the expected rank (mean over scored samples); NaN without."""
    values = []
    for (request, mode), samples in zip(requests, per_row, strict=True):
        per_criterion: dict[str, list[float]] = {}
        for sample in samples:
            for criterion, value in judge.expected.get((request.fingerprint, sample.index), {}).items():
                per_criterion.setdefault(criterion, []).append(value)
        kept = [sum(v) / len(v) for c, v in per_criterion.items() if c in PROSE_CRITERIA[mode]]
        values.append(sum(kept) / len(kept) if kept else float("nan"))
    return values
