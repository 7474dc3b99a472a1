"""`gaia-eval cluster-run`: N shards of batch-experiment as Ray tasks on a one-node Ray cluster (started for the
run), then the consolidation: the artifacts equal one process's, every item paid once, the consolidation nothing;
and eval's scoring split the same way."""

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


def test_the_readmes_ray_commands_run_as_written(fake_llm, tmp_path: Path):
    """The README's block as a bash script: `ray start --head`, cluster-run with --address auto, eval, report,
    `ray stop`; run where its relative paths lead (groundtruth/qa and my_config.json made there first)."""
    import os
    import re
    import shutil

    from gaia_eval.stages.generate import run_generate
    from gaia_eval.stages.groundtruth.run import run_groundtruth
    from tests.test_shards import _config

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    block = next(b for b in re.findall(r"```sh\n(.*?)```", readme, re.S) if "cluster-run" in b)
    run_generate("meeting", tmp_path / "docs", types=["standup"], count_per_type=2, seed=13)
    run_groundtruth(input_dir=tmp_path / "docs", use_case="qa", output_dir=tmp_path / "groundtruth" / "qa")
    _config(tmp_path / "my_config.json", fake_llm.openai_base_url)
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "GAIA_EVAL_NO_CACHE": "1"}
    try:
        done = subprocess.run(["bash", "-e", "-c", block], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=900)
    finally:
        subprocess.run([shutil.which("ray", path=bin_dir) or "ray", "stop"], capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "0 requests sent to models" in done.stdout and fake_llm.request_count > 0
    assert (tmp_path / "experiments" / "ray" / "local-model.experiment.json").exists()
    assert (tmp_path / "evaluation" / "ray" / "local-model.experiment.eval.json").exists()
    assert (tmp_path / "reports" / "ray.md").exists()


def test_eval_without_a_judge_as_ray_tasks_equals_one_process(tmp_path: Path):
    """eval's scoring split into shards on the cluster (no model called): the evaluations equal one process's."""
    from gaia_eval.stages.experiment.run import run_batch_experiment
    from gaia_eval.stages.generate import run_generate
    from gaia_eval.stages.groundtruth.run import run_groundtruth

    run_generate("meeting", tmp_path / "docs", types=["standup", "planning"], count_per_type=2, seed=12)
    run_groundtruth(input_dir=tmp_path / "docs", use_case="qa", output_dir=tmp_path / "gt")
    config = tmp_path / "c.json"
    config.write_bytes(orjson.dumps({"experiments": [{"name": "lead", "provider": "baseline", "model": "lead"}]}))
    run_batch_experiment(config, tmp_path / "gt", tmp_path / "exp", show_progress=False)
    done = subprocess.run([sys.executable, "-m", "gaia_eval", "cluster-run", "--shards", "2", "--", "eval", "-d",
                           str(tmp_path / "exp"), "-o", str(tmp_path / "ray")], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert [f"shard {k}/2: exit 0" in done.stdout for k in (1, 2)] == [True, True]
    single = subprocess.run([sys.executable, "-m", "gaia_eval", "eval", "-d", str(tmp_path / "exp"), "-o",
                             str(tmp_path / "single")], capture_output=True, text=True, timeout=300)
    assert single.returncode == 0, single.stderr
    ray, one = (orjson.loads((tmp_path / f / "lead.experiment.eval.json").read_bytes()) for f in ("ray", "single"))
    assert {**ray, "evaluated_at": None} == {**one, "evaluated_at": None}
    names = [sorted(p.name for p in (tmp_path / f).iterdir()) for f in ("ray", "single")]
    assert names[0] == names[1]  # the parts are gone
