"""The viewer and meta-eval read a workspace on object storage, against moto's S3 server (a real process on
127.0.0.1): `visualize --workspace s3://...` serves the bucket's evaluations, experiments and report (fetched here
from its JSON API over HTTP), and `meta-eval -e s3://...` measures an evaluation in the bucket against ratings and
writes its result there. Each command runs as its own process with its own cache (another machine)."""

from __future__ import annotations

import csv
import os
import re
import shlex
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

pytest.importorskip("s3fs", reason="the S3 workspace tests need the extra `s3` (fsspec, s3fs)")
pytest.importorskip("moto.server", reason="the S3 workspace tests need moto[server] (the `test` extra)")

from tests.s3server import BUCKET

WS = f"s3://{BUCKET}/team"


def _env(s3_server: str, cache: Path) -> dict[str, str]:
    return {**os.environ, "AWS_ENDPOINT_URL": s3_server, "AWS_ACCESS_KEY_ID": "testing",
            "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": "us-east-1", "GAIA_EVAL_CACHE_DIR": str(cache)}


@pytest.fixture(scope="module")
def s3_workspace(s3_server: str, tmp_path_factory) -> Iterator[tuple[str, Path]]:
    """A summarization workspace made on S3 by machine A: ground truth, two baselines, their evaluation, a report."""
    import boto3

    from gaia_eval.stages.generate import run_generate

    client = boto3.client("s3", endpoint_url=s3_server, aws_access_key_id="testing",
                          aws_secret_access_key="testing", region_name="us-east-1")
    if BUCKET not in [b["Name"] for b in client.list_buckets()["Buckets"]]:
        client.create_bucket(Bucket=BUCKET)
    root = tmp_path_factory.mktemp("s3ws")
    run_generate("meeting", root / "docs", types=["standup", "planning"], count_per_type=2, seed=12)
    for args in (("groundtruth", "-d", str(root / "docs"), "-u", "summarization", "-o", f"{WS}/groundtruth"),
                 ("batch-experiment", "-c", "configs/basic_summarization.json", "-i", f"{WS}/groundtruth",
                  "-o", f"{WS}/experiments"),
                 ("eval", "-d", f"{WS}/experiments", "-o", f"{WS}/evaluation"),
                 ("report", "-d", f"{WS}/evaluation", "-o", f"{WS}/reports/report.md")):
        done = subprocess.run([sys.executable, "-m", "gaia_eval", *args], capture_output=True, text=True,
                              env=_env(s3_server, root / "machine-a"), timeout=300)
        assert done.returncode == 0, (args, done.stderr)
    yield s3_server, root


def _readme_commands() -> dict[str, list[str]]:
    """The README's commands on an S3 workspace's viewer and ratings, by command, with the test's bucket."""
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    block = next(b for b in re.findall(r"```sh\n(.*?)```", readme, re.S) if "visualize --workspace s3://" in b)
    commands = [shlex.split(line.split("  #")[0].replace("my-bucket", BUCKET)) for line in block.splitlines()]
    return {c[1]: c[1:] for c in commands if c and c[0] == "gaia-eval"}


def _get(base: str, path: str) -> dict:
    with urllib.request.urlopen(base + path, timeout=120) as response:
        return orjson.loads(response.read())


def test_the_viewer_serves_a_workspace_in_a_bucket(s3_workspace):
    s3_server, root = s3_workspace
    command = _readme_commands()["visualize"]
    assert f"s3://{BUCKET}/team" in command
    viewer = subprocess.Popen(
        [sys.executable, "-m", "gaia_eval", *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**_env(s3_server, root / "machine-c"), "PYTHONUNBUFFERED": "1"})
    watchdog = threading.Timer(240, viewer.kill)  # a viewer that never answers fails the test, never hangs it
    watchdog.start()
    try:
        assert viewer.stdout is not None
        line = viewer.stdout.readline()
        assert line.startswith("gaia-eval viewer on http://127.0.0.1:"), (line, viewer.stderr.read())
        base = line.split(" on ", 1)[1].split()[0].rstrip("/")
        dashboard = _get(base, "/api/dashboard")
        assert [uc["use_case"] for uc in dashboard["use_cases"]] == ["summarization"]
        assert sorted(m["experiment_name"] for m in dashboard["use_cases"][0]["models"]) == [
            "baseline-lead", "baseline-textrank"]
        item = _get(base, "/api/item?use_case=summarization")
        assert len(item["models"]) == 2 and item["groundtruth"]  # the experiments' outputs, the ground truth
        assert "<table>" in _get(base, "/api/report?path=report.md")["html"]
    finally:
        watchdog.cancel()
        viewer.terminate()
        viewer.wait(30)


def test_a_ratings_sheet_and_meta_eval_on_an_evaluation_in_a_bucket(s3_workspace, s3, tmp_path):
    """create-template --ratings -e draws the annotation sample from the bucket's evaluation (its experiments found
    through the URLs the evaluation records) and saves it there; the sheet is rated; meta-eval -e, on another
    machine, measures the evaluation against it and writes its result beside the evaluation, in the bucket."""
    s3_server, _ = s3_workspace
    commands = _readme_commands()
    sheet_command = [str(tmp_path / "sheets") if word == "sheets" else word for word in commands["create-template"]]
    drawn = subprocess.run([sys.executable, "-m", "gaia_eval", *sheet_command], capture_output=True, text=True,
                           env=_env(s3_server, tmp_path / "rater"), timeout=300)
    assert drawn.returncode == 0, drawn.stderr
    assert f"sample s3://{BUCKET}/team/evaluation/annotation/summarization/sample.json" in drawn.stdout
    assert "team/evaluation/annotation/summarization/sample.json" in [
        o["Key"] for o in s3.list_objects_v2(Bucket=BUCKET, Prefix="team/evaluation/")["Contents"]]
    sheet = tmp_path / "sheets" / "summarization.ratings.csv"
    with open(sheet, newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 6
    for i, row in enumerate(rows):
        row.update(rater="carol", relevance=str(1 + i % 5), consistency=str(1 + (i + 1) % 5),
                   fluency=str(1 + i % 3), coherence=str(1 + (i + 2) % 5))
    with open(sheet, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    measure = [str(sheet) if word.endswith(".ratings.csv") else word for word in commands["meta-eval"]]
    done = subprocess.run([sys.executable, "-m", "gaia_eval", *measure], capture_output=True, text=True,
                          env=_env(s3_server, tmp_path / "machine-b"), timeout=300)
    assert done.returncode == 0, done.stderr
    result = orjson.loads(s3.get_object(Bucket=BUCKET, Key="team/evaluation/meta_eval.summarization.json")["Body"]
                          .read())
    assert result["raters"] == ["carol"] and result["n_summaries"] == 6
    assert f"wrote s3://{BUCKET}/team/evaluation/meta_eval.summarization.json" in done.stdout
