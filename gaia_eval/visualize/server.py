"""`visualize` server: routing and safety (Host check, paths kept inside their roots, 400 on bad input, a
Content-Security-Policy so no script from shown text runs). What is shown comes from visualize/data.py; the page
and its script are static/. Served by the standard library (no Node, no CDN).

Pages (/, /eval/…, /item/…, /matrix/…, /report/…, /compare, /files) all serve static/index.html, whose script
renders the view named by the URL from a read-only JSON API:
  GET /api/dashboard (the tables: nothing worked out over items), /api/intervals?use_case=U (grade intervals),
      /api/charts?use_case=U (drawn when first asked for), /api/live, /api/item?use_case=U&item=I,
      /api/matrix?use_case=U[&filter=failing|disagree][&q=TEXT][&sort=id|spread|-spread][&page=N][&size=N],
      /api/report?path=P
  GET /chart.svg?use_case=U&kind=K, /bench.svg?path=P (a bench results file), /raw?root=R&path=P[&download=1]
  GET /api/files, /api/file?root=R&path=P, /api/compare?a=...&b=...   (visualize/files.py)
Paths are resolved inside their root folder only; anything else is a 404. The server binds to --host
(127.0.0.1 by default), never to all interfaces unless asked, and answers only requests whose one Host header
names it (--allow-host adds exact names for a viewer shared on a network); anything else is a 421.
"""

from __future__ import annotations

import re
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import orjson

from gaia_eval.errors import UsageError
from gaia_eval.visualize.files import BadRequest, Roots, compare, list_files, make_roots, read_file
from gaia_eval.visualize.matrix import MatrixRequestError

__all__ = ["Roots", "ViewerServer", "make_roots"]

STATIC_DIR = Path(__file__).parent / "static"


PAGE_PREFIXES = ("/eval/", "/item/", "/matrix/", "/compare", "/report/", "/files")
STATIC_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
RAW_TYPES = {".md": "text/markdown; charset=utf-8", ".csv": "text/csv; charset=utf-8", ".json": "application/json",
             ".xml": "application/xml", ".svg": "image/svg+xml", ".txt": "text/plain; charset=utf-8"}
# The page runs only its own script: an injected <script> or inline handler in any shown text would not run.
PAGE_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'"


_LOOPBACK_NAMES = {"127.0.0.1", "localhost", "[::1]"}
_WILDCARDS = ("0.0.0.0", "::", "")  # every interface, the loopback one included
_LABEL = r"[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?"
_HOST_NAME = re.compile(rf"{_LABEL}(\.{_LABEL})*")
_PORT = re.compile(r"[0-9]{1,5}")


def _loopback(host: str) -> bool:
    return host in ("127.0.0.1", "localhost", "::1") or host.startswith("127.")


def _bracketed(name: str) -> str:
    """An IPv6 address as a Host header writes it: in brackets."""
    return f"[{name}]" if ":" in name and not name.startswith("[") else name


def allow_host_name(name: str) -> str:
    """A name given to --allow-host, as it is compared with Host headers (lower case, IPv6 in brackets); a value
    with a scheme, port, path, wildcard or space is refused, so what is allowed is always one exact name."""
    import ipaddress

    value = name.strip().lower()
    bare = value[1:-1] if value.startswith("[") and value.endswith("]") else value
    try:
        return _bracketed(str(ipaddress.ip_address(bare)))
    except ValueError:
        pass
    if not _HOST_NAME.fullmatch(value):
        raise UsageError(f"{name!r} is not a host name", field="--allow-host",
                         fix="give the name as the address bar shows it, without scheme, port or path "
                             "(e.g. --allow-host gpu-box.lan); any port is accepted")
    return value


def allowed_hosts(bound: str, allow: tuple[str, ...] | list[str] = ()) -> set[str]:
    """Host header names accepted: the bound name; the loopback names when bound to loopback or to every
    interface; and each --allow-host name, exactly (never a suffix: allowing example.com does not allow
    evil-example.com). Anything else (a DNS-rebinding page's own name) is refused, so no other site can read
    local results."""
    names = {_bracketed(bound.lower())} - {""}
    if _loopback(bound) or bound in _WILDCARDS:
        names |= _LOOPBACK_NAMES
    return names | {allow_host_name(n) for n in allow}


def host_name(header: str | None) -> str | None:
    """The name of a Host header without its port (`name`, `name:port`, `[v6]` or `[v6]:port`); None when the
    header is missing or malformed (refused)."""
    if not header:
        return None
    value = header.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None
        name, rest = value[: end + 1], value[end + 1:]
        sep, port = rest[:1], rest[1:]
        if rest and sep != ":":
            return None
    else:
        name, sep, port = value.partition(":")
    if sep and not _PORT.fullmatch(port):
        return None
    return name or None


def _matrix_params(query: dict[str, str]) -> dict[str, Any]:
    """The matrix request's filter, search, sort and page; a page or size that is not a number is a 400."""
    from gaia_eval.visualize.matrix import PAGE_SIZE

    try:
        page, size = int(query.get("page") or 1), int(query.get("size") or PAGE_SIZE)
    except ValueError:
        raise BadRequest("page and size are whole numbers") from None
    return {"filter_": query.get("filter", ""), "query": query.get("q", ""), "sort": query.get("sort") or "id",
            "page": page, "size": size}


class _Handler(BaseHTTPRequestHandler):
    server: ViewerServer

    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet: the terminal shows the URL, not every request

    def do_GET(self) -> None:
        hosts = self.headers.get_all("Host") or []
        if len(hosts) != 1 or host_name(hosts[0]) not in self.server.hosts:  # none, two, or not ours: refused
            self._send(HTTPStatus.MISDIRECTED_REQUEST, b"unknown host name", "text/plain")
            return
        try:
            self._route()
        except (BrokenPipeError, ConnectionResetError):
            raise  # the browser went away; handle_error stays quiet about it
        except (BadRequest, MatrixRequestError) as exc:
            self._send(HTTPStatus.BAD_REQUEST, orjson.dumps({"error": str(exc)}), "application/json")
        except Exception as exc:
            self._send(
                HTTPStatus.INTERNAL_SERVER_ERROR, orjson.dumps({"error": type(exc).__name__}), "application/json"
            )

    def _route(self) -> None:
        from gaia_eval.visualize import charts, data

        url = urlparse(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        if any("\x00" in v for v in (url.path, *query.values())):
            raise BadRequest("null byte in request")
        roots = self.server.roots
        ev_root, exp_root = roots.folders["evaluation"], roots.folders["experiments"]
        path = url.path
        if path in ("/", "/index.html") or path.startswith(PAGE_PREFIXES):
            self._send(HTTPStatus.OK, (STATIC_DIR / "index.html").read_bytes(), "text/html; charset=utf-8", csp=True)
        elif path.startswith("/static/") and Path(path).suffix in STATIC_TYPES and "/" not in path[8:]:
            file = STATIC_DIR / path[8:]
            if not file.is_file():
                raise BadRequest("no such static file")
            self._send(HTTPStatus.OK, file.read_bytes(), STATIC_TYPES[file.suffix])
        elif path == "/api/files":
            self._json(list_files(roots))
        elif path == "/api/file":
            root, rel = query.get("root", ""), query.get("path", "")
            self._json(read_file(roots, root, rel), f"no file {rel!r} in the {root} folder "
                       f"({roots.folders.get(root, 'not a folder the viewer serves')})")
        elif path == "/api/compare":
            compared = compare(roots, query.get("root", "experiments"), query.get("a", ""), query.get("b", ""))
            self._json(data.with_verdicts(data.with_external_expected(compared, ev_root), ev_root),
                       "compare needs two experiment files of the experiments folder: ?a=PATH&b=PATH (see Files)")
        elif path == "/api/dashboard":
            self._json(data.dashboard(ev_root, roots.folders["reports"]))
        elif path == "/api/live":
            self._json(data.live_progress(exp_root, ev_root))
        elif path == "/api/item":
            use_case, item = query.get("use_case", ""), query.get("item") or None
            self._json(data.item_view(ev_root, exp_root, use_case, item),
                       f"no item {item!r} of use case {use_case!r} in the evaluations under {ev_root}" if item
                       else f"no evaluation of use case {use_case!r} under {ev_root}")
        elif path == "/api/intervals":
            self._json(data.intervals(ev_root, query.get("use_case", "")))
        elif path == "/api/matrix":
            use_case = query.get("use_case", "")
            self._json(data.matrix(ev_root, exp_root, use_case, **_matrix_params(query)),
                       f"no evaluation of use case {use_case!r} in {ev_root}")
        elif path == "/api/charts":
            use_case = query.get("use_case", "")
            drawn = charts.charts(ev_root, use_case)
            self._json(
                None
                if drawn is None
                else {"kinds": list(drawn), "wide": [k for k, svg in drawn.items() if charts.is_wide(k, svg)],
                      "left_out": charts.charts_left_out(ev_root, use_case)}
            )
        elif path == "/chart.svg":
            svg = (charts.charts(ev_root, query.get("use_case", "")) or {}).get(query.get("kind", ""))
            if svg is None:
                self._json(None)
                return
            self._send(HTTPStatus.OK, svg.encode("utf-8"), "image/svg+xml")
        elif path == "/bench.svg":
            svg = charts.bench_chart(roots.folders["reports"], query.get("path", ""), roots.resolve)
            if svg is None:
                self._json(None)
                return
            self._send(HTTPStatus.OK, svg.encode("utf-8"), "image/svg+xml")
        elif path == "/api/report":
            report = roots.resolve("reports", query.get("path", "report.md"))
            self._json(None if report is None or report.suffix != ".md" else {"html": data.report_html(report)},
                       f"no report {query.get('path', 'report.md')!r} in the reports folder "
                       f"({roots.folders['reports']})")
        elif path == "/raw":
            raw = roots.resolve(query.get("root", ""), query.get("path", ""))
            if raw is None or raw.suffix not in RAW_TYPES:
                self._json(None)
                return
            self._send(HTTPStatus.OK, raw.read_bytes(), RAW_TYPES[raw.suffix], download=query.get("download") == "1")
        else:
            self._send(HTTPStatus.NOT_FOUND, b"not found", "text/plain")

    def _json(self, payload: Any, missing: str = "nothing here") -> None:
        """The payload as JSON, or a 404 whose `error` says what was not found and where it was looked for."""
        if payload is None:
            self._send(HTTPStatus.NOT_FOUND, orjson.dumps({"error": "not found", "message": missing}),
                       "application/json")
        else:
            self._send(HTTPStatus.OK, orjson.dumps(payload), "application/json")

    def _send(
        self, status: HTTPStatus, body: bytes, content_type: str, *, csp: bool = False, download: bool = False
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header(
            "Content-Security-Policy", PAGE_CSP if csp else "default-src 'none'; style-src 'unsafe-inline'"
        )
        if download:
            self.send_header("Content-Disposition", "attachment")
        self.end_headers()
        self.wfile.write(body)


class ViewerServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, host: str, port: int, roots: Roots, allow_hosts: tuple[str, ...] | list[str] = ()) -> None:
        self.roots = roots
        self.hosts = allowed_hosts(host, allow_hosts)
        super().__init__((host, port), _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A browser that navigates away closes its connections mid-reply: not an error worth a traceback."""
        import sys

        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        name = host.decode() if isinstance(host, bytes) else host
        return f"http://{name}:{port}/"

    def start_background(self) -> threading.Thread:
        thread = threading.Thread(target=self.serve_forever, daemon=True)
        thread.start()
        return thread
