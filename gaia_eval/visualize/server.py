"""`visualize`: a local web viewer over the pipeline's folders, served by the standard library (no Node, no CDN).

The page (static/index.html) calls a small read-only JSON API:
  GET /api/files                 every artifact under the configured folders, grouped by kind
  GET /api/file?root=R&path=P    one file: JSON artifacts parsed, text documents as text
  GET /api/compare?a=...&b=...   two experiment files side by side, item by item
Paths are resolved inside their root folder only; anything else is a 404. The server binds to --host
(127.0.0.1 by default), never to all interfaces unless asked.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import orjson

STATIC_DIR = Path(__file__).parent / "static"
ROOT_NAMES = ("test_data", "groundtruth", "experiments", "evaluation", "reports")
MAX_FILE_BYTES = 20 * 1024 * 1024


@dataclass(frozen=True)
class Roots:
    folders: dict[str, Path]

    def resolve(self, root: str, rel: str) -> Path | None:
        """The file `rel` inside root `root`, or None if it is outside it, missing, or not a file."""
        base = self.folders.get(root)
        if base is None:
            return None
        if "\x00" in rel:
            raise ValueError("NUL in a path")
        base = base.resolve()
        target = (base / rel).resolve()
        if base != target and base not in target.parents:
            return None
        return target if target.is_file() else None


def _kind(path: Path) -> str:
    name = path.name
    for suffix, kind in (
        (".experiment.eval.json", "evaluation"),
        (".experiment.json", "experiment"),
        (".groundtruth.json", "groundtruth"),
        (".template.json", "template"),
        (".meta.json", "document_meta"),
    ):
        if name.endswith(suffix):
            return kind
    if name.startswith("consolidated_"):
        return "consolidated"
    return {".txt": "document", ".md": "markdown", ".csv": "csv", ".json": "json", ".pdf": "pdf"}.get(path.suffix, "other")


def list_files(roots: Roots) -> dict[str, list[dict[str, Any]]]:
    listing: dict[str, list[dict[str, Any]]] = {}
    for root, base in roots.folders.items():
        entries = []
        if base.is_dir():
            for path in sorted(base.rglob("*")):
                if path.is_file() and not path.name.startswith(".") and not path.name.endswith(".jsonl"):
                    entries.append(
                        {"path": path.relative_to(base).as_posix(), "kind": _kind(path), "bytes": path.stat().st_size}
                    )
        listing[root] = entries
    return listing


def read_file(roots: Roots, root: str, rel: str) -> dict[str, Any] | None:
    path = roots.resolve(root, rel)
    if path is None:
        return None
    if path.stat().st_size > MAX_FILE_BYTES:
        return {"path": rel, "kind": _kind(path), "error": "file too large to show"}
    data = path.read_bytes()
    if path.suffix == ".json":
        try:
            return {"path": rel, "kind": _kind(path), "json": orjson.loads(data)}
        except orjson.JSONDecodeError as exc:
            return {"path": rel, "kind": _kind(path), "error": f"not valid JSON: {exc}"}
    if path.suffix == ".pdf":
        return {"path": rel, "kind": "pdf", "error": "PDF preview is not supported; open its .txt twin"}
    return {"path": rel, "kind": _kind(path), "text": data.decode("utf-8", "replace")}


def compare(roots: Roots, root: str, a: str, b: str) -> dict[str, Any] | None:
    """Two experiments item by item: answers side by side with the ground truth."""
    files = [read_file(roots, root, rel) for rel in (a, b)]
    if any(f is None or "json" not in f or f["json"].get("kind") != "experiment" for f in files):
        return None
    left, right = (f["json"] for f in files)  # type: ignore[index]
    if not isinstance(left.get("items"), list) or not isinstance(right.get("items"), list):
        raise ValueError("an experiment without items")
    right_items = {i["item_id"]: i for i in right["items"]}
    rows = []
    for item in left["items"]:
        other = right_items.get(item["item_id"], {})
        rows.append(
            {
                "item_id": item["item_id"],
                "query": item.get("query"),
                "expected": item.get("groundtruth_answer") or item.get("groundtruth_summaries"),
                "a": {"status": item["status"], "answer": item.get("answer") or item.get("summaries"), "error": item.get("error")},
                "b": {"status": other.get("status"), "answer": other.get("answer") or other.get("summaries"), "error": other.get("error")},
            }
        )
    return {"a": left["experiment_name"], "b": right["experiment_name"], "use_case": left["use_case"], "rows": rows}


class _Handler(BaseHTTPRequestHandler):
    server: "ViewerServer"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        pass  # quiet: the terminal shows the URL, not every request

    def do_GET(self) -> None:  # noqa: N802 - stdlib naming
        if not self.server.host_allowed(self.headers.get("Host", "")):
            # DNS rebinding: a web page on another name that resolves here must not read local results.
            self._send(HTTPStatus.MISDIRECTED_REQUEST, b"unknown host name", "text/plain")
            return
        try:
            self._route()
        except (ValueError, KeyError, TypeError, OSError) as exc:  # a bad path or a file of an unexpected shape
            self._send(HTTPStatus.BAD_REQUEST, orjson.dumps({"error": f"bad request: {type(exc).__name__}"}),
                       "application/json")

    def _route(self) -> None:
        url = urlparse(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        roots = self.server.roots
        if url.path in ("/", "/index.html"):
            self._send(HTTPStatus.OK, (STATIC_DIR / "index.html").read_bytes(), "text/html; charset=utf-8")
        elif url.path == "/api/files":
            self._json(list_files(roots))
        elif url.path == "/api/file":
            self._json(read_file(roots, query.get("root", ""), query.get("path", "")))
        elif url.path == "/api/dashboard":
            from gaia_eval.visualize.dashboard import dashboard

            self._json(dashboard(roots.folders["evaluation"]))
        elif url.path == "/api/chart":
            from gaia_eval.visualize.dashboard import chart_svg

            svg = chart_svg(roots.folders["evaluation"], int(query.get("section", "-1")), query.get("kind", ""))
            if svg is None:
                self._send(HTTPStatus.NOT_FOUND, b"no such chart", "text/plain")
            else:
                self._send(HTTPStatus.OK, svg, "image/svg+xml")
        elif url.path == "/api/compare":
            self._json(compare(roots, query.get("root", "experiments"), query.get("a", ""), query.get("b", "")))
        else:
            self._send(HTTPStatus.NOT_FOUND, b"not found", "text/plain")

    def _json(self, payload: Any) -> None:
        if payload is None:
            self._send(HTTPStatus.NOT_FOUND, b'{"error": "not found"}', "application/json")
        else:
            self._send(HTTPStatus.OK, orjson.dumps(payload), "application/json")

    def _send(self, status: HTTPStatus, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        self.wfile.write(body)


class ViewerServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, host: str, port: int, roots: Roots) -> None:
        self.roots = roots
        super().__init__((host, port), _Handler)
        bound = self.server_address[0]
        self._hosts = {"127.0.0.1", "localhost", "::1", "[::1]", host, bound}

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A browser that navigates away closes its connections mid-reply: not an error worth a traceback."""
        import sys

        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)

    def host_allowed(self, header: str) -> bool:
        """Only the names this server was bound under (and the loopback names) may be asked for."""
        name = header.strip().lower()
        if name.startswith("["):
            name = name[: name.find("]") + 1]
        elif name.count(":") == 1:
            name = name.split(":", 1)[0]
        return name in self._hosts

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/"

    def start_background(self) -> threading.Thread:
        thread = threading.Thread(target=self.serve_forever, daemon=True)
        thread.start()
        return thread


def make_roots(workspace: Path, overrides: dict[str, Path | None]) -> Roots:
    return Roots({name: Path(overrides.get(name) or Path(workspace) / name) for name in ROOT_NAMES})
