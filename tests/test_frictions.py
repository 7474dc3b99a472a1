"""Frictions a new user meets (issue 21): a missing key reported before any SDK loads, a report with nothing
new that draws nothing, help with an example, and the reason of a failed run printed where it is seen."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gaia_eval.stages.quickstart import run_quickstart

HEAVY = ("anthropic", "openai", "matplotlib", "scipy", "numpy", "rouge_score")


def run_cli_in_subprocess(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[int, str, set[str]]:
    """Run the CLI in a fresh interpreter; its exit code, stderr and which heavy modules it imported."""
    code = (
        "import sys\nfrom gaia_eval.cli import main\n"
        f"sys.argv = ['gaia-eval', *{args!r}]\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    code = exc.code\nelse:\n    code = 0\n"
        f"print('MODULES', ' '.join(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)\n"
        "sys.exit(code)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={**os.environ, **(env or {})})
    modules_line = [line for line in done.stderr.splitlines() if line.startswith("MODULES")][-1]
    return done.returncode, done.stderr, set(modules_line.split()[1:])


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("frictions") / "qs"
    run_quickstart(out, echo=lambda _line: None)
    return out


def test_a_missing_judge_key_fails_before_the_sdk_is_imported_or_anything_scored(workspace: Path, tmp_path: Path):
    env = {k: v for k, v in os.environ.items() if k != "ANTHROPIC_API_KEY"}
    out = tmp_path / "judged"
    code = (
        "import sys\nfrom gaia_eval.cli import main\n"
        f"sys.argv = ['gaia-eval', 'eval', '-d', {str(workspace / 'experiments' / 'summarization')!r}, '-o', "
        f"{str(out)!r},"
        " '--judge', 'anthropic:claude-sonnet-4-5']\n"
        "import gaia_eval.stages.eval.run as stage\n"
        "scored = []\noriginal = stage.score_items\n"
        "stage.score_items = lambda *a, **k: scored.append(1) or original(*a, **k)\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    print('EXIT', exc.code, 'anthropic' in sys.modules, "
        "len(scored))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env)
    assert "ANTHROPIC_API_KEY is not set" in done.stderr and "Traceback" not in done.stderr
    assert done.stdout.split() == ["EXIT", "2", "False", "0"]  # no SDK import, no item scored
    assert not out.exists()


def test_a_report_with_nothing_new_draws_nothing_and_imports_no_plotting(workspace: Path):
    report = workspace / "reports" / "report.md"
    charts = sorted((workspace / "reports" / "report_charts").glob("*.svg"))
    assert charts
    before = {p: p.stat().st_mtime_ns for p in charts}
    code, err, modules = run_cli_in_subprocess(["report", "-d", "evaluation", "-o", "reports/report.md"], workspace)
    assert code == 0, err
    assert not modules & {"matplotlib", "numpy", "scipy", "rouge_score"}, modules
    assert {p: p.stat().st_mtime_ns for p in charts} == before
    # A changed evaluation redraws the charts of its section (the comment records what each was drawn from).
    grade = workspace / "reports" / "report_charts" / "summarization-grade.svg"
    grade.write_bytes(grade.read_bytes().replace(b"chart inputs: sha256:", b"chart inputs: stale", 1))
    code, err, modules = run_cli_in_subprocess(["report", "-d", "evaluation", "-o", "reports/report.md"], workspace)
    assert code == 0 and "matplotlib" in modules
    assert b"chart inputs: stale" not in grade.read_bytes()
    assert report.exists()


def test_a_quickstart_run_again_imports_no_heavy_library(workspace: Path):
    code, err, modules = run_cli_in_subprocess(["quickstart", "-o", "."], workspace)
    assert code == 0, err
    assert not modules, modules


def _rows_file(path: Path, n: int) -> Path:
    sys.path.insert(0, str(Path(__file__).parent / "perf"))
    from bench_import import write_rows

    write_rows(path, n)
    return path


def test_import_groundtruth_flushes_to_disk_once_per_folder_not_once_per_item(tmp_path: Path, monkeypatch):
    """The per-item fsync (two per item: the file and its folder) was what made an import take 15 ms per item."""
    import gaia_eval.artifacts.store as store
    from gaia_eval.artifacts.groundtruth import ConsolidatedGroundTruth, GroundTruth
    from gaia_eval.stages.imports.groundtruth import run_import_groundtruth

    calls = {"fsync": 0}
    real_fsync = os.fsync
    monkeypatch.setattr(store.os, "fsync", lambda fd: calls.__setitem__("fsync", calls["fsync"] + 1) or real_fsync(fd))
    data = _rows_file(tmp_path / "rows.jsonl", 300)
    summary = run_import_groundtruth([data], tmp_path / "gt")
    assert summary.made == 600
    assert calls["fsync"] <= 8, calls  # one folder, two use cases: a handful, whatever the number of items
    consolidated = store.read_artifact(tmp_path / "gt" / "consolidated_qa_groundtruth.json", ConsolidatedGroundTruth)
    assert len(consolidated.items) == 300
    # The consolidated file holds exactly what each item's file holds, with that file's fingerprint.
    entry = consolidated.source_files[7]
    item_file = tmp_path / "gt" / entry.groundtruth_file
    assert entry.fingerprint == store.fingerprint_file(item_file)
    assert store.read_artifact(item_file, GroundTruth) == consolidated.items[7]
    assert not list((tmp_path / "gt").glob(".*.tmp"))
    again = run_import_groundtruth([data], tmp_path / "gt")
    assert again.made == 0


def test_a_failed_batch_write_leaves_no_temp_file_and_no_partial_target(tmp_path: Path, monkeypatch):
    import errno

    import gaia_eval.artifacts.store as store
    from gaia_eval.errors import StorageError

    real_replace = os.replace
    seen = []

    def full_disk_on_third(src, dst):
        seen.append(dst)
        if len(seen) == 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(store.os, "replace", full_disk_on_third)
    files = [(tmp_path / f"f{i}.json", f"{i}\n".encode()) for i in range(5)]
    with pytest.raises(StorageError):
        store.atomic_write_many(files)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f0.json", "f1.json"]


def test_a_failed_experiment_prints_its_first_error_reason_at_the_cli(fake_llm, tmp_path: Path):
    """Only '157 of 157 items errored' was printed; the reason was in the JSON alone."""
    from click.testing import CliRunner

    from gaia_eval.cli import cli

    runner = CliRunner()
    assert runner.invoke(cli, ["generate", "--meeting-transcript", "-o", str(tmp_path / "docs"), "--meeting-types",
                               "standup", "--quiet"]).exit_code == 0
    assert runner.invoke(cli, ["groundtruth", "-d", str(tmp_path / "docs"), "-u", "qa", "-o", str(tmp_path / "gt"),
                               "--quiet"]).exit_code == 0
    fake_llm.script([{"fault": "400", "error_body": {"error": {"message": "model 'm' is not loaded"}}}] * 100)
    config = tmp_path / "c.json"
    config.write_text('{"experiments": [{"name": "local", "provider": "llamacpp", "model": "m", "base_url": "'
                      + fake_llm.openai_base_url + '"}]}')
    result = runner.invoke(cli, ["batch-experiment", "-c", str(config), "-i", str(tmp_path / "gt"), "-o",
                                 str(tmp_path / "exp"), "--quiet"])
    assert result.exit_code == 1
    [failure] = [line for line in result.output.splitlines() if "failed: local:" in line]
    assert "items errored; first (standup_meeting#" in failure and "400" in failure, failure


def test_every_command_help_ends_with_an_example_that_parses():
    """No --help had an example; each example must also be a command line its command accepts."""
    import shlex

    from click.testing import CliRunner

    from gaia_eval.cli import cli

    assert len(cli.commands) >= 15
    for name, command in cli.commands.items():
        help_text = CliRunner().invoke(cli, [name, "--help"]).output
        assert "Example:" in help_text or "Examples:" in help_text, name
        examples = [line.strip() for line in help_text.split("Example")[1].splitlines()[1:] if line.strip()]
        assert examples, name
        for example in examples:
            words = shlex.split(example)
            assert words[:2] == ["gaia-eval", name], example
            command.make_context(name, words[2:])  # raises on an unknown option or a missing argument


def test_a_template_nobody_filled_in_is_not_scored_so_it_never_ranks_as_a_model(tmp_path: Path):
    """Empty templates evaluated into evaluation/ ranked as "0.0" models in the main report."""
    import json

    from click.testing import CliRunner

    from gaia_eval.cli import cli

    runner = CliRunner()
    assert runner.invoke(cli, ["generate", "--meeting-transcript", "-o", str(tmp_path / "docs"), "--meeting-types",
                               "standup", "--quiet"]).exit_code == 0
    assert runner.invoke(cli, ["groundtruth", "-d", str(tmp_path / "docs"), "-u", "qa", "-o", str(tmp_path / "gt"),
                               "--quiet"]).exit_code == 0
    templates = tmp_path / "templates"
    for name in ("Empty", "Acme"):
        made = runner.invoke(cli, ["create-template", "-d", str(tmp_path / "gt"), "-u", "qa", "--name", name, "-o",
                                   str(templates)])
        assert made.exit_code == 0, made.output
    acme = templates / "Acme.template.json"
    data = json.loads(acme.read_text())
    for record in data["records"]:
        record["response"] = "Dana"
    acme.write_text(json.dumps(data))
    result = runner.invoke(cli, ["eval", "-d", str(templates), "-o", str(tmp_path / "ev")])
    assert result.exit_code == 1
    assert "not scored, no response filled in yet: Empty.template.json" in result.output
    assert "1 template(s) have no response filled in and were not scored" in result.output
    assert [p.name for p in (tmp_path / "ev").glob("*.eval.json")] == ["Acme.experiment.eval.json"]
