"""`gaia-eval cluster-run`: N shards of batch-experiment as Ray tasks on a one-node Ray cluster (started for the
run), then the consolidation: the artifacts equal one process's, every item paid once, the consolidation nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pytest

pytestmark = pytest.mark.cluster
pytest.importorskip("ray", reason="the cluster tier needs ray: pip install '.[cluster]'")

TIMING = {"latency_s", "time_to_success_s"}


def _items(path: Path) -> list[dict]:
    return [{k: v for k, v in i.items() if k not in TIMING} for i in orjson.loads(path.read_bytes())["items"]]


def test_four_shards_as_ray_tasks_equal_one_process(fake_llm, tmp_path: Path):
    from gaia_eval.stages.generate import run_generate
    from gaia_eval.stages.groundtruth.run import run_groundtruth
    from tests.test_shards import _config

    run_generate("meeting", tmp_path / "docs", types=["standup", "planning"], count_per_type=2, seed=12)
    run_groundtruth(input_dir=tmp_path / "docs", use_case="qa", output_dir=tmp_path / "gt")
    config = _config(tmp_path / "c.json", fake_llm.openai_base_url)
    def command(out: str) -> list[str]:
        return ["batch-experiment", "-c", str(config), "-i", str(tmp_path / "gt"), "-o", str(tmp_path / out),
                "--quiet", "--no-cache"]

    done = subprocess.run([sys.executable, "-m", "gaia_eval", "cluster-run", "--shards", "4", "--", *command("ray")],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert [f"shard {k}/4: exit 0" in done.stdout for k in range(1, 5)] == [True] * 4
    assert "0 requests sent to models" in done.stdout  # the consolidation paid nothing
    paid = fake_llm.request_count
    single = subprocess.run([sys.executable, "-m", "gaia_eval", *command("single")], capture_output=True, text=True,
                            timeout=300)
    assert single.returncode == 0, single.stderr
    assert fake_llm.request_count - paid == paid  # every item was paid once, by one of the shards
    assert _items(tmp_path / "ray" / "local-model.experiment.json") == _items(
        tmp_path / "single" / "local-model.experiment.json")
