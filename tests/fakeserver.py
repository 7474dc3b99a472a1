"""A real local HTTP server speaking OpenAI Chat Completions and Anthropic Messages, for tests and benchmarks.

Replies are deterministic: a script (consumed in order), then optional seeded fault injection, then a
responder (by default an echo of the last user message, or a minimal valid object when JSON is asked for).

    server = FakeLLMServer(); server.start()
    server.openai_base_url / server.anthropic_base_url   # point the SDKs here
    server.latency_s = 0.2                                # added to every reply
    server.script([{"text": "hi"}, {"fault": "429", "retry_after": 2}, {"json": {...}},
                   {"tool_calls": [{"name": "calculator", "arguments": {"expression": "1+1"}}]}])
    server.inject(rate_500=0.1, rate_429=0.05, rate_hang=0.02, rate_malformed=0.02, retry_after=0.1, seed=1)
    server.requests          # each: protocol, path, body, headers (auth headers removed), arrived_at, fault
    server.request_count, server.max_in_flight, server.faults_served, server.reset()
    server.expected_key = "k" # other keys get a 401 whose body quotes the presented key (a leak test)
    server.stop()

A reply is a dict: {"text"} | {"json"} | {"tool_calls": [{"name", "arguments", "id"?}], "text"?} (OpenAI
arguments given as a str are sent verbatim) |
{"fault": "<HTTP status>" | "hang" | "malformed" | "no_choices" | "truncated" | "refusal",
"retry_after"?: seconds, "retry_after_ms"?: ms}; any reply may carry "usage": {"input_tokens", "output_tokens"}
and "finish_reason" (OpenAI protocol: replayed as is, e.g. a real model's "length"); an HTTP fault may carry
"error_body", sent verbatim (e.g. llama.cpp's exceed_context_size_error).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import socket
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = dict[str, Any]
Responder = Callable[[dict[str, Any]], Reply]

SECRET_HEADERS = {"authorization", "x-api-key", "proxy-authorization"}
REFUSAL_TEXT = "I can't help with that."
MALFORMED_BODY = b'{"id": "broken", "choices": [{"message": '


def _words(text: str) -> int:
    return len(text.split())


def _content_text(content: Any) -> str:
    """Text of an OpenAI or Anthropic message content (a string or a list of blocks)."""
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for block in content or []:
        if isinstance(block, dict):
            for key in ("text", "content"):
                value = block.get(key)
                if isinstance(value, str):
                    parts.append(value)
            if isinstance(block.get("input"), dict):
                parts.append(json.dumps(block["input"]))
    return " ".join(parts)


def last_user_text(body: dict[str, Any]) -> str:
    for message in reversed(body.get("messages") or []):
        if message.get("role") == "user":
            return _content_text(message.get("content"))
    return ""


def prompt_words(body: dict[str, Any]) -> int:
    system = body.get("system")
    total = _words(system if isinstance(system, str) else _content_text(system))
    for message in body.get("messages") or []:
        total += _words(_content_text(message.get("content")))
    return max(1, total)


def object_for_schema(schema: dict[str, Any], text: str, defs: dict[str, Any] | None = None) -> Any:
    """A minimal value valid for simple JSON schemas (objects, arrays, scalars, enums, $ref to $defs)."""
    defs = defs if defs is not None else schema.get("$defs", {})
    if "$ref" in schema:
        return object_for_schema(defs[schema["$ref"].rsplit("/", 1)[-1]], text, defs)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            options = [s for s in schema[key] if s.get("type") != "null"] or schema[key]
            return object_for_schema(options[0], text, defs)
    kind = schema.get("type", "object")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object":
        props = schema.get("properties", {})
        return {name: object_for_schema(sub, text, defs) for name, sub in props.items()}
    if kind == "array":
        count = schema.get("minItems", 0)
        return [object_for_schema(schema.get("items", {}), text, defs) for _ in range(count)]
    return {"string": text, "integer": 0, "number": 0.0, "boolean": False, "null": None}[kind]


def requested_schema(req: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """(name, schema) when the request asks for JSON: OpenAI response_format or an Anthropic forced tool."""
    body = req["body"]
    if req["protocol"] == "openai":
        fmt = body.get("response_format") or {}
        if fmt.get("type") == "json_schema":
            spec = fmt.get("json_schema") or {}
            return spec.get("name", "result"), spec.get("schema") or {}
        if fmt.get("type") == "json_object":
            return "result", {"type": "object", "properties": {"text": {"type": "string"}}}
        return None
    choice = body.get("tool_choice") or {}
    if choice.get("type") == "tool":
        for tool in body.get("tools") or []:
            if tool.get("name") == choice.get("name"):
                return tool["name"], tool.get("input_schema") or {}
    return None


def default_responder(req: dict[str, Any]) -> Reply:
    """Echo the first 40 characters of the last user message; for JSON requests, a minimal valid object."""
    echo = "echo: " + last_user_text(req["body"])[:40]
    wanted = requested_schema(req)
    if wanted is not None:
        return {"json": object_for_schema(wanted[1], echo)}
    return {"text": echo}


@dataclass
class FaultPlan:
    """Seeded random faults, drawn per request from a hash of (seed, body, how often that body was seen) so
    a run is reproducible whatever the arrival order, and a retried request gets a fresh draw."""

    rate_500: float = 0.0
    rate_429: float = 0.0
    rate_503: float = 0.0
    rate_hang: float = 0.0
    rate_malformed: float = 0.0
    retry_after: float | None = None
    seed: int = 0

    def draw(self, body: dict[str, Any], occurrence: int) -> Reply | None:
        key = f"{self.seed}:{occurrence}:{json.dumps(body, sort_keys=True)}".encode()
        roll = int.from_bytes(hashlib.sha256(key).digest()[:8], "big") / 2**64
        for fault, rate in (
            ("500", self.rate_500),
            ("429", self.rate_429),
            ("503", self.rate_503),
            ("hang", self.rate_hang),
            ("malformed", self.rate_malformed),
        ):
            if roll < rate:
                reply: Reply = {"fault": fault}
                if self.retry_after is not None and fault in ("429", "503"):
                    reply["retry_after"] = self.retry_after
                return reply
            roll -= rate
        return None


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, so a benchmark measures the client, not TCP handshakes
    disable_nagle_algorithm = True
    server: _HTTPServer

    def setup(self) -> None:
        super().setup()
        self.server.owner._track(self.connection, add=True)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.owner._track(self.connection, add=False)

    def log_message(self, format: str, *args: Any) -> None:
        """Silence per-request logging (it would flood test output)."""

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        if self.path.endswith("/chat/completions"):
            protocol = "openai"
        elif self.path.endswith("/messages"):
            protocol = "anthropic"
        else:
            self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
            return
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            self._send(400, {"error": {"message": "request body is not JSON", "type": "invalid_request_error"}})
            return
        self.server.owner._serve(self, protocol, body)

    def _send(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        head = [f"HTTP/1.1 {status} {self.responses.get(status, ('Error',))[0]}"]
        head += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
        head += [f"{k}: {v}" for k, v in (headers or {}).items()]
        # One write for head and body: split writes meet Nagle + delayed ACK and add ~40 ms per reply.
        self.wfile.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + data)
        self.wfile.flush()


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True  # a hanging handler must never keep the test process (or stop()) waiting
    request_queue_size = 256  # the default backlog of 5 drops connections when 64 clients connect at once
    owner: FakeLLMServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hung up (timeout, cancelled call, stop()) is normal here; anything else is a bug."""
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)


class FakeLLMServer:
    """See the module docstring. Thread-safe; start() binds 127.0.0.1 on a free port."""

    handler_class: type[BaseHTTPRequestHandler] = _Handler  # a subclass may add routes (tests/fakebatch.py)

    def __init__(self, *, latency_s: float = 0.0, hang_s: float = 30.0) -> None:
        self.latency_s = latency_s
        self.hang_s = hang_s  # how long a "hang" fault holds the connection (cut short by stop())
        self.responder: Responder = default_responder
        self.expected_key: str | None = None  # when set, other keys get a 401 that echoes them back
        self.requests: list[dict[str, Any]] = []
        self.max_in_flight = 0
        self._in_flight = 0
        self._script: list[Reply] = []
        self._fault_plan: FaultPlan | None = None
        self._seen_bodies: dict[str, int] = {}
        self._counter = 0
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._connections: set[socket.socket] = set()
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------------------
    def start(self) -> FakeLLMServer:
        self._stopping.clear()
        self._httpd = _HTTPServer(("127.0.0.1", 0), self.handler_class)
        self._httpd.owner = self
        self._thread = threading.Thread(
            # A short poll keeps stop() (which waits for the serve loop to notice) at ~10 ms per test.
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.01}, name="fake-llm", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and drop open connections; hanging handlers wake up and exit."""
        self._stopping.set()
        if self._httpd is None:
            return
        self._httpd.shutdown()
        self._httpd.server_close()
        with self._lock:
            open_connections = list(self._connections)
        for conn in open_connections:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        self._httpd = None

    @property
    def url(self) -> str:
        assert self._httpd is not None, "server not started"
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def openai_base_url(self) -> str:
        return self.url + "/v1"

    @property
    def anthropic_base_url(self) -> str:
        return self.url

    # -- configuration -----------------------------------------------------------------------------------
    def script(self, replies: list[Reply]) -> None:
        with self._lock:
            self._script.extend(replies)

    def inject(
        self,
        *,
        rate_500: float = 0.0,
        rate_429: float = 0.0,
        rate_503: float = 0.0,
        rate_hang: float = 0.0,
        rate_malformed: float = 0.0,
        retry_after: float | None = None,
        seed: int = 0,
    ) -> None:
        self._fault_plan = FaultPlan(rate_500, rate_429, rate_503, rate_hang, rate_malformed, retry_after, seed)

    def reset(self) -> None:
        """Back to a fresh state (no script, faults, key check or latency; counters cleared)."""
        with self._lock:
            self._script.clear()
            self.requests.clear()
            self._seen_bodies.clear()
            self.max_in_flight = 0
        self._fault_plan = None
        self.responder = default_responder
        self.expected_key = None
        self.latency_s = 0.0

    @property
    def request_count(self) -> int:
        return len(self.requests)

    @property
    def faults_served(self) -> list[str]:
        return [r["fault"] for r in self.requests if r.get("fault")]

    # -- serving -----------------------------------------------------------------------------------------
    def _track(self, conn: socket.socket, *, add: bool) -> None:
        with self._lock:
            (self._connections.add if add else self._connections.discard)(conn)

    def _next_reply(self, req: dict[str, Any]) -> Reply:
        with self._lock:
            if self._script:
                return self._script.pop(0)
            plan = self._fault_plan
            if plan is not None:
                canonical = json.dumps(req["body"], sort_keys=True)
                occurrence = self._seen_bodies.get(canonical, 0)
                self._seen_bodies[canonical] = occurrence + 1
                fault = plan.draw(req["body"], occurrence)
                if fault is not None:
                    return fault
        return self.responder(req)

    def _key_rejection(self, handler: _Handler) -> str | None:
        """The presented key when `expected_key` is set and the request does not carry it."""
        if self.expected_key is None:
            return None
        presented = handler.headers.get("x-api-key") or (handler.headers.get("authorization") or "")
        presented = presented.removeprefix("Bearer ").strip()
        return None if presented == self.expected_key else presented

    def _serve(self, handler: _Handler, protocol: str, body: dict[str, Any]) -> None:
        headers = {k.lower(): v for k, v in handler.headers.items() if k.lower() not in SECRET_HEADERS}
        req: dict[str, Any] = {
            "protocol": protocol,
            "path": handler.path,
            "body": body,
            "headers": headers,
            "arrived_at": time.monotonic(),
        }
        with self._lock:
            self.requests.append(req)
            self._counter += 1
            number = self._counter
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)
        try:
            rejected = self._key_rejection(handler)
            if rejected is not None:
                reply: Reply = {"fault": "401", "message": f"Incorrect API key provided: {rejected}"}
            else:
                reply = self._next_reply(req)
            if reply.get("fault") in ("truncated", "refusal") and not {"text", "json", "tool_calls"} & reply.keys():
                reply = {**self.responder(req), **reply}  # truncate (or refuse) what would have been said
            req["fault"] = reply.get("fault")
            if self.latency_s > 0:
                self._stopping.wait(self.latency_s)
            self._respond(handler, protocol, body, reply, number)
        finally:
            with self._lock:
                self._in_flight -= 1

    def _respond(self, handler: _Handler, protocol: str, body: dict[str, Any], reply: Reply, number: int) -> None:
        fault = reply.get("fault")
        if fault == "hang":
            self._stopping.wait(self.hang_s)
            handler.close_connection = True  # the client gave up long ago; just drop the connection
            return
        if fault == "malformed":
            handler._send(200, MALFORMED_BODY)
            return
        if fault == "no_choices":
            empty = {"id": f"fake-{number}", "object": "chat.completion"}
            handler._send(200, empty if protocol == "openai" else {"id": f"msg_{number}", "type": "message"})
            return
        if fault is not None and fault.isdigit():
            error = reply.get("error_body") or _error_body(protocol, int(fault), reply.get("message"))
            handler._send(int(fault), error, _retry_headers(reply))
            return
        render = _render_openai if protocol == "openai" else _render_anthropic
        handler._send(200, render(body, reply, number))


def _retry_headers(reply: Reply) -> dict[str, str]:
    headers: dict[str, str] = {}
    if reply.get("retry_after") is not None:
        value = reply["retry_after"]
        headers["Retry-After"] = str(int(value)) if float(value).is_integer() else str(value)
    if reply.get("retry_after_ms") is not None:
        headers["retry-after-ms"] = str(reply["retry_after_ms"])
    return headers


_ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
                404: "not_found_error", 429: "rate_limit_error", 529: "overloaded_error"}


def _error_body(protocol: str, status: int, message: str | None) -> dict[str, Any]:
    kind = _ERROR_TYPES.get(status, "api_error")
    text = message or f"fake server fault {status}"
    if protocol == "openai":
        return {"error": {"message": text, "type": kind, "param": None, "code": None}}
    return {"type": "error", "error": {"type": kind, "message": text}}


def _usage(body: dict[str, Any], reply: Reply, output_text: str) -> tuple[int, int]:
    if "usage" in reply:
        return reply["usage"]["input_tokens"], reply["usage"]["output_tokens"]
    if reply.get("fault") == "truncated":  # a real server stops exactly at the reply budget
        budget = body.get("max_tokens") or body.get("max_completion_tokens")
        if isinstance(budget, int):
            return prompt_words(body), budget
    return prompt_words(body), max(1, _words(output_text))


def _arguments_text(arguments: Any) -> str:
    """OpenAI sends tool arguments as a JSON string; a str in the script is sent verbatim (e.g. broken JSON)."""
    return arguments if isinstance(arguments, str) else json.dumps(arguments)


def _render_openai(body: dict[str, Any], reply: Reply, number: int) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": None, "refusal": None}
    finish = "stop"
    fault = reply.get("fault")
    if fault == "refusal":
        message["refusal"] = REFUSAL_TEXT
        output = REFUSAL_TEXT
    elif "tool_calls" in reply:
        message["content"] = reply.get("text")
        message["tool_calls"] = [
            {
                "id": call.get("id") or f"call_{number}_{i}",
                "type": "function",
                "function": {"name": call["name"], "arguments": _arguments_text(call.get("arguments", {}))},
            }
            for i, call in enumerate(reply["tool_calls"])
        ]
        output = json.dumps(reply["tool_calls"])
        finish = "tool_calls"
    else:
        output = json.dumps(reply["json"]) if "json" in reply else reply.get("text", "")
        if fault == "truncated":
            output, finish = output[: max(1, len(output) // 2)], "length"
        finish = reply.get("finish_reason", finish)
        message["content"] = output
    prompt, completion = _usage(body, reply, output)
    return {
        "id": f"chatcmpl-fake-{number}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "fake-model"),
        "choices": [
            {"index": 0, "message": message, "finish_reason": finish, "logprobs": _logprobs(body, reply, message)}
        ],
        "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
    }


def _logprobs(body: dict[str, Any], reply: Reply, message: dict[str, Any]) -> dict[str, Any] | None:
    """With `logprobs` asked for, the reply's text as tokens (words, spaces, punctuation), each certain unless the
    script's `top_logprobs` ({token: [[alternative, logprob], ...]}) gives its alternatives; `"logprobs": False`
    in the script sends none (a server that does not support them)."""
    if not body.get("logprobs") or reply.get("logprobs") is False or not message.get("content"):
        return None
    alternatives = reply.get("top_logprobs", {})
    content = []
    for token in re.findall(r"\w+|\s+|[^\w\s]", message["content"]):
        top = alternatives.get(token) or [[token, 0.0]]
        own = next((lp for alt, lp in top if alt == token), 0.0)
        content.append(
            {
                "token": token,
                "logprob": own,
                "bytes": list(token.encode()),
                "top_logprobs": [{"token": alt, "logprob": lp, "bytes": list(alt.encode())} for alt, lp in top],
            }
        )
    return {"content": content}


def _render_anthropic(body: dict[str, Any], reply: Reply, number: int) -> dict[str, Any]:
    choice = body.get("tool_choice") or {}
    forced = choice.get("name") if choice.get("type") == "tool" else None
    fault = reply.get("fault")
    stop = "end_turn"
    content: list[dict[str, Any]]
    if fault == "refusal":
        content, stop, output = [{"type": "text", "text": REFUSAL_TEXT}], "refusal", REFUSAL_TEXT
    elif "tool_calls" in reply:
        content = [{"type": "text", "text": reply["text"]}] if reply.get("text") else []
        content += [
            {
                "type": "tool_use",
                "id": call.get("id") or f"toolu_{number}_{i}",
                "name": call["name"],
                "input": call.get("arguments", {}),
            }
            for i, call in enumerate(reply["tool_calls"])
        ]
        output, stop = json.dumps(reply["tool_calls"]), "tool_use"
    elif "json" in reply and forced:
        output, cut = json.dumps(reply["json"]), fault == "truncated"  # a cut-off tool call has empty input
        content = [{"type": "tool_use", "id": f"toolu_{number}", "name": forced, "input": {} if cut else reply["json"]}]
        stop = "max_tokens" if cut else "tool_use"
    else:
        output = json.dumps(reply["json"]) if "json" in reply else reply.get("text", "")
        if fault == "truncated":
            output, stop = output[: max(1, len(output) // 2)], "max_tokens"
        content = [{"type": "text", "text": output}]
    prompt, completion = _usage(body, reply, output)
    return {
        "id": f"msg_fake_{number}",
        "type": "message",
        "role": "assistant",
        "model": body.get("model", "fake-model"),
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": prompt, "output_tokens": completion},
    }
