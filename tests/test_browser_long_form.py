"""The viewer on long-form question answering (imported QMSum answers against their reference paragraphs): no
pass-rate column where no answer has a pass/fail, and the item view shows the reference paragraph beside each
answer with the free-text checks."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from gaia_eval.cli import cli
from tests.browser_support import serve_viewer
from tests.test_browser import SHOTS, page, pytestmark  # noqa: F401 - the browser fixture and its skip marks

QMSUM = Path(__file__).parent / "data" / "qmsum"


def _run(*args: str) -> None:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    ws = tmp_path_factory.mktemp("longform")
    for name in ("ES2009b.txt", "ES2009b.references.json"):
        shutil.copy(QMSUM / name, ws / name)
    _run(
        "import-groundtruth",
        str(ws / "ES2009b.references.json"),
        "--source-file",
        "{item_id}.txt",
        "--references-field",
        "general_queries.answer",
        "--qa-field",
        "specific_queries",
        "--question-key",
        "query",
        "-o",
        str(ws / "groundtruth"),
    )
    qa_gt = str(ws / "groundtruth" / "consolidated_qa_groundtruth.json")
    _run("batch-experiment", "-i", qa_gt, "-o", str(ws / "experiments" / "qa"), "--quiet")
    queries = json.loads((ws / "ES2009b.references.json").read_text())["specific_queries"]
    rows = "".join(json.dumps({"item_id": f"ES2009b#q{n:02d}", "system": "human", "output": q["answer"]}) + "\n"
                   for n, q in enumerate(queries, 1))
    (ws / "answers.jsonl").write_text(rows)
    _run("import-outputs", str(ws / "answers.jsonl"), "-g", qa_gt, "-o", str(ws / "experiments" / "qa"))
    _run("eval", "-d", str(ws / "experiments" / "qa"), "-g", qa_gt, "-o", str(ws / "evaluation" / "qa"))
    return ws


@pytest.fixture(scope="module")
def viewer(workspace):
    yield from serve_viewer(workspace)


def test_long_form_answers_show_their_reference_paragraph_and_no_pass_rate(viewer, workspace, page):  # noqa: F811
    page.goto(viewer.url)
    table = page.locator("table.dash[data-use-case=qa]")
    table.locator("tbody tr").first.wait_for()
    assert table.locator("tbody tr").count() == 3
    headers = [th.inner_text() for th in table.locator("th").all()]
    assert "Pass rate" not in headers and any("Grade" in h for h in headers)

    page.goto(viewer.url + "item/qa/" + "ES2009b%23q01")
    page.wait_for_selector(".model-output[data-model=human]")
    reference = json.loads((workspace / "ES2009b.references.json").read_text())["specific_queries"][0]["answer"]
    assert reference in page.locator(".truth").all_inner_texts()[1]
    human = page.locator(".model-output[data-model=human]").inner_text()
    assert "pass" not in human.split() and "fail" not in human.split()
    checks = page.locator(".out-cell[data-model=human] .check").all_inner_texts()
    assert any(c.startswith("Reference overlap") for c in checks) and not any(
        c.startswith("Correctness") for c in checks
    )
    page.screenshot(path=str(SHOTS / "long-form-item.png"), full_page=True)
