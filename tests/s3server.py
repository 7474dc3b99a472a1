"""moto's S3 server run as a real process on 127.0.0.1 (no in-process fake of the storage API) for the tests of a
workspace on object storage; keys and endpoint reach gaia-eval through the variables the AWS tools read."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

BUCKET = "gaia-bucket"


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
