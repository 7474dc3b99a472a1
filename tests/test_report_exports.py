"""What the report exports: names and model fields inert in report.md and report.csv, chart images, JUnit XML."""

from __future__ import annotations

import csv
from pathlib import Path

import orjson

from gaia_eval.stages.eval.run import run_eval
from gaia_eval.stages.experiment.run import run_batch_experiment
from gaia_eval.stages.generate import run_generate
from gaia_eval.stages.groundtruth.run import run_groundtruth
from gaia_eval.stages.report.run import run_report

HOSTILE_NAME = "<img src=x onerror=alert(1)>|pwn"
FORMULA_MODEL = "=HYPERLINK(\"http://evil.example\",\"x\")"


def test_names_and_model_fields_are_escaped_in_markdown_and_neutral_in_csv(tmp_path: Path) -> None:
    run_generate("meeting", tmp_path / "docs", types=["standup"], seed=4)
    run_groundtruth(input_dir=tmp_path / "docs", use_case="summarization", output_dir=tmp_path / "gt")
    config = tmp_path / "c.json"
    config.write_bytes(orjson.dumps({"experiments": [
        {"name": HOSTILE_NAME, "provider": "baseline", "model": "lead"},
    ]}))
    run_batch_experiment(config, tmp_path / "gt", tmp_path / "exp", show_progress=False)
    experiment = next((tmp_path / "exp").glob("*.experiment.json"))
    data = orjson.loads(experiment.read_bytes())
    data["spec"]["model"] = FORMULA_MODEL  # as a hand-edited or imported experiment could say
    experiment.write_bytes(orjson.dumps(data))
    run_eval(experiment_dir=tmp_path / "exp", output_dir=tmp_path / "ev")
    run_report(tmp_path / "ev", tmp_path / "r" / "report.md")
    markdown = (tmp_path / "r" / "report.md").read_text()
    assert "<img" not in markdown and "&lt;img src=x onerror=alert(1)&gt;\\|pwn" in markdown
    table_rows = [line for line in markdown.splitlines() if line.startswith("| 1 |")]
    assert table_rows and all(row.count("|") - row.count("\\|") == table_rows[0].count("|") - table_rows[0].count("\\|")
                              for row in table_rows)
    rows = list(csv.DictReader((tmp_path / "r" / "report.csv").open()))
    assert rows and all(row["model"] == "'" + FORMULA_MODEL for row in rows)
    assert all(not row["experiment"].startswith(("=", "+", "-", "@")) for row in rows)


def test_the_quickstart_report_references_its_chart_images_and_they_exist(tmp_path: Path) -> None:
    from gaia_eval.stages.quickstart import run_quickstart

    run_quickstart(tmp_path, echo=lambda _: None)
    report = tmp_path / "reports" / "report.md"
    images = [line.split("](", 1)[1].rstrip(")") for line in report.read_text().splitlines() if line.startswith("![")]
    assert len(images) >= 9  # four charts per use case, three use cases (trade-off drawn when there is data)
    for rel in images:
        svg = (report.parent / rel).read_text()
        assert svg.startswith("<?xml") and "<svg" in svg and "<path" in svg  # a drawn chart, not an empty file


def test_junit_xml_has_one_case_per_item_and_fails_the_items_that_failed(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    from gaia_eval.artifacts.evaluation import Evaluation
    from gaia_eval.artifacts.store import read_artifact
    from gaia_eval.stages.quickstart import run_quickstart

    run_quickstart(tmp_path, echo=lambda _: None)
    root = ET.parse(tmp_path / "reports" / "report.junit.xml").getroot()
    suites = root.findall("testsuite")
    evaluations = [read_artifact(p, Evaluation) for p in (tmp_path / "evaluation").rglob("*.experiment.eval.json")]
    assert len(suites) == len(evaluations)
    for suite in suites:
        use_case, name = suite.get("name").split(".", 1)
        ev = next(e for e in evaluations if e.experiment_name == name and e.use_case == use_case)
        cases = suite.findall("testcase")
        assert [c.get("name") for c in cases] == [i.item_id for i in ev.items]
        assert int(suite.get("failures")) == sum(c.find("failure") is not None for c in cases)
        if ev.use_case == "qa":  # a qa item fails exactly when its answer did not pass
            assert [c.find("failure") is not None for c in cases] == [not i.passed for i in ev.items]


def test_the_report_gives_timing_tokens_and_cost_per_model(tmp_path: Path) -> None:
    from gaia_eval.stages.quickstart import run_quickstart

    run_quickstart(tmp_path, echo=lambda _: None)
    markdown = (tmp_path / "reports" / "report.md").read_text()
    assert markdown.count("### Time, tokens and cost per model") == 3  # one per use case
    assert "| $0 (local) | $0 (local) |" in markdown and "$0.000000" not in markdown  # free, and said so
    data = orjson.loads((tmp_path / "reports" / "report.json").read_bytes())
    for section in data["sections"]:
        for row in section["models"]:
            timing = row["timing"]
            assert timing["min_s"] <= timing["p50_s"] <= timing["p95_s"] <= timing["max_s"]
            assert timing["min_s"] <= timing["mean_s"] <= timing["max_s"]
            assert row["cost_per_item_usd"] == 0  # offline baselines cost nothing
    rows = list(csv.DictReader((tmp_path / "reports" / "report.csv").open()))
    assert all(float(r["latency_min_s"]) <= float(r["latency_p95_s"]) <= float(r["latency_max_s"]) for r in rows)
    assert {r["input_tokens"] for r in rows} == {"0"} and {r["cost_per_item_usd"] for r in rows} == {"0.0"}


def test_the_report_says_where_each_use_cases_ground_truth_came_from(tmp_path: Path) -> None:
    from gaia_eval.stages.quickstart import run_quickstart

    run_quickstart(tmp_path, echo=lambda _: None)
    markdown = (tmp_path / "reports" / "report.md").read_text()
    assert markdown.count("Ground truth of this use case: planted facts (generated documents).") == 3
    rows = list(csv.DictReader((tmp_path / "reports" / "report.csv").open()))
    assert {r["groundtruth"] for r in rows} == {"planted facts (generated documents)"}
    # the trail gone (ground-truth folder moved away): said so, not guessed
    (tmp_path / "groundtruth").rename(tmp_path / "elsewhere")
    run_report(tmp_path / "evaluation", tmp_path / "r2" / "report.md")
    assert "no longer where the experiment read them" in (tmp_path / "r2" / "report.md").read_text()
