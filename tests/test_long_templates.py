"""Response templates that survive real documents (issue 21): a 145 KB transcript in a csv template (past the
csv module's 131,072-character field limit and a spreadsheet's 32,767-character cell), and a damaged template
reported in one line, never a traceback."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from click.testing import CliRunner

from gaia_eval.artifacts.evaluation import Evaluation
from gaia_eval.artifacts.response_template import SPREADSHEET_CELL_LIMIT, allow_long_csv_fields
from gaia_eval.artifacts.store import read_artifact
from gaia_eval.cli import cli

MEETING = Path(__file__).parent / "data" / "qmsum" / "ES2009b.txt"


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.fixture()
def long_docs(tmp_path: Path) -> Path:
    """One 145 KB meeting (a real 29 KB QMSum meeting five times over), as long as QMSum's covid_2."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "long_meeting.txt").write_text(MEETING.read_text() * 5)
    return docs


def fill_csv(path: Path, response: str) -> list[dict[str, str]]:
    allow_long_csv_fields()
    with path.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    for row in rows:
        row["response"] = response
    with path.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return rows


def test_a_long_source_goes_into_a_csv_as_an_excerpt_and_is_scored_whole(long_docs: Path, tmp_path: Path):
    whole = (long_docs / "long_meeting.txt").read_text()
    assert len(whole) > 131_072
    made = run("create-template", "-d", str(long_docs), "-u", "summarization", "--format", "csv", "-o",
               str(tmp_path / "templates"))
    assert made.exit_code == 0, made.output
    assert "warning: 1 source(s) are longer than a spreadsheet cell" in made.output
    template = tmp_path / "templates" / "summarization.template.csv"
    rows = fill_csv(template, "Executive summary: the team chose a remote control design.")
    assert len(rows[0]["input_text"]) <= SPREADSHEET_CELL_LIMIT
    assert rows[0]["input_text"].startswith(whole[:1000]) and "[excerpt: the first" in rows[0]["input_text"]
    assert rows[0]["input_file"] == "../docs/long_meeting.txt"
    scored = run("eval", "-d", str(tmp_path / "templates"), "-o", str(tmp_path / "ev"))
    assert scored.exit_code == 0, scored.output
    assert "Traceback" not in scored.output
    [evaluation_file] = (tmp_path / "ev").glob("*.eval.json")
    evaluation = read_artifact(evaluation_file, Evaluation)
    assert evaluation.items[0].status == "scored"


def test_the_scored_source_is_the_whole_document_not_the_excerpt(long_docs: Path, tmp_path: Path):
    from gaia_eval.stages.templates.responses import experiment_from_template

    run("create-template", "-d", str(long_docs), "-u", "summarization", "--format", "csv", "-o", str(tmp_path / "t"))
    template = tmp_path / "t" / "summarization.template.csv"
    fill_csv(template, "Executive summary: a design meeting.")
    experiment, _empty, _made_from = experiment_from_template(template)
    assert experiment.sources["long_meeting"].text == (long_docs / "long_meeting.txt").read_text()


def test_json_jsonl_and_xml_keep_a_long_source_whole(long_docs: Path, tmp_path: Path):
    from gaia_eval.artifacts.response_template import read_template

    whole = (long_docs / "long_meeting.txt").read_text()
    for fmt in ("json", "jsonl", "xml"):
        made = run("create-template", "-d", str(long_docs), "-u", "summarization", "--format", fmt, "-o",
                   str(tmp_path / fmt))
        assert made.exit_code == 0 and "warning" not in made.output, made.output
        assert read_template(tmp_path / fmt / f"summarization.template.{fmt}").records[0].input_text == whole


def test_a_long_source_with_ground_truth_points_at_the_ground_truth(long_docs: Path, tmp_path: Path):
    data = tmp_path / "refs.jsonl"
    data.write_text('{"item_id": "long_meeting", "references": ["The team chose a remote control design."]}\n')
    imported = run("import-groundtruth", str(data), "--source-file", "docs/{item_id}.txt", "-o", str(tmp_path / "gt"))
    assert imported.exit_code == 0, imported.output
    made = run("create-template", "-d", str(tmp_path / "gt"), "-u", "summarization", "--format", "csv", "-o",
               str(tmp_path / "t"))
    assert made.exit_code == 0 and "scored from the ground truth" in made.output, made.output
    rows = fill_csv(tmp_path / "t" / "summarization.template.csv", "Executive summary: a design meeting.")
    assert (
        len(rows[0]["input_text"]) <= SPREADSHEET_CELL_LIMIT and "consolidated_summarization" in rows[0]["input_text"]
    )
    scored = run("eval", "-d", str(tmp_path / "t"), "-o", str(tmp_path / "ev"))
    assert scored.exit_code == 0, scored.output


BAD_TEMPLATES = {
    "a jsonl line that is a number": ("bad.template.jsonl", b'{"test_id": "a", "input_text": "t", "response": ""}\n5\n',
                                      "record 2 is not an object"),
    "a jsonl line that is a list": ("bad.template.jsonl", b'["test_id", "x"]\n', "record 1 is not an object"),
    "a csv naming a missing input_file": (
        "bad.template.csv", b"test_id,use_case,input_text,input_file,response\nx,summarization,a,gone.txt,r\n",
        "input_file 'gone.txt', which is not found"),
}


@pytest.mark.parametrize("case", sorted(BAD_TEMPLATES))
def test_a_damaged_template_is_one_line_exit_2(case: str, tmp_path: Path):
    name, content, expected = BAD_TEMPLATES[case]
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / name).write_bytes(content)
    result = run("eval", "-d", str(folder), "-o", str(tmp_path / "ev"))
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2, result.output
    assert len(lines) == 1 and lines[0].startswith("error: ") and expected in lines[0], result.output
    assert name in lines[0]
