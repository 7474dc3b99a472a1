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
