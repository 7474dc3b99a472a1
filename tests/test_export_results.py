"""report --format eee|inspect: an evaluation as Every Eval Ever records (valid against that project's schemas, the
numbers those of the evaluation) and as an Inspect log (inspect_ai opens and lists it); and the round trip:
import-results of the exported log writes the experiment and ground truth back byte for byte, and eval on them
gives the evaluation again (its `evaluated_at` aside)."""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from gaia_eval.cli import cli

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "tests" / "data" / "eee"
EVALUATION = Path("evaluation") / "retrieval.experiment.eval.json"
EXPERIMENT = Path("experiments") / "retrieval.experiment.json"
GROUNDTRUTH = Path("gt") / "consolidated_qa_groundtruth.json"
EVAL_ARGS = ["eval", "-d", "experiments", "-g", str(GROUNDTRUTH), "-o", "evaluation"]


@contextlib.contextmanager
def _inside(folder: Path) -> Iterator[None]:
    before = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def _run(*args: str):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two meetings, their questions, the offline retrieval baseline's answers, scored against the ground truth
    file (-g), everything named relative to the workspace, as a user runs it."""
    ws = tmp_path_factory.mktemp("scored")
    with _inside(ws):
        _run("generate", "--meeting-transcript", "-o", "docs", "--meeting-types", "standup", "--count-per-type", "2",
             "--seed", "3")
        _run("groundtruth", "-d", "docs", "-u", "qa", "-o", "gt")
        Path("config.json").write_text(json.dumps(
            {"experiments": [{"name": "retrieval", "provider": "baseline", "model": "retrieval"}]}))
        _run("batch-experiment", "-c", "config.json", "-i", "gt", "-o", "experiments")
        _run(*EVAL_ARGS)
    return ws


@pytest.fixture
def workspace(scored: Path, tmp_path: Path) -> Iterator[Path]:
    ws = tmp_path / "ws"
    shutil.copytree(scored, ws)
    with _inside(ws):
        yield ws


def _evaluation() -> dict:
    return json.loads(EVALUATION.read_text())


def _eee_files() -> tuple[Path, Path]:
    (aggregate,) = Path("reports/eee").glob("data/*/*/*/*-*.json")
    return aggregate, aggregate.with_name(aggregate.stem + "_samples.jsonl")


def test_eee_records_are_valid_and_say_what_the_evaluation_says(workspace: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is in the test extra: pip install -e '.[test]'")
    _run("report", "-d", "evaluation", "-o", "reports/report.md", "--format", "eee")
    assert not Path("reports/report.md").exists()  # only what --format names
    aggregate_path, samples_path = _eee_files()
    aggregate = json.loads(aggregate_path.read_text())
    rows = [json.loads(line) for line in samples_path.read_text().splitlines()]
    jsonschema.validate(aggregate, json.loads((SCHEMAS / "eval.schema.json").read_text()))
    instance_schema = json.loads((SCHEMAS / "instance_level_eval.schema.json").read_text())
    for row in rows:
        jsonschema.validate(row, instance_schema)
    assert aggregate_path.parts[-4:-1] == ("gaia-eval_qa", "baseline", "retrieval")  # the datastore's layout

    evaluation = _evaluation()
    results = {r["evaluation_result_id"]: r["score_details"] for r in aggregate["evaluation_results"]}
    assert results["quality_score"]["score"] == evaluation["grade"]["quality_score"]
    assert results["pass_rate"]["score"] == evaluation["grade"]["pass_rate"]
    interval = results["quality_score"]["uncertainty"]["confidence_interval"]
    assert interval["lower"] <= evaluation["grade"]["quality_score"] <= interval["upper"]
    # one grade row and one pass/fail row per item, for every item, with its verdict
    items = {i["item_id"]: i for i in evaluation["items"]}
    passes = {r["sample_id"]: r["evaluation"]["is_correct"] for r in rows if r["evaluation_result_id"] == "pass_rate"}
    assert passes == {item_id: item["passed"] for item_id, item in items.items()}
    assert sum(passes.values()) / len(passes) == evaluation["grade"]["pass_rate"]
    assert len(rows) == 2 * len(items)
    detail = aggregate["detailed_evaluation_results"]
    assert detail["file_path"] == "/".join(samples_path.parts[-5:]) and detail["total_rows"] == len(rows)
    assert detail["checksum"] == hashlib.sha256(samples_path.read_bytes()).hexdigest()
    experiment = json.loads(EXPERIMENT.read_text())
    first = experiment["items"][0]
    row = next(r for r in rows if r["sample_id"] == first["item_id"])
    assert row["input"]["raw"] == first["query"] and row["output"]["raw"] == [first["answer"]]
    assert row["input"]["reference"] == [first["groundtruth_answer"]["answer"]]

    before = aggregate_path.read_bytes()
    again = _run("report", "-d", "evaluation", "-o", "reports/report.md", "--format", "eee")
    assert "made 0" in again.output and aggregate_path.read_bytes() == before  # same evaluation, same bytes


def test_the_judges_grade_and_ratings_are_exported(workspace: Path, fake_llm, monkeypatch) -> None:
    from tests.test_judge import judge_responder

    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is in the test extra: pip install -e '.[test]'")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-openai")
    fake_llm.responder = judge_responder
    _run("eval", "-d", "experiments", "-g", str(GROUNDTRUTH), "-o", "judged", "--judge", "openai:gpt-4o-mini",
         "--judge-base-url", fake_llm.openai_base_url)
    _run("report", "-d", "judged", "-o", "judged_reports/report.md", "--format", "eee", "--format", "inspect")
    evaluation = json.loads(Path("judged/retrieval.experiment.eval.json").read_text())
    (aggregate_path,) = Path("judged_reports/eee").glob("data/*/*/*/*-*.json")
    aggregate = json.loads(aggregate_path.read_text())
    jsonschema.validate(aggregate, json.loads((SCHEMAS / "eval.schema.json").read_text()))
    judged = next(r for r in aggregate["evaluation_results"] if r["evaluation_result_id"] == "judge.quality_score")
    assert judged["score_details"]["score"] == evaluation["judge"]["grade"]["quality_score"]
    assert judged["metric_config"]["llm_scoring"]["judges"][0]["model_info"]["id"] == "openai/gpt-4o-mini"
    (log_path,) = Path("judged_reports/inspect").glob("*.json")
    log = json.loads(log_path.read_text())
    points = {"Excellent": 1.0, "Good": 2 / 3, "Fair": 1 / 3, "Poor": 0.0}
    for sample, item in zip(log["samples"], evaluation["items"], strict=True):
        ratings = {f"judge/{c['criterion']}": c["rating"] for c in item["judge"]["criteria"]}
        assert ratings and {k: v["answer"] for k, v in sample["scores"].items() if k.startswith("judge/")} == ratings
        assert all(sample["scores"][k]["value"] == points[r] for k, r in ratings.items())


def _every_eval_ever_python() -> str | None:
    candidates = [os.environ.get("GAIA_EVAL_EEE_PYTHON"), shutil.which("python3.12"), shutil.which("python3.13")]
    for python in filter(None, candidates):
        probe = subprocess.run([python, "-c", "import every_eval_ever"], capture_output=True, check=False)
        if probe.returncode == 0:
            return python
    return None


@pytest.mark.eee
def test_eee_records_pass_the_every_eval_ever_validator(workspace: Path) -> None:
    python = _every_eval_ever_python()
    if python is None:
        pytest.skip("no Python >= 3.12 with every-eval-ever installed: set GAIA_EVAL_EEE_PYTHON to one "
                    "(python3.12 -m venv V && V/bin/pip install every-eval-ever)")
    _run("report", "-d", "evaluation", "-o", "reports/report.md", "--format", "eee")
    aggregate, samples = _eee_files()
    result = subprocess.run(
        [python, "-m", "every_eval_ever", "validate", "--format", "json", str(aggregate.resolve()),
         str(samples.resolve())], capture_output=True, text=True, check=False)
    reports = json.loads(result.stdout)
    assert [(r["valid"], r["errors"], r["warnings"]) for r in reports] == [(True, [], [])] * 2, result.stdout
    assert result.returncode == 0


def _inspect_log() -> Path:
    _run("report", "-d", "evaluation", "-o", "reports/report.md", "--format", "inspect")
    (log,) = Path("reports/inspect").glob("*.json")
    return log


def test_inspect_log_opens_in_inspect_ai_and_is_listed(workspace: Path) -> None:
    if importlib.util.find_spec("inspect_ai") is None:
        pytest.skip("inspect_ai is not installed (pip install inspect-ai): the log is checked by the import below")
    from inspect_ai.log import list_eval_logs, read_eval_log

    log_path = _inspect_log()
    log = read_eval_log(str(log_path))
    evaluation = _evaluation()
    assert log.status == "success" and log.eval.model == "baseline/retrieval"
    assert [s.id for s in log.samples or []] == [i["item_id"] for i in evaluation["items"]]
    metrics = {s.name: {k: m.value for k, m in s.metrics.items()} for s in log.results.scores}
    assert metrics["pass"]["accuracy"] == evaluation["grade"]["pass_rate"]
    assert metrics["grade"]["quality_score"] == evaluation["grade"]["quality_score"]
    first = (log.samples or [])[0]
    assert first.output.completion == json.loads(EXPERIMENT.read_text())["items"][0]["answer"]
    assert [Path(info.name).name for info in list_eval_logs("reports/inspect")] == [log_path.name]  # inspect view


def test_import_of_the_exported_log_gives_the_evaluation_back(workspace: Path, tmp_path: Path) -> None:
    log = _inspect_log()
    back = tmp_path / "back"
    result = _run("import-results", str(log), "-o", str(back))
    assert "restored" in result.output
    for original in (EXPERIMENT, GROUNDTRUTH):
        assert (back / original).read_bytes() == original.read_bytes(), original
    evaluation = _evaluation()
    with _inside(back):
        _run(*EVAL_ARGS)
        again = _evaluation()
    assert again.pop("evaluated_at") != evaluation.pop("evaluated_at")  # the one field a new run changes
    assert again == evaluation


def test_an_exported_log_without_gaia_evals_block_imports_as_any_inspect_log(workspace: Path, tmp_path: Path) -> None:
    """Read as any Inspect log (gaia-eval's own block taken out), its samples and scorers stand on their own: the
    headline figures are the means of the samples' values, which import-results recomputes to the last digit."""
    log = _inspect_log()
    data = json.loads(log.read_text())
    del data["eval"]["metadata"]["gaia_eval"]
    for sample in data["samples"]:
        sample["metadata"] = {}
    log.write_text(json.dumps(data))
    imported = _run("import-results", str(log), "-o", str(tmp_path / "imported"))
    assert "restored" not in imported.output
    grade = _evaluation()["grade"]
    assert f"pass/accuracy {grade['pass_rate']:g} = {grade['pass_rate']:g} from {grade['n_items']} items" in (
        imported.output)
    assert "grade/mean" in imported.output


def test_an_evaluation_whose_experiment_is_gone_is_exported_with_a_note(workspace: Path) -> None:
    EXPERIMENT.rename("moved.json")
    result = _run("report", "-d", "evaluation", "-o", "reports/report.md", "--format", "inspect", "--format", "eee")
    assert "experiment file experiments/retrieval.experiment.json not found" in result.output
    (log,) = Path("reports/inspect").glob("*.json")
    assert "gaia_eval" not in json.loads(log.read_text())["eval"]["metadata"]
    aggregate, samples = _eee_files()
    assert "detailed_evaluation_results" not in json.loads(aggregate.read_text()) and not samples.exists()


def test_a_damaged_exported_log_is_one_line_and_writes_nothing(workspace: Path, tmp_path: Path) -> None:
    log = _inspect_log()
    data = json.loads(log.read_text())
    del data["samples"][1]["metadata"]["gaia_eval"]["item"]
    log.write_text(json.dumps(data))
    result = CliRunner().invoke(cli, ["import-results", str(log), "-o", str(tmp_path / "back")])
    assert result.exit_code == 2, result.output
    assert "samples[1].metadata.gaia_eval.item" in result.output and len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "back").exists()


def test_the_eval_zip_form_of_the_log_restores_the_same(workspace: Path, tmp_path: Path) -> None:
    """As `inspect log convert --to eval` stores it: a zip of the header and one member per sample, a sample id
    holding '/' (a document in a subfolder) as a nested member name."""
    log = json.loads(_inspect_log().read_text())
    samples = log.pop("samples")
    for sample in samples:
        sample["id"] = f"docs/{sample['id']}"
    log["eval"]["dataset"]["sample_ids"] = [s["id"] for s in samples]
    zipped = tmp_path / "log.eval"
    with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as out:
        out.writestr("header.json", json.dumps(log))
        for sample in reversed(samples):  # the members' order in the zip is not the items' order
            out.writestr(f"samples/{sample['id']}_epoch_1.json", json.dumps(sample))
    back = tmp_path / "back"
    _run("import-results", str(zipped), "-o", str(back))
    assert (back / EXPERIMENT).read_bytes() == EXPERIMENT.read_bytes()


def test_restoring_never_overwrites_other_content(workspace: Path, tmp_path: Path) -> None:
    log = _inspect_log()
    back = tmp_path / "back"
    _run("import-results", str(log), "-o", str(back))
    assert "made 0" in _run("import-results", str(log), "-o", str(back)).output  # the same files: nothing to do
    (back / EXPERIMENT).write_text("{}")
    result = CliRunner().invoke(cli, ["import-results", str(log), "-o", str(back)])
    assert result.exit_code == 2 and "would overwrite" in result.output and "other content" in result.output
    assert (back / EXPERIMENT).read_text() == "{}"


def _readme_block(after: str) -> str:
    readme = (ROOT / "README.md").read_text()
    return readme[readme.index(after):].split("```bash\n", 1)[1].split("```", 1)[0]


@pytest.mark.slow
def test_the_readme_export_block_runs_from_a_fresh_clone_and_round_trips(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(clone)], check=True, timeout=120)
    for name in ("README.md", ".gitignore"):  # the working tree's (a test runs on the edits too)
        shutil.copy(ROOT / name, clone / name)
    subprocess.run(["git", "-C", str(clone), "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qam", "wt",
                    "--allow-empty"], check=True, timeout=60)
    bin_dir = Path(sys.executable).parent  # gaia-eval on PATH, as after the README's set-up
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    script = _readme_block("The repository also ships a small sample") + _readme_block("### Export:")
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=clone, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    originals = sorted((clone / "evaluation" / "qa").glob("*.eval.json"))
    assert originals
    for original in originals:
        first = json.loads(original.read_text())
        again = json.loads((clone / "my_data" / "roundtrip" / "evaluation" / "qa" / original.name).read_text())
        assert {k: v for k, v in again.items() if k != "evaluated_at"} == {
            k: v for k, v in first.items() if k != "evaluated_at"}
    assert list((clone / "reports" / "eee" / "data").glob("gaia-eval_qa/*/*/*_samples.jsonl"))
    status = subprocess.run(["git", "status", "--porcelain"], cwd=clone, capture_output=True, text=True,
                            check=True).stdout
    assert status == "", status
