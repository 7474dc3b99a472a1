"""A workspace on object storage: the pipeline with -o/-i/-d as s3:// URLs against moto's S3 server, run as a real
process on 127.0.0.1 (no in-process fake of the storage API), writes the same artifacts as on disk; create-only
lock objects make two machines (two processes with separate cache folders) given one shard pay once."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

pytest.importorskip("s3fs", reason="the S3 workspace tests need the extra `s3` (fsspec, s3fs)")
pytest.importorskip("moto.server", reason="the S3 workspace tests need moto[server] (the `test` extra)")

from tests.s3server import BUCKET

TIMING = {"latency_s", "time_to_success_s"}


def _keys(client, prefix: str) -> list[str]:
    found = client.list_objects_v2(Bucket=BUCKET, Prefix=prefix).get("Contents", [])
    return sorted(o["Key"][len(prefix):] for o in found)


def _cli(*args: str, cache: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "GAIA_EVAL_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-m", "gaia_eval", *args], capture_output=True, text=True, env=env,
                          timeout=300)


def _items(data: bytes) -> list[dict]:
    return [{k: v for k, v in i.items() if k not in TIMING} for i in orjson.loads(data)["items"]]


# What differs between two runs of the same inputs whatever the storage: the clock. Fingerprints of what holds
# timing (experiments and all after them) differ with it; ground truth holds none and is compared with its own.
_TIMING_KEY = re.compile(r"latency|time_to_success|wall_time|throughput|_at$|^last_modified$|^(min|max|mean|p\d\d)_s$")
_FINGERPRINT = re.compile(r"sha256:[0-9a-f]{12,64}")
_SECONDS = re.compile(r"\b\d+\.\d+(?: / \d+\.\d+)* s\b")


def _mask_json(value):
    if isinstance(value, dict):
        return {k: "<time>" if _TIMING_KEY.search(k) else _mask_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_mask_json(v) for v in value]
    return value


def _masked(rel: str, data: bytes, root: str) -> bytes:
    """A file of either run with its workspace's root named ROOT and its timing (and what follows from it) masked:
    a path that names a machine's mirror of the bucket instead of the URL is left as it is, and differs."""
    text = data.decode().replace(root, "ROOT")
    if rel.startswith("gt/"):
        return text.encode()
    text = _FINGERPRINT.sub("sha256:<timing>", text)
    if rel.endswith(".json"):
        return orjson.dumps(_mask_json(orjson.loads(text)), option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2)
    if rel.endswith(".csv"):
        rows = [line.split(",") for line in text.splitlines()]
        timed = {i for i, name in enumerate(rows[0]) if "latency" in name}
        return "\n".join(",".join("<time>" if i in timed else c for i, c in enumerate(r)) for r in rows).encode()
    if rel.endswith("tradeoff.svg"):  # quality against latency: its geometry is the clock's
        return b"<chart of latency>"
    return _SECONDS.sub("<time> s", text).encode()


def test_the_pipeline_on_s3_writes_what_it_writes_on_disk(s3, tmp_path: Path):
    """Every artifact of the run on S3 equals the run on disk's, timing aside, and the paths they record (an
    experiment's input, an evaluation's experiment, the report's folder and the viewer command) name the URL, not
    this machine's mirror of it. The report runs on another machine (its own cache): it finds the experiments
    through the URLs recorded, as the one on disk finds them through paths."""
    from gaia_eval.stages.generate import run_generate

    run_generate("meeting", tmp_path / "docs", types=["standup", "planning"], count_per_type=2, seed=8)
    url = f"s3://{BUCKET}/run1"
    local = tmp_path / "local"
    viewer = {}
    for where in (url, str(local)):
        for args, machine in (
                (("groundtruth", "-d", str(tmp_path / "docs"), "-u", "qa", "-o", f"{where}/gt"), "a"),
                (("batch-experiment", "-c", "configs/basic_qa.json", "-i", f"{where}/gt", "-o", f"{where}/exp"), "a"),
                (("eval", "-d", f"{where}/exp", "-o", f"{where}/ev"), "a"),
                (("report", "-d", f"{where}/ev", "-o", f"{where}/reports/report.md"), "b")):
            done = _cli(*args, cache=tmp_path / f"machine-{machine}")
            assert done.returncode == 0, (args, done.stderr)
            # every line names the bucket as the user did, never this machine's mirror of it
            assert "workspaces" not in done.stdout + done.stderr, (args, done.stdout, done.stderr)
        viewer[where] = next(line for line in done.stdout.splitlines() if "browse it:" in line)
    assert viewer[url].split("browse it: ")[1] == (
        f"gaia-eval visualize --evaluations-dir {url}/ev --reports-dir {url}/reports --experiments-dir {url}/exp")
    keys = _keys(s3, "run1/")
    on_disk = sorted(p.relative_to(local).as_posix() for p in local.rglob("*") if p.is_file()
                     and not p.name.startswith("."))
    assert keys == on_disk  # the same files, no lock left behind, nothing half written
    assert any(k.endswith(".experiment.json") for k in keys) and "reports/report.md" in keys
    for key in keys:
        remote = s3.get_object(Bucket=BUCKET, Key=f"run1/{key}")["Body"].read()
        assert _masked(key, remote, url) == _masked(key, (local / key).read_bytes(), str(local)), key
    report = orjson.loads(s3.get_object(Bucket=BUCKET, Key="run1/reports/report.json")["Body"].read())
    assert report["evaluation_dir"] == f"{url}/ev"
    assert {m["groundtruth_origin"] for s in report["sections"] for m in s["models"]} == {
        "planted facts (generated documents)"}  # machine B read the experiments' ground truth from the bucket


def test_two_machines_given_one_shard_on_s3_pay_once(s3, tmp_path: Path, fake_llm):
    from tests.test_shards import _config

    gt = tmp_path / "gt"
    from gaia_eval.stages.generate import run_generate
    from gaia_eval.stages.groundtruth.run import run_groundtruth

    run_generate("meeting", tmp_path / "docs", types=["standup"], count_per_type=2, seed=9)
    run_groundtruth(input_dir=tmp_path / "docs", use_case="qa", output_dir=gt)
    config = _config(tmp_path / "c.json", fake_llm.openai_base_url)
    import threading

    release = threading.Event()
    from tests.fakeserver import default_responder

    fake_llm.responder = lambda req: (release.wait(60), default_responder(req))[1]
    url = f"s3://{BUCKET}/shared"
    args = ("batch-experiment", "-c", str(config), "-i", str(gt), "-o", url, "--shard", "1/2", "--quiet",
            "--no-cache")
    env = {**os.environ, "GAIA_EVAL_CACHE_DIR": str(tmp_path / "machine-a")}
    first = subprocess.Popen([sys.executable, "-m", "gaia_eval", *args], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 60
    while fake_llm.request_count == 0:  # machine A holds the shard's lock object and is calling
        assert first.poll() is None and time.monotonic() < deadline, first.stderr.read() if first.stderr else ""
        time.sleep(0.01)
    second = _cli(*args, cache=tmp_path / "machine-b")
    assert second.returncode == 2 and "holds .gaia-eval.shard-1-of-2.lock" in second.stderr, second.stderr
    release.set()
    out, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    paid = fake_llm.request_count
    assert f"{paid} requests sent to models" in out  # every request came from machine A
    again = _cli(*args, cache=tmp_path / "machine-b")  # machine B, later: A's part is on S3, nothing to pay
    assert again.returncode == 0, again.stderr
    assert fake_llm.request_count == paid
    keys = _keys(s3, "shared/")
    assert "local-model.experiment.shard-1-of-2.part.jsonl" in keys and not [k for k in keys if k.endswith(".lock")]


def test_the_readmes_s3_commands_run_as_written(s3, tmp_path: Path, fake_llm):
    """The README's S3 block, with its bucket and config swapped for the test's: shards, consolidation, eval and
    report on S3, the consolidation paying nothing."""
    import re
    import shlex

    from gaia_eval.stages.generate import run_generate
    from tests.test_shards import _config

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    block = next(b for b in re.findall(r"```sh\n(.*?)```", readme, re.S) if "s3://my-bucket" in b)
    commands = [shlex.split(line.split("  #")[0].replace("my-bucket", f"{BUCKET}/readme"))
                for line in block.splitlines() if line.startswith("gaia-eval ")]
    assert len(commands) == 5 and any("--shard" in c for c in commands)
    run_generate("meeting", tmp_path / "docs", types=["standup"], count_per_type=2, seed=10)
    cache = tmp_path / "cache"
    made = _cli("groundtruth", "-d", str(tmp_path / "docs"), "-u", "qa", "-o", f"s3://{BUCKET}/readme/gt",
                cache=cache)
    assert made.returncode == 0, made.stderr
    config = _config(tmp_path / "c.json", fake_llm.openai_base_url)
    counts = []
    for command in commands:
        command = [str(config) if word == "my_config.json" else word for word in command[1:]]
        done = _cli(*command, "--no-cache", cache=cache) if command[0] == "batch-experiment" else _cli(
            *command, cache=cache)
        assert done.returncode == 0, (command, done.stderr)
        counts.append(fake_llm.request_count)
    assert counts[1] > counts[0] > 0 and counts[2] == counts[1]  # two shards paid; the consolidation nothing
    keys = _keys(s3, "readme/")
    assert "exp/local-model.experiment.json" in keys and "reports/report.md" in keys
    assert not [k for k in keys if ".part." in k or k.endswith(".lock")]
