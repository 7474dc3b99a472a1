"""The viewer shows what was scored against (issue 21): the references `eval -g` used, in the item and compare
views (they read "Ground truth: none (standalone)" and "Expected —"); a workspace laid out as the README's
bring-your-own-data example (`gt/ exp/ eval/`) shows its evaluations, or the viewer says where it looked; and
`report` prints the viewer command. The browser tests drive Debian's chromium through Playwright."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gaia_eval.visualize import data
from gaia_eval.visualize.discover import workspace_roots
from gaia_eval.visualize.files import compare
from gaia_eval.visualize.server import ViewerServer

ROOT = Path(__file__).resolve().parent.parent
QMSUM = ROOT / "tests" / "data" / "qmsum"


def _byod_block() -> str:
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Bring your own data"):]
    return re.search(r"```bash\n(.*?)```", section, re.S).group(1)


@pytest.fixture(scope="module")
def byod(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The README's bring-your-own-data block, run as written on the two shipped QMSum meetings."""
    project = tmp_path_factory.mktemp("project")
    shutil.copytree(QMSUM, project / "tests" / "data" / "qmsum")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    run = subprocess.run(["bash", "-euo", "pipefail", "-c", _byod_block()], cwd=project, env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert (
        "browse it: gaia-eval visualize --workspace byod --evaluations-dir byod/eval --reports-dir byod" in run.stdout
    )
    return project / "byod"


def test_report_prints_the_viewer_command_for_its_folders(tmp_path: Path):
    from gaia_eval.stages.report.run import viewer_command

    assert viewer_command(Path("qs/evaluation"), Path("qs/reports"), []) == "gaia-eval visualize --workspace qs"
    assert viewer_command(Path("evaluation"), Path("reports"), []) == "gaia-eval visualize"
    assert viewer_command(Path("my ws/eval"), Path("my ws"), []) == (
        "gaia-eval visualize --workspace 'my ws' --evaluations-dir 'my ws/eval' --reports-dir 'my ws'")


def test_a_non_standard_workspace_finds_its_folders_below_it(byod: Path):
    roots, notes = workspace_roots(byod, {})
    assert roots.folders["evaluation"] == byod / "eval"
    assert roots.folders["experiments"] == byod / "exp"
    assert roots.folders["groundtruth"] == byod / "gt"
    assert roots.folders["reports"] == byod
    assert any(note.startswith("evaluation: no ") and "--evaluations-dir DIR" in note for note in notes)
    dashboard = data.dashboard(roots.folders["evaluation"], roots.folders["reports"])
    assert sum(len(uc["models"]) for uc in dashboard["use_cases"]) == 6


def test_a_workspace_with_no_evaluation_says_where_it_looked(tmp_path: Path):
    _roots, notes = workspace_roots(tmp_path, {})
    [note] = [n for n in notes if n.startswith("no evaluations to show")]
    assert str(tmp_path / "evaluation") in note and "*.experiment.eval.json" in note and "--evaluations-dir" in note


def test_the_item_view_of_an_eval_g_evaluation_carries_its_references(byod: Path):
    roots, _ = workspace_roots(byod, {})
    ev_root, exp_root = roots.folders["evaluation"], roots.folders["experiments"]
    references = json.loads((QMSUM / "ES2009b.references.json").read_text())
    summary = data.item_view(ev_root, exp_root, "summarization", "ES2009b")
    assert summary["groundtruth"] is not None, "the reference the scores were measured against is missing"
    assert summary["groundtruth"]["references"] == [q["answer"] for q in references["general_queries"]]
    assert summary["source"] and "remote" in summary["source"].lower()
    question = data.item_view(ev_root, exp_root, "qa", "ES2009b#q01")
    assert question["groundtruth"]["answer"] == references["specific_queries"][0]["answer"]


def test_the_compare_view_of_eval_g_experiments_fills_in_the_expected_answer(byod: Path):
    roots, _ = workspace_roots(byod, {})
    compared = data.with_external_expected(
        compare(roots, "experiments", "qa/human.experiment.json", "qa/baseline-lead.experiment.json"),
        roots.folders["evaluation"])
    references = json.loads((QMSUM / "ES2009b.references.json").read_text())
    row = next(r for r in compared["rows"] if r["item_id"] == "ES2009b#q01")
    assert row["expected"]["answer"] == references["specific_queries"][0]["answer"]


# -- in a real browser ---------------------------------------------------------------------------------------

from tests.browser_support import browser_test, viewer_page  # noqa: E402 - one browser setup for all


@pytest.fixture(scope="module")
def byod_viewer(byod: Path):
    roots, _ = workspace_roots(byod, {})  # as `gaia-eval visualize --workspace byod` builds them
    server = ViewerServer("127.0.0.1", 0, roots)
    server.start_background()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def page():
    yield from viewer_page()


@browser_test
def test_browser_a_non_standard_workspace_shows_its_evaluations(byod_viewer, page):
    page.goto(byod_viewer.url)
    page.wait_for_selector("table.dash tbody tr")
    names = {page.locator("table.dash tbody tr").nth(i).inner_text().split("\t")[0].split("\n")[0]
             for i in range(page.locator("table.dash tbody tr").count())}
    assert page.locator("table.dash tbody tr").count() == 6, names
    assert page.locator("table.dash").count() == 2  # summaries and questions


@browser_test
def test_browser_the_item_view_of_an_eval_g_evaluation_shows_the_reference_text(byod_viewer, page):
    reference = json.loads((QMSUM / "ES2009b.references.json").read_text())["specific_queries"][0]["answer"]
    page.goto(byod_viewer.url + "item/qa/" + "ES2009b%23q01")
    page.wait_for_selector(".model-output")
    truth = page.locator("#side-by-side .truth").nth(1).inner_text()
    assert "none (standalone)" not in truth
    assert reference[:60] in " ".join(truth.split())
    summary = json.loads((QMSUM / "ES2009b.references.json").read_text())["general_queries"][0]["answer"]
    page.goto(byod_viewer.url + "item/summarization/ES2009b")
    page.wait_for_selector(".model-output")
    assert summary[:60] in " ".join(page.locator("#side-by-side").inner_text().split())
