"""Text of a user's input document, by file type: .txt/.md as they are, .html/.htm through the stdlib HTML
parser, .pdf through pypdf. Every problem (unreadable, binary, encrypted, no text) is an InputError naming the file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gaia_eval.artifacts.store import read_text_input
from gaia_eval.errors import InputError

TEXT_SUFFIXES = (".txt", ".md", ".markdown")
HTML_SUFFIXES = (".html", ".htm")
PDF_SUFFIXES = (".pdf",)
SUPPORTED_SUFFIXES = TEXT_SUFFIXES + HTML_SUFFIXES + PDF_SUFFIXES


@dataclass(frozen=True)
class ExtractedText:
    text: str
    method: str  # "text", "html", "pdf:pypdf"


def extract_text(path: Path) -> ExtractedText:
    """The document's text; a file with another extension is read as UTF-8 text (the stages' historic behaviour)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix in PDF_SUFFIXES:
        from gaia_eval.extract.pdf import pdf_text

        return ExtractedText(pdf_text(path), "pdf:pypdf")
    if suffix in HTML_SUFFIXES:
        from gaia_eval.extract.html import html_text

        text = html_text(read_text_input(path))
        if not text.strip():
            raise InputError("has no visible text", file=path, fix="pass an HTML page with text content")
        return ExtractedText(text, "html")
    return ExtractedText(read_text_input(path), "text")
