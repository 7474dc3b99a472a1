"""Review of `gaia-eval annotate` as an adversarial user: ratings spreadsheets saved by real spreadsheets (a
European Excel's semicolons, absurd numbers), and requests no rating page would send (another site's Origin, a
broken Content-Length, two Host headers). Each test failed on the code before its fix."""

from __future__ import annotations

import csv
import socket

import pytest

from gaia_eval.artifacts.ratings import read_ratings_sheet
from gaia_eval.errors import InputError

DIMS = ["relevance", "fluency"]
HEADER = ["unit", "item_id", "fingerprint", "rater", "source", "reference", "output", *DIMS, "comment"]


def _sheet(tmp_path, rows, delimiter=",", encoding="utf-8"):
    path = tmp_path / "s.ratings.csv"
    with open(path, "w", newline="", encoding=encoding) as fh:
        csv.writer(fh, delimiter=delimiter, lineterminator="\r\n").writerows([HEADER, *rows])
    return path


def _row(relevance, fluency="3", unit="u001"):
    return [unit, "item", "sha256:ab", "carol", "a; b, c", "", "out", relevance, fluency, ""]


@pytest.mark.parametrize("cell", ["inf", "-inf", "1e400", "infinity"])
def test_an_infinite_rating_cell_is_one_line_not_a_traceback(tmp_path, cell):
    path = _sheet(tmp_path, [_row(cell)])
    with pytest.raises(InputError) as info:
        read_ratings_sheet(path, DIMS)
    assert f"{cell!r} is not a rating" in str(info.value) and "relevance" in str(info.value)


def test_a_sheet_saved_with_semicolons_by_a_european_spreadsheet_reads_the_same(tmp_path):
    rows = [_row("4"), _row("", "5", unit="u002")]
    comma = read_ratings_sheet(_sheet(tmp_path, rows), DIMS)
    semicolon = read_ratings_sheet(_sheet(tmp_path, rows, delimiter=";", encoding="utf-8-sig"), DIMS)
    assert semicolon == comma and [r.values for r in comma] == [{"relevance": 4, "fluency": 3}, {"fluency": 5}]


# --- requests no rating page sends ----------------------------------------------------------------------------

@pytest.fixture
def annotation_server(tmp_path):
    from gaia_eval.annotate.server import AnnotationServer

    class NoSession:  # the request checks answer before any session action
        def state(self):
            return {"unit": None}

        def undo(self):
            return False

    server = AnnotationServer(NoSession(), 0)  # type: ignore[arg-type]
    server.start_background()
    yield server
    server.shutdown()
    server.server_close()


def _raw(server, head: str, body: bytes = b"") -> bytes:
    """The status line of a hand-written request (what urllib would never send)."""
    with socket.create_connection(("127.0.0.1", server.server_address[1]), timeout=60) as sock:
        sock.sendall(head.replace("\n", "\r\n").encode() + b"\r\n" + body)
        sock.shutdown(socket.SHUT_WR)
        return sock.makefile("rb").readline().strip()


def _post(server, *headers: str, length: str = "2") -> bytes:
    lines = ["POST /api/undo HTTP/1.1", f"Host: 127.0.0.1:{server.server_address[1]}",
             f"X-Annotate-Token: {server.token}", "Content-Type: application/json", f"Content-Length: {length}",
             "Connection: close", *headers]
    return _raw(server, "\n".join(lines) + "\n", b"{}")


def test_the_page_itself_may_write(annotation_server):
    port = annotation_server.server_address[1]
    assert _post(annotation_server).endswith(b" 200 OK")
    assert _post(annotation_server, f"Origin: http://127.0.0.1:{port}", "Sec-Fetch-Site: same-origin").endswith(
        b" 200 OK"
    )


@pytest.mark.parametrize("header", ["Origin: http://evil.example", "Origin: null", "Origin: http://127.0.0.1:1",
                                    "Sec-Fetch-Site: cross-site", "Sec-Fetch-Site: same-site"])
def test_a_cross_site_write_is_refused_even_with_the_token(annotation_server, header):
    assert b" 403 " in _post(annotation_server, header)


@pytest.mark.parametrize("length", ["abc", "-1", "1e3"])
def test_a_broken_content_length_is_400_not_a_traceback_or_a_hang(annotation_server, length, capsys):
    assert b" 400 " in _post(annotation_server, length=length)
    assert "Traceback" not in capsys.readouterr().err


def test_two_host_headers_are_refused(annotation_server):
    port = annotation_server.server_address[1]
    head = (f"GET /api/state HTTP/1.1\nHost: 127.0.0.1:{port}\nHost: evil.example\n"
            f"X-Annotate-Token: {annotation_server.token}\nConnection: close\n")
    assert b" 421 " in _raw(annotation_server, head)


# --- an output that changed after it was rated -------------------------------------------------------------------

@pytest.fixture(scope="module")
def quickstart(tmp_path_factory):
    from gaia_eval.stages.quickstart import run_quickstart

    ws = tmp_path_factory.mktemp("qs")
    run_quickstart(ws, echo=lambda _: None)
    return ws


def _change_and_re_eval(ws, item_id: str, model: str) -> None:
    import orjson
    from click.testing import CliRunner

    from gaia_eval.cli import cli

    exp_file = ws / "experiments" / "summarization" / f"{model}.experiment.json"
    exp = orjson.loads(exp_file.read_bytes())
    item = next(i for i in exp["items"] if i["item_id"] == item_id)
    item["summaries"]["executive_summary"] = "Rewritten by a re-run. " + item["summaries"]["executive_summary"]
    exp_file.write_bytes(orjson.dumps(exp))
    result = CliRunner().invoke(cli, ["eval", "-d", str(ws / "experiments" / "summarization"),
                                      "-o", str(ws / "evaluation" / "summarization")])
    assert result.exit_code == 0, result.output


def test_an_output_that_changed_since_it_was_rated_is_offered_again_not_counted_done(quickstart, tmp_path):
    import shutil

    from gaia_eval.annotate import open_session

    ws = tmp_path / "ws"
    shutil.copytree(quickstart, ws)
    session = open_session(ws / "evaluation", rater="ann", use_case="summarization", size=8).session
    while (state := session.state())["unit"] is not None:
        for d in session.sample.dimensions:
            session.rate(state["unit"]["id"], d, 3)
    pairwise = open_session(ws / "evaluation", rater="ann", use_case="summarization", mode="pairwise").session
    while (state := pairwise.state())["unit"] is not None:
        pairwise.prefer(state["unit"]["id"], "tie")
    rated = session.units["u002"]
    _change_and_re_eval(ws, rated.item_id, rated.model)
    state = open_session(ws / "evaluation", rater="ann", use_case="summarization").session.state()
    assert (state["done"], state["unit"]["id"], state["ratings"]) == (7, "u002", {})
    pairwise = open_session(ws / "evaluation", rater="ann", use_case="summarization", mode="pairwise").session
    state = pairwise.state()
    assert state["done"] == state["total"] - 1 and pairwise.units[state["unit"]["id"]].item_id == rated.item_id


# --- a file that is not a ratings log --------------------------------------------------------------------------

@pytest.mark.parametrize("content", [
    b"unit,item_id,fingerprint,rater\r\nu001,a,sha256:1,carol\r\n",  # the spreadsheet, passed as --ratings
    '{"a": 1}\n'.encode("utf-16"),
    b"\x00\x9f\x92\x96binary\n",
    b"[" * 5000 + b"\n",
])
def test_a_file_that_is_not_a_ratings_log_is_refused(tmp_path, content):
    from gaia_eval.artifacts.ratings import read_ratings

    path = tmp_path / "not-ratings.jsonl"
    path.write_bytes(content)
    with pytest.raises(InputError) as info:
        read_ratings(path)
    assert f"{path}:1" in str(info.value) and "not a ratings file" in str(info.value)


def test_annotate_given_the_spreadsheet_as_its_ratings_file_refuses_to_start_and_leaves_it_alone(quickstart, tmp_path):
    import shutil

    from gaia_eval.annotate import open_session
    from gaia_eval.annotate.sheet import run_ratings_template

    ws = tmp_path / "ws"
    shutil.copytree(quickstart, ws)
    sheet = run_ratings_template(ws / "evaluation", tmp_path, use_case="summarization").path
    before = sheet.read_bytes()
    with pytest.raises(InputError, match="not a ratings file"):
        open_session(ws / "evaluation", rater="zed", use_case="summarization", ratings=sheet)
    assert sheet.read_bytes() == before


def test_a_torn_line_in_the_middle_is_still_skipped(tmp_path):
    from gaia_eval.artifacts.ratings import append_rating, new_record, read_ratings

    path = tmp_path / "ratings.jsonl"
    append_rating(path, new_record("skip", "ann", unit="u001"))
    with open(path, "ab") as fh:
        fh.write(b'{"schema_version":1,"id":"0123')  # a crash mid-line; the next append starts a fresh line
    append_rating(path, new_record("skip", "ann", unit="u002"))
    log = read_ratings(path)
    assert [r.unit for r in log.records] == ["u001", "u002"] and log.torn_lines == [2]


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_meta_eval_names_a_ratings_path_that_is_a_folder_or_a_pipe_as_such(quickstart, tmp_path, kind):
    import os
    import shutil

    from click.testing import CliRunner

    from gaia_eval.cli import cli

    ws = tmp_path / "ws"
    shutil.copytree(quickstart, ws)
    CliRunner().invoke(cli, ["create-template", "--ratings", "-e", str(ws / "evaluation"), "-u", "summarization",
                             "-o", str(tmp_path / "sheet")])  # draws the sample
    path = tmp_path / "ratings.jsonl"
    path.mkdir() if kind == "folder" else os.mkfifo(path)
    result = CliRunner().invoke(
        cli, ["meta-eval", "--evaluations", str(ws / "evaluation"), "-u", "summarization", str(path)]
    )
    assert result.exit_code == 2 and ("is a folder" if kind == "folder" else "FIFO") in result.output, result.output
