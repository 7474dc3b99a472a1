"""Hostile inputs (issue 19, items 3 and 4): every command that reads a file, fed a corpus of broken, hostile and
oversized files and fields (tests/hostile_corpus.py), answers with its exit code, exactly one line on stderr, no
traceback, and nothing changed or written outside its output folder. Beside it: the one function that makes file
names from data (`file_stem`) against hostile names, the input size limit and its flag, and the import rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gaia_eval.artifacts.inputs import MAX_INPUT_ENV
from gaia_eval.artifacts.names import MAX_STEM_BYTES, NameClaims, decode_stem, file_stem
from gaia_eval.cli import cli
from gaia_eval.errors import InputError
from tests.hostile_corpus import REFERENCE, SOURCE, Case, all_cases, build_world, run_case

CASES = all_cases()
COMMANDS_THAT_READ_A_FILE = {"import-groundtruth", "import-outputs", "batch-experiment", "eval", "groundtruth",
                             "create-template", "import-template", "meta-eval", "bench", "check-answer", "summarize",
                             "report"}


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_world(tmp_path_factory.mktemp("world"))


def test_the_corpus_is_big_and_covers_every_command_that_reads_a_file() -> None:
    assert len(CASES) >= 150
    assert {case.command for case in CASES} == COMMANDS_THAT_READ_A_FILE
    assert len({case.id for case in CASES}) == len(CASES)
    # Every file-reading command meets the file-level hazards, FIFOs and devices in a bounded subprocess.
    for command in COMMANDS_THAT_READ_A_FILE:
        names = {case.name.split(":")[-1] for case in CASES if case.command == command}
        assert {"fifo", "binary", "latin1"} <= names, command
        if command != "report":  # report reads only a folder: its files are broken in place (-d cases)
            assert {"device", "huge-200mb", "utf16-bom", "dangling-symlink"} <= names, command
    assert {case.command for case in CASES if case.name.startswith("-d:")} == {"report", "eval", "groundtruth"}


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_hostile_input_is_answered_cleanly(case: Case, world: Path, tmp_path: Path) -> None:
    outcome = run_case(case, world, tmp_path)
    assert outcome.clean, outcome.why


# --- file names from data -----------------------------------------------------------------------------------------

HOSTILE_NAMES = [
    "../../ESCAPED", "/var/ESCAPE", "/", "//", "a/b", "a//b", "./a", "a/..", "..", ".", "...", "....", ".hidden",
    "a\\b", "..\\..\\x", "C:\\Windows", "C:", "a:b", "*", "?", "<>", "|", '"', "%", "%2F", "%2e%2e", "a%00b",
    "trailing.", "trailing ", " leading", "名前", "名前/../x", "emoji 🙂/x", "CON", "nul", "a" * 150, "ü/ü",
]
REFUSED_NAMES = ["", "   ", "a\x00b", "\x00", "a\nb", "a\rb", "a\tb", "\x1b[31m", "a\x7f", "a\x85", "a\u2028b",
                 "x" * (MAX_STEM_BYTES + 1), "é" * (MAX_STEM_BYTES // 2 + 1)]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_an_id_becomes_one_safe_reversible_file_name(name: str, tmp_path: Path) -> None:
    stem = file_stem(name, what="item id")
    assert "/" not in stem and "\\" not in stem and "\x00" not in stem
    assert not stem.startswith(".") and stem not in ("", ".", "..")
    assert not stem.endswith((".", " "))
    assert decode_stem(stem) == name
    path = tmp_path / f"{stem}.qa.groundtruth.json"
    path.write_text("{}")  # a real file system takes it, in the folder itself
    assert path.parent == tmp_path and path.resolve().parent == tmp_path.resolve()


def test_distinct_ids_never_share_a_file_name() -> None:
    stems = [file_stem(name, what="item id") for name in HOSTILE_NAMES]
    assert len(set(stems)) == len(HOSTILE_NAMES)


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_system_name_becomes_a_slug_without_separators(name: str) -> None:
    try:
        stem = file_stem(name, what="system", style="slug")
    except InputError as exc:
        assert "letter or digit" in exc.message  # "/", "*", "..": nothing left to name a file with
        return
    assert "/" not in stem and "\\" not in stem and not stem.startswith(".") and ":" not in stem


@pytest.mark.parametrize("name", [*REFUSED_NAMES, ["a"], 3.5, None, True])
@pytest.mark.parametrize("style", ["id", "slug"])
def test_what_no_file_name_should_hold_is_refused_with_one_line(name, style: str) -> None:
    with pytest.raises(InputError) as caught:
        file_stem(name, what="item id", style=style, file="rows.jsonl", field="item_id")
    line = caught.value.one_line()
    assert "\n" not in line and line.startswith("rows.jsonl: field 'item_id': item id")


def test_names_that_collide_after_encoding_are_refused_naming_both() -> None:
    claims = NameClaims("system", ".experiment.json")
    claims.claim("a_b", file_stem("a_b", what="system", style="slug"))
    with pytest.raises(InputError, match=r"systems 'a_b' and 'a b' would both be written to a_b\.experiment\.json"):
        claims.claim("a b", file_stem("a b", what="system", style="slug"))
    ids = NameClaims("item id")
    ids.claim("Doc", file_stem("Doc", what="item id"))
    with pytest.raises(InputError, match="'Doc' and 'doc'"):  # one file on macOS and Windows disks
        ids.claim("doc", file_stem("doc", what="item id"))
    ids.claim("caf\u00e9", file_stem("caf\u00e9", what="item id"))
    with pytest.raises(InputError):  # the same name in NFD: one file on macOS
        ids.claim("cafe\u0301", file_stem("cafe\u0301", what="item id"))


def _run(*args: str, env: dict | None = None):
    return CliRunner().invoke(cli, list(args), env=env)


def test_an_id_that_walks_up_stays_in_the_output_folder_and_keeps_its_id(tmp_path: Path) -> None:
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"item_id": "../../ESCAPED", "source": SOURCE, "references": [REFERENCE]}) + "\n"
                    + json.dumps({"item_id": "/var/ESCAPE", "source": SOURCE, "references": [REFERENCE]}) + "\n")
    out = tmp_path / "a" / "b" / "out"
    result = _run("import-groundtruth", str(rows), "-o", str(out))
    assert result.exit_code == 0, result.output
    written = sorted(p.name for p in out.iterdir())
    assert written == ["%2E.%2F..%2FESCAPED.summarization.groundtruth.json",
                       "%2Fvar%2FESCAPE.summarization.groundtruth.json",
                       "consolidated_summarization_groundtruth.json"]
    assert not list(tmp_path.rglob("ESCAPED*")) and not Path("/var/ESCAPE.summarization.groundtruth.json").exists()
    gt = json.loads((out / "%2E.%2F..%2FESCAPED.summarization.groundtruth.json").read_text())
    assert gt["item_id"] == "../../ESCAPED"
    consolidated = json.loads((out / "consolidated_summarization_groundtruth.json").read_text())
    assert sorted(i["item_id"] for i in consolidated["items"]) == ["../../ESCAPED", "/var/ESCAPE"]


def test_systems_that_would_share_a_file_are_refused_before_anything_is_written(tmp_path: Path) -> None:
    rows = tmp_path / "outputs.jsonl"
    rows.write_text("".join(json.dumps({"item_id": "a", "system": s, "output": "x", "source": SOURCE}) + "\n"
                            for s in ("a_b", "a b")))
    result = _run("import-outputs", str(rows), "-o", str(tmp_path / "exp"))
    assert result.exit_code == 2
    assert result.stderr.strip().endswith(
        "(fix: give every system its own name, differing in more than punctuation or case)"
    )
    assert "line 2" in result.stderr and "'a_b' and 'a b'" in result.stderr
    assert not (tmp_path / "exp").exists()


def test_a_slug_experiment_name_keeps_the_reference_tools_file_name(tmp_path: Path, world: Path) -> None:
    config = tmp_path / "config.json"
    config.write_text(
        json.dumps({"experiments": [{"name": "Qwen3-1.7B Basic", "provider": "baseline", "model": "lead"}]})
    )
    gt = world / "gt" / "consolidated_summarization_groundtruth.json"
    result = _run("batch-experiment", "-c", str(config), "-i", str(gt), "-o", str(tmp_path / "exp"), "--quiet")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "exp" / "Qwen3-1_7B_Basic.experiment.json").is_file()


# --- the input size limit -----------------------------------------------------------------------------------------

def _rows_file(tmp_path: Path, kilobytes: int) -> Path:
    rows = tmp_path / "rows.jsonl"
    filler = "x" * (kilobytes * 1000)
    rows.write_text(json.dumps({"item_id": "a", "source": SOURCE + filler, "references": [REFERENCE]}) + "\n")
    return rows


def test_the_size_limit_refuses_a_bigger_file_and_the_flag_raises_it(tmp_path: Path) -> None:
    rows = _rows_file(tmp_path, 30)
    refused = _run("--max-input-mb", "0.02", "import-groundtruth", str(rows), "-o", str(tmp_path / "out"))
    assert refused.exit_code == 2
    assert "over the 0.02 MB input limit" in refused.stderr and "--max-input-mb" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1 and not (tmp_path / "out").exists()
    accepted = _run("--max-input-mb", "0.05", "import-groundtruth", str(rows), "-o", str(tmp_path / "out"))
    assert accepted.exit_code == 0, accepted.output


def test_the_size_limit_reads_the_environment_and_the_flag_wins(tmp_path: Path) -> None:
    rows = _rows_file(tmp_path, 30)
    env = {MAX_INPUT_ENV: "0.02"}
    assert _run("import-groundtruth", str(rows), "-o", str(tmp_path / "o1"), env=env).exit_code == 2
    assert (
        _run("--max-input-mb", "1", "import-groundtruth", str(rows), "-o", str(tmp_path / "o2"), env=env).exit_code == 0
    )
    assert _run("import-groundtruth", str(rows), "-o", str(tmp_path / "o3")).exit_code == 0  # default: 100 MB
    bad = _run("import-groundtruth", str(rows), "-o", str(tmp_path / "o4"), env={MAX_INPUT_ENV: "lots"})
    assert bad.exit_code == 2 and f"{MAX_INPUT_ENV}='lots' is not a positive number" in bad.stderr
    unlimited = _run("--max-input-mb", "inf", "import-groundtruth", str(rows), "-o", str(tmp_path / "o5"), env=env)
    assert unlimited.exit_code == 0, unlimited.output
    nan = _run("--max-input-mb", "nan", "import-groundtruth", str(rows), "-o", str(tmp_path / "o6"))
    assert nan.exit_code == 2 and len(nan.stderr.strip().splitlines()) == 1 and "Traceback" not in nan.output


def test_the_limit_is_per_invocation(tmp_path: Path) -> None:
    rows = _rows_file(tmp_path, 30)
    assert _run("--max-input-mb", "0.02", "import-groundtruth", str(rows), "-o", str(tmp_path / "o1")).exit_code == 2
    assert _run("import-groundtruth", str(rows), "-o", str(tmp_path / "o2")).exit_code == 0  # the flag did not stick


# --- import rows (item 8): each test fails on a plausible one-line bug --------------------------------------------

def _gt_row(item_id: str = "a", **extra) -> str:
    return json.dumps({"item_id": item_id, "source": SOURCE, "references": [REFERENCE], **extra}) + "\n"


def test_import_groundtruth_refuses_a_duplicate_id_naming_both_lines(tmp_path: Path) -> None:
    rows = tmp_path / "rows.jsonl"
    rows.write_text(_gt_row("a") + _gt_row("b") + _gt_row("a"))
    result = _run("import-groundtruth", str(rows), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert "line 3" in result.stderr and "duplicate id 'a' (also in rows.jsonl line 1)" in result.stderr
    assert not (tmp_path / "out").exists()


def test_import_groundtruth_never_skips_a_bad_jsonl_line(tmp_path: Path) -> None:
    rows = tmp_path / "rows.jsonl"
    rows.write_text(_gt_row("a") + "\n" + '{"item_id": "b", "source": \n' + _gt_row("c"))
    result = _run("import-groundtruth", str(rows), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2 and "line 3: not valid JSON" in result.stderr
    assert not (tmp_path / "out").exists()


def test_import_groundtruth_blank_lines_are_not_rows(tmp_path: Path) -> None:
    rows = tmp_path / "rows.jsonl"
    rows.write_text("\n" + _gt_row("a") + "   \n\n" + _gt_row("b"))
    result = _run("import-groundtruth", str(rows), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    gt = json.loads((tmp_path / "out" / "b.summarization.groundtruth.json").read_text())
    assert gt["provenance"]["line"] == 5  # the line as the user's editor numbers it


@pytest.mark.parametrize("pair", [{"question": "When?", "answer": ""}, {"question": "When?", "answer": "  "},
                                  {"question": "", "answer": "Friday"}, {"question": "When?"}])
def test_import_groundtruth_refuses_an_empty_qa_answer_or_question(pair: dict, tmp_path: Path) -> None:
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"item_id": "a", "source": SOURCE,
                                "qa": [{"question": "Who?", "answer": "Ann"}, pair]}) + "\n")
    result = _run("import-groundtruth", str(rows), "-o", str(tmp_path / "out"))
    # the field names the question and which of its keys is wrong (qa[2].question / qa[2].answer)
    key = "question" if "answer" in pair and not pair["question"] else "answer"
    assert result.exit_code == 2 and f"field 'qa[2].{key}'" in result.stderr and "line 1" in result.stderr
    assert not (tmp_path / "out").exists()


def test_import_outputs_refuses_a_duplicate_system_item_pair_naming_both_lines(tmp_path: Path) -> None:
    rows = tmp_path / "outputs.jsonl"
    rows.write_text("".join(json.dumps({"item_id": i, "system": s, "output": o, "source": SOURCE}) + "\n"
                            for i, s, o in [("a", "s", "x"), ("a", "t", "y"), ("b", "s", "z"), ("a", "s", "again")]))
    result = _run("import-outputs", str(rows), "-o", str(tmp_path / "exp"))
    assert result.exit_code == 2
    assert "line 4" in result.stderr and "system 's' has item 'a' twice (also line 1)" in result.stderr
    assert not (tmp_path / "exp").exists()


def test_import_outputs_the_same_item_under_two_systems_is_fine(tmp_path: Path) -> None:
    rows = tmp_path / "outputs.jsonl"
    rows.write_text("".join(json.dumps({"item_id": "a", "system": s, "output": "x", "source": SOURCE}) + "\n"
                            for s in ("s", "t")))
    result = _run("import-outputs", str(rows), "-o", str(tmp_path / "exp"))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "exp").iterdir()) == ["s.experiment.json", "t.experiment.json"]


@pytest.mark.parametrize(("field", "cell", "problem"), [
    ("input_tokens", "1.5", "fractional part"), ("output_tokens", "-2", "greater than or equal to 0"),
    ("input_tokens", "1e30", "exceeded maximum size"), ("cost_usd", "nan", "nan"), ("latency_s", "inf", "finite"),
])
def test_import_outputs_numbers_are_checked_not_rounded(field: str, cell: str, problem: str, tmp_path: Path) -> None:
    rows = tmp_path / "outputs.csv"
    rows.write_text(f"item_id,system,output,source,{field}\na,s,x,text,{cell}\n")
    result = _run("import-outputs", str(rows), "-o", str(tmp_path / "exp"))
    assert result.exit_code == 2 and f"field '{field}'" in result.stderr and "line 2" in result.stderr
    assert problem in result.stderr
    assert not (tmp_path / "exp").exists()


def test_import_outputs_keeps_whole_numbers_from_a_spreadsheet(tmp_path: Path) -> None:
    rows = tmp_path / "outputs.csv"
    rows.write_text("item_id,system,output,source,input_tokens,output_tokens,cost_usd,latency_s\n"
                    "a,s,x,text,12,3.0,0.5,1.25\n")
    assert _run("import-outputs", str(rows), "-o", str(tmp_path / "exp")).exit_code == 0
    item = json.loads((tmp_path / "exp" / "s.experiment.json").read_text())["items"][0]
    assert item["usage"] == {"input_tokens": 12, "output_tokens": 3}
    assert item["cost_usd"] == 0.5 and item["cost_status"] == "priced" and item["latency_s"] == 1.25


def test_a_csv_cell_may_hold_newlines_and_a_long_document(tmp_path: Path) -> None:
    rows = tmp_path / "rows.csv"
    source = "Ann: line one.\nBob: line two.\n" + "word " * 40_000  # over csv's default 128 KB cell
    import csv

    with rows.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["item_id", "source", "references"])
        writer.writerow(["a", source, REFERENCE])
    result = _run("import-groundtruth", str(rows), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    gt = json.loads((tmp_path / "out" / "a.summarization.groundtruth.json").read_text())
    assert gt["source"]["text"] == source
