"""The benchmarks' "200 ms server": an OpenAI-compatible chat endpoint in a process of its own (asyncio, one
thread), answering every POST .../chat/completions after a fixed latency with the reply tests/fakeserver.py's
FakeLLMServer would send (its default responder and its OpenAI rendering: the same bytes but for id and
`created`).

Why not FakeLLMServer in the benchmark's own process: that one runs a thread per connection under the
benchmark's GIL, and at 64 connections its CPU and thread switching are counted as ours and slow the
replies. Here a request costs a parse and a reply (about 0.1 ms of CPU), in a process of its own, so what is
measured is the pipeline, not the server.

    python tests/perf/latency_server.py --latency 0.2     # prints the port on its first line of stdout

Commands on stdin, one per line, answered by one JSON line on stdout:
    stats   {"requests": n, "arrived": [...], "replied": [...], "cpu_s": ...} since the last `stats`
            (time.monotonic() values: CLOCK_MONOTONIC, the same clock in every process of the machine)
Closing stdin stops it.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import sys
import threading
import time
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.fakeserver import _render_openai, default_responder


class Recorder:
    """Arrival and reply times of the requests since the last `stats`, and the CPU this process used."""

    def __init__(self) -> None:
        self.arrived: list[float] = []
        self.replied: list[float] = []
        self.number = 0
        self.cpu_mark = self.cpu()

    @staticmethod
    def cpu() -> float:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime

    def take(self) -> dict[str, Any]:
        arrived, replied = self.arrived, self.replied
        self.arrived, self.replied = [], []
        cpu, self.cpu_mark = self.cpu() - self.cpu_mark, self.cpu()
        return {"requests": len(arrived), "arrived": arrived, "replied": replied, "cpu_s": cpu}


class ChatProtocol(asyncio.Protocol):
    """HTTP/1.1 with keep-alive; requests on one connection are answered in order (the SDKs send one at a time)."""

    def __init__(self, latency: float, recorder: Recorder) -> None:
        self.latency = latency
        self.recorder = recorder
        self.buffer = b""
        self.transport: asyncio.Transport | None = None
        self.pending: asyncio.Future[None] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while True:
            head_end = self.buffer.find(b"\r\n\r\n")
            if head_end < 0:
                return
            head = self.buffer[:head_end].decode("latin-1")
            length = 0
            for line in head.split("\r\n")[1:]:
                name, _, value = line.partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            if len(self.buffer) < head_end + 4 + length:
                return
            body = self.buffer[head_end + 4:head_end + 4 + length]
            self.buffer = self.buffer[head_end + 4 + length:]
            self.recorder.arrived.append(time.monotonic())
            self.recorder.number += 1
            path = head.split(" ", 2)[1]
            asyncio.get_running_loop().create_task(self.answer(path, body, self.recorder.number))

    async def answer(self, path: str, raw: bytes, number: int) -> None:
        await asyncio.sleep(self.latency)
        if path.endswith("/chat/completions"):
            body = orjson.loads(raw or b"{}")
            status, payload = 200, _render_openai(body, default_responder({"protocol": "openai", "body": body}), number)
        else:
            status, payload = 404, {"error": {"message": f"no route {path}", "type": "not_found"}}
        data = orjson.dumps(payload)
        head = (f"HTTP/1.1 {status} {'OK' if status == 200 else 'Not Found'}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(data)}\r\n\r\n").encode()
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(head + data)
        self.recorder.replied.append(time.monotonic())


def serve_commands(loop: asyncio.AbstractEventLoop, recorder: Recorder, stop: asyncio.Event) -> None:
    """Read commands from stdin (a thread: the loop stays free); end of stdin stops the server."""
    for line in sys.stdin:
        if line.strip() == "stats":
            stats = asyncio.run_coroutine_threadsafe(_take(recorder), loop).result()
            sys.stdout.write(orjson.dumps(stats).decode() + "\n")
            sys.stdout.flush()
    loop.call_soon_threadsafe(stop.set)


async def _take(recorder: Recorder) -> dict[str, Any]:
    return recorder.take()


async def main(latency: float) -> None:
    recorder = Recorder()
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: ChatProtocol(latency, recorder), "127.0.0.1", 0, backlog=1024)
    port = server.sockets[0].getsockname()[1]
    sys.stdout.write(f"{port}\n")
    sys.stdout.flush()
    stop = asyncio.Event()
    threading.Thread(target=serve_commands, args=(loop, recorder, stop), daemon=True).start()
    async with server:
        await stop.wait()


class LatencyServer:
    """This server as a child process, for a benchmark: `base_url`, `stats()`, `stop()`."""

    def __init__(self, latency: float) -> None:
        import subprocess

        self.proc = subprocess.Popen([sys.executable, __file__, "--latency", str(latency)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        self.base_url = f"http://127.0.0.1:{int(self.proc.stdout.readline())}/v1"

    def stats(self) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("stats\n")
        self.proc.stdin.flush()
        return orjson.loads(self.proc.stdout.readline())

    def stop(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.2)
    asyncio.run(main(parser.parse_args().latency))
