"""The text of a PDF, page by page with pypdf. Encrypted, damaged and image-only PDFs are InputErrors that say so.
Imported only when a PDF is read, so pypdf never slows down the CLI's start."""

from __future__ import annotations

import io
import logging
from pathlib import Path

from pypdf import PdfReader
from pypdf.errors import PdfReadError

from gaia_eval.artifacts.inputs import read_input_bytes
from gaia_eval.errors import InputError


def pdf_text(path: Path) -> str:
    path = Path(path)
    # pypdf logs each repair it attempts on a damaged file; the one-line InputError is what the user needs.
    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        pages = _page_texts(path)
    finally:
        logger.setLevel(level)
    text = "\n".join(page.strip("\n") for page in pages if page.strip())
    if not text.strip():
        raise InputError(
            "has no extractable text (a scanned image?)", file=path, fix="run OCR on it first, or pass a text version"
        )
    return text + "\n"


def _page_texts(path: Path) -> list[str]:
    try:
        reader = PdfReader(io.BytesIO(read_input_bytes(path, "a PDF file")))
        if reader.is_encrypted:
            raise InputError("is an encrypted PDF", file=path, fix="save an unencrypted copy and pass that")
        return [page.extract_text() or "" for page in reader.pages]
    except FileNotFoundError:
        raise InputError("file not found", file=path, fix="check the path") from None
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror})", file=path) from None
    except (PdfReadError, ValueError, KeyError, TypeError, RecursionError) as exc:
        raise InputError(f"is not a readable PDF ({exc})", file=path, fix="re-export or repair the PDF") from None
