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
    allow_hosts: tuple[str, ...] | list[str] = (),
    open_browser: bool = True,
    folders: dict[str, Path | None] | None = None,
    echo: Callable[[str], None] = print,
) -> None:
    from gaia_eval.visualize.discover import workspace_roots
    from gaia_eval.visualize.server import ViewerServer, allowed_hosts

    names = sorted(allowed_hosts(host, allow_hosts))  # a bad --allow-host is refused before anything binds
    roots, notes = workspace_roots(Path(workspace), folders or {})
    try:
        server = ViewerServer(host, port, roots, allow_hosts)
    except OSError as exc:
        raise UsageError(
            f"cannot listen on {host}:{port} ({exc.strerror})",
            field="--port",
            fix="pick another port, or 0 for any free one",
        ) from None
    echo(f"gaia-eval viewer on {server.url} (Ctrl-C to stop)")
    from gaia_eval.artifacts.recorded import recorded_path

    for name, folder in roots.folders.items():
        echo(f"  {name}: {recorded_path(folder)}")  # a bucket's folder as its URL, not this machine's mirror
    for note in notes:
        echo(f"  {note}")
    if allow_hosts or host not in ("127.0.0.1", "localhost", "::1"):
        echo(f"  answering Host names (any port): {', '.join(names)}; others get 421 (add one with --allow-host NAME)")
    if open_browser:
        webbrowser.open(server.url)
    try:
        server.serve_forever()
    finally:
        server.server_close()
