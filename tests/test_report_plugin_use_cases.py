"""A use case a plugin adds shows with its own title, pass/fail and rating dimensions in the report, the viewer and
`annotate`, asked of its `UseCase` (never of its name); an evaluation of a use case not installed here is shown
under its name and stops nothing.

The plugin use cases are `UseCase` values registered by monkeypatching `gaia_eval.registry.USE_CASES.builtin`
(tests/plugin_use_cases.py). "tickets" (summaries) is scored by the real `eval` from the quickstart's summarization
experiments relabelled; "support-qa" (answers to questions) holds the quickstart's qa
evaluations relabelled, so its section must read exactly like "Question answering" but for its title.
"""

from __future__ import annotations

import re
import shutil
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from gaia_eval.annotate import open_session
from gaia_eval.annotate.session import BadAction
from gaia_eval.annotate.sheet import run_ratings_template
from gaia_eval.registry import USE_CASES
from gaia_eval.reporting.data import build_report_data
from gaia_eval.stages.eval.run import run_eval
from gaia_eval.stages.quickstart import run_quickstart
from gaia_eval.stages.report.run import run_report
from gaia_eval.usecases import UseCase
from gaia_eval.visualize.server import ViewerServer, make_roots
from tests.browser_support import browser_test, serve_viewer, viewer_page
from tests.plugin_use_cases import TICKETS, registered

SUPPORT_QA = UseCase(
    name="support-qa",
    title="Support questions",
    answers="answer",
    scorers={("comparative", False): "qa", ("comparative", True): "long_form_qa"},
    rating_dimensions=("helpfulness",),
)
RETIRED = "retired-plugin"  # named by an evaluation file, declared by nothing installed here


@pytest.fixture
def installed() -> Iterator[None]:
    """The two plugin use cases installed for the test."""
    with registered(TICKETS, SUPPORT_QA):
        yield


def _relabel(source: Path, target: Path, use_case: str, pattern: str) -> None:
    target.mkdir(parents=True)
    for path in sorted(source.glob(pattern)):
        data = orjson.loads(path.read_bytes())
        data["use_case"] = use_case
        (target / path.name).write_bytes(orjson.dumps(data))


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    ws = tmp_path_factory.mktemp("ws")
    run_quickstart(ws, echo=lambda _: None)
    with registered(TICKETS, SUPPORT_QA):
        _relabel(ws / "experiments" / "summarization", ws / "experiments" / "tickets", "tickets", "*.experiment.json")
        summary = run_eval(experiment_dir=ws / "experiments" / "tickets", output_dir=ws / "evaluation" / "tickets",
                           show_progress=False)
        assert summary.made == 2 and not summary.failures
        _relabel(ws / "experiments" / "qa", ws / "experiments" / "support-qa", "support-qa", "*.experiment.json")
        _relabel(ws / "evaluation" / "qa", ws / "evaluation" / "support-qa", "support-qa", "*.experiment.eval.json")
        # Written while the plugin is installed, read after it is gone.
        _relabel(ws / "evaluation" / "tickets", ws / "evaluation" / RETIRED, RETIRED, "*.experiment.eval.json")
        _relabel(ws / "experiments" / "tickets", ws / "experiments" / RETIRED, RETIRED, "*.experiment.json")
    return ws


def _sections(markdown: str) -> dict[str, str]:
    """report.md's sections by their heading."""
    parts = re.split(r"^## (.+)$", markdown, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


# --- report -----------------------------------------------------------------------------------------------------

def test_the_report_titles_plugin_use_cases_with_their_own_titles_and_an_unknown_one_with_its_name(
    workspace, installed, tmp_path
):
    run_report(workspace / "evaluation", tmp_path / "report.md")
    text = (tmp_path / "report.md").read_text()
    sections = _sections(text)
    # Registry order (built in, then the plugins as registered), then the unknown name.
    assert list(sections)[:6] == ["Summarization", "Email summarization", "Question answering",
                                  "Support ticket summaries", "Support questions", RETIRED]
    assert ("in 6 use cases: Summarization, Email summarization, Question answering, Support ticket summaries, "
            f"Support questions, {RETIRED}.") in text
    # Answers to questions read pass/fail per item; summaries (a plugin's and the unknown one's) read points.
    assert "items; pass/fail)" in sections["Support questions"]
    assert "| pass |" in sections["Support questions"] and "| fail |" in sections["Support questions"]
    assert "| Pass rate |" in sections["Support questions"]
    for title in ("Support ticket summaries", RETIRED):
        assert "items; item score 0–100)" in sections[title] and "| Pass rate |" not in sections[title]
    csv = (tmp_path / "report.csv").read_text()
    assert "\ntickets,1,baseline-textrank," in csv and f"\n{RETIRED},1,baseline-textrank," in csv


def test_a_plugin_section_reads_exactly_like_the_built_in_one_it_was_relabelled_from(workspace, installed):
    data = build_report_data(workspace / "evaluation")
    by_use_case = {s["use_case"]: s for s in data["sections"]}
    for plugin, built_in in (("support-qa", "qa"), (RETIRED, "tickets")):
        ours, theirs = by_use_case[plugin], by_use_case[built_in]
        assert ours["pass_fail_items"] == theirs["pass_fail_items"]
        assert ours["per_item"] == theirs["per_item"]
        assert [m["quality_score"] for m in ours["models"]] == [m["quality_score"] for m in theirs["models"]]
    assert by_use_case["support-qa"]["pass_fail_items"] and not by_use_case["tickets"]["pass_fail_items"]
    # tickets was scored by the real eval with the scorer its UseCase names: the same grades as summarization's
    grades = {uc: [(m["experiment_name"], m["quality_score"]) for m in by_use_case[uc]["models"]]
              for uc in ("tickets", "summarization")}
    assert grades["tickets"] == grades["summarization"]


def test_without_the_plugin_its_evaluations_show_under_their_names(workspace, tmp_path):
    assert "tickets" not in USE_CASES  # the plugin is not installed in this test
    run_report(workspace / "evaluation", tmp_path / "report.md")
    sections = _sections((tmp_path / "report.md").read_text())
    assert list(sections)[3:6] == [RETIRED, "support-qa", "tickets"]  # after the built-ins, by name
    assert "items; item score 0–100)" in sections["support-qa"]  # nothing here says its items are questions


# --- viewer -----------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def viewer(workspace) -> Iterator[ViewerServer]:
    yield from serve_viewer(workspace)


def _get(server: ViewerServer, path: str) -> bytes:
    # a loaded machine may take seconds to draw charts: a bound on waiting, not a timing asserted
    with urllib.request.urlopen(server.url.rstrip("/") + path, timeout=120) as response:
        assert response.status == 200
        return response.read()


def test_the_viewer_api_gives_each_use_case_its_title_and_whether_it_asks_questions(viewer, installed):
    dashboard = {uc["use_case"]: uc for uc in orjson.loads(_get(viewer, "/api/dashboard"))["use_cases"]}
    assert {name: uc["title"] for name, uc in dashboard.items()} == {
        "summarization": "Summarization", "email": "Email summarization", "qa": "Question answering",
        "tickets": "Support ticket summaries", "support-qa": "Support questions", RETIRED: RETIRED,
    }
    assert {name for name, uc in dashboard.items() if uc["pass_rates"]} == {"qa", "support-qa"}
    pages = {name: orjson.loads(_get(viewer, f"/api/item?use_case={name}"))
             for name in ("tickets", "support-qa", RETIRED, "summarization", "qa")}
    assert {name: (page["title"], page["asks_questions"]) for name, page in pages.items()} == {
        "tickets": ("Support ticket summaries", False), "support-qa": ("Support questions", True),
        RETIRED: (RETIRED, False), "summarization": ("Summarization", False), "qa": ("Question answering", True),
    }
    # The plugins' items show their outputs and references like the built-in ones they came from.
    assert pages["tickets"]["groundtruth"] and isinstance(pages["tickets"]["models"][0]["output"], dict)
    assert "answer" in pages["support-qa"]["groundtruth"] and pages["support-qa"]["source"]
    assert isinstance(pages["support-qa"]["models"][0]["output"], str)
    report = orjson.loads(_get(viewer, "/api/report?path=report.md"))["html"]  # the quickstart's report
    assert "Question answering" in report
    assert b"Support ticket summaries" in _get(viewer, "/chart.svg?use_case=tickets&kind=grade")


def test_the_viewer_shows_an_uninstalled_use_case_under_its_name(workspace, tmp_path):
    assert "tickets" not in USE_CASES  # the plugin is not installed in this test
    # A copy: the viewer's indexes are per folder, and this one must not share what it read with the others.
    shutil.copytree(workspace / "evaluation", tmp_path / "evaluation")
    shutil.copytree(workspace / "experiments", tmp_path / "experiments")
    server = ViewerServer("127.0.0.1", 0, make_roots(tmp_path, {}))
    server.start_background()
    try:
        dashboard = {uc["use_case"]: uc for uc in orjson.loads(_get(server, "/api/dashboard"))["use_cases"]}
        assert {name: uc["title"] for name, uc in dashboard.items() if name in ("tickets", RETIRED, "qa")} == {
            "tickets": "tickets", RETIRED: RETIRED, "qa": "Question answering"}
        # Nothing installed here says its items are questions: no pass-rate column, points per item.
        assert not dashboard["support-qa"]["pass_rates"] and dashboard["qa"]["pass_rates"]
        page = orjson.loads(_get(server, "/api/item?use_case=support-qa"))
        assert (page["title"], page["asks_questions"]) == ("support-qa", False)
        assert len(page["models"]) == 2  # each evaluation's scores, though its experiment cannot be read here
        assert b"<svg" in _get(server, f"/chart.svg?use_case={RETIRED}&kind=grade")
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def page():
    yield from viewer_page()


@browser_test
def test_in_the_browser_the_plugin_use_case_has_its_title_and_pass_rate_column(viewer, installed, page):
    page.goto(viewer.url)
    page.wait_for_selector("table.dash[data-use-case=support-qa]")
    heading = {name: page.locator(f"section:has(table.dash[data-use-case={name}]) h2").inner_text()
               for name in ("tickets", "support-qa", RETIRED, "qa")}
    assert heading["tickets"].startswith("Support ticket summaries")
    assert heading["support-qa"].startswith("Support questions") and heading["qa"].startswith("Question answering")
    assert heading[RETIRED].startswith(RETIRED)
    assert page.locator("table.dash[data-use-case=support-qa] th", has_text="Pass rate").count() == 1
    assert page.locator("table.dash[data-use-case=tickets] th", has_text="Pass rate").count() == 0
    page.goto(viewer.url + "item/support-qa/")
    page.wait_for_selector(".model-output")
    assert page.locator("h1").inner_text().startswith("Support questions · item ")
    assert page.locator(".rowlabel", has_text="Answer").count() == 1  # one answer row, not summary sections


# --- annotate ---------------------------------------------------------------------------------------------------

def test_annotate_rates_a_plugin_use_case_on_its_own_dimensions(workspace, installed, tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(workspace / "evaluation" / "tickets", ws / "evaluation")
    opened = open_session(ws / "evaluation", rater="ann", experiments_dir=workspace / "experiments" / "tickets",
                          size=4, seed=1)
    assert opened.sample.dimensions == ["accuracy", "tone"]
    state = opened.session.state()
    assert state["title"] == "Support ticket summaries" and state["dimensions"] == ["accuracy", "tone"]
    unit = state["unit"]["id"]
    opened.session.rate(unit, "tone", 4)
    opened.session.rate(unit, "accuracy", 2)
    with pytest.raises(BadAction):
        opened.session.rate(unit, "relevance", 3)  # summarization's dimension, not this use case's
    assert opened.session.state()["done"] == 1
    sheet = run_ratings_template(ws / "evaluation", tmp_path / "sheets", use_case="tickets",
                                 experiments_dir=workspace / "experiments" / "tickets")
    header = sheet.path.read_text().splitlines()[0]
    assert "accuracy" in header and "tone" in header and "relevance" not in header
