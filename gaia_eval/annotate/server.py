"""The annotation server: the page, its state, and the rater's actions, each appended to the ratings file.

The one part of gaia-eval's viewers that writes, so it is locked down: it binds 127.0.0.1 only; it answers only
Host names of the loopback (a DNS-rebinding page's own name is refused); every API call needs the per-session
token printed with the URL (in the URL's #fragment, so it never travels in a request line or a Referer), sent in
the `X-Annotate-Token` header, which no cross-site form or image can set; the only file it writes is the ratings
file it was started with. The page runs only its own script (CSP) and shows every text as text.

  GET  /                       the page (static/annotate.html)
  GET  /api/state              where the rater is: the next unit (blind), its ratings so far, progress
  POST /api/rate {unit, dimension, value}   /api/comment {unit, text}   /api/skip {unit}
  POST /api/prefer {unit, choice: left|right|tie}   /api/undo {}
"""

from __future__ import annotations

import hmac
import secrets
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import orjson

from gaia_eval.annotate.session import BadAction, Session
from gaia_eval.errors import GaiaEvalError

STATIC_DIR = Path(__file__).parent / "static"
STATIC_FILES = {"annotate.js": "text/javascript; charset=utf-8", "annotate.css": "text/css; charset=utf-8"}
PAGE_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "form-action 'none'; frame-ancestors 'none'"
)
TOKEN_HEADER = "X-Annotate-Token"
MAX_BODY = 64 * 1024
LOOPBACK_NAMES = ("127.0.0.1", "localhost")


class _Handler(BaseHTTPRequestHandler):
    server: AnnotationServer

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _host_ok(self) -> bool:
        hosts = self.headers.get_all("Host") or []
        host = hosts[0].strip().lower() if len(hosts) == 1 else ""
        name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
        if name not in LOOPBACK_NAMES:
            self._send(HTTPStatus.MISDIRECTED_REQUEST, b"unknown host name", "text/plain")
            return False
        return True

    def _same_origin(self) -> bool:
        """The token already keeps other sites out; a browser's own word that the call comes from another site
        (Origin, Sec-Fetch-Site) is refused as well, so no leaked token can be used from a web page."""
        origin = self.headers.get("Origin")
        port = self.server.server_address[1]
        cross = self.headers.get("Sec-Fetch-Site", "same-origin").lower() not in ("same-origin", "none")
        if cross or (origin is not None and origin.lower() not in {f"http://{n}:{port}" for n in LOOPBACK_NAMES}):
            self._send(HTTPStatus.FORBIDDEN, b'{"error": "a request from another site"}', "application/json")
            return False
        return True

    def _token_ok(self) -> bool:
        if not self._same_origin():
            return False
        given = self.headers.get(TOKEN_HEADER, "")
        if not hmac.compare_digest(given.encode(), self.server.token.encode()):
            self._send(HTTPStatus.FORBIDDEN, b'{"error": "missing or wrong session token"}', "application/json")
            return False
        return True

    def do_GET(self) -> None:
        if not self._host_ok():
            return
        path = self.path.split("?", 1)[0]
        if path in ("/", "/index.html"):
            self._send(HTTPStatus.OK, (STATIC_DIR / "annotate.html").read_bytes(), "text/html; charset=utf-8")
        elif path.startswith("/static/") and path[8:] in STATIC_FILES:
            self._send(HTTPStatus.OK, (STATIC_DIR / path[8:]).read_bytes(), STATIC_FILES[path[8:]])
        elif path == "/api/state":
            if self._token_ok():
                self._json(self.server.session.state())
        else:
            self._send(HTTPStatus.NOT_FOUND, b"not found", "text/plain")

    def do_POST(self) -> None:
        if not self._host_ok() or not self._token_ok():
            return
        length_header = (self.headers.get("Content-Length") or "0").strip()
        length = int(length_header) if length_header.isdigit() else -1
        if not 0 <= length <= MAX_BODY or "application/json" not in self.headers.get("Content-Type", ""):
            self._send(HTTPStatus.BAD_REQUEST, b'{"error": "send a small JSON body"}', "application/json")
            return
        try:
            body = orjson.loads(self.rfile.read(length) or b"{}")
            if not isinstance(body, dict):
                raise BadAction("the body is a JSON object")
            session = self.server.session
            path = self.path.split("?", 1)[0]
            if path == "/api/rate":
                session.rate(body.get("unit"), body.get("dimension"), body.get("value"))
            elif path == "/api/comment":
                session.comment(body.get("unit"), body.get("text"))
            elif path == "/api/skip":
                session.skip(body.get("unit"))
            elif path == "/api/prefer":
                session.prefer(body.get("unit"), body.get("choice"))
            elif path == "/api/undo":
                session.undo()
            else:
                self._send(HTTPStatus.NOT_FOUND, b"not found", "text/plain")
                return
        except (BadAction, orjson.JSONDecodeError) as exc:
            self._send(HTTPStatus.BAD_REQUEST, orjson.dumps({"error": str(exc)}), "application/json")
            return
        except GaiaEvalError as exc:  # the ratings file refused the line: say so, the rating did not count
            self._send(HTTPStatus.INTERNAL_SERVER_ERROR, orjson.dumps({"error": exc.one_line()}), "application/json")
            return
        self._json(self.server.session.state())

    def _json(self, payload: Any) -> None:
        self._send(HTTPStatus.OK, orjson.dumps(payload), "application/json")

    def _send(self, status: HTTPStatus, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Content-Security-Policy", PAGE_CSP)
        self.end_headers()
        self.wfile.write(body)


class AnnotationServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, session: Session, port: int = 0, token: str | None = None) -> None:
        self.session = session
        self.token = token or secrets.token_urlsafe(24)
        super().__init__(("127.0.0.1", port), _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/"

    @property
    def url(self) -> str:
        return f"{self.base_url}#token={self.token}"

    def start_background(self) -> threading.Thread:
        thread = threading.Thread(target=self.serve_forever, daemon=True)
        thread.start()
        return thread
