"""The consolidation of a sharded `eval --judge` and `meta-eval --judge` (the same command without --shard once
the shards have finished) indexes the shards' judge parts and journals instead of loading them: the samples it
reuses are held as where their line sits (shards.LineIndex) and read back when used. Measured with tracemalloc
(exact: what the store keeps, none of the process's other allocations), never assumed: the bytes held per reused
sample must be a fraction of a part line. Bug planted in the test: a LineIndex that also keeps every line parsed
(what the consolidations did before: every part record read whole into sample models) fails the bound."""

from __future__ import annotations

import tracemalloc
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import orjson
import pytest

from gaia_eval.artifacts.evaluation import ItemEvaluation
from gaia_eval.artifacts.shards import LineIndex, Shard
from gaia_eval.scoring.judge import run as judge_run
from gaia_eval.usecases import get as use_case

SAMPLES = 3
_CRITERIA = ("accuracy", "completeness", "conciseness", "clarity", "relevance")


def _target(folder: Path, items: int) -> judge_run.JudgeTarget:
    """A target of `items` items whose samples are all in 4 shards' judge parts (none in an evaluation file)."""
    folder.mkdir(parents=True, exist_ok=True)
    evaluation = folder / "lead.experiment.eval.json"
    requests: dict[str, Any] = {f"item-{i:06d}": SimpleNamespace(fingerprint=f"{i:064x}") for i in range(items)}
    lines: dict[int, list[bytes]] = {k: [] for k in range(1, 5)}
    for n, (item_id, request) in enumerate(requests.items()):
        for index in range(SAMPLES):
            sample = {"index": index, "status": "scored", "calls": 1, "attempts": 1,
                      "verdicts": {c: {"rating": "Good", "explanation": f"The summary of {item_id} covers the "
                                       f"decisions and owners well; sample {index} of criterion {c}."}
                                   for c in _CRITERIA}}
            lines[n % 4 + 1].append(orjson.dumps({"item_id": item_id, "fingerprint": request.fingerprint,
                                                  "sample": sample}))
    stem = folder / "lead.experiment.judge.json"
    for k, part in lines.items():
        judge_run.shard_part_path(stem, ".judge.json", Shard(k, 4)).write_bytes(b"\n".join(part) + b"\n")
    return judge_run.JudgeTarget(evaluation_file=evaluation, use_case=use_case("summarization"), mode="rubric",
                                 mode_note="", rubric_criteria=[], items=list[ItemEvaluation](),
                                 requests=requests)


def _held(folder: Path, items: int) -> tuple[int, int]:
    """(bytes the reused samples' store holds after every sample was read back once, bytes of the parts)."""
    target = _target(folder, items)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        samples = judge_run._reusable(target)
        assert all(samples[(item_id, i)].status == "scored" for item_id in target.requests for i in range(SAMPLES))
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert samples.reused() == items * SAMPLES and not target.unscored_before
    samples.close()
    return held, sum(p.stat().st_size for p in folder.glob("*.part.jsonl"))


def test_the_judge_consolidation_holds_where_each_sample_line_is_not_the_sample(tmp_path: Path) -> None:
    small_held, _ = _held(tmp_path / "small", 200)
    large_held, large_parts = _held(tmp_path / "large", 1400)
    per_sample = (large_held - small_held) / (1200 * SAMPLES)
    line = large_parts / (1400 * SAMPLES)
    assert line > 600, line  # the lines are worth not holding
    assert per_sample < 0.25 * line, f"{per_sample:.0f} bytes per sample held, part lines of {line:.0f} bytes"


def _plant_whole_load(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every LineIndex also keeps each line it indexed, parsed (what both consolidations held before)."""
    add = LineIndex.add

    def add_whole(self: LineIndex, path: Path, key: Any, flags: Any = None) -> None:
        add(self, path, key, flags)
        self.whole = {k: orjson.loads(self.get(k) or b"null") for k in self.list_keys()}  # type: ignore[attr-defined]

    monkeypatch.setattr(LineIndex, "add", add_whole)


def test_a_planted_whole_load_fails_the_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bound above means something: the same measure with every part line kept parsed (as the consolidation
    did before it indexed them) fails it."""
    _plant_whole_load(monkeypatch)
    with pytest.raises(AssertionError, match="bytes per sample held"):
        test_the_judge_consolidation_holds_where_each_sample_line_is_not_the_sample(tmp_path)


def _metaeval_held(folder: Path, rows: int) -> tuple[int, int]:
    """meta-eval --judge's consolidation: (bytes its store of the shards' samples holds after each was read back
    once, bytes of the parts) for `rows` rated summaries in 4 shards' parts."""
    from gaia_eval.metaeval.judged import ShardSamples

    folder.mkdir(parents=True, exist_ok=True)
    output = folder / "meta.json"
    lines: dict[int, list[bytes]] = {k: [] for k in range(1, 5)}
    for n in range(rows):
        for index in range(SAMPLES):
            sample = {"index": index, "status": "scored", "calls": 1, "attempts": 1,
                      "verdicts": {c: {"rating": "Fair", "explanation": f"Row {n} reads well but misses an owner; "
                                       f"sample {index} of criterion {c}."} for c in _CRITERIA}}
            lines[n % 4 + 1].append(orjson.dumps({"item_id": f"row-{n}", "fingerprint": f"{n:064x}",
                                                  "sample": sample, "expected": dict.fromkeys(_CRITERIA, 2.5)}))
    for k, part in lines.items():
        judge_run.shard_part_path(output, ".json", Shard(k, 4)).write_bytes(b"\n".join(part) + b"\n")
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        known = ShardSamples(output)
        for n in range(rows):
            for index in range(SAMPLES):
                entry = known.get((f"{n:064x}", index))
                assert entry is not None and entry.sample.status == "scored"
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    known.close()
    return held, sum(p.stat().st_size for p in folder.glob("*.part.jsonl"))


def test_the_metaeval_judge_consolidation_holds_where_each_sample_line_is_not_the_sample(tmp_path: Path) -> None:
    small_held, _ = _metaeval_held(tmp_path / "small", 200)
    large_held, large_parts = _metaeval_held(tmp_path / "large", 1400)
    per_sample = (large_held - small_held) / (1200 * SAMPLES)
    line = large_parts / (1400 * SAMPLES)
    assert line > 600, line
    assert per_sample < 0.25 * line, f"{per_sample:.0f} bytes per sample held, part lines of {line:.0f} bytes"


def test_a_planted_whole_load_fails_the_metaeval_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _plant_whole_load(monkeypatch)
    with pytest.raises(AssertionError, match="bytes per sample held"):
        test_the_metaeval_judge_consolidation_holds_where_each_sample_line_is_not_the_sample(tmp_path)
