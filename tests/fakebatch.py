"""The fake server with both providers' batch APIs, for tests and the batch benchmark.

OpenAI: POST /v1/files (multipart, purpose=batch), GET /v1/files/{id}/content, POST /v1/batches,
GET /v1/batches/{id}, GET /v1/batches (newest first), POST /v1/batches/{id}/cancel; results in an output file
and an error file of JSONL lines {id, custom_id, response: {status_code, body}, error}.
Anthropic: POST /v1/messages/batches, GET /v1/messages/batches/{id}, GET /v1/messages/batches,
POST /v1/messages/batches/{id}/cancel, GET /v1/messages/batches/{id}/results (JSONL {custom_id, result}).

Each request in a batch is answered by the server's responder, exactly as the synchronous endpoint would
answer it. A batch is processed at the first status check after creation unless `hold_batches` is set (then it
stays in progress until `release()`). Controls:

    server.fail_request = lambda custom_id, body: "reason" | None   # a partial failure inside the batch
    server.expire_after = N          # the batch expires after N requests ran; the rest are "expired"
    server.hold_create = True        # the create call is recorded (the batch exists) but not answered until
                                     # `answer_creates()`: a client killed meanwhile never learns the id
    server.batch_created             # threading.Event set when a batch is created (before the reply)
    server.submissions               # Counter: custom_id -> how often it was submitted in any batch
    server.batch_calls               # (protocol, custom_id) per request the model answered in a batch
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import Counter
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

from tests.fakeserver import FakeLLMServer, _Handler, _render_anthropic, _render_openai

_OPENAI_ENDED = {"completed", "failed", "expired", "cancelled"}


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, tz=timezone.utc).isoformat().replace("+00:00", "Z")


def _multipart(content_type: str, raw: bytes) -> dict[str, tuple[str | None, bytes]]:
    """name -> (filename, bytes) of a multipart/form-data body."""
    boundary = re.search(r"boundary=\"?([^\";]+)", content_type).group(1).encode()
    parts: dict[str, tuple[str | None, bytes]] = {}
    for chunk in raw.split(b"--" + boundary):
        if b"\r\n\r\n" not in chunk:
            continue
        head, _, body = chunk.partition(b"\r\n\r\n")
        name = re.search(rb'name="([^"]*)"', head)
        filename = re.search(rb'filename="([^"]*)"', head)
        if name:
            parts[name.group(1).decode()] = (
                filename.group(1).decode() if filename else None,
                body.removesuffix(b"\r\n"),
            )
    return parts


class _BatchHandler(_Handler):
    server: Any

    def _body(self) -> bytes:
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def do_GET(self) -> None:
        owner = self.server.owner
        path = self.path.split("?", 1)[0]
        if not owner._authorized(self):
            return
        if m := re.fullmatch(r"/v1/files/([^/]+)/content", path):
            data = owner.files.get(m.group(1))
            self._send(200, data) if data is not None else self._send(404, {"error": {"message": "no such file"}})
        elif path == "/v1/batches":
            self._send(200, owner._list("openai"))
        elif m := re.fullmatch(r"/v1/batches/([^/]+)", path):
            self._batch_reply(m.group(1), "openai")
        elif path == "/v1/messages/batches":
            self._send(200, owner._list("anthropic"))
        elif m := re.fullmatch(r"/v1/messages/batches/([^/]+)/results", path):
            self._send(200, owner._anthropic_results(m.group(1)))
        elif m := re.fullmatch(r"/v1/messages/batches/([^/]+)", path):
            self._batch_reply(m.group(1), "anthropic")
        else:
            self._send(404, {"error": {"message": f"no route {path}", "type": "not_found"}})

    def _batch_reply(self, batch_id: str, protocol: str) -> None:
        owner = self.server.owner
        batch = owner.batches.get(batch_id)
        if batch is None or batch["protocol"] != protocol:
            self._send(404, {"error": {"message": f"no batch {batch_id}", "type": "not_found_error"}})
            return
        owner._advance(batch)
        self._send(200, owner._render_batch(batch))

    def do_POST(self) -> None:
        owner = self.server.owner
        path = self.path.split("?", 1)[0]
        if path == "/v1/files":
            raw = self._body()
            if not owner._authorized(self):
                return
            parts = _multipart(self.headers.get("Content-Type", ""), raw)
            self._send(200, owner._store_file(parts["file"][1], parts["file"][0] or "batch.jsonl"))
        elif path in ("/v1/batches", "/v1/messages/batches"):
            body = json.loads(self._body() or b"{}")
            if not owner._authorized(self):
                return
            protocol = "openai" if path == "/v1/batches" else "anthropic"
            batch = owner._create(protocol, body)
            owner.batch_created.set()
            if owner.hold_create:
                owner._creates_answered.wait(30)
                if owner._stopping.is_set():
                    self.close_connection = True
                    return
            self._send(200, owner._render_batch(batch))
        elif m := re.fullmatch(r"/v1/(?:messages/)?batches/([^/]+)/cancel", path):
            self._body()
            batch = owner.batches.get(m.group(1))
            if batch is None:
                self._send(404, {"error": {"message": "no such batch"}})
                return
            owner._cancel(batch)
            self._send(200, owner._render_batch(batch))
        else:
            super().do_POST()


class FakeBatchServer(FakeLLMServer):
    handler_class = _BatchHandler

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.files: dict[str, bytes] = {}
        self.batches: dict[str, dict[str, Any]] = {}
        self.order: list[str] = []
        self.submissions: Counter[str] = Counter()
        self.batch_calls: list[tuple[str, str]] = []
        self.polls = 0
        self.hold_batches = False
        self.hold_create = False
        self.expire_after: int | None = None
        self.fail_request: Callable[[str, dict[str, Any]], str | None] | None = None
        self.batch_created = threading.Event()
        self._creates_answered = threading.Event()
        self._ids = 0

    # -- controls ------------------------------------------------------------------------------------------
    def release(self) -> None:
        self.hold_batches = False

    def answer_creates(self) -> None:
        self.hold_create = False
        self._creates_answered.set()

    def stop(self) -> None:
        self._creates_answered.set()
        super().stop()

    # -- state ---------------------------------------------------------------------------------------------
    def _authorized(self, handler: _Handler) -> bool:
        rejected = self._key_rejection(handler)
        if rejected is None:
            return True
        handler._send(401, {"error": {"message": "Incorrect API key provided", "type": "authentication_error"}})
        return False

    def _next_id(self, prefix: str) -> str:
        with self._lock:
            self._ids += 1
            return f"{prefix}{self._ids:04d}"

    def _store_file(self, data: bytes, filename: str) -> dict[str, Any]:
        file_id = self._next_id("file-")
        self.files[file_id] = data
        return {"id": file_id, "object": "file", "bytes": len(data), "created_at": int(time.time()),
                "filename": filename, "purpose": "batch", "status": "processed"}

    def _create(self, protocol: str, body: dict[str, Any]) -> dict[str, Any]:
        if protocol == "openai":
            lines = [json.loads(line) for line in self.files[body["input_file_id"]].splitlines() if line.strip()]
            requests = [(line["custom_id"], line["body"]) for line in lines]
        else:
            requests = [(r["custom_id"], r["params"]) for r in body["requests"]]
        batch = {
            "protocol": protocol, "id": self._next_id("batch_" if protocol == "openai" else "msgbatch_"),
            "created_at": time.time(), "status": "in_progress", "requests": requests, "results": {},
            "metadata": body.get("metadata"), "input_file_id": body.get("input_file_id"),
            "output_file_id": None, "error_file_id": None,
        }
        with self._lock:
            self.batches[batch["id"]] = batch
            self.order.append(batch["id"])
            self.submissions.update(cid for cid, _ in requests)
        return batch

    def _advance(self, batch: dict[str, Any]) -> None:
        """Process a batch at a status check (unless held): every request answered, failed or expired."""
        self.polls += 1
        if batch["status"] != "in_progress" or self.hold_batches:
            return
        protocol = batch["protocol"]
        for index, (cid, body) in enumerate(batch["requests"]):
            if self.expire_after is not None and index >= self.expire_after:
                batch["results"][cid] = ("expired", None)
                continue
            reason = self.fail_request(cid, body) if self.fail_request else None
            if reason is not None:
                batch["results"][cid] = ("errored", reason)
                continue
            req = {"protocol": protocol, "path": "batch", "body": body, "headers": {}, "arrived_at": time.monotonic()}
            reply = self._next_reply(req)
            render = _render_openai if protocol == "openai" else _render_anthropic
            batch["results"][cid] = ("succeeded", render(body, reply, len(self.batch_calls) + 1))
            self.batch_calls.append((protocol, cid))
        expired = any(kind == "expired" for kind, _ in batch["results"].values())
        batch["status"] = "expired" if expired and protocol == "openai" else "completed"
        if protocol == "openai":
            self._write_openai_files(batch)

    def _cancel(self, batch: dict[str, Any]) -> None:
        if batch["status"] == "in_progress":
            for cid, _ in batch["requests"]:
                batch["results"].setdefault(cid, ("canceled", None))
            batch["status"] = "cancelled"
            if batch["protocol"] == "openai":
                self._write_openai_files(batch)

    def _write_openai_files(self, batch: dict[str, Any]) -> None:
        out, err = [], []
        for n, (cid, _) in enumerate(batch["requests"]):
            kind, value = batch["results"][cid]
            line: dict[str, Any] = {
                "id": f"batch_req_{batch['id']}_{n}",
                "custom_id": cid,
                "response": None,
                "error": None,
            }
            if kind == "succeeded":
                line["response"] = {"status_code": 200, "request_id": f"req_{n}", "body": value}
                out.append(line)
            elif kind == "errored":
                line["response"] = {"status_code": 400, "request_id": f"req_{n}",
                                    "body": {"error": {"message": value, "type": "invalid_request_error"}}}
                err.append(line)
            else:
                code = "batch_expired" if kind == "expired" else "batch_cancelled"
                line["error"] = {"code": code, "message": f"This request was {kind} before it ran."}
                err.append(line)
        for key, lines in (("output_file_id", out), ("error_file_id", err)):
            if lines:
                batch[key] = self._store_file(b"".join(json.dumps(x).encode() + b"\n" for x in lines), key)["id"]

    # -- rendering -----------------------------------------------------------------------------------------
    def _counts(self, batch: dict[str, Any]) -> Counter[str]:
        return Counter(kind for kind, _ in batch["results"].values())

    def _render_batch(self, batch: dict[str, Any]) -> dict[str, Any]:
        counts, total = self._counts(batch), len(batch["requests"])
        if batch["protocol"] == "openai":
            return {
                "id": batch["id"],
                "object": "batch",
                "endpoint": "/v1/chat/completions",
                "errors": None,
                "input_file_id": batch["input_file_id"],
                "completion_window": "24h",
                "status": batch["status"],
                "output_file_id": batch["output_file_id"],
                "error_file_id": batch["error_file_id"],
                "created_at": int(batch["created_at"]),
                "metadata": batch["metadata"],
                "request_counts": {
                    "total": total,
                    "completed": counts["succeeded"],
                    "failed": total - counts["succeeded"] - (total - len(batch["results"])),
                },
            }
        ended = batch["status"] != "in_progress"
        return {
            "id": batch["id"],
            "type": "message_batch",
            "processing_status": "ended" if ended else "in_progress",
            "request_counts": {
                "processing": total - len(batch["results"]),
                "succeeded": counts["succeeded"],
                "errored": counts["errored"],
                "canceled": counts["canceled"],
                "expired": counts["expired"],
            },
            "created_at": _iso(batch["created_at"]),
            "expires_at": _iso(batch["created_at"] + 86400),
            "ended_at": _iso(time.time()) if ended else None,
            "cancel_initiated_at": None,
            "archived_at": None,
            "results_url": f"{self.url}/v1/messages/batches/{batch['id']}/results" if ended else None,
        }

    def _list(self, protocol: str) -> dict[str, Any]:
        data = [
            self._render_batch(self.batches[i]) for i in reversed(self.order) if self.batches[i]["protocol"] == protocol
        ]
        if protocol == "openai":
            return {"object": "list", "data": data, "has_more": False,
                    "first_id": data[0]["id"] if data else None, "last_id": data[-1]["id"] if data else None}
        return {"data": data, "has_more": False, "first_id": data[0]["id"] if data else None,
                "last_id": data[-1]["id"] if data else None}

    def _anthropic_results(self, batch_id: str) -> bytes:
        batch = self.batches[batch_id]
        lines = []
        for cid, _ in batch["requests"]:
            kind, value = batch["results"][cid]
            if kind == "succeeded":
                result = {"type": "succeeded", "message": value}
            elif kind == "errored":
                result = {
                    "type": "errored",
                    "error": {"type": "error", "error": {"type": "invalid_request_error", "message": value}},
                }
            else:
                result = {"type": kind}
            lines.append(json.dumps({"custom_id": cid, "result": result}).encode())
        return b"\n".join(lines) + b"\n"
