"""The reference tool's command-line shapes work as written (issue 11): lists as words or commas, and more."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from gaia_eval.cli import cli
from gaia_eval.cli.lists import fold_list_words


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_list_words_fold_into_one_value():
    opts = {"--meeting-types"}
    assert fold_list_words(["--meeting-types", "a", "b", "--count", "2"], opts) == [
        "--meeting-types",
        "a,b",
        "--count",
        "2",
    ]
    assert fold_list_words(["--meeting-types", "a,b", "-o", "x"], opts) == ["--meeting-types", "a,b", "-o", "x"]
    assert fold_list_words(["-o", "a", "b"], opts) == ["-o", "a", "b"]


def test_meeting_types_as_words_and_commas_make_the_same_documents(tmp_path: Path):
    words = run("generate", "--meeting-transcript", "-o", str(tmp_path / "w"), "--meeting-types", "standup",
                "planning", "--count-per-type", "1", "--quiet")
    commas = run("generate", "--meeting-transcript", "-o", str(tmp_path / "c"), "--meeting-types", "standup,planning",
                 "--count-per-type", "1", "--quiet")
    assert words.exit_code == 0 and commas.exit_code == 0, words.output + commas.output
    names = sorted(p.name for p in (tmp_path / "w").glob("*.txt"))
    assert names == sorted(p.name for p in (tmp_path / "c").glob("*.txt")) and len(names) == 2


def test_unknown_list_name_is_a_usage_error_listing_valid_names(tmp_path: Path):
    result = CliRunner().invoke(cli, ["generate", "--email", "-o", str(tmp_path), "--email-types", "customer_support",
                                      "bogus"])
    assert result.exit_code == 2
    assert "bogus" in result.output and "project_update" in result.output


def _workflow4(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert run("generate", "--meeting-transcript", "-o", "./test_data/meetings", "--meeting-types", "standup",
               "--count-per-type", "2", "--quiet").exit_code == 0
    assert run("groundtruth", "-d", "./test_data/meetings", "--use-case", "summarization", "-o", "./groundtruth",
               "--quiet").exit_code == 0


def test_templates_in_every_format_round_trip_and_score(tmp_path: Path, monkeypatch):
    from gaia_eval.artifacts.response_template import read_template, write_template

    _workflow4(tmp_path, monkeypatch)
    for fmt in ("json", "csv", "jsonl", "xml"):
        result = run("create-template", "-d", "./groundtruth", "--use-case", "summarization", "--format", fmt,
                     "-o", f"./t_{fmt}/")
        assert result.exit_code == 0, result.output
        path = tmp_path / f"t_{fmt}" / f"summarization.template.{fmt}"
        template = read_template(path)
        assert [r.test_id for r in template.records] == ["standup_meeting", "standup_meeting_2"]
        assert all(r.response == "" and r.input_text and r.evaluation_criteria for r in template.records)
        assert "ground_truth" not in path.read_text()
        for rec in template.records:
            rec.response = "Executive summary: The team met.\nParticipants:\n- Tom Nguyen"
        write_template(path, template)
        assert read_template(path).records[0].response.startswith("Executive summary")
        scored = run("eval", "-f", str(path), "-o", f"./ev_{fmt}")
        assert scored.exit_code == 0, scored.output
        assert (tmp_path / f"ev_{fmt}" / "summarization.experiment.eval.json").is_file()


def test_empty_response_is_an_error_item_named_in_the_summary(tmp_path: Path, monkeypatch):
    _workflow4(tmp_path, monkeypatch)
    assert (
        run("create-template", "-d", "./groundtruth", "--use-case", "summarization", "-o", "./templates/").exit_code
        == 0
    )
    _fill_first_response(tmp_path / "templates" / "summarization.template.json")
    result = CliRunner().invoke(cli, ["eval", "-d", "./templates", "-o", "./evaluation"])
    assert result.exit_code == 1
    assert "empty responses" in result.output and "standup_meeting_2" in result.output
    assert (tmp_path / "evaluation" / "summarization.experiment.eval.json").is_file()


def _fill_first_response(path: Path) -> None:
    """Fill only the first record's response (a template nobody filled in at all is not scored)."""
    import json

    lines = path.suffix == ".jsonl"
    records = [json.loads(line) for line in path.read_text().splitlines()] if lines else json.loads(path.read_text())
    first = records[0] if lines else records["records"][0]
    first["response"] = "Executive summary: the team reviewed the sprint."
    path.write_text("".join(json.dumps(r) + "\n" for r in records) if lines else json.dumps(records))


def test_template_listing_an_item_twice_is_refused(tmp_path: Path, monkeypatch):
    import csv

    _workflow4(tmp_path, monkeypatch)
    run("create-template", "-d", "./groundtruth", "--format", "csv", "-o", "./templates/")
    path = tmp_path / "templates" / "summarization.template.csv"
    rows = list(csv.DictReader(path.open()))
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows + rows[:1])
    result = CliRunner().invoke(cli, ["eval", "-d", "./templates", "-o", "./evaluation"])
    assert result.exit_code == 2 and "standup_meeting" in result.output and "twice" in result.output


def test_batch_experiment_without_config_runs_the_offline_default_on_a_shell_glob(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run("generate", "--meeting-transcript", "-o", "./test_data", "--meeting-types", "standup", "--quiet")
    run("generate", "--email", "-o", "./test_data/emails", "--email-types", "customer_support", "--quiet")
    run(
        "groundtruth",
        "-d",
        "./test_data",
        "-p",
        "standup*.txt",
        "--use-case",
        "summarization",
        "-o",
        "./groundtruth",
        "--quiet",
    )
    run("groundtruth", "-d", "./test_data/emails", "--use-case", "email", "-o", "./groundtruth", "--quiet")
    globbed = sorted(str(p.relative_to(tmp_path)) for p in (tmp_path / "groundtruth").glob("consolidated_*.json"))
    assert len(globbed) == 2
    result = run("batch-experiment", "-i", *globbed, "-o", "./experiments", "--quiet")
    assert result.exit_code == 0, result.output
    assert result.output.count("no -c/--config: running the default") == 2
    assert "0 requests sent to models" in result.output
    assert (tmp_path / "experiments" / "email" / "baseline-textrank.experiment.json").is_file()
    assert (tmp_path / "experiments" / "summarization" / "baseline-lead.experiment.json").is_file()
    # Method 2: raw documents, then -g with the same shell glob.
    assert run("batch-experiment", "-i", "./test_data", "-o", "./raw", "--quiet").exit_code == 0
    scored = run("eval", "-d", "./raw", "-g", *globbed, "-o", "./evaluation")
    assert scored.exit_code == 0 and "standalone" not in scored.output, scored.output


def test_eval_g_matching_no_item_is_refused(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run("generate", "--meeting-transcript", "-o", "./docs", "--meeting-types", "standup", "--quiet")
    run("generate", "--meeting-transcript", "-o", "./other", "--meeting-types", "planning", "--quiet")
    run("groundtruth", "-d", "./other", "-o", "./gt", "--quiet")
    assert run("batch-experiment", "-i", "./docs", "-o", "./exp", "--quiet").exit_code == 0
    result = CliRunner().invoke(cli, ["eval", "-d", "./exp", "-g", "./gt/consolidated_summarization_groundtruth.json",
                                      "-o", "./ev"])
    assert result.exit_code == 2 and "-g/--groundtruth" in result.output and not (tmp_path / "ev").exists()


def test_incremental_update_evaluates_new_experiments_and_regenerate_only_rebuilds(tmp_path: Path, monkeypatch):
    import shutil

    monkeypatch.chdir(tmp_path)
    run("generate", "--meeting-transcript", "-o", "./docs", "--meeting-types", "standup", "--quiet")
    run("groundtruth", "-d", "./docs", "-o", "./gt", "--quiet")
    assert (
        run(
            "batch-experiment", "-i", "./gt/consolidated_summarization_groundtruth.json", "-o", "./all", "--quiet"
        ).exit_code
        == 0
    )
    (tmp_path / "exp").mkdir()
    shutil.copy(tmp_path / "all" / "baseline-lead.experiment.json", tmp_path / "exp")
    first = run("eval", "-d", "./exp", "-o", "./ev", "--incremental-update")
    assert first.exit_code == 0 and "made 1" in first.output, first.output
    shutil.copy(tmp_path / "all" / "baseline-textrank.experiment.json", tmp_path / "exp")
    second = run("eval", "-d", "./exp", "-o", "./ev", "--incremental-update")
    assert "made 1, skipped 1" in second.output and "(1 of 2 entries read from changed" in second.output, second.output
    rebuilt = run("eval", "-d", "./exp", "-o", "./ev", "--regenerate-report")
    assert "made 0, skipped 0" in rebuilt.output and "(2 of 2 entries" in rebuilt.output, rebuilt.output
    (tmp_path / "ev" / "broken.experiment.eval.json").write_text("{not json")
    damaged = CliRunner().invoke(cli, ["eval", "-d", "./exp", "-o", "./ev"])
    assert damaged.exit_code == 1 and "broken.experiment.eval.json" in damaged.output


def test_a_system_with_no_known_cost_or_latency_shows_dashes_not_free_and_instant(tmp_path: Path, monkeypatch):
    _workflow4(tmp_path, monkeypatch)
    run("create-template", "-d", "./groundtruth", "-o", "./templates/", "--name", "Nobody")
    _fill_first_response(tmp_path / "templates" / "Nobody.template.json")
    CliRunner().invoke(cli, ["eval", "-d", "./templates", "-o", "./evaluation"])  # one response, the other empty
    assert run("batch-experiment", "-i", "./groundtruth", "-o", "./experiments", "--quiet").exit_code == 0
    assert run("eval", "-d", "./experiments", "-o", "./evaluation").exit_code == 0
    assert run("report", "-d", "./evaluation", "-o", "./reports/r.md").exit_code == 0
    rows = {line.split("|")[2].strip(): line for line in (tmp_path / "reports" / "r.md").read_text().splitlines()
            if line.startswith("| ") and line.count("|") > 10}
    nobody = [c.strip() for c in rows["Nobody"].split("|")]
    assert nobody[-3:-1] == ["unpriced", "—"] and "$0" not in rows["Nobody"]
    assert "$0 (local)" in rows["baseline-lead"]


def test_odd_input_is_refused_or_handled(tmp_path: Path, monkeypatch):
    import json

    monkeypatch.chdir(tmp_path)
    assert run("visualize", "--workspace", str(tmp_path / "nonexistent"), "--no-browser").exit_code == 2
    run("generate", "--meeting-transcript", "-o", "./docs", "--meeting-types", "standup", "--quiet")
    run("groundtruth", "-d", "./docs", "-o", "./gt", "--quiet")
    run("batch-experiment", "-i", "./gt", "-o", "./exp", "--quiet")
    assert run("eval", "-d", "./exp", "-o", "./ev").exit_code == 0
    (tmp_path / "reports").mkdir()
    assert run("report", "-d", "./ev", "-o", "reports").exit_code == 0
    assert (tmp_path / "reports" / "report.md").is_file() and not (tmp_path / "reports.md").exists()
    exp = tmp_path / "exp" / "baseline-lead.experiment.json"
    data = json.loads(exp.read_text())
    data["use_case"] = "qa"
    exp.write_text(json.dumps(data))
    result = CliRunner().invoke(cli, ["eval", "-d", "./exp", "-o", "./ev2"])
    assert result.exit_code == 2 and "use_case" in result.output and "baseline-lead" in result.output


def test_hints_name_the_command_that_fixes_it(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run("generate", "--meeting-transcript", "-o", "./docs", "--meeting-types", "standup", "--quiet")
    run("groundtruth", "-d", "./docs", "-o", "./gt", "--quiet")
    run("batch-experiment", "-i", "./gt", "-o", "./exp", "--quiet")
    run("eval", "-d", "./exp", "-o", "./ev")

    def hint(*args: str) -> str:
        result = CliRunner().invoke(cli, list(args))
        assert result.exit_code == 2, result.output
        return result.output

    assert "gaia-eval eval -d exp" in hint("report", "-d", "./exp")
    assert "gaia-eval report -d ev" in hint("eval", "-d", "./ev")
    assert "gaia-eval eval -d exp" in hint("batch-experiment", "-i", "./exp", "-o", "./x")
    assert "-f exp/baseline-lead.experiment.json" in hint("eval", "-d", "exp/baseline-lead.experiment.json")


def test_summarize_one_file_offline_and_through_a_real_sdk(tmp_path: Path, monkeypatch, fake_llm):
    import json

    monkeypatch.chdir(tmp_path)
    run("generate", "--meeting-transcript", "-o", ".", "--meeting-types", "standup", "--quiet")
    offline = run("summarize", "-i", "standup_meeting.txt", "--styles", "brief", "action_items", "-o", "s.json")
    assert offline.exit_code == 0 and "## Executive summary" in offline.output and "## Action items" in offline.output
    assert "## Participants" not in offline.output
    assert set(json.loads((tmp_path / "s.json").read_text())["summaries"]) == {"executive_summary", "action_items"}
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-summarize")
    llm = run("summarize", "-i", "standup_meeting.txt", "--styles", "all", "--combined-prompt", "--provider", "openai",
              "--model", "gpt-4o-mini", "--base-url", fake_llm.openai_base_url)
    assert llm.exit_code == 0, llm.output
    assert fake_llm.request_count == 1 and llm.output.count("## ") == 6  # combined: one call for six styles
    bad = CliRunner().invoke(cli, ["summarize", "-i", "standup_meeting.txt", "--styles", "brief", "haiku"])
    assert bad.exit_code == 2 and "haiku" in bad.output and "detailed" in bad.output


def test_a_folder_mixing_experiments_and_templates_is_scored_whole(tmp_path: Path, monkeypatch):
    _workflow4(tmp_path, monkeypatch)
    run("create-template", "-d", "./groundtruth", "--format", "jsonl", "--name", "Acme", "-o", "./mixed")
    _fill_first_response(tmp_path / "mixed" / "Acme.template.jsonl")
    run("batch-experiment", "-i", "./groundtruth", "-o", "./mixed", "--quiet")
    result = CliRunner().invoke(cli, ["eval", "-d", "./mixed", "-o", "./ev"])
    assert "made 3" in result.output and "Acme.template.jsonl: standup_meeting_2" in result.output
    assert sorted(p.name for p in (tmp_path / "ev").glob("*.eval.json")) == [
        "Acme.experiment.eval.json", "baseline-lead.experiment.eval.json", "baseline-textrank.experiment.eval.json"]
