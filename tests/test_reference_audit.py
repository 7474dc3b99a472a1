"""Issue 11 audit: what a new user found still off after the reference command lines ran (bands of criterion
cells, cells of untimed answers, hints naming the wrong option, odd input accepted silently)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from click.testing import CliRunner

from gaia_eval.cli import cli
from gaia_eval.scoring.rubric import rating_band


def run(*args: str, expect: int = 0):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == expect, result.output
    return result


def _qa_workspace(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    run("generate", "--meeting-transcript", "-o", "./docs", "--meeting-types", "standup", "planning", "--quiet")
    run("groundtruth", "-d", "./docs", "--use-case", "qa", "-o", "./gt", "--quiet")


def test_a_criterion_cell_reads_the_band_of_its_own_score() -> None:
    from gaia_eval.stages.report import _criterion_rating

    # 33 Excellent and 7 Poor: the median item is Excellent, but the score (82.5) is in the Good band.
    assert _criterion_rating({"Excellent": 33, "Poor": 7}) == "Good"
    assert _criterion_rating({"Excellent": 9, "Good": 1}) == "Excellent"  # 96.7
    assert _criterion_rating({"N/A": 3}) == "N/A"


def test_report_json_csv_and_viewer_agree_on_bands_and_honest_cells(tmp_path: Path, monkeypatch) -> None:
    from gaia_eval.visualize.data import dashboard

    _qa_workspace(tmp_path, monkeypatch)
    run("batch-experiment", "-i", "./gt/consolidated_qa_groundtruth.json", "-o", "./exp", "--quiet")
    run("create-template", "-d", "./gt", "--use-case", "qa", "--format", "csv", "--name", "Acme", "-o", "./exp")
    path = tmp_path / "exp" / "Acme.template.csv"
    rows = list(csv.DictReader(path.open(newline="")))
    for row in rows:
        row["response"] = "I do not know."
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    run("eval", "-d", "./exp", "-o", "./ev")
    run("report", "-d", "./ev", "-o", "./rep/r.md")

    data = json.loads((tmp_path / "rep" / "r.json").read_text())
    models = {m["experiment_name"]: m for s in data["sections"] for m in s["models"]}
    assert set(models) == {"Acme", "baseline-lead", "baseline-retrieval"}
    for m in models.values():
        assert m["overall_rating"] == rating_band(m["quality_score"])
        for c in m["criteria"].values():
            assert c["rating"] == rating_band(c["score"]), (m["experiment_name"], c)
    acme = models["Acme"]
    assert acme["cost_text"] == "unpriced" and acme["latency_text"] == "—"
    assert acme["latency_mean_s"] is None and acme["timing"] is None  # answers pasted in: nobody timed them
    assert models["baseline-lead"]["timing"] is not None
    report = (tmp_path / "rep" / "r.md").read_text()
    summary_row = next(line for line in report.splitlines() if line.startswith("| 3 | Acme |"))
    timing_row = next(line for line in report.splitlines() if line.startswith("| Acme | — |"))  # no latency
    assert summary_row.endswith("| unpriced | — |") and "0.000" not in timing_row
    with (tmp_path / "rep" / "r.csv").open(newline="") as f:
        acme_csv = [r for r in csv.DictReader(f) if r["experiment"] == "Acme"]
    assert acme_csv and all(r["latency_mean_s"] == "" and r["cost_status"] == "unpriced" for r in acme_csv)

    viewer = {m["experiment_name"]: m for uc in dashboard(tmp_path / "ev")["use_cases"] for m in uc["models"]}
    assert all(m["rating"] == rating_band(m["grade"]) for m in viewer.values())
    assert viewer["Acme"]["cost_text"] == "unpriced" and viewer["Acme"]["latency_p50_s"] is None
    assert viewer["baseline-lead"]["cost_text"] == "$0 (local)"
