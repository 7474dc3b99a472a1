"""The viewer in a real headless Chromium (Debian's `chromium`, driven by Playwright): what a person sees.

Screenshots of each page land in tests/output/viewer/ (gitignored) to be looked at.
"""

from __future__ import annotations

import threading
from pathlib import Path

import orjson
import pytest

from gaia_eval.bench.cli_support import run_bench_command
from gaia_eval.stages.experiment.run import run_batch_experiment
from gaia_eval.stages.quickstart import run_quickstart
from tests.browser_support import BROWSER_MARKS, CHROMIUM, FLAGS, serve_viewer, sync_playwright
from tests.fakeserver import FakeLLMServer

pytestmark = BROWSER_MARKS
SHOTS = Path(__file__).parent / "output" / "viewer"
HOSTILE = 'Paris <script>window.__pwned = "script"</script><img src=x onerror="window.__pwned = \'img\'">'


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    ws = tmp_path_factory.mktemp("ws")
    run_quickstart(ws, echo=lambda _: None)
    # A model output carrying markup: it must show as text and never run.
    exp_file = ws / "experiments" / "qa" / "baseline-lead.experiment.json"
    exp = orjson.loads(exp_file.read_bytes())
    exp["items"][0]["answer"] = HOSTILE
    exp_file.write_bytes(orjson.dumps(exp))
    # A bench run gated on its shipped baseline, its results under reports/ (the builtin calculator: offline).
    assert run_bench_command("arithmetic", output=ws / "reports" / "bench-arithmetic.json") == 0
    return ws


@pytest.fixture(scope="module")
def viewer(workspace):
    yield from serve_viewer(workspace)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        # A loaded 2-core machine (two test workers, the browser, charts drawn on demand) can be slow: these are
        # bounds on waiting for what must appear, never timings asserted.
        context.set_default_timeout(180_000)
        yield context.new_page()
        context.close()
        browser.close()


def _poll(check, page, tries: int = 1800):
    """The first truthy value of check(), re-read as the page refreshes itself (the page's CSP forbids the
    string evaluation wait_for_function uses)."""
    for _ in range(tries):
        value = check()
        if value:
            return value
        page.wait_for_timeout(100)
    raise AssertionError("the page never showed it")


def test_dashboard_lists_every_evaluation_and_draws_charts(viewer, workspace, page):
    page.goto(viewer.url)
    page.wait_for_selector(".chart img")
    evaluations = sorted((workspace / "evaluation").rglob("*.experiment.eval.json"))
    rows = page.locator("table.dash tbody tr")
    assert rows.count() == len(evaluations) == 6
    assert page.locator("table.dash").count() == 3  # one table per use case
    chart = page.locator(".chart[data-kind=grade] img").first
    _poll(lambda: chart.evaluate("i => i.complete && i.naturalWidth > 0"), page)
    box = chart.bounding_box()
    assert box and box["width"] > 100 and box["height"] > 50
    qa = page.locator("table.dash[data-use-case=qa]")
    grade = qa.locator("th", has_text="Grade")
    grade.click()
    grade.click()  # numbers sort high to low first, then low to high
    assert "baseline-lead" in qa.locator("tbody tr").first.inner_text()
    assert page.locator("#bench tr[data-bench]").count() == 1  # the bench run, against its baseline
    assert "vs 75.0 %" in page.locator("#bench tr[data-bench]").inner_text()
    assert page.locator(".chart[data-kind=bench] img").count() == 1
    _poll(lambda: page.evaluate("[...document.images].every(i => i.complete && i.naturalWidth > 0)"), page)
    page.screenshot(path=str(SHOTS / "dashboard.png"), full_page=True)


def test_item_view_shows_every_model_side_by_side_and_runs_no_model_markup(viewer, page):
    page.goto(viewer.url + "item/qa/")
    page.wait_for_selector(".model-output")
    assert page.locator(".model-output").count() == 2
    assert {page.locator(".model-output").nth(i).get_attribute("data-model") for i in range(2)} == {
        "baseline-lead", "baseline-retrieval"}
    assert "<script>" in page.locator(".out-cell[data-model=baseline-lead] pre").first.inner_text()
    assert page.evaluate("window.__pwned") is None
    page.screenshot(path=str(SHOTS / "item.png"), full_page=True)
    first = page.url
    page.keyboard.press("ArrowRight")
    page.wait_for_url(lambda url: url != first)
    page.wait_for_selector(".model-output")
    page.go_back()
    page.wait_for_url(first)
    # filtered to the items one model failed: the view opens on such an item and says so in its column head
    page.goto(viewer.url + "item/qa/?filter=failed:baseline-retrieval")
    page.wait_for_selector(".model-output[data-model=baseline-retrieval]")
    page.keyboard.press("ArrowRight")  # the next item of the filtered order
    page.wait_for_url(lambda url: "filter=failed" in url and not url.split("?")[0].endswith("/qa/"))
    page.wait_for_selector(".model-output[data-model=baseline-retrieval]")
    assert "fail" in page.locator(".model-output[data-model=baseline-retrieval]").inner_text()


def test_a_summary_item_shows_each_section_of_every_output_as_text(viewer, page):
    page.goto(viewer.url + "item/summarization/")
    page.wait_for_selector("#side-by-side .out-cell")
    assert page.locator(".model-output").count() == 2
    text = page.locator("main").inner_text()
    assert "[object" not in text and "executive summary" in text.lower()
    # every section of every output on its own row, beside the ground truth's: 6 sections x 2 models
    assert page.locator("#side-by-side .out-cell pre").count() == 12
    page.locator("details.source summary").click()
    page.screenshot(path=str(SHOTS / "item-summary.png"), full_page=True)


def test_report_is_rendered_with_its_charts(viewer, page):
    page.goto(viewer.url + "report/report.md")
    page.wait_for_selector(".report table")
    images = page.locator(".report img")
    assert images.count() >= 3
    # Not wait_for_function: it evaluates a string in the page, which the viewer's CSP forbids once it has to poll.
    _poll(
        lambda: page.evaluate(
            "[...document.querySelectorAll('.report img')].every(i => i.complete && i.naturalWidth > 0)"
        ),
        page,
    )
    page.screenshot(path=str(SHOTS / "report.png"), full_page=False)
    page.locator(".report h3:has-text('Charts')").first.evaluate("h => h.scrollIntoView()")  # to the top of the view
    page.screenshot(path=str(SHOTS / "report-charts.png"), full_page=False)


def test_a_report_file_with_raw_html_shows_it_as_text_and_stays_on_the_page(viewer, workspace, page):
    (workspace / "reports" / "evil.md").write_text(
        '# Planted\n\n<meta http-equiv="refresh" content="0;url=/files">\n\n'
        '<iframe src="/files"></iframe> <b>bold</b>\n'
    )
    page.goto(viewer.url + "report/evil.md")
    page.wait_for_selector(".report h1")
    assert 'http-equiv="refresh"' in page.locator(".report").inner_text()  # the tag, shown as text
    assert page.locator(".report meta, .report iframe, .report b").count() == 0
    page.wait_for_timeout(1500)  # a refresh of 0 s would have fired by now; this bounds a wait, asserts no time
    assert page.url.endswith("/report/evil.md")
    page.goto(viewer.url + "report/report.md")
    page.wait_for_selector(".report table")
    assert page.locator(".report details > summary").count() == 3  # the report's own per-item folds


def test_live_progress_moves_while_a_slow_run_proceeds(viewer, workspace, page):
    fake = FakeLLMServer(latency_s=0.15).start()
    config = workspace / "live.json"
    config.write_bytes(
        orjson.dumps(
            {
                "experiments": [
                    {"name": "slow-model", "provider": "vllm", "model": "m", "base_url": fake.openai_base_url}
                ]
            }
        )
    )
    run = threading.Thread(
        target=run_batch_experiment,
        args=(config, workspace / "groundtruth" / "qa", workspace / "experiments" / "live"),
        kwargs={"concurrency": 1, "show_progress": False},
        daemon=True,
    )
    try:
        page.goto(viewer.url)
        run.start()
        cell = page.locator("#live tr[data-run='slow-model'] td.done")
        first = _poll(lambda: cell.count() and int(cell.inner_text()) >= 1 and int(cell.inner_text()), page)
        row = page.locator("#live tr[data-run='slow-model']")
        assert "/ 104" in row.inner_text() and "vllm:m" in row.inner_text()  # progress of the total, per model
        _poll(lambda: row.locator("td.eta").inner_text() != "—", page)  # an ETA once the pace is known
        page.screenshot(path=str(SHOTS / "live.png"))
        assert _poll(lambda: int(cell.inner_text()) > first, page)  # the same page, never reloaded
    finally:
        run.join(timeout=120)
        fake.stop()


def test_compare_shows_both_models_outputs_for_the_same_item(viewer, page):
    page.goto(viewer.url + "compare?a=qa/baseline-lead.experiment.json&b=qa/baseline-retrieval.experiment.json")
    page.wait_for_selector("h1:has-text(' vs ')")
    header = [th.inner_text() for th in page.locator("main table tr").first.locator("th").all()]
    assert header == ["Item", "Expected", "baseline-lead", "baseline-retrieval"]
    assert page.locator("main table tr").count() > 2
    assert page.evaluate("window.__pwned") is None
    page.screenshot(path=str(SHOTS / "compare.png"))


def test_judge_columns_show_only_where_a_judge_ran(viewer, page, tmp_path, fake_llm, workspace, monkeypatch):
    """Without --judge, "Judge unscored" and "Judge cost" would be columns of dashes pushing the rest (extra
    scorers) off the screen; a judged evaluation brings them back."""
    from gaia_eval.scoring.judge.core import parse_judge_spec
    from gaia_eval.stages.eval.run import run_eval
    from tests.test_judge import judge_responder

    page.goto(viewer.url)
    page.wait_for_selector("table.dash")
    assert page.locator("table.dash th", has_text="Judge").count() == 0  # the quickstart ran no judge
    fake_llm.responder = judge_responder
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    judged = tmp_path / "judged"
    judge = parse_judge_spec("openai:gpt-4o-mini", base_url=fake_llm.openai_base_url)
    # its own thread: playwright's sync API keeps an event loop running in this one
    worker = threading.Thread(target=run_eval, kwargs={"experiment_dir": workspace / "experiments" / "summarization",
                                                       "output_dir": judged / "evaluation", "judge": judge})
    worker.start()
    worker.join()
    assert len(list((judged / "evaluation").glob("*.eval.json"))) == 2
    server = next(gen := serve_viewer(judged))
    try:
        page.goto(server.url)
        page.wait_for_selector("table.dash")
        headers = page.locator("table.dash th").all_inner_texts()
        assert any("Judge unscored" in h for h in headers) and any("Judge cost" in h for h in headers)
    finally:
        gen.close()
