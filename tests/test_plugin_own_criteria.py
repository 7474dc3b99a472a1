"""A package's use case graded by the package's own two-criterion scorer (tests/plugins/acme_gaia_incidents.py,
registered through entry points like any installed package) goes through every command that shows criteria:
ground truth and experiments by the `fake` model (no key, no server), eval, report, create-template, the viewer's
charts and item page, annotate's ratings sheet and meta-eval; its criteria show with their own labels."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_plugins import PLUGINS, TICKETS, _summaries_of, _write_tickets


@pytest.fixture
def run(tmp_path: Path):
    replies = {text.splitlines()[0]: _summaries_of(text) for text in TICKETS.values()}
    (tmp_path / "replies.json").write_text(json.dumps(replies))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(PLUGINS), os.environ.get("PYTHONPATH", "")]),
           "GAIA_EVAL_FAKE_REPLIES": str(tmp_path / "replies.json"), "GAIA_EVAL_CACHE_DIR": str(tmp_path / "cache")}

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "gaia_eval", *args], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=300)

    return run


def _ok(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return result.stdout


def test_a_use_case_graded_by_its_own_scorer_goes_through_every_command(run, tmp_path: Path):
    _write_tickets(tmp_path / "docs")
    _ok(run("groundtruth", "-d", "docs", "-u", "incidents", "-o", "gt", "--quiet", "--provider", "fake",
            "--model", "scripted"))
    config = {"experiments": [{"name": "scripted", "provider": "fake", "model": "scripted"},
                              {"name": "echo", "provider": "fake", "model": "echo"}]}
    (tmp_path / "config.json").write_text(json.dumps(config))
    _ok(run("batch-experiment", "-c", "config.json", "-i", "gt", "-o", "exp", "--quiet"))

    _ok(run("eval", "-d", "exp", "-o", "ev"))
    evaluation = json.loads(next((tmp_path / "ev").rglob("scripted*.eval.json")).read_text())
    assert evaluation["use_case"] == "incidents"
    assert [c["criterion"] for c in evaluation["criteria"]] == ["names_ticket", "states_next_step"]
    items = {i["item_id"]: i for i in evaluation["items"]}
    # the scripted summaries name the ticket and say what Sam / engineering will do: rated by the criterion's own
    # thresholds (the dict the scorer returns is read as `eval --scorer` reads it)
    assert all(i["status"] == "scored" for i in items.values())
    assert {c["criterion"]: c["rating"] for c in items["ticket_1"]["criteria"]} == {
        "names_ticket": "Excellent", "states_next_step": "Excellent"}
    assert evaluation["items"][0]["criteria"][0]["measure"].startswith("1 when the executive summary names")

    _ok(run("report", "-d", "ev", "-o", "reports/report.md"))
    report = (tmp_path / "reports" / "report.md").read_text()
    assert "## Incident write-ups" in report and "| Names the ticket | States the next step |" in report
    assert "`names_ticket`" in report and "the next agent finds the ticket by its number" in report  # its rubric

    _ok(run("create-template", "-d", "gt", "-u", "incidents", "-o", "templates"))
    template = json.loads(next((tmp_path / "templates").glob("*.template.json")).read_text())
    assert template["records"][0]["evaluation_criteria"] == {"names_ticket": "Names the ticket",
                                                              "states_next_step": "States the next step"}

    script = ("import json; from pathlib import Path; from gaia_eval.visualize import charts, data;"
              "drawn = charts.charts(Path('ev'), 'incidents');"
              "item = data.item_view(Path('ev'), Path('exp'), 'incidents', 'ticket_1');"
              "print(json.dumps({'charts': sorted(drawn or {}), 'labels': [c['label'] for m in item['models']"
              " for c in m['criteria']]}))")
    shown = json.loads(_ok(subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True,
                                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(PLUGINS)})))
    assert shown["charts"] and set(shown["labels"]) == {"Names the ticket", "States the next step"}

    said = _ok(run("create-template", "--ratings", "-e", "ev", "-o", "sheets", "--size", "4"))
    sheet = tmp_path / "sheets" / "incidents.ratings.csv"
    assert "incidents.ratings.csv" in said
    with sheet.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert rows and set(rows[0]) >= {"accuracy", "usefulness"}  # the use case's own rating dimensions
    for n, row in enumerate(rows):
        row.update(rater="ann", accuracy=str(1 + n % 5), usefulness=str(5 - n % 5))
    with sheet.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    script = ("import json; from pathlib import Path; from gaia_eval.annotate import open_session;"
              "s = open_session(Path('ev'), rater='bo', experiments_dir=Path('exp')).session; state = s.state();"
              "s.rate(state['unit']['id'], 'accuracy', 4);"
              "print(json.dumps([state['title'], state['dimensions'], s.state()['done']]))")
    rated = json.loads(_ok(subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True,
                                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(PLUGINS)})))
    assert rated[:2] == ["Incident write-ups", ["accuracy", "usefulness"]]  # annotate rates it on its dimensions
    _ok(run("meta-eval", "--evaluations", "ev", "-u", "incidents", str(sheet)))
    measured = json.loads(next((tmp_path / "ev").glob("meta_eval.incidents.json")).read_text())
    assert {"names_ticket", "states_next_step"} <= set(json.dumps(measured).replace('"', " ").split())
