"""The viewer's data behind issue 29's viewer items, read through a real server on 127.0.0.1: the tables' API
works out nothing over items (no grade interval, no chart) so they paint first; the item × system matrix
(filters, search, sort, paging, a template system's answers); the compare view's verdicts; which evaluation
folder a workspace with two of them shows; what a wrong address says; the cost chart left out with a reason."""

from __future__ import annotations

import json
import os
import shutil
import urllib.error
import urllib.request
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from gaia_eval.artifacts.evaluation import Evaluation
from gaia_eval.artifacts.experiment import Experiment
from gaia_eval.artifacts.store import read_artifact, write_artifact
from gaia_eval.cli import cli
from gaia_eval.stages.quickstart import run_quickstart
from gaia_eval.visualize.server import ViewerServer, make_roots

TEMPLATE_ANSWER = "The answer is Paris"


def copy_system(ws: Path, use_case: str, source: str, name: str) -> None:
    """Another system: `source`'s experiment and evaluation under a new name and model (as tests/perf does)."""
    ev = read_artifact(ws / "evaluation" / use_case / f"{source}.experiment.eval.json", Evaluation)
    exp = read_artifact(ws / "experiments" / use_case / f"{source}.experiment.json", Experiment)
    write_artifact(ws / "evaluation" / use_case / f"{name}.experiment.eval.json",
                   ev.model_copy(update={"experiment_name": name, "model": f"{ev.model}-{name}"}))
    write_artifact(ws / "experiments" / use_case / f"{name}.experiment.json",
                   exp.model_copy(update={"experiment_name": name,
                                          "spec": exp.spec.model_copy(update={"name": name})}))


def fill_template(ws: Path) -> None:
    """create-template -> fill -> eval, as a user scores a third-party system: every other answer is
    TEMPLATE_ANSWER, the rest "I do not know"."""
    runner = CliRunner()
    made = runner.invoke(cli, ["create-template", "-d", str(ws / "groundtruth" / "qa"), "-u", "qa", "--format",
                               "jsonl", "--name", "acme", "-o", str(ws / "templates")])
    assert made.exit_code == 0, made.output
    path = ws / "templates" / "acme.template.jsonl"
    lines = []
    for n, line in enumerate(path.read_text().splitlines()):
        row = json.loads(line)
        if "response" in row:
            row["response"] = TEMPLATE_ANSWER if n % 2 else "I do not know"
        lines.append(json.dumps(row))
    path.write_text("\n".join(lines) + "\n")
    scored = runner.invoke(cli, ["eval", "-f", str(path), "-o", str(ws / "evaluation" / "qa")])
    assert scored.exit_code == 0, scored.output


def matrix_workspace(ws: Path) -> Path:
    """The quickstart with four qa systems: its two baselines, a copy of one, and a filled template."""
    run_quickstart(ws, echo=lambda _: None)
    copy_system(ws, "qa", "baseline-retrieval", "retrieval-copy")
    fill_template(ws)
    return ws


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    return matrix_workspace(tmp_path_factory.mktemp("ws"))


@pytest.fixture(scope="module")
def viewer(workspace):
    server = ViewerServer("127.0.0.1", 0, make_roots(workspace, {}))
    server.start_background()
    yield server
    server.shutdown()
    server.server_close()


def get(server: ViewerServer, path: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(server.url.rstrip("/") + path, timeout=300) as response:
            return response.status, orjson.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, orjson.loads(err.read())


def test_the_tables_api_works_out_no_interval_and_no_chart(workspace, monkeypatch):
    """The dashboard's tables come first: their API resamples nothing and draws nothing (at 1,000 evaluations
    the intervals took 11 s, the charts tens); the intervals come from their own API, equal to the report's."""
    from gaia_eval.reporting.data import build_report_data
    from gaia_eval.scoring import rubric
    from gaia_eval.visualize import charts, data

    def refuse(*_args, **_kwargs):
        raise AssertionError("the tables' API worked out a bootstrap interval")

    charts._CHART_CACHE.clear()
    fresh = workspace / "fresh-index"  # a folder no index has seen: every file is loaded by this request
    shutil.copytree(workspace / "evaluation", fresh)
    with monkeypatch.context() as patched:
        patched.setattr(rubric, "bootstrap_ci", refuse)
        tables = data.dashboard(fresh, workspace / "reports")
    assert charts._CHART_CACHE == {}
    assert all(entry._evaluation is None for _path, entry in data.evaluation_index(fresh).current())  # no items read
    qa = next(uc for uc in tables["use_cases"] if uc["use_case"] == "qa")
    assert len(qa["models"]) == 4 and all("ci" not in row for row in qa["models"])
    report = next(s for s in build_report_data(fresh)["sections"] if s["use_case"] == "qa")
    expected = {r["experiment_name"]: [round(r["ci_low"], 1), round(r["ci_high"], 1)] for r in report["models"]}
    intervals = data.intervals(fresh, "qa")
    assert {row["experiment_name"]: intervals[row["file"]] for row in qa["models"]} == expected


def test_an_evaluation_whose_items_no_longer_validate_stays_listed_and_breaks_no_view(workspace, tmp_path):
    from gaia_eval.visualize import data

    root = tmp_path / "evaluation"
    shutil.copytree(workspace / "evaluation" / "qa", root / "qa")
    damaged = root / "qa" / "baseline-lead.experiment.eval.json"
    raw = orjson.loads(damaged.read_bytes())
    raw["items"][0] = {"item_id": raw["items"][0]["item_id"], "status": "not-a-status"}
    damaged.write_bytes(orjson.dumps(raw))
    (root / "qa" / "not-an-evaluation.experiment.eval.json").write_bytes(b'{"kind": "evaluation"}')
    [qa] = data.dashboard(root)["use_cases"]
    assert sorted(m["experiment_name"] for m in qa["models"]) == ["acme", "baseline-lead", "baseline-retrieval",
                                                                   "retrieval-copy"]
    assert data.intervals(root, "qa")["qa/baseline-lead.experiment.eval.json"] is None  # no items to resample
    view = data.item_view(root, workspace / "experiments", "qa", None)
    assert len(view["models"]) == 4


def test_the_matrix_pages_every_item_with_its_question_reference_and_each_systems_verdict(viewer):
    status, page = get(viewer, "/api/matrix?use_case=qa")
    assert status == 200
    assert [s["experiment_name"] for s in page["systems"]][:1] == ["baseline-retrieval"]  # best grade first
    assert len(page["systems"]) == 4 and page["n_items"] == page["total"] == 104
    assert (page["page"], page["pages"], len(page["rows"])) == (1, 3, 50)
    row = page["rows"][0]
    assert row["is_question"] and row["input"].endswith("?") and row["reference"]
    by_system = dict(zip([s["experiment_name"] for s in page["systems"]], row["cells"], strict=True))
    assert by_system["acme"]["output"] in (TEMPLATE_ANSWER, "I do not know")  # the template's answers, not "—"
    for cell in row["cells"]:
        assert cell["verdict"] == ("pass" if cell["passed"] else "fail") and 0 <= cell["score"] <= 100
    second = get(viewer, "/api/matrix?use_case=qa&page=2")[1]
    assert {r["item_id"] for r in second["rows"]}.isdisjoint({r["item_id"] for r in page["rows"]})
    last = get(viewer, "/api/matrix?use_case=qa&page=99")[1]
    assert last["page"] == 3 and len(last["rows"]) == 4  # past the end: the last page
    ids = [r["item_id"] for p in (1, 2, 3) for r in get(viewer, f"/api/matrix?use_case=qa&page={p}")[1]["rows"]]
    assert ids == sorted(ids) and len(set(ids)) == 104


def _all_rows(viewer, query: str) -> list[dict]:
    first = get(viewer, f"/api/matrix?use_case=qa&size=200&{query}")[1]
    assert first["pages"] == 1
    return first["rows"]


def test_the_matrix_filters_failing_and_disagreeing_items(viewer):
    every = _all_rows(viewer, "")
    failing = _all_rows(viewer, "filter=failing")
    disagree = _all_rows(viewer, "filter=disagree")

    def verdicts(row):
        return {c["verdict"] for c in row["cells"]}

    assert failing and len(failing) == sum(1 for r in every if verdicts(r) & {"fail", "error"})
    assert all(verdicts(r) & {"fail", "error"} for r in failing)
    assert disagree and all("pass" in verdicts(r) and verdicts(r) & {"fail", "error"} for r in disagree)
    assert len(disagree) == sum(1 for r in every if "pass" in verdicts(r) and verdicts(r) & {"fail", "error"})
    assert len(disagree) < len(failing) or all("pass" in verdicts(r) for r in failing)


def test_the_matrix_searches_outputs_questions_and_references_and_sorts_by_spread(viewer):
    found = _all_rows(viewer, "q=answer+IS+paris")  # case-insensitive, in a template system's output
    assert found and all(any(c["output"] == TEMPLATE_ANSWER for c in r["cells"]) for r in found)
    question = _all_rows(viewer, "")[0]["input"]
    assert question in [r["input"] for r in _all_rows(viewer, "q=" + urllib.request.quote(question.upper()))]
    assert _all_rows(viewer, "q=zzz-no-such-text") == []
    spread = [r["spread"] for r in _all_rows(viewer, "sort=spread")]
    assert spread == sorted(spread, reverse=True) and spread[0] > spread[-1]
    for row in _all_rows(viewer, "sort=spread")[:5]:
        scores = [c["score"] for c in row["cells"]]
        assert row["spread"] == round(max(scores) - min(scores), 1)
    assert [r["spread"] for r in _all_rows(viewer, "sort=-spread")] == sorted(spread)


@pytest.mark.parametrize("query", ["filter=nope", "sort=grade", "page=two", "size=x"])
def test_a_bad_matrix_request_is_a_400_that_says_why(viewer, query):
    status, body = get(viewer, f"/api/matrix?use_case=qa&{query}")
    assert status == 400 and body["error"]


def test_a_summary_matrix_shows_the_documents_opening_and_each_systems_sections(viewer):
    page = get(viewer, "/api/matrix?use_case=summarization&size=5")[1]
    row = page["rows"][0]
    assert not row["is_question"] and len(row["input"]) > 100
    assert "Executive summary:" in row["reference"]
    assert all("Executive summary:" in c["output"] and c["verdict"] in ("Excellent", "Good", "Fair", "Poor")
               for c in row["cells"])


def test_the_item_view_shows_a_template_systems_answers(viewer, workspace):
    item = get(viewer, "/api/item?use_case=qa")[1]
    acme = next(m for m in item["models"] if m["experiment_name"] == "acme")
    assert acme["output"] in (TEMPLATE_ANSWER, "I do not know") and acme["query"]


def test_the_compare_view_carries_each_sides_verdict_and_score(viewer, workspace):
    status, compared = get(viewer, "/api/compare?a=qa/baseline-lead.experiment.json"
                                   "&b=qa/baseline-retrieval.experiment.json")
    assert status == 200 and compared["scored"] == ["a", "b"]
    ev = read_artifact(workspace / "evaluation" / "qa" / "baseline-lead.experiment.eval.json", Evaluation)
    passed = {i.item_id: i.passed for i in ev.items}
    for row in compared["rows"]:
        assert row["a"]["verdict"] == ("pass" if passed[row["item_id"]] else "fail")
        assert row["b"]["verdict"] in ("pass", "fail") and row["b"]["score"] is not None


def test_a_wrong_address_says_what_was_not_found_and_where(viewer, workspace):
    status, body = get(viewer, "/api/file?root=evaluation&path=qa/typo.experiment.eval.json")
    assert status == 404 and "qa/typo.experiment.eval.json" in body["message"]
    assert str(workspace / "evaluation") in body["message"]
    status, body = get(viewer, "/api/matrix?use_case=nope")
    assert status == 404 and "'nope'" in body["message"]
    status, body = get(viewer, "/api/item?use_case=qa&item=no-such-item")
    assert status == 404 and "'no-such-item'" in body["message"]


def test_the_cost_chart_is_left_out_with_a_reason_when_no_model_has_a_cost(viewer, workspace):
    status, charts = get(viewer, "/api/charts?use_case=qa")
    assert status == 200 and "tradeoff" not in charts["kinds"] and {"grade", "items"} <= set(charts["kinds"])
    assert "no cost" in charts["left_out"]["tradeoff"]


def test_the_cost_chart_stays_when_a_model_has_a_cost(tmp_path):
    from gaia_eval.visualize import charts

    ws = tmp_path / "ws"
    run_quickstart(ws, echo=lambda _: None)
    path = ws / "evaluation" / "email" / "baseline-lead.experiment.eval.json"
    ev = read_artifact(path, Evaluation)
    write_artifact(path, ev.model_copy(update={"inference": ev.inference.model_copy(
        update={"cost_usd": 0.25, "cost_status": "priced"})}))
    assert "tradeoff" in charts.charts(ws / "evaluation", "email")
    assert charts.charts_left_out(ws / "evaluation", "email") == {}


def test_two_evaluation_folders_in_a_workspace_show_the_fuller_one_and_name_the_other(workspace, tmp_path):
    """Auto-detection picked the folder above both (the workspace), mixing them and losing the meta-evaluation
    beside one; it now picks one output folder and says where the other is."""
    from gaia_eval.visualize.discover import workspace_roots

    ws = tmp_path / "byod"
    shutil.copytree(workspace / "evaluation", ws / "eval")
    shutil.copytree(workspace / "experiments", ws / "exp")
    (ws / "eval-old" / "qa").mkdir(parents=True)
    shutil.copy(workspace / "evaluation" / "qa" / "acme.experiment.eval.json", ws / "eval-old" / "qa")
    older = os.stat(ws / "eval" / "qa" / "acme.experiment.eval.json").st_mtime + 3600
    os.utime(ws / "eval-old" / "qa" / "acme.experiment.eval.json", (older, older))  # newest, but fewer
    roots, notes = workspace_roots(ws, {})
    assert roots.folders["evaluation"] == ws / "eval" and roots.folders["experiments"] == ws / "exp"
    note = next(n for n in notes if n.startswith("evaluation:"))
    assert str(ws / "eval-old") in note and "--evaluations-dir" in note
