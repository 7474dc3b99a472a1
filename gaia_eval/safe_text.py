"""Text from data (system names, item ids, model replies) made inert in each place the tool writes it: a
spreadsheet cell (CSV), XML, markdown, a chart label, a terminal (`echo`). One function per place, so every
writer of that place applies the same rule. Imports nothing of gaia_eval: any layer may use it."""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Iterable
from typing import Any

# C0 controls, DEL and C1 controls: never meaningful inside a name, and ESC (\x1b) drives a terminal.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
# keeps \t and \n (our own messages use them); adds the bidi overrides, which reorder what a terminal shows
_TERMINAL_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# What XML 1.0 cannot hold at all, even escaped (its Char production).
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")

# A spreadsheet reads a cell starting with one of these as a formula (OWASP, CSV injection); the fullwidth forms
# are read as formulas by some East Asian spreadsheet settings.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal_text(text: str) -> str:
    """What may be printed to a terminal: control characters (ESC sequences, a bare CR that overwrites the line,
    a bell) shown as visible `\\xNN` text instead of being obeyed. Newlines and tabs stay."""
    return _TERMINAL_UNSAFE.sub(_visible, text)


def chart_text(text: str) -> str:
    """A name as a chart label: every control character shown as `\\xNN` text (no font has a glyph for it), and
    `$` escaped so matplotlib does not read `$...$` as mathtext (which may fail to parse and end the report)."""
    return _CONTROL.sub(_visible, text).replace("$", r"\$")


def xml_text(text: str) -> str:
    """A string XML 1.0 can hold: characters it forbids (most C0 controls, U+FFFE/U+FFFF, lone surrogates) shown
    as `\\xNN` text. The XML writer escapes & < > and quotes itself."""
    return _XML_INVALID.sub(_visible, text)


def scrub_xml_tree(root: Any) -> Any:
    """Every attribute value and text of an ElementTree element (and its children) through `xml_text`, so the
    serialised document parses whatever the ids and names held. Returns `root`."""
    for element in root.iter():
        for key, value in element.attrib.items():
            element.set(key, xml_text(value))
        if element.text:
            element.text = xml_text(element.text)
        if element.tail:
            element.tail = xml_text(element.tail)
    return root


def _formula_like(text: str) -> bool:
    body = text.lstrip("'")
    # a leading apostrophe before a formula start is ours to add, so one already there is kept apart from it
    return bool(body) and (body.startswith(FORMULA_START) or bool(_CONTROL.match(body[0])))


def csv_cell(value: Any) -> Any:
    """A cell a spreadsheet shows as text, never runs: a string starting like a formula (`=HYPERLINK(`, `@SUM(`,
    `-2+3`, a tab, a CR or any control character) gets a leading apostrophe. The choice is by type, not by look:
    a number the tool computed (an int or float, e.g. -0.5) stays a number a spreadsheet can sum, while a
    string from data is text even when it looks like a number (a system named "-0.5" is written '-0.5)."""
    if isinstance(value, str) and _formula_like(value):
        return "'" + value
    return value


def csv_uncell(text: str) -> str:
    """The string `csv_cell` was given: one leading apostrophe before a formula start is removed (a file a
    spreadsheet saved back without it reads the same)."""
    return text[1:] if text.startswith("'") and _formula_like(text[1:]) else text


def csv_document(rows: Iterable[Iterable[Any]]) -> str:
    """Rows as CSV text: CRLF line ends (RFC 4180), so any cell holding a CR or LF is quoted and cannot start a
    row; every cell through `csv_cell`."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
    for row in rows:
        writer.writerow([csv_cell(v) for v in row])
    return out.getvalue()


_MD_PUNCTUATION = re.compile(r"([\\`*\[\]~|])")
# `_` opens or closes emphasis only beside a non-alphanumeric: intraword underscores (gpt_4o_run) stay readable.
_MD_UNDERSCORE = re.compile(r"(?<![^\W_])_|_(?![^\W_])")


def markdown_text(text: str) -> str:
    """A string from data as inert inline markdown: no HTML or entity (`<img onerror=...>` shows as text), no link,
    image or autolink (`[x](javascript:...)`, `![x](...)`, `<http://...>`), no emphasis or code span, no `|`
    breaking a table, no line break, no control character. CommonMark renders it as the same text."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MD_PUNCTUATION.sub(r"\\\1", text)
    text = _MD_UNDERSCORE.sub(r"\\_", text)
    if "\n" in text or "\r" in text:
        text = " ".join(text.split())
    return _CONTROL.sub(_visible, text)



def markdown_code(text: str) -> str:
    """A string from data as an inline code span: shown exactly (nothing inside a code span is markup, so no
    escaping that would show as backslashes), except what could end the span or the table row: a backtick
    (shown as ˋ), a `|` (as `\\|`, which GFM tables read as |) and line breaks or control characters."""
    text = _CONTROL.sub(_visible, " ".join(text.split()) if "\n" in text or "\r" in text else text)
    return "`" + text.replace("`", "\u02cb").replace("|", "\\|") + "`"


# The terminal's unsafe characters, plus U+2028/U+2029: valid raw in JSON, but a reader splitting lines with
# str.splitlines (or JavaScript before ES2019) would cut the line there.
_JSON_LINE_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def json_line(value: Any) -> str:
    """`value` as one line of JSON that is also safe on a terminal: what a terminal would obey (DEL, C1 controls
    such as CSI U+009B, bidi overrides) written as JSON's own \\uXXXX escapes, which any JSON reader turns back
    into the same characters. (`terminal_text`'s \\xNN is not JSON: it made lines unreadable.) orjson already
    escapes C0 controls and writes the structure in ASCII, so every character replaced lies inside a string."""
    import orjson

    return _JSON_LINE_UNSAFE.sub(_json_escape, orjson.dumps(value).decode())


def stdout_closed() -> None:
    """The reader of our standard output went away (`gaia-eval report | head`): that is not an error. What is
    still printed goes to /dev/null, so the run finishes its work and exits as it would have."""
    import sys

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no real descriptor (a test runner's buffer): nothing to redirect
        pass


def _print(text: str, err: bool = False) -> None:
    import click

    try:
        click.echo(text, err=err)
    except BrokenPipeError:
        if not err:
            stdout_closed()


def echo_json(value: Any) -> None:
    """Print `value` as one line of JSON (see `json_line`); never through `terminal_text`."""
    _print(json_line(value))


_shown_as: dict[str, str] = {}  # a local folder -> what the user named (an s3:// workspace's mirror -> its URL)


def show_folder_as(folder: str, shown: str) -> None:
    """From now on, `echo` names `folder` (and what is inside it) as `shown`: a run on an object-storage
    workspace works in a local mirror, but the user named the bucket, and every line should too."""
    _shown_as[folder.rstrip("/")] = shown.rstrip("/")


def _as_named(text: str) -> str:
    for folder in sorted(_shown_as, key=len, reverse=True):  # the longest first: a mirror inside another's folder
        if folder in text:
            text = text.replace(folder, _shown_as[folder])
    return text


def echo(message: Any = "", *, err: bool = False) -> None:
    """THE way the command line prints: click.echo of `terminal_text`, so a name or a reply holding ESC
    sequences or a CR cannot recolour, rewrite or hide what the terminal shows. A closed stdout is not an error
    (`stdout_closed`). A mirror's folder is named by the URL the user gave (`show_folder_as`)."""
    _print(terminal_text(_as_named(str(message))), err=err)
