"""Exports that cannot be turned against their reader: report.csv and template CSVs (CRLF rows, formula-like cells
as text), JUnit XML that parses whatever ids hold, report.md with no live link, image or HTML from data, and a
terminal that shows control characters instead of obeying them."""

from __future__ import annotations

import csv
import io
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from gaia_eval.safe_text import (
    chart_text,
    csv_cell,
    csv_document,
    csv_uncell,
    markdown_code,
    markdown_text,
    terminal_text,
    xml_text,
)

CALC = "\r=cmd|' /C calc'!A0"  # a CR first: with LF-only rows it was left unquoted and started a row of its own
LINK = "[link](javascript:alert(1))"
ITEM = "bad\x01\x1b[2Jid\x0b"


def _spreadsheet_rows(raw: str) -> list[list[str]]:
    """Rows as a spreadsheet splits them: a CR, an LF or a CRLF ends a row unless it is inside quotes."""
    return list(csv.reader(io.StringIO(raw.replace("\r\n", "\n").replace("\r", "\n"), newline="")))


@pytest.fixture(scope="module")
def hostile_report(tmp_path_factory) -> Path:
    """One evaluated experiment whose name, model and an item id hold what an attacker would put there (edited
    into the experiment as a hand-made or imported file could say), reported."""
    from gaia_eval.stages.eval.run import run_eval
    from gaia_eval.stages.experiment.run import run_batch_experiment
    from gaia_eval.stages.generate import run_generate
    from gaia_eval.stages.groundtruth.run import run_groundtruth
    from gaia_eval.stages.report.run import run_report

    t = tmp_path_factory.mktemp("hostile")
    run_generate("meeting", t / "docs", types=["standup"], seed=4)
    run_groundtruth(input_dir=t / "docs", use_case="summarization", output_dir=t / "gt")
    (t / "c.json").write_bytes(
        orjson.dumps({"experiments": [{"name": "plain", "provider": "baseline", "model": "lead"}]})
    )
    run_batch_experiment(t / "c.json", t / "gt", t / "exp", show_progress=False)
    experiment = next((t / "exp").glob("*.experiment.json"))
    data = orjson.loads(experiment.read_bytes())
    data["experiment_name"], data["spec"]["model"], data["items"][0]["item_id"] = CALC, LINK, ITEM
    experiment.write_bytes(orjson.dumps(data))
    run_eval(experiment_dir=t / "exp", output_dir=t / "ev")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # e.g. matplotlib's "Glyph 13 missing", which printed the raw CR
        run_report(t / "ev", t / "r" / "report.md")
    return t / "r"


def test_report_csv_keeps_a_cr_formula_name_in_one_inert_cell(hostile_report):
    raw = (hostile_report / "report.csv").read_bytes().decode("utf-8")
    rows = _spreadsheet_rows(raw)
    header, body = rows[0], rows[1:]
    assert body and all(len(row) == len(header) for row in body)  # no row started inside a cell
    assert len(body) == len(list(csv.reader(io.StringIO(raw, newline="")))) - 1
    named = [dict(zip(header, row, strict=True)) for row in body]
    assert all(row["experiment"] == "'" + CALC.replace("\r", "\n") for row in named)
    assert all(row["model"] == LINK for row in named)  # a bracket is not a formula: left as it is
    assert all(not cell.startswith(("=", "+", "-", "@", "\t", "\r", "\n")) for row in body for cell in row)
    assert all(float(row["quality_score"]) >= 0 for row in named)  # the tool's numbers stay plain numbers
    assert raw.endswith("\r\n") and raw.count("\n") == raw.count("\r\n")  # CRLF rows (RFC 4180)


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r", "\x00", "\x1b", "\x7f", "\u0085", "\uff1d"])
def test_every_formula_start_and_control_character_is_neutralised(start):
    value = f"{start}SUM(1+1)*cmd|' /C calc'!A0"
    assert csv_cell(value) == "'" + value
    assert csv_uncell(csv_cell(value)) == value
    (row,) = _spreadsheet_rows(csv_document([[value, "next"]]))
    assert row == ["'" + value.replace("\r", "\n"), "next"]


@pytest.mark.parametrize("value", ["plain", "a=b", "'quoted", "", "x\r=cmd", "O'Brien"])
def test_text_that_does_not_start_like_a_formula_is_written_as_it_is(value):
    assert csv_cell(value) == value and csv_uncell(value) == value


def test_numbers_the_tool_writes_stay_numbers_but_a_number_like_name_is_text():
    assert csv_document([[-0.5, 0, 3, None, "-0.5"]]) == "-0.5,0,3,,'-0.5\r\n"


@pytest.mark.parametrize("value", ["'=x", "''-1", "'@a", "=1+1", "-"])
def test_an_apostrophe_already_there_survives_the_round_trip(value):
    assert csv_uncell(csv_cell(value)) == value


def test_a_csv_template_round_trips_formula_like_cells_and_writes_them_inert(tmp_path):
    from gaia_eval.artifacts.response_template import ResponseRecord, ResponseTemplate, read_template, write_template

    records = [ResponseRecord(test_id="-neg", input_text="=1+1\nsecond line", response="@SUM(A1)",
                              evaluation_criteria={"c": "+plus"}, query="\tq"),
               ResponseRecord(test_id="plain", input_text="- a bullet", response="'=quoted already")]
    template = ResponseTemplate(name="T", use_case="qa", records=records, model="manual")
    path = tmp_path / "T.template.csv"
    write_template(path, template)
    raw = path.read_bytes().decode("utf-8")
    rows = _spreadsheet_rows(raw)
    assert len(rows) == 3 and all(not c.startswith(("=", "+", "-", "@", "\t")) for row in rows for c in row)
    back = read_template(path)
    assert [(r.test_id, r.input_text, r.response, r.query) for r in back.records] == \
        [(r.test_id, r.input_text, r.response, r.query) for r in records]


def test_an_xml_template_with_a_control_character_in_a_document_reads_back(tmp_path):
    from gaia_eval.artifacts.response_template import ResponseRecord, ResponseTemplate, read_template, write_template

    record = ResponseRecord(test_id="d1", input_text="page one\x0cpage two\x00", response="")
    path = tmp_path / "T.template.xml"
    write_template(path, ResponseTemplate(name="T", use_case="summarization", records=[record], model="manual"))
    ET.parse(path)
    assert read_template(path).records[0].input_text == "page one\\x0cpage two\\x00"


def test_report_junit_is_valid_xml_with_control_characters_in_ids(hostile_report):
    root = ET.parse(hostile_report / "report.junit.xml").getroot()
    names = [case.get("name") for case in root.iter("testcase")]
    assert xml_text(ITEM) in names and "\\x1b" in xml_text(ITEM)


def test_bench_junit_is_valid_xml_with_control_characters_in_ids_and_answers():
    from gaia_eval.bench.exports import bench_junit_xml

    results = {
        "suite": "s\x00",
        "tasks": [
            {
                "id": "t\x1b\x01",
                "passed": False,
                "expected": "\x02",
                "attempts": [{"answer": "\x0c", "explanation": "no\x1f"}],
            },
            {"id": "u", "passed": False, "attempts": [{"error": "boom\x08\ufffe"}]},
        ],
    }
    root = ET.fromstring(bench_junit_xml(results))
    assert [c.get("name") for c in root.iter("testcase")] == ["t\\x1b\\x01", "u"]
    assert root.find(".//failure").get("message") == "no\\x1f"
    assert root.find(".//error").text == "boom\\x08\\ufffe"


MARKDOWN_ATTACKS = [LINK, "[x](https://evil.example/)", "![img](https://evil.example/x.png)", "<https://evil.example>",
                    "\\[x](https://evil.example/)", "<img src=x onerror=alert(1)>", "&#x3C;script&#x3E;", "[x]: /evil",
                    "`code` *em* _em_ ~~del~~", "a|b\n| --- |\r\nrow"]


@pytest.mark.parametrize("attack", MARKDOWN_ATTACKS)
def test_markdown_from_data_renders_as_its_own_text_and_nothing_live(attack):
    from markdown_it import MarkdownIt

    html = (
        MarkdownIt("commonmark", {"html": True})
        .enable("table")
        .render(f"| name |\n|---|\n| {markdown_text(attack)} |\n")
    )
    assert (
        "<a " not in html
        and "<img" not in html
        and "<script" not in html
        and "<em>" not in html
        and "<code>" not in html
    )
    assert html.count("<td>") == 1  # still one cell: no | or line break escaped the table


def test_intraword_underscores_stay_readable_in_the_markdown_file():
    assert markdown_text("gpt_4o_run") == "gpt_4o_run" and markdown_text("_x_") == "\\_x\\_"


def test_a_path_in_a_code_span_shows_exactly_and_cannot_leave_the_span_or_the_row():
    from markdown_it import MarkdownIt

    cell = markdown_code("./_runs/a|b`[x](https://evil.example/)*_.json\x1b")
    html = MarkdownIt("commonmark").enable("table").render(f"| a | b |\n|---|---|\n| {cell} | z |\n")
    assert "<code>./_runs/a|b\u02cb[x](https://evil.example/)*_.json\\x1b</code>" in html
    assert "<a " not in html and html.count("<td>") == 2


def test_report_md_shows_a_link_name_as_text(hostile_report):
    from markdown_it import MarkdownIt

    text = (hostile_report / "report.md").read_text()
    assert LINK not in text and "\\[link\\](javascript:alert(1))" in text
    assert "\x1b" not in text and "\x01" not in text
    html = MarkdownIt("commonmark", {"html": True}).enable("table").render(text)
    assert "<a " not in html and "[link](javascript:alert(1))" in html  # shown as the name it is


def test_a_chart_label_shows_control_characters_and_dollars_as_text():
    from gaia_eval.plotting import pyplot, svg_bytes

    label = chart_text("run $\\nosuchcommand{$\r")
    assert label == "run \\$\\nosuchcommand{\\$\\x0d"
    fig = pyplot().figure()
    fig.text(0.1, 0.5, label)  # unescaped, matplotlib reads $...$ as mathtext and fails to draw
    assert b"<svg" in svg_bytes(fig)


def test_terminal_text_shows_control_characters_instead_of_obeying_them():
    assert terminal_text("a\x1b[2J\rb\x07\tc\nd") == "a\\x1b[2J\\x0db\\x07\tc\nd"
    assert terminal_text("txt.\u202eexe") == "txt.\\u202eexe"  # a right-to-left override cannot flip the name


def test_the_command_line_prints_no_escape_sequence_from_data(tmp_path):
    from gaia_eval.cli import cli

    result = CliRunner().invoke(cli, ["report", "-d", str(tmp_path / "ev\x1b]0;owned\x07\x1b[2J")])
    assert result.exit_code == 2
    assert "\x1b" not in result.output and "\x07" not in result.output and "\\x1b[2J" in result.output


def test_command_line_modules_print_only_through_the_one_helper():
    package = Path(__file__).resolve().parent.parent / "gaia_eval"
    direct = [str(p.relative_to(package)) for folder in ("cli", "bench") for p in (package / folder).rglob("*.py")
              if "click.echo" in p.read_text()]
    assert direct == []
