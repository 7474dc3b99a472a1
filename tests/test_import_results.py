"""import-results: Inspect logs, promptfoo results and lm-eval samples (files the real tools wrote, in
tests/data/interop) become ground truth and experiments that eval and report take unchanged; the tools' own scores
stand beside gaia-eval's; their headline figures are reproduced from the items; nothing of a sample is lost."""

from __future__ import annotations

import importlib.util
import json
import shutil
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from gaia_eval.cli import cli
from gaia_eval.interop.detect import read_results
from gaia_eval.interop.inspect_log import _read_fallback, read_inspect_log, restore_sample
from gaia_eval.interop.lm_eval import restore_line
from gaia_eval.interop.promptfoo import restore_row
from tests.test_readme_examples import fresh_clone  # noqa: F401 - the fixture

DATA = Path(__file__).parent / "data" / "interop"
INSPECT = DATA / "inspect_capitals.eval"
PROMPTFOO = DATA / "promptfoo_capitals.json"
LM_EVAL = next((DATA / "lm_eval" / "gpt-4o-mini").glob("samples_*.jsonl"))


def _run(*args: str):
    return CliRunner().invoke(cli, list(args))


def _by_id(run):
    return {s.sample_id: s for s in run.samples}


def test_inspect_log_reads_targets_answers_scores_and_headline() -> None:
    (run,) = read_results(INSPECT)
    assert (run.tool, run.task, run.model) == ("inspect", "capitals", "openai/gpt-4o-mini")
    assert [s.sample_id for s in run.samples] == ["fr", "de", "it", "jp"]  # the dataset's order
    italy = _by_id(run)["it"]
    assert italy.targets == ["Rome", "Roma"] and italy.output == "I think it is Milan."
    assert {s.name: (s.value, s.passed, s.raw["value"]) for s in italy.scores} == {
        "includes": (0.0, False, "I"), "match": (0.0, False, "I")}
    assert (italy.input_tokens, italy.output_tokens) == (6, 5)
    assert run.aggregates["includes/accuracy"] == 0.75


def test_inspect_fallback_reads_what_the_library_reads() -> None:
    if importlib.util.find_spec("inspect_ai") is None:
        pytest.skip("inspect_ai is not installed: only the fallback reader is tested")
    (ours,) = read_inspect_log(INSPECT, use_library=False)
    (theirs,) = read_inspect_log(INSPECT, use_library=True)
    assert [(s.sample_id, s.targets, s.output, [(x.name, x.value) for x in s.scores], s.input_tokens)
            for s in ours.samples] == [(s.sample_id, s.targets, s.output, [(x.name, x.value) for x in s.scores],
                                        s.input_tokens) for s in theirs.samples]
    assert ours.aggregates == theirs.aggregates


def test_inspect_json_log_and_deflate_zip_read_like_the_zstd_eval(tmp_path: Path) -> None:
    header, samples = _read_fallback(INSPECT)
    as_json = tmp_path / "log.json"
    as_json.write_text(json.dumps({**header, "samples": list(samples)}))
    (from_json,) = read_inspect_log(as_json, use_library=False)
    deflated = tmp_path / "deflated.eval"
    with zipfile.ZipFile(INSPECT) as _, zipfile.ZipFile(deflated, "w", zipfile.ZIP_DEFLATED) as out:
        header, samples = _read_fallback(INSPECT)
        out.writestr("header.json", json.dumps(header))
        for sample in samples:
            out.writestr(f"samples/{sample['id']}_epoch_{sample['epoch']}.json", json.dumps(sample))
    (from_zip,) = read_inspect_log(deflated, use_library=False)
    (original,) = read_inspect_log(INSPECT, use_library=False)
    for run in (from_json, from_zip):
        assert [(s.sample_id, s.output, s.targets) for s in run.samples] == [
            (s.sample_id, s.output, s.targets) for s in original.samples]


def test_nothing_of_a_sample_is_lost() -> None:
    """Each sample as the tool wrote it is rebuilt from what the import keeps (its fields and `extra`)."""
    _, originals = _read_fallback(INSPECT)
    (run,) = read_inspect_log(INSPECT, use_library=False)
    by_id = {o["id"]: o for o in originals}
    assert all(restore_sample(s) == by_id[s.sample_id] for s in run.samples)
    rows = json.loads(PROMPTFOO.read_text())["results"]["results"]
    (run,) = read_results(PROMPTFOO)
    assert [restore_row(s) for s in run.samples] == rows
    lines = [json.loads(line) for line in LM_EVAL.read_text().splitlines()]
    (run,) = read_results(LM_EVAL)
    assert [restore_line(s) for s in run.samples] == lines


def test_promptfoo_target_from_first_matching_assertion_and_scores_per_assertion() -> None:
    (run,) = read_results(PROMPTFOO)
    assert (run.tool, run.model) == ("promptfoo", "openai:chat:gpt-4o-mini")
    japan = _by_id(run)["3"]
    assert japan.targets == ["Tokyo"]
    assert [(s.name, s.passed) for s in japan.scores] == [("pass", True), ("contains", True), ("javascript", True)]
    italy = _by_id(run)["2"]
    assert italy.error is None  # a failed assertion is a verdict, not an error of the run
    assert italy.cost_usd == pytest.approx(3.9e-06) and italy.latency_s == pytest.approx(0.237)
    assert run.aggregates == {"pass/pass_rate": 0.75}


def test_promptfoo_target_var_names_the_expected_answer(tmp_path: Path) -> None:
    data = json.loads(PROMPTFOO.read_text())
    (run,) = read_results(PROMPTFOO, target_var="country")
    assert [s.targets for s in run.samples] == [["France"], ["Germany"], ["Italy"], ["Japan"]]
    result = _run("import-results", str(PROMPTFOO), "--target-var", "capital", "-o", str(tmp_path / "out"))
    assert result.exit_code == 2 and "vars.capital" in result.output and "--target-var" in result.output
    assert not (tmp_path / "out").exists()
    assert data == json.loads(PROMPTFOO.read_text())


def test_lm_eval_samples_with_their_results_file() -> None:
    (run,) = read_results(LM_EVAL)
    assert (run.tool, run.task, run.model) == ("lm-eval", "capitals", "gpt-4o-mini")
    france = _by_id(run)["0"]
    assert france.input == "What is the capital of France?" and france.targets == ["Paris"]
    assert {s.name: s.value for s in france.scores} == {"exact_match": 0.0, "bleu": None}
    assert run.aggregates == {"exact_match/mean": 0.5}


def _import_all(tmp_path: Path) -> Path:
    folder = tmp_path / "results"
    shutil.copytree(DATA, folder)
    out = tmp_path / "imported"
    result = _run("import-results", str(folder), "-o", str(out))
    assert result.exit_code == 0, result.output
    # each tool's headline figure, recomputed from the imported items, to the last digit
    for line in ("includes/accuracy 0.75 = 0.75 from 4 items", "pass/pass_rate 0.75 = 0.75 from 4 items",
                 "exact_match/mean 0.5 = 0.5 from 4 items"):
        assert line in result.output
    return out


def test_import_eval_report_shows_the_tools_scores_beside_gaia_evals(tmp_path: Path) -> None:
    out = _import_all(tmp_path)
    gt = out / "groundtruth" / "consolidated_qa_groundtruth.json"
    result = _run("eval", "-d", str(out / "experiments"), "-g", str(gt), "-o", str(out / "eval"))
    assert result.exit_code == 0, result.output
    evaluation = json.loads(next((out / "eval").glob("inspect_capitals*.eval.json")).read_text())
    verdicts = {i["item_id"]: (i["passed"], {c["criterion"]: c["rating"] for c in i["extra_criteria"]})
                for i in evaluation["items"]}
    # gaia-eval's matcher and Inspect's includes() agree on every item here: Milan is wrong, the sentence is right
    assert verdicts == {
        "capitals/fr#answer": (True, {"includes": "Excellent", "match": "Excellent"}),
        "capitals/de#answer": (True, {"includes": "Excellent", "match": "Excellent"}),
        "capitals/it#answer": (False, {"includes": "Poor", "match": "Poor"}),
        "capitals/jp#answer": (True, {"includes": "Excellent", "match": "Excellent"}),
    }
    report = out / "report.md"
    assert _run("report", "-d", str(out / "eval"), "-o", str(report)).exit_code == 0
    text = report.read_text()
    assert "| inspect capitals: openai/gpt-4o-mini |" in text and "lm-eval: exact_match" in text
    assert "inspect: includes" in text and "promptfoo: pass" in text


def test_import_keeps_the_run_and_is_stable(tmp_path: Path) -> None:
    out = _import_all(tmp_path)
    experiment = json.loads(next((out / "experiments").glob("inspect_capitals*.experiment.json")).read_text())
    assert experiment["imported"]["tool"] == "inspect" and experiment["imported"]["extra"]["eval"]["task"] == "capitals"
    item = experiment["items"][0]
    assert item["imported"]["sample_id"] == "fr" and "messages" in item["imported"]["extra"]
    gt = json.loads((out / "groundtruth" / "capitals%2Fit.qa.groundtruth.json").read_text())
    assert gt["qa_pairs"][0]["answer"] == "Rome" and gt["qa_pairs"][0]["other_answers"] == ["Roma"]


def test_a_headline_the_items_do_not_reproduce_is_refused(tmp_path: Path) -> None:
    data = json.loads(PROMPTFOO.read_text())
    data["results"]["prompts"][0]["metrics"]["testPassCount"] = 4
    data["results"]["prompts"][0]["metrics"]["testFailCount"] = 0
    bad = tmp_path / "results.json"
    bad.write_text(json.dumps(data))
    result = _run("import-results", str(bad), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2 and "pass/pass_rate is 1.0 in the file but 0.75" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "out").exists()


@pytest.mark.parametrize("content, problem", [
    (b"not json", "is not a results file gaia-eval reads"),
    (b'{"results": {"version": 3}}', "not a promptfoo results file"),
    (b"PK\x03\x04broken", "written by `inspect eval`"),
])
def test_a_file_no_tool_wrote_is_one_line(tmp_path: Path, content: bytes, problem: str) -> None:
    path = tmp_path / ("log.eval" if content.startswith(b"PK") else "results.json")
    path.write_bytes(content)
    result = _run("import-results", str(path), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2, result.output
    assert problem in result.output and len(result.output.strip().splitlines()) == 1


def test_the_readme_block_runs_in_a_fresh_clone_and_leaves_git_status_clean(fresh_clone: Path,  # noqa: F811
                                                                           tmp_path: Path) -> None:
    import os
    import re
    import subprocess
    import sys

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    section = readme[readme.index("## Coming from Inspect, promptfoo or lm-eval"):]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "GAIA_EVAL_CACHE_DIR": str(tmp_path / "cache")}
    run = subprocess.run(["bash", "-euo", "pipefail", "-c", block], cwd=fresh_clone, env=env, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "includes/accuracy 0.75 = 0.75 from 4 items" in run.stdout
    report = (fresh_clone / "imported" / "report.md").read_text()
    assert "inspect: includes" in report and "lm-eval: exact_match" in report
    status = subprocess.run(["git", "status", "--porcelain"], cwd=fresh_clone, capture_output=True, text=True,
                            check=True).stdout
    assert status == ""


@pytest.mark.parametrize(("mode", "tool", "score"), [
    ("exact", "lm-eval", "exact_match"),  # the same question: is the answer the target, exactly
    ("contains", "inspect", "includes"),  # is the target in the answer
    ("contains", "promptfoo", "icontains"),
])
def test_where_gaia_eval_and_the_tool_ask_the_same_question_they_give_the_same_verdicts(
        tmp_path: Path, mode: str, tool: str, score: str) -> None:
    out = _import_all(tmp_path)
    gt = out / "groundtruth" / "consolidated_qa_groundtruth.json"
    result = _run("eval", "-d", str(out / "experiments"), "-g", str(gt), "-o", str(out / mode), "--match-mode", mode)
    assert result.exit_code == 0, result.output
    evaluation = json.loads(next((out / mode).glob(f"{tool}_*.eval.json")).read_text())
    compared = 0
    for item in evaluation["items"]:
        theirs = {c["criterion"]: c["rating"] for c in item["extra_criteria"]}
        if score in theirs:
            assert item["passed"] is (theirs[score] == "Excellent"), (item["item_id"], item["passed"], theirs)
            compared += 1
    assert compared >= 2
