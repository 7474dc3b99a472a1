"""The local web viewer: `run_visualize` serves the pipeline's folders until interrupted."""

from __future__ import annotations

import webbrowser
from collections.abc import Callable
from pathlib import Path

from gaia_eval.errors import UsageError


def run_visualize(
    workspace: Path = Path("."),
    *,
    host: str = "127.0.0.1",
    port: int = 3000,
    open_browser: bool = True,
    folders: dict[str, Path | None] | None = None,
    echo: Callable[[str], None] = print,
) -> None:
    from gaia_eval.visualize.server import ViewerServer, make_roots

    roots = make_roots(Path(workspace), folders or {})
    try:
        server = ViewerServer(host, port, roots)
    except OSError as exc:
        raise UsageError(f"cannot listen on {host}:{port} ({exc.strerror})", field="--port", fix="pick another port, or 0 for any free one") from None
    echo(f"gaia-eval viewer on {server.url} (Ctrl-C to stop)")
    for name, folder in roots.folders.items():
        echo(f"  {name}: {folder}")
    if open_browser:
        webbrowser.open(server.url)
    try:
        server.serve_forever()
    finally:
        server.server_close()
