"""What every browser test module shares: headless Debian chromium driven by playwright, the skip marks that say
why a browser test did not run, and a viewer served on 127.0.0.1 for the module."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from gaia_eval.visualize.server import ViewerServer, make_roots

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - depends on the environment
    sync_playwright = None

BROWSER_MARKS = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="browser tests need Debian's chromium (apt-get install chromium)"),
    pytest.mark.skipif(sync_playwright is None, reason="browser tests need playwright (pip install -e '.[test]')"),
]
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


def serve_viewer(workspace: Path) -> Iterator[ViewerServer]:
    """The viewer on a free loopback port for as long as the generator is open (a module fixture's body)."""
    server = ViewerServer("127.0.0.1", 0, make_roots(workspace, {}))
    server.start_background()
    yield server
    server.shutdown()
    server.server_close()


def browser_test(test: Callable) -> Callable:
    """One test marked as a browser test (for a module whose other tests need no browser)."""
    for mark in reversed(BROWSER_MARKS):
        test = mark(test)
    return test


def viewer_page() -> Iterator:
    """A page of headless chromium for as long as the generator is open (a module fixture's body)."""
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        context.set_default_timeout(180_000)  # a bound on waiting on a loaded machine, never a timing asserted
        yield context.new_page()
        context.close()
        browser.close()
