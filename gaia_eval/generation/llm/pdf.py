"""Rendering a generated document to PDF with reportlab, from a light markup the LLM writes.

The markup is `# Title`, `## Heading` (or `###`), `- item` / `1. item` list lines and paragraphs separated by
blank lines; `**bold**` marks are dropped. The same blocks give the plain text of the `.txt` twin, so the twin
holds exactly the words the PDF shows. The PDF's standard fonts cover Latin-1, so typographic characters are
turned into their plain equivalents first (`pdf_safe_text`) and the twin is made from that text too.
The PDF bytes depend only on the content (reportlab's invariant mode): the same document renders the same file.
"""

from __future__ import annotations

import io
import re
import unicodedata
from dataclasses import dataclass
from typing import Literal
from xml.sax.saxutils import escape

BlockKind = Literal["title", "heading", "paragraph", "bullet"]

_TYPOGRAPHY = str.maketrans(
    {
        "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
        "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"',
        "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2212": "-",
        "\u2022": "-", "\u2023": "-", "\u25cf": "-", "\u00a0": " ", "\u202f": " ", "\u2009": " ", "\u2007": " ",
        "\u2026": "...", "\u20ac": "EUR ", "\u2122": "(TM)", "\u2192": "->", "\u2190": "<-", "\u2264": "<=",
        "\u2265": ">=", "\u2248": "~", "\u00d7": "x",
    }
)  # fmt: skip
_HEADING = re.compile(r"^(#{1,6})\s+(.*\S)\s*$")
_BULLET = re.compile(r"^\s*(?:[-*+]|(\d{1,3})[.)])\s+(.*\S)\s*$")
_EMPHASIS = re.compile(r"(\*\*|__)(.+?)\1")

PAGE_MARGIN_MM = 20
TITLE_PT, HEADING_PT, BODY_PT = 18, 13, 11


@dataclass(frozen=True)
class Block:
    kind: BlockKind
    text: str
    number: str | None = None  # the "3." of a numbered list item


def pdf_safe_text(text: str) -> str:
    """`text` with every character Latin-1 can encode: typographic marks become plain ones, accents stay,
    anything else is decomposed (NFKD) or, as a last resort, dropped."""
    text = text.translate(_TYPOGRAPHY)
    out: list[str] = []
    for char in text:
        if ord(char) < 256:
            out.append(char)
            continue
        plain = unicodedata.normalize("NFKD", char).encode("latin-1", "ignore").decode("latin-1")
        out.append(plain)
    return "".join(out)


def parse_markup(markup: str) -> list[Block]:
    """Blocks of the light markup; consecutive text lines join into one paragraph."""
    blocks: list[Block] = []
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            blocks.append(Block("paragraph", " ".join(paragraph)))
            paragraph.clear()

    for raw in markup.split("\n"):
        line = _EMPHASIS.sub(r"\2", raw).strip()
        if not line:
            flush()
            continue
        heading = _HEADING.match(line)
        bullet = _BULLET.match(line)
        if heading:
            flush()
            level = len(heading.group(1))
            kind: BlockKind = "title" if level == 1 and not blocks else "heading"
            blocks.append(Block(kind, heading.group(2).strip("# ")))
        elif bullet:
            flush()
            blocks.append(Block("bullet", bullet.group(2), f"{bullet.group(1)}." if bullet.group(1) else None))
        else:
            paragraph.append(line)
    flush()
    return blocks


def _bullet_text(block: Block) -> str:
    return f"{block.number or '-'} {block.text}"


def plain_text(blocks: list[Block]) -> str:
    """The document as plain text: what the `.txt` twin holds and what the PDF shows, block by block."""
    parts: list[str] = []
    for index, block in enumerate(blocks):
        text = _bullet_text(block) if block.kind == "bullet" else block.text
        follows_bullet = index > 0 and block.kind == "bullet" and blocks[index - 1].kind == "bullet"
        parts.append(("\n" if follows_bullet else "\n\n") + text if parts else text)
    return "".join(parts) + "\n"


def document_title(blocks: list[Block]) -> str:
    return next((b.text for b in blocks if b.kind == "title"), "")


def render_pdf(blocks: list[Block], *, author: str) -> tuple[bytes, int]:
    """The PDF bytes of the blocks and its page count. Block texts must already be `pdf_safe_text`."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, SimpleDocTemplate

    styles = {
        "title": ParagraphStyle("title", fontName="Helvetica-Bold", fontSize=TITLE_PT, leading=TITLE_PT * 1.25,
                                spaceAfter=10),
        "heading": ParagraphStyle("heading", fontName="Helvetica-Bold", fontSize=HEADING_PT,
                                  leading=HEADING_PT * 1.3, spaceBefore=8, spaceAfter=4),
        "paragraph": ParagraphStyle("paragraph", fontName="Helvetica", fontSize=BODY_PT, leading=BODY_PT * 1.4,
                                    spaceAfter=6),
        "bullet": ParagraphStyle("bullet", fontName="Helvetica", fontSize=BODY_PT, leading=BODY_PT * 1.4,
                                 leftIndent=4 * mm, spaceAfter=2),
    }
    story = [
        Paragraph(escape(_bullet_text(block) if block.kind == "bullet" else block.text), styles[block.kind])
        for block in blocks
    ]
    buffer = io.BytesIO()
    margin = PAGE_MARGIN_MM * mm
    document = SimpleDocTemplate(
        buffer, pagesize=A4, leftMargin=margin, rightMargin=margin, topMargin=margin, bottomMargin=margin,
        title=document_title(blocks), author=author, creator="gaia-eval", invariant=1,
    )
    document.build(story)
    return buffer.getvalue(), document.page
