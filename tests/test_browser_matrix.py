"""The item × system matrix and wide tables in a real headless Chromium (Debian's `chromium`, driven by
Playwright), on the quickstart with four qa systems (one a filled template): filtering, searching, sorting and
paging as a person does it, every table linking into the matrix, and nothing cut at 1,400 px.

Screenshots land in tests/output/viewer/ (gitignored) to be looked at."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from gaia_eval.cli import cli
from tests.browser_support import BROWSER_MARKS, serve_viewer, viewer_page
from tests.test_viewer_matrix import TEMPLATE_ANSWER, matrix_workspace

pytestmark = BROWSER_MARKS
SHOTS = Path(__file__).parent / "output" / "viewer"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    ws = matrix_workspace(tmp_path_factory.mktemp("ws"))
    reported = CliRunner().invoke(cli, ["report", "-d", str(ws / "evaluation"), "-o", str(ws / "reports")])
    assert reported.exit_code == 0, reported.output  # the report of the four qa systems
    return ws


@pytest.fixture(scope="module")
def viewer(workspace):
    yield from serve_viewer(workspace)


@pytest.fixture(scope="module")
def page():
    SHOTS.mkdir(parents=True, exist_ok=True)
    yield from viewer_page()


def _rows(page) -> list:
    return page.locator("#matrix tbody tr").all()


def _verdicts(row) -> set[str]:
    return {cell.get_attribute("data-verdict") for cell in row.locator("td.cell").all()}


def test_the_matrix_shows_each_item_with_every_systems_verdict_score_and_folded_output(viewer, page):
    page.goto(viewer.url + "matrix/qa")
    page.wait_for_selector("#matrix tbody tr")
    assert page.locator("#matrix th.system-col").count() == 4
    assert len(_rows(page)) == 50 and "items 1–50 of 104" in page.locator(".matrix-count").first.inner_text()
    first = _rows(page)[0]
    assert first.locator("td.input-col").inner_text().strip().endswith("?")  # the question
    assert first.locator("td.ref-col").inner_text().strip()  # the reference
    # four systems at 1,400 px: every column in view, nothing cut; the page is never wider than the window
    scroller = page.locator(".matrix-scroll")
    assert scroller.evaluate("e => e.scrollWidth <= e.clientWidth + 1 && getComputedStyle(e).overflowX === 'auto'")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(SHOTS / "matrix.png"), full_page=False)
    acme = first.locator("td.cell[data-system=acme]")
    assert acme.locator(".badge.verdict").inner_text().lower() in ("pass", "fail")
    output = acme.locator("details.output")
    assert not output.locator("pre").is_visible()  # folded
    output.locator("summary").click()
    assert output.locator("pre").inner_text() in (TEMPLATE_ANSWER, "I do not know")  # not "—"


def test_the_matrix_filters_searches_sorts_and_pages(viewer, page):
    page.goto(viewer.url + "matrix/qa")
    page.wait_for_selector("#matrix tbody tr")
    page.select_option("#matrix-filter", "disagree")
    page.wait_for_url(lambda url: "filter=disagree" in url)
    page.wait_for_selector("#matrix tbody tr")
    rows = _rows(page)
    assert rows and all("pass" in _verdicts(r) and _verdicts(r) & {"fail", "error"} for r in rows)
    page.screenshot(path=str(SHOTS / "matrix-disagree.png"), full_page=False)

    page.select_option("#matrix-filter", "failing")
    page.wait_for_url(lambda url: "filter=failing" in url)
    page.wait_for_selector("#matrix tbody tr")
    assert all(_verdicts(r) & {"fail", "error"} for r in _rows(page))

    page.select_option("#matrix-filter", "")
    page.wait_for_url(lambda url: "filter=failing" not in url)
    page.fill("#matrix-search", "answer is PARIS")
    page.press("#matrix-search", "Enter")
    page.wait_for_url(lambda url: "q=answer" in url)
    page.wait_for_selector("#matrix tbody tr")
    for row in _rows(page):
        assert TEMPLATE_ANSWER in row.locator("td.cell[data-system=acme] pre").inner_text()
    page.fill("#matrix-search", "")
    page.press("#matrix-search", "Enter")
    page.wait_for_url(lambda url: "q=answer" not in url)

    page.select_option("#matrix-sort", "spread")
    page.wait_for_url(lambda url: "sort=spread" in url)
    page.wait_for_selector("#matrix tbody tr")
    spreads = [float(r.locator(".spread").inner_text().split()[-1]) for r in _rows(page)]
    assert spreads == sorted(spreads, reverse=True) and spreads[0] > 0

    first_page = [r.get_attribute("data-item") for r in _rows(page)]
    page.click("#matrix-next")
    page.wait_for_url(lambda url: "page=2" in url and "sort=spread" in url)
    page.wait_for_selector("#matrix tbody tr")
    second = [r.get_attribute("data-item") for r in _rows(page)]
    assert second and set(second).isdisjoint(first_page)
    assert float(_rows(page)[0].locator(".spread").inner_text().split()[-1]) <= spreads[-1]
    assert "items 51–100 of 104" in page.locator(".matrix-count").first.inner_text()


def test_every_table_links_into_the_matrix(viewer, page):
    page.goto(viewer.url)
    page.wait_for_selector("table.dash[data-use-case=qa]")
    page.locator("section:has(table.dash[data-use-case=qa]) a.matrix-link").click()
    page.wait_for_url(lambda url: url.endswith("/matrix/qa"))
    page.wait_for_selector("#matrix tbody tr")
    page.goto(viewer.url + "eval/qa/acme.experiment.eval.json")
    page.wait_for_selector("table.eval-items")
    assert page.locator("table.eval-items th", has_text="Verdict").count() == 1
    assert page.locator("a.matrix-link").get_attribute("href") == "/matrix/qa"
    page.goto(viewer.url + "compare?a=qa/baseline-lead.experiment.json&b=qa/baseline-retrieval.experiment.json")
    page.wait_for_selector("table.compare td[data-verdict]")
    verdicts = {v.inner_text().lower() for v in page.locator("table.compare .badge.verdict").all()}
    assert verdicts == {"pass", "fail"}
    assert page.locator("a.matrix-link").get_attribute("href") == "/matrix/qa"


def test_the_dashboard_shows_its_tables_then_intervals_and_says_why_a_chart_is_left_out(viewer, page):
    page.goto(viewer.url)
    page.wait_for_selector("table.dash[data-use-case=qa]")
    grade = page.locator("table.dash[data-use-case=qa] td.grade").first
    for _ in range(1800):
        if "…" not in grade.inner_text() and "–" in grade.inner_text():
            break
        page.wait_for_timeout(100)
    assert "(" in grade.inner_text() and "–" in grade.inner_text()  # the interval arrived after the table
    note = page.locator("section:has(table.dash[data-use-case=qa]) .chart-left-out[data-kind=tradeoff]")
    note.wait_for()
    assert "no cost" in note.inner_text()
    assert page.locator("section:has(table.dash[data-use-case=qa]) .chart[data-kind=tradeoff]").count() == 0
    page.locator("section:has(table.dash[data-use-case=qa]) .chart img").first.wait_for()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(SHOTS / "dashboard-1400.png"), full_page=True)


def test_the_item_page_with_four_systems_scrolls_instead_of_cutting(viewer, page):
    page.goto(viewer.url + "item/qa/")
    page.wait_for_selector(".model-output")
    assert page.locator(".model-output").count() == 4
    acme = page.locator(".out-cell[data-model=acme] pre").first
    assert acme.inner_text() in (TEMPLATE_ANSWER, "I do not know")
    grid = page.locator("#side-by-side")
    assert grid.evaluate("e => e.scrollWidth <= e.clientWidth + 1")  # every system's column in view
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(SHOTS / "item-4-systems.png"), full_page=False)


def test_a_wrong_address_says_what_is_missing_and_links_back(viewer, page):
    page.goto(viewer.url + "eval/qa/typo.experiment.eval.json")
    message = page.locator(".not-found")
    message.wait_for()
    assert "typo.experiment.eval.json" in message.inner_text() and "evaluation folder" in message.inner_text()
    assert "{" not in message.inner_text()
    assert page.locator("main a[href='/']").count() == 1 and page.locator("main a[href='/files']").count() == 1


def test_the_reports_summary_tables_fit_1400_px(viewer, page):
    """The summary table (a column per criterion: summarization has six) ran past the page at 1,400 px."""
    page.goto(viewer.url + "report/report.md")
    page.wait_for_selector(".report table")
    boxes = page.locator(".report .table-scroll").all()
    assert len(boxes) >= 6
    widths = [box.evaluate("e => [e.scrollWidth, e.clientWidth]") for box in boxes]
    assert all(scroll <= client + 1 for scroll, client in widths), widths
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_dashboard_of_many_evaluations_draws_a_screenful_first_and_the_rest_on_request(workspace, page, tmp_path):
    """101 evaluations of one use case: 100 rows are drawn at first (sorted over all 101), "show all" the rest."""
    from gaia_eval.artifacts.evaluation import Evaluation
    from gaia_eval.artifacts.store import read_artifact, write_artifact

    ev = read_artifact(workspace / "evaluation" / "email" / "baseline-lead.experiment.eval.json", Evaluation)
    for n in range(101):
        grade = ev.grade.model_copy(update={"quality_score": 1.0 if n == 100 else 50.0 + n % 40})  # last: lowest
        write_artifact(tmp_path / "evaluation" / "email" / f"m{n:03d}.experiment.eval.json",
                       ev.model_copy(update={"experiment_name": f"m{n:03d}", "grade": grade}))
    page.route("**/api/charts*", lambda route: route.abort())  # 101 models' charts are not what this is about
    gen = serve_viewer(tmp_path)
    server = next(gen)
    try:
        page.goto(server.url)
        table = page.locator("table.dash[data-use-case=email]")
        table.locator("tbody tr").first.wait_for()
        assert table.locator("tbody tr[data-file]").count() == 100
        assert "100 of 101 shown" in table.locator("tr.more").inner_text()
        table.locator("th", has_text="Grade").click()
        table.locator("th", has_text="Grade").click()  # low to high: the lowest grades come first, over all 101
        assert table.locator("tbody tr[data-file]").first.locator("td").nth(0).inner_text() == "m100"
        table.locator("button.show-all").click()
        assert table.locator("tbody tr[data-file]").count() == 101 and table.locator("tr.more").count() == 0
    finally:
        page.unroute("**/api/charts*")
        gen.close()
