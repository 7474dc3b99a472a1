"""The viewer in a real headless Chromium (Debian's `chromium`, driven by Playwright): what a person sees.

Skipped, with the reason, where Chromium or Playwright is missing; `.ci/run` installs Chromium so CI runs them.
Screenshots of each page are saved under tests/output/ (not committed) to look at.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import orjson
import pytest

from gaia_eval.stages.quickstart import run_quickstart
from gaia_eval.visualize.server import ViewerServer, make_roots

pytestmark = pytest.mark.browser
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SHOTS = Path(__file__).parent / "output"
HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>Paris'

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - the test extra installs it
    sync_playwright = None

if CHROMIUM is None or sync_playwright is None:
    pytest.skip("browser tests need Debian's chromium (apt-get install chromium) and playwright (the test extra)",
                allow_module_level=True)


@pytest.fixture(scope="module")
def viewer(tmp_path_factory):
    workspace = tmp_path_factory.mktemp("ws")
    run_quickstart(workspace, echo=lambda _: None)
    # An experiment whose model answered with markup: the viewer must show it as text, never run it.
    qa = next((workspace / "experiments").rglob("baseline-retrieval.experiment.json"))
    data = orjson.loads(qa.read_bytes())
    data["items"][0]["answer"] = HOSTILE
    data["experiment_name"] = "hostile"
    (qa.parent / "hostile.experiment.json").write_bytes(orjson.dumps(data))
    server = ViewerServer("127.0.0.1", 0, make_roots(workspace, {}))
    server.start_background()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def page():
    SHOTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"],
        )
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        yield page
        browser.close()


def test_the_dashboard_lists_every_evaluation_and_its_charts_render(viewer, page):
    page.goto(viewer.url + "#dashboard")
    page.wait_for_selector("h1:has-text('Dashboard')")
    on_disk = list(viewer.roots.folders["evaluation"].rglob("*.experiment.eval.json"))
    rows = page.locator("table.sortable tr").count() - page.locator("table.sortable").count()  # minus headers
    assert rows == len(on_disk) >= 6
    assert [h.inner_text() for h in page.locator("main h2").all()] == ["Summarization", "Email summarization",
                                                                         "Question answering"]
    page.wait_for_function("[...document.querySelectorAll('.charts img')].every(i => i.complete)")
    widths = page.eval_on_selector_all(".charts img", "imgs => imgs.map(i => i.naturalWidth)")
    assert widths and all(w > 100 for w in widths)  # every chart is a drawn image, not a broken one
    page.screenshot(path=str(SHOTS / "dashboard.png"), full_page=True)


def test_compare_shows_both_models_outputs_for_the_same_item(viewer, page):
    page.goto(viewer.url)
    page.wait_for_selector("nav .file")
    for name in ("qa/baseline-lead.experiment.json", "qa/baseline-retrieval.experiment.json"):
        page.locator("nav .file", has_text=name).locator("input[type=checkbox]").click()
    page.click("#compare")
    page.wait_for_selector("h1:has-text(' vs ')")
    header = [th.inner_text() for th in page.locator("main table tr").first.locator("th").all()]
    assert header == ["Item", "Ground truth", "baseline-lead", "baseline-retrieval"]
    assert page.locator("main table tr").count() > 2
    page.screenshot(path=str(SHOTS / "compare.png"), full_page=True)


def test_markup_in_a_model_output_is_shown_as_text_and_never_runs(viewer, page):
    page.goto(viewer.url)
    page.wait_for_selector("nav .file")
    page.locator("nav .file", has_text="hostile.experiment.json").click()
    page.wait_for_selector("h1:has-text('hostile')")
    assert page.evaluate("window.__pwned") is None
    assert page.locator("main img").count() == 0 and page.locator("main script").count() == 0
    assert "onerror" in page.text_content("main")  # the markup is there as text (its item may be collapsed)
    page.screenshot(path=str(SHOTS / "hostile_output.png"), full_page=True)
