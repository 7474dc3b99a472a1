"""`gaia-eval annotate` in a real headless Chromium (Debian's `chromium`, driven by Playwright): a rater rates by
keyboard, undoes, reloads and continues; pairwise mode records a preference; outputs holding markup show as text
and never run; a write without the session token is refused; the viewer shows what meta-eval found.

Screenshots land in tests/output/annotate/ (gitignored); the README's are copies of them under docs/.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import orjson
import pytest

from gaia_eval.annotate import open_session
from gaia_eval.annotate.server import AnnotationServer
from gaia_eval.artifacts.ratings import live_records, read_ratings
from gaia_eval.stages.meta_eval_own import run_meta_eval_evaluations
from gaia_eval.stages.quickstart import run_quickstart
from gaia_eval.visualize.server import ViewerServer, make_roots
from tests.browser_support import BROWSER_MARKS, CHROMIUM, FLAGS, sync_playwright

pytestmark = BROWSER_MARKS
SHOTS = Path(__file__).parent / "output" / "annotate"
HOSTILE = '<script>window.__pwned = "script"</script><img src=x onerror="window.__pwned = \'img\'"> Ebony'


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    ws = tmp_path_factory.mktemp("ws")
    run_quickstart(ws, echo=lambda _: None)
    # Every answer of one model carries markup: it must show as text and never run.
    exp_file = ws / "experiments" / "qa" / "baseline-lead.experiment.json"
    exp = orjson.loads(exp_file.read_bytes())
    for item in exp["items"]:
        item["answer"] = HOSTILE + " " + (item["answer"] or "")
    exp_file.write_bytes(orjson.dumps(exp))
    return ws


@pytest.fixture(scope="module")
def browser():
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1100, "height": 760})
    # Bounds on waiting for what must appear on a loaded 2-core machine, never timings asserted.
    context.set_default_timeout(120_000)
    yield context.new_page()
    context.close()


def _serve(opened):
    server = AnnotationServer(opened.session, 0)
    server.start_background()
    return server


def _stop(server) -> None:
    server.shutdown()
    server.server_close()


def _at(page, unit: str) -> None:
    page.wait_for_selector(f"body[data-unit='{unit}']", state="attached")


def test_a_rater_rates_ten_items_by_keyboard_undoes_and_a_reload_continues(workspace, page):
    opened = open_session(workspace / "evaluation", rater="ann", use_case="qa", size=12, seed=5)
    server = _serve(opened)
    try:
        page.goto(server.url)
        _at(page, "u001")
        typed = {}
        for n in range(1, 11):
            unit = f"u{n:03d}"
            _at(page, unit)
            values = (1 + n % 5, 1 + (n * 2) % 5)
            for k, value in enumerate(values):
                page.keyboard.press(str(value))
                if n == 1 and k == 0:  # one dimension rated, the next one marked: the README's picture
                    page.locator(".scale[data-dimension='correctness'] button.on").wait_for()
                    page.screenshot(path=str(SHOTS / "annotate.png"))
            typed[unit] = values
        _at(page, "u011")
        assert page.locator("#progress").inner_text().startswith("ann · 10 of ")
        written = [r for r in live_records(read_ratings(opened.ratings).records) if r.kind == "rating"]
        assert {(r.unit, r.dimension): r.value for r in written} == {
            (u, d): v for u, vs in typed.items() for d, v in zip(("correctness", "completeness"), vs, strict=False)}
        assert len(written) == 20 and {r.rater for r in written} == {"ann"}
        page.keyboard.press("u")  # takes back u010's last rating: u010 is shown again, one dimension rated
        _at(page, "u010")
        assert page.locator(".scale[data-dimension='correctness'] button.on").inner_text() == str(typed["u010"][0])
        assert page.locator(".scale[data-dimension='completeness'] button.on").count() == 0
        page.keyboard.press("5")
        _at(page, "u011")
        page.reload()  # continues where the rater stopped
        _at(page, "u011")
        assert page.locator("#progress").inner_text().startswith("ann · 10 of ")
    finally:
        _stop(server)


def test_outputs_with_script_show_as_text_and_never_run(workspace, page):
    opened = open_session(workspace / "evaluation", rater="eve", use_case="qa")
    server = _serve(opened)
    try:
        session = opened.session
        # Move to the first unit whose output is the hostile one, by skipping the others.
        while (state := session.state())["unit"] is not None:
            unit = session.units[state["unit"]["id"]]
            if unit.model == "baseline-lead":
                break
            session.skip(unit.id)
        page.goto(server.url)
        _at(page, state["unit"]["id"])
        assert "<script>window.__pwned" in page.locator("section.output").inner_text()
        assert page.locator("section.output script, section.output img").count() == 0
        assert page.evaluate("window.__pwned") is None
        # And a write without the session token, from the page's own origin, is refused.
        status = page.evaluate("""fetch('/api/rate', {method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({unit: 'u001', dimension: 'correctness', value: 5})}).then(r => r.status)""")
        assert status == 403
        assert not any(r.kind == "rating" for r in read_ratings(opened.ratings).records if r.rater == "eve")
        # Without the #token the page says how to open it.
        page.goto(server.base_url)
        page.wait_for_selector("text=Cannot load")
    finally:
        _stop(server)


def test_pairwise_mode_records_a_preference(workspace, page):
    opened = open_session(workspace / "evaluation", rater="pat", use_case="summarization", mode="pairwise")
    server = _serve(opened)
    try:
        page.goto(server.url)
        _at(page, "p001")
        assert page.locator("section.output").count() == 2
        page.screenshot(path=str(SHOTS / "annotate-pairwise.png"), full_page=True)
        page.keyboard.press("a")
        _at(page, "p002")
        page.locator("button[data-choice='tie']").click()
        _at(page, "p003")
        prefs = [r for r in read_ratings(opened.ratings).records if r.kind == "preference"]
        first, _second = opened.sample.pairs[0], opened.sample.pairs[1]
        assert [(p.unit, p.winner) for p in prefs] == [("p001", first.left), ("p002", "tie")]
        assert prefs[0].models == [first.left, first.right]
    finally:
        _stop(server)


def test_the_viewer_shows_which_score_agrees_with_your_ratings(workspace, page):
    opened = open_session(workspace / "evaluation", rater="sam", use_case="summarization", size=8)
    session = opened.session
    while (state := session.state())["unit"] is not None:
        unit = session.units[state["unit"]["id"]]
        value = 1 + min(4, int(5 * session.evaluated.get(unit.item_id, unit.model).scores["completeness"]))
        for d in session.sample.dimensions:
            session.rate(unit.id, d, value)
    run_meta_eval_evaluations(workspace / "evaluation", use_case="summarization")
    with _dashboard(workspace, page) as trust:
        text = trust.inner_text()
        assert "8 outputs rated blind by sam" in text
        assert "agrees best:" not in text and "not enough ratings to name a best score" in text  # 8 < 10 outputs
        assert "Best score: not enough ratings to name a best score" in text
        block = trust.locator("xpath=..").inner_text()
        assert "What people would rate each model" in block and "4.5 (4.5–4.5)" in block
        trust.scroll_into_view_if_needed()
        trust.locator("xpath=..").screenshot(path=str(SHOTS / "viewer-own-ratings.png"))


@contextmanager
def _dashboard(workspace, page):
    """The viewer's dashboard open on the workspace: its line on the summaries' agreement with your ratings."""
    viewer = ViewerServer("127.0.0.1", 0, make_roots(workspace, {}))
    viewer.start_background()
    try:
        page.goto(viewer.url)
        trust = page.locator("table.dash[data-use-case=summarization]").locator("xpath=..").locator(".own-trust")
        trust.wait_for()
        yield trust
    finally:
        viewer.shutdown()
        viewer.server_close()


def test_the_source_opened_with_v_stays_open_while_the_rater_rates_that_output(workspace, page, tmp_path):
    opened = open_session(workspace / "evaluation", rater="val", use_case="summarization", size=8,
                          ratings=tmp_path / "val.ratings.jsonl")
    server = _serve(opened)
    try:
        page.goto(server.url)
        _at(page, "u001")
        page.keyboard.press("v")
        page.keyboard.press("4")  # one rating re-renders the page: the source the rater opened stays open
        page.locator(".scale[data-dimension='relevance'] button.on").wait_for()
        assert page.locator("#source").evaluate("d => d.open") is True
        for key in "444":
            page.keyboard.press(key)
        _at(page, "u002")  # the next output starts as the first did: source closed
        assert page.locator("#source").evaluate("d => d.open") is False
    finally:
        _stop(server)


def test_a_best_score_no_better_than_length_is_never_named_in_the_report_and_the_viewer(workspace, page, tmp_path):
    """A rater who rewards length alone: no score is named best (8 outputs are too few, and length agrees at
    least as well); the report and the viewer say why, with the n, instead of "agrees best: X"."""
    from gaia_eval.artifacts.metaeval import MetaEvaluation
    from gaia_eval.artifacts.store import read_artifact
    from gaia_eval.stages.report.run import run_report

    opened = open_session(workspace / "evaluation", rater="len", use_case="summarization", size=8,
                          ratings=tmp_path / "len.ratings.jsonl")
    session = opened.session
    lengths = sorted(len(session.evaluated.get(u.item_id, u.model).text) for u in session.sample.units)
    while (state := session.state())["unit"] is not None:
        unit = session.units[state["unit"]["id"]]
        value = 1 + lengths.index(len(session.evaluated.get(unit.item_id, unit.model).text)) * 5 // len(lengths)
        for d in session.sample.dimensions:
            session.rate(unit.id, d, value)
    run_meta_eval_evaluations(workspace / "evaluation", use_case="summarization", ratings=opened.ratings)
    saved = read_artifact(workspace / "evaluation" / "meta_eval.summarization.json", MetaEvaluation)
    assert "relevance" not in saved.best and "over 8 rated outputs" in saved.best_withheld["relevance"]
    run_report(workspace / "evaluation", workspace / "reports" / "report.md")
    report = (workspace / "reports" / "report.md").read_text()
    assert "agrees best:" not in report and saved.best_withheld["relevance"] in report
    with _dashboard(workspace, page) as trust:
        text = trust.inner_text()
        assert "agrees best:" not in text and saved.best_withheld["relevance"] in text
