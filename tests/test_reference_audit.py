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
    from gaia_eval.reporting.data import _criterion_rating

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
    assert acme_csv and all(
        r["latency_mean_s"] == r["latency_p50_s"] == r["latency_max_s"] == "" and r["cost_status"] == "unpriced"
        for r in acme_csv
    )

    viewer = {m["experiment_name"]: m for uc in dashboard(tmp_path / "ev")["use_cases"] for m in uc["models"]}
    assert all(m["rating"] == rating_band(m["grade"]) for m in viewer.values())
    assert viewer["Acme"]["cost_text"] == "unpriced" and viewer["Acme"]["latency_p50_s"] is None
    assert viewer["baseline-lead"]["cost_text"] == "$0 (local)"


def test_hints_name_the_option_and_command_of_the_command_run(tmp_path: Path, monkeypatch) -> None:
    _qa_workspace(tmp_path, monkeypatch)
    run("batch-experiment", "-i", "./gt", "-o", "./exp", "--quiet")
    run("eval", "-d", "./exp", "-o", "./ev")
    (tmp_path / "empty").mkdir()

    def hint(*args: str) -> str:
        return run(*args, expect=2).output

    # create-template takes -d, not batch-experiment's -i.
    assert "check -d," in hint("create-template", "-d", "./nothere", "-o", "./t")
    assert "point -d at your documents" in hint("create-template", "-d", "./empty", "-o", "./t")
    assert "with -d;" in hint("create-template", "-d", "./exp", "-o", "./t")
    # A folder of evaluations given as an input: the report is the next step.
    assert "gaia-eval report -d ev" in hint("create-template", "-d", "./ev", "-o", "./t")
    assert "gaia-eval report -d ev" in hint("batch-experiment", "-i", "./ev", "-o", "./x")
    # eval on the models' inputs: run them first, into a folder of their own (never -o into the inputs).
    for folder in ("gt", "docs"):
        text = hint("eval", "-d", f"./{folder}", "-o", "./ev2")
        assert (
            f"gaia-eval batch-experiment -i {folder} -o experiments" in text and f"create-template -d {folder}" in text
        )
    qa = hint("create-template", "-d", "./docs", "--use-case", "qa", "-o", "./t")
    assert "gaia-eval groundtruth -d docs --use-case qa -o groundtruth" in qa and "create-template -d groundtruth" in qa
    assert "is a folder" in hint("summarize", "-i", "./docs")


def test_regenerate_report_names_what_it_did_not_score_and_how_to_remake_damage(tmp_path: Path, monkeypatch) -> None:
    _qa_workspace(tmp_path, monkeypatch)
    run("batch-experiment", "-i", "./gt", "-o", "./exp", "--quiet")
    run("eval", "-f", "./exp/baseline-lead.experiment.json", "-o", "./ev")
    rebuilt = run("eval", "-d", "./exp", "-o", "./ev", "--regenerate-report").output
    assert "1 of 1 entries rebuilt from every evaluation file" in rebuilt
    assert "not evaluated yet" in rebuilt and "baseline-retrieval.experiment.json" in rebuilt
    assert "gaia-eval eval -d exp -o ev" in rebuilt
    (tmp_path / "ev" / "baseline-lead.experiment.eval.json").write_text("{damaged")
    damaged = run("eval", "-d", "./exp", "-o", "./ev", "--regenerate-report", expect=1).output
    assert "baseline-lead.experiment.eval.json" in damaged and "without --regenerate-report" in damaged
    remade = run("eval", "-d", "./exp", "-o", "./ev").output  # the hint's command remakes it
    assert "made 1" in remade and "redone 1" in remade


def test_generate_refuses_two_kinds_and_types_of_another_kind(tmp_path: Path) -> None:
    both = run("generate", "--email", "--meeting-transcript", "-o", str(tmp_path / "a"), expect=2).output
    assert "one kind per run" in both
    other = run("generate", "--email", "--meeting-types", "standup", "-o", str(tmp_path / "b"), expect=2).output
    assert "--meeting-types applies to --meeting-transcript" in other
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_visualize_refuses_a_folder_named_on_the_command_line_that_does_not_exist(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "evaluation").mkdir()
    text = run("visualize", "--experiments-dir", "./results", "--evaluations-dir", "./evaluation", "--no-browser",
               expect=2).output
    assert "results" in text and "--experiments-dir" in text
