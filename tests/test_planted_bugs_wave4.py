"""Behaviours no test pinned, found by planting one-line bugs in wave 3's code (issue 29): each test here fails on
the bug named in it. (The lock's inode check is in tests/test_folder_lock.py.)"""

from __future__ import annotations

import gc
import os
import types
from pathlib import Path

import pytest

# --- the ratings log acknowledges a rating only once it is synced to disk ------------------------------------------


def test_a_rating_is_fsynced_before_append_rating_returns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bug: append_rating without os.fsync (durability is claimed: a power cut could lose an acknowledged rating)."""
    from gaia_eval.artifacts import ratings

    path = tmp_path / "ratings.jsonl"
    synced: list[tuple[int, int]] = []
    real_fsync = os.fsync

    def fake_fsync(fd: int) -> None:
        stat = os.fstat(fd)
        synced.append((stat.st_ino, stat.st_size))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fake_fsync)
    record = ratings.new_record("rating", "alice", unit="u001", item_id="a", model="m", dimension="relevance",
                                value=4)
    ratings.append_rating(path, record)
    assert synced, "the rating was acknowledged without an fsync"
    assert synced[-1] == (path.stat().st_ino, path.stat().st_size)  # the log itself, with the new line in it


# --- the repetition-loop rule at exactly its threshold -------------------------------------------------------------


def test_the_repetition_loop_rule_fires_at_exactly_its_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bug: `>` for `>=` on LOOP_SHARE. 0.3 is never exactly a share of repeated trigrams in floating point, so the
    threshold is set to one that is (0.25: one of four trigrams repeats)."""
    from gaia_eval.scoring.rubric import degenerate

    monkeypatch.setattr(degenerate, "LOOP_SHARE", 0.25)
    at = "alpha beta gamma alpha beta gamma."  # trigrams: abg bga gab abg -> 1 of 4 repeats
    assert degenerate.repeated_trigram_share(degenerate.tokenize(at)) == 0.25
    assert (degenerate.degenerate_reason(at, None) or "").startswith("a repetition loop (25%")
    below = "alpha beta gamma alpha beta delta."  # no trigram repeats
    assert degenerate.degenerate_reason(below, None) is None


# --- the report's clear lead: both boundaries --------------------------------------------------------------------


def _compare(monkeypatch: pytest.MonkeyPatch, shared: int, ci: tuple[float, float]) -> dict:
    from gaia_eval.reporting import data

    points = {"best": {f"i{n}": 80.0 for n in range(shared)}, "other": {f"i{n}": 70.0 for n in range(shared)}}
    monkeypatch.setattr(data, "_item_points", lambda ev: points[ev.name])
    monkeypatch.setattr(data, "rubric", types.SimpleNamespace(bootstrap_ci=lambda diffs: ci))
    best, other = types.SimpleNamespace(name="best"), types.SimpleNamespace(name="other", experiment_name="other")
    return data._comparison(best, other)  # type: ignore[arg-type]


def test_a_lead_whose_interval_starts_at_exactly_zero_is_not_clear(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bug: `>= 0` for `> 0`: an interval reaching 0 does not exclude "no difference"."""
    from gaia_eval.reporting.data import MIN_ITEMS_FOR_CLEAR_LEAD

    assert _compare(monkeypatch, MIN_ITEMS_FOR_CLEAR_LEAD, (0.0, 12.0))["lead_is_clear"] is False
    assert _compare(monkeypatch, MIN_ITEMS_FOR_CLEAR_LEAD, (0.1, 12.0))["lead_is_clear"] is True


def test_exactly_the_documented_number_of_shared_items_can_call_a_lead(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bug: `>` for `>=` on MIN_ITEMS_FOR_CLEAR_LEAD (one shared item more than documented was needed)."""
    from gaia_eval.reporting.data import MIN_ITEMS_FOR_CLEAR_LEAD

    at = _compare(monkeypatch, MIN_ITEMS_FOR_CLEAR_LEAD, (2.0, 12.0))
    assert at["lead_is_clear"] is True and at["too_few_to_call"] is False
    below = _compare(monkeypatch, MIN_ITEMS_FOR_CLEAR_LEAD - 1, (2.0, 12.0))
    assert below["lead_is_clear"] is False and below["too_few_to_call"] is True


# --- eval streams its scored items: none is kept once spooled ------------------------------------------------------


def test_eval_holds_no_scored_item_once_it_is_spooled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bug: eval keeping every ItemEvaluation in a list besides spooling it (the memory test's ratio still passed).
    Counted, not timed: the scored items alive when the last one is spooled."""
    import json

    from click.testing import CliRunner

    from gaia_eval.artifacts.evaluation import ItemEvaluation
    from gaia_eval.artifacts.streamed import ListSpool
    from gaia_eval.cli import cli

    n = 60
    rows = [{"item_id": f"m{i}", "system": "s", "output": f"They ship release {i} on Friday.",
             "source": f"Ann: we ship release {i} on Friday."} for i in range(n)]
    (tmp_path / "out.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert CliRunner().invoke(cli, ["import-outputs", str(tmp_path / "out.jsonl"), "-o", str(tmp_path / "exp")]
                              ).exit_code == 0
    def held() -> int:  # ItemEvaluation objects alive in this process (other tests' caches may hold some)
        gc.collect()
        return sum(isinstance(o, ItemEvaluation) for o in gc.get_objects())

    alive: list[int] = []
    real_add = ListSpool.add

    def counting_add(self: ListSpool, element) -> None:
        real_add(self, element)
        if self.count == n:
            alive.append(held())

    monkeypatch.setattr(ListSpool, "add", counting_add)
    before = held()
    result = CliRunner().invoke(cli, ["eval", "-d", str(tmp_path / "exp"), "-o", str(tmp_path / "ev")])
    assert result.exit_code == 0, result.output
    assert alive and alive[0] - before <= 2, f"{alive[0] - before} of {n} scored items still held after spooling"
