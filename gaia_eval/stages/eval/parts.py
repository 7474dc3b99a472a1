"""`eval --shard K/N` without the judge's calls: a shard scores only the items it owns (by the experiment item's
fingerprint, artifacts/shards.py), journals each scored item beside the evaluation
(`<name>.eval.shard-K-of-N.journal.jsonl`, so a killed shard scores again only what it had not finished), and
when it has them all writes its part (`<name>.eval.shard-K-of-N.part.jsonl`) and drops the journal. The same
eval without --shard takes every line made from the same inputs as scored (`scored_earlier`), scores only the
rest, writes exactly the evaluation one process writes, and removes the parts (`remove_scored_parts`).

An item a scorer failed on is written to the part (the shard's answer for it) but never taken as scored: like
a run whose scorer failed, the next run scores it again (the scorer may have been fixed)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import orjson

from gaia_eval.artifacts.evaluation import ScoredItemRecord
from gaia_eval.artifacts.experiment import Experiment, ItemResult
from gaia_eval.artifacts.groundtruth import GroundTruth
from gaia_eval.artifacts.journal import JournalWriter, remove_journal
from gaia_eval.artifacts.shards import LineIndex, Shard, shard_files, shard_journal_path, shard_part_path, write_part
from gaia_eval.artifacts.store import fingerprint
from gaia_eval.artifacts.streamed import StreamedExperiment
from gaia_eval.errors import UsageError
from gaia_eval.stages.eval.items import Seen, score_items
from gaia_eval.usecases import UseCase

SUFFIX = ".eval.json"
# Input keys of a judged evaluation; "judge_pending" marks one whose judge calls partly failed, so that it is
# never current and the next run calls (only) the failed samples again. The rubric's scores do not depend on them.
JUDGE_INPUT_KEYS = ("judge", "judge_pending")


def refuse_shard_of_index(shard: Shard | None, regenerate_report: bool) -> None:
    """eval --regenerate-report --shard: one clear line (the CLI asks before it takes a shard's lock)."""
    if shard is not None and regenerate_report:
        raise UsageError("--regenerate-report only rebuilds the index: there is nothing to split into shards",
                         field="--shard", fix="leave --shard out, or run eval --shard without --regenerate-report")


def rubric_fingerprint(inputs: dict[str, str]) -> str:
    """What an item's rubric scores were made from: the evaluation's inputs but the judge's."""
    return fingerprint({k: v for k, v in inputs.items() if k not in JUDGE_INPUT_KEYS})


def scored_earlier(out: Path, inputs_fp: str, shard: Shard | None = None) -> LineIndex:
    """Items the shards of this evaluation (or `shard` alone) scored from the same inputs, by id: where their
    journal or part line sits (a 100k-item consolidation holds neither the lines nor models), each line read
    and validated when it is used (items.score_items). Items a scorer failed on are left out."""
    found = LineIndex()

    def scored_id(line: bytes, record: dict) -> str | None:
        item = record.get("item")
        if record.get("inputs") == inputs_fp and not record.get("errors") and isinstance(item, dict) \
                and isinstance(item.get("item_id"), str):
            return str(item["item_id"])
        return None

    for path in shard_files(out, SUFFIX):  # parts first, journals (newer lines) after
        if shard is None or f".{shard.tag}." in path.name:
            found.add(path, scored_id)
    return found


def remove_scored_parts(out: Path) -> None:
    """The shards' journals and parts of an evaluation now written (it holds what they held)."""
    for path in shard_files(out, SUFFIX):
        remove_journal(path)


@dataclass
class ShardScores:
    scored: int  # items scored in this run
    reused: int  # items found scored in the shard's journal or part
    part: Path


def score_shard(use_case: UseCase, exp: Experiment | StreamedExperiment, external: dict[str, GroundTruth],
                exp_path: Path, out: Path, seen: Seen, shard: Shard, inputs_fp: str, *, force: bool) -> ShardScores:
    """Score the items `shard` owns (each journaled as it is scored), then write its part in the experiment's
    order and drop the journal. `force`: score them all again."""
    earlier = LineIndex() if force else scored_earlier(out, inputs_fp, shard)
    journal_path = shard_journal_path(out, SUFFIX, shard)
    journal = JournalWriter(journal_path, truncate=force)
    counts = {"lines": 0, "scored": 0}

    def owns(item: ItemResult) -> bool:
        return shard.owns(item.fingerprint)

    def part_lines() -> Iterator[bytes]:  # written into the part as they come: the part is never held whole
        errors = 0
        try:
            for item in score_items(use_case, exp, external, exp_path, seen, owns=owns, scored=earlier):
                line = earlier.get(item.item_id)  # (a line that did not validate was dropped: the item was scored)
                if line is None:
                    record = ScoredItemRecord(inputs=inputs_fp, item=item, errors=seen.scorer_errors[errors:])
                    journal.append(record)
                    line = orjson.dumps(record.model_dump(mode="json"))
                    counts["scored"] += 1
                errors = len(seen.scorer_errors)
                counts["lines"] += 1
                yield line
        finally:
            journal.close()

    part = shard_part_path(out, SUFFIX, shard)
    try:
        write_part(part, part_lines())
    finally:
        earlier.close()
    remove_journal(journal_path)
    return ShardScores(scored=counts["scored"], reused=counts["lines"] - counts["scored"], part=part)
