"""A workspace on object storage: the pipeline with -o/-i/-d as s3:// URLs against moto's S3 server, run as a real
process on 127.0.0.1 (no in-process fake of the storage API), writes the same artifacts as on disk; create-only
lock objects make two machines (two processes with separate cache folders) given one shard pay once."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

pytest.importorskip("s3fs", reason="the S3 workspace tests need the extra `s3` (fsspec, s3fs)")
pytest.importorskip("moto.server", reason="the S3 workspace tests need moto[server] (the `test` extra)")

BUCKET = "gaia-bucket"
TIMING = {"latency_s", "time_to_success_s"}


@pytest.fixture(scope="module")
def s3_server() -> Iterator[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "moto's server did not start"
                time.sleep(0.05)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture()
def s3(s3_server: str, monkeypatch: pytest.MonkeyPatch):
    import boto3

    monkeypatch.setenv("AWS_ENDPOINT_URL", s3_server)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    client = boto3.client("s3", endpoint_url=s3_server)
    if BUCKET not in [b["Name"] for b in client.list_buckets()["Buckets"]]:
        client.create_bucket(Bucket=BUCKET)
    return client


def _keys(client, prefix: str) -> list[str]:
    found = client.list_objects_v2(Bucket=BUCKET, Prefix=prefix).get("Contents", [])
    return sorted(o["Key"][len(prefix):] for o in found)


def _cli(*args: str, cache: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "GAIA_EVAL_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-m", "gaia_eval", *args], capture_output=True, text=True, env=env,
                          timeout=300)


def _items(data: bytes) -> list[dict]:
    return [{k: v for k, v in i.items() if k not in TIMING} for i in orjson.loads(data)["items"]]


def test_the_pipeline_on_s3_writes_what_it_writes_on_disk(s3, tmp_path: Path):
    from gaia_eval.artifacts.remote import mirror_folder
    from gaia_eval.stages.generate import run_generate

    run_generate("meeting", tmp_path / "docs", types=["standup", "planning"], count_per_type=2, seed=8)
    cache = tmp_path / "cache"
    url = f"s3://{BUCKET}/run1"
    local = tmp_path / "local"
    for where in (url, str(local)):
        for args in (("groundtruth", "-d", str(tmp_path / "docs"), "-u", "qa", "-o", f"{where}/gt"),
                     ("batch-experiment", "-c", "configs/basic_qa.json", "-i", f"{where}/gt", "-o", f"{where}/exp"),
                     ("eval", "-d", f"{where}/exp", "-o", f"{where}/ev"),
                     ("report", "-d", f"{where}/ev", "-o", f"{where}/reports/report.md")):
            done = _cli(*args, cache=cache)
            assert done.returncode == 0, (args, done.stderr)
    keys = _keys(s3, "run1/")
    on_disk = sorted(p.relative_to(local).as_posix() for p in local.rglob("*") if p.is_file()
                     and not p.name.startswith("."))
    assert keys == on_disk  # the same files, no lock left behind, nothing half written
    body = {k: s3.get_object(Bucket=BUCKET, Key=f"run1/{k}")["Body"].read() for k in keys}
    for key in keys:
        if key.endswith(".experiment.json"):
            assert _items(body[key]) == _items((local / key).read_bytes())
        elif key.startswith("gt/"):  # ground truth records no timing: the same bytes, so the same fingerprints
            assert body[key] == (local / key).read_bytes(), key
        elif key.endswith(".eval.json"):
            assert orjson.loads(body[key])["items"] == orjson.loads((local / key).read_bytes())["items"], key
    # The report names the folder it read: the mirror of the URL here, the folder there; the rest is the same.
    os.environ["GAIA_EVAL_CACHE_DIR"], saved = str(cache), os.environ.get("GAIA_EVAL_CACHE_DIR")
    try:
        mirrored = str(mirror_folder(f"{url}/ev")).encode()
    finally:
        os.environ["GAIA_EVAL_CACHE_DIR"] = saved or ""
    assert mirrored in body["reports/report.md"]
    assert _ranking(body["reports/report.md"]) == _ranking((local / "reports/report.md").read_bytes())


def _ranking(report: bytes) -> list[str]:
    """The report's ranking rows (latency, the one timing column, left out) and its best-model line."""
    lines = report.decode().splitlines()
    rows = [line.rsplit("|", 2)[0] for line in lines if line.startswith("| 1 |") or line.startswith("| 2 |")]
    return rows + [line for line in lines if line.startswith("**Best model")]


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
