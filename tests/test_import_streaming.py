"""The parts that let import-outputs read and write without holding its rows, each against what it replaces: the
streaming reader against reading the file whole (read_input_text, jsonl_lines, csv over a StringIO), the keyed
spool against a dict sorted by key, the tallies against sorted() lists, and the repeated-pair check against a set.
Pieces, runs and merges are made tiny here, so that every boundary the real sizes meet only at 200,000 rows is
crossed by a few lines."""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

import gaia_eval.artifacts.keyed_spool as keyed_spool
import gaia_eval.stages.imports.outputs as outputs
import gaia_eval.stages.imports.tally as tally
from gaia_eval.artifacts.groundtruth import SourceDocument
from gaia_eval.artifacts.inputs import (
    CSV_BREAK,
    JSONL_BREAK,
    iter_input_text,
    jsonl_lines,
    read_input_text,
    split_lines,
)
from gaia_eval.cli import cli
from gaia_eval.errors import InputError

# JSON Lines that str.splitlines would cut (U+2028, U+2029, U+0085, \v, \f inside strings), CRLF and LF endings,
# characters of 2, 3 and 4 UTF-8 bytes, a blank line and no final newline.
TRICKY = ('{"a": "x\u2028y\u2029z\u0085w\x0bv\x0cu"}\r\n{"b": "é€😀"}\n\n\r\n{"c": "\r"}\r\n{"d": 1}').encode()


def _pieces(text: str, size: int) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)]


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
@pytest.mark.parametrize("piece", [1, 2, 3, 5, 64])
def test_the_file_read_a_piece_at_a_time_is_the_text_read_whole(tmp_path: Path, bom: bytes, piece: int) -> None:
    """A character cut between two pieces, a BOM in the first: the joined pieces are read_input_text's text."""
    path = tmp_path / "rows.jsonl"
    path.write_bytes(bom + TRICKY)
    assert "".join(iter_input_text(path, piece=piece)) == read_input_text(path)


@pytest.mark.parametrize("piece", range(1, 9))
def test_jsonl_lines_split_at_newline_only_wherever_the_pieces_cut(piece: int) -> None:
    """A "\\r\\n" cut between two pieces is one break; U+2028 and the like are no break (a JSON string holds them)."""
    text = TRICKY.decode()
    lines = list(split_lines(_pieces(text, piece), JSONL_BREAK))
    assert "".join(lines) == text
    stripped = [line[:-1] if line.endswith("\n") else line for line in lines]
    assert [line[:-1] if line.endswith("\r") else line for line in stripped] == jsonl_lines(text)


@pytest.mark.parametrize("piece", range(1, 6))
def test_csv_lines_are_the_lines_csv_reads_from_a_file(piece: int) -> None:
    """\\r\\n, \\r and \\n each end a line (as for a file opened with newline=""), a quoted cell spans lines, and
    the rows and their line numbers are csv's own."""
    text = 'id,output\r\na,"one\r\ntwo"\rb,x\u2028y\nc,"z"\r'
    lines = [line for line in split_lines(_pieces(text, piece), CSV_BREAK) if line]
    assert lines == io.StringIO(text, newline="").readlines()
    streamed, whole = csv.reader(lines), csv.reader(io.StringIO(text, newline=""))
    assert [(row, streamed.line_num) for row in streamed] == [(row, whole.line_num) for row in whole]


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
@pytest.mark.parametrize("piece", [1, 2, 3, 4, 7, 4096])
@pytest.mark.parametrize("bad", [b"\xff", b"\xe2\x82", b"\xc3("])
def test_a_bad_byte_is_named_at_the_offset_the_whole_read_names(
    tmp_path: Path, bom: bytes, piece: int, bad: bytes
) -> None:
    path = tmp_path / "rows.jsonl"
    path.write_bytes(bom + b'{"a": "\xc3\xa9t\xc3\xa9"}\n{"b": "' + bad + b'"}\n')
    with pytest.raises(InputError) as whole:
        read_input_text(path)
    with pytest.raises(InputError) as streamed:
        "".join(iter_input_text(path, piece=piece))
    assert streamed.value.message == whole.value.message
    assert "bad byte at offset" in streamed.value.message


@pytest.mark.parametrize(("data", "said"), [(b'{"a": 1}\n{"b": "\x00"}\n', "binary"), (b"\xff\xfe{\x00", "UTF-16")])
def test_nul_bytes_and_utf16_are_refused_as_the_whole_read_refuses_them(tmp_path: Path, data: bytes, said: str) -> None:
    path = tmp_path / "rows.jsonl"
    path.write_bytes(data)
    with pytest.raises(InputError, match=said):
        "".join(iter_input_text(path, piece=3))


def test_the_keyed_spool_gives_a_dict_in_key_order_through_runs_and_merges(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """300 puts of 40 keys in runs of 4, merged on disk every 3 runs: the same as a dict sorted by key, the last
    put winning (an unstable sort or a merge that lost the runs' order would give an earlier document), and never
    more than 3 runs to merge at the end (each holds a read buffer: without the merges, 75 here)."""
    monkeypatch.setattr(keyed_spool, "RUN", 4)
    monkeypatch.setattr(keyed_spool, "MAX_RUNS", 3)
    rng = random.Random(7)
    expected: dict[str, SourceDocument | None] = {}
    with keyed_spool.KeyedSpool(tmp_path / "x.experiment.json", SourceDocument) as spool:
        for n in range(300):
            key = f"doc{rng.randrange(40):02d}\u2028"
            document = None if n % 7 == 0 else SourceDocument(path=f"p{n}", fingerprint=f"f{n}", text=f"text {n}")
            spool.put(key, document)
            expected[key] = document
        assert len(spool._runs) < 3  # merged as they come: the read buffers of the final merge stay few
        assert list(spool.in_order()) == sorted(expected.items(), key=lambda pair: pair[0])
    assert [p.name for p in tmp_path.iterdir()] == []  # the temp files went with the spool


def test_the_totals_walk_the_latencies_as_the_sorted_list_did(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tally, "RUN", 3)
    rng = random.Random(3)
    for count in (1, 2, 3, 4, 7, 20, 101):
        latencies = [rng.choice([0.1, 0.5, 2.0, rng.random() * 10]) for _ in range(count)]
        total = tally.TotalsSum()
        for latency in latencies:
            total.add(outputs.ItemResult(item_id="a", source="a", fingerprint="f", status="ok", latency_s=latency))
        got, ordered = total.totals(), sorted(latencies)
        assert got.latency_p50_s == ordered[count // 2]
        assert got.latency_p95_s == ordered[int(0.95 * (count - 1))]
        assert got.latency_max_s == ordered[-1]
        assert got.wall_time_s == sum(ordered)


def _rows(tmp_path: Path, rows: list[dict[str, str]]) -> Path:
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def test_a_pair_given_twice_far_apart_is_named_with_both_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tally, "RUN", 4)  # the two digests land in different runs
    rows = [{"item_id": f"d{i}", "system": s, "output": "x", "source": "y"} for i in range(20) for s in ("a", "b")]
    rows.append({"item_id": "d3", "system": "b", "output": "again", "source": "y"})
    result = CliRunner().invoke(cli, ["import-outputs", str(_rows(tmp_path, rows)), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert "line 41" in result.output and "system 'b' has item 'd3' twice (also line 8)" in result.output
    assert not (tmp_path / "out").exists()


def test_pairs_sharing_a_digest_are_no_repeat_but_a_true_repeat_still_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every pair given one digest (a collision on all of them): distinct pairs import; a repeat is still named."""
    monkeypatch.setattr(outputs, "pair_digest", lambda system, item_id: 42)
    rows = [{"item_id": f"d{i}", "system": "a", "output": "x", "source": "y"} for i in range(5)]
    imported = CliRunner().invoke(cli, ["import-outputs", str(_rows(tmp_path, rows)), "-o", str(tmp_path / "ok")])
    assert imported.exit_code == 0, imported.output
    rows.insert(2, {"item_id": "d4", "system": "a", "output": "x", "source": "y"})
    result = CliRunner().invoke(cli, ["import-outputs", str(_rows(tmp_path, rows)), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert "line 6" in result.output and "has item 'd4' twice (also line 3)" in result.output


JSON_FILES = [
    b'[{"a": "x\\"]}[{", "b": [1, {"c": "}"}]}, {"d": "\xc3\xa9\xe2\x80\xa8"}]',
    b'\xef\xbb\xbf [ {"a": 1} ,\n {"b": 2} ] \n',
    b"[]",
    b'{"item_id": "one object"}',
    b'[{"a": 1}, 2, {"b": 3}]',
    b'[{"a": 1}, {"b": 2},]',
    b'[{"a": 1}, {"b": 2}] trailing',
    b'[{"a": 1}, {"b": tru}]',
    b'[{"a": 1}, {"b": 2}',
    b'[{"a": 1}] [{"b": 2}]',
    b"[] []",
    b'[{"a": 1} {"b": 2}]',
    b'[{"a": 1}, {"b": "\x00"}]',
    b'[{"a": 1}, {"b": "\xff"}]',
    b'[{"a": [}]',
    b'["a", {"b": 1}]',
]


def _whole(path: Path) -> object:
    from gaia_eval.artifacts.inputs import parse_json

    try:
        data = parse_json(path, read_input_text(path, "a data file"), fix="fix the JSON syntax")
    except InputError as exc:
        return exc.message
    return data if isinstance(data, list) else [data]


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 1 << 22])
@pytest.mark.parametrize("data", JSON_FILES)
def test_a_json_array_read_an_object_at_a_time_gives_what_the_whole_read_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data: bytes, chunk: int
) -> None:
    """Objects cut between chunks, brackets and quotes inside strings, a BOM: the same items; any other shape
    (one object, an array holding something else, broken JSON) the items or the message of the whole read."""
    import gaia_eval.artifacts.stream as stream
    from gaia_eval.stages.imports.rows import _json_items

    monkeypatch.setattr(stream, "ROWS_CHUNK", chunk)
    path = tmp_path / "rows.json"
    path.write_bytes(data)
    try:
        got: object = list(_json_items(path))
    except InputError as exc:
        got = exc.message
    assert got == _whole(path)


@pytest.mark.parametrize("chunk", [1, 3, 1 << 22])
@pytest.mark.parametrize("data", JSON_FILES[:3])
def test_a_json_array_is_read_an_object_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data: bytes, chunk: int
) -> None:
    """The streamed path is the one taken for an array of objects, whatever the chunks: the whole read, which would
    also give the right items, is never called."""
    import gaia_eval.artifacts.stream as stream
    import gaia_eval.stages.imports.rows as rows

    monkeypatch.setattr(stream, "ROWS_CHUNK", chunk)
    path = tmp_path / "rows.json"
    path.write_bytes(data)
    expected = _whole(path)

    def refused(*args: object) -> str:
        raise AssertionError("the file was read whole")

    monkeypatch.setattr(rows, "read_input_text", refused)
    assert list(rows._json_items(path)) == expected


def test_a_long_string_is_read_in_growing_chunks_not_rescanned_chunk_by_chunk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An object holding a 200 kB string, read 16 bytes at a time: each read that ends inside the string doubles
    the next, so the reads are a few dozen (rescanning the string after each of 12,500 small reads is quadratic:
    a 100 MB document took minutes)."""
    import gaia_eval.artifacts.stream as stream

    monkeypatch.setattr(stream, "ROWS_CHUNK", 16)
    reads: list[int] = []
    real_open = stream.open_input

    class Counting:
        def __init__(self, fh: io.BufferedReader) -> None:
            self.fh = fh

        def read(self, size: int) -> bytes:
            reads.append(size)
            return self.fh.read(size)

        def __enter__(self) -> Counting:
            return self

        def __exit__(self, *exc: object) -> None:
            self.fh.close()

    monkeypatch.setattr(stream, "open_input", lambda path, what: Counting(real_open(path, what)))  # type: ignore[arg-type]
    path = tmp_path / "rows.json"
    path.write_text(json.dumps([{"a": 1}, {"source": "x" * 200_000, "b": [1, 2]}, {"c": 3}]))
    assert [json.loads(text) for text in stream.iter_array_objects(path)][2] == {"c": 3}
    assert len(reads) < 60, len(reads)


def _consolidated(tmp_path: Path) -> Path:
    """A consolidated ground truth of three documents with questions, made by import-groundtruth."""
    rows = [{"item_id": f"m{i}", "source": f"Ann ships on Friday {i}. Bob emails the client.",
             "references": ["Ann ships on Friday."], "qa": [{"question": "When?", "answer": "Friday"}]}
            for i in range(3)]
    result = CliRunner().invoke(cli, ["import-groundtruth", str(_rows(tmp_path, rows)), "-o", str(tmp_path / "gt")])
    assert result.exit_code == 0, result.output
    return tmp_path / "gt" / "consolidated_summarization_groundtruth.json"


def test_the_ground_truth_by_id_reads_each_item_when_asked_as_the_whole_read_gives_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gaia_eval.artifacts.streamed as streamed
    from gaia_eval.artifacts.groundtruth import read_groundtruth_file

    path = _consolidated(tmp_path)
    whole = {gt.item_id: gt for gt in read_groundtruth_file(path)}
    one = tmp_path / "gt" / "m0.summarization.groundtruth.json"  # a one-document file: read whole
    assert dict(streamed.read_groundtruth_items(one)) == {"m0": read_groundtruth_file(one)[0]}

    def refused(*args: object) -> object:
        raise AssertionError("the ground truth was read whole")

    monkeypatch.setattr(streamed, "read_groundtruth_file", refused)
    items = streamed.read_groundtruth_items(path)
    assert dict(items) == whole and items.use_cases == {"summarization"}
    assert {name: items.source_of(name) for name in items} == {name: gt.source for name, gt in whole.items()}
    assert "m1" in items and "m9" not in items and items.get("m9") is None
    with pytest.raises(KeyError):
        items["m9"]


def test_a_ground_truth_id_given_twice_keeps_the_last_as_the_whole_read_did(tmp_path: Path) -> None:
    from gaia_eval.artifacts.streamed import read_groundtruth_items

    path = _consolidated(tmp_path)
    data = json.loads(path.read_text())
    data["items"][2]["item_id"] = "m0"
    path.write_text(json.dumps(data))
    assert read_groundtruth_items(path)["m0"].source.text.startswith("Ann ships on Friday 2.")


@pytest.mark.parametrize(("where", "field", "value"), [
    ("items", "method", 7), ("items", "source", None), ("source_files", "fingerprint", [1]), ("top", "use_case", 3),
])
def test_a_broken_ground_truth_is_the_whole_reads_one_line_error(
    tmp_path: Path, where: str, field: str, value: object
) -> None:
    """An item, a source file entry or a header field that does not validate: the message of the whole read."""
    from gaia_eval.artifacts.groundtruth import read_groundtruth_file
    from gaia_eval.artifacts.streamed import read_groundtruth_items
    from gaia_eval.errors import GaiaEvalError

    path = _consolidated(tmp_path)
    data = json.loads(path.read_text())
    (data if where == "top" else data[where][1])[field] = value
    path.write_text(json.dumps(data))
    with pytest.raises(GaiaEvalError) as whole:
        read_groundtruth_file(path)
    with pytest.raises(GaiaEvalError) as streamed:
        read_groundtruth_items(path)
    assert str(streamed.value) == str(whole.value)


def test_import_outputs_with_a_ground_truth_never_reads_it_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rows take their sources from -g's items, read one at a time: the experiment holds each item's source,
    and the whole read (what held every document and its text for the run) is never called."""
    import gaia_eval.artifacts.streamed as streamed

    path = _consolidated(tmp_path)

    def refused(*args: object) -> object:
        raise AssertionError("the ground truth was read whole")

    monkeypatch.setattr(streamed, "read_groundtruth_file", refused)
    rows = [{"item_id": f"m{i}", "system": s, "output": "Ann ships."} for i in (2, 0, 1) for s in ("a", "b")]
    result = CliRunner().invoke(cli, ["import-outputs", str(_rows(tmp_path, rows)), "-g", str(path),
                                      "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    experiment = json.loads((tmp_path / "out" / "a.experiment.json").read_text())
    assert [item["item_id"] for item in experiment["items"]] == ["m2", "m0", "m1"]
    assert {name: doc["text"][:21] for name, doc in experiment["sources"].items()} == {
        f"m{i}": f"Ann ships on Friday {i}" for i in range(3)}
