"""The report's exports a user opens elsewhere: chart images, JUnit XML, and names that cannot inject markup or
formulas."""

from __future__ import annotations

import csv
import re
from pathlib import Path
from xml.etree import ElementTree as ET

import orjson

from gaia_eval.stages.quickstart import run_quickstart
from gaia_eval.stages.report import run_report

HOSTILE = '=HYPERLINK("http://x")|<img src=x onerror=alert(1)>'


def test_hostile_names_are_escaped_in_markdown_and_neutralised_in_csv(tmp_path: Path):
    run_quickstart(tmp_path, echo=lambda _: None)
    ev_file = next((tmp_path / "evaluation" / "qa").glob("baseline-lead.experiment.eval.json"))
    ev = orjson.loads(ev_file.read_bytes())
    ev["experiment_name"], ev["model"] = HOSTILE, "@SUM(1+1)"
    ev_file.write_bytes(orjson.dumps(ev))
    out = tmp_path / "r" / "report.md"
    run_report(tmp_path / "evaluation", out)

    md = out.read_text()
    assert "<img" not in md and "&lt;img src=x onerror=alert(1)&gt;" in md
    table_rows = [line for line in md.splitlines() if "HYPERLINK" in line and line.startswith("| ")]
    escaped = '=HYPERLINK("http://x")\\|&lt;img src=x onerror=alert(1)&gt;'  # the pipe is not a column break
    assert table_rows and all(escaped in r for r in table_rows)

    rows = list(csv.DictReader(out.with_suffix(".csv").open()))
    names = {r["experiment"] for r in rows}
    assert "'" + HOSTILE in names and HOSTILE not in names
    assert {r["model"] for r in rows if r["experiment"].startswith("'=")} == {"'@SUM(1+1)"}


def test_report_has_charts_run_details_and_junit(tmp_path: Path):
    report = run_quickstart(tmp_path, echo=lambda _: None)
    md = report.read_text()
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md)
    assert {Path(i).name for i in images} >= {"qa-grade.svg", "qa-heatmap.svg", "summarization-items.svg"}
    assert all((report.parent / i).read_text().lstrip().startswith("<?xml") for i in images)
    assert "Tokens in / out" in md and "Ground truth: embedded" in md
    suites = ET.parse(report.with_suffix(".junit.xml")).getroot()
    qa_lead = next(s for s in suites if s.get("name") == "qa.baseline-lead")
    assert int(qa_lead.get("tests")) == 104 and int(qa_lead.get("failures")) > 0
    assert len(qa_lead.findall("testcase/failure")) == int(qa_lead.get("failures"))
