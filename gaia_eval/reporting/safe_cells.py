"""Cells that are safe in the exports: markdown that cannot inject markup or break a table, CSV that a
spreadsheet will not run as a formula."""

from __future__ import annotations

import html
from typing import Any

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")


def md_cell(value: Any) -> str:
    """Text from a model or a file name, shown literally in a markdown table cell: HTML escaped (no `<img
    onerror>` runs in a renderer), `|` escaped (the table keeps its columns), newlines folded."""
    text = html.escape(str(value), quote=False)
    text = text.replace("|", "\\|").replace("\r", " ").replace("\n", " ")
    for ch in "`*_[]":
        text = text.replace(ch, "\\" + ch)
    return text


def csv_cell(value: Any) -> Any:
    """A text cell starting like a formula (=, +, -, @) gets a leading apostrophe so spreadsheets show it as
    text (OWASP's CSV-injection advice); numbers pass unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_PREFIXES):
        return "'" + value
    return value
