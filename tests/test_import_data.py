"""import-groundtruth and import-outputs: a user's own data in, provenance kept, N/A where the human reference is
silent, one-line errors naming line and field, nothing half-written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from gaia_eval.cli import cli

QMSUM = Path(__file__).parent / "data" / "qmsum"


def _run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def _qmsum(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    data.mkdir()
    for name in ("ES2009b.txt", "ES2009b.references.json"):
        shutil.copy(QMSUM / name, data / name)
    return data


def test_qmsum_walkthrough_imports_scores_and_shows_na(tmp_path: Path) -> None:
    data = _qmsum(tmp_path)
    gt_dir = tmp_path / "gt"
    result = _run("import-groundtruth", str(data / "ES2009b.references.json"), "--source-file", "{item_id}.txt",
                  "--references-field", "general_queries.answer", "--qa-field", "specific_queries",
                  "--question-key", "query", "-o", str(gt_dir))
    assert result.exit_code == 0, result.output
    gt = json.loads((gt_dir / "ES2009b.summarization.groundtruth.json").read_text())
    assert gt["method"] == "human" and gt["provenance"]["kind"] == "human"
    assert gt["provenance"]["fingerprint"].startswith("sha256:") and len(gt["references"]) == 1
    qa = json.loads((gt_dir / "ES2009b.qa.groundtruth.json").read_text())
    assert len(qa["qa_pairs"]) == 6
    refs = json.loads((data / "ES2009b.references.json").read_text())
    outputs = tmp_path / "outputs.jsonl"
    rows = [
        {"item_id": "ES2009b", "system": "human", "output": refs["general_queries"][0]["answer"], "cost_usd": "0"},
        {"item_id": "ES2009b", "system": "copy", "output": (data / "ES2009b.txt").read_text()[:600]},
    ]
    outputs.write_text("".join(json.dumps(r) + "\n" for r in rows))
    consolidated = str(gt_dir / "consolidated_summarization_groundtruth.json")
    assert _run("import-outputs", str(outputs), "-g", consolidated, "-o", str(tmp_path / "exp")).exit_code == 0
    result = _run("eval", "-d", str(tmp_path / "exp"), "-g", consolidated, "-o", str(tmp_path / "ev"))
    assert result.exit_code == 0, result.output
    human = json.loads((tmp_path / "ev" / "human.experiment.eval.json").read_text())
    copy = json.loads((tmp_path / "ev" / "copy.experiment.eval.json").read_text())
    ratings = {c["criterion"]: c["rating"] for c in human["items"][0]["criteria"]}
    assert ratings["action_items"] == ratings["key_decisions"] == ratings["participants"] == "N/A"
    assert human["grade"]["counts"]["N/A"] == 3 and human["grade"]["n_ratings"] == 5
    assert human["grade"]["quality_score"] > copy["grade"]["quality_score"]


def test_a_human_summary_grades_above_the_lead_and_textrank_baselines(tmp_path: Path) -> None:
    """The README walkthrough on one meeting: the human reference imported as a system grades above both
    baselines, and so does a second human text (the query answers), never below either."""
    data = _qmsum(tmp_path)
    gt_dir, exp = tmp_path / "gt", tmp_path / "exp"
    assert _run("import-groundtruth", str(data / "ES2009b.references.json"), "--source-file", "{item_id}.txt",
                "--references-field", "general_queries.answer", "-o", str(gt_dir)).exit_code == 0
    config = tmp_path / "baselines.json"
    config.write_text(json.dumps({"experiments": [{"name": "lead", "provider": "baseline", "model": "lead"},
                                                  {"name": "textrank", "provider": "baseline", "model": "textrank"}]}))
    result = _run("batch-experiment", "-c", str(config), "-i", str(data), "-o", str(exp), "--quiet")
    assert result.exit_code == 0, result.output
    refs = json.loads((data / "ES2009b.references.json").read_text())
    answers = " ".join(q["answer"] for q in refs["specific_queries"])
    outputs = tmp_path / "human.jsonl"
    outputs.write_text("".join(json.dumps({"item_id": "ES2009b", "system": s, "output": o}) + "\n" for s, o in (
        ("reference", refs["general_queries"][0]["answer"]), ("human", answers))))
    consolidated = str(gt_dir / "consolidated_summarization_groundtruth.json")
    assert _run("import-outputs", str(outputs), "-g", consolidated, "-o", str(exp)).exit_code == 0
    assert _run("eval", "-d", str(exp), "-g", consolidated, "-o", str(tmp_path / "ev")).exit_code == 0
    grade = {name: json.loads((tmp_path / "ev" / f"{name}.experiment.eval.json").read_text())["grade"]["quality_score"]
             for name in ("reference", "human", "lead", "textrank")}
    assert grade["reference"] > max(grade["lead"], grade["textrank"]) + 15, grade
    assert grade["human"] >= max(grade["lead"], grade["textrank"]), grade


def test_a_bad_row_names_line_and_field_and_writes_nothing(tmp_path: Path) -> None:
    data = tmp_path / "gt.jsonl"
    data.write_text(
        json.dumps({"item_id": "a", "source": "Ann: hello.", "references": ["Ann says hello."]}) + "\n"
        + json.dumps({"item_id": "b", "source": "Bob: hi."}) + "\n"
    )
    result = CliRunner().invoke(cli, ["import-groundtruth", str(data), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "line 2" in result.output and "references" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


def test_csv_with_renamed_fields(tmp_path: Path) -> None:
    data = tmp_path / "gt.csv"
    data.write_text('id,text,summary\nx1,"Ann: we ship on Friday.",Ann says they ship on Friday.\n')
    result = _run("import-groundtruth", str(data), "--id-field", "id", "--source-field", "text",
                  "--references-field", "summary", "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    gt = json.loads((tmp_path / "out" / "x1.summarization.groundtruth.json").read_text())
    assert gt["references"] == ["Ann says they ship on Friday."] and gt["provenance"]["line"] == 2


def test_imported_outputs_without_ground_truth_are_scored_against_the_source(tmp_path: Path) -> None:
    source = "Ann: we ship the release on Friday.\nBob: I will write the notes by Thursday."
    rows = [
        {
            "item_id": "c1",
            "system": "good",
            "source": source,
            "output": "Ann ships the release on Friday; Bob writes the notes by Thursday.",
        },
        {
            "item_id": "c1",
            "system": "invented",
            "source": source,
            "output": "Carol cancelled the release and fired 40 people.",
        },
    ]
    data = tmp_path / "outputs.csv"
    import csv

    with data.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["item_id", "system", "source", "output"])
        writer.writeheader()
        writer.writerows(rows)
    assert _run("import-outputs", str(data), "-o", str(tmp_path / "exp")).exit_code == 0
    assert _run("eval", "-d", str(tmp_path / "exp"), "-o", str(tmp_path / "ev")).exit_code == 0
    good = json.loads((tmp_path / "ev" / "good.experiment.eval.json").read_text())
    bad = json.loads((tmp_path / "ev" / "invented.experiment.eval.json").read_text())
    assert good["mode"] == "standalone" and good["grade"]["counts"]["N/A"] == 5  # 2 reference + 3 list criteria
    assert good["grade"]["quality_score"] > bad["grade"]["quality_score"]


def test_import_outputs_bad_number_names_line_and_field(tmp_path: Path) -> None:
    data = tmp_path / "outputs.jsonl"
    data.write_text(
        json.dumps({"item_id": "a", "system": "s", "output": "x", "source": "y", "cost_usd": "cheap"}) + "\n"
    )
    result = CliRunner().invoke(cli, ["import-outputs", str(data), "-o", str(tmp_path / "exp")])
    assert result.exit_code == 2 and "line 1" in result.output and "cost_usd" in result.output
    assert not (tmp_path / "exp").exists()


def test_judging_outputs_scored_against_human_references_compares_the_free_text_criteria(
    tmp_path: Path, fake_llm, monkeypatch
) -> None:
    """eval --judge on imported outputs with human references (it used to stop with a KeyError traceback): the
    judge's faithfulness and completeness are compared with source consistency and content coverage, and the
    rubric's N/A criteria are left out of the agreement."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data = _qmsum(tmp_path)
    gt_dir = tmp_path / "gt"
    assert _run("import-groundtruth", str(data / "ES2009b.references.json"), "--source-file", "{item_id}.txt",
                "--references-field", "general_queries.answer", "-o", str(gt_dir)).exit_code == 0
    refs = json.loads((data / "ES2009b.references.json").read_text())
    outputs = tmp_path / "outputs.jsonl"
    outputs.write_text(json.dumps({"item_id": "ES2009b", "system": "human",
                                   "output": refs["general_queries"][0]["answer"]}) + "\n")
    consolidated = str(gt_dir / "consolidated_summarization_groundtruth.json")
    assert _run("import-outputs", str(outputs), "-g", consolidated, "-o", str(tmp_path / "exp")).exit_code == 0
    result = _run("eval", "-d", str(tmp_path / "exp"), "-g", consolidated, "-o", str(tmp_path / "ev"),
                  "--judge", "openai:gpt-4o-mini", "--judge-base-url", fake_llm.openai_base_url)
    assert result.exit_code == 0, result.output
    judge = json.loads((tmp_path / "ev" / "human.experiment.eval.json").read_text())["judge"]
    agreement = judge["judge_vs_rubric"]
    assert agreement["criteria"] == {"completeness": "content_coverage", "faithfulness": "source_consistency"}
    assert agreement["pairs"] == 2
    assert _run("report", "-d", str(tmp_path / "ev"), "-o", str(tmp_path / "r" / "report.md")).exit_code == 0
    assert "Judge vs rubric" in (tmp_path / "r" / "report.md").read_text()


def test_import_outputs_writes_the_bytes_it_wrote_before_it_streamed_its_rows(tmp_path: Path) -> None:
    """tests/data/import_outputs holds what import-outputs wrote from rows.csv when it held every row (a quoted
    comma, a two-line cell, non-ASCII text, an empty output, a missing cost, systems interleaved): the streamed
    import writes the same bytes, but the run's time and input path. A source or item out of order, a total summed
    differently or a field lost fails here."""
    import re

    data = Path(__file__).parent / "data" / "import_outputs"
    rows = tmp_path / "rows.csv"
    shutil.copy(data / "rows.csv", rows)
    assert _run("import-outputs", str(rows), "-o", str(tmp_path / "exp")).exit_code == 0
    written = sorted(p.name for p in (tmp_path / "exp").glob("*.experiment.json"))
    assert written == ["Local-7B.experiment.json", "gpt_small.experiment.json"]
    for name in written:
        text = (tmp_path / "exp" / name).read_text(encoding="utf-8")
        text = re.sub(r'("(?:started|finished)_at": )"[^"]*"', r'\1"<time>"', text)
        assert text.replace(f'"{rows.as_posix()}"', '"<input>"') == (data / name).read_text(encoding="utf-8")


def test_a_full_disk_while_import_outputs_spools_sources_names_the_experiment_and_writes_nothing(
    tmp_path: Path, monkeypatch
) -> None:
    """The rows' sources are spooled to a temp file while an experiment is written: a disk that fills then is the
    one-line storage error naming that experiment (exit 1), never a traceback, and no experiment is left."""
    import errno

    import gaia_eval.artifacts.keyed_spool as keyed_spool

    class FullFile:
        def seek(self, *args: object) -> int:
            return 0

        def tell(self) -> int:
            return 0

        def write(self, data: bytes) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

        def close(self) -> None:
            pass

    monkeypatch.setattr(keyed_spool, "tempfile", type("T", (), {"TemporaryFile": staticmethod(lambda **k: FullFile())}))
    rows = tmp_path / "rows.csv"
    shutil.copy(Path(__file__).parent / "data" / "import_outputs" / "rows.csv", rows)
    result = CliRunner().invoke(cli, ["import-outputs", str(rows), "-o", str(tmp_path / "exp")])
    assert result.exit_code == 1, result.output
    assert "gpt_small.experiment.json" in result.output and "Traceback" not in result.output
    assert not list((tmp_path / "exp").glob("*.experiment.json"))
