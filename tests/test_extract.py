"""Text extraction from the inputs a user hands to groundtruth (.txt, .md, .html, .pdf), and finding quotes in it
despite the line breaks and typography extraction changes."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfWriter

from gaia_eval.errors import InputError
from gaia_eval.extract import extract_text
from gaia_eval.extract.html import html_text
from gaia_eval.extract.quotes import QuoteFinder, clean_quote, contains_words, list_items
from gaia_eval.generation.llm.pdf import parse_markup, pdf_safe_text, plain_text, render_pdf

REPORT = """# Harbor Freight Audit 2026

## Findings

The audit team reviewed 1,240 invoices from January to March and found that 3.5% were paid twice,
for a total of $61,300 in duplicate payments. Ingrid Alvarez will recover the duplicates from the
carriers by June 30, 2026.

## Controls

- Invoices above $10,000 need a second approver.
- The carrier master file is reviewed every quarter.
"""


def write_pdf(path: Path, markup: str) -> str:
    """Render `markup` to `path`; returns the text the PDF shows (its .txt twin)."""
    blocks = parse_markup(pdf_safe_text(markup))
    data, _ = render_pdf(blocks, author="Test Author")
    path.write_bytes(data)
    return plain_text(blocks)


def test_txt_and_md_are_read_as_they_are(tmp_path: Path):
    for name in ("notes.txt", "notes.md"):
        (tmp_path / name).write_text("# Plan\n\nShip on *Friday*.\n")
        extracted = extract_text(tmp_path / name)
        assert extracted.text == "# Plan\n\nShip on *Friday*.\n" and extracted.method == "text"


def test_html_keeps_visible_text_in_blocks_and_drops_scripts_and_styles(tmp_path: Path):
    page = tmp_path / "page.html"
    page.write_text(
        "<html><head><title>Hidden title</title><style>p { color: red }</style></head><body>"
        "<h1>Q3 plan &amp; budget</h1><p>The budget is\n   $48,500.</p><script>track()</script>"
        "<ul><li>Priya owns the review</li><li>Tom sends the deck</li></ul>"
        "<table><tr><td>Region</td><td>EMEA</td></tr></table>Line one<br>Line two</body></html>"
    )
    extracted = extract_text(page)
    assert extracted.method == "html"
    assert extracted.text == (
        "Q3 plan & budget\nThe budget is $48,500.\nPriya owns the review\nTom sends the deck\nRegion EMEA\n"
        "Line one\nLine two\n"
    )


def test_html_whose_head_is_not_closed_keeps_its_body_text():
    # HTML5 lets </head> be omitted; the body must not be taken for part of the head.
    page = "<html><head><meta charset=utf-8><title>T</title><body><p>Revenue was 5 million.</p></body></html>"
    assert html_text(page) == "Revenue was 5 million.\n"
    script_in_head = "<html><head><script>var x = 1;</script><style>p {}</style><p>Visible</p></html>"
    assert html_text(script_in_head) == "Visible\n"


def test_html_without_visible_text_is_an_input_error(tmp_path: Path):
    page = tmp_path / "empty.html"
    page.write_text("<html><head><script>x()</script></head><body>  </body></html>")
    with pytest.raises(InputError, match="no visible text"):
        extract_text(page)


def test_pdf_text_is_extracted_with_the_words_of_its_twin(tmp_path: Path):
    twin = write_pdf(tmp_path / "audit.pdf", REPORT)
    extracted = extract_text(tmp_path / "audit.pdf")
    assert extracted.method == "pdf:pypdf"
    assert extracted.text.split() == twin.split()  # same words; only the line breaks differ
    assert "1,240 invoices" in extracted.text


def test_damaged_encrypted_and_image_only_pdfs_are_input_errors_naming_the_file(tmp_path: Path):
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\n this is not really a pdf")
    with pytest.raises(InputError, match=r"broken.pdf: is not a readable PDF"):
        extract_text(broken)

    blank = PdfWriter()
    blank.add_blank_page(width=200, height=200)
    buffer = io.BytesIO()
    blank.write(buffer)
    (tmp_path / "scan.pdf").write_bytes(buffer.getvalue())
    with pytest.raises(InputError, match="no extractable text"):
        extract_text(tmp_path / "scan.pdf")

    locked = PdfWriter()
    locked.add_blank_page(width=200, height=200)
    locked.encrypt("secret")
    buffer = io.BytesIO()
    locked.write(buffer)
    (tmp_path / "locked.pdf").write_bytes(buffer.getvalue())
    with pytest.raises(InputError, match="encrypted"):
        extract_text(tmp_path / "locked.pdf")


def test_quotes_are_found_across_line_breaks_case_and_typography_and_returned_verbatim(tmp_path: Path):
    document = "The budget is $48,500.\nWe   moved the launch\nto June 3 \u2014 finally. It\u2019s done."
    quotes = QuoteFinder(document)
    assert quotes.find("we moved the launch to June 3") == "We   moved the launch\nto June 3"
    assert quotes.find('"...the launch to June 3 - finally."') == "the launch\nto June 3 \u2014 finally."
    assert quotes.find("It's done") == "It\u2019s done"
    assert quotes.find("the launch moved to June 3") is None
    assert quotes.find("  ") is None


def test_quote_helpers_strip_marks_and_split_list_answers():
    assert clean_quote("\u201c...Priya owns it\u2026\u201d") == "Priya owns it"
    assert list_items("Priya Shah, Tom Berg and Ana Costa") == ["Priya Shah", "Tom Berg", "Ana Costa"]
    assert list_items("EMEA; APAC") == ["EMEA", "APAC"]


@pytest.mark.parametrize(
    ("text", "phrase", "found"),
    [
        ("quote came in at $4,800 in 2012", "12", False),  # only inside a longer number
        ("quote came in at $4,800", "4", False),  # a comma between digits is inside the number
        ("quote came in at $4,800.", "$4,800", True),
        ("it costs $12 per seat", "12", True),
        ("Tom Bergman agreed", "Tom Berg", False),
        ("TOM   BERG\nagreed", "tom berg", True),
        ("start on April 6, 2026", "\u201cApril 6\u201d", True),
    ],
)
def test_contains_words_matches_whole_words_only(text: str, phrase: str, found: bool):
    assert contains_words(text, phrase) is found
